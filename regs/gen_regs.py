#!/usr/bin/env python3
"""Generate cedar's register header and decoder tables from regs/*.regs.

    gen_regs.py --header OUT.h --tables OUT.c FILE.regs...
    gen_regs.py --check FILE.regs...        (validate only)

The database format is described in regs/README.md.  Python 3 stdlib only.
"""
import argparse
import re
import sys

KINDS = {"uint": "EG_KIND_UINT", "sint": "EG_KIND_SINT", "bool": "EG_KIND_BOOL",
         "hex": "EG_KIND_HEX", "float": "EG_KIND_FLOAT", "addr8": "EG_KIND_ADDR8",
         "addr": "EG_KIND_ADDR"}
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class DbError(Exception):
    pass


class Field:
    def __init__(self, name, low, high, kind, enum, doc, where):
        self.name, self.low, self.high = name, low, high
        self.kind, self.enum, self.doc, self.where = kind, enum, doc, where


class Bitset:
    def __init__(self, name, where):
        self.name, self.where, self.fields = name, where, []


class Enum:
    def __init__(self, name, where):
        self.name, self.where, self.values = name, where, []


class Reg:
    def __init__(self, name, offset, where):
        self.name, self.offset, self.where = name, offset, where
        self.bitset = None
        self.kind = "hex"
        self.flags = []
        self.space = None
        self.doc = ""
        self.array = None   # (macro name, base, stride, first, index)


class PktDword:
    def __init__(self, name, index, where):
        self.name, self.index, self.where = name, index, where
        self.kind, self.flags, self.bitset = "hex", [], None


class Packet:
    def __init__(self, name, opcode, where):
        self.name, self.opcode, self.where = name, opcode, where
        self.count_min = self.count_max = -1
        self.flags, self.dwords, self.doc = [], [], ""


class Space:
    def __init__(self, name, start, end, packet, where):
        self.name, self.start, self.end, self.packet, self.where = name, start, end, packet, where


class RegSet:
    """A named set of register offsets with an optional rule and index per
    entry (e.g. the registers the radeon kernel lets user space write)."""
    def __init__(self, name, doc, where):
        self.name, self.doc, self.where = name, doc, where
        self.entries = []   # (offset, name, rule, index, where)


class Db:
    def __init__(self):
        self.spaces, self.bitsets, self.enums = [], {}, {}
        self.regs, self.packets = [], []
        self.arrays = {}   # macro name -> list of (base, stride, first, count)
        self.regsets = []


def parse_int(s, where):
    try:
        return int(s, 0)
    except ValueError:
        raise DbError(f"{where}: not a number: {s!r}")


def split_doc(line):
    """'text # doc' -> ('text', 'doc')"""
    if "#" in line:
        i = line.index("#")
        return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def parse_opts(tokens, where, allowed):
    opts = {}
    for t in tokens:
        if "=" not in t:
            raise DbError(f"{where}: expected key=value, got {t!r}")
        k, v = t.split("=", 1)
        if k not in allowed:
            raise DbError(f"{where}: unknown option {k!r} (allowed: {', '.join(sorted(allowed))})")
        opts[k] = v
    return opts


def check_ident(name, where):
    if not IDENT.match(name):
        raise DbError(f"{where}: bad name {name!r}")


def parse_field(tokens, doc, where):
    # field NAME LOW..HIGH | BIT [kind=K] [enum=E]
    if len(tokens) < 3:
        raise DbError(f"{where}: field needs NAME and BITS")
    name = tokens[1]
    check_ident(name, where)
    bits = tokens[2]
    if ".." in bits:
        lo, hi = bits.split("..", 1)
        low, high = parse_int(lo, where), parse_int(hi, where)
    else:
        low = high = parse_int(bits, where)
    if not (0 <= low <= high <= 31):
        raise DbError(f"{where}: field {name}: bad bit range {bits}")
    opts = parse_opts(tokens[3:], where, {"kind", "enum"})
    kind = opts.get("kind", "bool" if low == high and "enum" not in opts else "uint")
    if kind not in KINDS:
        raise DbError(f"{where}: unknown kind {kind!r}")
    if kind == "float" and (low, high) != (0, 31):
        raise DbError(f"{where}: float field must be 0..31")
    return Field(name, low, high, kind, opts.get("enum"), doc, where)


