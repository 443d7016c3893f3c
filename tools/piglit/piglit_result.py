"""A piglit test's result from its exit status and its `PIGLIT: {...}` lines.

The rules are piglit's own (framework/test/base.py and piglit_test.py,
framework/results.py, framework/status.py), with one difference the project
asks for: a run that prints no `{"result": ...}` line is a crash (piglit
would leave it 'notrun'; every piglit test ends in piglit_report_result).

  - killed by a signal                  -> crash
  - no result line                      -> crash
  - subtests reported                   -> the worse of the result line and
                                           the worst subtest (piglit shows the
                                           subtests' worst alone, so a test that
                                           reports fail after passing subtests
                                           would show pass there)
  - non-zero exit: pass -> warn, anything else -> fail
The order from best to worst: skip/notrun (not counted), pass, warn, fail,
timeout, crash.  Timeouts are decided by the runner, not here.
"""
import json
import re

# piglit's status values (framework/status.py): skip and notrun are not
# counted, so any counted status beats them.
_RANK = {"notrun": 0, "skip": 0, "pass": 1, "warn": 2, "fail": 3, "timeout": 4, "crash": 5}


def _worst(statuses):
    best = None
    for s in statuses:
        if best is None or _RANK.get(s, 3) > _RANK.get(best, 3):
            best = s
    return best


def parse_lines(stdout_text):
    """(raw result or None, {subtest: status}) from a test's stdout."""
    result = None
    subtests = {}
    for line in stdout_text.splitlines():
        if not line.startswith("PIGLIT:"):
            continue
        try:
            obj = json.loads(line[len("PIGLIT:"):].strip())
        except ValueError:
            continue
        if not isinstance(obj, dict):
            continue
        if "enumerate subtests" in obj and isinstance(obj["enumerate subtests"], list):
            for n in obj["enumerate subtests"]:
                subtests.setdefault(str(n), "notrun")
        elif "result" in obj:
            result = str(obj["result"])
        elif "subtest" in obj and isinstance(obj["subtest"], dict):
            for n, s in obj["subtest"].items():
                subtests[str(n)] = str(s)
    return result, subtests


def interpret(returncode, stdout_text):
    """(status, {subtest: status}) for a finished run."""
    raw, subtests = parse_lines(stdout_text)
    if returncode < 0:
        # piglit marks the first subtest that never reported as the one
        # that crashed.
        for n, s in subtests.items():
            if s == "notrun":
                subtests[n] = "crash"
                break
        return "crash", subtests
    if raw is None:
        return "crash", subtests
    if raw == "skip":
        subtests = {n: ("skip" if s == "notrun" else s) for n, s in subtests.items()}
    status = _worst([raw] + list(subtests.values()))
    if returncode != 0:
        status = "warn" if status == "pass" else "fail"
    return status, subtests


_ERRORISH = re.compile(r"fail|error|fault|probe|expected|observed|abort|assert|unsupported", re.I)


def first_error(stdout_text, stderr_text):
    """The line most likely to say why a run went wrong, for a one-line report:
    the first non-empty stderr line (cedar-run's faults, Mesa's messages), else
    the first stdout line that sounds like one, else ''."""
    for line in stderr_text.splitlines():
        if line.strip():
            return line.strip()
    for line in stdout_text.splitlines():
        if not line.startswith("PIGLIT:") and _ERRORISH.search(line):
            return line.strip()
    return ""
