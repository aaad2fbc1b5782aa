#!/usr/bin/env python3
"""The README's "Five commands": each `$ pmusim ...` line is run with the
built pmusim from the source tree, and every output line the README shows
under it (`...` stands for lines left out) must come out, in that order.
The conform table's time column is left out of the README, so a trailing
`N.NNs` (and the header's `time`) is dropped from the output before
comparing; the libpfm4 command is skipped where libpfm4 (optional) is not
installed.  TAP on stdout.

usage: readme.py PMUSIM README.md
"""
import os
import re
import shlex
import subprocess
import sys


def blocks(text):
    sec = text.split("## Five commands", 1)[1].split("\n## ", 1)[0]
    out, cur = [], None
    for line in sec.split("\n"):
        if line.startswith("    $ pmusim "):
            cur = (line[len("    $ pmusim "):], [])
            out.append(cur)
        elif cur and line.startswith("    "):
            cur[1].append(line[4:].rstrip())
        elif cur and not line.strip():
            cur = None if not cur[1] else cur
    return out


def main():
    pmusim, readme = os.path.abspath(sys.argv[1]), sys.argv[2]
    top = os.path.dirname(os.path.abspath(readme))
    cases = blocks(open(readme, encoding="utf-8").read())
    print("1..%d" % len(cases))
    failed = 0
    for i, (cmd, shown) in enumerate(cases, 1):
        r = subprocess.run([pmusim] + shlex.split(cmd), capture_output=True, text=True, cwd=top)
        got = [re.sub(r"\s+([0-9.]+s|time)$", "", l).rstrip() for l in r.stdout.split("\n")]
        if r.returncode != 0 and "--backend libpfm4" in cmd and "libpfm" in r.stderr:
            print("ok %d - README: pmusim %s # SKIP libpfm4 is not installed (it is optional)" % (i, cmd))
            continue
        pos, missing = 0, None
        for want in shown:
            if want == "...":
                continue
            while pos < len(got) and got[pos] != want:
                pos += 1
            if pos == len(got):
                missing = want
                break
            pos += 1
        ok = r.returncode == 0 and missing is None and len(shown) > 0
        failed += not ok
        print("%s %d - README: pmusim %s%s" % ("ok" if ok else "not ok", i, cmd,
                                               "" if ok else " (exit %d; not found in order: %r)" % (r.returncode, missing)))
    return 1 if failed or len(cases) != 5 else 0


if __name__ == "__main__":
    sys.exit(main())
