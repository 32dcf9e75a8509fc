#!/usr/bin/env python3
"""Real-CLI trace joining: the real Copilot CLI 1.0.102 runs our adapter as its hook with its
OpenTelemetry on, and our spans land in the host's trace (docs/contract.md TRACE-4).

One offline run per hook-file format (copilot_session.py: `hostemu … model-server`, its own HOME;
OTel on with the file exporter, so the host's own spans are in otel.jsonl): native (`--agent
copilot`, camelCase events) and Claude-style (`--agent copilot-claude`, PascalCase events). Our
adapter is registered for every event the run fires, exporting to a loopback collector in this
process (GEMINI_PLUGIN_OPTION_ENDPOINT; `pinta-gemini --pinta-flush` after the run delivers what
the flusher has not). Checks, per run:
  - the host wrote its `invoke_agent` span and recorded our hooks on it (hook.end events);
  - every span of ours for an event the host passes a trace context on (all but sessionStart:
    docs/hosts/copilot-1.0.md) has the host's traceId and parentSpanId = the invoke_agent span's
    spanId, and its own spanId;
  - our sessionStart span (the host passes none there) is a root span of our own trace.
Each check must be able to fail: at least 4 joined spans a run, and the host's span ids differ from
any id our adapter made up. The default run is a slice, the native format only (~20-45 s on a
loaded 2-core machine); PINTA_REAL_HOST_FULL=1 (ci/real-hosts.sh) runs both formats. Exit 0: pass; 1: failures (printed); 77: SKIPPED (no CLI).
Usage: real_trace_join.py --hostemu PATH --adapter PATH [--keep]
"""
import argparse, http.server, json, os, shutil, subprocess, sys, tempfile, threading, time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import copilot_session as cs  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../lanes"))
import real_slice  # noqa: E402  (emulator/lanes: the default run's slice or the full sweep)

NATIVE = ["sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "agentStop", "sessionEnd"]
CLAUDE = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]
SNAKE = {"sessionStart": "session_start", "userPromptSubmitted": "user_prompt_submitted",
         "preToolUse": "pre_tool_use", "postToolUse": "post_tool_use", "agentStop": "agent_stop",
         "sessionEnd": "session_end",
         # The Claude-style spellings are aliases: the span is named by the native event.
         "SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submitted",
         "PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use", "Stop": "agent_stop",
         "SessionEnd": "session_end"}


class Collector:
    """OTLP/HTTP JSON on 127.0.0.1, port chosen by the kernel; keeps every span it is sent."""

    def __init__(self):
        self.spans = []
        spans = self.spans

        class H(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                for rs in json.loads(body).get("resourceSpans", []):
                    for ss in rs.get("scopeSpans", []):
                        spans.extend(ss.get("spans", []))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *a):
                pass

        self.srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d/v1/traces" % self.srv.server_address[1]


def scenario(adapter, label, events, collector_url):
    if label == "copilot":
        hooks = {"version": 1, "hooks": {e: [{"type": "command", "timeoutSec": 30,
                 "bash": "'%s' --agent copilot --event %s" % (adapter, e)}] for e in events}}
    else:
        hooks = {"hooks": {e: [{"hooks": [{"type": "command", "timeout": 30,
                 "command": "'%s' --agent copilot-claude --event %s" % (adapter, e)}]}] for e in events}}
    return {"name": "trace-join-" + label, "otel": True, "hooks": hooks, "capture": events,
            "env": {"GEMINI_PLUGIN_OPTION_ENDPOINT": collector_url, "GEMINI_PLUGIN_DATA": "<ROOT>/data",
                    "PINTA_FLUSHER_IDLE_MS": "0", "PINTA_OTLP_BACKOFF_MAX_MS": "0"},
            "turns": [{"content": [{"type": "function_call", "name": "bash",
                                    "arguments": {"command": "touch ran", "description": "touch"}}]},
                      {"content": [{"type": "text", "text": "done"}]}]}


def check(run, label, events, ours, adapter_env):
    fails = []
    agent = [s for s in run.spans if s.get("type") == "span" and s.get("name") == "invoke_agent"]
    if len(agent) != 1:
        return ["%s: expected one invoke_agent span in otel.jsonl, got %d" % (label, len(agent))]
    host_trace, host_span = agent[0]["traceId"], agent[0]["spanId"]
    ends = [e for e in agent[0].get("events", []) if e.get("name") == "github.copilot.hook.end"]
    if len(ends) < 4:
        fails.append("%s: the host recorded %d hook.end events on invoke_agent" % (label, len(ends)))
    by_name = {}
    for s in ours:
        by_name.setdefault(s["name"], []).append(s)
    joined = 0
    for e in events:
        name = "copilot." + SNAKE[e]
        got = by_name.get(name, [])
        if len(got) != 1:
            fails.append("%s: %d spans named %s (want 1; got %s)" % (label, len(got), name, sorted(by_name)))
            continue
        s = got[0]
        if e in ("sessionStart", "SessionStart"):
            if "parentSpanId" in s or s["traceId"] == host_trace:
                fails.append("%s: %s joined a trace the host did not pass: %s" % (label, name, s))
            continue
        if s["traceId"] != host_trace or s.get("parentSpanId") != host_span or s["spanId"] == host_span:
            fails.append("%s: %s not a child of invoke_agent %s/%s: traceId %s parentSpanId %s" % (
                label, name, host_trace, host_span, s["traceId"], s.get("parentSpanId")))
        else:
            joined += 1
    if joined < 4:
        fails.append("%s: only %d of our spans joined the host's trace" % (label, joined))
    print("%s: invoke_agent %s/%s; %d of our spans are its children; %d hook.end events" % (
        label, host_trace, host_span, joined, len(ends)))
    return fails


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hostemu", required=True)
    ap.add_argument("--adapter", required=True)
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    copilot = cs.install_copilot()
    formats = real_slice.select([("copilot", NATIVE), ("copilot-claude", CLAUDE)],
                                name=lambda f: f[0], cap=1, lane="copilot_real_trace_join")
    fails = []
    for label, events in formats:
        col = Collector()
        root = tempfile.mkdtemp(prefix="copilot-trace-join-")
        run = cs.Run(root, scenario(a.adapter, label, events, col.url))
        run.run(copilot, a.hostemu)
        env = run.env(0)
        env["GEMINI_PLUGIN_DATA"] = os.path.join(root, "data")
        subprocess.run([a.adapter, "--pinta-flush"], env=env, capture_output=True, timeout=60)
        until = time.time() + 15
        while len(col.spans) < len(events) and time.time() < until:
            time.sleep(0.1)
        if run.rc != 0:
            fails.append("%s: copilot exited %d: %s" % (label, run.rc, run.stderr[-300:]))
        fails += check(run, label, events, list(col.spans), env)
        col.srv.shutdown()
        if a.keep:
            print("kept", root)
        else:
            shutil.rmtree(root, ignore_errors=True)
    for f in fails:
        print("FAIL " + f)
    print("real_trace_join: %s" % ("PASS" if not fails else "%d failures" % len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