def parse(files):
    db = Db()
    for path in files:
        with open(path, encoding="utf-8") as fh:
            lines = fh.readlines()
        block = None      # object receiving 'field' / 'value' / 'dword' lines
        packet = None     # current packet for 'dword'
        for n, raw in enumerate(lines, 1):
            where = f"{path}:{n}"
            stripped = raw.strip()
            if not stripped or stripped.startswith("#"):
                continue
            indented = raw[0] in " \t"
            text, doc = split_doc(stripped)
            tok = text.split()
            d = tok[0]
            if not indented:
                block, packet = None, None
            if d == "space" and not indented:
                # space NAME START END [packet=OPNAME]
                if len(tok) < 4:
                    raise DbError(f"{where}: space NAME START END [packet=NAME]")
                opts = parse_opts(tok[4:], where, {"packet"})
                db.spaces.append(Space(tok[1], parse_int(tok[2], where), parse_int(tok[3], where),
                                       opts.get("packet"), where))
            elif d == "bitset" and not indented:
                if len(tok) != 2:
                    raise DbError(f"{where}: bitset NAME")
                check_ident(tok[1], where)
                if tok[1] in db.bitsets:
                    raise DbError(f"{where}: bitset {tok[1]} already defined at {db.bitsets[tok[1]].where}")
                block = Bitset(tok[1], where)
                db.bitsets[tok[1]] = block
            elif d == "enum" and not indented:
                if len(tok) != 2:
                    raise DbError(f"{where}: enum NAME")
                check_ident(tok[1], where)
                if tok[1] in db.enums:
                    raise DbError(f"{where}: enum {tok[1]} already defined at {db.enums[tok[1]].where}")
                block = Enum(tok[1], where)
                db.enums[tok[1]] = block
            elif d in ("reg", "array") and not indented:
                block = parse_reg(db, d, tok, doc, where)
            elif d == "packet" and not indented:
                # packet NAME OPCODE [count=N|A..B] [flags=a,b]
                if len(tok) < 3:
                    raise DbError(f"{where}: packet NAME OPCODE [count=..] [flags=..]")
                check_ident(tok[1], where)
                p = Packet(tok[1], parse_int(tok[2], where), where)
                p.doc = doc
                opts = parse_opts(tok[3:], where, {"count", "flags"})
                if "count" in opts:
                    c = opts["count"]
                    if ".." in c:
                        a, b = c.split("..", 1)
                        p.count_min, p.count_max = parse_int(a, where), parse_int(b, where)
                    else:
                        p.count_min = p.count_max = parse_int(c, where)
                p.flags = [f for f in opts.get("flags", "").split(",") if f]
                db.packets.append(p)
                packet, block = p, None
            elif d == "dword" and indented:
                # dword INDEX|* NAME [kind=K] [bitset=B] [flags=a,b]
                if packet is None:
                    raise DbError(f"{where}: dword outside a packet")
                if len(tok) < 3:
                    raise DbError(f"{where}: dword INDEX NAME [kind=] [bitset=] [flags=]")
                idx = -1 if tok[1] == "*" else parse_int(tok[1], where)
                check_ident(tok[2], where)
                dw = PktDword(tok[2], idx, where)
                opts = parse_opts(tok[3:], where, {"kind", "bitset", "flags"})
                dw.kind = opts.get("kind", "hex")
                if dw.kind not in KINDS:
                    raise DbError(f"{where}: unknown kind {dw.kind!r}")
                dw.bitset = opts.get("bitset")
                dw.flags = [f for f in opts.get("flags", "").split(",") if f]
                packet.dwords.append(dw)
                block = dw
            elif d == "regset" and not indented:
                # regset NAME, then indented OFFSET NAME [rule=R] [index=N] lines
                if len(tok) != 2:
                    raise DbError(f"{where}: regset NAME")
                check_ident(tok[1], where)
                if any(rs.name == tok[1] for rs in db.regsets):
                    raise DbError(f"{where}: regset {tok[1]} defined twice")
                block = RegSet(tok[1], doc, where)
                db.regsets.append(block)
            elif indented and isinstance(block, RegSet):
                if len(tok) < 2:
                    raise DbError(f"{where}: regset entry: OFFSET NAME [rule=R] [index=N]")
                check_ident(tok[1], where)
                opts = parse_opts(tok[2:], where, {"rule", "index"})
                rule = opts.get("rule")
                if rule is not None:
                    check_ident(rule, where)
                index = parse_int(opts["index"], where) if "index" in opts else 0
                block.entries.append((parse_int(tok[0], where), tok[1], rule, index, where))
            elif d == "field" and indented:
                f = parse_field(tok, doc, where)
                if isinstance(block, Bitset):
                    block.fields.append(f)
                elif isinstance(block, (Reg, PktDword, list)):
                    # Inline fields: an implicit bitset named after the
                    # register (array: its REG_ macro name; dword: PACKET_DWORD).
                    targets = block if isinstance(block, list) else [block]
                    if targets[0].bitset is None:
                        bname = implicit_bitset_name(block, packet)
                        if bname in db.bitsets:
                            raise DbError(f"{where}: implicit bitset {bname} clashes with {db.bitsets[bname].where}")
                        b = Bitset(bname, where)
                        b.owner = id(block)
                        db.bitsets[bname] = b
                        for t in targets:
                            t.bitset = bname
                    owner = db.bitsets.get(targets[0].bitset)
                    if owner is None or getattr(owner, "owner", None) != id(block):
                        raise DbError(f"{where}: inline fields for a register that names bitset={targets[0].bitset}")
                    owner.fields.append(f)
                else:
                    raise DbError(f"{where}: field outside a bitset/reg/array/dword")
            elif d == "value" and indented:
                # value NAME NUMBER
                if not isinstance(block, Enum) or len(tok) != 3:
                    raise DbError(f"{where}: value NAME NUMBER inside an enum")
                check_ident(tok[1], where)
                block.values.append((tok[1], parse_int(tok[2], where), doc, where))
            else:
                raise DbError(f"{where}: unexpected {'indented ' if indented else ''}{d!r}")
    return db


