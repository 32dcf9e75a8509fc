#!/usr/bin/env python3
"""Real-host guard lane: the real Codex CLI 0.171.0 runs our adapter as a registered hook.

Each scenario is one `codex exec` session of the real CLI (ci/npm-codex.sh, offline against
`hostemu codex model-server`, its own CODEX_HOME and HOME: codex_session.py), with our adapter
registered in $CODEX_HOME/hooks.json for PreToolUse as `pinta-gemini --agent codex --event
PreToolUse` (matcher "*"), run under --dangerously-bypass-hook-trust. The scripted model asks for
one exec_command that creates a file, then ends. A fake guard (`pinta-fake-server`) answers every
guard request with one decision:

  deny   DENY: the file is not created; no PostToolUse fires for the call; the model's next request
         carries `Command blocked by PreToolUse hook: <reason>. Command: <cmd>` (CX: the deny shape
         Codex honours, hookSpecificOutput permissionDecision deny with its reason).
  allow  ALLOW: the file is created; the model reads the command's output.
  down   no guard listening (a refused port): fail open, the file is created; the debug log says
         guard "unavailable" (the adapter did try the guard rather than skip it).

Every scenario with a guard checks the guard was consulted for this call (a request whose
input.toolName is "Bash", toolInput.command the scripted command, agent "codex", hook
"PreToolUse", the CLI's session id). Each check must fail on some other run's evidence (a check
that cannot fail is reported as WEAK and counts as a failure). The guard budget is 2 s
(PINTA_GUARD_TIMEOUT_MS): these runs check what the CLI does with the adapter's decision, not
latency (ci/bench.sh's job).
Exit 0: every check passed; 1: failures (printed); 77: SKIPPED (the CLI cannot be installed).
"""
import argparse, json, os, shutil, sys, tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "lanes"))
import codex_session as cs  # noqa: E402
import guard_lane  # noqa: E402  (emulator/lanes: the guards, the scenario loop, the weak-check proof)

MADE = "made-by-bash.txt"
COMMAND = "printf created > " + MADE
REASON = "pinta real-host deny: no file writes here"


def turns():
    return [{"content": [{"type": "function_call", "name": "exec_command", "arguments": {"cmd": COMMAND}}]},
            {"content": [{"type": "text", "text": "done"}]}]


class GuardRun(cs.Run):
    """A Codex run with our adapter as the PreToolUse hook and the guard settings in its env."""

    def __init__(self, root, name, adapter, guard_env):
        self.adapter, self.guard_env = adapter, guard_env
        hook = {"type": "command", "command": "'%s' --agent codex --event PreToolUse" % adapter, "timeout": 30}
        super().__init__(root, {"name": name, "evidence": "guard lane", "turns": turns(),
                                "prompt": "create the file",
                                "hooks": {"PreToolUse": [{"matcher": "*", "hooks": [hook]}]}})
        self.data = os.path.join(root, "data")

    def build(self, port):
        super().build(port)
        shutil.rmtree(self.data, ignore_errors=True)
        os.makedirs(self.data, mode=0o700)

    def env(self):
        e = super().env()
        e.update({"PINTA_GEMINI_DEBUG": "1", "GEMINI_PLUGIN_DATA": self.data, "PINTA_GUARD_TIMEOUT_MS": "2000"})
        e.update(self.guard_env)
        return e


def observe(r):
    """What the real CLI did with our hook's answer."""
    ok = [x for x in r.api if x.get("status") == 200]
    outputs = ok[-1]["toolOutputs"] if ok else []
    read = outputs[0]["output"] if outputs else None
    pre = [p for p in r.payloads if p["hook_event_name"] == "PreToolUse"]
    post = [p for p in r.payloads if p["hook_event_name"] == "PostToolUse"]
    debug = []
    path = os.path.join(r.data, "invocations.jsonl")
    if os.path.exists(path):
        debug = [json.loads(l) for l in open(path) if l.strip()]
    return {"session": pre[0]["session_id"] if pre else None, "read": read,
            "made": os.path.exists(os.path.join(r.proj, MADE)), "post": len(post),
            "pre_debug": [d for d in debug if "PreToolUse" in (d.get("argv") or [])], "rc": r.rc}


