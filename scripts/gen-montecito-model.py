#!/usr/bin/env python3
"""Generate models/montecito.pmu (format: docs/model-format.md, "Itanium").

Inputs (read only here; the output is committed so the project never needs them):
  * reference/montecito/events.tsv: the 637 events of libpfm's Montecito
    table (libpfm4 commit 91970fe, lib/events/montecito_events.h, decoded with
    pfmlib_montecito_priv.h), one per line, in libpfm's index order: code,
    umask, maximum increment per cycle, allowed counters, L1D/L2D group and
    set, type, opcode/code-range/data-range qualifier support, MESI qualifier
    support, EAR kind and mode, ETB, alias.
  * Register facts (numbers, layouts, reset values, writable and ignored bits)
    are written below from reference/montecito/registers.md, whose sources
    are libpfm-3.y's pfmlib_montecito.h, the Linux perfmon_montecito.h tables
    and the Itanium architecture manual.  Facts that file marks UNCONFIRMED
    are flagged where they land, in the generated file's comments.

The cache set is the `set` column (the table generator's layout: bits 23:20
of the qualifier word), not libpfm's own decoding (`libpfm_set_field`, which
doubles it and folds L2D set 8 onto set 0); see the README of the reference.

Nothing is left out: every row of the table becomes one event.  Events carry
no descriptions (the table has none); registers carry a few words of our own.

usage: scripts/gen-montecito-model.py [--reference DIR] [--out DIR]
(defaults: scripts/data, models/; of the reference/X files named above, the
tables it reads are committed as scripts/data/X: scripts/data/README.md;
scripts/regenerate runs every generator)
"""
import argparse
import collections
import csv
import os
import sys

EXPECT = {
    "events": 637,
    "group": {"L1D": 30, "L2D": 62, "none": 545},
    "type": {"active": 284, "floating": 186, "self-floating": 99, "causal": 68},
    "opcm": 212, "iarr": 322, "darr": 139, "mesi": 23,
    "ear": {("I-EAR", "tlb"): 7, ("I-EAR", "cache"): 10, ("D-EAR", "tlb"): 7,
            ("D-EAR", "cache"): 11, ("D-EAR", "alat"): 1},
    "etb": 2,
}

COUNTER_FIELDS = [
    ("plm0", "0"), ("plm1", "1"), ("plm2", "2"), ("plm3", "3"), ("ev", "4"), ("oi", "5"), ("pm", "6"),
    ("es", "15:8"), ("umask", "19:16"), ("thres", "22:20"), ("ism", "25:24"), ("all", "26"),
    ("mesi_i", "27"), ("mesi_s", "28"), ("mesi_e", "29"), ("mesi_m", "30"),
]