def implicit_bitset_name(block, packet):
    if isinstance(block, PktDword):
        return f"{packet.name}_{block.name}"
    if isinstance(block, list):
        return block[0].array[0]
    return block.name


def parse_reg(db, d, tok, doc, where):
    # reg NAME OFFSET [bitset=B] [kind=K] [flags=a,b] [space=S]
    # array NAME{i} OFFSET [stride=S] [count=N] [first=F] [bitset=B] [kind=K] [flags=a,b] [space=S]
    if len(tok) < 3:
        raise DbError(f"{where}: {d} NAME OFFSET ...")
    name, offset = tok[1], parse_int(tok[2], where)
    allowed = {"bitset", "kind", "flags", "space"}
    if d == "array":
        allowed |= {"stride", "count", "first"}
    opts = parse_opts(tok[3:], where, allowed)
    if d == "reg":
        check_ident(name, where)
        names = [(name, offset, None)]
    else:
        if "{i}" not in name:
            raise DbError(f"{where}: array name needs {{i}}")
        for k in ("stride", "count"):
            if k not in opts:
                raise DbError(f"{where}: array needs {k}=")
        stride, count = parse_int(opts["stride"], where), parse_int(opts["count"], where)
        first = parse_int(opts.get("first", "0"), where)
        macro = name.replace("{i}", "")
        macro = re.sub("__+", "_", macro).strip("_")
        check_ident(macro, where)
        db.arrays.setdefault(macro, []).append((offset, stride, first, count, where))
        names = [(name.replace("{i}", str(first + i)), offset + i * stride, (macro, i + first))
                 for i in range(count)]
    regs = []
    for rname, roff, arr in names:
        check_ident(rname, where)
        r = Reg(rname, roff, where)
        r.bitset = opts.get("bitset")
        r.kind = opts.get("kind", "hex")
        if r.kind not in KINDS:
            raise DbError(f"{where}: unknown kind {r.kind!r}")
        r.flags = [f for f in opts.get("flags", "").split(",") if f]
        r.space = opts.get("space")
        r.doc = doc
        r.array = arr
        db.regs.append(r)
        regs.append(r)
    return regs[0] if d == "reg" else regs


