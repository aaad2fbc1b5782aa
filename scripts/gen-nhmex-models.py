#!/usr/bin/env python3
"""Generate models/nhmex.pmu (docs/model-format.md).

One model of the Intel Xeon 7500 (Nehalem-EX) uncore with one PMU per C-Box,
nhmex_cbox0 ... nhmex_cbox7 ([pmu] instances = cbox:0..7, name_pattern).  The
file describes the whole uncore the simulator device holds -- the U-Box with
the uncore-wide control, the two S-Box overflow summaries and all eight
C-Boxes -- once; each PMU is the model standing for its C-Box.

Inputs (read only here; the outputs are committed so the build never needs them):
  * reference/uncore/nhmex-cbox-events.tsv: the C-Box events of the Xeon 7500
    (likwid's table; the WSM-EX-only rows and the GAP row are left out).
  * reference/uncore/nhmex-msr-map.tsv: every address below is checked
    against it (SDM Vol. 3C Table 35-15).
  * Field layouts: Intel 323535-001 Table 2-13 (C_MSR_PMON_EVT_SEL) as given
    in reference/docs/xeon7500-uncore-cbox-registers.txt, and
    reference/uncore/nhmex.md sections 3 and 4 (box control, U-Box bits from
    Linux), reference/semantics.md section 7 and choices A5, A16, A17.

Descriptions are our own words.

usage: scripts/gen-nhmex-models.py [--reference DIR] [--out DIR]
(defaults: scripts/data, models/; of the reference/X files named above, the
tables it reads are committed as scripts/data/X: scripts/data/README.md;
scripts/regenerate runs every generator)
"""
import argparse
import csv
import os
import sys

N_CBOX = 8
# C-Box n's MSR block (nhmex.md section 2, semantics.md 7.1, SDM T35-15)
CBOX_BASE = {0: 0xD00, 1: 0xD80, 2: 0xD40, 3: 0xDC0, 4: 0xD20, 5: 0xDA0, 6: 0xD60, 7: 0xDE0}
N_CTR = 6
CTR_WRITABLE = 0xFFFFFFFFFFFF
# Table 2-13: ev_sel 7:0, umask 15:8, edge 18, pmi_en 20, en 22, inv 23,
# threshold 31:24 are the fields; 17:16, 19, 21, 60:32 and 63 read 0 with
# writes ignored ("ig"; 49:32 were not captured and are taken as ig too);
# 62:61 must be written 0 (rsv), which the model makes a #GP.
EVTSEL_WRITABLE = 0xFFD4FFFF
EVTSEL_IGNORED = 0x9FFFFFFF002B0000

# Short descriptions, ours.
EVENT_DESC = {
    "LLC_MISSES": "lookups that missed in this LLC slice, by the state the line was found in",
    "LLC_HITS": "lookups that hit in this LLC slice, by line state",
    "LLC_S_FILLS": "lines filled into this LLC slice, by the state they were filled in",
    "LLC_VICTIMS": "lines evicted from this LLC slice, by line state",
    "ARB_LOSSES": "egress arbitration lost, by ring and direction",
    "ARB_WINS": "egress arbitration won, by ring and direction",
    "BOUNCES_C2P_AK": "C-Box to core AK ring messages bounced",
    "BOUNCES_C2P_BL": "C-Box to core BL ring messages bounced",
    "BOUNCES_C2P_IV": "C-Box to core IV ring messages bounced",
    "BOUNCES_P2C_AD": "core to C-Box AD ring messages bounced",
    "EGRESS_BYPASS_WINS": "egress bypass path taken, by ring and bypass",
    "INGRESS_BYPASS_WINS_AD": "AD ingress bypass taken, by queue and bypass",
    "MAF_ACK": "miss address file acknowledgements",
    "MAF_NACK1": "miss address file refusals, first set of reasons",
    "MAF_NACK2": "miss address file refusals, second set of reasons",
    "OCCUPANCY_IPQ": "ingress probe queue occupancy per cycle",
    "OCCUPANCY_IRQ": "ingress request queue occupancy per cycle",
    "OCCUPANCY_MAF": "miss address file occupancy per cycle",
    "OCCUPANCY_RSPF": "RSPF queue occupancy per cycle",
    "OCCUPANCY_RWRF": "RWRF queue occupancy per cycle",
    "OCCUPANCY_VIQ": "victim queue occupancy per cycle",
    "SINKS_C2P": "C-Box to core messages sunk, by ring",
    "SINKS_P2C": "core to C-Box messages sunk, by ring",
    "SINKS_S2C": "S-Box to C-Box messages sunk, by ring",
    "SINKS_S2P_BL": "S-Box to core BL messages sunk",
    "SNP_HITS": "remote snoops that hit this LLC slice, by snoop kind and line state",
    "SNPS": "remote snoops seen by this LLC slice, by snoop kind",
    "STARVED_EGRESS": "cycles an egress queue is starved, by queue",
    "TRANS_IPQ": "allocations into the ingress probe queue",
    "TRANS_IRQ": "allocations into the ingress request queue",
    "TRANS_MAF": "allocations into the miss address file",
    "TRANS_RSPF": "allocations into the RSPF queue",
    "TRANS_RWRF": "allocations into the RWRF queue",
    "TRANS_VIQ": "allocations into the victim queue",
}