# (name, fields)
LAYOUTS = [
    ("pmc0", [("fr", "0"), ("ovfl", "15:4")]),
    ("pmc_counter", COUNTER_FIELDS),
    ("opcm_mask_range", [("mask", "40:0"), ("b", "48"), ("f", "49"), ("i", "50"), ("m", "51"),
                         ("inv", "56"), ("ig_ad", "57")]),
    ("opcm_mask", [("mask", "40:0"), ("b", "48"), ("f", "49"), ("i", "50"), ("m", "51")]),
    ("opcm_match", [("match", "40:0")]),
    ("opcm_channels", [("ch0_ig_opcm", "0"), ("ch1_ig_opcm", "1"), ("ch2_ig_opcm", "2"), ("ch3_ig_opcm", "3")]),
    ("iear_cfg", [("plm", "3:0"), ("pm", "4"), ("umask", "12:5"), ("ct", "13")]),
    ("ibrp_cfg", [("ig_ibrp0", "1"), ("ig_ibrp1", "4"), ("ig_ibrp2", "7"), ("ig_ibrp3", "10"), ("fine", "13")]),
    ("etb_cfg", [("plm", "3:0"), ("pm", "6"), ("ds", "7"), ("tm", "9:8"), ("ptm", "11:10"), ("ppm", "13:12"),
                 ("brt", "15:14")]),
    ("dear_cfg", [("plm", "3:0"), ("pm", "6"), ("mode", "8:7"), ("umask", "19:16"), ("ism", "25:24")]),
    ("dbrp_cfg", [("cfg_dtag0", "4:3"), ("cfg_dtag1", "12:11"), ("cfg_dtag2", "20:19"), ("cfg_dtag3", "28:27"),
                  ("ena_dbrp0", "45"), ("ena_dbrp1", "46"), ("ena_dbrp2", "47"), ("ena_dbrp3", "48")]),
    ("ipear_cfg", [("plm", "3:0"), ("pm", "6"), ("mode", "10:8"), ("delay", "18:11")]),
    ("dear_addr", [("daddr", "63:0")]),
    ("dear_lat", [("latency", "12:0"), ("ov", "13"), ("stat", "15:14")]),
    ("iear_addr", [("stat", "1:0"), ("iaddr", "63:5")]),
    ("iear_lat", [("latency", "11:0"), ("ov", "12")]),
    ("dear_iaddr", [("slot", "1:0"), ("bn", "2"), ("vl", "3"), ("iaddr", "63:4")]),
    ("etb_index", [("ebi", "3:0"), ("full", "5")]),
    # PMD39: 4 extension bits per ETB entry, interleaved PMD48, 56, 49, 57, ...
    ("etb_ext", [("pmd%d" % (48 + (k // 2) + 8 * (k % 2)), "%d:%d" % (4 * k + 3, 4 * k)) for k in range(16)]),
    ("etb_entry", [("s", "0"), ("mp", "1"), ("slot", "3:2"), ("addr", "63:4")]),
    ("br_addr", [("addr", "63:0")]),
    ("ibr_mask", [("mask", "55:0"), ("plm", "59:56"), ("x", "63")]),
    ("dbr_mask", [("mask", "55:0"), ("plm", "59:56"), ("w", "62"), ("r", "63")]),
]

ALL = (1 << 64) - 1


# The IBR pair of an event's code range (range-restriction.md §6, libpfm's
# dispatch matching by name/code): instruction prefetches go through IBRP1,
# the "dual" fetch events through IBRP0 (demand) and IBRP1 (prefetch); the
# CPU_OP_CYCLES events (code 0x12) cannot be measured while IBRP1 is used.
CODE_RANGE = {
    "L1I_PREFETCHES": "prefetch", "L1I_STRM_PREFETCHES": "prefetch", "L2I_PREFETCHES": "prefetch",
    "ISB_BUNPAIRS_IN": "dual", "L1I_FETCH_RAB_HIT": "dual", "L1I_FETCH_ISB_HIT": "dual", "L1I_FILLS": "dual",
}

def reg(name, space, number, kind, layout=None, writable=None, ignored=0, reset=0, width=None, note=None):
    return dict(name=name, space=space, number=number, kind=kind, layout=layout, writable=writable,
                ignored=ignored, reset=reset, width=width, note=note)


def registers():
    r = []
    r.append(reg("PMC0", "pmc", 0, "ia64_pmc", "pmc0", writable=0xfff1, ignored=ALL & ~0xfff1, note=[
        "fr (bit 0) freezes every counter; bits 15:4 are the overflow bits of PMD4..PMD15",
        "(counter i -> bit i).  Bits 3:1 are ignored; overflow bits of counters that do not",
        "exist (63:16) read 0 and ignore writes [registers.md 1].  Reset value: not given",
        "by the sources, 0 here (UNCONFIRMED)."]))
    for n in (1, 2, 3):
        r.append(reg("PMC%d" % n, "pmc", n, "ia64_pmc", None, writable=0, ignored=ALL, note=[
            "Overflow bits of counters 64.. (none exist on Montecito): read 0, writes ignored."] if n == 1 else None))
    for n in range(4, 16):
        r.append(reg("PMC%d" % n, "pmc", n, "ia64_pmc", "pmc_counter", writable=0x7f7fff7f, ignored=0x00800080,
                     reset=0x2000000, note=[
            "Counter configuration of PMD%d [registers.md 3].  Writable: the hardware fields," % n,
            "bits 0-6, 8-22, 24-30; the kernel lets users write 0x7c7fff7f only and forces",
            "ism (25:24) back to 10b (IA-64 only): the encoder must write ism = 2.",
            "Bit 7 and bit 23 are ignored; bit 23's meaning on Montecito is UNCONFIRMED",
            "(the power enable on Itanium 2).  Reset 0x2000000 is the kernel's default",
            "(hardware reset UNCONFIRMED).  MESI bits 27-30: only events with mesi = true;",
            "libpfm's comment that bits 26-27 must be 0 contradicts bit 27 = I (UNCONFIRMED).",
            "all (26): libpfm refuses it; whether it works on PMC8-15 is undocumented",
            "(semantics.md A24)."] if n == 4 else None))
    r.append(reg("PMC32", "pmc", 32, "ia64_pmc", "opcm_mask_range", writable=0x030f01ffffffffff,
                 ignored=0xfcf0fe0000000000, reset=0x030f01ffffffffff, note=[
        "Opcode matcher 1, mask and slots (a 1 mask bit ignores that opcode bit) with the",
        "code-range inv (56) and ig_ad (57) bits [registers.md 4].  Reset = the kernel default."]))
    r.append(reg("PMC33", "pmc", 33, "ia64_pmc", "opcm_match", writable=0x1ffffffffff, ignored=ALL & ~0x1ffffffffff,
                 note=["Opcode matcher 1, match value."]))
    r.append(reg("PMC34", "pmc", 34, "ia64_pmc", "opcm_mask", writable=0x000f01ffffffffff,
                 ignored=0xfff0fe0000000000, reset=0x000f01ffffffffff, note=[
        "Opcode matcher 2, mask and slots.  Bits 56/57 are not in the kernel's write mask;",
        "whether they exist is UNCONFIRMED: the model ignores them."]))
    r.append(reg("PMC35", "pmc", 35, "ia64_pmc", "opcm_match", writable=0x1ffffffffff, ignored=ALL & ~0x1ffffffffff,
                 note=["Opcode matcher 2, match value."]))
    r.append(reg("PMC36", "pmc", 36, "ia64_pmc", "opcm_channels", writable=0xffffffff, ignored=0xffffffff00000000,
                 reset=0xfffffff0, note=[
        "chN_ig_opcm (bit N): channel N ignores the opcode matcher.  Bits 31:4 are reserved",
        "and reset to ones, which software must keep (the kernel writes only bits 3:0 and",
        "restores the rest): the model lets them be written; what other values do is",
        "UNCONFIRMED.  Bits 63:32 are ignored [registers.md 5]."]))
    r.append(reg("PMC37", "pmc", 37, "ia64_pmc", "iear_cfg", writable=0x3fff, note=[
        "I-EAR configuration [registers.md 6]: ct (13) = 1 cache mode, umask 12:5 (8 bits);",
        "ct = 0 TLB mode, umask 11:5 (7 bits) with bit 12 = 0 (bits 13:12 = 01 monitor nothing).",
        "I-EAR events' unit mask goes to its umask field (extra = PMC37)."]))
    r.append(reg("PMC38", "pmc", 38, "ia64_pmc", "ibrp_cfg", writable=0x2db6, reset=0xdb6, note=[
        "Code-range (IBR pair) configuration [registers.md 8].  Reserved bits 2, 5, 8, 11",
        "reset to 1 and must be kept (writable here so they can be); their meaning is",
        "UNCONFIRMED (the kernel reads bits 2:1 and 5:4 as 2-bit fields)."]))
    r.append(reg("PMC39", "pmc", 39, "ia64_pmc", "etb_cfg", writable=0xffcf, note=[
        "ETB configuration [registers.md 9].  ds must be 0.  brt values are UNCONFIRMED:",
        "the code reading (0 = all branches, 1 IP-relative, 2 return, 3 non-return",
        "indirect) is kept; the man page reads 0 as none."]))
    r.append(reg("PMC40", "pmc", 40, "ia64_pmc", "dear_cfg", writable=0x30f01cf, ignored=0xf0fe30, reset=0x2000000,
                 note=[
        "D-EAR configuration [registers.md 7]: mode 0 cache, 1 TLB, 2 ALAT.  ism (25:24)",
        "must be 2; the kernel forces it (write mask 0xf01cf), the model lets it be written.",
        "D-EAR events' unit mask goes to its umask field (extra = PMC40)."]))
    r.append(reg("PMC41", "pmc", 41, "ia64_pmc", "dbrp_cfg", writable=0x1e078fefefefe, reset=0x2078fefefefe, note=[
        "Data-range (DBR pair) configuration [registers.md 10].  Reserved bits reset to",
        "non-zero values that must be kept (writable here so they can be).  The cfg_dtag",
        "encoding (libpfm's iod_tab) is UNCONFIRMED against Intel."]))
    r.append(reg("PMC42", "pmc", 42, "ia64_pmc", "ipear_cfg", writable=0x7ff4f, ignored=0xb0, note=[
        "IP-EAR configuration [registers.md 11]; mode 4 is what libpfm writes, other modes",
        "are UNCONFIRMED.  Cannot be used with the ETB."]))
    for n in range(4, 16):
        # width, writable and ignored bits: the loader's, from [pmu] gp_width
        r.append(reg("PMD%d" % n, "pmd", n, "ia64_pmd", None, writable=None, ignored=0, note=[
            "Counters: gp_width (47) bits, overflow = carry out of the top bit [registers.md 2].",
            "Writes to the bits above are ignored; reads copy the top bit there (libpfm's layout;",
            "UNCONFIRMED for Montecito: [options] pmd_read_upper)."] if n == 4 else None))
    data = [(32, "dear_addr", "D-EAR data address"), (33, "dear_lat", "D-EAR latency and status"),
            (34, "iear_addr", "I-EAR instruction cache-line address"), (35, "iear_lat", "I-EAR latency"),
            (36, "dear_iaddr", "D-EAR instruction address")]
    for n, layout, what in data:
        r.append(reg("PMD%d" % n, "pmd", n, "ia64_pmd", layout, writable=ALL, note=[
            what + ((".  PMD37 does not exist (the kernel's table; libpfm lists it:"
                     " UNCONFIRMED, left out)") if n == 36 else "") + "."]))
    r.append(reg("PMD38", "pmd", 38, "ia64_pmd", "etb_index", writable=ALL, note=["ETB index and full bit."]))
    r.append(reg("PMD39", "pmd", 39, "ia64_pmd", "etb_ext", writable=ALL, note=[
        "ETB/IP-EAR extension bits, 4 per entry, interleaved PMD48, 56, 49, 57, ..."]))
    for n in range(48, 64):
        r.append(reg("PMD%d" % n, "pmd", n, "ia64_pmd", "etb_entry", writable=ALL, note=[
            "ETB entries (branch mode layout; in IP-EAR mode they hold IPs and cycle counts).",
            "Whether software writes to the data registers persist is UNCONFIRMED."] if n == 48 else None))
    for space in ("ibr", "dbr"):
        for n in range(8):
            if n % 2 == 0:
                layout, writable, ignored = "br_addr", ALL, 0
            elif space == "ibr":
                layout, writable, ignored = "ibr_mask", 0x8fffffffffffffff, 0x7000000000000000
            else:
                layout, writable, ignored = "dbr_mask", 0xcfffffffffffffff, 0x3000000000000000
            note = None
            if n == 0:
                note = ["%s pairs: even = address, odd = mask (1 = compare), plm, %s [registers.md 12]." %
                        (space.upper(), "x" if space == "ibr" else "w, r"),
                        "Address bits 63:56 have no mask bit and are always compared."]
            r.append(reg("%s%d" % (space.upper(), n), space, n, "ia64_" + space, layout, writable=writable,
                         ignored=ignored, note=note))
    return r


MODIFIERS = [
    ("k", "bool", None, "plm0", "count at privilege level 0 (kernel)"),
    ("u", "bool", None, "plm3", "count at privilege level 3 (user)"),
    ("thres", "int", "0:7", "thres", "add 1 only in cycles with more than N occurrences (N < the event's max_inc)"),
    ("oi", "bool", None, "oi", "overflow interrupt: freeze and interrupt on overflow"),
    ("mesi_i", "bool", None, "mesi_i", "MESI qualifier: lines in state Invalid"),
    ("mesi_s", "bool", None, "mesi_s", "MESI qualifier: lines in state Shared"),
    ("mesi_e", "bool", None, "mesi_e", "MESI qualifier: lines in state Exclusive"),
    ("mesi_m", "bool", None, "mesi_m", "MESI qualifier: lines in state Modified"),
]
PLAIN_MODIFIERS = "k u thres oi"

# Events whose code and umask repeat an earlier event's (flags = dup), and why.
DUP_NOTES = {
    "IA64_TAGGED_INST_RETIRED_IBRP0_PMC32_33":
        "encodes like %s: the tagging lies in PMC32/PMC38, not in the counter",
    "L2D_OZQ_FULL_THIS":
        "same code and umask as %s (causal, PMC4-9) in libpfm's table; which is right is UNCONFIRMED",
}

TYPES = {"active": "active", "floating": "floating", "causal": "causal", "self-floating": "self_floating"}
EARS = {"I-EAR": ("iear", "PMC37"), "D-EAR": ("dear", "PMC40")}


def yes(v, where):
    if v not in ("yes", "no"):
        sys.exit("%s: expected yes or no, got %r" % (where, v))
    return v == "yes"


def read_tsv(path):
    events = []
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for i, row in enumerate(rows):
        where = "%s:%d" % (path, i + 2)
        if int(row["index"]) != i:
            sys.exit("%s: index %s out of order" % (where, row["index"]))
        code, umask = int(row["event_code"], 16), int(row["umask"], 16)
        raw = int(row["raw_code_word"], 16)
        if raw & 0xff != code or (raw >> 16) & 0xffff != umask:
            sys.exit("%s: raw code word 0x%x disagrees with code 0x%x umask 0x%x" % (where, raw, code, umask))
        if row["all_thrd_flag"] != "no":
            sys.exit("%s: an event with the .all flag: the model has no key for it" % where)
        group, cset = row["group"], row["set"]
        if (group == "none") != (cset == "none"):
            sys.exit("%s: group %s with set %s" % (where, group, cset))
        ear, mode = row["ear"], row["ear_mode"]
        if (ear == "none") != (mode == "none"):
            sys.exit("%s: ear %s with mode %s" % (where, ear, mode))
        events.append(dict(
            line=i + 2, name=row["name"], code=code, umask=umask, max_inc=int(row["max_incr"]),
            counters=int(row["counters_mask"], 16), group=group, set=None if cset == "none" else int(cset),
            type=TYPES[row["type"]], opcm=yes(row["opcm"], where), iarr=yes(row["iarr"], where),
            darr=yes(row["darr"], where), mesi=yes(row["mesi_umask"], where), ear=ear, mode=mode,
            etb=yes(row["etb"], where), alias=row["alias_of"] or None))
    return events


def check_totals(events):
    got = {
        "events": len(events),
        "group": dict(collections.Counter(e["group"] for e in events)),
        "type": dict(collections.Counter({v: k for k, v in TYPES.items()}[e["type"]] for e in events)),
        "opcm": sum(e["opcm"] for e in events), "iarr": sum(e["iarr"] for e in events),
        "darr": sum(e["darr"] for e in events), "mesi": sum(e["mesi"] for e in events),
        "ear": dict(collections.Counter((e["ear"], e["mode"]) for e in events if e["ear"] != "none")),
        "etb": sum(e["etb"] for e in events),
    }
    for k, v in EXPECT.items():
        if got[k] != v:
            sys.exit("totals: %s is %r, the reference README says %r" % (k, got[k], v))


def emit(events):
    out = []
    w = out.append
    w("# montecito.pmu — generated by scripts/gen-montecito-model.py: the built-in model changes in the generator.")
    w("# A what-if variant: copy this file (installed in share/pmusim/models/), edit it, pass it with --model FILE.")
    w("# Format: docs/model-format.md (\"Itanium events\").  Events: libpfm's Montecito table")
    w("# (reference/montecito/events.tsv, libpfm's index order); registers: reference/montecito/registers.md.")
    w("# Facts marked UNCONFIRMED there are flagged below where they land.")
    w("")
    w("[pmu]")
    w("name = montecito")
    w("desc = Intel Itanium 2 9000 (Montecito) PMU: 12 counters PMC4-15/PMD4-15, EARs, ETB, opcode and range qualifiers")
    w("arch = ia64")
    w("# Two hardware threads per core (the counting PMC's all bit); no t modifier.")
    w("smt = true")
    w("# Counter i is PMC i / PMD i: an event's counters mask is over PMC numbers (0xfff0 = PMC4-15).")
    w("gp_counters = 12")
    w("counter_base = 4")
    w("gp_width = 47")
    w("fixed_counters = 0")
    w("")
    w("[options]")
    w("# What-if switches for the simulator's Itanium device (UNCONFIRMED facts, registers.md 1-3).")
    w("# sign_extend | zero: what reads of PMD4-15 return in bits 63:47 (libpfm: copies of bit 46)")
    w("pmd_read_upper = sign_extend")
    w("# wrap | status: a counter overflowing with oi = 0 (manual: status bit only with oi = 1)")
    w("overflow_without_oi = wrap")
    w("# gt | ge: thres = n adds 1 in cycles with more than n occurrences (man page wording)")
    w("thres_compare = gt")
    w("# own | both: the all bit on PMC8-15 (undocumented; semantics.md A24)")
    w("all_on_pmc8_15 = own")
    w("# iod | active: PMC41 cfg_dtag values under which a DBR pair constrains (UNCONFIRMED, registers.md 10):")
    w("# iod = 0 and 2 (libpfm iod_tab: the data tag), active = 0, 1 and 2 (Linux: cfg_dtag != 3)")
    w("pmc41_dtag = iod")
    w("# none | all: a MESI event's counter with bits 27-30 all clear counts no state or every state")
    w("# (UNCONFIRMED, registers.md 3: libpfm sets all four to capture everything)")
    w("mesi_zero = none")
    w("# last | first: an EAR keeps the last qualifying event, or holds its capture until software")
    w("# clears the valid bits (PMD36.vl, PMD34.stat) (UNCONFIRMED, registers.md 6-7)")
    w("ear_capture = last")
    w("# code | man: PMC39.brt = 0 records every branch (libpfm code) or none (man page) (UNCONFIRMED, registers.md 9)")
    w("etb_brt = code")
    w("# mask | enable: PMC4-15 ism (bits 25:24; only 10b = IA-64 only is documented, registers.md 3):")
    w("# mask = bit 24 masks IA-64 and bit 25 IA-32 (00 both, 11 none), enable = bit 25 enables IA-64")
    w("# and bit 24 IA-32 (00 none, 11 both); 01 = IA-32 only under both (UNCONFIRMED)")
    w("ism_bits = mask")
    w("")
    w("# No perf syntax: Linux's perf_events never had an Itanium PMU driver.")
    w("[perf]")
    w("none = perf_events has no Itanium PMU; perfmon programs the registers below")
    w("tool = perfmon")
    w("")
    for name, fields in LAYOUTS:
        w("[layout %s]" % name)
        for f, bits in fields:
            w("%s = %s" % (f, bits))
        w("")
    regs = registers()
    for r in regs:
        if r["note"]:
            for line in r["note"]:
                w("# " + line)
        w("[register %s]" % r["name"])
        w("space = %s" % r["space"])
        w("address = %d" % r["number"])
        w("kind = %s" % r["kind"])
        w("index = %d" % r["number"])
        if r["width"]:
            w("width = %d" % r["width"])
        if r["layout"]:
            w("layout = %s" % r["layout"])
        if r["writable"] is not None and r["writable"] != ALL:
            w("writable = 0x%x" % r["writable"])
        if r["ignored"]:
            w("ignored = 0x%x" % r["ignored"])
        if r["reset"]:
            w("reset = 0x%x" % r["reset"])
        w("")
    w("# Modifiers, in the order a canonical string prints them.  PLM1/PLM2 have no modifier:")
    w("# they come from the default privilege mask.  pm, ev, ism and all are the encoder's to set")
    w("# (libpfm: pm for system-wide sessions, ism = 2, all refused).  The MESI qualifiers exist")
    w("# only on events with mesi = true; naming none of them means all four (libpfm).")
    for name, typ, rng, field, desc in MODIFIERS:
        w("[modifier %s]" % name)
        w("type = %s" % typ)
        if rng:
            w("range = %s" % rng)
        w("register = ia64_pmc")
        w("field = %s" % field)
        w("desc = %s" % desc)
        w("")
    w("# Events: code = ES (PMC bits 15:8); base_umask = libpfm's umask (PMC bits 19:16, or for EAR")
    w("# events the umask field of the EAR configuration register named by extra, the counter's")
    w("# umask being 0).  cache_set is the table generator's set number; libpfm's decoder doubles")
    w("# it, which folds L2D set 8 onto set 0 (UNCONFIRMED against Intel).")
    seen = {}
    for e in events:
        w("[event %s]" % e["name"])
        w("code = 0x%02x" % e["code"])
        if e["umask"]:
            w("base_umask = 0x%x" % e["umask"])
        w("counters = 0x%x" % e["counters"])
        w("max_inc = %d" % e["max_inc"])
        w("type = %s" % e["type"])
        quals = [q for q in ("opcm", "iarr", "darr") if e[q]]
        if quals:
            w("qualifiers = %s" % " ".join(quals))
        if e["group"] != "none":
            w("cache_group = %s" % e["group"].lower())
            w("cache_set = %d" % e["set"])
        if e["ear"] != "none":
            kind, cfg = EARS[e["ear"]]
            w("ear = %s" % kind)
            w("ear_mode = %s" % e["mode"])
            w("extra = %s" % cfg)
        if e["etb"]:
            w("etb = true")
        if e["name"] in CODE_RANGE or e["code"] == 0x12:
            w("code_range = %s" % CODE_RANGE.get(e["name"], "not_ibrp1"))
        if e["mesi"]:
            w("mesi = true")
        else:
            w("modifiers = %s" % PLAIN_MODIFIERS)
        key = (e["code"], e["umask"], e["ear"], e["mode"])
        if e["alias"]:
            w("equiv = %s" % e["alias"])
        elif key in seen:
            if e["name"] not in DUP_NOTES:
                sys.exit("%s repeats the encoding of %s: explain it in DUP_NOTES" % (e["name"], seen[key]))
            w("# " + DUP_NOTES.get(e["name"], "encodes like %s") % seen[key])
            w("flags = dup")
        else:
            seen[key] = e["name"]
        w("")
    return "\n".join(out).rstrip("\n") + "\n", regs


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reference", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"),
                    help="the reference folder (default: scripts/data, the committed copy)")
    ap.add_argument("--out", default=os.path.join(here, "..", "models"))
    a = ap.parse_args()
    events = read_tsv(os.path.join(a.reference, "montecito", "events.tsv"))
    check_totals(events)
    names = {e["name"] for e in events}
    for e in events:
        if e["alias"] and e["alias"] not in names:
            sys.exit("%s: alias of unknown event %s" % (e["name"], e["alias"]))
    text, regs = emit(events)
    path = os.path.join(a.out, "montecito.pmu")
    with open(path, "w") as f:
        f.write(text)
    spaces = collections.Counter(r["space"] for r in regs)
    print("%s: %d events, %d with a unit mask; registers %s" % (
        path, len(events), sum(1 for e in events if e["umask"]),
        ", ".join("%s %d" % (s, spaces[s]) for s in ("pmc", "pmd", "ibr", "dbr"))))


if __name__ == "__main__":
    main()
