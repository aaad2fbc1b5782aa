#!/usr/bin/env python3
"""gen-amd-vectors.py — write the encoding vectors and the per-event
simulation vectors of amd64_fam17h_zen2 (family amd64, docs/amd64.md):

  vectors/amd64_fam17h_zen2/events.enc     every event alone
  vectors/amd64_fam17h_zen2/umasks.enc     every unit mask, and two together
  vectors/amd64_fam17h_zen2/modifiers.enc  k u e i c h g, their ranges and defaults
  vectors/amd64_fam17h_zen2/invalid.enc    mistakes, with libpfm4's error classes
  vectors/amd64_fam17h_zen2/events.sim     one simulation vector per event

Every expected PERF_CTL value is computed here from the documented bit layout
(AMD APM vol. 2 13.2; facts in docs/amd64.md) and AMD's event table
(scripts/data/amdzen2/events.tsv): event code bits 7:0 -> 7:0 and 11:8 ->
35:32, unit mask -> 15:8, USR 16, OS 17, Edge 18, INT 20, EN 22, Inv 23,
CntMask 31:24, GuestOnly 40, HostOnly 41; EN and INT set (libpfm4 4.13's
convention for the raw value it returns), USR and OS unless the string
names k, u or h (then exactly those), GuestOnly and HostOnly only when named.
Names and defaults are the model's naming rules (scripts/gen-amd-model.py's
build(), from the same facts); the encoder is never run.

The simulation vectors' expected counts follow docs/amd64.md's counting
rules (the pipeline of docs/semantics.md §3 with one thread, no global
control and no status), computed by the small implementation below.

usage: gen-amd-vectors.py [--reference DIR] [--out DIR]
"""
import argparse
import importlib.util
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
PMU = "amd64_fam17h_zen2"
WIDTH = 48

USR, OS, EDGE, INT, EN, INV = 1 << 16, 1 << 17, 1 << 18, 1 << 20, 1 << 22, 1 << 23
GO, HO = 1 << 40, 1 << 41
LAYOUT = ("PERF_CTL: event 7:0 + 35:32, umask 15:8, usr 16, os 17, edge 18, int 20, en 22, inv 23, "
          "cmask 31:24, guest_only 40, host_only 41; EN and INT set")


