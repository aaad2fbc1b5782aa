#!/usr/bin/env python3
"""Write the seed corpora of the fuzz targets (fuzz/fuzz_*.c) from the
committed vectors/ and models/: OUTDIR/<target>/<n>.  Run by scripts/fuzz;
nothing it writes is committed.  Deterministic; at most MAX seeds a target.

    fuzz/mkseeds.py SRCDIR OUTDIR [PMUSIM]

With PMUSIM (the built CLI), a simulation vector's stimulus seed starts with
the register writes `pmusim encode` gives for its first event, so the seed
counts something (the vectors leave programming to the encoder under test).
"""
import functools
import os
import re
import subprocess
import sys

MAX = 1500
# Keep in step with fuzz_stim.c (fuzz_stim_models).
STIM_MODELS = ["wsm", "nhm", "glm", "nhm_unc", "nhmex_cbox3", "montecito", "wsm_unc", "nhm_ex"]
STIM_WORDS = ("run", "write", "read", "expect-pmi", "pmu", "@", "ds", "regs", "expect-pebs", "expect-record")


def files(top, sub, ext):
    out = []
    for d, _, names in os.walk(os.path.join(top, sub)):
        out += [os.path.join(d, n) for n in names if n.endswith(ext)]
    return sorted(out)


def sample(items, limit=MAX):
    items = sorted(set(items))
    if len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


def write(outdir, target, seeds, keep=()):
    """The seeds, sampled down to MAX with every one of keep kept."""
    d = os.path.join(outdir, target)
    os.makedirs(d, exist_ok=True)
    for n in os.listdir(d):
        os.unlink(os.path.join(d, n))
    keep = sorted(set(keep))
    rest = [x for x in set(seeds) if x not in set(keep)]
    for i, s in enumerate(keep + sample(rest, MAX - len(keep))):
        with open(os.path.join(d, "%05d" % i), "wb") as f:
            f.write(s)
    return len(os.listdir(d))


QUOTED = re.compile(r'^"((?:[^"\\]|\\.)*)"\s+(\S+)\s*(.*)$')


def enc_vectors(top):
    """(pmu, event, ret, codes, fstr) of every plain encoding vector."""
    out = []
    for p in files(top, "vectors", ".enc"):
        pmu = os.path.basename(os.path.dirname(p))
        for line in open(p, encoding="utf-8", errors="replace"):
            m = QUOTED.match(line)
            if not m or "\\" in m.group(1):
                continue
            rest = m.group(3).split()
            codes = []
            while rest and rest[0].startswith("0x"):
                codes.append(rest.pop(0))
            fstr = ""
            fm = re.search(r'fstr "([^"]*)"', m.group(3))
            if fm:
                fstr = fm.group(1)
            out.append((pmu, m.group(1), m.group(2), codes, fstr))
    return out


def sim_vectors(top):
    """(pmu, [lines of one vector]) of every simulation vector."""
    out = []
    for p in files(top, "vectors", ".sim"):
        pmu = os.path.basename(os.path.dirname(p))
        cur = None
        for line in open(p, encoding="utf-8", errors="replace"):
            if line.startswith("vector "):
                cur = [line]
                out.append((pmu, cur))
            elif cur is not None:
                cur.append(line)
    return out


WRITE = re.compile(r"^  (\S+)\s+0x[0-9a-f]+ = (0x[0-9a-f]+)")


