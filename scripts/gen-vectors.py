#!/usr/bin/env python3
"""gen-vectors.py — write the golden encoding vectors vectors/<pmu>/<topic>.enc.

Where each piece comes from (docs/vectors-format.md, "Provenance"):

* Event and unit-mask NAMES, which unit masks are defaults, and which names a
  composite unit mask stands for come from Debian's libpfm4 4.13 (the issue
  asks for its names), read from `showevtinfo` output (committed as
  scripts/data/libpfm4/showevtinfo/<pmu>.txt).  libpfm4's numbers are
  used for one thing only: finding the Intel JSON entry a name denotes
  (event code + umask + cmask/inv/edge/any).  No expected value is ever taken
  from libpfm4 or from pmusim's own encoder.
* EXPECTED VALUES are computed from Intel's event JSON (scripts/data/intel-perfmon:
  EventCode, UMask, CounterMask, Invert, EdgeDetect, AnyThread, MSRValue;
  goldmont_matrix.json MATRIX_VALUE) with the documented IA32_PERFEVTSELx layout (SDM Fig 18-1 /
  18-6: event 7:0, umask 15:8, USR 16, OS 17, E 18, INT 20, ANY 21, EN 22,
  INV 23, CMASK 31:24) and the offcore layouts (SDM Table 18-26 for NHM/WSM,
  Tables 18-21/18-22 for GLM).  A few values no JSON entry gives are derived
  by hand; their `src` says so ("derived: ...").
* ERROR CLASSES follow libpfm4's convention for each kind of mistake (learnt by
  running libpfm4 on sample strings), or the documents where they forbid what
  libpfm4 4.13 accepts; each vector's `src` says which.

The output is committed; the build never runs this script.

usage: scripts/gen-vectors.py [--reference DIR] [--showevtinfo-dir DIR | --showevtinfo PROGRAM]
                              [--out DIR] [--report]
(defaults: scripts/data, scripts/data/libpfm4/showevtinfo, vectors/;
--showevtinfo-dir: the saved output of `showevtinfo '<pmu>::.*'`, one <pmu>.txt
per PMU; --showevtinfo: run that program instead, libpfm4-dev's example
showevtinfo.c compiled, with LIBPFM_ENCODE_INACTIVE=1 (scripts/refresh-libpfm4-dumps
builds it and refreshes the saved output); --report lists the names left without
a vector, also written to vectors/unmapped.txt; scripts/regenerate runs every generator)
"""
import argparse
import json
import glob
import os
import re
import subprocess
import sys

PMUS = {
    # pmu: (json dir, core json, has HT (t modifier), offcore style)
    "glm": ("GLM", "goldmont_core.json", False, "glm"),
    "wsm": ("WSM-EP-SP", "WestmereEP-SP_core.json", True, "nhm"),
    "wsm_dp": ("WSM-EP-DP", "WestmereEP-DP_core.json", True, "nhm"),
    "nhm": ("NHM-EP", "NehalemEP_core.json", True, "nhm"),
    "nhm_ex": ("NHM-EX", "NehalemEX_core.json", True, "nhm"),
    # icl: libpfm4 4.13 offers t on no event but the reference cycles
    "skl": ("SKL", "skylake_core.json", True, "skl"),
    "icl": ("ICL", "icelake_core.json", False, "icl"),
}
# TSX qualifiers IN_TX (bit 32) and IN_TXCP (bit 33), SDM 18.11.5.1; libpfm4's
# intx/intxcp, printed after t (and ldlat) in its fstr
TSX_PMUS = ("skl", "icl")
IN_TX, IN_TXCP = 32, 33

# ---- the documented IA32_PERFEVTSELx layout (SDM Fig 18-1/18-6) ----
USR, OS, EDGE, INT, ANY, EN, INV = 16, 17, 18, 20, 21, 22, 23
LAYOUT = "sdm:18-4 evtsel layout"


def evtsel(code, umask, usr=1, os_=1, edge=0, any_=0, inv=0, cmask=0):
    """An event-select value as libpfm4 hands it out: EN and INT always set."""
    return (code & 0xFF) | (umask & 0xFF) << 8 | usr << USR | os_ << OS | edge << EDGE | \
        1 << INT | any_ << ANY | 1 << EN | inv << INV | (cmask & 0xFF) << 24


# ---- libpfm4 names (showevtinfo output) ----

class Umask:
    def __init__(self, name, ucode, default, desc):
        self.name, self.ucode, self.default, self.desc = name, ucode, default, desc

    def alias_parts(self):
        """(names, modifiers) this composite stands for, per libpfm4's table
        ("Alias to A:B:c=1:i"), or None.  The names carry the meaning; the
        table's own number for a composite is not always consistent with it
        (wsm OFFCORE_REQUESTS_OUTSTANDING:READ_DATA_NOT_EMPTY lists umask 0x08
        but is described as DEMAND_READ_DATA:c=1)."""
        m = re.match(r"Alias to ([A-Za-z0-9_:=]+)", self.desc)
        if not m:
            return None
        names, mods = [], {}
        for p in m.group(1).split(":"):
            if "=" in p:
                k, v = p.split("=", 1)
                mods[k] = int(v, 0)
            elif re.match(r"^[a-z]+$", p):
                mods[p] = 1
            else:
                names.append(p)
        return names, mods

    def alias_of(self):
        a = self.alias_parts()
        return a[0] if a else None


class Event:
    def __init__(self, name, code):
        self.name, self.code = name, code
        self.umasks = []
        self.mods = []


def parse_showevtinfo(text):
    events = []
    ev = None
    for line in text.splitlines():
        m = re.match(r"^Name\s*:\s*(\S+)", line)
        if m:
            ev = Event(m.group(1), None)
            events.append(ev)
            continue
        if ev is None:
            continue
        m = re.match(r"^Code\s*:\s*(0x[0-9a-fA-F]+)", line)
        if m:
            ev.code = int(m.group(1), 16)
            continue
        m = re.match(r"^Umask-\d+\s*:\s*(0x[0-9a-fA-F]+)\s*:\s*PMU\s*:\s*\[([^\]]+)\]\s*:\s*(None|(?:\[[^\]]*\]\s*)+)\s*:\s*(.*)$", line)
        if m:
            ev.umasks.append(Umask(m.group(2), int(m.group(1), 16), "[default]" in m.group(3), m.group(4)))
            continue
        m = re.match(r"^Modif-\d+\s*:\s*0x[0-9a-f]+\s*:\s*PMU\s*:\s*\[([^\]]+)\]", line)
        if m:
            ev.mods.append(m.group(1))
    return events


def showevtinfo_program(path):
    """libpfm4's showevtinfo example, compiled (libpfm4-dev ships its source)."""
    if not os.path.exists(path):
        sys.exit("gen-vectors: %s: no such program; build libpfm4-dev's examples/showevtinfo.c "
                 "and pass --showevtinfo PATH" % path)
    return path


def load_libpfm(program, saved, pmu):
    """libpfm4's events of pmu: from `program` run now, or from the saved output in
    directory `saved` (<pmu>.txt)."""
    if program:
        env = dict(os.environ, LIBPFM_ENCODE_INACTIVE="1")
        out = subprocess.run([program, "%s::.*" % pmu], env=env, capture_output=True, text=True, check=True)
        text, what = out.stdout, program
    else:
        what = os.path.join(saved, pmu + ".txt")
        with open(what) as f:
            text = f.read()
    events = [e for e in parse_showevtinfo(text) if e.code is not None]
    if not events:
        sys.exit("gen-vectors: %s has no event for %s" % (what, pmu))
    return events


# ---- Intel JSON ----

def ints(field):
    return [int(x.strip(), 16) for x in str(field).split(",") if x.strip()]


class JsonEvent:
    def __init__(self, d, fname):
        self.name = d["EventName"]
        self.codes = ints(d["EventCode"])
        self.umasks = ints(d["UMask"])
        self.cmask = int(d.get("CounterMask", "0") or 0)
        self.inv = int(d.get("Invert", "0") or 0)
        self.edge = int(d.get("EdgeDetect", "0") or 0)
        self.any = int(d.get("AnyThread", "0") or 0)
        self.offcore = d.get("Offcore", "0") == "1"
        self.msr_value = int(str(d.get("MSRValue", "0")).strip() or "0", 16)
        self.fixed = "Fixed" in str(d.get("Counter", ""))
        self.src = "json:%s:%s" % (fname, self.name)


def load_json(ref, pmu):
    jdir, fname, _, _ = PMUS[pmu]
    path = os.path.join(ref, "intel-perfmon", jdir, "events", fname)
    with open(path) as f:
        data = json.load(f)
    return [JsonEvent(d, fname) for d in data["Events"]]


def find_json(jevents, code, umask, cmask, inv, edge, any_):
    """The JSON entries that program exactly these evtsel fields."""
    hits = [j for j in jevents if not j.offcore and code in j.codes and umask in j.umasks and
            (j.cmask, j.inv, j.edge, j.any) == (cmask, inv, edge, any_)]
    # A fixed-counter entry says nothing about a general-purpose encoding.
    gp = [j for j in hits if not j.fixed]
    return sorted(gp or hits, key=lambda j: j.name)


def ucode_fields(ucode):
    """libpfm4's umask word: evtsel bits 31:8 shifted down by 8 (umask 7:0,
    E 10, ANY 13, INV 15, CMASK 23:16).  Used only to find the JSON entry."""
    return dict(umask=ucode & 0xFF, edge=(ucode >> 10) & 1, any_=(ucode >> 13) & 1,
                inv=(ucode >> 15) & 1, cmask=(ucode >> 16) & 0xFF)


# Architectural events (SDM Vol 3B Table 18-1) for libpfm4's architectural
# aliases that a part's JSON does not list under the same code/umask.
ARCH = {
    (0x3C, 0x00): "sdm:Table 18-1 UnHalted Core Cycles 3CH/00H",
    (0xC0, 0x00): "sdm:Table 18-1 Instruction Retired C0H/00H",
    (0x3C, 0x01): "sdm:Table 18-1 UnHalted Reference Cycles 3CH/01H",
    (0x2E, 0x4F): "sdm:Table 18-1 LLC Reference 2EH/4FH",
    (0x2E, 0x41): "sdm:Table 18-1 LLC Misses 2EH/41H",
    (0xC4, 0x00): "sdm:Table 18-1 Branch Instruction Retired C4H/00H",
    (0xC5, 0x00): "sdm:Table 18-1 Branch Misses Retired C5H/00H",
}
# Fixed counter 2 (reference cycles) has no general-purpose encoding on these
# parts; the pseudo-encoding event 0x00 umask 0x03 is Intel's own name for it
# (goldmont_core.json CPU_CLK_UNHALTED.REF_TSC, EventCode 0x00 UMask 0x03).
ARCH_NAMES = {
    "UNHALTED_CORE_CYCLES": (0x3C, 0x00), "INSTRUCTION_RETIRED": (0xC0, 0x00),
    "INSTRUCTIONS_RETIRED": (0xC0, 0x00), "LLC_REFERENCES": (0x2E, 0x4F),
    "LAST_LEVEL_CACHE_REFERENCES": (0x2E, 0x4F), "LLC_MISSES": (0x2E, 0x41),
    "LAST_LEVEL_CACHE_MISSES": (0x2E, 0x41), "BRANCH_INSTRUCTIONS_RETIRED": (0xC4, 0x00),
    "MISPREDICTED_BRANCH_RETIRED": (0xC5, 0x00),
}
REF_PSEUDO = "derived: fixed counter 2 pseudo-encoding event 0x00 umask 0x03 " \
             "(json:goldmont_core.json:CPU_CLK_UNHALTED.REF_TSC)"