def validate(db):
    errs = []
    names = {}
    offsets = {}
    space_names = {s.name for s in db.spaces}
    pkt_names = {p.name for p in db.packets}
    for s in db.spaces:
        if s.packet and s.packet not in pkt_names:
            errs.append(f"{s.where}: space {s.name}: unknown packet {s.packet}")
        if s.start % 4 or s.end % 4 or s.start >= s.end:
            errs.append(f"{s.where}: space {s.name}: bad range")
    for r in db.regs:
        if r.name in names:
            errs.append(f"{r.where}: register {r.name} also defined at {names[r.name].where}")
        names[r.name] = r
        if r.offset % 4:
            errs.append(f"{r.where}: {r.name}: offset 0x{r.offset:X} not dword aligned")
        if r.bitset and r.bitset not in db.bitsets:
            errs.append(f"{r.where}: {r.name}: unknown bitset {r.bitset}")
        if r.space and r.space not in space_names:
            errs.append(f"{r.where}: {r.name}: unknown space {r.space}")
        sp = find_space(db, r)
        if sp is None:
            errs.append(f"{r.where}: {r.name}: offset 0x{r.offset:X} is in no declared space")
        key = (r.offset, sp.name if sp else None)
        if key in offsets:
            errs.append(f"{r.where}: {r.name}: offset 0x{r.offset:X} already used by {offsets[key].name} ({offsets[key].where})")
        offsets[key] = r
    for b in db.bitsets.values():
        used = 0
        seen = set()
        for f in b.fields:
            m = ((1 << (f.high - f.low + 1)) - 1) << f.low
            if used & m:
                errs.append(f"{f.where}: {b.name}.{f.name} overlaps another field")
            used |= m
            if f.name in seen:
                errs.append(f"{f.where}: {b.name}.{f.name} defined twice")
            seen.add(f.name)
            if f.enum and f.enum not in db.enums:
                errs.append(f"{f.where}: {b.name}.{f.name}: unknown enum {f.enum}")
            elif f.enum:
                w = f.high - f.low + 1
                for vn, vv, _, vw in db.enums[f.enum].values:
                    if vv >= (1 << w):
                        errs.append(f"{vw}: {f.enum}.{vn} = {vv} does not fit {b.name}.{f.name} ({w} bits)")
    for e in db.enums.values():
        seen = set()
        for vn, vv, _, vw in e.values:
            if vn in seen:
                errs.append(f"{vw}: {e.name}.{vn} defined twice")
            seen.add(vn)
    ops = {}
    for p in db.packets:
        if p.opcode in ops:
            errs.append(f"{p.where}: packet {p.name}: opcode 0x{p.opcode:X} also {ops[p.opcode].name}")
        ops[p.opcode] = p
        if not (0 <= p.opcode <= 0xFF):
            errs.append(f"{p.where}: packet {p.name}: opcode out of range")
        for dw in p.dwords:
            if dw.bitset and dw.bitset not in db.bitsets:
                errs.append(f"{dw.where}: {p.name}.{dw.name}: unknown bitset {dw.bitset}")
    for macro, segs in db.arrays.items():
        if macro in names and names[macro].array is None:
            errs.append(f"{segs[0][4]}: array macro REG_{macro}() clashes with register {macro}")
    for rs in db.regsets:
        seen = {}
        for off, name, rule, index, where in rs.entries:
            if off % 4:
                errs.append(f"{where}: {rs.name} {name}: offset 0x{off:X} not dword aligned")
            if off in seen:
                errs.append(f"{where}: {rs.name}: offset 0x{off:X} also {seen[off]}")
            seen[off] = name
            if not (0 <= index <= 0xFFFF):
                errs.append(f"{where}: {rs.name} {name}: index out of range")
            # Entry names are the source's (the kernel's names differ from
            # Mesa's in places: VGT_NUM_INSTANCES is 0x8974 there, 0x28A88
            # here), so they are not checked against the registers.
    flags = set()
    for r in db.regs:
        flags.update(r.flags)
    if len(flags) > 32:
        errs.append(f"more than 32 register flags: {sorted(flags)}")
    pflags = set()
    for p in db.packets:
        pflags.update(p.flags)
        for dw in p.dwords:
            pflags.update(dw.flags)
    if len(pflags) > 32:
        errs.append(f"more than 32 packet flags: {sorted(pflags)}")
    if errs:
        raise DbError("\n".join(errs))


