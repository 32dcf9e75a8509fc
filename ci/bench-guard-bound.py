#!/usr/bin/env python3
"""The guard request bound, measured (docs/contract.md GUARD-15, GUARD-16).

Usage: ci/bench-guard-bound.py [--runs N] [--markdown FILE] [--bin DIR]

Runs the built adapter (DIR, default build/bin) at the default 50 ms guard budget against
pinta-fake-server guards that deny everything — plain, and behind Express json()'s 100 kB body
limit — on every family's gate event, N times (default 10) for each of the inputs whose request
size the model chooses: a 1 MB and a 10 MB argument, 100,000 argument names, 100,000 names of
control characters (six bytes each once escaped), and 4,096 names of 1,000 bytes. Prints, per
input, the deny rate (target: every run denied) and the largest guard request any run produced
(target: <= 65,536 bytes, the default bound), then the verdict rows. A MISS is reported, never
fatal: the exit status is non-zero only when something could not run at all.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOUND = 65536

def read_families():
    """Each registered family (hosts/include/pinta/hosts/families.def): its --agent label (the
    family's name), its gate event (the first event of its deny golden,
    fixtures/golden/deny/<folder>/default.txt) and a captured gate payload (its newest fixture
    version's first y_captured_ file, else its first y_ file) whose tool call the inputs replace.
    A family without a deny golden or a gate fixture is left out, and said so."""
    import re
    text = open(os.path.join(ROOT, 'hosts/include/pinta/hosts/families.def'), encoding='utf-8').read()
    out, missing = [], []
    for _, folder, name in re.findall(r'^PINTA_FAMILY\((\w+),\s*(\w+),\s*"([^"]+)"\)', text, re.M):
        golden = os.path.join(ROOT, 'fixtures/golden/deny', folder, 'default.txt')
        event = None
        if os.path.exists(golden):
            for line in open(golden, encoding='utf-8'):
                if line.strip() and not line.startswith('#'):
                    event = line.split(' ', 1)[0]
                    break
        base = os.path.join(ROOT, 'fixtures', folder)
        versions = sorted((v for v in os.listdir(base) if os.path.isdir(os.path.join(base, v))),
                          key=lambda v: [int(x) if x.isdigit() else x for x in re.split(r'(\d+)', v)]) \
            if os.path.isdir(base) else []
        payload = None
        if event and versions:
            d = os.path.join(base, versions[-1], event)
            files = sorted(os.listdir(d)) if os.path.isdir(d) else []
            pick = [f for f in files if f.startswith('y_captured_')] or [f for f in files if f.startswith('y_')]
            if pick:
                payload = json.load(open(os.path.join(d, pick[0]), encoding='utf-8'))
        if payload is None or not isinstance(payload, dict):
            missing.append(name)
            continue
        out.append((name, event, payload))
    return out, missing


def with_args(payload, args_text):
    """The payload with its tool call's arguments replaced by args_text (a JSON object text), by
    where the payload holds them: `tool_input`, a tool object's `args`, or, when neither, the
    top-level members beside the payload's own (an exit-code host's flat shape)."""
    marker = '"@@pinta-args@@"'
    p = dict(payload)
    if 'tool_input' in p:
        p['tool_input'] = '@@pinta-args@@'
        return json.dumps(p, ensure_ascii=False, separators=(',', ':')).replace(marker, args_text)
    for k, v in p.items():
        if isinstance(v, dict) and 'args' in v:
            v = dict(v)
            v['args'] = '@@pinta-args@@'
            p[k] = v
            return json.dumps(p, ensure_ascii=False, separators=(',', ':')).replace(marker, args_text)
    head = json.dumps(p, ensure_ascii=False, separators=(',', ':'))[:-1]
    return head + ',' + args_text[1:]


def inputs():
    cmd = '"command":"rm -rf ~"'
    yield '1 MB argument', '{' + cmd + ',"p":"' + 'a' * (1 << 20) + '"}'
    yield '10 MB argument', '{' + cmd + ',"p":"' + 'a' * (10 << 20) + '"}'
    yield '100k names', '{' + cmd + ''.join(',"k%d":1' % i for i in range(100000)) + '}'
    yield '100k escape names', '{' + cmd + ''.join(',"\\u0001\\u0002%d":"\\u0003"' % i for i in range(100000)) + '}'
    yield '4096 names of 1000 B', '{' + cmd + ''.join(',"n%d%s":1' % (i, 'k' * 1000) for i in range(4096)) + '}'


def start_guard(fake, tmp, name, reply):
    script = os.path.join(tmp, name + '.json')
    with open(script, 'w') as f:
        json.dump({'fallback': reply}, f)
    port_file = script + '.port'
    log = script + '.log'
    p = subprocess.Popen([fake, '--script', script, '--port-file', port_file, '--log', log],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(500):
        if os.path.exists(port_file) and os.path.getsize(port_file) > 0:
            return p, open(port_file).read().strip(), log
        time.sleep(0.01)
    p.kill()
    raise RuntimeError('pinta-fake-server did not start')


def largest_body(log):
    most = 0
    if not os.path.exists(log):
        return 0
    with open(log, encoding='utf-8', errors='replace') as f:
        for line in f:
            try:
                most = max(most, len(json.loads(line).get('body', '').encode('utf-8')))
            except ValueError:
                pass
    return most


def main():
    runs, markdown, bin_dir = 10, None, os.path.join(ROOT, 'build', 'bin')
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == '--runs' and args:
            runs = int(args.pop(0))
        elif a == '--markdown' and args:
            markdown = args.pop(0)
        elif a == '--bin' and args:
            bin_dir = args.pop(0)
        elif a in ('-h', '--help'):
            print(__doc__)
            return 0
        else:
            print('bench-guard-bound: unknown argument %s (see --help)' % a, file=sys.stderr)
            return 2
    adapter = os.path.join(bin_dir, 'pinta-gemini')
    fake = os.path.join(bin_dir, 'pinta-fake-server')
    for p in (adapter, fake):
        if not os.access(p, os.X_OK):
            print('bench-guard-bound: no executable %s (build first: bash ci/build.sh)' % p, file=sys.stderr)
            return 2
    families, missing = read_families()
    if missing:
        print('bench-guard-bound: no deny golden or gate fixture for %s: left out' % ', '.join(missing))
    if not families:
        print('bench-guard-bound: no family has a gate fixture under fixtures/', file=sys.stderr)
        return 2
    print('families: ' + ', '.join('%s %s' % (n, e) for n, e, _ in families))
    deny = {'decision': 'DENY', 'reason': 'bench-deny'}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        guards = {}
        try:
            for gname, reply in (('deny', {'status': 200, 'body': deny}),
                                 ('deny behind 100 kB', {'status': 200, 'body': deny, 'maxRequestBody': 100000})):
                guards[gname] = start_guard(fake, tmp, gname.replace(' ', '-'), reply)
            home = os.path.join(tmp, 'home')
            os.mkdir(home)
            table = []
            all_denied = True
            for what, args_text in inputs():
                for gname, (_, port, log) in guards.items():
                    denied = total = 0
                    ms = []
                    for agent, event, payload in families:
                        data = with_args(payload, args_text).encode('utf-8')
                        env = {'HOME': home, 'PATH': '/usr/bin:/bin',
                               'PINTA_GUARD_ENDPOINT': 'http://127.0.0.1:%s/guard' % port}
                        for _ in range(runs):
                            t0 = time.monotonic()
                            p = subprocess.run([adapter, '--agent', agent, '--event', event], input=data,
                                               env=env, capture_output=True)
                            ms.append((time.monotonic() - t0) * 1000)
                            total += 1
                            out = p.stdout.decode('utf-8', 'replace')
                            if p.returncode != 0:  # an exit-code family blocks by status
                                ok = p.returncode == 2 and 'bench-deny' in out
                            else:
                                ok = p.returncode == 0 and '"deny"' in out and 'bench-deny' in out
                            denied += 1 if ok else 0
                    ms.sort()
                    all_denied = all_denied and denied == total
                    table.append((what, gname, denied, total, ms[len(ms) // 2]))
            most = max(largest_body(log) for _, _, log in guards.values())
        finally:
            for p, _, _ in guards.values():
                p.terminate()
                p.wait()
    print('guard request bound, default 50 ms budget, every family, %d runs each:' % runs)
    print('%-24s %-20s %12s %10s' % ('input', 'guard', 'denied', 'median ms'))
    for what, gname, denied, total, med in table:
        print('%-24s %-20s %5d of %-4d %10.1f' % (what, gname, denied, total, med))
    rows.append(('model-sized inputs at 50 ms: every run denied', '%d of %d' % (
        sum(t[2] for t in table), sum(t[3] for t in table)), 'PASS' if all_denied else 'MISS',
        '(1 MB, 10 MB, 100k names, 100k escape names, 4096 x 1000 B names; plain and 100 kB-limited deny guards)'))
    rows.append(('largest guard request <= %d bytes' % BOUND, '%d bytes' % most,
                 'PASS' if 0 < most <= BOUND else 'MISS', '(the largest body either guard received)'))
    for target, measured, verdict, note in rows:
        print('%-52s %-16s %-5s %s' % (target, measured, verdict, note))
    if markdown:
        with open(markdown, 'a') as f:
            f.write('\n### Guard request bound (ci/bench-guard-bound.py)\n\n')
            f.write('| input | guard | denied | median ms |\n|---|---|---:|---:|\n')
            for what, gname, denied, total, med in table:
                f.write('| %s | %s | %d of %d | %.1f |\n' % (what, gname, denied, total, med))
            f.write('\n| target | measured | verdict | note |\n|---|---|---|---|\n')
            for target, measured, verdict, note in rows:
                f.write('| %s | %s | %s | %s |\n' % (target, measured, verdict, note))
    return 0


if __name__ == '__main__':
    sys.exit(main())
