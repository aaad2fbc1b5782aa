#!/usr/bin/env python3
"""Issue 21: conformance streams its vectors, so its memory does not grow
with the corpus.  A generated corpus of 400,000 encoding vectors (a built-in
.enc file's lines repeated, in 8 files of one PMU) runs through `pmusim
conform --vectors DIR`; the process's peak resident memory (ru_maxrss of the
child, not a timing) must stay under 100 MB.  Holding every vector and
outcome, as before the stream, took about 240 MB on it; streaming, about
15 MB.  Also: --tap numbers all of them, and a malformed line in the last
file still stops the run with file:line and no table.  TAP output.
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

    p = subprocess.run([PMUSIM, "conform", "--vectors", top, "--kind", "encode", "--tap"], capture_output=True,
                       timeout=600, env=env)
    tap = p.stdout.decode(errors="replace").splitlines()
    check("--tap: the plan and every vector numbered", p.returncode == 0 and tap[:2] == ["TAP version 13", "1..%d"
          % VECTORS] and tap[-1].startswith("ok %d - " % VECTORS), "\n".join(tap[:3] + tap[-2:]))

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
