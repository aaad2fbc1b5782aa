#!/usr/bin/env python3
"""Count test cases over meson's JUnit files (TAP subtests appear as test cases)
and print the final 'N passed, N failed' line."""
import sys
import xml.etree.ElementTree as ET

passed = failed = 0
for path in sys.argv[1:]:
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
print(f"{passed} passed, {failed} failed")
