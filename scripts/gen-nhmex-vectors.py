#!/usr/bin/env python3
"""Generate vectors/nhmex_cbox0 ... nhmex_cbox7/*.enc (docs/vectors-format.md).

Encoding vectors for the Xeon 7500 (Nehalem-EX) uncore C-Box PMUs.  The
expected values never come from pmusim (neither its encoder nor its models):

  * codes and unit-mask values: likwid's NHM-EX C-Box table, as reproduced in
    reference/uncore/nhmex-cbox-events.tsv (the NHM-EX rows; WSM-EX-only rows
    and the GAP row have no vector but an error one);
  * the register layout: C_MSR_PMON_EVT_SEL, Intel 323535-001 Table 2-13
    (reference/docs/xeon7500-uncore-cbox-registers.txt): event 7:0, umask
    15:8, edge 18, pmi_en 20, en 22, invert 23, threshold 31:24.  en is always
    set (Table 2-13: the local enable; Linux's nhmex enable_event ORs it in);
  * modifier names and ranges: pmusim's documented interface for this PMU
    (docs/libpfm4-differences.md: libpfm4 has no such PMU), threshold 0..255
    because the field is 8 bits wide;
  * error classes: the class libpfm4 uses for the same kind of mistake on its
    other PMUs ("class: libpfm4 convention"); the column of the offending
    token (1-based byte offset) is written in the src as "column N" and
    checked against the builtin encoder by encoder/tests.

No source names a default unit mask for these events, so an event with unit
masks named alone is PFM_ERR_UMASK.

usage: scripts/gen-nhmex-vectors.py [--reference DIR] [--out DIR]
(defaults: scripts/data, vectors/; of the reference/X files named above, the
tables it reads are committed as scripts/data/X: scripts/data/README.md;
scripts/regenerate runs every generator)
(then add the files to vectors/vectors.gresource.xml: scripts/gen-vectors.py
lists every vector folder's .enc files)
"""
import argparse
import csv
import os
import re
import sys

N_CBOX = 8
EV, UM, EDGE, PMI, EN, INV, THR = 0, 8, 18, 20, 22, 23, 24
LAYOUT = "guide:Table 2-13 C_MSR_PMON_EVT_SEL layout (en bit 22 always set)"
LIKWID = "likwid:perfmon_nehalemEX_events.txt"
CLASS = "class: libpfm4 convention"
MODS = ("e", "i", "t", "pmi")   # fstr order


def evtsel(code, umask=0, e=0, i=0, t=0, pmi=0):
    return code << EV | umask << UM | e << EDGE | pmi << PMI | 1 << EN | i << INV | t << THR


def load(ref):
    path = os.path.join(ref, "uncore", "nhmex-cbox-events.tsv")
    events, other = {}, []
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            name = row["event"]
            if not row["chip"].startswith("NHM-EX") or row["notes"].startswith("GAP"):
                if name not in other:
                    other.append(name)
                continue
            ev = events.setdefault(name, {"code": int(row["ev_sel"], 16), "umasks": [], "guide": False})
            if "Guide" in row["source"]:
                ev["guide"] = True
            if row["umask_name"] != "-":
                ev["umasks"].append((row["umask_name"], int(row["umask_value"], 16)))
    return events, other


