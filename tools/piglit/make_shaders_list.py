#!/usr/bin/env python3
"""Write tests/piglit/shaders.list: piglit's shader_runner execution tests of
the quick profile under spec@glsl-1.10@execution, spec@glsl-1.20@execution and
spec@glsl-1.30@execution, every one of them (nothing hand-picked).

    make_shaders_list.py [--piglit-dir DIR] [--cache FILE] > tests/piglit/shaders.list

The names come from the installed piglit's own framework (piglit_map loads the
profile); a test is taken when its name lies under one of the three groups and
its command runs shader_runner.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import piglit_map  # noqa: E402

GROUPS = ("spec@glsl-1.10@execution@", "spec@glsl-1.20@execution@", "spec@glsl-1.30@execution@")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--piglit-dir", default=piglit_map.DEFAULT_PIGLIT_DIR)
    ap.add_argument("--cache", default="build/piglit/map-quick.json")
    args = ap.parse_args(argv)
    tests = piglit_map.load(args.cache, args.piglit_dir, "quick")
    names = sorted(n for n, e in tests.items()
                   if n.startswith(GROUPS) and any(os.path.basename(c).startswith("shader_runner")
                                                   for c in e["command"][:1]))
    out = sys.stdout
    out.write("# shaders: piglit's shader_runner execution tests of the quick profile under\n"
              "# spec@glsl-1.10@execution, spec@glsl-1.20@execution and spec@glsl-1.30@execution,\n"
              "# all of them (%d), none hand-picked.  Generated from the installed piglit by\n"
              "#   python3 tools/piglit/make_shaders_list.py > tests/piglit/shaders.list\n"
              "# Run: make piglit LIST=tests/piglit/shaders.list (classified failures:\n"
              "# tests/piglit/shaders.expected).\n" % len(names))
    for n in names:
        out.write(n + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