def load_builder():
    spec = importlib.util.spec_from_file_location("gen_amd_model", os.path.join(HERE, "gen-amd-model.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def ctl(code, umask, k=1, u=1, e=0, i=0, c=0, h=0, g=0):
    v = (code & 0xff) | ((code >> 8) << 32) | (umask << 8) | EN | INT
    v |= (USR if u else 0) | (OS if k else 0) | (EDGE if e else 0) | (INV if i else 0) | (c << 24)
    v |= (HO if h else 0) | (GO if g else 0)
    return v


def mods(k=1, u=1, e=0, i=0, c=0, h=0, g=0):
    return ":k=%d:u=%d:e=%d:i=%d:c=%d:h=%d:g=%d" % (k, u, e, i, c, h, g)


def vec(s, v, fstr, src):
    return '"%s" PFM_SUCCESS 0x%x fstr "%s" src %s' % (s, v, fstr, src)


def err(s, cls, src):
    return '"%s" %s - src %s' % (s, cls, src)


def default_of(e):
    d = [u for u in e["umasks"] if u[2]]
    return d[0] if d else None


def events_enc(evs):
    out = []
    for e in evs:
        s = "%s::%s" % (PMU, e["name"])
        if not e["umasks"]:
            out.append(vec(s, ctl(e["code"], 0), s + mods(),
                           "amd:%s code 0x%x, no unit mask; %s" % (e["amd"], e["code"], LAYOUT)))
            continue
        d = default_of(e)
        if d:
            out.append(vec(s, ctl(e["code"], d[1]), "%s:%s%s" % (s, d[0], mods()),
                           "amd:%s code 0x%x umask 0x%x (default unit mask %s per libpfm4 4.13); %s" %
                           (e["amd"], e["code"], d[1], d[0], LAYOUT)))
        else:
            out.append(err(s, "PFM_ERR_UMASK", "the event has unit masks and no default; class: libpfm4 convention "
                                               "(missing unit mask -> PFM_ERR_UMASK)"))
    return out


def umasks_enc(evs):
    out = []
    for e in evs:
        s0 = "%s::%s" % (PMU, e["name"])
        for un, val, dfl, ex, amd in e["umasks"]:
            src = ("amd:%s umask 0x%x" % (amd, val)) if amd else \
                ("libpfm4's name %s for AMD's unit masks 0x%x together" % (un, val))
            out.append(vec("%s:%s" % (s0, un), ctl(e["code"], val), "%s:%s%s" % (s0, un, mods()),
                           "%s, code 0x%x; %s" % (src, e["code"], LAYOUT)))
        # two unit masks together OR their values (neither excl)
        plain = [u for u in e["umasks"] if not u[3] and u[1]]
        if len(plain) >= 2:
            b, a = plain[-2], plain[-1]  # fstr lists them in the model's (libpfm4's) order: b first
            out.append(vec("%s:%s:%s" % (s0, a[0], b[0]), ctl(e["code"], a[1] | b[1]),
                           "%s:%s:%s%s" % (s0, b[0], a[0], mods()),
                           "unit masks %s (0x%x) and %s (0x%x) OR-ed: 0x%x; fstr in the table's order; %s" %
                           (a[0], a[1], b[0], b[1], a[1] | b[1], LAYOUT)))
        ex = [u for u in e["umasks"] if u[3]]
        others = [u for u in e["umasks"] if not u[3]]
        if ex and others:
            out.append(err("%s:%s:%s" % (s0, ex[0][0], others[0][0]), "PFM_ERR_FEATCOMB",
                           "%s cannot be combined with another unit mask (libpfm4 4.13's flag); class: libpfm4 "
                           "convention" % ex[0][0]))
    return out


def modifiers_enc(evs):
    by = {e["name"]: e for e in evs}
    ri = by["RETIRED_INSTRUCTIONS"]
    fu = by["RETIRED_FUSED_INSTRUCTIONS"]
    s = "%s::RETIRED_INSTRUCTIONS" % PMU
    c = ri["code"]
    rows = [
        ("", {}, "default privilege: k and u"),
        (":u", dict(k=0, u=1), "u alone: USR only"),
        (":k", dict(k=1, u=0), "k alone: OS only"),
        (":u:k", dict(k=1, u=1), "u and k"),
        (":k=0:u=0", dict(k=0, u=0), "k=0 u=0: no privilege level"),
        (":h", dict(k=0, u=0, h=1), "h is a privilege modifier as k and u are (libpfm4 4.13): h alone sets "
                                    "HostOnly and neither USR nor OS"),
        (":u:h", dict(k=0, u=1, h=1), "u and h: USR and HostOnly"),
        (":g", dict(g=1), "g is not a privilege modifier: k and u stay at their default, GuestOnly set"),
        (":h:g", dict(k=0, u=0, h=1, g=1), "h and g: HostOnly and GuestOnly (both: counts in both modes)"),
        (":k:g", dict(k=1, u=0, g=1), "k and g"),
        (":e", dict(e=1), "e: Edge (bit 18); no counter mask required on AMD (libpfm_amd64_fam17h_zen2(3) "
                          "states none)"),
        (":i", dict(i=1), "i: Inv (bit 23)"),
        (":c=1", dict(c=1), "c=1: CntMask 31:24 = 1"),
        (":c=3:i", dict(c=3, i=1), "c=3 and i"),
        (":c=255", dict(c=255), "c=255, the range top (8-bit CntMask)"),
        (":c=0", dict(c=0), "c=0: no counter mask"),
        (":e:c=2", dict(e=1, c=2), "e with c=2"),
        (":e=1:c=0", dict(e=1), "e=1 with c=0"),
        (":u:k:e:i:c=16:h:g", dict(k=1, u=1, e=1, i=1, c=16, h=1, g=1), "every modifier"),
    ]
    out = []
    for tail, kw, why in rows:
        fk = dict(k=1, u=1)
        fk.update(kw)
        out.append(vec(s + tail, ctl(c, 0, **fk), s + mods(**fk), "%s; %s" % (why, LAYOUT)))
    sf = "%s::RETIRED_FUSED_INSTRUCTIONS" % PMU
    out.append(vec(sf + ":u:h", ctl(fu["code"], 0, k=0, u=1, h=1), sf + mods(k=0, u=1, h=1),
                   "code 0x%x: 0xd0 in 7:0 and 0x1 in 35:32, with u and h; %s" % (fu["code"], LAYOUT)))
    out.append(err(s + ":c=256", "PFM_ERR_ATTR_VAL", "c range 0..255 (8-bit CntMask); class: libpfm4 convention"))
    out.append(err(s + ":t", "PFM_ERR_ATTR", "no t modifier on AMD (no AnyThread bit); class: libpfm4 convention"))
    out.append(err(s + ":ldlat=3", "PFM_ERR_ATTR", "no load-latency modifier on AMD; class: libpfm4 convention"))
    out.append(err(s + ":u=2", "PFM_ERR_ATTR_VAL", "a boolean takes 0 or 1; class: libpfm4 convention"))
    return out


def invalid_enc():
    p = PMU
    return [
        err(p + "::", "PFM_ERR_NOTFOUND", "PMU without an event; class: libpfm4 convention"),
        err(p + "::NOPE", "PFM_ERR_NOTFOUND", "no such event; class: libpfm4 convention"),
        err(p + "::RETIRED_INSTRUCTIONS:NOPE", "PFM_ERR_ATTR", "no such unit mask or modifier; class: libpfm4 "
                                                               "convention"),
        err(p + "::RETIRED_LOCK_INSTRUCTIONS", "PFM_ERR_UMASK", "unit masks, none of them the default; class: "
                                                                "libpfm4 convention"),
        err(p + "::RETIRED_INSTRUCTIONS:c=", "PFM_ERR_ATTR_VAL", "modifier without a value; class: libpfm4 "
                                                                 "convention"),
        err(p + "::RETIRED_BRANCH_MISPREDICTED_DIRECTION_MISMATCH", "PFM_ERR_NOTFOUND",
            "libpfm4 4.13's event 0x1c7 is not in AMD's Zen 2 table (docs/libpfm4-differences.md); class: libpfm4 "
            "convention"),
    ]


# ---- simulation vectors: one per event --------------------------------------

# (cycles, occurrences, cpl) per run; the own signal only.  Why: n > 1 so that
# c=0 differs from c=1; a run at CPL 0 and one at CPL 3 (usr/os); 16 and 200
# occurrences (cmask bits); idle runs (inv).
PATTERN = [(2, 2, 3), (1, 0, 3), (1, 3, 0), (2, 0, 0), (1, 16, 3), (2, 0, 3), (1, 200, 0), (1, 10, 3)]
NEIGH_RUN = 5  # the neighbours (other codes and unit masks, 16 each) go into this idle run


def count(pattern, usr=1, os_=1, cmask=0, inv=0, edge=0, preload=0):
    v, latch, wraps = preload, False, []
    cyc = 0
    for cycles, n, cpl in pattern:
        for _ in range(cycles):
            gate = (usr and cpl > 0) or (os_ and cpl == 0)
            cond = (n >= cmask if cmask else n > 0)
            if inv and cmask:
                cond = not cond
            if edge:
                inc = 1 if (cond and not latch) else 0
                latch = cond
            else:
                inc = (1 if cond else 0) if cmask else n
            inc = inc if gate else 0
            nv = v + inc
            if nv >> WIDTH:
                wraps.append(cyc)
            v = nv & ((1 << WIDTH) - 1)
            cyc += 1
    return v, wraps


def sig(code, umask):
    return "0x%x.0x%02x" % (code, umask)


def sim_vector(e, codes_in_model):
    name = e["name"]
    d = default_of(e)
    umask = d[1] if d else (e["umasks"][0][1] if e["umasks"] else 0)
    um_name = (d[0] if d else e["umasks"][0][0]) if e["umasks"] else None
    estr = "%s::%s%s" % (PMU, name, (":" + um_name) if um_name else "")
    # the own signal: the event code with the selected unit mask's bits; the
    # neighbours: every code one bit away (12 bits) and umask bits outside
    own = sig(e["code"], umask)
    neigh = []
    for b in range(12):
        c2 = e["code"] ^ (1 << b)
        neigh.append(sig(c2, umask))
    for b in range(8):
        if not (umask >> b) & 1:
            neigh.append(sig(e["code"], umask | (1 << b) if umask else 1 << b))
    preload = (1 << WIDTH) - 100
    v, wraps = count(PATTERN, preload=preload)
    lines = ["vector %s" % name.lower(), 'event 0 "%s"' % estr,
             "src derived: docs/amd64.md counting rules: k and u (USR, OS) count every CPL, HostOnly=GuestOnly=0 both "
             "modes (the last run is guest=1); no threshold, so each cycle adds its occurrences of %s (code 0x%x, "
             "umask 0x%02x);" % (own, e["code"], umask),
             "src PERF_CTR0 (0xc0010201) preloaded 2^48-100 takes %d in all and wraps at bit 47 in cycle %s "
             "(int set: a PMI there; no status register to read); the neighbours (codes one bit away in 12 bits, "
             "umask bits outside 0x%02x), 16 each in an idle run, are not counted: %d." %
             (sum(c * n for c, n, _ in PATTERN), ",".join(map(str, wraps)) or "none", umask, v),
             "write 0xc0010201 2^48-100"]
    for i, (cycles, n, cpl) in enumerate(PATTERN):
        # the last run in guest mode: a HostOnly (or GuestOnly) bit changes the count
        toks = ["run %d cpl=%d%s" % (cycles, cpl, " guest=1" if i == len(PATTERN) - 1 else "")]
        if n:
            toks.append("%s=%d" % (own, n))
        if i == NEIGH_RUN:
            toks += ["%s=16" % s for s in neigh]
        lines.append(" ".join(toks))
    lines.append("read 0xc0010201 %d" % v)
    lines.append("read 0xc0010004 %d" % v)
    if wraps:
        lines.append("expect-pmi %s" % " ".join(map(str, wraps)))
    lines.append("end")
    return "\n".join(lines) + "\n"


def write(path, header, lines):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(header)
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reference", default=os.path.join(HERE, "data"))
    ap.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "vectors"))
    a = ap.parse_args()
    g = load_builder()
    rows = g.load_tsv(os.path.join(a.reference, "amdzen2", "events.tsv"))
    with open(os.path.join(a.reference, "libpfm4", "pfm-dump-%s.json" % PMU), encoding="utf-8") as f:
        pfm = json.load(f)[PMU]
    evs = g.build(rows, pfm)
    d = os.path.join(a.out, PMU)
    os.makedirs(d, exist_ok=True)
    hdr = ("# %s/%%s — %%s\n# Written by scripts/gen-amd-vectors.py from AMD's table and the documented "
           "PERF_CTL layout (never the encoder); format: docs/vectors-format.md.\n\n" % PMU)
    write(os.path.join(d, "events.enc"), hdr % ("events.enc", "every event alone (its default unit mask, if any)."),
          events_enc(evs))
    write(os.path.join(d, "umasks.enc"), hdr % ("umasks.enc", "every unit mask, two together, exclusive ones."),
          umasks_enc(evs))
    write(os.path.join(d, "modifiers.enc"), hdr % ("modifiers.enc", "k u e i c h g, ranges and defaults."),
          modifiers_enc(evs))
    write(os.path.join(d, "invalid.enc"), hdr % ("invalid.enc", "mistakes, with libpfm4's error classes."),
          invalid_enc())
    codes = {e["code"] for e in evs}
    sims = [sim_vector(e, codes) for e in evs]
    with open(os.path.join(d, "events.sim.tmp"), "w", encoding="utf-8") as f:
        f.write("# %s/events.sim — one vector per event: its own signal counts, its neighbours do not.\n"
                "# Written by scripts/gen-amd-vectors.py; the expected values come from docs/amd64.md's rules,\n"
                "# computed by that script's own small implementation, never by the simulator.\n\n" % PMU)
        f.write("\n".join(sims))
    os.replace(os.path.join(d, "events.sim.tmp"), os.path.join(d, "events.sim"))


if __name__ == "__main__":
    main()