def find_space(db, r):
    if r.space:
        for s in db.spaces:
            if s.name == r.space:
                return s
        return None
    for s in db.spaces:
        if s.start <= r.offset < s.end:
            return s
    return None


def cstr(s):
    if s is None:
        return "NULL"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def all_flags(db):
    rf = sorted({f for r in db.regs for f in r.flags})
    pf = sorted({f for p in db.packets for f in p.flags} | {f for p in db.packets for dw in p.dwords for f in dw.flags})
    return rf, pf


def emit_header(db, out):
    w = out.append
    w("/* Generated by regs/gen_regs.py from the regs database: do not edit. */")
    w("#ifndef CEDAR_EG_REGS_H\n#define CEDAR_EG_REGS_H\n")
    w("#include <stdint.h>\n#include \"cedar/regdb.h\"\n")
    rf, pf = all_flags(db)
    w("/* register flags */")
    for i, f in enumerate(rf):
        w(f"#define EG_REGF_{f.upper()} (1u << {i})")
    w("/* packet / packet dword flags */")
    for i, f in enumerate(pf):
        w(f"#define EG_PKTF_{f.upper()} (1u << {i})")
    w("\n/* address spaces */")
    for s in db.spaces:
        w(f"#define SPACE_{s.name.upper()}_START 0x{s.start:05X}u")
        w(f"#define SPACE_{s.name.upper()}_END 0x{s.end:05X}u")
    w("\n/* type-3 packet opcodes */")
    for p in sorted(db.packets, key=lambda p: p.opcode):
        w(f"#define PKT3_{p.name} 0x{p.opcode:02X}u")
    w("\n/* register offsets (bytes) */")
    for r in sorted(db.regs, key=lambda r: (r.offset, r.name)):
        w(f"#define REG_{r.name} 0x{r.offset:05X}u")
    w("\n/* register arrays: REG_NAME(i) */")
    for macro, segs in sorted(db.arrays.items()):
        segs = sorted(segs, key=lambda s: s[2])
        body = []
        for base, stride, first, count, _ in segs:
            lo = f"i >= {first}u && " if first else ""
            body.append(f"    if ({lo}i < {first + count}u) return 0x{base:05X}u + (i - {first}u) * 0x{stride:X}u;")
        w(f"static inline uint32_t REG_{macro}(unsigned i)\n{{")
        w("\n".join(body))
        w(f"    eg_field_overflow(\"REG_{macro}() index\", (int64_t)i, {segs[0][2]}, {segs[-1][2] + segs[-1][3] - 1});\n}}")
    w("\n/* enum values */")
    for e in sorted(db.enums.values(), key=lambda e: e.name):
        for vn, vv, _, _ in e.values:
            w(f"#define V_{e.name}__{vn} 0x{vv:X}u")
    emit_regsets_header(db, w)
    w("\n/* fields: NAME__FIELD__SHIFT/__MASK, S_NAME__FIELD(v) checks the value fits, G_NAME__FIELD(reg) */")
    for b in sorted(db.bitsets.values(), key=lambda b: b.name):
        for f in b.fields:
            width = f.high - f.low + 1
            mask = ((1 << width) - 1)
            p = f"{b.name}__{f.name}"
            w(f"#define {p}__SHIFT {f.low}")
            w(f"#define {p}__WIDTH {width}")
            w(f"#define {p}__MASK 0x{mask << f.low:08X}u")
            if f.kind == "sint":
                lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
                w(f"static inline uint32_t S_{p}(int32_t v)\n{{\n    if (v < {lo} || v > {hi}) eg_field_overflow(\"{b.name}.{f.name}\", v, {lo}, {hi});\n"
                  f"    return ((uint32_t)v & 0x{mask:X}u) << {f.low};\n}}")
                w(f"static inline int32_t G_{p}(uint32_t r)\n{{\n    uint32_t v = (r >> {f.low}) & 0x{mask:X}u;\n"
                  f"    return (int32_t)(v ^ 0x{1 << (width - 1):X}u) - 0x{1 << (width - 1):X};\n}}")
            elif f.kind == "float":
                w(f"static inline uint32_t S_{p}(float v)\n{{\n    union {{ float f; uint32_t u; }} c = {{ .f = v }};\n    return c.u;\n}}")
                w(f"static inline float G_{p}(uint32_t r)\n{{\n    union {{ float f; uint32_t u; }} c = {{ .u = r }};\n    return c.f;\n}}")
            else:
                w(f"static inline uint32_t S_{p}(uint64_t v)\n{{\n    if (v > 0x{mask:X}u) eg_field_overflow(\"{b.name}.{f.name}\", (int64_t)v, 0, 0x{mask:X});\n"
                  f"    return (uint32_t)v << {f.low};\n}}")
                w(f"static inline uint32_t G_{p}(uint32_t r)\n{{\n    return (r >> {f.low}) & 0x{mask:X}u;\n}}")
    w("\n#endif")


