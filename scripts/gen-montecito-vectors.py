#!/usr/bin/env python3
"""Generate vectors/montecito/*.enc (docs/vectors-format.md, docs/montecito.md).

Encoding vectors for the Itanium 2 9000 (Montecito) PMU.  The expected values
never come from pmusim (neither its encoder nor its model file):

  * event codes, umasks, max_incr, EAR kind and mode, MESI flag, aliases:
    reference/montecito/events.tsv (libpfm's Montecito table, decoded);
  * the counting PMC layout (PMC4-15): reference/montecito/registers.md §3:
    plm 3:0 (bit 0 = PLM0 = k, bit 3 = PLM3 = u), ev 4, oi 5, pm 6, es 15:8,
    umask 19:16, thres 22:20, ism 25:24 (must be 2), all 26, MESI 27-30
    (i s e m); the EAR configuration registers, §6 (PMC37: plm 3:0, pm 4,
    umask 12:5, ct 13 = 1 in cache mode, 0 in TLB mode) and §7 (PMC40: plm
    3:0, pm 6, mode 8:7 with cache 0 / tlb 1 / alat 2, umask 19:16, ism 25:24
    = 2); an EAR event's counter umask is 0 (§3);
  * the rules: libpfm_montecito(3) (thres below max_incr; "a threshold of n
    means that the counter will be incremented by one only when the event
    occurs more than n times per cycle"), registers.md §3 (MESI: none named
    means all four, as libpfm), pmusim's documented interface for the rest
    (docs/montecito.md: default privilege PLM0|PLM3 when neither k nor u is
    named, oi 0 unless named, pm 0, codes[1] = the EAR configuration value);
  * error classes: the class libpfm4 uses for the same kind of mistake on its
    other PMUs ("class: libpfm4 convention"); the column (1-based byte offset
    of the offending token or value) is written in the src as "column N".

usage: scripts/gen-montecito-vectors.py [--reference DIR] [--out DIR]
(defaults: scripts/data, vectors/; of the reference/X files named above, the
tables it reads are committed as scripts/data/X: scripts/data/README.md;
scripts/regenerate runs every generator)
(then list the files in vectors/vectors.gresource.xml: scripts/gen-vectors.py
lists every vector folder's .enc files)
"""
import argparse
import csv
import os

PMU = "montecito"
PLM0, PLM3 = 1, 8
DEFAULT_PLM = PLM0 | PLM3          # pms_encode's default privilege mask (libpfm4's dfl_plm u+k)
# registers.md §3, the counting PMC
OI, ES, UMASK, THRES, ISM, MESI = 5, 8, 16, 20, 24, 27
LAYOUT = "regs:montecito/registers.md 3 PMC4-15 layout (ism=2, pm=0, ev=0, all=0)"
TSV = "tsv:montecito/events.tsv"
CLASS = "class: libpfm4 convention"
MESI_MODS = ("mesi_i", "mesi_s", "mesi_e", "mesi_m")


def load(ref):
    events = []
    with open(os.path.join(ref, "montecito", "events.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            events.append({
                "name": row["name"],
                "code": int(row["event_code"], 16),
                "umask": int(row["umask"], 16),
                "max_inc": int(row["max_incr"]),
                "mesi": row["mesi_umask"] == "yes",
                "ear": row["ear"],          # none, I-EAR, D-EAR
                "ear_mode": row["ear_mode"],  # none, cache, tlb, alat
                "alias": row["alias_of"] or None,
            })
    return events


def pmc(ev, plm=DEFAULT_PLM, thres=0, oi=0, mesi=None):
    """The counting PMC value (registers.md §3)."""
    if mesi is None:
        mesi = 0xF if ev["mesi"] else 0
    umask = 0 if ev["ear"] != "none" else ev["umask"]
    return plm | oi << OI | ev["code"] << ES | umask << UMASK | thres << THRES | 2 << ISM | mesi << MESI


def ear_cfg(ev, plm=DEFAULT_PLM):
    """PMC37 (§6) or PMC40 (§7), as libpfm's method 1 programs it from the event."""
    if ev["ear"] == "D-EAR":
        mode = {"cache": 0, "tlb": 1, "alat": 2}[ev["ear_mode"]]
        return plm | mode << 7 | ev["umask"] << 16 | 2 << 24
    ct = 1 if ev["ear_mode"] == "cache" else 0
    return plm | ev["umask"] << 5 | ct << 13


