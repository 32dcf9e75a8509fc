#!/usr/bin/env python3
"""The adversarial pass on `pinta-gemini --agent codex`: every Codex event, fed what the model
controls (payload size, shape, encoding, timing) and answered by guards whose reply the model can
steer (reasons of 1 MB, blank, invalid UTF-8, with newlines and quotes; decisions in odd shapes).

The invariant (docs/contract.md CODEX-*, hosts/codex/include/pinta/hosts/codex/family.h): the
adapter prints nothing, or exactly the one deny Codex accepts (CX: any other reply is a failed
hook run and the call runs)

  {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",
                         "permissionDecisionReason":<non-blank>}}

and nothing else on stdout, exits 0, writes nothing on stderr and ends well inside a hang bound.
A deny appears only on PreToolUse; a guard that denies a well-formed PreToolUse gets its deny.
Every distinct deny printed is then handed, byte for byte, to the Codex emulator's strict reply
parser (`hostemu codex run`, a hook that cats the bytes): it must block the call with no failure.

Hermetic: the guards are pinta-fake-server (and, for the invalid-UTF-8 reason JSON cannot script,
a raw socket guard in this process) on 127.0.0.1 port 0; HOME is a temp dir.

Usage: codex_adversarial.py --adapter PATH --fake-server PATH --hostemu PATH [--source DIR]
Exit 0: every run kept the invariant; 1: a finding (each printed with its input); 2: setup.
"""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

# Rust's char::is_whitespace (Unicode White_Space), what Codex's trim of a reason uses (CXSRC).
RUST_WS = set("\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
              "\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
GATE = "PreToolUse"
HANG_S = 10.0  # a hang bound, not a speed target (ci/bench.sh measures speed)
MB = 1 << 20


def no_dupes(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def reject_constant(name):
    raise ValueError("non-JSON number " + name)


def deny_shape(out):
    """None when `out` is exactly the Codex deny line, else why not. Returns (why, reason)."""
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError:
        return "stdout is not valid UTF-8", None
    if text.count("\n") != 1 or not text.endswith("\n"):
        return "not exactly one line", None
    try:
        j = json.loads(text, object_pairs_hook=no_dupes, parse_constant=reject_constant)
    except ValueError as e:
        return "not strict JSON: %s" % e, None
    if not isinstance(j, dict) or set(j) != {"hookSpecificOutput"}:
        return "top-level keys are not exactly hookSpecificOutput", None
    h = j["hookSpecificOutput"]
    if not isinstance(h, dict) or set(h) != {"hookEventName", "permissionDecision",
                                             "permissionDecisionReason"}:
        return "hookSpecificOutput keys are not exactly the three", None
    if h["hookEventName"] != GATE or h["permissionDecision"] != "deny":
        return "not a PreToolUse deny", None
    r = h["permissionDecisionReason"]
    if not isinstance(r, str) or all(c in RUST_WS for c in r):
        return "blank or non-string reason", None
    return None, r


class RawGuard:
    """A loopback guard answering every request with fixed bytes (what a JSON script cannot hold)."""

    def __init__(self, body):
        self.body = body
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self.one, args=(c,), daemon=True).start()

    def one(self, c):
        try:
            c.settimeout(10)
            buf = b""
            while b"\r\n\r\n" not in buf:
                d = c.recv(65536)
                if not d:
                    return
                buf += d
            head, rest = buf.split(b"\r\n\r\n", 1)
            m = re.search(rb"(?i)content-length:\s*(\d+)", head)
            want = int(m.group(1)) if m else 0
            while len(rest) < want:
                d = c.recv(65536)
                if not d:
                    break
                rest += d
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                      b"Connection: close\r\n\r\n" % len(self.body) + self.body)
        except OSError:
            pass
        finally:
            c.close()


def codex_events(source):
    """The family's events (its descriptor) and every fixture event folder."""
    evs = []
    fam = os.path.join(source, "hosts/codex/include/pinta/hosts/codex/family.h")
    m = re.search(r"kEvents\s*=\s*\{(.*?)\};", open(fam, encoding="utf-8").read(), re.S)
    if m:
        evs = re.findall(r'"(\w+)"', m.group(1))
    fx = os.path.join(source, "fixtures/codex")
    for ver in sorted(os.listdir(fx)) if os.path.isdir(fx) else []:
        if not os.path.isdir(os.path.join(fx, ver)):
            continue  # family.json, MANIFEST.json
        for e in sorted(os.listdir(os.path.join(fx, ver))):
            if e not in evs:
                evs.append(e)
    return evs, fx