def regset_rules(db):
    return sorted({rule for rs in db.regsets for _, _, rule, _, _ in rs.entries if rule})


def emit_regsets_header(db, w):
    w("\n/* register sets (`regset`): eg_regsets[REGSET_<NAME>], entries sorted by offset;")
    w(" * REGSET_RULE_<RULE> numbers the rules (0 = none) */")
    w("struct eg_regset_entry {\n    uint32_t offset;\n    const char *name;\n    uint16_t rule;\n    uint16_t index;\n};")
    w("struct eg_regset {\n    const char *name;\n    unsigned count;\n    const struct eg_regset_entry *entries;\n    const char *doc;\n};")
    w("extern const struct eg_regset eg_regsets[];\nextern const unsigned eg_regsets_count;")
    w("extern const char *const eg_regset_rule_names[];  /* [REGSET_RULE_x] -> \"x\" */")
    w("/* The entry for offset in set (REGSET_<NAME>), NULL when the set lacks it. */")
    w("const struct eg_regset_entry *eg_regset_lookup(unsigned set, uint32_t offset);")
    for i, rs in enumerate(db.regsets):
        w(f"#define REGSET_{rs.name} {i}u")
    for i, rule in enumerate(regset_rules(db), 1):
        w(f"#define REGSET_RULE_{rule} {i}u")


def emit_regsets_tables(db, w):
    rules = {r: i for i, r in enumerate(regset_rules(db), 1)}
    for rs in db.regsets:
        w(f"static const struct eg_regset_entry regset_{rs.name}[] = {{")
        for off, name, rule, index, _ in sorted(rs.entries):
            w(f"    {{ 0x{off:05X}u, {cstr(name)}, {rules.get(rule, 0)}, {index} }},")
        if not rs.entries:
            w("    { 0, NULL, 0, 0 },")
        w("};")
    w("const struct eg_regset eg_regsets[] = {")
    for rs in db.regsets:
        w(f"    {{ {cstr(rs.name)}, {len(rs.entries)}, regset_{rs.name}, {cstr(rs.doc or None)} }},")
    if not db.regsets:
        w("    { NULL, 0, NULL, NULL },")
    w("};")
    w(f"const unsigned eg_regsets_count = {len(db.regsets)};")
    w("const char *const eg_regset_rule_names[] = {\n    NULL,")
    for r in rules:
        w(f"    {cstr(r)},")
    w("};")
    w(r"""const struct eg_regset_entry *eg_regset_lookup(unsigned set, uint32_t offset)
{
    if (set >= eg_regsets_count)
        return NULL;
    const struct eg_regset *s = &eg_regsets[set];
    unsigned lo = 0, hi = s->count;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (s->entries[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->count && s->entries[lo].offset == offset ? &s->entries[lo] : NULL;
}
""")


