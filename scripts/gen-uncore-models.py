#!/usr/bin/env python3
"""Generate models/{nhm_unc,wsm_unc}.pmu (format: docs/model-format.md).

Inputs (read only here; the outputs are committed so the project never needs them):
  * reference/uncore/nhm_unc-events.tsv and wsm_unc-events.tsv: one row per
    (event, unit mask) of libpfm4 4.13's nhm_unc (42 events) and wsm_unc
    (52 events): names, event codes, unit-mask values, groups, the NCOMBO,
    DFL and GRP_EXCL flags, the fixed-only event and which events take no
    modifier.  The event and unit-mask order is the tables' (libpfm4's).
  * Where libpfm4 4.13's encoding disagrees with the SDM's uncore event tables
    (Vol. 3B Table 19-18 Nehalem, 19-20 Westmere; the disagreements are listed
    in reference/uncore/nhm_unc.md, "Cross-checks done"), the model keeps
    libpfm4's name and takes the SDM's value (SDM_CORRECTIONS below), as
    scripts/gen-models.py does with Intel's JSON for the core PMUs.  Each is
    listed in docs/libpfm4-differences.md.
  * Register facts (addresses, layouts, writable bits) are written below from
    the SDM Vol. 3B section 18.8.2 (Figures 18-25 to 18-29) as summarized in
    reference/uncore/nhm_unc.md.

Descriptions are not copied from anywhere: events carry none, registers and
modifiers carry a few words of our own.

usage: scripts/gen-uncore-models.py [--reference DIR] [--out DIR]
(defaults: scripts/data, models/; of the reference/X files named above, the
tables it reads are committed as scripts/data/X: scripts/data/README.md;
scripts/regenerate runs every generator)
"""
import argparse
import collections
import csv
import os
import sys

PMUS = {
    "nhm_unc": "Intel Nehalem uncore PMU (Core i7/i5, Xeon 5500: 8 generic + 1 fixed counter)",
    "wsm_unc": "Intel Westmere uncore PMU (Core i7/i5, Xeon 5600: 8 generic + 1 fixed counter)",
}

LAYOUTS = [
    ("unc_evtsel", [("event", "7:0"), ("umask", "15:8"), ("occ_ctr_rst", "17"), ("edge", "18"),
                    ("int", "20"), ("en", "22"), ("inv", "23"), ("cmask", "31:24")]),
    ("unc_fixed_ctrl", [("en", "0"), ("pmi", "2")]),
    ("unc_global_ctrl", [("pmc", "7:0"), ("fixed", "32"), ("pmi_core", "51:48"), ("pmi_frz", "63")]),
    ("unc_global_status", [("pmc", "7:0"), ("fixed", "32"), ("ovf_pmi", "61"), ("chg", "63")]),
    ("unc_addr_opcode_match", [("addr", "39:3"), ("opcode", "47:40"), ("match_sel", "63:61")]),
]


PERF = [
    "# perf's syntax for these events (pmusim encode --format=perf): Linux's uncore PMU.",
    "[perf]", "pmu = uncore", "raw = config", "raw_mask = 0xff84ffff", "owned = int en",
    "term.event = event hex2 always", "term.umask = umask hex2 always", "term.cmask = cmask dec",
    "term.inv = inv flag", "term.edge = edge flag",
    "lost.occ_ctr_rst = o=1 (OCC_CTR_RST, bit 17) has no perf term and perf's uncore PMU drops it from a "
    "raw config: perf would count without the occupancy reset",
]


def registers():
    """(name, [(key, value)...]) in address order."""
    regs = [
        ("MSR_UNCORE_PERF_GLOBAL_CTRL", [("address", "0x391"), ("kind", "global_ctrl"),
                                         ("writable", "0x800f0001000000ff"), ("layout", "unc_global_ctrl")]),
        ("MSR_UNCORE_PERF_GLOBAL_STATUS", [("address", "0x392"), ("kind", "global_status"),
                                           ("readonly", "true"), ("layout", "unc_global_status")]),
        ("MSR_UNCORE_PERF_GLOBAL_OVF_CTRL", [("address", "0x393"), ("kind", "global_ovf_ctrl"),
                                             ("writable", "0xa0000001000000ff"), ("layout", "unc_global_status")]),
        # counters: width and writable bits from [pmu] gp_width / fixed_width
        ("MSR_UNCORE_FIXED_CTR0", [("address", "0x394"), ("kind", "fixed_ctr"), ("index", "0")]),
        ("MSR_UNCORE_FIXED_CTR_CTRL", [("address", "0x395"), ("kind", "fixed_ctrl"), ("writable", "0x5"),
                                       ("layout", "unc_fixed_ctrl")]),
        ("MSR_UNCORE_ADDR_OPCODE_MATCH", [("address", "0x396"), ("kind", "match"),
                                          ("writable", "0xe000fffffffffff8"), ("layout", "unc_addr_opcode_match")]),
    ]
    for i in range(8):
        regs.append(("MSR_UNCORE_PMC%d" % i, [("address", "0x%x" % (0x3b0 + i)), ("kind", "pmc"),
                                              ("index", str(i))]))
    for i in range(8):
        regs.append(("MSR_UNCORE_PERFEVTSEL%d" % i, [("address", "0x%x" % (0x3c0 + i)), ("kind", "evtsel"),
                                                    ("index", str(i)), ("writable", "0xffd6ffff"),
                                                    ("layout", "unc_evtsel")]))
    return regs