@functools.lru_cache(maxsize=None)
def program(pmusim, event):
    """The stimulus writes that program EVENT on its counter, or []."""
    if not pmusim:
        return []
    try:
        out = subprocess.run([pmusim, "encode", event], capture_output=True, text=True,
                             timeout=10, env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0")).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return ["write %s %s\n" % m.groups() for m in map(WRITE.match, out.splitlines()) if m]


def main():
    top, outdir = sys.argv[1], sys.argv[2]
    pmusim = sys.argv[3] if len(sys.argv) > 3 else None
    encs = enc_vectors(top)
    sims = sim_vectors(top)
    counts = {}

    seeds = []
    for pmu, ev, *_ in encs:
        seeds.append(ev.encode())
        if "::" in ev:
            seeds.append(ev.split("::", 1)[1].encode())   # without the PMU prefix
    for _, lines in sims:
        for l in lines:
            m = re.match(r'event \d+ "([^"\\]*)"', l)
            if m:
                seeds.append(m.group(1).encode())
    counts["encode"] = write(outdir, "encode", seeds)

    seeds = []
    models = files(top, "models", ".pmu") + files(top, "encoder/tests", ".pmu")
    for p in models:
        text = open(p, "rb").read()
        if len(text) < 16384:
            seeds.append(text)
        # A small model of each: every group but the events, and its first events.
        groups = re.split(rb"(?m)^(?=\[)", text)
        head = [g for g in groups if not g.startswith(b"[event")]
        evs = [g for g in groups if g.startswith(b"[event")]
        for k in (1, 3):
            seeds.append(b"".join(head + evs[:k]))
    counts["model"] = write(outdir, "model", seeds)

    seeds = []
    for pmu, lines in sims:
        if pmu not in STIM_MODELS:
            continue
        body = [l for l in lines if l.split()[:1] and
                (l.split()[0] in STIM_WORDS or l.startswith("@"))]
        ev = [m.group(1) for m in (re.match(r'event \d+ "([^"\\]*)"', l) for l in lines) if m]
        seeds.append(bytes([STIM_MODELS.index(pmu)]) + "".join(body).encode())
        if ev:
            seeds.append(bytes([STIM_MODELS.index(pmu)]) + "".join(program(pmusim, ev[0]) + body).encode())
    # the malformed corpus's stimuli too, every one kept: issue 20's shapes
    # (NUL-only lines, cboxN/ beyond the boxes, repeated tokens, 64 branches
    # on a line) among them
    keep = []
    for p in (files(top, "sim/tests/data", ".stim") + files(top, "vectors", ".stim") +
              files(top, "harness/tests/malformed/stim", ".stim")):
        text = open(p, "rb").read()
        m = re.search(rb"(?m)^pmu (\S+)", text)
        pmu = m.group(1).decode() if m else os.path.basename(os.path.dirname(p))
        if pmu in STIM_MODELS:
            (keep if "malformed" in p else seeds).append(bytes([STIM_MODELS.index(pmu)]) + text)
    counts["stim"] = write(outdir, "stim", seeds, keep)

    seeds = []
    for p in files(top, "vectors", ".enc"):
        lines = open(p, "rb").read().splitlines(True)
        for i in range(0, min(len(lines), 120), 40):
            seeds.append(b"\0" + b"".join(lines[i:i + 40]))
    for pmu, lines in sims:
        seeds.append(b"\1" + "".join(lines).encode())
    counts["vectors"] = write(outdir, "vectors", seeds)

    seeds = []
    for pmu, ev, ret, codes, fstr in encs:
        if "\t" in ev:
            continue
        seeds.append(("%s\n%s\t%s\t%d\t%s\t%s" % (ev, ev, ret, len(codes), ",".join(codes), fstr)).encode())
    seeds += [b"e\ne\tPFM_SUCCESS\t1\t0x0\tx\tIA32_PERFEVTSEL0=0x1",
              b"a\tb\na\tb\tPFM_ERR_NOTFOUND\t0\t\t",
              # issue 20: a DEL in FSTR, REGS items that are not NAME=0xVALUE
              b"e\ne\tPFM_SUCCESS\t1\t0x1\tf\x7f",
              b"e\ne\tPFM_SUCCESS\t1\t0x1\tf\tPMC4,PMC5=0x1,,=0x2"]
    counts["protocol"] = write(outdir, "protocol", seeds)
    print(" ".join("%s=%d" % kv for kv in counts.items()))


if __name__ == "__main__":
    main()