def base_payload(fx, event, cwd):
    """A captured payload of the event (the first y_captured_ file), else one of its shape."""
    for ver in sorted(os.listdir(fx), reverse=True) if os.path.isdir(fx) else []:
        d = os.path.join(fx, ver, event)
        ys = sorted(f for f in os.listdir(d) if f.startswith("y_captured_")) if os.path.isdir(d) else []
        if ys:
            return json.load(open(os.path.join(d, ys[0]), encoding="utf-8"))
    p = {"session_id": "s", "turn_id": "t", "transcript_path": None, "cwd": cwd,
         "hook_event_name": event, "model": "m", "permission_mode": "default"}
    if event in (GATE, "PermissionRequest", "PostToolUse"):
        p.update(tool_name="Bash", tool_input={"command": "rm -rf ~"}, tool_use_id="call_1")
    return p


def payloads(base):
    """(name, bytes, keep stdin open) for one event: the model's reach over the payload."""
    b = dict(base)
    tool = "tool_input" in b
    dump = lambda o: json.dumps(o, separators=(",", ":")).encode()
    out = [("base", dump(b), False)]
    if tool:
        out.append(("tool_input 8 MB", dump(dict(b, tool_input={"command": "rm -rf ~ " + "a" * (8 * MB)})), False))
        out.append(("tool_input 100k members", dump(dict(b, tool_input=dict(
            {"command": "rm -rf ~"}, **{"k%d" % i: "v" for i in range(100000)}))), False))
        out.append(("tool_name 1 MB", dump(dict(b, tool_name="B" * MB)), False))
    deep = b"[" * 100000 + b"]" * 100000
    key = b'"tool_input"' if tool else b'"x"'
    out.append(("nesting 100000", dump(b)[:-1] + b',' + key + b':' + deep + b"}", False))
    enc = dump(b)
    # Invalid UTF-8 (a bare 0xFF, an overlong, a surrogate) inside a string of the payload.
    out.append(("invalid UTF-8", enc.replace(b'"session_id":"', b'"session_id":"\xff\xc0\xaf\xed\xa0\x80', 1), False))
    out.append(("raw NUL in a string", enc.replace(b'"session_id":"', b'"session_id":"a\x00b', 1), False))
    out.append(("escaped NUL", enc.replace(b'"session_id":"', b'"session_id":"a\\u0000b', 1), False))
    out.append(("NUL after the object", enc + b"\x00\x00", False))
    if tool:
        dup = enc[:-1] + b',"tool_name":"apply_patch","tool_input":{"command":"ls"}}'
        out.append(("duplicate tool keys", dup, False))
    out.append(("duplicate event key", enc[:-1] + b',"hook_event_name":"Stop"}', False))
    out.append(("numbers 1e400 and 2^100", enc[:-1] + b',"n":1e400,"m":-1e400,"i":1267650600228229401496703205376,"f":1e-400}', False))
    out.append(("NaN and Infinity", enc[:-1] + b',"n":NaN,"m":Infinity}', False))
    out.append(("BOM", b"\xef\xbb\xbf" + enc, False))
    out.append(("truncated", enc[: len(enc) // 2], False))
    out.append(("two objects", enc + enc, False))
    out.append(("empty", b"", False))
    out.append(("array", b"[" + enc + b"]", False))
    out.append(("stdin never closed, whole object", enc, True))
    out.append(("stdin never closed, half an object", enc[: len(enc) // 2], True))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--adapter", required=True)
    ap.add_argument("--fake-server", required=True)
    ap.add_argument("--hostemu", required=True)
    ap.add_argument("--source", default=os.environ.get(
        "PINTA_SOURCE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../..")))
    a = ap.parse_args()
    a.adapter, a.fake_server, a.hostemu = (os.path.abspath(x) for x in (a.adapter, a.fake_server, a.hostemu))
    for p in (a.adapter, a.fake_server, a.hostemu):
        if not os.access(p, os.X_OK):
            print("codex_adversarial: not executable: " + p, file=sys.stderr)
            return 2
    events, fx = codex_events(a.source)
    if GATE not in events:
        print("codex_adversarial: no PreToolUse among the family's events", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="codex-adv-")
    procs = []
    try:
        return adversarial_pass(a, events, fx, tmp, procs)
    finally:  # the guards this pass started, and its temp dir, whatever happened
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait()
        subprocess.run(["rm", "-rf", tmp])


def adversarial_pass(a, events, fx, tmp, procs):
    home = os.path.join(tmp, "home")
    os.makedirs(home)

    def fake(name, reply):
        script = os.path.join(tmp, name + ".json")
        json.dump({"fallback": reply}, open(script, "w"))
        pf = os.path.join(tmp, name + ".port")
        procs.append(subprocess.Popen([a.fake_server, "--script", script, "--port-file", pf],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for _ in range(400):
            if os.path.exists(pf) and open(pf).read().strip():
                return int(open(pf).read().strip())
            time.sleep(0.025)
        raise RuntimeError("pinta-fake-server did not start")

    def body(b):
        return {"status": 200, "body": b}

    # name -> (port, must a well-formed PreToolUse get the deny (True), the allow (False) or
    # either (None: a reply that reads two ways), words its reason must keep or None)
    guards = {}
    try:
        guards["allow"] = (fake("allow", body({"decision": "ALLOW"})), False, None)
        guards["deny"] = (fake("deny", body({"decision": "DENY", "reason": "blocked by the test guard"})), True, "blocked by the test guard")
        guards["deny reason 1 MB"] = (fake("big", body({"decision": "DENY", "reason": "r\"\\\n" * (MB // 4)})), True, None)
        guards["deny reason blank"] = (fake("blank", body({"decision": "DENY", "reason": ""})), True, None)
        guards["deny reason ASCII spaces"] = (fake("spaces", body({"decision": "DENY", "reason": " \t\n\r "})), True, None)
        guards["deny reason Unicode spaces"] = (fake("uspaces", body({"decision": "DENY", "reason": "\u3000\u00a0\u2028\u0085\u200a\u202f"})), True, None)
        guards["deny reason newlines quotes NUL"] = (fake("nlq", body({"decision": "DENY", "reason": "line 1\n\"quoted\" \\ '</x>'\r\nnul\u0000 \u2028end"})), True, "quoted")
        guards["deny no reason"] = (fake("noreason", body({"decision": "DENY"})), True, None)
        guards["deny reason not a string"] = (fake("numreason", body({"decision": "DENY", "reason": {"a": [1e300]}})), True, None)
        guards["deny with 1e400"] = (fake("e400", body('{"decision":"DENY","reason":"big number","x":1e400}')), True, None)
        guards["deny after a duplicate ALLOW"] = (fake("dup", body('{"decision":"ALLOW","decision":"DENY","reason":"dup"}')), None, None)
        guards["review"] = (fake("review", body({"decision": "REVIEW", "reason": "ask the user"})), False, None)
        guards["deny reason invalid UTF-8"] = (RawGuard(b'{"decision":"DENY","reason":"bad \xff\xfe \xed\xa0\x80 \xc0\xaf end"}').port, True, None)
        guards["deny reason invalid UTF-8 only"] = (RawGuard(b'{"decision":"DENY","reason":"\xff\xfe"}').port, True, None)
        never = fake("never", {"neverAnswer": True})
    except (RuntimeError, OSError) as e:
        print("codex_adversarial: " + str(e), file=sys.stderr)
        return 2

    env0 = {k: v for k, v in os.environ.items()
            if not k.startswith(("PINTA_", "OTEL_", "GEMINI_PLUGIN_OPTION_"))}
    env0.update(HOME=home, GEMINI_PLUGIN_DATA=os.path.join(tmp, "data"), PINTA_GUARD_KEEPER="0")
    findings, denies, runs = [], {}, 0
    slowest = (0.0, "")

    def run(event, pname, data, keep_open, gname, port, budget_ms):
        nonlocal runs, slowest
        env = dict(env0, PINTA_GUARD_ENDPOINT="http://127.0.0.1:%d/guard" % port)
        if budget_ms:
            env["PINTA_GUARD_TIMEOUT_MS"] = str(budget_ms)
        t0 = time.monotonic()
        p = subprocess.Popen([a.adapter, "--agent", "codex", "--event", event], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp)
        what = "event %s, payload %s (%d bytes), guard %s" % (event, pname, len(data), gname)
        # stdout/stderr are drained by threads while stdin is written (a reply before EOF).
        got = {}
        readers = [threading.Thread(target=lambda k, f: got.__setitem__(k, f.read()), args=(k, f))
                   for k, f in (("out", p.stdout), ("err", p.stderr))]
        for t in readers:
            t.start()
        try:
            p.stdin.write(data)
            p.stdin.flush()
            if not keep_open:
                p.stdin.close()
        except (BrokenPipeError, OSError):
            pass  # the adapter may stop reading: its answer, not a fault
        try:
            rc = p.wait(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = p.wait()
            findings.append("%s: no answer within %.0f s (killed)" % (what, HANG_S))
        wall = time.monotonic() - t0
        for t in readers:
            t.join()
        if keep_open:
            try:
                p.stdin.close()
            except OSError:
                pass
        runs += 1
        if wall > slowest[0]:
            slowest = (wall, what)
        out, err = got.get("out", b""), got.get("err", b"")
        if rc != 0:
            findings.append("%s: exit %d" % (what, rc))
        if err:
            findings.append("%s: stderr %r" % (what, err[:200]))
        if not out:
            return None
        why, reason = deny_shape(out)
        if why:
            findings.append("%s: %s: %r" % (what, why, out[:300]))
            return None
        if event != GATE:
            findings.append("%s: a deny on %s: %r" % (what, event, out[:200]))
        denies.setdefault(out, what)
        return reason

    cwd = os.path.join(tmp, "proj")
    os.makedirs(cwd)
    for event in events:
        for pname, data, keep_open in payloads(base_payload(fx, event, cwd)):
            # The guard is asked on the gate only: elsewhere two guards show it is never asked.
            gs = guards.items() if event == GATE else [(g, guards[g]) for g in ("allow", "deny")]
            for gname, (port, must_deny, needle) in gs:
                reason = run(event, pname, data, keep_open, gname, port, 5000)
                if event == GATE and pname == "base":
                    if must_deny and reason is None:
                        findings.append("event %s, payload base, guard %s: the guard's deny was not printed" % (event, gname))
                    if must_deny is False and reason is not None:
                        findings.append("event %s, payload base, guard %s: a deny without a guard DENY" % (event, gname))
                    if needle and reason is not None and needle not in reason:
                        findings.append("event %s, payload base, guard %s: the reason lost the guard's words: %r" % (event, gname, reason[:200]))
            # The default budget against a guard that never answers: an answer, no hang.
            if event == GATE:
                run(event, pname, data, keep_open, "never answers (default budget)", never, 0)

    # Codex's strict parser on every distinct deny the adapter printed: a hook that prints the
    # bytes must block the call with no failure recorded.
    chome, proj = os.path.join(tmp, "codex-home"), os.path.join(tmp, "cproj")
    os.makedirs(chome)
    os.makedirs(proj)
    call = {"session_id": "s", "turn_id": "t", "transcript_path": None, "cwd": proj,
            "hook_event_name": GATE, "model": "m", "permission_mode": "default",
            "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}, "tool_use_id": "c1"}
    for i, (out, what) in enumerate(denies.items()):
        f = os.path.join(tmp, "deny-%d.out" % i)
        open(f, "wb").write(out)
        json.dump({"hooks": {GATE: [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "cat '%s'" % f, "timeout": 10}]}]}},
            open(os.path.join(chome, "hooks.json"), "w"))
        r = subprocess.run([a.hostemu, "codex", "run", "--codex-home", chome, "--project", proj,
                            "--event", GATE, "--bypass-trust"], input=json.dumps(call).encode(),
                           capture_output=True, timeout=60)
        try:
            o = json.loads(r.stdout)["outcome"]
            ok = o["blocked"] and not o["toolRuns"] and not o["failures"]
        except (ValueError, KeyError, TypeError):
            ok, o = False, r.stdout[:300] + r.stderr[:300]
        if not ok:
            findings.append("Codex's parser did not take the deny printed for %s: %r -> %r" % (what, out[:200], o))

    print("codex_adversarial: %d runs over %d events, %d distinct denies through Codex's parser; "
          "slowest %.2f s (%s)" % (runs, len(events), len(denies), slowest[0], slowest[1]))
    for f in findings:
        print("FINDING: " + f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
