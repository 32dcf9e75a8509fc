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

# Each family: --agent, gate event, and how its payload holds the tool call (the registry's
# payload shapes, hosts/include/pinta/hosts/family.h).
FAMILIES = [
    ('gemini', 'BeforeTool', lambda a: '{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool",'
                                      '"tool_name":"run_shell_command","tool_input":' + a + '}'),
    ('antigravity', 'PreToolUse', lambda a: '{"conversationId":"c","workspacePaths":["/w"],'
                                            '"toolCall":{"args":' + a + ',"name":"run_command"}}'),
    ('deel', 'PreToolUse', lambda a: '{"자리":"도구전","도구":"Bash",' + a[1:]),
    ('claude-code', 'PreToolUse', lambda a: '{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse",'
                                            '"tool_name":"Bash","tool_input":' + a + '}'),
]


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
                    for agent, event, shape in FAMILIES:
                        data = shape(args_text).encode('utf-8')
                        env = {'HOME': home, 'PATH': '/usr/bin:/bin',
                               'PINTA_GUARD_ENDPOINT': 'http://127.0.0.1:%s/guard' % port}
                        for _ in range(runs):
                            t0 = time.monotonic()
                            p = subprocess.run([adapter, '--agent', agent, '--event', event], input=data,
                                               env=env, capture_output=True)
                            ms.append((time.monotonic() - t0) * 1000)
                            total += 1
                            out = p.stdout.decode('utf-8', 'replace')
                            if agent == 'deel':
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