def codes(ev, **kw):
    c = [pmc(ev, **kw)]
    if ev["ear"] != "none":
        c.append(ear_cfg(ev, kw.get("plm", DEFAULT_PLM)))
    return ",".join("0x%x" % v for v in c)


def fstr(ev, plm=DEFAULT_PLM, thres=0, oi=0, mesi=None):
    if mesi is None:
        mesi = 0xF if ev["mesi"] else 0
    s = "%s::%s:k=%d:u=%d:thres=%d:oi=%d" % (PMU, ev["alias"] or ev["name"], plm & 1, (plm >> 3) & 1, thres, oi)
    if ev["mesi"]:
        s += "".join(":%s=%d" % (m, (mesi >> i) & 1) for i, m in enumerate(MESI_MODS))
    return s


def src_of(ev, extra=""):
    s = "%s:%s code 0x%02x umask 0x%x max_incr %d" % (TSV, ev["name"], ev["code"], ev["umask"], ev["max_inc"])
    if ev["ear"] != "none":
        reg = "PMC40 §7" if ev["ear"] == "D-EAR" else "PMC37 §6"
        s += " %s %s + regs:montecito/registers.md %s (counter umask 0)" % (ev["ear"], ev["ear_mode"], reg)
    if ev["mesi"]:
        s += " mesi"
    s += " + " + LAYOUT
    if extra:
        s += "; " + extra
    return s


def q(s):
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.append("\\x%02x" % ord(ch))
    return '"' + "".join(out) + '"'


def ok(s, ev, src, **kw):
    return "%s PFM_SUCCESS %s fstr %s src %s\n" % (q(s), codes(ev, **kw), q(fstr(ev, **kw)), src)


def bad(s, ret, col, why):
    return "%s %s - src %s; column %d; %s\n" % (q(s), ret, why, col, CLASS)