# Events libpfm4 4.13 encodes with umask 00H where the SDM table gives a umask
# (nhm_unc.md cross-check): pmu -> event -> the SDM's umask, as base_umask.
SDM_CORRECTIONS = {
    "nhm_unc": {"UNC_QHL_TO_QMC_BYPASS": 0x01},          # Table 19-18: 26H/01H
    "wsm_unc": {"UNC_QHL_TO_QMC_BYPASS": 0x01,           # Table 19-20: 26H/01H
                "UNC_DRAM_THERMAL_THROTTLED": 0x01,      # 67H/01H
                "UNC_PROCHOT_ASSERTION": 0x01,           # 68H/01H
                "UNC_CYCLES_UNHALTED_L3_FLL_ENABLE": 0x02,   # 85H/02H
                "UNC_CYCLES_UNHALTED_L3_FLL_DISABLE": 0x01},  # 86H/01H
}

MODIFIERS = [
    ("e", "bool", None, "edge", "count rising edges of the condition"),
    ("i", "bool", None, "inv", "invert the counter-mask comparison"),
    ("c", "int", "0:255", "cmask", "counter mask: count cycles with at least this many events"),
    ("o", "bool", None, "occ_ctr_rst", "clear the queue-occupancy counter tied to the event"),
]


def read_tsv(path, pmu):
    """Events in table order: name -> dict(code, flags, mods, groups, umasks [...])."""
    events = collections.OrderedDict()
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["pmu"] != pmu:
                continue
            name = row["event"]
            ev = events.get(name)
            if ev is None:
                ev = events[name] = {
                    "code": int(row["event_code"], 16),
                    "flags": set(x for x in row["event_flags"].split("|") if x and x != "-"),
                    "mods": row["modifiers"],
                    "n_groups": int(row["n_umask_groups"]),
                    "umasks": [],
                }
            if row["umask"] == "-":
                continue
            ev["umasks"].append({
                "name": row["umask"],
                "value": int(row["umask_value"], 16),
                "group": int(row["umask_group"]),
                "flags": set(x for x in row["umask_flags"].split("|") if x and x != "-"),
                "expect": int(row["perfevtsel_encoding_PFM_OS_NONE"], 16),
            })
    return events


def group_name(ev, g):
    """Named groups where an event has several (UNC_QMC_WRITES: FULL_*, PARTIAL_*)."""
    names = [u["name"] for u in ev["umasks"] if u["group"] == g]
    prefix = os.path.commonprefix(names).rstrip("_")
    return (prefix or "g%d" % g).lower()


