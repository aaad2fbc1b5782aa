#!/usr/bin/env python3
"""The malformed-input corpus (issue 10): run the built pmusim on every case
of cases.txt and check what it does with it.

    run.py PMUSIM FAKE_BACKEND [CASES_DIR] [--show] [FILTER...]

cases.txt, one case per line (blank lines and '#' comments ignored), fields
separated by ' | ':

    FORMAT | FILE | ARGS | EXIT | STDERR-REGEX | CHECKS | NOTE

FORMAT  the input format the case is about (model, stim, enc, sim, ranges,
        event, cli, batch, backend, expect); the summary counts per format.
FILE    the input, relative to this directory; '-' for none; 'gen:NAME' for
        one generate() writes at test time (too big to commit).
ARGS    pmusim's arguments, split like a shell line; '{}' is FILE's path,
        '{fake}' the fake backend, '{out}' a path in a fresh empty directory,
        '{dir}' this directory, '{vdir}' the folder two levels above FILE
        (a vector file's DIR for conform --vectors: DIR/wsm/FILE).  A word 'x:TEXT' is TEXT with \\xHH escapes
        decoded to bytes (argv may hold invalid UTF-8).
EXIT    the expected exit status (0, 1 or 2; never a signal).
STDERR-REGEX
        searched (Python re, MULTILINE) in stderr; '{}' is FILE's path
        escaped, so '{}:3:' asserts that the message names line 3; '-' checks
        nothing, '^$' asserts an empty stderr.
CHECKS  ';'-separated: 'stdin' (FILE is also stdin, else stdin is empty),
        'lines=N' (stdout has N lines), 'out~REGEX' (stdout matches),
        'noout~REGEX' (stdout does not match), 'nofiles' (the {out}
        directory is empty after the run: no partial output, no temporary
        file), 'errlines<=N' (at most N stderr lines), 'timeout=S' (default 60),
        '-' none.
NOTE    what the case is.

Every case also asserts that pmusim was not killed by a signal and that its
stderr holds no sanitizer report.  Output: TAP."""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def generate(name, path):
    """Write the generated input NAME to path."""
    def write(data):
        with open(path, 'wb') as f:
            f.write(data)

    mib = 1 << 20
    if name == 'million.stim':
        # 10^6 records: the parser and the fast engine take them in stride
        write(b'pmu wsm\n' + b'run 1 INST_RETIRED.ANY_P=1\n' * 1000000 + b'read IA32_PMC0 1000000\n')
    elif name == 'million-bad-last.stim':
        # the same with a bad record after them: the message names line 1000002
        write(b'pmu wsm\n' + b'run 1 INST_RETIRED.ANY_P=1\n' * 1000000 + b'run 1 NOPE=1\n')
    elif name == 'million-out-of-order.stim':
        write(b'pmu wsm\n' + b'run 1 INST_RETIRED.ANY_P=1\n' * 1000000 + b'@5 run 1\n')
    elif name == 'mib-token.stim':
        write(b'pmu wsm\nrun 1 INST_RETIRED.ANY_P=1\nrun 1 ' + b'A' * mib + b'=1\n')
    elif name == 'mib-comment.stim':
        write(b'pmu wsm\n#' + b'x' * mib + b'\nrun 1 INST_RETIRED.ANY_P=1\nread IA32_PMC0 1\n')
    elif name == 'line-16mib-plus.stim':
        # a comment line one byte longer than a stimulus line holds
        write(b'pmu wsm\nrun 1 INST_RETIRED.ANY_P=1\n#' + b'x' * (16 * mib) + b'\nread IA32_PMC0 1\n')
    elif name == 'line-16mib.stim':
        write(b'pmu wsm\nrun 1 INST_RETIRED.ANY_P=1\n#' + b'x' * (16 * mib - 1) + b'\nread IA32_PMC0 1\n')
    elif name == 'sparse-270m.stim':
        # 270 MB on disk in name only: a hole (the size check comes first)
        with open(path, 'wb') as f:
            f.truncate(270 * mib)
    elif name == 'mib-number.stim':
        write(b'pmu wsm\nrun ' + b'9' * mib + b' INST_RETIRED.ANY_P=1\n')
    elif name == 'mib-desc.pmu':
        with open(os.path.join(HERE, 'model', 'base.pmu'), 'rb') as f:
            base = f.read()
        write(base.replace(b'desc = Intel Westmere', b'desc = ' + b'W' * mib, 1))
    elif name == 'mib-group.pmu':
        with open(os.path.join(HERE, 'model', 'base.pmu'), 'rb') as f:
            base = f.read()
        write(base + b'\n[event ' + b'E' * mib + b']\ncode = 0x1\n')
    elif name == 'mib-key.pmu':
        with open(os.path.join(HERE, 'model', 'base.pmu'), 'rb') as f:
            base = f.read()
        write(base + b'\n[event BIG]\ncode = 0x1\numask.' + b'U' * mib + b' = 0x1\n')
    elif name == 'mib-string.enc':
        write(b'"wsm::' + b'A' * (mib - 5) + b'" PFM_ERR_NOTFOUND - src a literal line of a 1 MiB string\n')
    elif name == 'mib-over.enc':
        # 1 MiB + 1 byte of expanded string: over the documented limit
        write(b'"wsm::INST_RETIRED" PFM_SUCCESS 0x5300c0 src ok\n'
              b'"' + b'A' * (mib + 1) + b'" PFM_ERR_NOTFOUND - src one byte too many\n')
    elif name == 'mib-src.sim':
        write(b'vector big\nevent 0 "wsm::INST_RETIRED:ANY_P"\nsrc ' + b's' * mib +
              b'\nrun 1 INST_RETIRED.ANY_P=1\nread IA32_PMC0 1\nend\n')
    elif name == 'mib-line.batch':
        write(b'wsm::INST_RETIRED:ANY_P\n' + b'wsm::' + b'A' * mib + b'\nwsm::INST_RETIRED:ANY_P\n')
    elif name == 'cap-lines.batch':
        # a request line of exactly 16 MiB (encoded) and one of 16 MiB + 1
        # byte (over the cap: PFM_ERR_INVAL, echoed whole)
        write(b'wsm::INST_RETIRED:ANY_P\n' + b'wsm::' + b'A' * (16 * mib - 5) + b'\n' +
              b'wsm::' + b'B' * (16 * mib - 4) + b'\nwsm::INST_RETIRED:ANY_P\n')
    elif name == 'million.batch':
        write(b'wsm::INST_RETIRED:ANY_P\nbogus\n' * 50000)
    elif name == 'mib-line.expect':
        write(b'wsm/events.enc "' + b'A' * mib + b'" a long reason\n')
    elif name == 'mib-ranges':
        write(b'x' * mib)
    else:
        raise SystemExit('run.py: unknown generated input ' + name)