class Gen:
    def __init__(self, pmu, events, jevents, matrix):
        self.pmu = pmu
        self.events = events
        self.by_name = {e.name: e for e in events}
        self.jevents = jevents
        self.matrix = matrix
        self.ht = PMUS[pmu][2]
        self.style = PMUS[pmu][3]
        self.unmapped = []   # (string, reason) left out
        self.files = {t: [] for t in ("events", "umasks", "modifiers", "offcore", "invalid")}

    # -- output helpers --
    def add(self, topic, string, ret, codes=None, src="", fstr=None, comment=None):
        if comment:
            self.files[topic].append("# " + comment)
        self.files[topic].append(vector_line(string, ret, codes, src, fstr))

    def fstr_for(self, ev, umask_names, k=1, u=1, e=0, i=0, c=0, t=0, ldlat=None, intx=0, intxcp=0, fe_thres=None,
                 has_t=True):
        """Canonical form (docs/vectors-format.md): pmu::EVENT:UMASK...:k:u:e:i:c[:t][:ldlat]."""
        parts = ["%s::%s" % (self.pmu, ev)] + list(umask_names)
        parts += ["k=%d" % k, "u=%d" % u, "e=%d" % e, "i=%d" % i, "c=%d" % c]
        if self.ht and has_t:
            parts.append("t=%d" % t)
        if ldlat is not None:
            parts.append("ldlat=%d" % ldlat)
        if self.pmu in TSX_PMUS:
            parts += ["intx=%d" % intx, "intxcp=%d" % intxcp]
        if fe_thres is not None:
            parts.append("fe_thres=%d" % fe_thres)
        return ":".join(parts)

    # -- resolving a libpfm4 name to an expectation --
    def resolve(self, ev, ums):
        """(codes[0], source) for EVENT with the given Umask objects (none:
        the event's own code), or (None, reason)."""
        code = ev.code & 0xFF
        base = (ev.code >> 8) & 0xFF
        if not ums and ev.name in ARCH_NAMES:
            # libpfm4's architectural names denote the SDM Table 18-1 encodings.
            code, base = ARCH_NAMES[ev.name]
        f = dict(umask=base, edge=0, any_=0, inv=0, cmask=0)
        for um in ums:
            uf = self.umask_fields(ev, um)
            if self.pmu in TSX_PMUS and um.ucode & 0x300 and not um.alias_parts():
                # libpfm4's code override: the umask word is (umask << 8) | code
                # (icl INST_RETIRED:PREC_DIST 0x100, TOPDOWN:SLOTS_P 0x1a4)
                code, uf = um.ucode & 0xFF, dict(uf, umask=(um.ucode >> 8) & 0xFF)
            f["umask"] |= uf["umask"]
            for k in ("edge", "any_", "inv"):
                f[k] |= uf[k]
            f["cmask"] = max(f["cmask"], uf["cmask"])
        # Intel's entry of the very same name, if any (never for composites:
        # their meaning is the alias, e.g. wsm INST_RETIRED:ANY = ANY_P).
        same = None
        if len(ums) <= 1 and not (ums and ums[0].alias_parts()):
            want = ev.name + ("." + ums[0].name if ums else "")
            same = next((j for j in self.jevents if j.name == want and not j.offcore), None)
        elif self.pmu in TSX_PMUS and len(ums) == 1:
            # skl/icl: a composite whose expansion has no JSON entry takes
            # Intel's entry of its own name (skl UOPS_RETIRED:STALL_CYCLES,
            # libpfm4 ALL:c=1:i, JSON UOPS_RETIRED.STALL_CYCLES C2/02 c=1 i=1)
            want = "%s.%s" % (ev.name, ums[0].name)
            same = next((j for j in self.jevents if j.name == want and not j.offcore), None)
        # 1. by value; a fixed-counter pseudo-encoding is never matched by value
        #    (glm libpfm4 CPU_CLK_UNHALTED:REF is 0x00/0x01 = INST_RETIRED.ANY's).
        hits = [j for j in find_json(self.jevents, code, f["umask"], f["cmask"], f["inv"], f["edge"], f["any_"])
                if not j.fixed]
        if hits and same is not None and all(j.name != same.name for j in hits):
            hits = []  # the value names another event (nhm MACRO_INSTS:FUSIONS_DECODED): trust the name
        if hits:
            j = hits[0]
            return evtsel(j.codes[0] if len(j.codes) == 1 else code, j.umasks[0] if len(j.umasks) == 1 else f["umask"],
                          edge=j.edge, any_=j.any, inv=j.inv, cmask=j.cmask), j.src
        plain = (f["edge"], f["any_"], f["inv"], f["cmask"]) == (0, 0, 0, 0)
        # 2. an architectural encoding (SDM Table 18-1)
        if plain and (code, f["umask"]) in ARCH:
            return evtsel(code, f["umask"]), ARCH[(code, f["umask"])]
        # 3. Intel's entry of the same name
        if same is not None:
            note = " (by name; libpfm4 4.13's table gives event 0x%02x umask 0x%02x)" % (code, f["umask"]) \
                if (same.codes[0], same.umasks[0]) != (code, f["umask"]) else ""
            return evtsel(same.codes[0], same.umasks[0], edge=same.edge, any_=same.any, inv=same.inv,
                          cmask=same.cmask), same.src + note
        if plain and (code, f["umask"]) == (0x00, 0x03):
            return evtsel(0, 3), REF_PSEUDO
        return None, "no JSON entry with event 0x%02x umask 0x%02x cmask %d inv %d edge %d any %d" % (
            code, f["umask"], f["cmask"], f["inv"], f["edge"], f["any_"])

    def umask_fields(self, ev, um, depth=0):
        """evtsel fields a unit mask name stands for: a composite is the OR of
        the unit masks it names plus the modifiers it names."""
        parts = um.alias_parts()
        by = {u.name: u for u in ev.umasks}
        if parts and depth < 4 and all(n in by for n in parts[0]):
            f = dict(umask=0, edge=0, any_=0, inv=0, cmask=0)
            for n in parts[0]:
                cf = self.umask_fields(ev, by[n], depth + 1)
                f["umask"] |= cf["umask"]
                for k in ("edge", "any_", "inv"):
                    f[k] |= cf[k]
                f["cmask"] = max(f["cmask"], cf["cmask"])
            mods = parts[1]
            f["edge"] |= mods.get("e", 0)
            f["any_"] |= mods.get("t", 0)
            f["inv"] |= mods.get("i", 0)
            f["cmask"] = mods.get("c", f["cmask"])
            return f
        return ucode_fields(um.ucode)

    def is_offcore(self, ev):
        return ev.name.startswith("OFFCORE_RESPONSE") or (self.pmu == "icl" and ev.name == "OCR")

    def skipped(self, ev, um=None):
        """skl/icl strings these topics leave out (the unmapped list says why):
        FRONTEND_RETIRED's unit masks are MSR_PEBS_FRONTEND values and the
        load-latency unit masks need ldlat (no vectors for them yet)."""
        if self.pmu not in TSX_PMUS:
            return None
        if ev.name == "FRONTEND_RETIRED":
            return "MSR_PEBS_FRONTEND event: no vector yet"
        if ev.name == "MEM_TRANS_RETIRED" and (um is None or um.name in ("LOAD_LATENCY", "LATENCY_ABOVE_THRESHOLD")):
            return "load-latency unit mask (needs ldlat): no vector yet"
        return None

    # -- topics --
    def gen_events(self):
        for ev in self.events:
            s = "%s::%s" % (self.pmu, ev.name)
            if self.is_offcore(ev):
                continue  # offcore.enc covers the bare offcore events
            if self.skipped(ev):
                self.unmapped.append((s, self.skipped(ev)))
                continue
            if not ev.umasks:
                val, src = self.resolve(ev, [])
                if val is None:
                    self.unmapped.append((s, src))
                    continue
                self.add("events", s, "PFM_SUCCESS", [val], src)
                continue
            defaults = [u for u in ev.umasks if u.default]
            if self.pmu in TSX_PMUS and len(ev.umasks) == 1:
                defaults = ev.umasks  # the model's lone-unit-mask default (gen-models.py)
            if not defaults:
                self.add("events", s, "PFM_ERR_UMASK", None,
                         "doc: the event has no default unit mask, one is required; "
                         "class: libpfm4 convention (missing unit mask -> PFM_ERR_UMASK)")
                continue
            val, src = self.resolve(ev, defaults)
            if val is None:
                self.unmapped.append((s, "default %s: %s" % (":".join(u.name for u in defaults), src)))
                continue
            self.add("events", s, "PFM_SUCCESS", [val],
                     "%s (default unit mask %s per libpfm4 4.13 table)" % (src, ":".join(u.name for u in defaults)))

    def gen_umasks(self):
        for ev in self.events:
            if self.is_offcore(ev):
                continue
            for um in ev.umasks:
                if ev.name == "MEM_INST_RETIRED" and um.name == "LATENCY_ABOVE_THRESHOLD":
                    continue  # needs ldlat: modifiers.enc covers it
                s = "%s::%s:%s" % (self.pmu, ev.name, um.name)
                if self.skipped(ev, um):
                    self.unmapped.append((s, self.skipped(ev, um)))
                    continue
                val, src = self.resolve(ev, [um])
                if val is None:
                    self.unmapped.append((s, src))
                    continue
                self.add("umasks", s, "PFM_SUCCESS", [val], src)

    def ref_event(self):
        """The event modifier vectors are built on: INST_RETIRED:ANY_P (JSON-backed on every part)."""
        ev = self.by_name["INST_RETIRED"]
        um = next(u for u in ev.umasks if u.name == "ANY_P")
        val, src = self.resolve(ev, [um])
        assert val is not None, "INST_RETIRED:ANY_P has no JSON entry on " + self.pmu
        return ev, um, val & 0xFF, (val >> 8) & 0xFF, src

    def gen_modifiers(self):
        ev, um, code, umask, jsrc = self.ref_event()
        base = "%s::%s:%s" % (self.pmu, ev.name, um.name)
        T = "modifiers"

        def ok(mods, src_extra, fstr=True, intx=0, intxcp=0, **f):
            vals = dict(usr=1, os_=1, edge=0, any_=0, inv=0, cmask=0)
            vals.update(f)
            s = base + "".join(":" + m for m in mods)
            fs = self.fstr_for(ev.name, [um.name], k=vals["os_"], u=vals["usr"], e=vals["edge"],
                               i=vals["inv"], c=vals["cmask"], t=vals["any_"], intx=intx, intxcp=intxcp) if fstr else None
            val = evtsel(code, umask, **vals) | intx << IN_TX | intxcp << IN_TXCP
            self.add(T, s, "PFM_SUCCESS", [val], "%s + %s %s" % (jsrc, LAYOUT, src_extra), fs)

        def bad(mods, ret, why):
            self.add(T, base + "".join(":" + m for m in mods), ret, None, why)

        ok([], "(default privilege: u and k)")
        ok(["u"], "(u alone: USR only)", os_=0)
        ok(["k"], "(k alone: OS only)", usr=0)
        ok(["u", "k"], "(u and k)")
        ok(["k", "u"], "(modifiers in any order)")
        ok(["u=1"], "(boolean written =1)", os_=0)
        ok(["k=1"], "(boolean written =1)", usr=0)
        ok(["u=1", "k=1"], "(u=1 and k=1)")
        ok(["u=1", "k=0"], "(u=1 k=0)", os_=0)
        ok(["u=0", "k=1"], "(u=0 k=1)", usr=0)
        ok(["U"], "(modifier names are case-insensitive)", os_=0)
        ok(["i"], "(INV bit 23; the SDM ignores it while CMASK=0 but the bit is set)", inv=1)
        ok(["i=1"], "(INV bit 23)", inv=1)
        ok(["i=0"], "(i=0 leaves INV clear)")
        ok(["e=0"], "(e=0 leaves E clear)")
        ok(["c=0"], "(c range edge 0)")
        ok(["c=1"], "(CMASK bits 31:24)", cmask=1)
        ok(["c=2"], "(CMASK bits 31:24)", cmask=2)
        ok(["c=16"], "(CMASK bits 31:24)", cmask=16)
        ok(["c=255"], "(c range edge 255)", cmask=255)
        ok(["c=0x10"], "(0x-hex value)", cmask=16)
        ok(["c=0xff"], "(0x-hex value, range edge)", cmask=255)
        ok(["c=1", "i"], "(threshold inverted)", cmask=1, inv=1)
        ok(["c=1", "e"], "(edge with c>=1)", cmask=1, edge=1)
        ok(["e", "c=1"], "(edge with c>=1, any order)", cmask=1, edge=1)
        ok(["c=1", "e=1", "i=1"], "(c, e and i together)", cmask=1, edge=1, inv=1)
        ok(["c=255", "e", "i"], "(c=255 with e and i)", cmask=255, edge=1, inv=1)
        ok(["u", "c=3", "i"], "(u with c and i)", os_=0, cmask=3, inv=1)
        ok(["k", "e", "c=2"], "(k with e and c)", usr=0, cmask=2, edge=1)
        ok(["u", "u"], "(same modifier twice with the same value; class rule: only different values conflict)",
           fstr=False, os_=0)
        ok(["c=4", "c=4"], "(same value twice is not a conflict)", fstr=False, cmask=4)
        ok(["C=1"], "(modifier names are case-insensitive)", fstr=False, cmask=1)
        ok(["c=0X10"], "(0X-hex value)", fstr=False, cmask=16)
        ok(["u", "k", "u", "k"], "(repeats with equal values)", fstr=False)
        ok(["c=0", "c=0"], "(repeats with equal values)", fstr=False)
        lower = "%s::%s:%s" % (self.pmu, ev.name.lower(), um.name.lower())
        self.add(T, lower, "PFM_SUCCESS", [evtsel(code, umask)], "%s + %s (names are case-insensitive)" % (jsrc, LAYOUT))
        doc = "doc:libpfm_intel_%s.3" % ({"glm": "glm", "skl": "skl", "icl": "icl"}.get(self.pmu, "wsm"))
        if self.pmu in TSX_PMUS:
            tsx = "sdm:18.11.5.1 IN_TX bit 32, IN_TXCP bit 33; %s intx, intxcp" % doc
            ok(["intx"], "(IN_TX bit 32; %s)" % tsx, intx=1)
            ok(["intx=1"], "(IN_TX bit 32; %s)" % tsx, intx=1)
            ok(["intx=0"], "(intx=0 leaves IN_TX clear)")
            ok(["intxcp"], "(IN_TXCP bit 33; %s)" % tsx, intxcp=1)
            ok(["intxcp=1"], "(IN_TXCP bit 33; %s)" % tsx, intxcp=1)
            ok(["intx", "intxcp"], "(both TSX qualifiers; %s)" % tsx, intx=1, intxcp=1)
            ok(["u", "intx"], "(u with IN_TX)", intx=1, os_=0)
            bad(["intx=2"], "PFM_ERR_ATTR_VAL", "boolean modifier takes 0 or 1; class: libpfm4 convention")
            bad(["intxcp=2"], "PFM_ERR_ATTR_VAL", "boolean modifier takes 0 or 1; class: libpfm4 convention")
            bad(["intx=0", "intx=1"], "PFM_ERR_ATTR_SET",
                "modifier given twice with different values; class: libpfm4 convention")
        bad(["c=256"], "PFM_ERR_ATTR_VAL", "%s c range [0:255]; class: libpfm4 convention" % doc)
        bad(["c=0x100"], "PFM_ERR_ATTR_VAL", "%s c range [0:255]; class: libpfm4 convention" % doc)
        bad(["c=-1"], "PFM_ERR_ATTR_VAL", "%s c range [0:255]; class: libpfm4 convention" % doc)
        bad(["c=99999999999999999999999"], "PFM_ERR_ATTR_VAL", "%s c range [0:255] (overflowing number); class: libpfm4 convention" % doc)
        bad(["c"], "PFM_ERR_ATTR_VAL", "c needs a value; class: libpfm4 convention")
        bad(["c="], "PFM_ERR_ATTR_VAL", "c needs a value; class: libpfm4 convention")
        bad(["c=abc"], "PFM_ERR_ATTR_VAL", "c value not a number; class: libpfm4 convention")
        bad(["c=1x"], "PFM_ERR_ATTR_VAL", "c value with trailing garbage; class: libpfm4 convention")
        bad(["u=2"], "PFM_ERR_ATTR_VAL", "boolean modifier takes 0 or 1; class: libpfm4 convention")
        bad(["u=true"], "PFM_ERR_ATTR_VAL", "boolean modifier takes 0 or 1; class: libpfm4 convention")
        bad(["u="], "PFM_ERR_ATTR_VAL", "empty value; class: libpfm4 convention")
        bad(["i=2"], "PFM_ERR_ATTR_VAL", "boolean modifier takes 0 or 1; class: libpfm4 convention")
        bad(["u=0", "u=1"], "PFM_ERR_ATTR_SET", "modifier given twice with different values; class: libpfm4 convention")
        bad(["c=1", "c=2"], "PFM_ERR_ATTR_SET", "modifier given twice with different values; class: libpfm4 convention")
        bad(["i=1", "i=0"], "PFM_ERR_ATTR_SET", "modifier given twice with different values; class: libpfm4 convention")
        bad(["k", "k=0"], "PFM_ERR_ATTR_SET", "modifier given twice with different values; class: libpfm4 convention")
        edge_src = "%s: e must be combined with c>=1; class: libpfm4 convention (wsm/nhm reject it with PFM_ERR_ATTR)" % doc
        if self.pmu == "glm":
            edge_src += "; libpfm4 4.13 accepts it on glm (documented difference)"
        bad(["e"], "PFM_ERR_ATTR", edge_src)
        bad(["e=1"], "PFM_ERR_ATTR", edge_src)
        bad(["e", "c=0"], "PFM_ERR_ATTR", edge_src)
        bad(["e", "i"], "PFM_ERR_ATTR", edge_src)
        if self.ht:
            ok(["t"], "(ANY bit 21: both threads)", any_=1)
            ok(["t=1"], "(ANY bit 21)", any_=1)
            ok(["t=0"], "(t=0 leaves ANY clear)")
            ok(["t", "u", "c=1", "i", "e"], "(every modifier at once)", any_=1, os_=0, cmask=1, inv=1, edge=1)
            bad(["t=2"], "PFM_ERR_ATTR_VAL", "boolean modifier takes 0 or 1; class: libpfm4 convention")
            bad(["t=0", "t=1"], "PFM_ERR_ATTR_SET", "modifier given twice with different values; class: libpfm4 convention")
        else:
            for m in ("t", "t=1", "t=0"):
                if self.pmu == "icl":
                    bad([m], "PFM_ERR_ATTR", "doc:libpfm_intel_icl.3 AnyThread is deprecated on icl, t is not a "
                        "modifier of its events (only of the reference cycles); "
                        "class: libpfm4 convention (unknown modifier -> PFM_ERR_ATTR)")
                    continue
                bad([m], "PFM_ERR_ATTR", "doc:libpfm_intel_glm.3 no HyperThreading, t is not a glm modifier; "
                    "class: libpfm4 convention (unknown modifier -> PFM_ERR_ATTR)")
        bad(["ldlat=3"], "PFM_ERR_ATTR", "ldlat only on MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD "
            "(doc:libpfm_intel_wsm.3); class: libpfm4 convention (modifier the event lacks -> PFM_ERR_ATTR)")
        bad(["foo"], "PFM_ERR_ATTR", "unknown modifier; class: libpfm4 convention")
        bad(["foo=1"], "PFM_ERR_ATTR", "unknown modifier; class: libpfm4 convention")
        bad(["=1"], "PFM_ERR_ATTR", "modifier without a name; class: libpfm4 convention")

        # Fixed-only pseudo event: only privilege (and t) modifiers exist.
        if "UNHALTED_REFERENCE_CYCLES" in self.by_name:
            ev2 = self.by_name["UNHALTED_REFERENCE_CYCLES"]
            val, src = self.resolve(ev2, [])
            s = "%s::UNHALTED_REFERENCE_CYCLES" % self.pmu
            if val is not None:
                self.add(T, s + ":u", "PFM_SUCCESS", [val & ~(1 << OS)], src + " + " + LAYOUT + " (u alone)")
                self.add(T, s + ":k", "PFM_SUCCESS", [val & ~(1 << USR)], src + " + " + LAYOUT + " (k alone)")
            for m in ("c=1", "i", "e"):
                self.add(T, s + ":" + m, "PFM_ERR_ATTR", None,
                         "the fixed-counter pseudo event takes no %s modifier (libpfm4 4.13 table lists only "
                         "k, u%s); class: libpfm4 convention" % (m[0], ", t" if self.ht else ""))

        if "MEM_INST_RETIRED" in self.by_name and self.pmu not in ("glm",) + TSX_PMUS:
            self.gen_ldlat()
        if self.pmu in TSX_PMUS:
            self.gen_ldlat_trans()
            self.gen_frontend()

    def gen_ldlat_trans(self):
        """skl/icl MEM_TRANS_RETIRED:LOAD_LATENCY (CDH/01H) with MSR_PEBS_LD_LAT
        (0x3F6) = the threshold: Intel's MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N
        entries (MSRIndex 0x3F6, MSRValue N)."""
        T = "modifiers"
        fname = PMUS[self.pmu][1]
        thr = sorted((j.msr_value, j) for j in self.jevents if j.name.startswith("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_"))
        assert thr, "no MEM_TRANS_RETIRED.LOAD_LATENCY_GT_* on " + self.pmu
        base = "%s::MEM_TRANS_RETIRED:LOAD_LATENCY" % self.pmu
        layout = "sdm:18-39 MSR_PEBS_LD_LAT bits 15:0 = threshold (layout as in json:%s:%s)" % (fname, thr[0][1].name)

        def ok(mods, n, src, k=1, u=1):
            j = thr[0][1]
            val = evtsel(j.codes[0], j.umasks[0], usr=u, os_=k)
            self.add(T, base + "".join(":" + m for m in mods), "PFM_SUCCESS", [val, n], "%s + %s; codes[1] %s" % (
                j.src, LAYOUT, src), self.fstr_for("MEM_TRANS_RETIRED", ["LOAD_LATENCY"], k=k, u=u, ldlat=n))

        for n, j in thr:
            ok(["ldlat=%d" % n], n, j.src + " (MSR 0x3F6 = threshold)")
        ok(["ldlat=1"], 1, layout + "; doc:libpfm_intel_%s.3 range [1:65535] lower edge" % self.pmu)
        ok(["ldlat=65535"], 65535, layout + "; upper edge of the 16-bit field")
        ok(["ldlat=0x10"], 16, layout + "; 0x-hex value")
        ok(["ldlat=16", "u"], 16, layout + " (u alone)", k=0)
        rng = "doc:libpfm_intel_%s.3 ldlat range [1:65535] (16-bit MSR_PEBS_LD_LAT); class: libpfm4 convention" % self.pmu
        for v in ("0", "65536", "0x10000", "-1", "abc", ""):
            self.add(T, base + ":ldlat=" + v, "PFM_ERR_ATTR_VAL", None, rng)
        self.add(T, base + ":ldlat=3:ldlat=4", "PFM_ERR_ATTR_SET", None,
                 "ldlat given twice with different values; class: libpfm4 convention")
        self.add(T, "%s::INST_RETIRED:ANY_P:ldlat=16" % self.pmu, "PFM_ERR_ATTR", None,
                 "ldlat only on MEM_TRANS_RETIRED; class: libpfm4 convention (modifier the event lacks -> PFM_ERR_ATTR)")

    def gen_frontend(self):
        """FRONTEND_RETIRED (C6H/01H) with MSR_PEBS_FRONTEND (0x3F7): Intel's
        FRONTEND_RETIRED.* entries give the register value (MSRValue).  Its
        layout (SDM Table 18-59: EVTSEL 7:0, IDQ_Bubble_Length 19:8,
        IDQ_Bubble_Width 22:20) names the libpfm4 string: a unit mask of the
        entry's own name, or for the bubble mode (EVTSEL 06H) libpfm4's
        IDQ_<width>_BUBBLES with fe_thres=<length>."""
        T = "modifiers"
        ev = self.by_name.get("FRONTEND_RETIRED")
        if ev is None:
            return
        names = {u.name for u in ev.umasks}
        seen = set()
        for j in sorted((j for j in self.jevents if j.name.startswith("FRONTEND_RETIRED.")), key=lambda j: j.name):
            v = j.msr_value
            sub = j.name.split(".", 1)[1]
            length, width = (v >> 8) & 0xFFF, (v >> 20) & 0x7
            if sub in names:
                s, fe = "%s::FRONTEND_RETIRED:%s" % (self.pmu, sub), length
                fstr = self.fstr_for("FRONTEND_RETIRED", [sub], fe_thres=fe, has_t=False)
            elif (v & 0xFF) == 0x06 and 1 <= width <= 4:
                um = "IDQ_1_BUBBLE" if width == 1 else "IDQ_%d_BUBBLES" % width
                if um not in names:
                    continue
                s = "%s::FRONTEND_RETIRED:%s:fe_thres=%d" % (self.pmu, um, length)
                fstr = self.fstr_for("FRONTEND_RETIRED", [um], fe_thres=length, has_t=False)
            else:
                self.unmapped.append(("%s::FRONTEND_RETIRED (%s)" % (self.pmu, j.name), "no libpfm4 4.13 name"))
                continue
            if s in seen:
                continue
            seen.add(s)
            self.add(T, s, "PFM_SUCCESS", [evtsel(j.codes[0], j.umasks[0]), v],
                     "%s (MSR_PEBS_FRONTEND = MSRValue; sdm:Table 18-59 layout)" % j.src, fstr)
        lay = "derived: sdm:Table 18-59 MSR_PEBS_FRONTEND IDQ_Bubble_Width 22:20, IDQ_Bubble_Length 19:8, EVTSEL 06H"
        j0 = next(j for j in self.jevents if j.name.startswith("FRONTEND_RETIRED."))
        sel = evtsel(j0.codes[0], j0.umasks[0])
        if "IDQ_1_BUBBLE" in names:
            for n in (1, 4095):
                self.add(T, "%s::FRONTEND_RETIRED:IDQ_1_BUBBLE:fe_thres=%d" % (self.pmu, n), "PFM_SUCCESS",
                         [sel, 1 << 20 | n << 8 | 0x06], lay + " (fe_thres range edge; doc:libpfm_intel_%s.3 [1:4095])"
                         % self.pmu, self.fstr_for("FRONTEND_RETIRED", ["IDQ_1_BUBBLE"], fe_thres=n, has_t=False))
            self.add(T, "%s::FRONTEND_RETIRED:IDQ_1_BUBBLE" % self.pmu, "PFM_SUCCESS", [sel, 1 << 20 | 1 << 8 | 0x06],
                     lay + " (fe_thres default 1: doc:libpfm_intel_%s.3)" % self.pmu,
                     self.fstr_for("FRONTEND_RETIRED", ["IDQ_1_BUBBLE"], fe_thres=1, has_t=False))
            rng = "doc:libpfm_intel_%s.3 fe_thres range [1:4095] (12-bit IDQ_Bubble_Length); class: libpfm4 convention" \
                % self.pmu
            for v in ("0", "4096", "-1", "abc"):
                self.add(T, "%s::FRONTEND_RETIRED:IDQ_1_BUBBLE:fe_thres=%s" % (self.pmu, v), "PFM_ERR_ATTR_VAL", None, rng)
        if "DSB_MISS" in names and "IDQ_4_BUBBLES" in names:
            self.add(T, "%s::FRONTEND_RETIRED:DSB_MISS:IDQ_4_BUBBLES" % self.pmu, "PFM_ERR_FEATCOMB", None,
                     "MSR_PEBS_FRONTEND selects one sub-event (sdm:Table 18-59 EVTSEL); class: libpfm4 convention "
                     "(unit masks that cannot be combined -> PFM_ERR_FEATCOMB)")
        self.add(T, "%s::FRONTEND_RETIRED" % self.pmu, "PFM_ERR_UMASK", None,
                 "doc: the event has no default unit mask, one is required; class: libpfm4 convention")
        if "LATENCY_GE_8" in names:
            self.add(T, "%s::FRONTEND_RETIRED:LATENCY_GE_8:fe_thres=3" % self.pmu, "PFM_ERR_ATTR_SET", None,
                     "LATENCY_GE_8 carries its length 8 (json FRONTEND_RETIRED.LATENCY_GE_8 MSRValue); class: "
                     "libpfm4 convention (a value the unit mask sets -> PFM_ERR_ATTR_SET)")
        self.add(T, "%s::INST_RETIRED:ANY_P:fe_thres=2" % self.pmu, "PFM_ERR_ATTR", None,
                 "fe_thres only on FRONTEND_RETIRED; class: libpfm4 convention (modifier the event lacks -> PFM_ERR_ATTR)")

    def gen_ldlat(self):
        ev = self.by_name["MEM_INST_RETIRED"]
        um = next(u for u in ev.umasks if u.name == "LATENCY_ABOVE_THRESHOLD")
        val, src = self.resolve(ev, [um])
        assert val is not None
        base = "%s::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD" % self.pmu
        fname = PMUS[self.pmu][1]
        thr_json = {j.msr_value: j for j in self.jevents if j.name.startswith("MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_")}
        T = "modifiers"

        def ok(mods, n, extra=""):
            j = thr_json.get(n)
            jsrc = (j.src + " (MSR 0x3F6 = threshold)") if j else \
                "sdm:18-39 MSR_PEBS_LD_LAT bits 15:0 = threshold (layout as in json:%s:MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_16)" % fname
            self.add(T, base + "".join(":" + m for m in mods), "PFM_SUCCESS", [val, n],
                     "%s + %s; codes[1] %s%s" % (src, LAYOUT, jsrc, extra),
                     self.fstr_for("MEM_INST_RETIRED", ["LATENCY_ABOVE_THRESHOLD"], ldlat=n))

        ok(["ldlat=3"], 3, "; doc:libpfm_intel_wsm.3 range [3:65535] lower edge")
        ok(["ldlat=4"], 4)
        ok(["ldlat=16"], 16)
        ok(["ldlat=0x10"], 16, "; 0x-hex value")
        ok(["ldlat=1024"], 1024)
        ok(["ldlat=32768"], 32768)
        ok(["ldlat=65535"], 65535, "; doc:libpfm_intel_wsm.3 range [3:65535] upper edge")
        self.add(T, base + ":ldlat=16:u", "PFM_SUCCESS", [val & ~(1 << OS), 16],
                 "%s + %s (u alone); codes[1] = threshold (sdm:18-39)" % (src, LAYOUT),
                 self.fstr_for("MEM_INST_RETIRED", ["LATENCY_ABOVE_THRESHOLD"], k=0, ldlat=16))
        rng = "doc:libpfm_intel_wsm.3 ldlat range [3:65535]; sdm:18-39 smallest legal threshold 3"
        for v in ("2", "1", "0"):
            self.add(T, base + ":ldlat=" + v, "PFM_ERR_ATTR_VAL", None,
                     rng + "; class: libpfm4 convention" + ("; libpfm4 4.13 accepts it (documented difference)" if v != "0" else ""))
        for v in ("65536", "0x10000", "-1", "abc", ""):
            self.add(T, base + ":ldlat=" + v, "PFM_ERR_ATTR_VAL", None, rng + "; class: libpfm4 convention")
        self.add(T, base + ":ldlat=3:ldlat=4", "PFM_ERR_ATTR_SET", None,
                 "ldlat given twice with different values; class: libpfm4 convention")
        for other in ("LOADS", "STORES"):
            if any(u.name == other for u in ev.umasks):
                self.add(T, "%s::MEM_INST_RETIRED:%s:ldlat=16" % (self.pmu, other), "PFM_ERR_ATTR", None,
                         "doc:libpfm_intel_wsm.3 ldlat only with LATENCY_ABOVE_THRESHOLD; class: libpfm4 convention")
        self.add(T, "%s::INST_RETIRED:ANY_P:ldlat=16" % self.pmu, "PFM_ERR_ATTR", None,
                 "doc:libpfm_intel_wsm.3 ldlat only with LATENCY_ABOVE_THRESHOLD; class: libpfm4 convention")

    # -- offcore --
    def gen_offcore(self):
        if self.pmu == "skl":
            self.gen_offcore_skl()
            return
        if self.pmu == "icl":
            self.gen_offcore_icl()
            return
        if self.style == "glm":
            self.gen_offcore_glm()
        else:
            self.gen_offcore_nhm()

    def gen_offcore_skl(self):
        """Intel's OFFCORE_RESPONSE.* entries (MSRValue: SDM 18.13.2 request
        15:0, supplier 30:16, snoop 37:31) written with libpfm4's one-bit unit
        masks of the same bits; an entry with a bit libpfm4 4.13 has no unit
        mask for, or without snoop bits but with a supplier (libpfm4 would add
        SNP_ANY), has no libpfm4 string and is listed as unmapped."""
        T = "offcore"
        for ev in self.offcore_events():
            single = {}
            for u in ev.umasks:
                if not u.alias_parts() and u.ucode and not (u.ucode & (u.ucode - 1)) and u.ucode not in single:
                    single[u.ucode] = u.name
            code = ev.code & 0xFF
            n = 0
            for j in sorted((j for j in self.jevents if j.offcore and code in j.codes), key=lambda j: j.name):
                v = j.msr_value
                bits = [1 << b for b in range(64) if v >> b & 1]
                if not all(b in single for b in bits):
                    self.unmapped.append(("%s::%s (%s)" % (self.pmu, ev.name, j.name),
                                          "a bit of MSRValue 0x%x has no libpfm4 4.13 unit mask" % v))
                    continue
                if v & 0x7FFE0000 and not v >> 31:
                    self.unmapped.append(("%s::%s (%s)" % (self.pmu, ev.name, j.name),
                                          "supplier without snoop bits: libpfm4's string adds SNP_ANY"))
                    continue
                s = "%s::%s:%s" % (self.pmu, ev.name, ":".join(single[b] for b in bits))
                self.add(T, s, "PFM_SUCCESS", [evtsel(code, j.umasks[0]), v],
                         "%s (EventCode 0x%02x; MSR_OFFCORE_RSP = MSRValue, sdm:18.13.2 layout)" % (j.src, code))
                n += 1
            self.add(T, "%s::%s" % (self.pmu, ev.name), "PFM_SUCCESS", [evtsel(code, 0x01), 0x18007],
                     "derived: doc:libpfm_intel_skl.3 defaults ANY_REQUEST (DMND_DATA_RD|DMND_RFO|DMND_CODE_RD|"
                     "OTHER, bits 0-2, 15) and ANY_RESPONSE (bit 16) alone; sdm:18.13.2 layout")
            self.add(T, "%s::%s:DMND_DATA_RD:ANY_RESPONSE:SNP_HITM" % (self.pmu, ev.name), "PFM_ERR_FEATCOMB", None,
                     "doc:libpfm_intel_skl.3 ANY_RESPONSE excludes supplier and snoop unit masks; class: libpfm4 "
                     "convention (unit masks that cannot be combined -> PFM_ERR_FEATCOMB)")

    def gen_offcore_icl(self):
        """icl: libpfm4 4.13's OFFCORE_RESPONSE_0/1, and OCR (its alias of
        OFFCORE_RESPONSE_0), have one unit mask per Intel OCR.* entry, named
        after it (OCR.A.B.C is A_B_C), each a whole MSR_OFFCORE_RSP value.  The
        string with that unit mask: the entry's EventCode (0xB7 for _0 and
        OCR, 0xBB for _1) and UMask in the event select, its MSRValue in the
        offcore register (MSRIndex 0x1a6,0x1a7)."""
        T = "offcore"
        for ev in self.offcore_events():
            target = "OFFCORE_RESPONSE_0" if ev.name == "OCR" else ev.name
            code = 0xB7 if target.endswith("_0") else 0xBB
            names = {u.name for u in ev.umasks}
            first = None
            for j in sorted((j for j in self.jevents if j.offcore and code in j.codes), key=lambda j: j.name):
                uname = j.name.split(".", 1)[1].replace(".", "_")
                if uname not in names:
                    self.unmapped.append(("%s::%s (%s)" % (self.pmu, ev.name, j.name), "no libpfm4 4.13 unit mask %s" % uname))
                    continue
                first = first or (uname, j)
                self.add(T, "%s::%s:%s" % (self.pmu, ev.name, uname), "PFM_SUCCESS",
                         [evtsel(code, j.umasks[0]), j.msr_value],
                         "%s (EventCode 0x%02x UMask 0x%02x; MSR_OFFCORE_RSP = MSRValue 0x%x)"
                         % (j.src, code, j.umasks[0], j.msr_value),
                         fstr=None if ev.name == "OCR" else self.fstr_for(target, [uname]))
            if not first:
                continue
            uname, j = first
            # modifiers land in the event select alone (sdm:18.2.1.1 layout)
            self.add(T, "%s::%s:%s:u:c=2" % (self.pmu, ev.name, uname), "PFM_SUCCESS",
                     [evtsel(code, j.umasks[0], os_=0, cmask=2), j.msr_value],
                     "derived: %s; u clears OS (bit 17), c=2 in CMASK 31:24 (sdm:18.2.1.1 layout)" % j.src)
            other = next(u.name for u in ev.umasks if u.name != uname)
            self.add(T, "%s::%s" % (self.pmu, ev.name), "PFM_ERR_UMASK", None,
                     "libpfm4 4.13 (pfm-dump.json probe of the bare event): no unit mask is a default; class: "
                     "libpfm4 convention (a required unit mask missing -> PFM_ERR_UMASK)")
            self.add(T, "%s::%s:%s:%s" % (self.pmu, ev.name, uname, other), "PFM_ERR_FEATCOMB", None,
                     "libpfm4 4.13 (pfm-dump.json pair probes, every pair PFM_ERR_FEATCOMB): each unit mask is a "
                     "whole MSR value, one at a time; class: libpfm4 convention")

    def offcore_events(self):
        return [e for e in self.events if self.is_offcore(e)]

    # NHM/WSM: libpfm4 name -> Intel JSON name of the same single bit (by meaning:
    # SDM Table 18-26 and the JSON descriptions).  Values are then read from JSON.
    NHM_NAMES = {
        "DMND_DATA_RD": "DEMAND_DATA_RD", "DMND_RFO": "DEMAND_RFO", "DMND_IFETCH": "DEMAND_IFETCH",
        "WB": "COREWB", "PF_DATA_RD": "PF_DATA_RD", "PF_RFO": "PF_RFO", "PF_IFETCH": "PF_IFETCH",
        "OTHER": "OTHER",
        "UNCORE_HIT": "LLC_HIT_NO_OTHER_CORE", "OTHER_CORE_HIT_SNP": "LLC_HIT_OTHER_CORE_HIT",
        "OTHER_CORE_HITM": "LLC_HIT_OTHER_CORE_HITM", "REMOTE_CACHE_HITM": "REMOTE_CACHE_HITM",
        "REMOTE_CACHE_FWD": "REMOTE_CACHE_HIT", "LOCAL_DRAM": "LOCAL_DRAM", "REMOTE_DRAM": "REMOTE_DRAM",
        "NON_DRAM": "IO_CSR_MMIO", "LOCAL_DRAM_AND_REMOTE_CACHE_HIT": "LOCAL_DRAM_AND_REMOTE_CACHE_HIT",
        "OTHER_LLC_MISS": "OTHER_LOCAL_DRAM",
    }

    def nhm_json_parts(self):
        req, resp, combos = {}, {}, {}
        for j in self.jevents:
            if not j.offcore:
                continue
            _, r, s = j.name.split(".", 2)
            req.setdefault(r, j.msr_value & 0xFF)
            resp.setdefault(s, j.msr_value & 0xFF00)
            combos.setdefault(j.msr_value, j)
        return req, resp, combos

    def nhm_value(self, ev, um, req, resp):
        """(value, is_request, how) for one libpfm4 offcore umask, from JSON bit names."""
        names = um.alias_of() or [um.name]
        total, how = 0, []
        is_req = None
        for n in names:
            jn = self.NHM_NAMES.get(n)
            if jn is None:
                return None, None, "no Intel name known for %s" % n
            if jn in req and bin(req[jn]).count("1") == 1:
                v, r = req[jn], True
            elif jn in resp and bin(resp[jn]).count("1") == 1:
                v, r = resp[jn], False
            else:
                return None, None, "JSON has no single-bit %s" % jn
            if is_req is None:
                is_req = r
            elif is_req != r:
                return None, None, "mixes request and response bits"
            total |= v
            how.append(jn)
        return total, is_req, "+".join(how)

    def gen_offcore_nhm(self):
        req_j, resp_j, combos = self.nhm_json_parts()
        fname = PMUS[self.pmu][1]
        for ev in self.offcore_events():
            code = 0xB7 if ev.name.endswith("_0") else 0xBB
            c0 = evtsel(code, 0x01)
            base_src = "json:%s:OFFCORE_RESPONSE.* EventCode 0x%02X UMask 0x01 + %s" % (fname, code, LAYOUT)
            reqs, resps = [], []
            for um in ev.umasks:
                v, is_req, how = self.nhm_value(ev, um, req_j, resp_j)
                if v is None:
                    self.unmapped.append(("%s::%s:%s" % (self.pmu, ev.name, um.name), how))
                    continue
                (reqs if is_req else resps).append((um, v, how))
            dreq = [x for x in reqs if x[0].default]
            dresp = [x for x in resps if x[0].default]
            assert len(dreq) == 1 and len(dresp) == 1, ev.name
            dreq, dresp = dreq[0], dresp[0]

            def src_for(value, how):
                j = combos.get(value)
                jtxt = ("; value = %s MSRValue 0x%x" % (j.src, value)) if j else ""
                return "%s; codes[1] sdm:18-26 request 7:0 | response 15:8 from JSON bit names %s%s" % (
                    base_src, how, jtxt)

            s = "%s::%s" % (self.pmu, ev.name)
            val = dreq[1] | dresp[1]
            self.add("offcore", s, "PFM_SUCCESS", [c0, val],
                     src_for(val, "%s+%s (defaults %s:%s per libpfm4 4.13 table)" % (dreq[2], dresp[2], dreq[0].name, dresp[0].name)),
                     comment="%s: defaults, then every request alone, every response alone, every pair" % ev.name)
            for um, v, how in reqs:
                self.add("offcore", "%s:%s" % (s, um.name), "PFM_SUCCESS", [c0, v | dresp[1]],
                         src_for(v | dresp[1], "%s+%s (default response)" % (how, dresp[2])))
            for um, v, how in resps:
                self.add("offcore", "%s:%s" % (s, um.name), "PFM_SUCCESS", [c0, dreq[1] | v],
                         src_for(dreq[1] | v, "%s (default request)+%s" % (dreq[2], how)))
            for rq, rv, rh in reqs:
                for rs, sv, sh in resps:
                    self.add("offcore", "%s:%s:%s" % (s, rq.name, rs.name), "PFM_SUCCESS", [c0, rv | sv],
                             src_for(rv | sv, "%s+%s" % (rh, sh)))
            # two requests and two responses OR together
            if len(reqs) > 2 and len(resps) > 2:
                a, b = reqs[0], reqs[1]
                x, y = resps[0], resps[1]
                v = a[1] | b[1] | x[1] | y[1]
                self.add("offcore", "%s:%s:%s:%s:%s" % (s, a[0].name, b[0].name, x[0].name, y[0].name),
                         "PFM_SUCCESS", [c0, v], src_for(v, "%s+%s+%s+%s (umasks of a group OR together)" % (a[2], b[2], x[2], y[2])))
                self.add("offcore", "%s:%s:%s:%s" % (s, x[0].name, a[0].name, "u"), "PFM_SUCCESS",
                         [c0 & ~(1 << OS), a[1] | x[1]], src_for(a[1] | x[1], "%s+%s; u alone clears OS" % (x[2], a[2])))
                self.add("offcore", "%s:%s:%s:c=1:e" % (s, a[0].name, x[0].name), "PFM_SUCCESS",
                         [c0 | 1 << 24 | 1 << EDGE, a[1] | x[1]], src_for(a[1] | x[1], "%s+%s; c=1 e" % (a[2], x[2])))
            self.add("offcore", "%s:FOO" % s, "PFM_ERR_ATTR", None,
                     "unknown unit mask; class: libpfm4 convention (unknown name after the event -> PFM_ERR_ATTR)")
        if self.pmu in ("nhm", "nhm_ex"):
            self.add("offcore", "%s::OFFCORE_RESPONSE_1" % self.pmu, "PFM_ERR_NOTFOUND", None,
                     "semantics.md 4.1 (SDM 18-25): Nehalem has only MSR_OFFCORE_RSP_0, no OFFCORE_RESPONSE_1 event; "
                     "class: libpfm4 convention (unknown event -> PFM_ERR_NOTFOUND)")

    # GLM: libpfm4 name -> goldmont_matrix.json name (by meaning; SDM Tables 18-21/18-22).
    GLM_NAMES = {
        "DMND_DATA_RD": "DEMAND_DATA_RD", "DMND_RFO": "DEMAND_RFO", "DMND_CODE_RD": "DEMAND_CODE_RD",
        "WB": "COREWB", "PF_DATA_RD": "PF_L2_DATA_RD", "PF_RFO": "PF_L2_RFO", "PARTIAL_READS": "PARTIAL_READS",
        "PARTIAL_WRITES": "PARTIAL_WRITES", "UC_CODE_READS": "UC_CODE_RD", "BUS_LOCKS": "BUS_LOCKS",
        "FULL_STRM_ST": "FULL_STREAMING_STORES", "SW_PF": "SW_PREFETCH", "PF_L1_DATA_RD": "PF_L1_DATA_RD",
        "PARTIAL_STRM_ST": "PARTIAL_STREAMING_STORES", "STRM_ST": "STREAMING_STORES", "ANY_REQUEST": "ANY_REQUEST",
        "ANY_PF_DATA_RD": "ANY_PF_DATA_RD", "ANY_RFO": "ANY_RFO",
        "ANY_RESPONSE": "ANY_RESPONSE", "L2_HIT": "L2_HIT",
        "L2_MISS_SNP_MISS_OR_NO_SNOOP_NEEDED": "L2_MISS.SNOOP_MISS_OR_NO_SNOOP_NEEDED",
        "L2_MISS_HIT_OTHER_CORE_NO_FWD": "L2_MISS.HIT_OTHER_CORE_NO_FWD",
        "L2_MISS_HITM_OTHER_CORE": "L2_MISS.HITM_OTHER_CORE", "L2_MISS_SNP_NON_DRAM": "L2_MISS.NON_DRAM",
        "L2_MISS_SNP_ANY": "L2_MISS.ANY", "OUTSTANDING": "OUTSTANDING",
    }

    def gen_offcore_glm(self):
        mreq, mresp = {}, {}
        for m in self.matrix:
            v = int(m["MATRIX_VALUE"].strip(), 16)
            regs = m["MATRIX_REGISTER"].replace(" ", "").split(",")
            if m["MATRIX_RESPONSE"] == "Null":
                mreq[m["MATRIX_REQUEST"]] = (v, regs)
            else:
                mresp[m["MATRIX_RESPONSE"]] = (v << 16, regs)
        msrc = "json:goldmont_matrix.json"
        snoops = ["L2_MISS_SNP_MISS_OR_NO_SNOOP_NEEDED", "L2_MISS_HIT_OTHER_CORE_NO_FWD",
                  "L2_MISS_HITM_OTHER_CORE", "L2_MISS_SNP_NON_DRAM", "L2_MISS_SNP_ANY"]
        core = {j.msr_value: j for j in self.jevents if j.offcore}
        for ev in self.offcore_events():
            idx = 0 if ev.name.endswith("_0") else 1
            c0 = evtsel(0xB7, 0x01 << idx)
            base_src = "json:goldmont_core.json:OFFCORE_RESPONSE.* EventCode 0xB7 UMask 0x%02x + %s" % (1 << idx, LAYOUT)
            s = "%s::%s" % (self.pmu, ev.name)
            names = {u.name for u in ev.umasks}

            def val_of(n):
                mn = self.GLM_NAMES.get(n)
                if mn in mreq:
                    v, regs = mreq[mn]
                    return v, "req", str(idx) in regs, mn
                if mn in mresp:
                    v, regs = mresp[mn]
                    return v, "resp", str(idx) in regs, mn
                return None, None, False, mn

            def src_for(value, how):
                j = core.get(value)
                jtxt = "; = %s MSRValue" % j.src if j else ""
                return "%s; codes[1] = %s %s%s" % (base_src, msrc, how, jtxt)

            reqs = []
            for um in ev.umasks:
                v, kind, allowed, mn = val_of(um.name)
                if v is None:
                    self.unmapped.append(("%s:%s" % (s, um.name), "no goldmont_matrix.json name for it"))
                    continue
                if kind == "req":
                    if allowed:
                        reqs.append((um.name, v, mn))
                    else:
                        self.unmapped.append(("%s:%s" % (s, um.name), "matrix: not valid in register %d" % idx))
            any_req = mreq["ANY_REQUEST"][0]
            any_resp = mresp["ANY_RESPONSE"][0]
            l2hit = mresp["L2_HIT"][0]
            self.add("offcore", s, "PFM_SUCCESS", [c0, any_req | any_resp],
                     src_for(any_req | any_resp, "ANY_REQUEST|ANY_RESPONSE (defaults: doc:libpfm_intel_glm.3 "
                             "ANY_RESPONSE when no supplier/snoop; ANY_REQUEST per libpfm4 4.13 table)"),
                     comment="%s: defaults, each request (+default ANY_RESPONSE), request+L2_HIT, request+snoop" % ev.name)
            for rn, rv, mn in reqs:
                self.add("offcore", "%s:%s" % (s, rn), "PFM_SUCCESS", [c0, rv | any_resp],
                         src_for(rv | any_resp, "%s|ANY_RESPONSE (default response)" % mn))
                self.add("offcore", "%s:%s:ANY_RESPONSE" % (s, rn), "PFM_SUCCESS", [c0, rv | any_resp],
                         src_for(rv | any_resp, "%s|ANY_RESPONSE" % mn))
                self.add("offcore", "%s:%s:L2_HIT" % (s, rn), "PFM_SUCCESS", [c0, rv | l2hit],
                         src_for(rv | l2hit, "%s|L2_HIT (supplier only: sdm:18.7 p.670 response is one of "
                                 "[ANY or L2_HIT], snoop info, avg latency)" % mn))
                for sn in snoops:
                    if sn not in names:
                        continue
                    sv = mresp[self.GLM_NAMES[sn]][0]
                    self.add("offcore", "%s:%s:%s" % (s, rn, sn), "PFM_SUCCESS", [c0, rv | sv],
                             src_for(rv | sv, "%s|%s (snoop info only, no supplier bit as in the JSON L2_MISS.* "
                                     "events)" % (mn, self.GLM_NAMES[sn])))
            # several requests OR together
            if len(reqs) >= 3:
                a, b, c = reqs[0], reqs[1], reqs[2]
                v = a[1] | b[1] | c[1] | any_resp
                self.add("offcore", "%s:%s:%s:%s" % (s, a[0], b[0], c[0]), "PFM_SUCCESS", [c0, v],
                         src_for(v, "%s|%s|%s|ANY_RESPONSE (requests OR together)" % (a[2], b[2], c[2])))
                sv = mresp["L2_MISS.HITM_OTHER_CORE"][0] | mresp["L2_MISS.NON_DRAM"][0]
                v = a[1] | b[1] | sv
                self.add("offcore", "%s:%s:%s:L2_MISS_HITM_OTHER_CORE:L2_MISS_SNP_NON_DRAM" % (s, a[0], b[0]),
                         "PFM_SUCCESS", [c0, v], src_for(v, "%s|%s|L2_MISS.HITM_OTHER_CORE|L2_MISS.NON_DRAM" % (a[2], b[2])))
                v = a[1] | any_resp
                self.add("offcore", "%s:%s:k:c=2" % (s, a[0]), "PFM_SUCCESS", [c0 & ~(1 << USR) | 2 << 24, v],
                         src_for(v, "%s|ANY_RESPONSE; k alone clears USR, c=2" % a[2]))
            ov = mresp["OUTSTANDING"][0]
            if idx == 0:
                for rn, rv, mn in reqs[:6]:
                    self.add("offcore", "%s:%s:OUTSTANDING" % (s, rn), "PFM_SUCCESS", [c0, rv | ov],
                             src_for(rv | ov, "%s|OUTSTANDING (bit 38, RSP_0 only)" % mn))
                self.add("offcore", "%s:OUTSTANDING" % s, "PFM_SUCCESS", [c0, any_req | ov],
                         src_for(any_req | ov, "ANY_REQUEST (default request)|OUTSTANDING"))
                for other in ("ANY_RESPONSE", "L2_HIT", "L2_MISS_SNP_ANY", "L2_MISS_HITM_OTHER_CORE"):
                    self.add("offcore", "%s:DMND_DATA_RD:OUTSTANDING:%s" % (s, other), "PFM_ERR_FEATCOMB", None,
                             "doc:libpfm_intel_glm.3 OUTSTANDING must be set and no other response; sdm:18-22 "
                             "bits 37:16 must be 0; class: libpfm4 convention")
            else:
                self.add("offcore", "%s:DMND_DATA_RD:OUTSTANDING" % s, "PFM_ERR_ATTR", None,
                         "doc:libpfm_intel_glm.3 OUTSTANDING only for offcore_response_0 (matrix register 0); "
                         "class: libpfm4 convention (unit mask the event lacks -> PFM_ERR_ATTR)")
            self.add("offcore", "%s:FOO" % s, "PFM_ERR_ATTR", None,
                     "unknown unit mask; class: libpfm4 convention (unknown name after the event -> PFM_ERR_ATTR)")

    # -- invalid strings --
    def gen_invalid(self):
        p = self.pmu
        T = "invalid"
        NF = "class: libpfm4 convention (unknown PMU or event -> PFM_ERR_NOTFOUND)"
        AT = "class: libpfm4 convention (unknown unit mask or modifier -> PFM_ERR_ATTR)"
        IV = "class: libpfm4 convention (malformed string -> PFM_ERR_INVAL)"

        def bad(string, ret, why):
            if p == "icl" and string.startswith(b"icl::INST_RETIRED:c="):
                string = b"icl::INST_RETIRED:ANY_P:c=" + string[len(b"icl::INST_RETIRED:c="):]
            self.add(T, string, ret, None, why)

        ev_um = next(e for e in self.events if e.name == "INST_RETIRED")
        umx = "X87" if any(u.name == "X87" for u in ev_um.umasks) else "ANY_P"
        bad(b"", "PFM_ERR_NOTFOUND", "empty string; " + NF)
        bad(b"::", "PFM_ERR_NOTFOUND", "lone '::'; " + NF)
        bad(b":", "PFM_ERR_NOTFOUND", "lone ':'; " + NF)
        bad(b":::", "PFM_ERR_NOTFOUND", "only colons; " + NF)
        bad(b"%s::" % p.encode(), "PFM_ERR_NOTFOUND", "PMU without an event; " + NF)
        bad(b"::INST_RETIRED", "PFM_ERR_NOTFOUND", "empty PMU name; " + NF)
        bad(b"nosuchpmu::INST_RETIRED", "PFM_ERR_NOTFOUND", "unknown PMU; " + NF)
        bad(b"%s_x::INST_RETIRED" % p.encode(), "PFM_ERR_NOTFOUND", "unknown PMU (near miss); " + NF)
        bad(b"%s::NO_SUCH_EVENT" % p.encode(), "PFM_ERR_NOTFOUND", "unknown event; " + NF)
        bad(b"%s::INST_RETIRE" % p.encode(), "PFM_ERR_NOTFOUND", "unknown event (prefix of a real one); " + NF)
        bad(b"%s::INST_RETIRED_" % p.encode(), "PFM_ERR_NOTFOUND", "unknown event (real one plus '_'); " + NF)
        bad(b"%s::%%s" % p.encode(), "PFM_ERR_NOTFOUND", "format directive as event name; " + NF)
        bad(b"%s::%%s%%n%%x%%p" % p.encode(), "PFM_ERR_NOTFOUND", "format directives as event name; " + NF)
        bad(b"%%n%%n%%n%%n::INST_RETIRED", "PFM_ERR_NOTFOUND", "format directives as PMU name; " + NF)
        bad(b"%s::INST_RETIRED:%%s%%n" % p.encode(), "PFM_ERR_ATTR", "format directives as unit mask; " + AT)
        bad(b"%s::INST_RETIRED:c=%%d" % p.encode(), "PFM_ERR_ATTR_VAL", "format directive as value; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:NO_SUCH_UMASK" % p.encode(), "PFM_ERR_ATTR", "unknown unit mask; " + AT)
        bad(b"%s::INST_RETIRED:%s:NO_SUCH_UMASK" % (p.encode(), umx.encode()), "PFM_ERR_ATTR", "unknown unit mask after a good one; " + AT)
        bad(b"%s::INST_RETIRED:" % p.encode(), "PFM_ERR_ATTR", "trailing ':'; " + AT)
        bad(b"%s::INST_RETIRED:%s:" % (p.encode(), umx.encode()), "PFM_ERR_ATTR", "trailing ':' after a unit mask; " + AT)
        bad(b"%s::INST_RETIRED:%s:u:" % (p.encode(), umx.encode()), "PFM_ERR_ATTR", "trailing ':' after a modifier; " + AT)
        bad(b"%s::INST_RETIRED::" % p.encode(), "PFM_ERR_ATTR", "trailing '::'; " + AT)
        bad(b"%s::INST_RETIRED::%s" % (p.encode(), umx.encode()), "PFM_ERR_ATTR", "'::' between event and unit mask; " + AT)
        bad(b"%s::INST_RETIRED:%s::u" % (p.encode(), umx.encode()), "PFM_ERR_ATTR", "empty field between ':'s; " + AT)
        bad(b" %s::INST_RETIRED" % p.encode(), "PFM_ERR_INVAL", "leading blank; " + IV)
        bad(b"%s::INST_RETIRED " % p.encode(), "PFM_ERR_INVAL", "trailing blank; " + IV)
        bad(b"%s :: INST_RETIRED" % p.encode(), "PFM_ERR_INVAL", "blanks around '::'; " + IV)
        bad(b"%s::INST_RETIRED\t" % p.encode(), "PFM_ERR_INVAL", "trailing TAB; " + IV)
        bad(b"%s::INST_RETIRED:%s\r" % (p.encode(), umx.encode()), "PFM_ERR_ATTR",
            "trailing CR is part of the unit mask name (only blanks are malformed); " + AT)
        bad(b"%s::INST_RETIRED\r" % p.encode(), "PFM_ERR_NOTFOUND",
            "trailing CR is part of the event name; " + NF)
        bad(b"%s::INST_RETIRED:%s :u" % (p.encode(), umx.encode()), "PFM_ERR_INVAL", "blank inside; " + IV)
        # invalid UTF-8 and other raw bytes
        bad(b"\xff\xfe", "PFM_ERR_NOTFOUND", "invalid UTF-8 only; " + NF)
        bad(b"%s::\xc3\x28" % p.encode(), "PFM_ERR_NOTFOUND", "invalid UTF-8 event name; " + NF)
        bad(b"%s::INST_RETIRED\xc3\x28" % p.encode(), "PFM_ERR_NOTFOUND", "invalid UTF-8 glued to the event name; " + NF)
        bad(b"%s::INST_RETIRED:\xff\xfe" % p.encode(), "PFM_ERR_ATTR", "invalid UTF-8 unit mask; " + AT)
        bad(b"%s::INST_RETIRED:%s:\xe2\x82" % (p.encode(), umx.encode()), "PFM_ERR_ATTR", "truncated UTF-8 sequence as modifier; " + AT)
        bad(b"%s::INST_RETIRED:c=\xc0\xaf" % p.encode(), "PFM_ERR_ATTR_VAL", "overlong UTF-8 as a value; class: libpfm4 convention")
        bad(b"%s::\xe2\x80\x8bINST_RETIRED" % p.encode(), "PFM_ERR_NOTFOUND", "valid UTF-8 zero-width space before the event; " + NF)
        bad(b"%s::INST_RETIRED:\x01\x02\x1b[0m" % p.encode(), "PFM_ERR_ATTR", "control bytes and an escape sequence; " + AT)
        # long strings
        bad(b"%s::" % p.encode() + b"A" * 10240, "PFM_ERR_NOTFOUND", "10 kB event name; " + NF)
        bad(b"A" * 10240, "PFM_ERR_NOTFOUND", "10 kB string without '::'; " + NF)
        bad(b"%s::INST_RETIRED:" % p.encode() + b"u" * 10240, "PFM_ERR_ATTR", "10 kB modifier name; " + AT)
        bad(b"%s::INST_RETIRED:c=" % p.encode() + b"1" * 10240, "PFM_ERR_ATTR_VAL", "10 kB number; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:" % p.encode() + b"Z" * 10240, "PFM_ERR_ATTR", "10 kB unit mask name; " + AT)
        bad(b"x" * 200 + b"::INST_RETIRED", "PFM_ERR_NOTFOUND", "200-byte PMU name; " + NF)
        # repeated unit masks / modifiers
        rep = "class: libpfm4 convention (a unit mask given three or more times -> PFM_ERR_FEATCOMB)"
        crash = "; libpfm4 4.13 crashes (SIGSEGV) from 65 unit masks on (documented finding)"
        for n in (3, 10, 64):
            bad(b"%s::INST_RETIRED" % p.encode() + b":" + b":".join([umx.encode()] * n), "PFM_ERR_FEATCOMB",
                "unit mask %s repeated %d times; %s" % (umx, n, rep))
        # 65 or more attributes exceed libpfm4's limit of 64: for modifiers 4.13
        # answers PFM_ERR_TOOMANY ("too many parameters", checked with
        # check_events); for unit masks it overruns that limit and crashes, so
        # the class it would give without the crash is the same TOOMANY.
        lim = "class: libpfm4 convention (more than 64 attributes -> PFM_ERR_TOOMANY)"
        for n in (65, 100, 300, 1000):
            bad(b"%s::INST_RETIRED" % p.encode() + b":" + b":".join([umx.encode()] * n), "PFM_ERR_TOOMANY",
                "unit mask %s repeated %d times; %s%s" % (umx, n, lim, crash))
        tm = "class: libpfm4 convention (more than 64 modifiers -> PFM_ERR_TOOMANY)"
        for n in (65, 200, 1000):
            bad(b"%s::INST_RETIRED:%s" % (p.encode(), umx.encode()) + b":u" * n, "PFM_ERR_TOOMANY",
                "modifier u repeated %d times; %s" % (n, tm))
        bad(b"%s::INST_RETIRED:%s" % (p.encode(), umx.encode()) + b":c=1" * 100, "PFM_ERR_TOOMANY",
            "c=1 repeated 100 times; " + tm)
        # wrong shape
        bad(b"%s:INST_RETIRED" % p.encode(), "PFM_ERR_NOTFOUND", "single ':' after the PMU makes the PMU name an event; " + NF)
        bad(b"%s:::INST_RETIRED" % p.encode(), "PFM_ERR_NOTFOUND", "':::' after the PMU; " + NF)
        bad(b"%s::%s::INST_RETIRED" % (p.encode(), p.encode()), "PFM_ERR_NOTFOUND", "PMU given twice; " + NF)
        bad(b"INST_RETIRED::%s" % p.encode(), "PFM_ERR_NOTFOUND", "PMU and event swapped; " + NF)
        bad(b"%s::0xc0" % p.encode(), "PFM_ERR_NOTFOUND", "raw code as event name; " + NF)
        bad(b"%s::r5300c0" % p.encode(), "PFM_ERR_NOTFOUND", "perf raw syntax is not an event name; " + NF)
        bad(b"%s::INST_RETIRED:c=1=2" % p.encode(), "PFM_ERR_ATTR_VAL", "value with a second '='; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:c==1" % p.encode(), "PFM_ERR_ATTR_VAL", "'==' before a value; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:c= 1" % p.encode(), "PFM_ERR_INVAL", "blank inside a value; " + IV)
        bad(b"%s::INST_RETIRED:c=0x" % p.encode(), "PFM_ERR_ATTR_VAL", "'0x' without digits; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:c=0xg" % p.encode(), "PFM_ERR_ATTR_VAL", "bad hex digit; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:c=18446744073709551616" % p.encode(), "PFM_ERR_ATTR_VAL", "2^64 as a value; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:c=4294967296" % p.encode(), "PFM_ERR_ATTR_VAL", "2^32 (wraps to 0 in 32 bits); class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:c=4294967297" % p.encode(), "PFM_ERR_ATTR_VAL", "2^32+1 (wraps to 1 in 32 bits); class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:c=257" % p.encode(), "PFM_ERR_ATTR_VAL", "257 (wraps to 1 in 8 bits); class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:u=-0" % p.encode(), "PFM_ERR_ATTR_VAL", "signed boolean; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:u=01x" % p.encode(), "PFM_ERR_ATTR_VAL", "garbage after a boolean; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:uu" % p.encode(), "PFM_ERR_ATTR", "doubled modifier letter; " + AT)
        bad(b"%s::INST_RETIRED:kernel" % p.encode(), "PFM_ERR_ATTR", "long modifier spelling is not libpfm4's; " + AT)
        bad(b"%s::INST_RETIRED:cmask=1" % p.encode(), "PFM_ERR_ATTR", "perf's field name is not a modifier; " + AT)
        bad(b"%s::INST_RETIRED:anythread" % p.encode(), "PFM_ERR_ATTR", "perf's 'anythread' is not a modifier; " + AT)
        bad(b"%s::INST_RETIRED:p" % p.encode(), "PFM_ERR_ATTR", "precise modifier not offered by this PMU table; " + AT)
        bad(b"%s::INST_RETIRED:%s:ldlat" % (p.encode(), umx.encode()), "PFM_ERR_ATTR",
            "ldlat on an event without it; " + AT)
        bad(b"%s::INST_RETIRED:%s:c=1:c=2" % (p.encode(), umx.encode()), "PFM_ERR_ATTR_SET",
            "conflicting values; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:%s:u:u=0" % (p.encode(), umx.encode()), "PFM_ERR_ATTR_SET",
            "conflicting values; class: libpfm4 convention")
        bad(b"%s::INST_RETIRED:%s:e=1:e=0:c=1" % (p.encode(), umx.encode()), "PFM_ERR_ATTR_SET",
            "conflicting values; class: libpfm4 convention")
        VAL = "class: libpfm4 convention (malformed value -> PFM_ERR_ATTR_VAL)"
        SET = "class: libpfm4 convention (same modifier, different values -> PFM_ERR_ATTR_SET)"
        for v in ("0b1", "1e3", "0x1g", "1_000", "\xef\xbc\x91"):
            bad(b"%s::INST_RETIRED:c=" % p.encode() + v.encode("latin-1"), "PFM_ERR_ATTR_VAL", "value %r is not a number; %s" % (v, VAL))
        bad(b"%s::INST_RETIRED:u==1" % p.encode(), "PFM_ERR_ATTR_VAL", "'==' in a boolean; " + VAL)
        bad(b"%s::INST_RETIRED:u=1=1" % p.encode(), "PFM_ERR_ATTR_VAL", "second '=' in a boolean; " + VAL)
        bad(b"%s::INST_RETIRED:k=0x" % p.encode(), "PFM_ERR_ATTR_VAL", "'0x' without digits; " + VAL)
        bad(b"%s::INST_RETIRED:=" % p.encode(), "PFM_ERR_ATTR", "lone '='; " + AT)
        bad(b"%s::INST_RETIRED:c=1:" % p.encode(), "PFM_ERR_ATTR", "trailing ':' after a value; " + AT)
        bad(b"%s::INST_RETIRED:%s:u=1:k=1:e=0:i=0:c=0:extra" % (p.encode(), umx.encode()), "PFM_ERR_ATTR",
            "unknown word after a full modifier list; " + AT)
        bad(b'%s::"INST_RETIRED"' % p.encode(), "PFM_ERR_NOTFOUND", "quoted event name; " + NF)
        bad(b"%s::INST_RETIRED;u" % p.encode(), "PFM_ERR_NOTFOUND", "';' is not a separator; " + NF)
        bad(b"%s::INST_RETIRED/u" % p.encode(), "PFM_ERR_NOTFOUND", "'/' is not a separator; " + NF)
        bad(b"%s::INST_RETIRED,u" % p.encode(), "PFM_ERR_INVAL", "',' separates events, not modifiers; " + IV)
        bad(b"%s::INST_RETIRED,%s::INST_RETIRED" % (p.encode(), p.encode()), "PFM_ERR_INVAL", "two events in one string; " + IV)
        bad(b"%s::\\" % p.encode(), "PFM_ERR_NOTFOUND", "backslash as event name; " + NF)
        bad(b"%s::*" % p.encode(), "PFM_ERR_NOTFOUND", "glob as event name; " + NF)
        bad(b"%s::[A-Z]+" % p.encode(), "PFM_ERR_NOTFOUND", "regular expression as event name; " + NF)
        bad(b"%s::NO_SUCH_EVENT" % p.upper().encode(), "PFM_ERR_NOTFOUND", "upper-case PMU, unknown event; " + NF)
        bad(b"%s::UNHALTED_CORE_CYCLES:c=256" % p.encode(), "PFM_ERR_ATTR_VAL", "c out of range on an event without unit masks; " + VAL)
        bad(b"%s::UNHALTED_CORE_CYCLES:NO_SUCH" % p.encode(), "PFM_ERR_ATTR", "unit mask on an event without any; " + AT)
        bad(b"%s::INST_RETIRED:k=1:u=1:k=0" % p.encode(), "PFM_ERR_ATTR_SET", "k=1 then k=0; " + SET)
        bad(b"%s::INST_RETIRED:e=0:e=1:c=1" % p.encode(), "PFM_ERR_ATTR_SET", "e=0 then e=1; " + SET)
        bad(b"%s::INST_RETIRED:i:i=0" % p.encode(), "PFM_ERR_ATTR_SET", "i then i=0; " + SET)
        bad(b"%s::INST_RETIRED:c=1:c=256" % p.encode(), "PFM_ERR_ATTR_SET",
            "second value differs (and is out of range): libpfm4 reports the conflict; " + SET)
        bad(b"%s::INST_RETIRED:c=256:c=256" % p.encode(), "PFM_ERR_ATTR_VAL", "same out-of-range value twice; " + VAL)
        # an event that needs a unit mask, and umask exclusivity
        for ev in self.events:
            if ev.umasks and not any(u.default for u in ev.umasks) and not self.is_offcore(ev):
                bad(("%s::%s:u" % (p, ev.name)).encode(), "PFM_ERR_UMASK",
                    "no unit mask and no default, only a modifier; class: libpfm4 convention (missing unit mask -> PFM_ERR_UMASK)")
                bad(("%s::%s:c=1" % (p, ev.name)).encode(), "PFM_ERR_UMASK",
                    "no unit mask and no default, only a modifier; class: libpfm4 convention")
                break
        # unit mask of another event
        other = next((e for e in self.events if e.umasks and e.name != "INST_RETIRED" and not self.is_offcore(e)
                      and not any(u.name == e.umasks[0].name for u in ev_um.umasks)), None)
        if other:
            bad(("%s::INST_RETIRED:%s" % (p, other.umasks[0].name)).encode(), "PFM_ERR_ATTR",
                "unit mask of %s used on INST_RETIRED; %s" % (other.name, AT))
        # umask on an event without any
        noum = next((e for e in self.events if not e.umasks), None)
        if noum:
            bad(("%s::%s:%s" % (p, noum.name, umx)).encode(), "PFM_ERR_ATTR",
                "unit mask on an event that has none; " + AT)
        # other PMUs' syntax
        bad(b"%s::INST_RETIRED:%s:t=1:t=0" % (p.encode(), umx.encode()),
            "PFM_ERR_ATTR_SET" if self.ht else "PFM_ERR_ATTR",
            "t twice with different values" + ("; class: libpfm4 convention" if self.ht else
                                               "; t is not a glm modifier; " + AT))
        bad(b"%s::INST_RETIRED:%s:ldlat=3" % (p.encode(), umx.encode()), "PFM_ERR_ATTR",
            "ldlat on INST_RETIRED; " + AT)



