"""Piglit test name -> command map, read from an installed piglit's profiles.

Piglit's own framework knows how each test is run (TEST_BIN_DIR prefix,
-auto/-fbo, shader_runner for .shader_test files, per-test environment), so the
map is made by loading a profile with that framework in a child python and
dumping every test's command as a JSON list.  `piglit print-cmd` prints the
same commands but joins them with spaces, which loses arguments that contain
one (e.g. `glslparsertest ... '3.10 es'`), hence the direct dump.

Loading the `all` profile takes a few seconds, so the map is cached as JSON
and rebuilt when the profile files change.
"""
import json
import os
import subprocess
import sys

DEFAULT_PIGLIT_DIR = "/usr/lib/x86_64-linux-gnu/piglit"

# Run in a child python with the piglit data directory first on sys.path:
# argv = [piglit_dir, profile]; prints the map as JSON on stdout.
_DUMP = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from framework import profile
tests = {}
for name, t in profile.load_test_profile(sys.argv[2]).itertests():
    tests[name] = {
        "command": [str(c) for c in t.command],
        "env": {str(k): str(v) for k, v in (t.env or {}).items()},
        "require_platforms": list(getattr(t, "require_platforms", None) or []),
        "exclude_platforms": list(getattr(t, "exclude_platforms", None) or []),
    }
json.dump(tests, sys.stdout)
"""


class MapError(Exception):
    pass


def _stamp(piglit_dir, profile):
    """What the map depends on: the profile files' names, sizes and times."""
    tests_dir = os.path.join(piglit_dir, "tests")
    try:
        names = sorted(os.listdir(tests_dir))
    except OSError as e:
        raise MapError("piglit not found at %s (%s); install the Debian package "
                       "'piglit' (tools/install-deps --piglit)" % (piglit_dir, e.strerror))
    parts = [piglit_dir, profile]
    for n in names:
        st = os.stat(os.path.join(tests_dir, n))
        if os.path.isfile(os.path.join(tests_dir, n)):
            parts.append("%s:%d:%d" % (n, st.st_size, int(st.st_mtime)))
    return "|".join(parts)


def _generate(piglit_dir, profile):
    if not os.path.isdir(os.path.join(piglit_dir, "framework")):
        raise MapError("%s has no piglit framework/; install the Debian package 'piglit' "
                       "(tools/install-deps --piglit) or pass --piglit-dir" % piglit_dir)
    p = subprocess.run([sys.executable, "-c", _DUMP, piglit_dir, profile],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise MapError("loading piglit profile '%s' failed: %s" % (profile, last))
    try:
        tests = json.loads(p.stdout)
    except ValueError as e:
        raise MapError("piglit profile dump is not JSON: %s" % e)
    if not tests:
        raise MapError("piglit profile '%s' has no tests" % profile)
    return tests


def load(cache_path, piglit_dir=DEFAULT_PIGLIT_DIR, profile="all", log=None):
    """The {name: entry} map, from cache_path when it is current."""
    stamp = _stamp(piglit_dir, profile)
    try:
        with open(cache_path) as f:
            cached = json.load(f)
        if cached.get("stamp") == stamp and isinstance(cached.get("tests"), dict):
            return cached["tests"]
    except (OSError, ValueError):
        pass
    if log:
        log("piglit: reading profile '%s' from %s into %s (once)" % (profile, piglit_dir, cache_path))
    tests = _generate(piglit_dir, profile)
    os.makedirs(os.path.dirname(cache_path) or ".", exist_ok=True)
    tmp = cache_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"stamp": stamp, "tests": tests}, f)
    os.replace(tmp, cache_path)
    return tests


def load_file(path):
    """A map written by hand: {name: entry} or {"tests": {name: entry}}."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise MapError("cannot read map %s: %s" % (path, e.strerror))
    except ValueError as e:
        raise MapError("map %s is not JSON: %s" % (path, e))
    tests = data.get("tests", data) if isinstance(data, dict) else None
    if not isinstance(tests, dict):
        raise MapError("map %s: expected an object of test name -> entry" % path)
    for name, e in tests.items():
        if not (isinstance(e, dict) and isinstance(e.get("command"), list) and e["command"]
                and all(isinstance(c, str) for c in e["command"])):
            raise MapError("map %s: test '%s' has no command list" % (path, name))
    return tests