def load_events(ref):
    """NHM-EX rows of the event TSV, grouped by event in file order."""
    path = os.path.join(ref, "uncore", "nhmex-cbox-events.tsv")
    events = {}   # name -> dict(code, umasks [(name, value, notes)], maxinc, notes)
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if not row["chip"].startswith("NHM-EX"):
                continue            # WSM-EX (Xeon E7) only
            if row["notes"].startswith("GAP"):
                continue            # CACHE_CHAR_QUAL: no code known
            name = row["event"]
            code = int(row["ev_sel"], 16)
            ev = events.setdefault(name, {"code": code, "umasks": [], "maxinc": set(), "notes": []})
            if ev["code"] != code:
                sys.exit("%s: two codes for %s" % (path, name))
            if row["max_inc_per_cycle"] != "not retrieved":
                ev["maxinc"].add(row["max_inc_per_cycle"])
            if row["umask_name"] != "-":
                ev["umasks"].append((row["umask_name"], int(row["umask_value"], 16), row["notes"]))
            elif int(row["umask_value"], 16) != 0:
                sys.exit("%s: %s without a unit mask name has value %s" % (path, name, row["umask_value"]))
    return events


def load_msr_map(ref):
    m = {}
    with open(os.path.join(ref, "uncore", "nhmex-msr-map.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            m[(row["box"], row["instance"], row["register"])] = int(row["msr"], 16)
    return m


def registers():
    """(name, dict of keys) in file order."""
    regs = []
    regs.append(("U_MSR_PMON_GLOBAL_CTL", dict(address=0xC00, kind="global_ctrl", writable=0xB000001F,
                                                layout="ubox_global_ctl", unit="ubox", instance=0)))
    regs.append(("U_MSR_PMON_GLOBAL_STATUS", dict(address=0xC01, kind="global_status", readonly=True,
                                                   layout="ubox_global_status", unit="ubox", instance=0)))
    regs.append(("U_MSR_PMON_GLOBAL_OVF_CTL", dict(address=0xC02, kind="global_ovf_ctrl", writable=0xF,
                                                    layout="ubox_global_status", unit="ubox", instance=0)))
    regs.append(("U_MSR_PMON_EVNT_SEL", dict(address=0xC10, kind="evtsel", writable=0x5400FF,
                                              layout="ubox_evtsel", unit="ubox", instance=0)))
    # counters: width and writable bits from [pmu] gp_width (the loader's)
    regs.append(("U_MSR_PMON_CTR", dict(address=0xC11, kind="pmc", unit="ubox", instance=0)))
    for s, addr in ((0, 0xC43), (1, 0xCC3)):
        regs.append(("S%d_MSR_PMON_SUMMARY" % s, dict(address=addr, kind="box_status", readonly=True,
                                                      layout="sbox_summary", unit="sbox", instance=s)))
    for n in range(N_CBOX):
        b = CBOX_BASE[n]
        regs.append(("C%d_MSR_PMON_GLOBAL_CTL" % n, dict(address=b, kind="box_ctrl", writable=0x3F,
                                                         layout="cbox_box_ctl", unit="cbox", instance=n)))
        regs.append(("C%d_MSR_PMON_GLOBAL_STATUS" % n, dict(address=b + 1, kind="box_status", readonly=True,
                                                            layout="cbox_box_status", unit="cbox", instance=n)))
        regs.append(("C%d_MSR_PMON_GLOBAL_OVF_CTL" % n, dict(address=b + 2, kind="box_ovf_ctrl", writable=0x3F,
                                                             layout="cbox_box_ovf", unit="cbox", instance=n)))
        for k in range(N_CTR):
            regs.append(("C%d_MSR_PMON_EVT_SEL%d" % (n, k),
                         dict(address=b + 0x10 + 2 * k, kind="evtsel", index=k, writable=EVTSEL_WRITABLE,
                              ignored=EVTSEL_IGNORED, layout="cbox_evtsel", unit="cbox", instance=n)))
            regs.append(("C%d_MSR_PMON_CTR%d" % (n, k),
                         dict(address=b + 0x11 + 2 * k, kind="pmc", index=k, unit="cbox", instance=n)))
    return regs


def check_addresses(regs, msr):
    """Every U-Box and C-Box address as SDM Table 35-15 lists it (the S-Box
    summary has no entry there: its address is our choice)."""
    role = {"GLOBAL_CTL": "BOX_CTRL", "GLOBAL_STATUS": "BOX_STATUS", "GLOBAL_OVF_CTL": "BOX_OVF_CTRL"}
    urole = {"GLOBAL_CTL": "GLOBAL_CTRL", "GLOBAL_STATUS": "GLOBAL_STATUS", "GLOBAL_OVF_CTL": "GLOBAL_OVF_CTRL",
             "EVNT_SEL": "EVNT_SEL", "CTR": "CTR"}
    for name, r in regs:
        if name.startswith("U_"):
            key = ("U", "", urole[name[len("U_MSR_PMON_"):]])
        elif name.startswith("C"):
            n = r["instance"]
            tail = name[len("C%d_MSR_PMON_" % n):]
            if tail.startswith("EVT_SEL"):
                key = ("C", str(n), "EVNT_SEL" + tail[len("EVT_SEL"):])
            elif tail.startswith("CTR"):
                key = ("C", str(n), tail)
            else:
                key = ("C", str(n), role[tail])
        else:
            continue
        if msr.get(key) != r["address"]:
            sys.exit("address of %s: 0x%x here, %s in nhmex-msr-map.tsv" % (name, r["address"], msr.get(key)))


HEADER = """\
# nhmex.pmu — generated by scripts/gen-nhmex-models.py: the built-in model changes in the generator.
# A what-if variant: copy this file (installed in share/pmusim/models/), edit it, pass it with --model FILE.
# Format: docs/model-format.md.
#
# Intel Xeon 7500 (Nehalem-EX) uncore: one model, eight PMUs.  The registers
# are the whole uncore the simulator device holds: the U-Box (uncore-wide
# enable, reset, freeze and PMI routing, its own counter), the two S-Box
# overflow summaries and the eight C-Boxes.  [pmu] instances makes one PMU
# per C-Box, nhmex_cbox0 ... nhmex_cbox7: each is this model standing for its
# C-Box (unit cbox, instance n), whose registers the encoder and the program
# step find by kind and index.
# Sources: Intel 323535-001 (Xeon 7500 Uncore Programming Guide) Table 2-13,
# SDM Vol. 3C Table 35-15 (addresses), Linux uncore_nhmex.c (U-Box bits),
# likwid's NHM-EX C-Box event table (events and unit masks), as summarized in
# the project's reference notes (nhmex.md, semantics.md section 7).

[pmu]
name = nhmex
desc = Intel Xeon 7500 (Nehalem-EX) uncore: eight C-Boxes (one PMU each), U-Box global control
arch = nhmex_cbox
instances = cbox:0..{last}
name_pattern = nhmex_cbox%u
desc_pattern = Intel Xeon 7500 (Nehalem-EX) uncore C-Box %u: coherence engine of LLC slice %u, U-Box global control
smt = false
gp_counters = 6
gp_width = 48
fixed_counters = 0

[options]
# What-if switches read by the simulator (semantics.md section 10; pmi_skid: section 6).
# pmi_freeze_delay: uncore clocks between a counter's PMI reaching the U-Box
# and the U-Box clearing en_all (freeze; frz_all set); counters keep counting
# meanwhile (Guide p.2-15: they wrap and go on until the disable).
pmi_freeze_delay = 0
# invert: how the threshold comparison reads.  documented: inv=0 counts when
# n >= threshold, inv=1 when n < threshold (the Guide's prose and later Intel
# uncore manuals; choice A5).  literal: inv=1 counts when n > threshold, as the
# C-Box table's wording ("threshold < event") reads.
invert = documented

# C_MSR_PMON_EVT_SEL{{5-0}} (Guide Table 2-13).  en must be set to count; the
# counter also needs its ctr_en bit in the box's GLOBAL_CTL and the U-Box's
# en_all.  Edge detection sits after threshold and invert.
[layout cbox_evtsel]
event = 7:0
umask = 15:8
edge = 18
pmi_en = 20
en = 22
inv = 23
threshold = 31:24

# C-Box GLOBAL_CTL / GLOBAL_STATUS / GLOBAL_OVF_CTL: one bit per counter in
# 5:0 (inferred from the six counters and Linux's enable_box; choice A16).
[layout cbox_box_ctl]
ctr_en = 5:0

[layout cbox_box_status]
ov = 5:0

[layout cbox_box_ovf]
clr_ov = 5:0

# U_MSR_PMON_GLOBAL_CTL: bit positions from Linux (the Guide's Table 2-2 was
# not retrieved); pmi_core_sel's width per Linux (choice A16, unverified).
[layout ubox_global_ctl]
en = 0
pmi_core_sel = 4:1
en_all = 28
rst_all = 29
frz_all = 31

# U_MSR_PMON_GLOBAL_STATUS / GLOBAL_OVF_CTL: the Guide says it gathers the
# overflow summaries of the U-Box, W-Box and the two S-Boxes, but its field
# table was not retrieved.  These bit positions are an unverified model choice.
[layout ubox_global_status]
ov_u = 0
ov_w = 1
ov_s0 = 2
ov_s1 = 3

[layout ubox_evtsel]
event = 7:0
edge = 18
pmi_en = 20
en = 22

# S_MSR_PMON_SUMMARY (Guide Table 2-26): S-Box 0 summarizes C-Boxes 0-3
# (ov_c_l: C0/C1, ov_c_r: C2/C3), S-Box 1 C-Boxes 4-7 (C4/C5, C6/C7).
[layout sbox_summary]
ov_c_r = 0
ov_c_l = 2
ov_mb = 16
ov_s = 18
ov_r = 19
"""

MODIFIERS = """\
# Modifiers, in the order the canonical string prints them.  No privilege
# filter: the uncore counts at every privilege level, so there is no u or k.
[modifier e]
type = bool
register = evtsel
field = edge
desc = count rising edges of the thresholded condition

[modifier i]
type = bool
register = evtsel
field = inv
desc = invert the threshold comparison

[modifier t]
type = int
range = 0:255
register = evtsel
field = threshold
desc = threshold: count cycles whose increment passes this value (0: count the increment)

[modifier pmi]
type = bool
register = evtsel
field = pmi_en
desc = raise a PMI to the U-Box on overflow
"""

PERF = """\
# perf's syntax for these events (pmusim encode --format=perf): Linux's
# uncore_nhmex registers one PMU per C-Box, uncore_cbox_<n>, with the format
# terms event, umask, edge, inv and thresh, and takes config through its raw
# mask 0xFF84FFFF: en is its own business, and pmi_en has no term (the uncore
# driver does not sample).
[perf]
pmu = uncore_cbox_%u
raw = config
raw_mask = 0xff84ffff
owned = pmi_en en
term.event = event hex2 always
term.umask = umask hex2 always
term.thresh = threshold dec
term.inv = inv flag
term.edge = edge flag
"""


def fmt_val(key, v):
    """Addresses and masks in hex, counts and indexes in decimal."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return "0x%x" % v if key in ("address", "writable", "ignored") else str(v)
    return v


def register_text(regs):
    out = []
    for name, r in regs:
        if name == "U_MSR_PMON_GLOBAL_CTL":
            out.append("# U-Box (unit ubox): the uncore-wide control and its own counter.")
        elif name == "S0_MSR_PMON_SUMMARY":
            out.append("# S-Box overflow summaries (unit sbox).  The Guide names the register\n"
                       "# (Table 2-26) but its MSR address was not retrieved: base + 3 of each\n"
                       "# S-Box block (0xC40, 0xCC0) is pmusim's unverified choice.")
        elif name.endswith("_GLOBAL_CTL") and name.startswith("C"):
            n = r["instance"]
            out.append("# C-Box %d (unit cbox, instance %d): block at 0x%X." % (n, n, CBOX_BASE[n]))
        out.append("[register %s]" % name)
        for key in ("address", "kind", "index", "width", "writable", "ignored", "readonly", "layout", "unit",
                    "instance"):
            if key in r:
                out.append("%s = %s" % (key, fmt_val(key, r[key])))
        out.append("")
    return "\n".join(out)


def events_text(events):
    out = ["# Events: the Xeon 7500 C-Box rows of likwid's table (codes and unit-mask",
           "# values), every one on all six counters.  likwid names no default unit",
           "# mask, and no other source does: an event with unit masks needs one named",
           "# (no default; several may be combined, their values OR-ed), an event",
           "# without unit masks has none.",
           ""]
    for name, ev in events.items():
        if name == "ARB_WINS":
            out.append("# FLAG: likwid gives ARB_WINS the code 0x0A of ARB_LOSSES (0x09 is unused\n"
                       "# in its list); not verified against the Guide.  Kept as likwid has it and\n"
                       "# marked dup so the lint accepts the repeated encodings.")
        out.append("[event %s]" % name)
        out.append("code = 0x%02x" % ev["code"])
        out.append("counters = 0x3f")
        if name == "ARB_WINS":
            out.append("flags = dup")
        if ev["maxinc"]:
            out.append("# at most %s per cycle (Guide p.2-27)" % "/".join(sorted(ev["maxinc"])))
        out.append("desc = %s" % EVENT_DESC[name])
        if ev["umasks"]:
            out.append("group = required")
            for uname, val, notes in ev["umasks"]:
                if name == "LLC_VICTIMS" and uname == "ALL":
                    out.append("# ALL = 0x1F in likwid's NHM-EX table (FILL_WITHOUT_VICTIMS included);\n"
                               "# its WSM-EX table has 0x0F.")
                if name == "STARVED_EGRESS" and uname == "C2P_AD_SB":
                    out.append("# the Guide (p.2-27) names unit mask 0x02 C2S_AD_SB; likwid C2P_AD_SB.")
                if name == "BOUNCES_P2C_AD" and uname == "SB":
                    out.append("# likwid's WSM-EX table calls code 0x01 BOUNCES_C2P_AD.")
                out.append("umask.%s = 0x%02x" % (uname, val))
        out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reference", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"),
                    help="the reference folder (default: scripts/data, the committed copy)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
    args = ap.parse_args()
    events = load_events(args.reference)
    missing = set(events) - set(EVENT_DESC)
    if missing:
        sys.exit("no description for %s" % ", ".join(sorted(missing)))
    regs = registers()
    check_addresses(regs, load_msr_map(args.reference))
    body = register_text(regs) + "\n" + MODIFIERS + "\n" + PERF + "\n" + events_text(events)
    n_um = sum(len(e["umasks"]) for e in events.values())
    with open(os.path.join(args.out, "nhmex.pmu"), "w") as f:
        f.write(HEADER.format(last=N_CBOX - 1) + "\n" + body)
    print("nhmex.pmu: %d PMUs (nhmex_cbox0..%d), %d registers, %d events, %d unit masks" % (
        N_CBOX, N_CBOX - 1, len(regs), len(events), n_um))


if __name__ == "__main__":
    main()