def parse_cases(path):
    cases = []
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            parts = [p.strip() for p in line.split(' | ')]
            if len(parts) != 7:
                raise SystemExit('%s:%d: expected 7 fields separated by " | ", got %d' % (path, lineno, len(parts)))
            fmt, file, args, status, regex, checks, note = parts
            cases.append(dict(line=lineno, fmt=fmt, file=file, args=args, exit=int(status), regex=regex,
                              checks=[] if checks == '-' else [c.strip() for c in checks.split(';')],
                              note=note))
    return cases


def unescape(word):
    if not word.startswith('x:'):
        return os.fsencode(word)
    return word[2:].encode('latin-1').decode('unicode_escape').encode('latin-1')


SANITIZER = re.compile(rb'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:')


def run_case(c, pmusim, fake, gendir, show):
    problems = []
    file = c['file']
    path = None
    if file.startswith('gen:'):
        name = file[4:]
        # vector files go in a folder laid out as conform --vectors reads it
        sub = os.path.join(name + '.d', 'wsm') if name.endswith(('.enc', '.sim')) else ''
        os.makedirs(os.path.join(gendir, sub), exist_ok=True)
        path = os.path.join(gendir, sub, name)
        if not os.path.exists(path):
            generate(name, path)
    elif file != '-':
        path = os.path.join(HERE, file)
        if not os.path.exists(path):
            return ['no such case file ' + file]
    outdir = tempfile.mkdtemp(prefix='malformed-out-')
    try:
        words = []
        for w in shlex.split(c['args']):
            w = (w.replace('{}', path or '').replace('{fake}', fake)
                  .replace('{out}', os.path.join(outdir, 'out')).replace('{dir}', HERE)
                  .replace('{vdir}', os.path.dirname(os.path.dirname(path or '')) if path else ''))
            words.append(unescape(w))
        stdin = b''
        timeout = 60
        for chk in c['checks']:
            if chk == 'stdin':
                with open(path, 'rb') as f:
                    stdin = f.read()
            elif chk.startswith('timeout='):
                timeout = float(chk[8:])
        try:
            p = subprocess.run([pmusim] + words, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=timeout, cwd=outdir)
        except subprocess.TimeoutExpired:
            return ['timed out after %g s' % timeout]
        out, err = p.stdout, p.stderr
        # coverage builds may add gcov noise; it is not pmusim's
        err = b'\n'.join(l for l in err.split(b'\n') if not l.startswith(b'profiling:'))
        errs = err.decode('utf-8', 'replace')
        outs = out.decode('utf-8', 'replace')
        if show:
            print('# --- %s:%d %s' % ('cases.txt', c['line'], c['note']))
            print('#   exit %d' % p.returncode)
            for l in errs.splitlines()[:6]:
                print('#   err: ' + l[:300])
            for l in outs.splitlines()[:4]:
                print('#   out: ' + l[:300])
        if p.returncode < 0:
            problems.append('killed by signal %d' % -p.returncode)
        elif p.returncode != c['exit']:
            problems.append('exit status %d, expected %d' % (p.returncode, c['exit']))
        if SANITIZER.search(err):
            problems.append('sanitizer report on stderr')
        if c['regex'] != '-':
            rx = c['regex'].replace('{}', re.escape(path or ''))
            if not re.search(rx, errs, re.MULTILINE):
                problems.append('stderr does not match /%s/' % rx)
        for chk in c['checks']:
            if chk.startswith('lines='):
                n = outs.count('\n')
                if n != int(chk[6:]):
                    problems.append('stdout has %d lines, expected %s' % (n, chk[6:]))
            elif chk.startswith('out~'):
                rx = chk[4:].replace('{}', re.escape(path or ''))
                if not re.search(rx, outs, re.MULTILINE):
                    problems.append('stdout does not match /%s/' % rx)
            elif chk.startswith('noout~'):
                if re.search(chk[6:], outs, re.MULTILINE):
                    problems.append('stdout matches /%s/' % chk[6:])
            elif chk.startswith('errlines<='):
                if errs.count('\n') > int(chk[10:]):
                    problems.append('%d stderr lines, expected at most %s' % (errs.count('\n'), chk[10:]))
            elif chk == 'nofiles':
                left = os.listdir(outdir)
                if left:
                    problems.append('files left behind: ' + ', '.join(sorted(left)))
            elif chk in ('stdin',) or chk.startswith('timeout='):
                pass
            else:
                problems.append('unknown check ' + chk)
        if problems:
            problems.append('stderr: ' + errs[:600].replace('\n', '\n#   '))
    finally:
        shutil.rmtree(outdir, ignore_errors=True)
    return problems