def check_consulted(checks, reqs, session):
    asked = [q for q in reqs if isinstance(q.get("input"), dict) and q["input"].get("toolName") == "Bash"
             and (q["input"].get("toolInput") or {}).get("command") == COMMAND]
    checks.append((len(asked) >= 1, "the guard was consulted for the Bash call (%d request(s), %d for Bash %r)"
                   % (len(reqs), len(asked), COMMAND)))
    seen = sorted({(str(q["input"].get("agent")), str(q["input"].get("hook")), q["input"].get("sessionId") == session)
                   for q in asked})
    checks.append((seen == [("codex", "PreToolUse", True)], "the request names agent codex, hook PreToolUse and "
                   "the CLI's session id: (agent, hook, same session) = %s" % seen))


def scenario_checks(name, o, reqs):
    c = []
    if name == "deny":
        want = "Command blocked by PreToolUse hook: %s. Command: %s" % (REASON, COMMAND)
        c.append((not o["made"], "the command did not run: %s absent" % MADE))
        c.append((o["post"] == 0, "no PostToolUse for a blocked call (%d fired)" % o["post"]))
        c.append((o["read"] == want, "the model read %r: %r" % (want, o["read"])))
        check_consulted(c, reqs, o["session"])
    elif name == "allow":
        c.append((o["made"], "the command ran: %s created" % MADE))
        c.append((o["post"] == 1, "PostToolUse fired for the call (%d)" % o["post"]))
        c.append((isinstance(o["read"], str) and "Process exited with code 0" in o["read"],
                  "the model read the command's output: %r" % o["read"]))
        check_consulted(c, reqs, o["session"])
    elif name == "down":
        c.append((o["made"], "fail-open: the command ran, %s created" % MADE))
        g = [(d.get("guard"), d.get("guard_error")) for d in o["pre_debug"]]
        c.append((len(g) == 1 and g[0][0] == "unavailable",
                  "the adapter tried the guard and found it unavailable (debug log guard, guard_error: %r)" % g))
    return c


SCENARIOS = [("deny", "DENY", REASON), ("allow", "ALLOW", "ok"), ("down", None, None)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--adapter", required=True, help="the built pinta-gemini")
    ap.add_argument("--hostemu", required=True)
    ap.add_argument("--fake-server", required=True, help="the built pinta-fake-server")
    ap.add_argument("--codex", help="the real native codex (default: ci/npm-codex.sh installs it)")
    ap.add_argument("--only", help="run only the scenario with this name")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="keep the session directories under this directory")
    a = ap.parse_args()
    adapter, hostemu, fake = (os.path.abspath(x) for x in (a.adapter, a.hostemu, a.fake_server))
    for b in (adapter, hostemu, fake):
        if not os.access(b, os.X_OK):
            print("FAIL: %s is not built" % b)
            sys.exit(1)
    codex = a.codex or cs.install_codex()
    base = a.keep or tempfile.mkdtemp(prefix="codex-guard-")
    os.makedirs(base, exist_ok=True)
    scs = [s for s in SCENARIOS if not a.only or s[0] == a.only]

    def one(sc):
        name, decision, reason = sc

        def run(root, url):
            r = GuardRun(root, name, adapter, {"PINTA_GUARD_ENDPOINT": url})
            r.run(codex, hostemu)
            return r
        return guard_lane.run_scenario(base, fake, name, decision, reason, run, observe, scenario_checks)

    failures = guard_lane.run_lane(scs, one, a.jobs, scenario_checks, [s[0] for s in SCENARIOS])
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if failures or not scs else 0)


if __name__ == "__main__":
    main()