def esc(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')


class Gen:
    def __init__(self, pmu, events, other):
        self.pmu, self.events, self.other = pmu, events, other
        self.files = {"events": [], "umasks": [], "modifiers": [], "invalid": []}

    def src_of(self, ev, name):
        s = "%s %s code 0x%02X" % (LIKWID, name, ev["code"])
        if ev["guide"]:
            s += " (code confirmed by guide p.2-27)"
        return s

    def fstr(self, ev, ums, **mods):
        return "%s::%s%s%s" % (self.pmu, ev, "".join(":" + u for u in ums),
                               "".join(":%s=%d" % (m, mods.get(m, 0)) for m in MODS))

    def ok(self, topic, string, code, src, fstr=None):
        f = ' fstr "%s"' % esc(fstr) if fstr else ""
        self.files[topic].append('"%s" PFM_SUCCESS 0x%x%s src %s' % (esc(string), code, f, src))

    def bad(self, topic, string, ret, why, col):
        """col: the 1-based column of the offending token (its start)."""
        self.files[topic].append('"%s" %s - src %s; %s; column %d' % (esc(string), ret, why, CLASS, col))

    def gen_events(self):
        p = self.pmu
        for name, ev in self.events.items():
            s = "%s::%s" % (p, name)
            if ev["umasks"]:
                self.bad("events", s, "PFM_ERR_UMASK",
                         "%s has unit masks and no source names a default (no unit mask where one is "
                         "required -> PFM_ERR_UMASK)" % name, len(p) + 3)
            else:
                self.ok("events", s, evtsel(ev["code"]), self.src_of(ev, name) + " + " + LAYOUT,
                        self.fstr(name, []))

    def gen_umasks(self):
        p = self.pmu
        for name, ev in self.events.items():
            for um, val in ev["umasks"]:
                self.ok("umasks", "%s::%s:%s" % (p, name, um), evtsel(ev["code"], val),
                        "%s %s.%s code 0x%02X umask 0x%02X + %s" % (LIKWID, name, um, ev["code"], val, LAYOUT),
                        self.fstr(name, [um]))

    def gen_modifiers(self):
        p = self.pmu
        # Reference events whose code (and unit mask) the Guide's p.2-27 confirms.
        refs = [("TRANS_IPQ", None), ("SNPS", "REMOTE_RD")]
        for name, um in refs:
            ev = self.events[name]
            val = dict(ev["umasks"])[um] if um else 0
            ums = [um] if um else []
            head = "%s::%s%s" % (p, name, ":" + um if um else "")
            base = "%s %s%s code 0x%02X%s (guide p.2-27) + %s" % (
                LIKWID, name, "." + um if um else "", ev["code"], " umask 0x%02X" % val if um else "", LAYOUT)

            def ok(mods, why, **f):
                self.ok("modifiers", head + mods, evtsel(ev["code"], val, **f), base + " (%s)" % why,
                        self.fstr(name, ums, **f))

            def bad(mods, ret, why, at):
                # at: the offending text inside mods (None: the empty value at the end)
                off = len(mods) if at is None else mods.index(at)
                self.bad("modifiers", head + mods, ret, why, len(head) + off + 1)

            ok("", "no modifier: e=i=t=pmi=0")
            ok(":e", "e: edge bit 18", e=1)
            ok(":e=1", "e=1", e=1)
            ok(":e=0", "e=0", e=0)
            ok(":i", "i: invert bit 23", i=1)
            ok(":i=0", "i=0")
            ok(":pmi", "pmi: pmi_en bit 20", pmi=1)
            ok(":pmi=1", "pmi=1", pmi=1)
            ok(":pmi=0", "pmi=0")
            for t in (0, 1, 2, 15, 16, 100, 254, 255):
                ok(":t=%d" % t, "t=%d: threshold 31:24" % t, t=t)
            ok(":t=0x10", "t=0x10 (hexadecimal)", t=16)
            ok(":t=0xff", "t=0xff: the largest 8-bit threshold", t=255)
            ok(":t=2:i", "t=2 with invert", t=2, i=1)
            ok(":i:t=2", "modifiers in any order", t=2, i=1)
            ok(":t=1:e", "threshold then edge, in series", t=1, e=1)
            ok(":e:i:t=3", "edge, invert and threshold", e=1, i=1, t=3)
            ok(":e:i:t=255:pmi", "every field at its largest", e=1, i=1, t=255, pmi=1)
            ok(":pmi:t=7:e=0:i=1", "all four named, any order", pmi=1, t=7, i=1)
            ok(":i:t=0", "invert with t=0: accepted, the counter ignores it (semantics.md A5)", i=1)
            ok(":t=4:t=4", "the same modifier twice with the same value", t=4)
            ok(":e:e", "a boolean twice", e=1)
            bad(":t=256", "PFM_ERR_ATTR_VAL", "t=256: the threshold field is 8 bits (range 0..255) -> "
                "PFM_ERR_ATTR_VAL", "256")
            bad(":t=1000", "PFM_ERR_ATTR_VAL", "t=1000 out of range 0..255", "1000")
            bad(":t=0x100", "PFM_ERR_ATTR_VAL", "t=0x100 out of range 0..255", "0x100")
            bad(":t", "PFM_ERR_ATTR_VAL", "t without a value (missing value -> PFM_ERR_ATTR_VAL)", "t")
            bad(":t=", "PFM_ERR_ATTR_VAL", "t= with an empty value", None)
            bad(":t=x", "PFM_ERR_ATTR_VAL", "t=x: not a number", "x")
            bad(":t=-1", "PFM_ERR_ATTR_VAL", "t=-1: not a number in range", "-1")
            bad(":e=2", "PFM_ERR_ATTR_VAL", "e=2: a boolean takes 0 or 1", "2")
            bad(":i=2", "PFM_ERR_ATTR_VAL", "i=2: a boolean takes 0 or 1", "2")
            bad(":pmi=2", "PFM_ERR_ATTR_VAL", "pmi=2: a boolean takes 0 or 1", "2")
            bad(":t=1:t=2", "PFM_ERR_ATTR_SET", "t given twice with different values -> PFM_ERR_ATTR_SET", "t=2")
            bad(":e=1:e=0", "PFM_ERR_ATTR_SET", "e given twice with different values", "e=0")
            for mod, why in (("u", "no privilege filter on the uncore: u is no modifier of this PMU"),
                             ("k", "no privilege filter on the uncore: k is no modifier of this PMU"),
                             ("u=1", "u=1: no privilege filter"),
                             ("c=1", "c is the core PMUs' counter mask; the C-Box's threshold is t"),
                             ("any", "no any-thread bit in the C-Box event select"),
                             ("ldlat=3", "no load-latency facility"),
                             ("int", "the interrupt bit is pmi here"),
                             ("edge", "the edge modifier is e")):
                bad(":" + mod, "PFM_ERR_ATTR", why + " (unknown modifier -> PFM_ERR_ATTR)", mod)

    def gen_invalid(self):
        p = self.pmu
        nf = "unknown PMU or event -> PFM_ERR_NOTFOUND"
        at = "unknown unit mask or modifier -> PFM_ERR_ATTR"
        n = len(p)
        ev_col = n + 3
        self.bad("invalid", "%s::" % p, "PFM_ERR_NOTFOUND", "PMU without an event (%s)" % nf, ev_col)
        self.bad("invalid", "%s::NO_SUCH_EVENT" % p, "PFM_ERR_NOTFOUND", "unknown event (%s)" % nf, ev_col)
        self.bad("invalid", "%s::TRANS_IPQ_" % p, "PFM_ERR_NOTFOUND", "unknown event (real one plus '_')", ev_col)
        self.bad("invalid", "%s::TRANS_IP" % p, "PFM_ERR_NOTFOUND", "unknown event (prefix of a real one)", ev_col)
        self.bad("invalid", "%s::CACHE_CHAR_QUAL" % p, "PFM_ERR_NOTFOUND",
                 "named by the Guide (SNPS note) but no code was retrieved: no event (%s)" % nf, ev_col)
        for name in self.other:
            if name == "CACHE_CHAR_QUAL" or name in self.events:
                continue
            self.bad("invalid", "%s::%s" % (p, name), "PFM_ERR_NOTFOUND",
                     "likwid lists %s for Westmere-EX (Xeon E7) only: no event of the Xeon 7500 (%s)" % (name, nf),
                     ev_col)
        self.bad("invalid", "nhmex_cbox8::TRANS_IPQ", "PFM_ERR_NOTFOUND",
                 "the Xeon 7500 has eight C-Boxes, 0..7 (C8 exists on the Xeon E7 only) (%s)" % nf, 1)
        self.bad("invalid", "nhmex_cbox::TRANS_IPQ", "PFM_ERR_NOTFOUND", "PMU name without its box (%s)" % nf, 1)
        self.bad("invalid", "nhmex::TRANS_IPQ", "PFM_ERR_NOTFOUND", "no PMU nhmex (%s)" % nf, 1)
        self.bad("invalid", "TRANS_IPQ", "PFM_ERR_NOTFOUND",
                 "no PMU prefix: libpfm4 searches the host's PMUs, and the models are no host (%s)" % nf, 1)
        h = "%s::TRANS_IPQ" % p
        hl = len(h)
        self.bad("invalid", h + ":ALL", "PFM_ERR_ATTR", "TRANS_IPQ has no unit mask (%s)" % at, hl + 2)
        self.bad("invalid", h + ":", "PFM_ERR_ATTR", "trailing ':' (%s)" % at, hl + 2)
        self.bad("invalid", h + "::e", "PFM_ERR_ATTR", "empty field between ':'s (%s)" % at, hl + 2)
        m = "%s::LLC_MISSES" % p
        ml = len(m)
        self.bad("invalid", m + ":NO_SUCH_UMASK", "PFM_ERR_ATTR", "unknown unit mask (%s)" % at, ml + 2)
        self.bad("invalid", m + ":ALL:NO_SUCH_UMASK", "PFM_ERR_ATTR", "unknown unit mask after a good one (%s)" % at,
                 ml + 6)
        self.bad("invalid", m + ":MODIFIED", "PFM_ERR_ATTR",
                 "MODIFIED is a unit mask of LLC_HITS, not of LLC_MISSES (%s)" % at, ml + 2)
        self.bad("invalid", m + ":ALL=1", "PFM_ERR_ATTR", "a unit mask takes no value (%s)" % at, ml + 2)
        self.bad("invalid", m + ":ALL:", "PFM_ERR_ATTR", "trailing ':' after a unit mask (%s)" % at, ml + 6)
        self.bad("invalid", m + ":e", "PFM_ERR_UMASK",
                 "a modifier but no unit mask: LLC_MISSES needs one (-> PFM_ERR_UMASK)", ev_col)
        self.bad("invalid", m + ":t=2:i", "PFM_ERR_UMASK", "modifiers but no unit mask", ev_col)
        self.bad("invalid", " " + m + ":ALL", "PFM_ERR_INVAL", "leading blank (malformed string -> PFM_ERR_INVAL)", 1)
        self.bad("invalid", m + ":ALL ", "PFM_ERR_INVAL", "trailing blank (malformed string -> PFM_ERR_INVAL)", ml + 5)
        self.bad("invalid", h + 65 * ":e", "PFM_ERR_TOOMANY",
                 "65 modifiers: more than 64 unit masks and modifiers -> PFM_ERR_TOOMANY", hl + 64 * 2 + 2)
        # several unit masks are OR-ed (no source makes any group exclusive)
        ev = self.events["LLC_MISSES"]
        um = dict(ev["umasks"])
        self.ok("invalid", m + ":SHARED:INVALID", evtsel(ev["code"], um["SHARED"] | um["INVALID"]),
                "%s LLC_MISSES.SHARED 0x%02X | INVALID 0x%02X + %s (derived: unit masks combine by OR)"
                % (LIKWID, um["SHARED"], um["INVALID"], LAYOUT), self.fstr("LLC_MISSES", ["SHARED", "INVALID"]))
        self.ok("invalid", m + ":INVALID:SHARED", evtsel(ev["code"], um["SHARED"] | um["INVALID"]),
                "%s LLC_MISSES.SHARED | INVALID + %s (derived: unit masks combine by OR; fstr in table order)"
                % (LIKWID, LAYOUT), self.fstr("LLC_MISSES", ["SHARED", "INVALID"]))
        self.ok("invalid", m + ":all", evtsel(ev["code"], um["ALL"]),
                "%s LLC_MISSES.ALL + %s (names are case-insensitive, as in libpfm4)" % (LIKWID, LAYOUT),
                self.fstr("LLC_MISSES", ["ALL"]))


HEADERS = {
    "events": "every event alone (no default unit masks: events with unit masks need one)",
    "umasks": "every unit mask of every event",
    "modifiers": "e, i, t, pmi: values, range edges, combinations, and the modifiers this PMU lacks",
    "invalid": "malformed strings and names this PMU lacks, with the error class libpfm4 uses for each kind "
               "of mistake; unit-mask combinations",
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reference", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"),
                    help="the reference folder (default: scripts/data, the committed copy)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors"))
    args = ap.parse_args()
    events, other = load(args.reference)
    total = 0
    for n in range(N_CBOX):
        g = Gen("nhmex_cbox%d" % n, events, other)
        g.gen_events()
        g.gen_umasks()
        g.gen_modifiers()
        g.gen_invalid()
        os.makedirs(os.path.join(args.out, g.pmu), exist_ok=True)
        for topic, lines in g.files.items():
            rel = "%s/%s.enc" % (g.pmu, topic)
            with open(os.path.join(args.out, rel), "w") as f:
                f.write("# %s — %s.\n# Written by scripts/gen-nhmex-vectors.py; format: docs/vectors-format.md.\n\n"
                        % (rel, HEADERS[topic]))
                f.write("\n".join(lines) + "\n")
            total += len(lines)
            if n == 0:
                print("%-28s %5d vectors" % (rel, len(lines)))
    print("%d vectors in %d folders" % (total, N_CBOX))


if __name__ == "__main__":
    main()
