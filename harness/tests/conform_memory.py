#!/usr/bin/env python3
"""Issue 21: conformance streams its vectors, so its memory does not grow
with the corpus.  A generated corpus of 400,000 encoding vectors (a built-in
.enc file's lines repeated, in 8 files of one PMU) runs through `pmusim
conform --vectors DIR`; the process's peak resident memory (ru_maxrss of the
child, not a timing) must stay under 100 MB.  Holding every vector and
outcome, as before the stream, took about 240 MB on it; streaming, about
15 MB.  The reports stream too: with --tap (on stdout, into a file),
--junit FILE and --write-expect FILE, a file of the corpus made to fail,
the peak stays under the same bound (their text held whole until the end
took about 210 MB), each report complete (TAP's plan last) and no temporary
file left.  And a malformed line in the last file still stops the run with
file:line and no table.  TAP output.
Usage: conform_memory.py PMUSIM VECTOR_FILE"""
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

PMUSIM, SOURCE = sys.argv[1], sys.argv[2]
VECTORS, FILES, LIMIT_MB = 400000, 8, 100
from taplib import check, finish


lines = [l for l in open(SOURCE, encoding="latin-1").read().splitlines(True)
         if l.strip() and not l.startswith("#")]
per_file = VECTORS // FILES
top = tempfile.mkdtemp(prefix="pms-conform-memory-")
try:
    pmu = os.path.join(top, os.path.basename(os.path.dirname(os.path.abspath(SOURCE))))
    os.mkdir(pmu)
    for f in range(FILES):
        with open(os.path.join(pmu, "big%d.enc" % f), "w", encoding="latin-1") as out:
            body = "".join(lines) * (per_file // len(lines) + 1)
            out.write("".join(body.splitlines(True)[:per_file]))
    env = dict(os.environ)
    # ASan keeps freed memory in quarantine (256 MB by default): the bound is
    # the program's, not the sanitizer's
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=4"
    p = subprocess.run([PMUSIM, "conform", "--vectors", top, "--kind", "encode"], capture_output=True,
                       timeout=600, env=env)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    out = p.stdout.decode(errors="replace")
    check("every generated vector runs and passes", p.returncode == 0
          and re.search(r"^total +%d +%d +0 +0 " % (VECTORS, VECTORS), out, re.M) is not None, out[-600:])
    check("peak memory %.1f MB < %d MB: the vectors stream" % (peak_mb, LIMIT_MB), peak_mb < LIMIT_MB,
          "ru_maxrss %.1f MB" % peak_mb)

    # one file's vectors fail (a code changed), so that every report has failures to carry
    bad = os.path.join(pmu, "big3.enc")
    with open(bad, encoding="latin-1") as f:
        text = f.read()
    with open(bad, "w", encoding="latin-1") as f:
        f.write(text.replace("PFM_SUCCESS 0x", "PFM_SUCCESS 0x1"))
    out = os.path.join(top, "out")
    os.mkdir(out)
    junit, expect, tap_path = (os.path.join(out, n) for n in ("r.xml", "known.txt", "r.tap"))
    with open(tap_path, "wb") as tap_file:
        child = subprocess.Popen([PMUSIM, "conform", "--vectors", top, "--kind", "encode", "--strict", "--tap",
                                  "--junit", junit, "--write-expect", expect], stdout=tap_file,
                                 stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(child.pid, 0)
    peak_mb = usage.ru_maxrss / 1024.0
    failing = text.count("PFM_SUCCESS 0x")
    check("--tap --junit --write-expect: peak memory %.1f MB < %d MB: the reports stream" % (peak_mb, LIMIT_MB),
          peak_mb < LIMIT_MB, "ru_maxrss %.1f MB" % peak_mb)
    check("... exit 1 (%d failures), nothing left but the three reports" % failing,
          os.waitstatus_to_exitcode(status) == 1 and failing > 0 and sorted(os.listdir(out)) ==
          ["known.txt", "r.tap", "r.xml"], str(sorted(os.listdir(out))))
    with open(tap_path, encoding="utf-8", errors="replace") as f:
        tap = f.read().splitlines()
    check("--tap: every vector numbered, the plan last", tap[0] == "TAP version 13" and tap[-1] == "1..%d" % VECTORS
          and tap[-2].startswith("ok %d - " % VECTORS) and
          sum(1 for l in tap if l.startswith("not ok ")) == failing, "\n".join(tap[:2] + tap[-2:]))
    with open(junit, encoding="utf-8") as f:
        xml = f.read()
    check("--junit: the totals first, every test case, the end", xml.startswith('<?xml') and
          ('tests="%d" failures="%d"' % (VECTORS, failing)) in xml and xml.count("<testcase ") == VECTORS and
          xml.endswith("</testsuites>\n"), xml[:300])
    with open(expect, encoding="utf-8") as f:
        entries = [l for l in f.read().splitlines() if l and not l.startswith("#")]
    check("--write-expect: one entry per failure", len(entries) == failing and
          all(l.startswith(os.path.basename(pmu) + "/big3.enc ") for l in entries), "\n".join(entries[:2]))
    shutil.rmtree(out)

    with open(os.path.join(pmu, "big%d.enc" % (FILES - 1)), "a") as out:
        out.write('"x" PFM_OOPS - src s\n')
    p = subprocess.run([PMUSIM, "conform", "--vectors", top, "--kind", "encode"], capture_output=True,
                       timeout=600, env=env)
    err = p.stderr.decode(errors="replace")
    check("a malformed last line stops the run: file:line, exit 1, no table",
          p.returncode == 1 and ("big%d.enc:%d:" % (FILES - 1, per_file + 1)) in err and p.stdout == b"", err)
finally:
    shutil.rmtree(top)

finish()
