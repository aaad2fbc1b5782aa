#!/usr/bin/env python3
"""gen-uncore-vectors.py — write the golden encoding vectors of the uncore PMUs,
vectors/{nhm_unc,wsm_unc}/{events,umasks,modifiers,invalid}.enc.

Where each piece comes from (docs/vectors-format.md, "Provenance"):

* Event and unit-mask NAMES, which unit masks are defaults, which refuse a
  combination (NCOMBO) and the one-group rule of UNC_QMC_WRITES come from
  libpfm4 4.13 (reference/uncore/<pmu>-events.tsv), because the project
  accepts libpfm4's strings unchanged.
* EXPECTED VALUES come from the SDM: the event code and umask of each name
  from Vol. 3B Table 19-18 (Nehalem uncore) / 19-20 (Westmere uncore), and the
  MSR_UNCORE_PERFEVTSELx layout of Fig. 18-28 (event 7:0, umask 15:8,
  OCC_CTR_RST 17, E 18, INT 20, EN 22, INV 23, CMASK 31:24) with EN and INT
  set as every libpfm4-compatible encoder returns them.  The SDM tables were
  compared pair by pair with libpfm4's (reference/uncore/nhm_unc.md, "Cross-
  checks done"): every (code, umask) pair of libpfm4 is in the SDM table except
  the ones in SDM_DIFFERS below, where the vector takes the SDM's value (and
  libpfm4 4.13 fails it, docs/libpfm4-differences.md), and UNC_CLK_UNHALTED,
  the fixed counter's event, which no table lists (its vector is derived from
  the fixed counter having no event select; see its src).  A name the SDM does
  not have would get no vector; there is none.
* ERROR CLASSES: the class libpfm4 4.13 returns for that kind of mistake on
  these PMUs (learnt by running it on sample strings: a c value beyond 255 is
  PFM_ERR_INVAL here, not the core PMUs' PFM_ERR_ATTR_VAL).
* No vector value is taken from libpfm4 or from pmusim's encoder.

The output is committed; the build never runs this script.  It also puts the
files in vectors/vectors.gresource.xml (scripts/gen-vectors.py keeps them).

usage: scripts/gen-uncore-vectors.py [--reference DIR] [--out DIR]
(defaults: scripts/data, vectors/; of the reference/X files named above, the
tables it reads are committed as scripts/data/X: scripts/data/README.md;
scripts/regenerate runs every generator)
"""
import argparse
import collections
import csv
import glob
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("gen_vectors", os.path.join(HERE, "gen-vectors.py"))
gv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gv)

PMUS = {"nhm_unc": "Table 19-18", "wsm_unc": "Table 19-20"}
# pairs of libpfm4 the SDM tables confirm (nhm_unc.md: "174 of 176", "195 of 201")
CONFIRMED = {"nhm_unc": 174, "wsm_unc": 195}
# where the SDM's umask differs from libpfm4's (nhm_unc.md): event -> SDM umask
SDM_DIFFERS = {
    "nhm_unc": {"UNC_QHL_TO_QMC_BYPASS": 0x01},
    "wsm_unc": {"UNC_QHL_TO_QMC_BYPASS": 0x01, "UNC_DRAM_THERMAL_THROTTLED": 0x01,
                "UNC_PROCHOT_ASSERTION": 0x01, "UNC_CYCLES_UNHALTED_L3_FLL_ENABLE": 0x02,
                "UNC_CYCLES_UNHALTED_L3_FLL_DISABLE": 0x01},
}
FIXED_EVENT = "UNC_CLK_UNHALTED"
# Pairs read directly off the SDM (Vol. 3B pp. 19-74 and 19-78, two pages of
# Table 19-18, in the xem/minix86 mirror of the SDM) as a spot check of the
# cross-check: each must be a pair of libpfm4's table; p. 19-78 also lists
# UNC_QHL_TO_QMC_BYPASS as 26H/01H, the SDM_DIFFERS entry.  (The SDM's mnemonics
# differ from libpfm4's names in places, e.g. UNC_GQ_ALLOC.RT_L3_MISS for
# libpfm4's RT_LLC_MISS: pairs are matched by code and umask.)
SDM_READ = {
    "nhm_unc": [(0x00, 0x01), (0x00, 0x02), (0x00, 0x04), (0x01, 0x01), (0x01, 0x02), (0x01, 0x04),
                (0x03, 0x01), (0x03, 0x02), (0x03, 0x04), (0x03, 0x08), (0x03, 0x10), (0x03, 0x20),
                (0x24, 0x02), (0x24, 0x04), (0x25, 0x01), (0x25, 0x02), (0x25, 0x04),
                (0x27, 0x01), (0x27, 0x02), (0x27, 0x04), (0x27, 0x08), (0x27, 0x10), (0x27, 0x20),
                (0x28, 0x01), (0x28, 0x02)],
    "wsm_unc": [],
}