def escape(data):
    """Bytes -> the body of a quoted vector string (docs/vectors-format.md)."""
    out = []
    for b in data:
        c = chr(b)
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif 0x20 <= b < 0x7F:
            out.append(c)
        else:
            out.append("\\x%02x" % b)
    return "".join(out)


def string_expr(data):
    """Quote bytes, writing long runs of one repeated chunk as N*"chunk"."""
    if isinstance(data, str):
        data = data.encode()
    if len(data) <= 160:
        return '"%s"' % escape(data)
    # find the chunk (1..16 bytes) whose repetition covers the most bytes
    best = None
    for size in range(1, 17):
        i = 0
        while i + size <= len(data):
            chunk = data[i:i + size]
            n = 1
            while data[i + n * size:i + (n + 1) * size] == chunk:
                n += 1
            if n >= 8 and (best is None or n * size > best[2] * best[1]):
                best = (i, size, n)
            i += max(1, n * size if n > 1 else 1)
    if best is None:
        return '"%s"' % escape(data)
    i, size, n = best
    parts = []
    if i:
        parts.append('"%s"' % escape(data[:i]))
    parts.append('%d*"%s"' % (n, escape(data[i:i + size])))
    rest = data[i + n * size:]
    if rest:
        parts.append(string_expr(rest))
    return " ".join(parts)


