#!/usr/bin/env python3
"""A hand-written adversarial pass over the gate (docs/contract.md GUARD-14; docs/fuzzing.md).

Usage: adversarial_pass.py BIN_DIR [--only NAME]

Starts pinta-fake-server from BIN_DIR as guards that deny everything (plain, behind body limits of
1 MiB, 100 kB and 16 KiB, and answering their DENY decorated: NaN, Infinity, 1e400, bytes after
it, "DENY\\n", NULs, status 201 and 403), then runs BIN_DIR's
pinta-gemini on each input below as the host would (Gemini CLI BeforeTool, Antigravity PreToolUse,
deel-local-cli PreToolUse, Claude Code PreToolUse; stdin closed after the write, or left open for
Antigravity), and checks that every one is denied. These inputs are not the ones of the issue that found the first bypasses
(depth 300, a 1 MB string, a lone-surrogate reason, a slow https guard): they try what a model could
write next — escapes in key names, duplicate keys, huge numbers, backslash runs that could confuse
the reader's object boundary, an input sized exactly at the cap, whitespace floods, very wide arrays,
invalid UTF-8 in keys. Prints one line per input and a summary; exit 1 when any reply is not the
guard's deny (a bypass), 2 when it cannot run.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

CAP = 32 << 20  # PINTA_MAX_INPUT_BYTES default (contract INPUT-3)


def gemini(tool_input_text, tool_name='"run_shell_command"'):
    return ('{"session_id":"s","transcript_path":"/t.json","cwd":"/w","hook_event_name":"BeforeTool",'
            '"timestamp":"2026-01-01T00:00:00Z","tool_name":' + tool_name + ',"tool_input":' +
            tool_input_text + '}').encode('utf-8', 'surrogateescape')


def agy(args_text):
    return ('{"conversationId":"c","workspacePaths":["/w"],"toolCall":{"name":"run_command","args":' +
            args_text + '}}').encode('utf-8', 'surrogateescape')


def claude(tool_input_text):
    return ('{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default",'
            '"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":' + tool_input_text +
            '}').encode('utf-8', 'surrogateescape')


def deel(rest_text):
    return ('{"자리":"도구전","도구":"Bash",' + rest_text + '}').encode('utf-8')


CMD = '"command":"rm -rf ~"'


def cases():
    yield 'escaped key name', 'gemini', gemini('{' + CMD + '}').replace(b'"tool_name"', b'"tool\\u005fname"')
    yield 'duplicate tool_name, last empty', 'gemini', gemini('{' + CMD + '}') [:-1] + b',"tool_name":""}'
    yield 'duplicate tool_name, last a number', 'gemini', gemini('{' + CMD + '}')[:-1] + b',"tool_name":7}'
    yield 'tool name with NUL escape', 'gemini', gemini('{' + CMD + '}', '"run_shell_command\\u0000x"')
    yield 'huge numbers', 'gemini', gemini('{' + CMD + ',"n":[1e400,-1e400,123456789012345678901234567890,1e-400]}')
    yield 'backslash runs', 'gemini', gemini('{' + CMD + ',"b":"' + '\\\\' * 5000 + '\\"}{' + '"}')
    yield 'quote-brace in strings', 'agy', agy('{"CommandLine":"rm -rf ~","x":"}}}]]]\\"}}}"}')
    yield 'lone surrogate key', 'gemini', gemini('{' + CMD + ',"\\ud800":1}')
    yield 'invalid UTF-8 in a key', 'gemini', gemini('{' + CMD + ',"k\udcff":1}')
    yield 'overlong slash in value', 'agy', agy('{"CommandLine":"rm -rf ~\udcc0\udcaf"}')
    yield 'depth exactly 256', 'gemini', gemini('{' + CMD + ',"p":' + '[' * 253 + ']' * 253 + '}')
    yield 'depth exactly 257', 'gemini', gemini('{' + CMD + ',"p":' + '[' * 254 + ']' * 254 + '}')
    yield 'objects 60000 deep', 'agy', agy('{"CommandLine":"rm -rf ~","p":' + '{"a":' * 60000 + '1' + '}' * 60000 + '}')
    yield 'wide array, 4 M zeros', 'gemini', gemini('{' + CMD + ',"z":[' + ','.join(['0'] * (4 << 20)) + ']}')
    yield '200000 keys', 'deel', deel(CMD + ''.join(',"k%d":%d' % (i, i) for i in range(200000)))
    yield 'whitespace flood 40 MB', 'gemini', gemini('{' + CMD + ',"w":' + ' ' * (40 << 20) + '1}')
    for delta in (-1, 0, 1):
        head = gemini('{' + CMD + ',"s":"')
        tail = b'"}}'
        fill = CAP + delta - len(head) - len(tail)
        yield 'input of cap%+d bytes' % delta, 'gemini', head + b'a' * fill + tail
    yield 'key of 3 MB', 'agy', agy('{"' + 'k' * (3 << 20) + '":1,"CommandLine":"rm -rf ~"}')
    yield 'tool_input a 5 MB string', 'gemini', gemini('"' + 'rm -rf ~ ' * (5 << 17) + '"')
    yield 'control characters raw', 'gemini', gemini('{' + CMD + ',"c":"\x01\x1f"}')
    yield 'claude: escaped key name', 'claude', claude('{' + CMD + '}').replace(b'"tool_name"', b'"tool\\u005fname"')
    yield 'claude: huge numbers', 'claude', claude('{' + CMD + ',"n":[1e400,123456789012345678901234567890]}')
    yield 'claude: depth exactly 257', 'claude', claude('{' + CMD + ',"p":' + '[' * 254 + ']' * 254 + '}')
    yield 'claude: invalid UTF-8 in a key', 'claude', claude('{' + CMD + ',"k\udcff":1}')
    yield 'claude: 10 MB command', 'claude', claude('{"command":"rm -rf ~ ' + 'a' * (10 << 20) + '"}')
    yield 'agy 10 MB, stdin left open', 'agy-open', agy('{"CommandLine":"rm -rf ~ ' + 'a' * (10 << 20) + '"}')
    # Round 3 (measured with a deny-all guard before this change): the tool name after the arguments, as Antigravity
    # writes it (sorted keys), with the arguments cut, refused or never finished.
    yield 'agy name last, cut at the cap', 'agy', agy_name_last('{"CommandLine":"rm -rf ~","p":"' + 'a' * (33 << 20) + '"}')
    yield 'agy name last, NaN', 'agy', agy_name_last('{"CommandLine":"rm -rf ~","score":NaN}')
    yield 'agy name last, 1e400', 'agy', agy_name_last('{"score":1e400,"CommandLine":"rm -rf ~"}')
    yield 'agy name last, 1.1 M values', 'agy', agy_name_last('{"CommandLine":"rm -rf ~","v":[' + ','.join(['0'] * 1100000) + ']}')
    yield 'agy name last, stdin stalls', 'agy-stall', agy_name_last('{"CommandLine":"rm -rf ~","p":"aaaa"}')
    yield 'gemini name last, cut at the cap', 'gemini', gemini_name_last('{' + CMD + ',"p":"' + 'a' * (33 << 20) + '"}')
    # Requests whose size the model chose: name bombs and escape bombs, against a guard behind an
    # ordinary body limit (nginx 1 MiB, Express json() 100 kB) and a strict one (16 KiB).
    names = ''.join(',"n%d%s":1' % (i, 'k' * 1000) for i in range(4096))
    escapes = ''.join(',"\\u0001\\u0002%d":"\\u0003"' % i for i in range(100000))
    for guard in ('deny-100k', 'deny-1m', 'deny-16k'):
        yield 'name bomb 4096 x 1000 B', 'gemini', gemini('{' + CMD + names + '}'), guard
        yield 'agy name bomb', 'agy', agy('{"CommandLine":"rm -rf ~"' + names + '}'), guard
        yield 'deel name bomb', 'deel', deel(CMD + names), guard
        yield 'claude name bomb', 'claude', claude('{' + CMD + names + '}'), guard
        yield 'escape bomb 100k', 'gemini', gemini('{' + CMD + escapes + '}'), guard
        yield '60 KB argument', 'claude', claude('{' + CMD + ',"p":"' + 'x' * 60000 + '"}'), guard
        yield '10 MB argument', 'agy', agy('{"CommandLine":"rm -rf ~ ' + 'a' * (10 << 20) + '"}'), guard
    # A DENY decorated the ways real guards write it: each must stay a deny.
    for guard in DECORATED:
        yield 'decorated DENY', 'gemini', gemini('{' + CMD + '}'), guard
        yield 'decorated DENY', 'deel', deel(CMD), guard


def agy_name_last(args_text):
    return ('{"conversationId":"c","workspacePaths":["/w"],"toolCall":{"args":' + args_text +
            ',"name":"run_command"}}').encode('utf-8', 'surrogateescape')


def gemini_name_last(tool_input_text):
    return ('{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","tool_input":' +
            tool_input_text + ',"tool_name":"run_shell_command"}').encode('utf-8', 'surrogateescape')


DENY = {'decision': 'DENY', 'reason': 'pass-deny'}
# Guard behaviours by name: a fake-server reply (fallback of its script).
GUARDS = {
    'deny': {'status': 200, 'body': DENY},
    'deny-1m': {'status': 200, 'body': DENY, 'maxRequestBody': 1 << 20},
    'deny-100k': {'status': 200, 'body': DENY, 'maxRequestBody': 100000},
    'deny-16k': {'status': 200, 'body': DENY, 'maxRequestBody': 16 << 10},
}
DECORATED = {
    'deny NaN': '{"decision":"DENY","reason":"pass-deny","score":NaN}',
    'deny Infinity': '{"decision":"DENY","reason":"pass-deny","score":Infinity}',
    'deny 1e400': '{"decision":"DENY","reason":"pass-deny","score":1e400}',
    'deny + bytes': '{"decision":"DENY","reason":"pass-deny"}\n{"log":"next"}\n',
    'deny newline': '{"decision":"DENY\\n","reason":"pass-deny"}',
    'deny NUL': '{"decision":"\\u0000DENY\\u0000","reason":"pass-deny"}',
}
for _name, _body in list(DECORATED.items()):
    GUARDS[_name] = {'status': 200, 'body': _body}
GUARDS['deny status 201'] = {'status': 201, 'body': DENY}
GUARDS['deny status 403'] = {'status': 403, 'body': DENY}
DECORATED = list(DECORATED) + ['deny status 201', 'deny status 403']


def main():
    if len(sys.argv) < 2:
        print('usage: adversarial_pass.py BIN_DIR [--only NAME]', file=sys.stderr)
        return 2
    bin_dir = sys.argv[1]
    only = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == '--only' else None
    adapter = os.path.join(bin_dir, 'pinta-gemini')
    fake = os.path.join(bin_dir, 'pinta-fake-server')
    for p in (adapter, fake):
        if not os.access(p, os.X_OK):
            print('adversarial_pass: no executable %s' % p, file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory() as tmp:
        servers = {}
        ports = {}
        try:
            for gname, reply in GUARDS.items():
                script = os.path.join(tmp, 'guard-%d.json' % len(servers))
                with open(script, 'w') as f:
                    json.dump({'fallback': reply}, f)
                port_file = script + '.port'
                servers[gname] = subprocess.Popen([fake, '--script', script, '--port-file', port_file],
                                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for _ in range(400):
                    if os.path.exists(port_file) and os.path.getsize(port_file) > 0:
                        break
                    time.sleep(0.01)
                ports[gname] = open(port_file).read().strip()
            home = os.path.join(tmp, 'home')
            os.mkdir(home)
            bypasses = 0
            total = 0
            for case in cases():
                name, host, data = case[:3]
                guard = case[3] if len(case) > 3 else 'deny'
                if only and only != name:
                    continue
                total += 1
                env = {'HOME': home, 'PATH': '/usr/bin:/bin',
                       'PINTA_GUARD_ENDPOINT': 'http://127.0.0.1:%s/guard' % ports[guard],
                       # Function, not latency (latency is ci/bench.sh's job): a budget no load uses up.
                       'PINTA_GUARD_TIMEOUT_MS': '5000'}
                agent, event = {'gemini': ('gemini', 'BeforeTool'), 'agy': ('antigravity', 'PreToolUse'),
                                'agy-open': ('antigravity', 'PreToolUse'),
                                'agy-stall': ('antigravity', 'PreToolUse'),
                                'deel': ('deel', 'PreToolUse'),
                                'claude': ('claude-code', 'PreToolUse')}[host]
                if host == 'agy-stall':
                    # The host stops in the middle of the arguments and keeps stdin open.
                    data = data[:data.index(b'aaaa')]
                    env['PINTA_STDIN_TIMEOUT_MS'] = '200'
                t0 = time.monotonic()
                p = subprocess.Popen([adapter, '--agent', agent, '--event', event], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                try:
                    p.stdin.write(data)
                    p.stdin.flush()  # what stays open must still have arrived
                    if host not in ('agy-open', 'agy-stall'):
                        p.stdin.close()
                except BrokenPipeError:
                    pass  # over the cap: the adapter stops reading, as it should
                out = p.stdout.read()
                err = p.stderr.read()
                rc = p.wait()
                try:
                    p.stdin.close()
                except BrokenPipeError:
                    pass
                ms = (time.monotonic() - t0) * 1000
                if agent == 'deel':
                    ok = rc == 2 and out == b'pass-deny\n'
                elif agent == 'claude-code':
                    try:
                        hso = json.loads(out).get('hookSpecificOutput', {})
                    except (ValueError, AttributeError):
                        hso = {}
                    ok = rc == 0 and isinstance(hso, dict) and hso.get('permissionDecision') == 'deny'
                else:
                    try:
                        reply = json.loads(out)
                    except ValueError:
                        reply = None
                    ok = rc == 0 and isinstance(reply, dict) and reply.get('decision') == 'deny'
                ok = ok and err == b''
                bypasses += 0 if ok else 1
                print('%-34s %-9s %-15s %9d bytes %8.1f ms  %s' % (
                    name, host, guard, len(data), ms,
                    'denied' if ok else 'BYPASS: rc=%d out=%r err=%r' % (rc, out[:120], err[:120])))
            print('adversarial pass: %d inputs, %d bypasses' % (total, bypasses))
            return 1 if bypasses else 0
        finally:
            for server in servers.values():
                server.terminate()
                server.wait()


if __name__ == '__main__':
    sys.exit(main())
