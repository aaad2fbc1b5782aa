#!/usr/bin/env python3
"""Count test cases over meson's JUnit files (TAP subtests appear as test cases)
and print the final 'N passed, N failed' line.

A test program that dies half-way (a sanitizer abort) leaves only the
subtests it finished in the JUnit file, all passed: so meson's testlog.json
beside each JUnit file is read too, and every test whose own result is a
failure counts as one more failed case.

Steps that are not meson tests count too: `--step NAME:pass|fail` one case
(the coverage gate, the fuzz run), `--counts NAME:P:F` P passed and F failed
cases (valgrind-check's own count), so a failing step never leaves the last
line at "0 failed"."""
import json
import os
import sys
import xml.etree.ElementTree as ET

BAD = {"FAIL", "ERROR", "TIMEOUT", "UNEXPECTEDPASS"}

passed = failed = 0
args = sys.argv[1:]
paths = []
while args:
    a = args.pop(0)
    if a in ("--step", "--counts") and args:
        spec = args.pop(0).split(":")
        if a == "--step" and len(spec) == 2 and spec[1] in ("pass", "fail"):
            if spec[1] == "pass":
                passed += 1
            else:
                print(f"failed: {spec[0]}", file=sys.stderr)
                failed += 1
        elif a == "--counts" and len(spec) == 3 and spec[1].isdigit() and spec[2].isdigit():
            passed += int(spec[1])
            failed += int(spec[2])
            if int(spec[2]):
                print(f"failed: {spec[0]} ({spec[2]} of its checks)", file=sys.stderr)
        else:
            print(f"count-results: bad {a} {':'.join(spec)}", file=sys.stderr)
            failed += 1
    else:
        paths.append(a)
for path in paths:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"{path}: cannot read test results: {e}", file=sys.stderr)
        failed += 1
        continue
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            # a skip is not a pass: count it as neither, but say so
            print(f"skipped: {case.get('classname')} {case.get('name')}", file=sys.stderr)
        else:
            passed += 1
    # testlog.junit.xml -> testlog.json; a setup's testlog-NAME.junit.xml -> testlog-NAME.json
    base = os.path.basename(path)
    log = os.path.join(os.path.dirname(path),
                       base[:-len(".junit.xml")] + ".json" if base.endswith(".junit.xml") else "testlog.json")
    try:
        with open(log, encoding="utf-8") as f:
            for line in f:
                t = json.loads(line)
                if t.get("result") in BAD:
                    print(f"failed: {t.get('name')} ({t.get('result')})", file=sys.stderr)
                    failed += 1
    except (OSError, ValueError) as e:
        print(f"{log}: cannot read test results: {e}", file=sys.stderr)
        failed += 1
print(f"{passed} passed, {failed} failed")