def header(f, what):
    f.write("# Montecito encoding vectors: %s.\n# Written by scripts/gen-montecito-vectors.py from "
            "reference/montecito/events.tsv and registers.md; never from pmusim.\n" % what)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"),
                    help="the reference folder (default: scripts/data, the committed copy)")
    ap.add_argument("--out", default=os.path.join(here, "..", "vectors"))
    args = ap.parse_args()
    events = load(args.reference)
    by = {e["name"]: e for e in events}
    out = os.path.join(args.out, PMU)
    os.makedirs(out, exist_ok=True)
    counts = {}

    # events.enc: every event alone, default privilege PLM0|PLM3
    with open(os.path.join(out, "events.enc"), "w") as f:
        header(f, "every event alone (default privilege PLM0|PLM3)")
        for ev in events:
            f.write(ok("%s::%s" % (PMU, ev["name"]), ev, src_of(ev)))
        counts["events.enc"] = len(events)

    # thresholds.enc: thres = max_inc - 1 accepted, thres = max_inc refused, every event
    with open(os.path.join(out, "thresholds.enc"), "w") as f:
        header(f, "threshold edges of every event (thres below max_incr, libpfm_montecito(3))")
        n = 0
        for ev in events:
            m = ev["max_inc"]
            s = "%s::%s:thres=%d" % (PMU, ev["name"], m - 1)
            f.write(ok(s, ev, src_of(ev, "doc:libpfm_montecito.3 thres in 0..max_incr-1"), thres=m - 1))
            s = "%s::%s:thres=%d" % (PMU, ev["name"], m)
            f.write(bad(s, "PFM_ERR_ATTR_VAL", len("%s::%s:thres=" % (PMU, ev["name"])) + 1,
                        "doc:libpfm_montecito.3 max_incr %d is the non-inclusive upper bound of thres" % m))
            n += 2
        # the 3-bit field and malformed values
        nops = by["NOPS_RETIRED"]
        base = "%s::NOPS_RETIRED:" % PMU
        for s, ret, col, why in (
            (base + "thres=8", "PFM_ERR_ATTR_VAL", len(base) + 7, "regs:registers.md 3 thres is 3 bits (0..7)"),
            (base + "thres=-1", "PFM_ERR_ATTR_VAL", len(base) + 7, "negative threshold"),
            (base + "thres", "PFM_ERR_ATTR_VAL", len(base) + 1, "thres needs a value"),
            (base + "thres=", "PFM_ERR_ATTR_VAL", len(base) + 7, "empty value"),
            (base + "thres=x", "PFM_ERR_ATTR_VAL", len(base) + 7, "not a number"),
            (base + "thres=1:thres=2", "PFM_ERR_ATTR_SET", len(base) + 9, "thres given twice with different values"),
        ):
            f.write(bad(s, ret, col, why))
            n += 1
        for s, t in ((base + "thres=0x5", 5), (base + "thres=3:thres=3", 3), (base + "thres=0", 0)):
            f.write(ok(s, nops, src_of(nops, "doc:libpfm_montecito.3 thres; 0x hex, a repeat with the same value"),
                       thres=t))
            n += 1
        counts["thresholds.enc"] = n

    # privilege.enc: k, u, both, neither, =0/=1, with oi, on plain, EAR and MESI events
    with open(os.path.join(out, "privilege.enc"), "w") as f:
        header(f, "privilege (k = PLM0, u = PLM3) and oi combinations")
        n = 0
        combos = (
            ("", DEFAULT_PLM, 0), (":k", PLM0, 0), (":u", PLM3, 0), (":k:u", PLM0 | PLM3, 0), (":u:k", PLM0 | PLM3, 0),
            (":k=1:u=0", PLM0, 0), (":k=0", 0, 0), (":u=0:k=0", 0, 0), (":k=0:u=1", PLM3, 0),
            (":oi", DEFAULT_PLM, 1), (":oi=1:u", PLM3, 1), (":oi=0:k", PLM0, 0), (":k:oi:u", PLM0 | PLM3, 1),
            (":k:k", PLM0, 0),
        )
        for name in ("CPU_OP_CYCLES_ALL", "NOPS_RETIRED", "DATA_EAR_CACHE_LAT4", "DATA_EAR_TLB_ALL", "DATA_EAR_ALAT",
                     "L1I_EAR_CACHE_LAT4", "L1I_EAR_TLB_ALL", "L3_READS_ALL_HIT", "BUS_ALL_SELF",
                     "CPU_OP_CYCLES_HALTED", "IA64_INST_RETIRED"):
            ev = by[name]
            for suffix, plm, oi in combos:
                why = ("doc:pmusim interface (docs/montecito.md): no k/u named -> default PLM0|PLM3" if suffix in ("", ":oi")
                       else "k sets PLM0, u PLM3, naming either drops the default mask; oi bit 5")
                f.write(ok("%s::%s%s" % (PMU, name, suffix), ev, src_of(ev, why), plm=plm, oi=oi))
                n += 1
        ev = by["NOPS_RETIRED"]
        base = "%s::NOPS_RETIRED" % PMU
        f.write(ok(base + ":u:thres=5:oi", ev, src_of(ev, "all modifiers together"), plm=PLM3, thres=5, oi=1))
        n += 1
        for s, ret, col, why in (
            (base + ":k=2", "PFM_ERR_ATTR_VAL", len(base) + 4, "k is a boolean"),
            (base + ":oi=2", "PFM_ERR_ATTR_VAL", len(base) + 5, "oi is a boolean"),
            (base + ":k:k=0", "PFM_ERR_ATTR_SET", len(base) + 4, "k given twice with different values"),
            (base + ":pm", "PFM_ERR_ATTR", len(base) + 2, "pm is the session's (no modifier)"),
            (base + ":all", "PFM_ERR_ATTR", len(base) + 2, "libpfm refuses .all (registers.md 3); no modifier"),
            (base + ":ism=2", "PFM_ERR_ATTR", len(base) + 2, "ism is fixed at 2 (no modifier)"),
            (base + ":e", "PFM_ERR_ATTR", len(base) + 2, "no edge on Itanium"),
            (base + ":c=1", "PFM_ERR_ATTR", len(base) + 2, "no cmask on Itanium (thres instead)"),
            (base + ":t", "PFM_ERR_ATTR", len(base) + 2, "no t modifier"),
        ):
            f.write(bad(s, ret, col, why))
            n += 1
        counts["privilege.enc"] = n

    # mesi.enc: every MESI event: each qualifier alone, pairs, all four; refused elsewhere
    with open(os.path.join(out, "mesi.enc"), "w") as f:
        header(f, "MESI qualifiers (registers.md 3 bits 27-30; none named means all four)")
        n = 0
        sets = ((0x1,), (0x2,), (0x4,), (0x8,), (0x1, 0x8), (0x2, 0x4), (0x8, 0x4, 0x2, 0x1))
        for ev in events:
            if not ev["mesi"]:
                continue
            for st in sets:
                mask = 0
                s = "%s::%s" % (PMU, ev["name"])
                for b in st:
                    mask |= b
                    s += ":" + MESI_MODS[b.bit_length() - 1]
                f.write(ok(s, ev, src_of(ev, "regs:registers.md 3 MESI i=27 s=28 e=29 m=30, the named ones only"),
                           mesi=mask))
                n += 1
            s = "%s::%s:mesi_s:u:thres=0" % (PMU, ev["name"])
            f.write(ok(s, ev, src_of(ev, "MESI with privilege and threshold"), mesi=0x2, plm=PLM3))
            n += 1
        for name in ("NOPS_RETIRED", "L2D_FILL_MESI_STATE_M", "DATA_EAR_CACHE_LAT4", "L1D_READ_MISSES_ALL"):
            s = "%s::%s:mesi_i" % (PMU, name)
            f.write(bad(s, "PFM_ERR_ATTR", len("%s::%s:" % (PMU, name)) + 1,
                        "tsv:mesi_umask=no: the event takes no MESI qualifier"))
            n += 1
        s = "%s::L3_INSERTS:mesi_x" % PMU
        f.write(bad(s, "PFM_ERR_ATTR", len("%s::L3_INSERTS:" % PMU) + 1, "no such qualifier"))
        s = "%s::L3_INSERTS:mesi_i=3" % PMU
        f.write(bad(s, "PFM_ERR_ATTR_VAL", len("%s::L3_INSERTS:mesi_i=" % PMU) + 1, "a boolean"))
        n += 2
        counts["mesi.enc"] = n

    # invalid.enc: malformed and unknown strings
    with open(os.path.join(out, "invalid.enc"), "w") as f:
        header(f, "malformed and unknown strings, with their error class")
        rows = [
            ("montecito::NO_SUCH_EVENT", "PFM_ERR_NOTFOUND", 12, "unknown event"),
            ("montecito::", "PFM_ERR_NOTFOUND", 12, "no event name"),
            ("montecitoo::NOPS_RETIRED", "PFM_ERR_NOTFOUND", 1, "unknown PMU"),
            ("NOPS_RETIRED", "PFM_ERR_NOTFOUND", 1, "no PMU: libpfm4 looks only on the host's PMUs"),
            ("montecito::NOPS_RETIRED:", "PFM_ERR_ATTR", 25, "trailing ':'"),
            ("montecito::NOPS_RETIRED::u", "PFM_ERR_ATTR", 25, "empty attribute"),
            ("montecito::NOPS_RETIRED:ALL", "PFM_ERR_ATTR", 25, "Itanium events have no unit masks"),
            ("montecito::NOPS_RETIRED:x", "PFM_ERR_ATTR", 25, "unknown modifier"),
            ("montecito::L3_READS_ALL:HIT", "PFM_ERR_NOTFOUND", 12, "unit masks are part of the event name"),
            ("montecito::IA64_TAGGED_INST_RETIRED_IBRP9_PMC32_33", "PFM_ERR_NOTFOUND", 12, "no such pair"),
            (" montecito::NOPS_RETIRED", "PFM_ERR_INVAL", 1, "leading blank"),
            ("montecito::NOPS_RETIRED ", "PFM_ERR_INVAL", 24, "trailing blank"),
            ("montecito::NOPS_RETIRED" + ":u" * 65, "PFM_ERR_TOOMANY", 24 + 64 * 2 + 1,
             "65 modifiers: more than 64 unit masks and modifiers"),
        ]
        n = 0
        for s, ret, col, why in rows:
            f.write(bad(s, ret, col, why))
            n += 1
        # names are case-insensitive, as on every pmusim PMU (libpfm4 convention)
        ev = by["NOPS_RETIRED"]
        f.write(ok("MONTECITO::nops_retired:U", ev, src_of(ev, "names are case-insensitive"), plm=PLM3))
        n += 1
        counts["invalid.enc"] = n

    total = sum(counts.values())
    for k, v in sorted(counts.items()):
        print("%-16s %5d" % (k, v))
    print("%-16s %5d" % ("total", total))


if __name__ == "__main__":
    main()