def emit(pmu, events):
    out = []
    w = out.append
    w("# %s.pmu — generated by scripts/gen-uncore-models.py: the built-in model changes in the generator." % pmu)
    w("# A what-if variant: copy this file (installed in share/pmusim/models/), edit it, pass it with --model FILE.")
    w("# Format: docs/model-format.md.  Names, codes, defaults, groups and combination")
    w("# rules follow libpfm4 4.13 (reference/uncore/%s-events.tsv); registers from the" % pmu)
    w("# SDM Vol. 3B section 18.8.2 (reference/uncore/nhm_unc.md).")
    w("")
    w("[pmu]")
    w("name = %s" % pmu)
    w("desc = %s" % PMUS[pmu])
    w("arch = x86_uncore")
    w("smt = false")
    w("gp_counters = 8")
    w("gp_width = 48")
    w("fixed_counters = 1")
    w("fixed_width = 48")
    w("edge_needs_cmask = false")
    w("offcore_style = none")
    w("")
    for name, fields in LAYOUTS:
        w("[layout %s]" % name)
        for f, bits in fields:
            w("%s = %s" % (f, bits))
        w("")
    for name, keys in registers():
        w("[register %s]" % name)
        for k, v in keys:
            w("%s = %s" % (k, v))
        w("")
    for name, typ, rng, field, desc in MODIFIERS:
        w("[modifier %s]" % name)
        w("type = %s" % typ)
        if rng:
            w("range = %s" % rng)
        w("register = evtsel")
        w("field = %s" % field)
        w("desc = %s" % desc)
        w("")
    # perf's syntax (pmusim encode --format=perf): Linux's "uncore" PMU, its
    # format terms and raw mask 0xFF84FFFF (no OCC_CTR_RST, no INT, no EN);
    # its fixed counter is the pseudo-event event=0xff,umask=0x00, what the
    # encoder's codes[0] holds for UNC_CLK_UNHALTED.
    for line in PERF:
        w(line)
    w("")
    for name, ev in events.items():
        w("[event %s]" % name)
        w("code = 0x%02x" % ev["code"])
        fix = SDM_CORRECTIONS[pmu].get(name)
        if fix is not None:
            if ev["umasks"]:
                sys.exit("%s %s: an SDM correction for an event with unit masks" % (pmu, name))
            w("# libpfm4 4.13 encodes umask 00H; the SDM's table gives %02XH" % fix)
            w("base_umask = 0x%02x" % fix)
        flags = []
        if "FIXED" in ev["flags"]:
            # fixed counter 0 only (libpfm4 cntmsk: the fixed counter's bit alone)
            w("counters = 0x0")
            w("fixed = 0x1")
            flags.append("fixed_only")
        if "GRP_EXCL" in ev["flags"]:
            flags.append("group_excl")
        unknown = ev["flags"] - {"FIXED", "GRP_EXCL"}
        if unknown:
            sys.exit("%s %s: unknown event flags %s" % (pmu, name, unknown))
        if flags:
            w("flags = %s" % " ".join(flags))
        if ev["mods"] == "none":
            w("modifiers = none")
        elif ev["mods"] != "e,i,c,o":
            sys.exit("%s %s: unexpected modifier list %s" % (pmu, name, ev["mods"]))
        groups = sorted(set(u["group"] for u in ev["umasks"]))
        if groups and groups != list(range(ev["n_groups"])):
            sys.exit("%s %s: groups %s, expected %d" % (pmu, name, groups, ev["n_groups"]))
        named = len(groups) > 1
        for g in groups:
            members = [u for u in ev["umasks"] if u["group"] == g]
            all_ncombo = len(members) > 1 and all("NCOMBO" in u["flags"] for u in members)
            words = "required" + (" exclusive" if all_ncombo else "")
            w("%s = %s" % ("group.%s" % group_name(ev, g) if named else "group", words))
        for u in ev["umasks"]:
            words = []
            if named:
                words.append("group=%s" % group_name(ev, u["group"]))
            if "DFL" in u["flags"]:
                words.append("default")
            members = [x for x in ev["umasks"] if x["group"] == u["group"]]
            all_ncombo = len(members) > 1 and all("NCOMBO" in x["flags"] for x in members)
            if "NCOMBO" in u["flags"] and not all_ncombo:
                words.append("excl")
            unknown = u["flags"] - {"DFL", "NCOMBO"}
            if unknown:
                sys.exit("%s %s:%s: unknown umask flags %s" % (pmu, name, u["name"], unknown))
            # the table's own encoding must be the layout's (EN | INT | umask | code)
            if u["expect"] != (0x500000 | (u["value"] << 8) | ev["code"]):
                sys.exit("%s %s:%s: encoding 0x%x does not follow the layout" % (pmu, name, u["name"], u["expect"]))
            w("umask.%s = 0x%02x%s" % (u["name"], u["value"], "".join(" " + x for x in words)))
        w("")
    return "\n".join(out).rstrip("\n") + "\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reference", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"),
                    help="the reference folder (default: scripts/data, the committed copy)")
    ap.add_argument("--out", default=os.path.join(here, "..", "models"))
    a = ap.parse_args()
    expect = {"nhm_unc": 42, "wsm_unc": 52}
    for pmu in PMUS:
        events = read_tsv(os.path.join(a.reference, "uncore", "%s-events.tsv" % pmu), pmu)
        for name in SDM_CORRECTIONS[pmu]:
            if name not in events:
                sys.exit("%s: corrected event %s is not in the table" % (pmu, name))
        if len(events) != expect[pmu]:
            sys.exit("%s: %d events, expected %d" % (pmu, len(events), expect[pmu]))
        path = os.path.join(a.out, pmu + ".pmu")
        with open(path, "w") as f:
            f.write(emit(pmu, events))
        print("%s: %d events, %d unit masks" % (path, len(events), sum(len(e["umasks"]) for e in events.values())))


if __name__ == "__main__":
    main()
