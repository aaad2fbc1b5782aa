#!/usr/bin/env python3
"""Issue 21: `pmusim conform`'s reports are written as the vectors run
(--tap on stdout, the plan last; --junit FILE and --write-expect FILE
spooled beside FILE and renamed onto it at the end), and a run that does not
complete leaves no FILE and no temporary file: a malformed vector file after
some vectors ran, SIGTERM or SIGINT in the middle of the run (a backend that
hangs on one line), a write error (a file size limit, /dev/full), a FILE in
a missing directory (refused before anything runs).  A FILE that was there
is left as it was.  TAP output.
Usage: conform_reports.py PMUSIM FAKE_BACKEND VECTOR_FILE"""
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PMUSIM, FAKE, SOURCE = sys.argv[1], sys.argv[2], sys.argv[3]
from taplib import check, finish

lines = [l for l in open(SOURCE, encoding="latin-1").read().splitlines(True)
         if l.strip() and not l.startswith("#")]
top = tempfile.mkdtemp(prefix="pms-conform-reports-")


def corpus(name, files):
    """A --vectors DIR with PMU folder zz holding files {name: text}."""
    d = os.path.join(top, name)
    os.makedirs(os.path.join(d, "zz"))
    for f, text in files.items():
        with open(os.path.join(d, "zz", f), "w", encoding="latin-1") as out:
            out.write(text)
    return d


def fresh_out(name, old=False):
    """An empty output folder (with r.xml and e.txt holding "old" if asked)."""
    d = os.path.join(top, name)
    os.makedirs(d)
    if old:
        for f in ("r.xml", "e.txt"):
            with open(os.path.join(d, f), "w") as out:
                out.write("old")
    return d


def left(d):
    return sorted(os.listdir(d))


def kept_old(d):
    return left(d) == ["e.txt", "r.xml"] and all(open(os.path.join(d, f)).read() == "old"
                                                  for f in ("e.txt", "r.xml"))


def reports(d):
    return ["--junit", os.path.join(d, "r.xml"), "--write-expect", os.path.join(d, "e.txt")]


def fail(text):
    return text.replace("PFM_SUCCESS 0x", "PFM_SUCCESS 0x1")


