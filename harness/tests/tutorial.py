#!/usr/bin/env python3
"""The tutorial's commands, run (docs/tutorial.md): every `$ pmusim sim ...`
line is run with the built pmusim from the source tree (its stimulus files
are docs/tutorial/*.stim) and its answer, the last output line that starts
with `count=` (PEBS records or an LBR ring may follow it), must be the
line written under it; its diagram (the same command with
`--format svg`) must equal the committed docs/tutorial/N-NAME.svg.  TAP on
stdout.  With --write the diagrams are written instead (after a change to
the SVG renderer: review the diff before committing).

usage: tutorial.py PMUSIM TUTORIAL.md [--write]
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile


def main():
    pmusim, md = os.path.abspath(sys.argv[1]), sys.argv[2]
    write = "--write" in sys.argv[3:]
    docdir = os.path.dirname(os.path.abspath(md))
    srcdir = os.path.dirname(docdir)
    pmusim = os.path.abspath(pmusim)
    lines = open(md, encoding="utf-8").read().split("\n")
    cases = []
    for i, line in enumerate(lines):
        m = re.match(r"^    \$ pmusim (sim .*)$", line)
        if not m:
            continue
        want = lines[i + 1].strip() if i + 1 < len(lines) else ""
        svg = None
        for later in lines[i + 2:i + 6]:
            s = re.search(r"\]\((tutorial/[^)]+\.svg)\)", later)
            if s:
                svg = os.path.join(docdir, s.group(1))
                break
        cases.append((i + 1, m.group(1), want, svg))
    print("1..%d" % (2 * len(cases)))
    failed = 0
    n = 0
    for (lineno, cmd, want, svg) in cases:
        args = [pmusim] + shlex.split(cmd)
        n += 1
        r = subprocess.run(args, capture_output=True, text=True, cwd=srcdir)
        answers = [l for l in r.stdout.split("\n") if l.startswith("count=")]
        got = answers[-1] if answers else ""
        if r.returncode == 0 and got == want and want.startswith("count="):
            print("ok %d - tutorial.md:%d: %s" % (n, lineno, want))
        else:
            failed += 1
            print("not ok %d - tutorial.md:%d: expected '%s', got '%s' (exit %d) %s" %
                  (n, lineno, want, got, r.returncode, r.stderr.strip()))
        n += 1
        if not svg:
            failed += 1
            print("not ok %d - tutorial.md:%d: no diagram under the command" % (n, lineno))
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "d.svg")
            r = subprocess.run(args + ["--format", "svg", "-o", out], capture_output=True, text=True, cwd=srcdir)
            data = open(out, "rb").read() if r.returncode == 0 and os.path.exists(out) else None
        if write and data is not None:
            open(svg, "wb").write(data)
        ok = data is not None and os.path.exists(svg) and open(svg, "rb").read() == data
        print("%s %d - tutorial.md:%d: %s %s" % ("ok" if ok else "not ok", n, lineno, os.path.basename(svg),
                                               "matches" if ok else "differs (tutorial.py --write regenerates it)"))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
