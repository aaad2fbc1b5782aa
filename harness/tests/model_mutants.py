#!/usr/bin/env python3
"""Mutated models never crash a later command (issue 20, "Beyond the list").

    model_mutants.py PMUSIM SRCDIR [--show] [FILTER...]

Writes mutated copies of the built-in models (models/*.pmu): the numbers a
device, the program step or the encoder counts or indexes with set to
boundary values (0, the largest a fixed array holds, one more, huge), unit
instances and `instances` ranges beyond the boxes, layout fields narrowed or
widened (the LBR TOS against its ring), registers added or removed.  Each
mutant goes through `pmusim lint --model`.  One the loader refuses must be
refused with FILE:LINE; every other one (lint-clean, or loading with lint
problems) then goes through `sim` (one-line experiments on both engines, and
the LBR for a core model), `encode`, `explain` and `conform --kind encode`,
which may refuse it but must each end with 0, 1 or 2, never a signal, and
print no sanitizer report (`conform` reads the first vectors of each PMU's
events.enc and modifiers.enc: the encoder on the mutated model, in a
fraction of the full set's time).  Output: TAP, one line per mutant.  The
mutants are a fixed list (no randomness): a failure names the mutant, and
`--show` prints each command.  About 40 s in a normal build."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

# The models mutated, one of each family's devices and layouts (nhm, nhm_ex
# and wsm_dp share x86_core's checks and device with wsm and glm; wsm_unc is
# nhm_unc's family), and the event each PMU counts in the experiments.
EVENTS = {
    'glm': 'INST_RETIRED:ANY_P',
    'wsm': 'INST_RETIRED:ANY_P',
    'nhm_unc': 'UNC_LLC_MISS:ANY',
    'montecito': 'NOPS_RETIRED',
    'nhmex': 'LLC_MISSES:ALL',
}
# at most this many of a model's generic mutants (every n-th of the list);
# the targeted ones (boxes, LBR ring, TOS) always run
PER_MODEL = 45
CORE = {'glm', 'wsm'}

HUGE = ['0', '1', '4', '5', '8', '9', '63', '64', '65', '4294967296', '0xffffffffffffffff']
SANITIZER = re.compile(r'runtime error:|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer')
FILELINE = re.compile(r'\.pmu:\d+:')


def groups(text):
    """[(header, start, end)] of the file's groups, lines start..end-1."""
    lines = text.split('\n')
    out = []
    for i, l in enumerate(lines):
        if l.startswith('['):
            if out:
                out[-1][2] = i
            out.append([l.strip(), i, len(lines)])
    return lines, out


def set_key(lines, g, key, value):
    """A copy of lines with key in group g set to value (added when absent)."""
    new = list(lines)
    for i in range(g[1] + 1, g[2]):
        m = re.match(r'\s*([A-Za-z0-9_.]+)\s*=', new[i])
        if m and m.group(1) == key:
            new[i] = '%s = %s' % (key, value)
            return new
    new.insert(g[1] + 1, '%s = %s' % (key, value))
    return new


def first_group(gs, pred):
    for g in gs:
        if pred(g[0]):
            return g
    return None


def key_of(lines, g, key):
    for i in range(g[1] + 1, g[2]):
        m = re.match(r'\s*([A-Za-z0-9_.]+)\s*=\s*(.*)$', lines[i])
        if m and m.group(1) == key:
            return m.group(2).strip()
    return None