# ---- MSR_UNCORE_PERFEVTSELx (SDM Vol. 3B Fig. 18-28) ----
OCC, EDGE, INT, EN, INV, CMASK = 17, 18, 20, 22, 23, 24
LAYOUT = "sdm:Fig 18-28 uncore evtsel layout (EN|INT set)"
MODS = ["e", "i", "c", "o"]          # libpfm4's fstr order
BIT = {"e": EDGE, "i": INV, "o": OCC}

NF = "class: libpfm4 convention (unknown PMU or event -> PFM_ERR_NOTFOUND)"
AT = "class: libpfm4 convention (unknown unit mask or modifier -> PFM_ERR_ATTR)"
AV = "class: libpfm4 convention (malformed or missing value -> PFM_ERR_ATTR_VAL)"
IV = "class: libpfm4 convention (malformed string -> PFM_ERR_INVAL)"
FC = "class: libpfm4 convention (unit masks that cannot be combined -> PFM_ERR_FEATCOMB)"
UM = "class: libpfm4 convention (no unit mask where one is required -> PFM_ERR_UMASK)"
RG = "doc:libpfm_intel_nhm_unc.3 c range [0:255]; class: libpfm4 4.13 uncore convention (out of range -> PFM_ERR_INVAL)"


def evtsel(code, umask, e=0, i=0, c=0, o=0):
    return (code & 0xFF) | (umask & 0xFF) << 8 | o << OCC | e << EDGE | 1 << INT | 1 << EN | \
        i << INV | (c & 0xFF) << CMASK


def read_tsv(path, pmu):
    events = collections.OrderedDict()
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["pmu"] != pmu:
                continue
            ev = events.setdefault(row["event"], {
                "name": row["event"], "code": int(row["event_code"], 16),
                "fixed": "FIXED" in row["event_flags"], "grp_excl": "GRP_EXCL" in row["event_flags"],
                "mods": row["modifiers"] != "none", "umasks": []})
            if row["umask"] != "-":
                ev["umasks"].append({"name": row["umask"], "value": int(row["umask_value"], 16),
                                     "group": int(row["umask_group"]),
                                     "ncombo": "NCOMBO" in row["umask_flags"],
                                     "dfl": "DFL" in row["umask_flags"]})
    return events