def emit_tables(db, out):
    w = out.append
    w("/* Generated by regs/gen_regs.py from the regs database: do not edit. */")
    w("#include <stddef.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"cedar/regdb.h\"\n#include \"eg_regs.h\"\n")
    rf, pf = all_flags(db)
    enums = sorted(db.enums.values(), key=lambda e: e.name)
    eidx = {e.name: i for i, e in enumerate(enums)}
    for e in enums:
        w(f"static const struct eg_enum_value enum_{e.name}[] = {{")
        for vn, vv, doc, _ in e.values:
            w(f"    {{ {cstr(vn)}, 0x{vv:X}u, {cstr(doc or None)} }},")
        if not e.values:
            w("    { NULL, 0, NULL },")
        w("};")
    w(f"const struct eg_enum eg_enums[] = {{")
    for e in enums:
        w(f"    {{ {cstr(e.name)}, {len(e.values)}, enum_{e.name} }},")
    if not enums:
        w("    { NULL, 0, NULL },")
    w("};")
    w(f"const unsigned eg_enums_count = {len(enums)};\n")
    bitsets = sorted(db.bitsets.values(), key=lambda b: b.name)
    bidx = {b.name: i for i, b in enumerate(bitsets)}
    for b in bitsets:
        w(f"static const struct eg_field fields_{b.name}[] = {{")
        for f in sorted(b.fields, key=lambda f: f.low):
            en = f"&eg_enums[{eidx[f.enum]}]" if f.enum else "NULL"
            w(f"    {{ {cstr(f.name)}, {f.low}, {f.high}, {KINDS[f.kind]}, {en}, {cstr(f.doc or None)} }},")
        if not b.fields:
            w("    { NULL, 0, 0, 0, NULL, NULL },")
        w("};")
    w("const struct eg_bitset eg_bitsets[] = {")
    for b in bitsets:
        w(f"    {{ {cstr(b.name)}, {len(b.fields)}, fields_{b.name} }},")
    if not bitsets:
        w("    { NULL, 0, NULL },")
    w("};")
    w(f"const unsigned eg_bitsets_count = {len(bitsets)};\n")
    sidx = {s.name: i for i, s in enumerate(db.spaces)}
    w("const struct eg_space eg_spaces[] = {")
    for s in db.spaces:
        op = f"PKT3_{s.packet}" if s.packet else "-1"
        w(f"    {{ {cstr(s.name)}, 0x{s.start:X}u, 0x{s.end:X}u, {op} }},")
    w("};")
    w(f"const unsigned eg_spaces_count = {len(db.spaces)};\n")
    w("const struct eg_reg eg_regs[] = {")
    for r in sorted(db.regs, key=lambda r: (r.offset, r.name)):
        sp = find_space(db, r)
        fl = " | ".join(f"EG_REGF_{f.upper()}" for f in r.flags) or "0"
        bs = f"&eg_bitsets[{bidx[r.bitset]}]" if r.bitset else "NULL"
        w(f"    {{ {cstr(r.name)}, 0x{r.offset:05X}u, {sidx[sp.name]}, {KINDS[r.kind]}, {fl}, {bs}, {cstr(r.doc or None)} }},")
    w("};")
    w(f"const unsigned eg_regs_count = {len(db.regs)};\n")
    pk = sorted(db.packets, key=lambda p: p.opcode)
    for p in pk:
        w(f"static const struct eg_pkt_dword dwords_{p.name}[] = {{")
        for dw in p.dwords:
            fl = " | ".join(f"EG_PKTF_{f.upper()}" for f in dw.flags) or "0"
            bs = f"&eg_bitsets[{bidx[dw.bitset]}]" if dw.bitset else "NULL"
            w(f"    {{ {cstr(dw.name)}, {dw.index}, {KINDS[dw.kind]}, {fl}, {bs} }},")
        if not p.dwords:
            w("    { NULL, 0, 0, 0, NULL },")
        w("};")
    w("const struct eg_packet eg_packets[] = {")
    for p in pk:
        fl = " | ".join(f"EG_PKTF_{f.upper()}" for f in p.flags) or "0"
        w(f"    {{ {cstr(p.name)}, 0x{p.opcode:02X}u, {p.count_min}, {p.count_max}, {fl}, {len(p.dwords)}, dwords_{p.name}, {cstr(p.doc or None)} }},")
    if not pk:
        w("    { NULL, 0, 0, 0, 0, 0, NULL, NULL },")
    w("};")
    w(f"const unsigned eg_packets_count = {len(pk)};\n")
    w("const char *const eg_reg_flag_names[32] = {")
    for i, f in enumerate(rf):
        w(f"    [{i}] = {cstr(f)},")
    w("};")
    w("const char *const eg_pkt_flag_names[32] = {")
    for i, f in enumerate(pf):
        w(f"    [{i}] = {cstr(f)},")
    w("};")
    emit_regsets_tables(db, w)
    w(LOOKUP_C)