def main():
    args = sys.argv[1:]
    show = '--show' in args
    args = [a for a in args if a != '--show']
    if len(args) < 2:
        raise SystemExit(__doc__)
    pmusim, fake = os.path.abspath(args[0]), os.path.abspath(args[1])
    rest = args[2:]
    filters = [a for a in rest if not os.path.isdir(a)]
    cases = parse_cases(os.path.join(HERE, 'cases.txt'))
    if filters:
        cases = [c for c in cases if any(f in c['note'] or f == c['fmt'] or f in c['file'] for f in filters)]
    gendir = tempfile.mkdtemp(prefix='malformed-gen-')
    per_fmt = {}
    failed = 0
    try:
        print('1..%d' % len(cases))
        for i, c in enumerate(cases, 1):
            problems = run_case(c, pmusim, fake, gendir, show)
            per_fmt[c['fmt']] = per_fmt.get(c['fmt'], 0) + 1
            name = 'cases.txt:%d %s: %s' % (c['line'], c['fmt'], c['note'])
            if problems:
                failed += 1
                print('not ok %d - %s' % (i, name))
                for p in problems:
                    print('#   ' + p)
            else:
                print('ok %d - %s' % (i, name))
            sys.stdout.flush()
    finally:
        shutil.rmtree(gendir, ignore_errors=True)
    print('# cases per format: ' + ', '.join('%s %d' % kv for kv in sorted(per_fmt.items())))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