def vector_line(string, ret, codes, src, fstr=None):
    c = ",".join("0x%x" % v for v in codes) if codes else "-"
    f = " fstr %s" % string_expr(fstr) if fstr else ""
    src = re.sub(r"\s+", " ", src).strip()
    return "%s %s %s%s src %s" % (string_expr(string), ret, c, f, src)


HEADERS = {
    "events": "every event alone (its default unit masks, if any)",
    "umasks": "every unit mask of every non-offcore event",
    "modifiers": "every modifier, its range edges and combination rules",
    "offcore": "OFFCORE_RESPONSE_0/1: request/response (glm: supplier/snoop/outstanding) combinations",
    "invalid": "malformed and hostile strings with the error class libpfm4 uses for each kind of mistake",
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    ap.add_argument("--reference", default=data, help="the reference folder (default: scripts/data)")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--showevtinfo-dir", default=os.path.join(data, "libpfm4", "showevtinfo"),
                     help="saved showevtinfo output, <pmu>.txt (default: scripts/data/libpfm4/showevtinfo)")
    src.add_argument("--showevtinfo", metavar="PROGRAM", help="run libpfm4's showevtinfo instead")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors"))
    ap.add_argument("--report", action="store_true", help="print what could not be mapped")
    args = ap.parse_args()

    if args.showevtinfo:
        args.showevtinfo = showevtinfo_program(args.showevtinfo)
    with open(os.path.join(args.reference, "intel-perfmon", "GLM", "events", "goldmont_matrix.json")) as f:
        matrix = json.load(f)["Events"]
    written = []
    unmapped_all = []
    for pmu in PMUS:
        g = Gen(pmu, load_libpfm(args.showevtinfo, args.showevtinfo_dir, pmu), load_json(args.reference, pmu), matrix)
        g.gen_events()
        g.gen_umasks()
        g.gen_modifiers()
        g.gen_offcore()
        g.gen_invalid()
        os.makedirs(os.path.join(args.out, pmu), exist_ok=True)
        for topic, lines in g.files.items():
            rel = "%s/%s.enc" % (pmu, topic)
            with open(os.path.join(args.out, rel), "w") as f:
                f.write("# %s — %s.\n# Written by scripts/gen-vectors.py; format: docs/vectors-format.md.\n\n"
                        % (rel, HEADERS[topic]))
                f.write("\n".join(lines) + "\n")
            written.append(rel)
            n = sum(1 for l in lines if not l.startswith("#"))
            print("%-22s %5d vectors" % (rel, n))
        if args.report:
            for s, why in g.unmapped:
                print("  not mapped: %s — %s" % (s, why))
        unmapped_all.extend((pmu, s, why) for s, why in g.unmapped)
    # The names no vector covers, so the gap is visible in the tree.
    with open(os.path.join(args.out, "unmapped.txt"), "w") as f:
        f.write("# libpfm4 4.13 names without a golden vector: no Intel JSON entry (or matrix\n"
                "# bit) fixes their value, and vectors never take values from libpfm4.\n"
                "# Written by scripts/gen-vectors.py.\n")
        for pmu, s, why in unmapped_all:
            f.write("%s\t%s\n" % (s, why))
    with open(os.path.join(args.out, "vectors.gresource.xml"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                "<!-- Written by scripts/gen-vectors.py: every vector file, embedded in libpmusim. -->\n"
                '<gresources>\n  <gresource prefix="/org/pmusim/vectors">\n')
        for rel in written:
            f.write("    <file>%s</file>\n" % rel)
        # Encoding vectors of PMUs another generator writes (scripts/gen-uncore-vectors.py,
        # scripts/gen-nhmex-vectors.py, scripts/gen-montecito-vectors.py), then the raw
        # unit-mask vectors of scripts/gen-raw-vectors.py (<pmu>/raw.enc).
        others = sorted(os.path.relpath(p, args.out) for p in glob.glob(os.path.join(args.out, "*", "*.enc")))
        others = [rel for rel in others if rel not in written]
        for rel in [r for r in others if not r.endswith("/raw.enc")] + [r for r in others if r.endswith("/raw.enc")]:
            f.write("    <file>%s</file>\n" % rel)
        # Simulation vectors and their stimulus files (scripts/gen-sim-vectors.py
        # and hand-written ones) share the bundle.
        for rel in sorted(os.path.relpath(p, args.out) for ext in ("sim", "stim")
                          for p in glob.glob(os.path.join(args.out, "*", "*." + ext))):
            f.write("    <file>%s</file>\n" % rel)
        f.write("  </gresource>\n</gresources>\n")


if __name__ == "__main__":
    main()
