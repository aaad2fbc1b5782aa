#!/usr/bin/env python3
"""Summarise gcovr's text report per top-level module (line coverage)."""
import re
import sys
from collections import defaultdict

tot = defaultdict(lambda: [0, 0])
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError as e:
    sys.exit(f"coverage: {e}")
for line in lines:
    m = re.match(r"^(\S+)\s+(\d+)\s+(\d+)\s+\d+%", line)
    if not m or "/" not in m.group(1):
        continue
    mod = m.group(1).split("/")[0]
    tot[mod][0] += int(m.group(2))
    tot[mod][1] += int(m.group(3))
for mod in sorted(tot):
    n, e = tot[mod]
    print(f"  {mod:10s} {e:6d}/{n:<6d} lines  {100.0 * e / n if n else 0:5.1f}%")
