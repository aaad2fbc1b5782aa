#!/usr/bin/env python3
"""TAP: an example backend (examples/) against pmusim's builtin encoder on the
requests a first backend gets wrong.

    check-backend.py PMUSIM BACKEND [ARG...]

BACKEND ARG... is the backend's command line (it is given PMUSIM as its
encoder).  Checks, each answer compared byte for byte with `PMUSIM encode
--batch` (the builtin backend):
  1. the backend run directly on requests holding a TAB (inside and at the
     end), a CR, invalid UTF-8, a NUL byte, an empty line and a last line
     without a newline;
  2. the same requests through `PMUSIM encode --batch --backend cmd:...`;
  3. one request at a time: its answer arrives while stdin stays open (the
     backend flushes before it waits for more);
  4. end of input: the backend exits 0;
  5. an encoder behind it that dies, or answers another line: that line is
     answered BACKEND_CRASH, every other line as usual (a stand-in encoder
     is given as PMUSIM).
`pmusim conform --backend cmd:...` (the other example-backend tests) runs
every built-in vector, these among them."""

import os
import select
import shlex
import subprocess
import sys
import tempfile
import time

REQUESTS = [
    b"glm::INST_RETIRED:ANY_P",
    b"glm::INST_RETIRED\t",                 # trailing TAB (vectors/glm/invalid.enc)
    b"glm::INST_RETIRED:ANY_P\tPFM_SUCCESS",  # a TAB inside that looks like a field
    b"glm::INST_RETIRED:ANY_P\r",           # CR: part of the string (a CRLF line)
    b"glm::INST_RETIRED\r",
    b"\xff\xfe",                            # invalid UTF-8
    b"glm::\xc3(",
    b"glm::INST_RETIRED:c=\xc0\xaf",
    b"",                                    # an empty line is a request
    b"glm::INST_\x00RETIRED",               # NUL (pmusim answers it itself)
    b"wsm::OFFCORE_RESPONSE_0:ANY_DATA:LOCAL_DRAM",
    b"nhm_unc::UNC_LLC_MISS:ANY",
    b"montecito::L2_MISSES:c=1",
]
# the last line has no newline: still a request
INPUT = b"\n".join(REQUESTS)

# A stand-in for `pmusim encode --batch` that dies on CRASH and answers
# another line to OTHER.
BROKEN = """import os, sys
for line in sys.stdin.buffer:
    r = line[:-1]
    if r == b"CRASH":
        os._exit(3)
    echo = b"x" if r == b"OTHER" else r
    sys.stdout.buffer.write(echo + b"\\tPFM_ERR_NOTFOUND\\t0\\t\\t\\n")
    sys.stdout.buffer.flush()
"""

n = 0
failed = 0


def ok(cond, name, detail=""):
    global n, failed
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, name))
    if not cond:
        failed += 1
        for line in detail.splitlines():
            print("# " + line)


def diff(want, got):
    w, g = want.split(b"\n"), got.split(b"\n")
    for i in range(max(len(w), len(g))):
        a = w[i] if i < len(w) else b"(none)"
        b = g[i] if i < len(g) else b"(none)"
        if a != b:
            return "line %d:\n  expected %r\n  got      %r" % (i + 1, a, b)
    return ""


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: check-backend.py PMUSIM BACKEND [ARG...]")
    pmusim = sys.argv[1]
    backend = sys.argv[2:] + [pmusim]
    print("1..5")
    want = subprocess.run([pmusim, "encode", "--batch"], input=INPUT, stdout=subprocess.PIPE,
                          check=True, timeout=60).stdout

    r = subprocess.run(backend, input=INPUT, stdout=subprocess.PIPE, timeout=60)
    ok(r.stdout == want and r.returncode == 0, "run directly: every answer echoes its request byte for byte",
       diff(want, r.stdout) + "\nexit status %d" % r.returncode)

    spec = "cmd:" + " ".join(shlex.quote(a) for a in backend)
    r = subprocess.run([pmusim, "encode", "--batch", "--timeout", "5000", "--backend", spec], input=INPUT,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    ok(r.stdout == want and r.returncode == 0 and b"BACKEND_CRASH" not in r.stderr,
       "through encode --batch --backend cmd: the builtin's answers",
       diff(want, r.stdout) + "\n" + r.stderr.decode(errors="replace"))

    p = subprocess.Popen(backend, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    answers = []
    try:
        for req in (REQUESTS[0], REQUESTS[2]):
            p.stdin.write(req + b"\n")
            p.stdin.flush()
            answers.append(_readline(p.stdout, 10))
    finally:
        p.stdin.close()
    rest = p.stdout.read()
    status = p.wait(timeout=30)
    w = want.split(b"\n")
    ok(answers == [w[0] + b"\n", w[2] + b"\n"], "one request at a time: each answer comes before the next request",
       "got %r" % answers)
    ok(status == 0 and rest == b"", "at end of input it exits 0 with nothing more on stdout",
       "exit status %d, then %r" % (status, rest))

    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, "broken-encoder")
        with open(fake, "w") as f:
            f.write("#!" + sys.executable + "\n" + BROKEN)
        os.chmod(fake, 0o755)
        r = subprocess.run(sys.argv[2:] + [fake], input=b"a\nCRASH\nb\nOTHER\nc\n", stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
    want = b"".join(l + b"\t%s\t0\t\t\n" % ret for l, ret in (
        (b"a", b"PFM_ERR_NOTFOUND"), (b"CRASH", b"BACKEND_CRASH"), (b"b", b"PFM_ERR_NOTFOUND"),
        (b"OTHER", b"BACKEND_CRASH"), (b"c", b"PFM_ERR_NOTFOUND")))
    ok(r.stdout == want and r.returncode == 0, "an encoder that dies or answers another line costs that line only",
       diff(want, r.stdout) + "\nexit status %d\n" % r.returncode + r.stderr.decode(errors="replace"))
    return 1 if failed else 0


def _readline(f, seconds):
    """One line from f within `seconds`, or what came before the deadline."""
    fd = f.fileno()
    deadline = time.monotonic() + seconds
    buf = b""
    while not buf.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        chunk = os.read(fd, 1)
        if not chunk:
            break
        buf += chunk
    return buf


if __name__ == "__main__":
    sys.exit(main())
