#!/usr/bin/env python3
"""Write vectors/expected/libpfm4.txt: the known differences of libpfm4 4.13.

Runs `pmusim conform --backend libpfm4 --strict --tap` (every built-in vector,
no expectations), and gives every failing vector an entry with the reason
docs/libpfm4-differences.md records for it.  A failure no rule below explains
is not written: it is printed, and the script exits 1 (a new difference must
be documented, or fixed, before it is baselined).

    scripts/gen-expected.py [PMUSIM]     (default build/harness/pmusim)

Not run by scripts/regenerate: the file is a measured baseline of libpfm4 4.13
(what pmusim's conform run finds it failing), not generated from facts in the
tree; it needs a built pmusim and libpfm4.

Entry format: docs/vectors-format.md, "Expectations".  The event string of an
encoding vector is copied from its vector file as written there (pieces,
escapes, repeat counts), so the entry names exactly that vector.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DOC = "docs/libpfm4-differences.md"

# (test on (pmu, topic, key, message), reason), first match wins
RULES = [
    (lambda p, t, k, m: "got BACKEND_CRASH" in m,
     DOC + " 'Harness / diff findings' 1: libpfm4 4.13 dies (SIGSEGV) from 65 attributes on; pmusim answers PFM_ERR_TOOMANY"),
    (lambda p, t, k, m: t == "raw.enc" and "expected fstr" in m,
     DOC + " 'Raw unit masks' 2: libpfm4 prints only the low 32 bits of a raw value in the fstr"),
    (lambda p, t, k, m: t == "raw.enc" and "OFFCORE_RESPONSE" in k,
     DOC + " 'Raw unit masks' 1: libpfm4 takes 38-bit offcore raw values, pmusim only the register's writable bits"),
    (lambda p, t, k, m: p == "glm" and re.search(r":e(=1)?(:|$)", k) and "c=" not in k.replace(":e:c=0", ""),
     DOC + " 'Encoder' 2: e without c>=1 is PFM_ERR_ATTR on glm too (libpfm_intel_glm(3)); libpfm4 encodes it"),
    (lambda p, t, k, m: p == "glm" and k.endswith(":e:c=0"),
     DOC + " 'Encoder' 2: e without c>=1 is PFM_ERR_ATTR on glm too (libpfm_intel_glm(3)); libpfm4 encodes it"),
    (lambda p, t, k, m: re.search(r":ldlat=[12]$", k) is not None,
     DOC + " 'Harness / diff findings' 4: ldlat below 3 (SDM 18-39, libpfm_intel_wsm(3) range 3..65535); libpfm4 encodes it"),
    (lambda p, t, k, m: p == "icl" and ("MEM_LOAD_MISC_RETIRED" in k or k == "ev_mem_load_misc_retired"),
     DOC + " 'Model facts', corrected encodings: icl MEM_LOAD_MISC_RETIRED is 0xd4 by Intel's JSON; libpfm4 0xc4"),
    (lambda p, t, k, m: p == "icl" and "TOPDOWN:BACKEND_BOUND_SLOTS" in k,
     DOC + " 'Model facts', corrected encodings: icl TOPDOWN:BACKEND_BOUND_SLOTS is 0xa4 by Intel's JSON; libpfm4 0x00"),
    (lambda p, t, k, m: p == "skl" and "UOPS_RETIRED:" in k and ("STALL_CYCLES" in k or "TOTAL_CYCLES" in k),
     DOC + " 'Model facts', corrected encodings: skl UOPS_RETIRED stall/total cycles are umask 0x02 by Intel's JSON"),
    (lambda p, t, k, m: "MACRO_INSTS:FUSIONS_DECODED" in k,
     DOC + " 'Harness / diff findings' 6: MACRO_INSTS.FUSIONS_DECODED is 0xa6 by Intel's JSON; libpfm4 0xd0"),
    (lambda p, t, k, m: p == "glm" and ("CPU_CLK_UNHALTED" in k or k in ("ev_cpu_clk_unhalted", "pebs_glm_non_precise_cycles")),
     DOC + " 'Harness / diff findings' 7: CPU_CLK_UNHALTED codes 0x3c by Intel's JSON; libpfm4 event 0x00"),
    (lambda p, t, k, m: p == "glm" and (t == "offcore.enc" or "offcore" in k.lower()),
     DOC + " 'Harness / diff findings' 8, 9 and 'Encoder' 4: glm offcore defaults (no supplier with snoop unit masks, "
     "no L2_MISS_SNP_ANY after L2_HIT, SDM Table 18-22); libpfm4 adds them"),
    (lambda p, t, k, m: p in ("nhm_unc", "wsm_unc") and (t in ("events.enc", "events.sim")),
     DOC + " 'Uncore PMUs', 'Encodings corrected in the model': the SDM's umask where libpfm4 4.13 has 00H"),
]

UNKNOWN_PMUS = {
    "montecito": DOC + " 'PMUs libpfm4 does not describe': libpfm4 4.13 has no Montecito PMU (PFM_ERR_NOTFOUND)",
}
for i in range(8):
    UNKNOWN_PMUS["nhmex_cbox%d" % i] = (DOC + " 'PMUs libpfm4 does not describe': libpfm4 4.13 has no Xeon 7500 "
                                        "uncore PMU (PFM_ERR_NOTFOUND)")


def pieces_prefix(line):
    """The STRING pieces at the start of a vector line, as written."""
    i, n = 0, len(line)
    while True:
        while i < n and line[i] in " \t":
            i += 1
        j = i
        while j < n and line[j].isdigit():
            j += 1
        if j > i:
            if j >= n or line[j] != "*":
                break
            j += 1
        if j >= n or line[j] != '"':
            break
        j += 1
        while j < n and line[j] != '"':
            j += 2 if line[j] == "\\" else 1
        i = j + 1
    return line[:i].strip()


def main():
    pmusim = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "harness", "pmusim")
    out = subprocess.run([pmusim, "conform", "--backend", "libpfm4", "--strict", "--tap"],
                         capture_output=True, text=True, errors="replace").stdout.splitlines()
    entries, unknown_pmus, unexplained = [], set(), []
    i = 0
    while i < len(out):
        line = out[i]
        i += 1
        mo = re.match(r"not ok \d+ - (\S+) (\S+/\S+) (.*)$", line)
        if not mo:
            continue
        pmu, topic_file, rest = mo.groups()
        msg = ""
        if i < len(out) and out[i].strip() == "---":
            msg = out[i + 1].strip()
            i += 3
        if pmu in UNKNOWN_PMUS:
            unknown_pmus.add(pmu)
            continue
        topic = topic_file.split("/", 1)[1]
        if topic.endswith(".sim"):
            key_text = '"%s"' % rest
            key = rest
        else:
            where = re.search(r"(vectors/\S+?):(\d+):", msg)
            if not where:
                unexplained.append(line)
                continue
            with open(os.path.join(ROOT, where.group(1))) as f:
                src = f.read().split("\n")[int(where.group(2)) - 1]
            key_text = pieces_prefix(src)
            key = re.sub(r'\\(.)', r'\1', "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', key_text)))
        reason = next((r for test, r in RULES if test(pmu, topic, key, msg)), None)
        if reason is None:
            unexplained.append("%s %s: %s" % (topic_file, key_text, msg))
            continue
        entries.append("%s %s %s" % (topic_file, key_text, reason))
    path = os.path.join(ROOT, "vectors", "expected", "libpfm4.txt")
    with open(path, "w") as f:
        f.write("# Known differences of libpfm4 4.13 (Debian's libpfm.so.4) from the golden vectors:\n"
                "# `pmusim conform --backend libpfm4` expects these vectors to fail and fails when\n"
                "# one passes or an entry matches nothing.  Format: docs/vectors-format.md,\n"
                "# 'Expectations'.  Written by scripts/gen-expected.py from a --strict run; every\n"
                "# reason points at the place in docs/libpfm4-differences.md with the evidence.\n\n")
        for pmu in sorted(unknown_pmus):
            f.write("pmu %s %s\n" % (pmu, UNKNOWN_PMUS[pmu]))
        f.write("\n")
        for e in entries:
            f.write(e + "\n")
    print("%s: %d PMU entries, %d vector entries" % (path, len(unknown_pmus), len(entries)))
    for u in unexplained:
        print("not explained (not written): " + u)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
