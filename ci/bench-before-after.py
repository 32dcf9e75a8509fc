#!/usr/bin/env python3
"""Same-run before/after comparison of two adapter builds on the hot path (docs/benchmarks.md).

Usage: ci/bench-before-after.py OLD_ADAPTER NEW_ADAPTER [--runs N]

Interleaves, round robin, /bin/true and both adapters on four events as hosts send them (so drift
in machine load hits every program alike): a non-gate event without configuration (Gemini
AfterTool), the gate event with a guard on loopback answering at once (Gemini BeforeTool, a
minimal in-process HTTP guard: ALLOW), the Antigravity gate event with the same guard, and the
gate event with the collector configured (its span queued for the flusher). Prints medians, p90
and the ratio of each adapter to /bin/true and new/old. Spawning is os.posix_spawn with the payload
on a pipe; the Python overhead is the same for every program and cancels out in the ratios only
approximately, so read the new/old column, not the absolute figures. A second table gives each
program's own CPU time (user + system, from wait4: exact, and far less moved than wall time by
other work on a busy machine) and its page faults, medians, with new/old.
"""
import http.server
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time

GEMINI_BT = (b'{"session_id":"7f3c2a4e-bench","transcript_path":"/tmp/w/.gemini/tmp/chats/s.json",'
             b'"cwd":"/tmp/w","hook_event_name":"BeforeTool","timestamp":"2026-12-05T10:10:11.342Z",'
             b'"tool_name":"run_shell_command","tool_input":{"command":"echo hi"}}')
GEMINI_AT = GEMINI_BT.replace(b'BeforeTool', b'AfterTool')[:-1] + b',"tool_response":{"llmContent":"hi"}}'
AGY_PRE = (b'{"conversationId":"c","workspacePaths":["/tmp/w"],"transcriptPath":"/x/antigravity-cli/brain/c/t.jsonl",'
           b'"toolCall":{"name":"run_command","args":{"CommandLine":"echo hi"}}}')


class Guard(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def do_POST(self):  # noqa: N802 (http.server's naming)
        n = int(self.headers.get('Content-Length', '0'))
        self.rfile.read(n)
        body = b'{"decision":"ALLOW"}' if self.path == '/guard' else b'{}'
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.send_header('Connection', 'close')
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def run_once(argv, env, payload):
    r, w = os.pipe()
    out = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_DUP2, r, 0), (os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, out, 2),
        (os.POSIX_SPAWN_CLOSE, w)])
    os.close(r)
    try:
        os.write(w, payload)  # /bin/true does not read: EPIPE is expected there
    except BrokenPipeError:
        pass
    os.close(w)
    _, status, usage = os.wait4(pid, 0)
    t1 = time.perf_counter_ns()
    os.close(out)
    if status != 0:
        raise SystemExit('bench-before-after: %s exited with status %d' % (argv[0], status))
    return (t1 - t0) / 1e6, (usage.ru_utime + usage.ru_stime) * 1e3, usage.ru_minflt


def main():
    args = sys.argv[1:]
    runs = 300
    if '--runs' in args:
        i = args.index('--runs')
        runs = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    old, new = (os.path.realpath(a) for a in args)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Guard)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    # The flushers the collector scenario starts may still be writing when the run ends.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        homes = {}
        for name in ('old', 'new'):
            homes[name] = os.path.join(tmp, name)
            os.makedirs(os.path.join(homes[name], 'data'), mode=0o700)
        # Both run as installed, from copies made alike here: the file a linker wrote cost 10-20 %
        # more CPU per exec than a cp of the same bytes (docs/benchmarks-history.md).
        exes = {}
        for name, path in (('old', old), ('new', new)):
            exes[name] = os.path.join(tmp, name + '-bin')
            shutil.copyfile(path, exes[name])
            os.chmod(exes[name], 0o755)
        old, new = exes['old'], exes['new']
        base = {'PATH': '/usr/bin:/bin'}
        scenarios = [
            ('AfterTool, no config', ['--agent', 'gemini', '--event', 'AfterTool'], GEMINI_AT, {}),
            ('BeforeTool, instant guard', ['--agent', 'gemini', '--event', 'BeforeTool'], GEMINI_BT,
             {'PINTA_GUARD_ENDPOINT': 'http://127.0.0.1:%d/guard' % port}),
            ('agy PreToolUse, instant guard', ['--agent', 'antigravity', '--event', 'PreToolUse'], AGY_PRE,
             {'PINTA_GUARD_ENDPOINT': 'http://127.0.0.1:%d/guard' % port}),
            ('AfterTool, collector configured', ['--agent', 'gemini', '--event', 'AfterTool'], GEMINI_AT,
             {'GEMINI_PLUGIN_OPTION_ENDPOINT': 'http://127.0.0.1:%d/v1/traces' % port}),
        ]
        print('%-34s %10s %10s %10s %8s %8s %8s' % ('scenario', '/bin/true', 'old', 'new', 'old/true',
                                                    'new/true', 'new/old'))
        cpu_rows = []
        for label, argv, payload, extra in scenarios:
            times = {'true': [], 'old': [], 'new': []}
            cpu = {'true': [], 'old': [], 'new': []}
            faults = {'true': [], 'old': [], 'new': []}
            for _ in range(runs):
                for name, cmd, env in [('true', ['/bin/true'], base)] + [
                        (name, [exe] + argv,
                         dict(base, HOME=homes[name], GEMINI_PLUGIN_DATA=os.path.join(homes[name], 'data'), **extra))
                        for name, exe in (('old', old), ('new', new))]:
                    wall, own, flt = run_once(cmd, env, payload)
                    times[name].append(wall)
                    cpu[name].append(own)
                    faults[name].append(flt)
            med = {k: statistics.median(v) for k, v in times.items()}
            print('%-34s %8.3fms %8.3fms %8.3fms %7.2fx %7.2fx %7.3fx' % (
                label, med['true'], med['old'], med['new'], med['old'] / med['true'], med['new'] / med['true'],
                med['new'] / med['old']))
            c = {k: statistics.median(v) for k, v in cpu.items()}
            f = {k: statistics.median(v) for k, v in faults.items()}
            cpu_rows.append('%-34s %8.3fms %8.3fms %8.3fms %7.3fx %6d %6d %6d' % (
                label, c['true'], c['old'], c['new'], c['new'] / c['old'] if c['old'] else float('nan'),
                f['true'], f['old'], f['new']))
        print()
        print('%-34s %10s %10s %10s %8s %6s %6s %6s' % ('own CPU time, page faults', '/bin/true', 'old', 'new',
                                                       'new/old', 'flt', 'old', 'new'))
        for row in cpu_rows:
            print(row)
    server.shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main())