def mutants(name, text):
    """(label, text) pairs for one model file: the targeted ones, then every
    n-th of the generic ones (at most PER_MODEL)."""
    lines, gs = groups(text)
    must, gen = [], []
    pmu = gs[0]
    keys = ['gp_counters', 'gp_width', 'fixed_counters', 'fixed_width']
    if name == 'montecito':
        keys.append('counter_base')
    # the counts and widths a device sizes its arrays by (x86 core: 8 generic
    # and 4 fixed counters; the uncore 8; a counter of up to 63 bits)
    for k in keys:
        for v in HUGE:
            must.append(('[pmu] %s = %s' % (k, v), set_key(lines, pmu, k, v)))
    if name == 'nhmex':
        for v in ['cbox:0..8', 'cbox:0..7,100', 'cbox:1023', 'cbox:8', 'cbox:0']:
            must.append(('[pmu] instances = %s' % v, set_key(lines, pmu, 'instances', v)))
        # a C-Box's registers moved to another instance (and the list with
        # it, or not: a box no PMU stands for)
        for inst in ['8', '9', '10', '100', '1023']:
            new = list(lines)
            for g in gs:
                if g[0].startswith('[register C7_'):
                    new = set_key(new, g, 'instance', inst)
            must.append(('C-Box 7 as instance %s, listed' % inst, set_key(new, pmu, 'instances', 'cbox:0..6,' + inst)))
            must.append(('C-Box 7 as instance %s, unlisted' % inst, set_key(new, pmu, 'instances', 'cbox:0..6')))
        for unit, inst in [('sbox', '2'), ('ubox', '1'), ('sbox', '1023')]:
            for g in gs:
                if g[0].startswith('[register') and key_of(lines, g, 'unit') == unit:
                    must.append(('%s register %s at instance %s' % (unit, g[0], inst),
                                 set_key(lines, g, 'instance', inst)))
                    break
    # the first register of each kind: its index and width at the limits
    seen = set()
    for g in gs:
        if not g[0].startswith('[register'):
            continue
        kind = key_of(lines, g, 'kind')
        if kind in seen:
            continue
        seen.add(kind)
        for v in ['8', '16', '32', '33', '4294967295']:
            gen.append(('%s index = %s' % (g[0], v), set_key(lines, g, 'index', v)))
        for v in ['0', '1', '64', '65']:
            gen.append(('%s width = %s' % (g[0], v), set_key(lines, g, 'width', v)))
    # every field of every layout the narrowest and widest (the LBR's TOS
    # against its ring always)
    for g in gs:
        if not g[0].startswith('[layout'):
            continue
        for i in range(g[1] + 1, g[2]):
            m = re.match(r'\s*([a-z0-9_]+)\s*=', lines[i])
            if not m:
                continue
            tos = g[0] == '[layout lbr_tos]'
            for v in (['0', '1:0', '2:0', '3:0', '4:0', '63:0'] if tos else ['0', '63:0', '63']):
                (must if tos else gen).append(('%s %s = %s' % (g[0], m.group(1), v),
                                               set_key(lines, g, m.group(1), v)))
    # the first events: counters and fixed masks, codes past a byte
    n = 0
    for g in gs:
        if not g[0].startswith('[event') or n >= 3:
            continue
        n += 1
        for k, v in [('counters', '0'), ('counters', '0xffffffffffffffff'), ('fixed', '0xff'),
                     ('fixed', '0xffffffffffffffff'), ('code', '0x1ff'), ('code', '0xffffffffffffffff')]:
            gen.append(('%s %s = %s' % (g[0], k, v), set_key(lines, g, k, v)))
    # modifiers: ranges at the extremes
    for g in gs:
        if g[0].startswith('[modifier'):
            for v in ['0:0', '0:18446744073709551615']:
                gen.append(('%s range = %s' % (g[0], v), set_key(lines, g, 'range', v)))
    # LBR entries added up to and past the ring's limit (32), or one removed
    if name in CORE:
        froms = [g for g in gs if key_of(lines, g, 'kind') == 'lbr_from']
        tos = [g for g in gs if key_of(lines, g, 'kind') == 'lbr_to']
        if froms and tos:
            for total in [17, 32, 33, 64]:
                extra = []
                for i in range(len(froms), total):
                    for kind, g in (('lbr_from', froms[0]), ('lbr_to', tos[0])):
                        extra += ['', '[register X_%s_%d]' % (kind.upper(), i),
                                  'address = 0x%x' % (0x3000 + 2 * i + (kind == 'lbr_to')),
                                  'kind = %s' % kind, 'index = %d' % i,
                                  'layout = %s' % key_of(lines, g, 'layout')]
                must.append(('%d LBR entries' % total, lines + extra))
            for g, what in ((froms[0], 'FROM_IP 0'), (froms[-1], 'the last FROM_IP'), (tos[0], 'TO_IP 0')):
                must.append(('LBR without %s' % what, lines[:g[1]] + lines[g[2]:]))
    stride = max(1, -(-len(gen) // PER_MODEL))
    return [(label, '\n'.join(t)) for label, t in must + gen[::stride]]


def run(args, show):
    if show:
        print('# pmusim ' + ' '.join(args))
    try:
        p = subprocess.run([PMUSIM] + args, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return 'timed out: pmusim ' + ' '.join(args), None
    err = p.stderr.decode('utf-8', 'replace')
    if p.returncode < 0 or p.returncode not in (0, 1, 2):
        return 'exit %d: pmusim %s\n%s' % (p.returncode, ' '.join(args), err[-2000:]), p
    if SANITIZER.search(err):
        return 'sanitizer report: pmusim %s\n%s' % (' '.join(args), err[-2000:]), p
    return None, p


def pmus_of(name, text):
    if name != 'nhmex':
        return [name]
    m = re.search(r'^instances\s*=\s*cbox:(\S+)', text, re.M)
    insts = []
    for part in (m.group(1) if m else '').split(','):
        if '..' in part:
            a, b = part.split('..')
            if a.isdigit() and b.isdigit() and int(b) - int(a) < 64:
                insts += range(int(a), int(b) + 1)
        elif part.isdigit():
            insts.append(int(part))
    # the first, the last and a middle one
    pick = sorted(set(insts[:1] + insts[-1:] + insts[3:4]))
    return ['nhmex_cbox%d' % i for i in pick] or ['nhmex_cbox0']


def check(job):
    name, label, text, path, show = job
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    problem, p = run(['lint', '--model', path], show)
    if problem:
        return label, problem, 'error'
    what = 'clean'
    if p.returncode != 0:
        both = (p.stdout + p.stderr).decode('utf-8', 'replace')
        if not FILELINE.search(both):
            return label, 'lint refused without FILE:LINE:\n' + both[-1000:], 'error'
        if b'models checked' not in p.stdout:
            return label, None, 'refused'  # the loader refused it: no command can load it
        what = 'loaded'  # it loads, with lint problems: the commands may refuse it, never crash
    w = re.search(r'^gp_width\s*=\s*(\d+)', text, re.M)
    width = int(w.group(1)) if w else 48
    preload = hex((1 << min(width, 64)) - 1) if width else '0'
    for pmu in pmus_of(name, text):
        ev = '%s::%s' % (pmu, EVENTS[name])
        cmds = [['sim', '--model', path, '-e', ev, '--occurrences', '1,2', '--preload', preload],
                ['sim', '--model', path, '-e', ev, '--occurrences', '1,2,3', '--engine', 'fast'],
                ['encode', '--model', path, ev],
                ['explain', '--model', path, ev],
                ['conform', '--kind', 'encode', '--vectors', VECTORS, '--model', path, pmu]]
        if name in CORE:
            stim = path + '.stim'
            with open(stim, 'w') as f:
                f.write('pmu %s\nwrite IA32_DEBUGCTL 0x1\n' % pmu +
                        'run 1 branch=0x401000:0x401080:jcc branch=0x401100:0x400500:near_ret '
                        'branch=0x401200:0x402000:near_rel_call\nrun 1 branch=0x402010:0x402100:near_rel_jmp\n')
            cmds.append(['sim', '--model', path, '-e', ev, '--stim', stim, '--explain'])
        for c in cmds:
            problem, _ = run(c, show)
            if problem:
                return label, problem, 'error'
    return label, None, what


def small_vectors(src, tmp, pmus):
    """DIR/PMU/*.enc: the first vectors of each PMU's events.enc and
    modifiers.enc."""
    top = os.path.join(tmp, 'vectors')
    for pmu in pmus:
        os.makedirs(os.path.join(top, pmu))
        for fn in ('events.enc', 'modifiers.enc'):
            path = os.path.join(src, 'vectors', pmu, fn)
            if not os.path.exists(path):
                continue
            with open(path, encoding='utf-8') as f:
                vec = [l for l in f if l.startswith('"')][:25]
            with open(os.path.join(top, pmu, fn), 'w', encoding='utf-8') as f:
                f.writelines(vec)
    return top


def main():
    global PMUSIM, VECTORS
    argv = sys.argv[1:]
    show = '--show' in argv
    argv = [a for a in argv if a != '--show']
    PMUSIM, src = argv[0], argv[1]
    filters = argv[2:]
    jobs = []
    tmp = tempfile.mkdtemp(prefix='pmusim-mutants-')
    VECTORS = small_vectors(src, tmp, ['glm', 'wsm', 'nhm_unc', 'montecito'] +
                            ['nhmex_cbox%d' % i for i in range(8)])
    for name in sorted(EVENTS):
        with open(os.path.join(src, 'models', name + '.pmu'), encoding='utf-8') as f:
            text = f.read()
        for i, (label, mtext) in enumerate(mutants(name, text)):
            label = '%s: %s' % (name, label)
            if filters and not any(x in label for x in filters):
                continue
            jobs.append((name, label, mtext, os.path.join(tmp, '%s-%d.pmu' % (name, i)), show))
    print('1..%d' % len(jobs))
    counts = {'clean': 0, 'loaded': 0, 'refused': 0, 'error': 0}
    with ThreadPoolExecutor(max_workers=2) as ex:
        for n, (label, problem, what) in enumerate(ex.map(check, jobs), 1):
            counts[what] += 1
            if problem:
                print('not ok %d - %s' % (n, label))
                for l in problem.splitlines():
                    print('# ' + l)
            else:
                print('ok %d - %s (%s)' % (n, label, {'clean': 'lint-clean, every command ran',
                                                      'loaded': 'loads with lint problems, every command ran',
                                                      'refused': 'the loader refuses it, FILE:LINE'}[what]))
            sys.stdout.flush()
    print('# %d mutants: every command ran on %d lint-clean and %d loading with lint problems; '
          'the loader refused %d; %d failed' %
          (len(jobs), counts['clean'], counts['loaded'], counts['refused'], counts['error']))
    shutil.rmtree(tmp)
    return 1 if counts['error'] else 0


if __name__ == '__main__':
    sys.exit(main())
