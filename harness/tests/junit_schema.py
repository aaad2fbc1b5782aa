#!/usr/bin/env python3
"""Issue 18's done-when: `pmusim conform --junit` validates against the JUnit
XSD the common CI systems read (junit.xsd, kept beside this test) and carries
time= on every suite and case.  Reports of every shape are checked: all
passing (builtin), failures of both kinds (a toy backend with edge at bit 19,
wrong_edge_backend.py), known differences (<skipped>, from an expectations
file the same run wrote with --write-expect).  (--mutants refuses --junit.)  A report made
invalid on purpose must fail the schema, so the check can fail.  TAP output;
skipped (exit 77) without xmllint (Debian: libxml2-utils).
Usage: junit_schema.py PMUSIM"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

PMUSIM = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
XSD = os.path.join(HERE, "junit.xsd")
TOY = "cmd:%s %s %s" % (sys.executable, os.path.join(HERE, "wrong_edge_backend.py"), PMUSIM)

if not shutil.which("xmllint"):
    print("1..0 # SKIP xmllint not installed (Debian: libxml2-utils)")
    sys.exit(77)

from taplib import check, finish


def validate(path):
    p = subprocess.run(["xmllint", "--noout", "--schema", XSD, path], capture_output=True, text=True)
    return p.returncode == 0, p.stderr.strip()[-600:]


def report(name, args, want_rc, must_contain):
    path = os.path.join(work, name + ".xml")
    p = subprocess.run([PMUSIM, "conform", "--junit", path] + args, capture_output=True, timeout=600)
    check("%s: exit %d" % (name, want_rc), p.returncode == want_rc, p.stderr.decode(errors="replace")[-400:])
    if not os.path.exists(path):
        check("%s: report written" % name, False)
        return None
    ok, err = validate(path)
    check("%s: valid against junit.xsd" % name, ok, err)
    text = open(path, encoding="utf-8").read()
    for s in must_contain:
        check("%s: has %s" % (name, s), s in text)
    tags = re.findall(r"<(testsuites|testsuite|testcase)\b[^>]*>", text)
    timed = re.findall(r"<(?:testsuites|testsuite|testcase)\b[^>]*\btime=\"[0-9.]+\"", text)
    check("%s: time= on each of its %d suites and cases" % (name, len(tags)), tags and len(timed) == len(tags))
    return path


with tempfile.TemporaryDirectory() as work:
    report("builtin-passing", ["wsm", "nhm_unc"], 0, ["<testcase "])
    report("toy-failing", ["--backend", TOY, "wsm"], 1, ["<failure ", "edge (bit 18)"])
    expect = os.path.join(work, "expect.txt")
    subprocess.run([PMUSIM, "conform", "--backend", TOY, "--write-expect", expect, "wsm"], capture_output=True,
                   timeout=600)
    check("--write-expect wrote the toy's failures", os.path.exists(expect) and os.path.getsize(expect) > 0)
    report("toy-known", ["--backend", TOY, "--expect", expect, "wsm"], 0, ["<skipped "])

    # The check can fail: a testcase without its name, a suite with a
    # negative count, a time that is not a number.
    good = os.path.join(work, "toy-failing.xml")
    text = open(good, encoding="utf-8").read() if os.path.exists(good) else ""
    for what, bad in [("testcase without name", re.sub(r'(<testcase [^>]*?)name="[^"]*"', r"\1", text, count=1)),
                      ("negative tests count", re.sub(r'(<testsuite [^>]*?)tests="\d+"', r'\1tests="-1"', text,
                                                      count=1)),
                      ("time that is not a number", re.sub(r'time="[0-9.]+"', 'time="soon"', text, count=1))]:
        path = os.path.join(work, "broken.xml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(bad)
        ok, _ = validate(path)
        check("a report with a %s is rejected" % what, bad != text and not ok)

finish()
