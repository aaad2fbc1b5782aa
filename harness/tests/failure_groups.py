#!/usr/bin/env python3
"""Issue 18's done-when: a toy backend with one wrong bit (edge written at bit
19, the pc bit; wrong_edge_backend.py) yields a conform report whose first
group by cause names that bit, each failure tells the differing fields, and
--max-failures / --verbose / --tap keep the full list available.  TAP output.
Usage: failure_groups.py PMUSIM"""
import os
import subprocess
import sys

PMUSIM = sys.argv[1]
BACKEND = "cmd:%s %s %s" % (sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                         "wrong_edge_backend.py"), PMUSIM)
DIFF = "IA32_PERFEVTSEL0 differs: edge (bit 18): expected 1, got 0; pc (bit 19): expected 0, got 1"
from taplib import check, finish


def conform(*args, backend=BACKEND, kind="encode", env=None):
    p = subprocess.run([PMUSIM, "conform", "--backend", backend, "--kind", kind] + list(args) + ["wsm"],
                       capture_output=True, timeout=300, env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


rc, out, err = conform()
check("a wrong bit fails the run (exit 1)", rc == 1, err)
lines = out.splitlines()
head = [i for i, l in enumerate(lines) if l.startswith("failures by cause")]
check("the groups by cause follow the table", bool(head) and lines[head[0] - 1] == ""
      and lines[head[0] - 2].startswith("total"), out[:2000])
first = lines[head[0] + 1] if head else ""
check("the first group names the wrong bit", first.strip() == "9 x wsm: IA32_PERFEVTSEL0 edge (bit 18), pc (bit 19)",
      first)
example = lines[head[0] + 2] if head else ""
check("the group shows one example with its field diff", example.strip().startswith("e.g. vectors/wsm/")
      and example.endswith(DIFF), example)
fails = [l for l in lines if l.startswith("  vectors/wsm/")]
check("every failure keeps 'expected 0x..., got 0x...' and appends the field diff",
      len(fails) == 9 and all("expected PFM_SUCCESS 0x" in l and ", got PFM_SUCCESS 0x" in l and l.endswith(DIFF)
                              for l in fails), "\n".join(fails))

rc, out, err = conform("--max-failures", "2")
fails = [l for l in out.splitlines() if l.startswith("  vectors/wsm/")]
check("--max-failures 2 prints two failure lines and counts the rest",
      rc == 1 and len(fails) == 2 and "  ... and 7 more" in out, out)
rc, out, err = conform("--max-failures", "2", "--verbose")
fails = [l for l in out.splitlines() if l.startswith("  vectors/wsm/")]
check("--verbose prints every failure line", len(fails) == 9 and "more (" not in out, out)
rc, out, err = conform("--max-failures", "0", "--tap")
check("--tap: the groups go to stderr with the table, TAP keeps every failure with its diff",
      "failures by cause" not in out and "9 x wsm: IA32_PERFEVTSEL0 edge (bit 18), pc (bit 19)" in err
      and out.count("not ok ") == 9 and out.count("pc (bit 19): expected 0, got 1") == 9, err + out[-1500:])
rc, out, err = conform("--max-failures", "-3")
check("--max-failures -3 is a usage error", rc == 2 and "--max-failures" in err, err)

# --write-expect: the failures become an expectations file (a TODO with the
# cause for each new one); the same run with it passes; a fixed bit then
# makes its entries stale
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    exp = os.path.join(tmp, "known.txt")
    rc, out, err = conform("--strict", "--write-expect", exp)
    text = open(exp).read() if os.path.exists(exp) else ""
    entries = [l for l in text.splitlines() if l and not l.startswith("#")]
    check("--write-expect writes one entry per failure, each a TODO with its cause",
          rc == 1 and len(entries) == 9 and all(l.startswith("wsm/") and " TODO: why? (IA32_PERFEVTSEL0 edge (bit 18)"
                                                  in l for l in entries), text[:2000])
    rc, out, err = conform("--expect", exp)
    check("the written file makes the same run pass (9 known)", rc == 0 and "known differences: 9 expected" in out,
          out[-800:] + err)
    rc, out, err = conform("--expect", exp, backend="builtin")
    check("with the bug fixed its entries are stale", rc == 1 and "stale expectations (9)" in out, out[-800:])
    rc, out, err = conform("--write-expect", "-", "--tap")
    check("--write-expect - with --tap is a usage error", rc == 2 and "both write stdout" in err, err)

# the progress line: on a terminal only (stderr a pty), erased before the table
import pty
def on_tty(args):
    out = b""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(PMUSIM, [PMUSIM] + args)
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode(errors="replace")
tty = on_tty(["conform", "--kind", "encode", "wsm"])
check("on a terminal a progress line counts the vectors and is erased before the table",
      "\r\033[Kconform: 1/" in tty and " vectors (wsm)" in tty and "\r\033[Kconform: backend builtin" in tty, tty[:600])
rc, out, err = conform(backend="builtin")
check("in a pipe there is no progress line", " vectors (wsm)" not in err and "\r" not in out + err, err[:300])

# diff's table: the PMU column as wide as the longest PMU name
p = subprocess.run([PMUSIM, "diff", "--backend", "builtin", "--backend", "builtin", "-q", "glm", "amd64_fam17h_zen2"],
                   capture_output=True, text=True, timeout=300)
rows = [l for l in p.stdout.splitlines() if l.startswith(("pmu ", "glm ", "amd64_fam17h_zen2 "))]
check("diff's table stays aligned with a long PMU name",
      len(rows) == 3 and len({len(l) for l in rows}) == 1, p.stdout)

# colour: only on a terminal or with CLICOLOR_FORCE=1, never with NO_COLOR
rc, out, err = conform("--max-failures", "0")
check("no colour in a pipe", "\033[" not in out, out[:300])
rc, out, err = conform("--max-failures", "0", env={"CLICOLOR_FORCE": "1"})
check("CLICOLOR_FORCE=1: the failed count and the groups' title in red",
      "\033[1;31m       9\033[0m" in out and "\033[1;31mfailures by cause\033[0m" in out, out[:600])
rc, out, err = conform("--max-failures", "0", env={"CLICOLOR_FORCE": "1", "NO_COLOR": "1"})
check("NO_COLOR wins over CLICOLOR_FORCE", "\033[" not in out and "       9 " in out, out[:300])

# three wrong bits: the extra register's field, a bit outside every field,
# and both registers of one code pair; groups ordered by size
rc, out, err = conform("--max-failures", "0", backend=BACKEND + " --more")
groups = [l for l in out.splitlines() if l.startswith("  ") and " x wsm: " in l]
counts = [int(l.split()[0]) for l in groups]
check("several causes: largest group first, each its own line",
      len(groups) == 4 and counts == sorted(counts, reverse=True) and sum(counts) == 177, "\n".join(groups))
check("the extra register's field by name and bit range",
      bool(groups) and groups[0].strip() == "163 x wsm: MSR_OFFCORE_RSP_1 request (bits 0-7)"
      and "MSR_OFFCORE_RSP_1 differs: request (bits 0-7): expected 1, got 5" in out, out[:3000])
check("a bit in no field is named as a bit",
      "5 x wsm: IA32_PERFEVTSEL0 bit 40" in out and "IA32_PERFEVTSEL0 differs: bit 40: expected 0, got 1" in out,
      out[:3000])
check("a failure of two registers names both",
      "1 x wsm: IA32_PERFEVTSEL0 edge (bit 18), pc (bit 19); MSR_OFFCORE_RSP_1 request (bits 0-7)" in out, out[:3000])
check("--max-failures 0: no failure line, only the count", "  ... and 177 more" in out
      and not [l for l in out.splitlines() if l.startswith("  vectors/")], out[-500:])

# a simulation vector: its first diverging read, then each event whose codes
# differ from the builtin encoder's with both codes and the fields
rc, out, err = conform("--verbose", kind="sim")
line = [l for l in out.splitlines() if l.startswith("  vector 'cmask_inv_edge_combinations'")]
check("a sim failure names the read, the string, both codes and the fields",
      len(line) == 1 and "cycle 9: read IA32_PMC2 (0xc3) = 0x4 (4), expected 0x3 (3); "
      "\"wsm::INST_RETIRED:ANY_P:c=2:e\": the backend's codes 0x25b01c0, the builtin encoder's 0x25701c0: "
      + DIFF in line[0], "\n".join(line) or out[-2000:])
sim_groups = [l for l in out.splitlines() if l.startswith("  ") and " x wsm: " in l]
check("sim failures are grouped by the fields their codes got wrong",
      len(sim_groups) == 1 and sim_groups[0].endswith(" x wsm: IA32_PERFEVTSEL0 edge (bit 18), pc (bit 19)"),
      "\n".join(sim_groups) or out[:2000])

# pmusim diff: each codes difference followed by its fields (the first backend's "expected")
p = subprocess.run([PMUSIM, "diff", "--backend", "builtin", "--backend", BACKEND, "wsm"], capture_output=True,
                   timeout=300)
dout = p.stdout.decode(errors="replace").splitlines()
at = [i for i, l in enumerate(dout) if l == "wsm::INST_RETIRED:ANY_P:c=1:e [codes]"]
check("diff names the fields of a codes difference",
      p.returncode == 1 and len(at) == 1 and dout[at[0] + 3] == "  fields     " + DIFF, "\n".join(dout[:20]))

finish()