class Gen:
    def __init__(self, pmu, events):
        self.pmu, self.events, self.table = pmu, events, PMUS[pmu]
        self.files = {t: [] for t in ("events", "umasks", "modifiers", "invalid")}
        self.confirmed = 0
        for ev in events.values():
            if ev["fixed"]:
                continue
            if ev["umasks"]:
                self.confirmed += len(ev["umasks"])
            elif ev["name"] not in SDM_DIFFERS[pmu]:
                self.confirmed += 1
        pairs = set((ev["code"], u["value"]) for ev in events.values() for u in ev["umasks"])
        for pair in SDM_READ[pmu]:
            if pair not in pairs:
                sys.exit("%s: SDM pair %02XH/%02XH is not in libpfm4's table" % ((pmu,) + pair))
        if pmu == "nhm_unc" and SDM_DIFFERS[pmu].get("UNC_QHL_TO_QMC_BYPASS") != 0x01:
            sys.exit("p. 19-78: UNC_QHL_TO_QMC_BYPASS is 26H/01H")
        if self.confirmed != CONFIRMED[pmu]:
            sys.exit("%s: %d pairs confirmed by the SDM cross-check, expected %d"
                     % (pmu, self.confirmed, CONFIRMED[pmu]))

    def add(self, topic, string, ret, codes, src, fstr=None):
        self.files[topic].append(gv.vector_line(string, ret, codes, src, fstr))

    def comment(self, topic, text):
        self.files[topic].append("# " + text)

    # the SDM's (code, umask) for an event and a set of its unit masks
    def sdm(self, ev, umasks=()):
        if umasks:
            v = 0
            for u in umasks:
                v |= u["value"]
            return ev["code"], v
        return ev["code"], SDM_DIFFERS[self.pmu].get(ev["name"], 0)

    def src(self, ev, umasks=(), how=""):
        code, um = self.sdm(ev, umasks)
        parts = "/".join("%02XH" % u["value"] for u in umasks) if umasks else "%02XH" % um
        note = ""
        if not umasks and ev["name"] in SDM_DIFFERS[self.pmu]:
            note = " (libpfm4 4.13: umask 00H)"
        return "sdm:%s %s %02XH/%s%s%s + %s" % (self.table, ev["name"], code, parts, note, how, LAYOUT)

    def fstr(self, ev, umasks, mods=None):
        mods = mods or {}
        s = "%s::%s" % (self.pmu, ev["name"]) + "".join(":" + u["name"] for u in umasks)
        if ev["mods"]:
            s += "".join(":%s=%d" % (m, mods.get(m, 0)) for m in MODS)
        return s

    def defaults(self, ev):
        groups = sorted(set(u["group"] for u in ev["umasks"]))
        if ev["grp_excl"]:
            groups = groups[:1]
        return [u for u in ev["umasks"] if u["dfl"] and u["group"] in groups]

    # -- every event alone --
    def gen_events(self):
        p = self.pmu
        for ev in self.events.values():
            s = "%s::%s" % (p, ev["name"])
            if ev["fixed"]:
                self.add("events", s, "PFM_SUCCESS", [evtsel(0xFF, 0)],
                         "derived: fixed counter 0 (uncore clock) has no event select (SDM 18.8.2.1, "
                         "Fig 18-29: MSR_UNCORE_FIXED_CTR_CTRL has EN and PMI only) and no table entry; its "
                         "code is the pseudo event FFH with EN|INT (the libpfm4-compatible convention, "
                         "nhm_unc.md) and it takes no modifier", "%s::%s" % (p, ev["name"]))
                continue
            if not ev["umasks"]:
                code, um = self.sdm(ev)
                self.add("events", s, "PFM_SUCCESS", [evtsel(code, um)], self.src(ev),
                         self.fstr(ev, []))
                continue
            dfl = self.defaults(ev)
            if not dfl:
                self.add("events", s, "PFM_ERR_UMASK", None,
                         "no default unit mask (libpfm4 4.13 names); " + UM)
                continue
            code, um = self.sdm(ev, dfl)
            self.add("events", s, "PFM_SUCCESS", [evtsel(code, um)],
                     self.src(ev, dfl, " (default %s: libpfm4 4.13)" % ":".join(u["name"] for u in dfl)))

    # -- every unit mask, and the combination rules --
    def gen_umasks(self):
        p = self.pmu
        for ev in self.events.values():
            for u in ev["umasks"]:
                code, um = self.sdm(ev, [u])
                self.add("umasks", "%s::%s:%s" % (p, ev["name"], u["name"]), "PFM_SUCCESS",
                         [evtsel(code, um)], self.src(ev, [u]), self.fstr(ev, [u]))
        self.comment("umasks", "unit masks of a group OR together; NCOMBO ones stand alone; "
                     "UNC_QMC_WRITES takes unit masks of one group only")
        for ev in self.events.values():
            by_group = collections.defaultdict(list)
            for u in ev["umasks"]:
                by_group[u["group"]].append(u)
            for g, members in sorted(by_group.items()):
                plain = [u for u in members if not u["ncombo"]]
                if len(plain) >= 2:
                    pair = plain[:2]
                    code, um = self.sdm(ev, pair)
                    self.add("umasks", "%s::%s:%s:%s" % (p, ev["name"], pair[0]["name"], pair[1]["name"]),
                             "PFM_SUCCESS", [evtsel(code, um)],
                             self.src(ev, pair, "; derived: unit masks of one group OR together "
                                      "(SDM 18.8.2.2 umask qualifies the event; libpfm4 groups)"),
                             self.fstr(ev, pair))
                    if len(plain) >= 3:
                        code, um = self.sdm(ev, plain)
                        self.add("umasks", "%s::%s:%s" % (p, ev["name"], ":".join(u["name"] for u in plain)),
                                 "PFM_SUCCESS", [evtsel(code, um)],
                                 self.src(ev, plain, "; derived: OR of all combinable unit masks"),
                                 self.fstr(ev, plain))
                for u in members:
                    if not u["ncombo"]:
                        continue
                    other = next((x for x in members if x is not u), None)
                    if other is None:
                        continue
                    self.add("umasks", "%s::%s:%s:%s" % (p, ev["name"], u["name"], other["name"]),
                             "PFM_ERR_FEATCOMB", None, "%s is NCOMBO in libpfm4 4.13; %s" % (u["name"], FC))
                    self.add("umasks", "%s::%s:%s:%s" % (p, ev["name"], other["name"], u["name"]),
                             "PFM_ERR_FEATCOMB", None, "%s is NCOMBO (named second); %s" % (u["name"], FC))
            if ev["grp_excl"]:
                g0 = [u for u in ev["umasks"] if u["group"] == 0]
                g1 = [u for u in ev["umasks"] if u["group"] == 1]
                for a, b in ((g0[0], g1[0]), (g1[-1], g0[-1]), (g0[-1], g1[-1])):
                    self.add("umasks", "%s::%s:%s:%s" % (p, ev["name"], a["name"], b["name"]),
                             "PFM_ERR_FEATCOMB", None,
                             "unit masks of two groups; libpfm4 4.13 GRP_EXCL (one group only, "
                             "nhm_unc.md, libpfm4 tests/validate_x86.c); " + FC)
        # names are case-insensitive
        ev = next(e for e in self.events.values() if e["name"] == "UNC_LLC_MISS")
        anyu = next(u for u in ev["umasks"] if u["name"] == "ANY")
        code, um = self.sdm(ev, [anyu])
        self.add("umasks", "%s::unc_llc_miss:any" % p, "PFM_SUCCESS", [evtsel(code, um)],
                 self.src(ev, [anyu], "; names are case-insensitive (libpfm4 convention)"), self.fstr(ev, [anyu]))
        self.add("umasks", "%s::UNC_LLC_MISS" % p.upper(), "PFM_SUCCESS", [evtsel(code, um)],
                 self.src(ev, [anyu], "; PMU name case-insensitive (libpfm4 convention)"))

    # -- modifiers --
    def gen_modifiers(self):
        p = self.pmu
        ev = next(e for e in self.events.values() if e["name"] == "UNC_LLC_MISS")
        anyu = next(u for u in ev["umasks"] if u["name"] == "ANY")
        code, um = self.sdm(ev, [anyu])
        base = "%s::UNC_LLC_MISS:ANY" % p
        ms = "sdm:Fig 18-28 E 18, INV 23, CMASK 31:24, OCC_CTR_RST 17"

        def ok(suffix, mods, why):
            self.add("modifiers", base + suffix, "PFM_SUCCESS",
                     [evtsel(code, um, **{k: v for k, v in mods.items()})],
                     "%s + %s; %s" % (self.src(ev, [anyu]), ms, why), self.fstr(ev, [anyu], mods))

        def bad(suffix, ret, why, b=None):
            self.add("modifiers", (b or base) + suffix, ret, None, why)

        ok(":e", {"e": 1}, "e alone (no cmask rule on the uncore: libpfm_intel_nhm_unc(3) lists none)")
        ok(":e=1", {"e": 1}, "e=1")
        ok(":e=0", {}, "e=0")
        ok(":i", {"i": 1}, "i alone")
        ok(":o", {"o": 1}, "o: write 1 clears the occupancy counter (SDM 18.8.2.2)")
        ok(":o=0", {}, "o=0")
        ok(":c=0", {}, "c=0: no threshold")
        ok(":c=1", {"c": 1}, "c=1")
        ok(":c=255", {"c": 255}, "c=255: range top, doc:libpfm_intel_nhm_unc.3")
        ok(":c=0x10", {"c": 16}, "c in hex")
        ok(":c=2:i", {"c": 2, "i": 1}, "threshold inverted")
        ok(":e:c=1", {"e": 1, "c": 1}, "edge of the threshold output")
        ok(":e:i:c=255:o", {"e": 1, "i": 1, "c": 255, "o": 1}, "every modifier")
        ok(":o:c=3:i:e", {"e": 1, "i": 1, "c": 3, "o": 1}, "modifier order in the string does not matter")
        ok(":c=7:c=7", {"c": 7}, "the same value twice")
        bad(":c=256", "PFM_ERR_INVAL", "c=256: " + RG)
        bad(":c=1000", "PFM_ERR_INVAL", "c=1000: " + RG)
        bad(":c=-1", "PFM_ERR_INVAL", "c=-1 reads as 2^64-1: " + RG)
        bad(":c=256", "PFM_ERR_INVAL", "range checked before the missing unit mask: " + RG,
            "%s::UNC_DRAM_OPEN" % p)
        bad(":READ:c=256", "PFM_ERR_FEATCOMB", "combination checked before the range; " + FC)
        bad(":c", "PFM_ERR_ATTR_VAL", "c needs a value; " + AV)
        bad(":c=", "PFM_ERR_ATTR_VAL", "empty value; " + AV)
        bad(":c=abc", "PFM_ERR_ATTR_VAL", "not a number; " + AV)
        bad(":e=2", "PFM_ERR_ATTR_VAL", "boolean value 2; " + AV)
        bad(":o=2", "PFM_ERR_ATTR_VAL", "boolean value 2; " + AV)
        bad(":c=1:c=2", "PFM_ERR_ATTR_SET", "c twice with different values; class: libpfm4 convention")
        bad(":e=1:e=0", "PFM_ERR_ATTR_SET", "e twice with different values; class: libpfm4 convention")
        for m in ("u", "k", "u=1", "k=0"):
            bad(":" + m, "PFM_ERR_ATTR", "no privilege modifier: uncore events count at all privilege levels "
                "(doc:libpfm_intel_nhm_unc.3, SDM Fig 18-28 has no USR/OS); " + AT)
        bad(":t", "PFM_ERR_ATTR", "no t (any-thread) on the uncore; " + AT)
        bad(":ldlat=3", "PFM_ERR_ATTR", "no ldlat on the uncore; " + AT)
        bad(":pc", "PFM_ERR_ATTR", "no pc modifier; " + AT)
        clk = "%s::%s" % (p, FIXED_EVENT)
        for m in ("e", "i", "c=1", "o", "u"):
            bad(":" + m, "PFM_ERR_ATTR", "the fixed counter's event takes no modifier (libpfm4 4.13 modifier "
                "mask empty; FIXED_CTR_CTRL has no such field, SDM Fig 18-29); " + AT, clk)
        for m in ("e", "i", "c=1", "o"):
            bad(":" + m, "PFM_ERR_ATTR", "UNC_QHL_CYCLES_NOT_EMPTY takes no modifier (libpfm4 4.13 modifier "
                "mask empty); " + AT, "%s::UNC_QHL_CYCLES_NOT_EMPTY:IOH" % p)

    # -- malformed strings --
    def gen_invalid(self):
        p = self.pmu.encode()

        def bad(string, ret, why):
            self.add("invalid", string, ret, None, why)

        E = b"UNC_LLC_MISS"
        bad(b"%s::" % p, "PFM_ERR_NOTFOUND", "PMU without an event; " + NF)
        bad(b"%s::NO_SUCH_EVENT" % p, "PFM_ERR_NOTFOUND", "unknown event; " + NF)
        bad(b"%s::UNC_LLC_MIS" % p, "PFM_ERR_NOTFOUND", "unknown event (prefix of a real one); " + NF)
        bad(b"%s_x::%s" % (p, E), "PFM_ERR_NOTFOUND", "unknown PMU (near miss); " + NF)
        bad(E, "PFM_ERR_NOTFOUND", "no PMU: pmusim models PMUs, not the host (docs/libpfm4-differences.md); " + NF)
        bad(b"%s::INST_RETIRED" % p, "PFM_ERR_NOTFOUND", "a core event on the uncore PMU; " + NF)
        bad(b"%s::%s:NO_SUCH_UMASK" % (p, E), "PFM_ERR_ATTR", "unknown unit mask; " + AT)
        bad(b"%s::%s:" % (p, E), "PFM_ERR_ATTR", "trailing ':'; " + AT)
        bad(b"%s::%s::" % (p, E), "PFM_ERR_ATTR", "trailing '::'; " + AT)
        bad(b"%s::%s:ANY=1" % (p, E), "PFM_ERR_ATTR", "a unit mask takes no value; " + AT)
        bad(b"%s::%s:ANY:" % (p, E), "PFM_ERR_ATTR", "trailing ':' after a unit mask; " + AT)
        bad(b" %s::%s" % (p, E), "PFM_ERR_INVAL", "leading blank; " + IV)
        bad(b"%s::%s " % (p, E), "PFM_ERR_INVAL", "trailing blank; " + IV)
        bad(b"%s::%s:ANY :e" % (p, E), "PFM_ERR_INVAL", "blank inside; " + IV)
        bad(b"%s::%s,e" % (p, E), "PFM_ERR_INVAL", "',' separates events, not modifiers; " + IV)
        bad(b"%s::%s:\xff\xfe" % (p, E), "PFM_ERR_ATTR", "invalid UTF-8 unit mask; " + AT)
        bad(b"%s::\xc3\x28" % p, "PFM_ERR_NOTFOUND", "invalid UTF-8 event name; " + NF)
        bad(b"%s::" % p + b"A" * 10240, "PFM_ERR_NOTFOUND", "10 kB event name; " + NF)
        bad(b"%s::%s:" % (p, E) + b"Z" * 10240, "PFM_ERR_ATTR", "10 kB unit mask name; " + AT)
        bad(b"%s::%s:c=" % (p, E) + b"1" * 10240, "PFM_ERR_INVAL",
            "10 kB number: beyond 64 bits it reads as the largest value (strtoull), out of range; " + RG)
        bad(b"%s::%s" % (p, E) + b":e" * 65, "PFM_ERR_TOOMANY",
            "65 modifiers; class: libpfm4 convention (more than 64 attributes -> PFM_ERR_TOOMANY)")
        bad(b"%s::%s:ANY:ANY:ANY" % (p, E), "PFM_ERR_FEATCOMB",
            "an NCOMBO unit mask three times: libpfm4 4.13 keeps two copies; "
            "class: libpfm4 convention (a unit mask given three or more times -> PFM_ERR_FEATCOMB)")
        ev = self.events["UNC_LLC_MISS"]
        rd = next(u for u in ev["umasks"] if u["name"] == "READ")
        code, um = self.sdm(ev, [rd])
        self.add("invalid", b"%s::%s:READ:READ" % (p, E), "PFM_SUCCESS", [evtsel(code, um)],
                 self.src(ev, [rd], "; a unit mask named twice is the unit mask once (libpfm4 convention)"))