LOOKUP_C = r"""
const struct eg_reg *eg_reg_find(uint32_t offset)
{
    /* eg_regs is sorted by offset; spaces may share an offset (resources and
     * ALU constants), the first entry wins here. */
    unsigned lo = 0, hi = eg_regs_count;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (eg_regs[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < eg_regs_count && eg_regs[lo].offset == offset ? &eg_regs[lo] : NULL;
}

const struct eg_reg *eg_reg_find_name(const char *name)
{
    for (unsigned i = 0; i < eg_regs_count; i++)
        if (strcmp(eg_regs[i].name, name) == 0)
            return &eg_regs[i];
    return NULL;
}

const struct eg_space *eg_space_of(uint32_t offset, int packet_opcode)
{
    for (unsigned i = 0; i < eg_spaces_count; i++) {
        const struct eg_space *s = &eg_spaces[i];
        if (offset >= s->start && offset < s->end && (packet_opcode < 0 || s->packet == packet_opcode))
            return s;
    }
    return NULL;
}

const struct eg_space *eg_space_find_name(const char *name)
{
    for (unsigned i = 0; i < eg_spaces_count; i++)
        if (strcmp(eg_spaces[i].name, name) == 0)
            return &eg_spaces[i];
    return NULL;
}

const struct eg_packet *eg_packet_find(unsigned opcode)
{
    for (unsigned i = 0; i < eg_packets_count; i++)
        if (eg_packets[i].name && eg_packets[i].opcode == opcode)
            return &eg_packets[i];
    return NULL;
}

const struct eg_packet *eg_packet_find_name(const char *name)
{
    for (unsigned i = 0; i < eg_packets_count; i++)
        if (eg_packets[i].name && strcmp(eg_packets[i].name, name) == 0)
            return &eg_packets[i];
    return NULL;
}

const struct eg_enum *eg_enum_find_name(const char *name)
{
    for (unsigned i = 0; i < eg_enums_count; i++)
        if (strcmp(eg_enums[i].name, name) == 0)
            return &eg_enums[i];
    return NULL;
}

const struct eg_bitset *eg_bitset_find_name(const char *name)
{
    for (unsigned i = 0; i < eg_bitsets_count; i++)
        if (strcmp(eg_bitsets[i].name, name) == 0)
            return &eg_bitsets[i];
    return NULL;
}

const struct eg_field *eg_bitset_field(const struct eg_bitset *b, const char *name)
{
    for (unsigned i = 0; b && i < b->count; i++)
        if (strcmp(b->fields[i].name, name) == 0)
            return &b->fields[i];
    return NULL;
}

const char *eg_enum_value_name(const struct eg_enum *e, uint32_t value)
{
    for (unsigned i = 0; e && i < e->count; i++)
        if (e->values[i].value == value)
            return e->values[i].name;
    return NULL;
}

bool eg_enum_value_find(const struct eg_enum *e, const char *name, uint32_t *value)
{
    for (unsigned i = 0; e && i < e->count; i++)
        if (strcmp(e->values[i].name, name) == 0) {
            *value = e->values[i].value;
            return true;
        }
    return false;
}

_Noreturn void eg_field_overflow(const char *field, int64_t value, int64_t min, int64_t max)
{
    fprintf(stderr, "cedar: value %lld does not fit %s (%lld..%lld)\n",
            (long long)value, field, (long long)min, (long long)max);
    abort();
}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--header")
    ap.add_argument("--tables")
    ap.add_argument("--check", action="store_true", help="validate only")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    try:
        db = parse(a.files)
        validate(db)
    except DbError as e:
        print(f"gen_regs: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"gen_regs: {e}", file=sys.stderr)
        return 1
    if a.check:
        print(f"gen_regs: {len(db.regs)} registers, {len(db.bitsets)} bitsets, {len(db.enums)} enums, "
              f"{len(db.packets)} packets: ok")
        return 0
    if a.header:
        out = []
        emit_header(db, out)
        with open(a.header, "w", encoding="utf-8") as fh:
            fh.write("\n".join(out) + "\n")
    if a.tables:
        out = []
        emit_tables(db, out)
        with open(a.tables, "w", encoding="utf-8") as fh:
            fh.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
