#!/usr/bin/env python3
"""The inputs of scripts/bench-batch other than the repeated strings.

    bench-batch-inputs.py valid   OK N        > candidates
    bench-batch-inputs.py errors  OK NOUMASK N OUTDIR

OK: the strings both encoders answer PFM_SUCCESS (PMU::EVENT[:UMASK]), one a
line; NOUMASK: PMU::EVENT strings both answer PFM_ERR_UMASK (an event that
needs a unit mask, given none).

`valid` writes 3*N distinct candidates, each an OK string with modifiers
added (c=N, u, k, i varied), in a fixed pseudo-random order; bench-batch keeps
the first N that both encoders accept.

`errors` writes OUTDIR/CLASS (N distinct lines each) for every error class
and OUTDIR/mixed (N lines, the classes in turn).  Every line of every file is
distinct: a number is woven into the part that is wrong, so neither encoder
can answer from anything it remembered.
"""
import os
import random
import sys


def read(path):
    with open(path) as f:
        return [l.rstrip("\n") for l in f if l.strip()]


def split(s):
    """PMU, EVENT, the rest (':UMASK' or '')."""
    pmu, rest = s.split("::", 1)
    ev, _, um = rest.partition(":")
    return pmu, ev, (":" + um if um else "")


FLAGS = ["", ":u", ":k", ":i", ":u:i", ":k:i", ":u:k", ":i:u:k"]


def valid(ok, n):
    rng = random.Random(21)
    out, seen = [], set()
    i = 0
    # c=1..255 and eight flag sets per string: distinct until the product runs out
    while len(out) < 3 * n and i < len(ok) * 255 * len(FLAGS):
        s = ok[i % len(ok)]
        c = 1 + (i // len(ok)) % 255
        fl = FLAGS[(i // (len(ok) * 255) + i) % len(FLAGS)]
        line = "%s:c=%d%s" % (s, c, fl)
        if line not in seen:
            seen.add(line)
            out.append(line)
        i += 1
    rng.shuffle(out)
    return out


def errors(ok, noumask, n):
    """{class: [lines]}: the wrong part of each line carries its index."""
    core = [s for s in ok if "_unc::" not in s] or ok
    nu_core = [s for s in noumask if "_unc::" not in s] or noumask
    pick = lambda lst, i: lst[(i * 7919) % len(lst)]
    gens = {
        # a PMU name no model has
        "unknown-pmu": lambda i: "x%d%s" % (i, pick(ok, i)),
        # an event the PMU does not have
        "unknown-event": lambda i: "%s::%s_X%d%s" % (lambda p, e, u: (p, e, i, u))(*split(pick(ok, i))),
        # a unit mask the event does not have
        "unknown-umask": lambda i: "%s::%s:NOPE%d" % (*split(pick(ok, i))[:2], i),
        # an event that needs a unit mask, given none (modifiers vary it)
        "missing-umask": lambda i: "%s:c=%d%s" % (
            nu_core[i % len(nu_core)],
            1 + (i // len(nu_core)) % 255,
            FLAGS[(i // (len(nu_core) * 255)) % len(FLAGS)],
        ),
        # a modifier no PMU has
        "unknown-modifier": lambda i: "%s:zz%d=1" % (pick(ok, i), i),
        # a threshold out of range
        "bad-value": lambda i: "%s:c=%d" % (pick(core, i), 256 + i),
        # the same modifier twice with different values
        "modifier-twice": lambda i: "%s:c=%d:c=%d" % (pick(core, i), 1 + i % 255, 256 + i),
        # a byte the syntax does not have
        "malformed": lambda i: "%s %d" % (pick(ok, i), i),
    }
    return {name: [g(i) for i in range(n)] for name, g in gens.items()}


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "valid":
        sys.stdout.write("".join(l + "\n" for l in valid(read(sys.argv[2]), int(sys.argv[3]))))
    elif len(sys.argv) == 6 and sys.argv[1] == "errors":
        n = int(sys.argv[4])
        classes = errors(read(sys.argv[2]), read(sys.argv[3]), n)
        names = list(classes)
        for name, lines in classes.items():
            with open(os.path.join(sys.argv[5], name), "w") as f:
                f.write("".join(l + "\n" for l in lines))
        # mixed: the classes in turn, every line still distinct
        with open(os.path.join(sys.argv[5], "mixed"), "w") as f:
            for i in range(n):
                f.write(classes[names[i % len(names)]][i // len(names)] + "\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