try:
    # the reports' order when a PMU's vectors come in two runs (DIR/a.enc and DIR/z.enc are PMU iv,
    # around the folders bb and cc, bb passing, cc failing): entries and test cases by PMU, in the order of
    # their vectors
    iv = os.path.join(top, "iv")
    for sub, f, text in [("", "a.enc", "".join(lines[0:2]) + fail(lines[2])), ("bb", "x.enc", "".join(lines[6:8])),
                         ("cc", "y.enc", fail("".join(lines[3:6]))), ("", "z.enc", fail(lines[8]))]:
        os.makedirs(os.path.join(iv, sub), exist_ok=True)
        with open(os.path.join(iv, sub, f), "w", encoding="latin-1") as out:
            out.write(text)
    out = fresh_out("iv-out")
    p = subprocess.run([PMUSIM, "conform", "--vectors", iv, "--strict"] + reports(out), capture_output=True,
                       timeout=120)
    err = p.stderr.decode(errors="replace")
    entries = [l for l in open(os.path.join(out, "e.txt")).read().splitlines() if l and not l.startswith("#")]
    check("--write-expect: PMU iv's entries from both runs first, then cc's pmu entry; nothing on stderr",
          p.returncode == 1 and err == "" and len(entries) == 3 and entries[0].startswith("iv/a.enc ") and
          entries[1].startswith("iv/z.enc ") and entries[2] == "pmu cc TODO: every vector of it fails",
          err + "\n".join(entries))
    xml = open(os.path.join(out, "r.xml"), encoding="utf-8").read()
    suites = re.findall(r'<testsuite name="(\w+)" tests="(\d+)" failures="(\d+)"', xml)
    cases = re.findall(r'<testcase classname="conform\.(\w+)\.encode" name="\w+/(\w)\.enc', xml)
    check("--junit: suites iv, bb, cc with their counts, iv's cases from both runs",
          suites == [("iv", "4", "2"), ("bb", "2", "0"), ("cc", "3", "3")] and
          [c for c in cases if c[0] == "iv"] == [("iv", "a")] * 3 + [("iv", "z")], str(suites) + str(cases))

    # a malformed file after one whose vectors ran and failed: no report at all
    bad = corpus("bad", {"a.enc": fail("".join(lines[:50])),
                         "b.enc": "".join(lines[50:60]) + '"x" PFM_OOPS - src s\n'})
    for old in (False, True):
        out = fresh_out("bad-out-%d" % old, old)
        p = subprocess.run([PMUSIM, "conform", "--vectors", bad, "--strict", "--tap"] + reports(out),
                           capture_output=True, timeout=120)
        err, tap = p.stderr.decode(errors="replace"), p.stdout.decode(errors="replace")
        what = "an old report kept as it was" if old else "no report"
        check("a malformed file after 50 vectors: exit 1, b.enc:11 named, %s, no temporary file" % what,
              p.returncode == 1 and "b.enc:11:" in err and (kept_old(out) if old else left(out) == []),
              err + str(left(out)))
        check("... its TAP: the vectors that ran, no plan, a Bail out! line naming the place",
              tap.startswith("TAP version 13\nnot ok 1 - ") and "\n1.." not in tap and
              tap.splitlines()[-1].startswith("Bail out! ") and "b.enc:11:" in tap.splitlines()[-1],
              tap[-300:])

    # SIGTERM / SIGINT in the middle: 300 vectors answered, then a line the backend hangs on
    hang = corpus("hang", {"a.enc": "".join('"v%d" PFM_SUCCESS 0x1 src t\n' % i for i in range(300)) +
                           '"hang" PFM_SUCCESS 0x1 src t\n"after" PFM_SUCCESS 0x1 src t\n'})
    for sig in (signal.SIGTERM, signal.SIGINT):
        for old in (False, True):
            out = fresh_out("hang-out-%d-%d" % (sig, old), old)
            tap_path = os.path.join(top, "hang-%d-%d.tap" % (sig, old))
            with open(tap_path, "wb") as tap_file:
                p = subprocess.Popen([PMUSIM, "conform", "--vectors", hang, "--backend", "cmd:" + FAKE,
                                      "--timeout", "60000", "--strict", "--tap"] + reports(out),
                                     stdout=tap_file, stderr=subprocess.DEVNULL)
                # wait until TAP has reached the file (it streams): the run is then in the middle,
                # and stays there (the backend hangs on "hang" for longer than this test runs)
                deadline = time.time() + 30
                while time.time() < deadline and b"ok 1 - " not in open(tap_path, "rb").read():
                    time.sleep(0.05)
                time.sleep(0.2)
                running = p.poll() is None
                try:
                    with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
                        backends = [int(x) for x in f.read().split()]
                except OSError:
                    backends = []
                p.send_signal(sig)
                rc = p.wait(timeout=60)
                for b in backends:  # the hanging backend, orphaned
                    try:
                        os.kill(b, signal.SIGKILL)
                    except OSError:
                        pass
            name = signal.Signals(sig).name
            what = "the old report kept as it was" if old else "no report"
            streamed = open(tap_path, "rb").read()
            check("%s while it runs%s: TAP already out, then death by %s, %s, "
                  "no temporary file" % (name, " (old reports there)" if old else "", name, what),
                  running and b"ok 1 - " in streamed and b"\n1.." not in streamed and rc == -sig and
                  (kept_old(out) if old else left(out) == []), "rc %s, left %s" % (rc, left(out)))

    # a write error: a file size limit of 64 KiB, reports larger than that
    base = "".join((lines * (1500 // len(lines) + 1))[:1500])
    big = corpus("big", {"a.enc": base + fail(base)})

    def limited():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))

    for opt in ("--junit", "--write-expect"):
        for old in (False, True):
            out = fresh_out("fsize-%s-%d" % (opt, old), old)
            path = os.path.join(out, "r.xml" if opt == "--junit" else "e.txt")
            p = subprocess.run([PMUSIM, "conform", "--vectors", big, "--strict", opt, path], capture_output=True,
                               timeout=120, preexec_fn=limited)
            err = p.stderr.decode(errors="replace")
            check("%s past a file size limit%s: exit 1, said, %s, no temporary file"
                  % (opt, " (an old one there)" if old else "", "the old file kept" if old else "no file"),
                  p.returncode == 1 and ("pmusim: conform: %s %s: " % (opt, path)) in err and
                  (kept_old(out) if old else left(out) == []), err + str(left(out)))
        # the same without the limit: the whole report
        out = fresh_out("nolimit-%s" % opt)
        path = os.path.join(out, "r.xml" if opt == "--junit" else "e.txt")
        p = subprocess.run([PMUSIM, "conform", "--vectors", big, "--strict", opt, path], capture_output=True,
                           timeout=120)
        text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        whole = text.endswith("</testsuites>\n") if opt == "--junit" else text.count("\nzz/a.enc ") == 1500
        check("%s without the limit: the whole report (%d bytes), nothing else left" % (opt, len(text)),
              p.returncode == 1 and len(text) > 65536 and whole and left(out) == [os.path.basename(path)])

    # a device is written in place: /dev/full fails, and says so
    for opt in ("--junit", "--write-expect"):
        p = subprocess.run([PMUSIM, "conform", "--vectors", big, "--strict", opt, "/dev/full"],
                           capture_output=True, timeout=120)
        err = p.stderr.decode(errors="replace")
        check("%s /dev/full: exit 1, the error said" % opt,
              p.returncode == 1 and ("%s /dev/full: /dev/full: No space left on device" % opt) in err, err)

    # a FILE in a missing directory: refused before anything runs (no table)
    p = subprocess.run([PMUSIM, "conform", "--vectors", big, "--junit", os.path.join(top, "nowhere", "r.xml")],
                       capture_output=True, timeout=120)
    err = p.stderr.decode(errors="replace")
    check("--junit into a missing directory: exit 1 before the run, no table",
          p.returncode == 1 and "--junit" in err and "nowhere" in err and p.stdout == b"", err)
finally:
    shutil.rmtree(top)

finish()