HEADERS = {
    "events": "every event alone (its default unit masks, if any)",
    "umasks": "every unit mask of every event, and the combination rules",
    "modifiers": "every modifier, its range edges, privilege modifiers refused, events without modifiers",
    "invalid": "malformed and hostile strings with the error class libpfm4 uses for each kind of mistake",
}


def refresh_gresource(vdir, files):
    """Put the uncore .enc files in vectors.gresource.xml, after the other .enc files."""
    path = os.path.join(vdir, "vectors.gresource.xml")
    with open(path) as f:
        lines = f.read().splitlines()
    listed = set(re.findall(r"<file>(.*)</file>", "\n".join(lines)))
    if listed.issuperset(files):
        return  # already listed, where scripts/gen-vectors.py puts them: leave the order alone
    mine = set(files)
    keep = [l for l in lines if not any("<file>%s</file>" % x in l for x in mine)]
    idx = max(i for i, l in enumerate(keep) if re.search(r"<file>.*\.enc</file>", l))
    # sorted, as scripts/gen-vectors.py lists them when it rewrites the file
    keep[idx + 1:idx + 1] = ["    <file>%s</file>" % x for x in sorted(files)]
    with open(path, "w") as f:
        f.write("\n".join(keep) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reference", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"),
                    help="the reference folder (default: scripts/data, the committed copy)")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "vectors"))
    args = ap.parse_args()
    written = []
    for pmu in PMUS:
        events = read_tsv(os.path.join(args.reference, "uncore", "%s-events.tsv" % pmu), pmu)
        g = Gen(pmu, events)
        g.gen_events()
        g.gen_umasks()
        g.gen_modifiers()
        g.gen_invalid()
        os.makedirs(os.path.join(args.out, pmu), exist_ok=True)
        for topic, lines in g.files.items():
            rel = "%s/%s.enc" % (pmu, topic)
            with open(os.path.join(args.out, rel), "w") as f:
                f.write("# %s — %s.\n# Written by scripts/gen-uncore-vectors.py; format: docs/vectors-format.md.\n\n"
                        % (rel, HEADERS[topic]))
                f.write("\n".join(lines) + "\n")
            written.append(rel)
            print("%-22s %5d vectors" % (rel, sum(1 for l in lines if not l.startswith("#"))))
    refresh_gresource(args.out, written)


if __name__ == "__main__":
    main()
