#!/usr/bin/env python3
"""Real-host guard lane: the real Claude Code 2.1.332 CLI runs our adapter as installed.

Each scenario is one print-mode session of the real CLI (installed by ci/npm-claude.sh, run offline
against `hostemu claude model-server` exactly as real_diff.py runs it, with its own HOME), in a
temp project whose `.claude/settings.json` is written by `pinta-gemini install --host claude-code
--workspace <project>`. The scripted model asks for one Bash call that creates a file, then ends.
A fake guard (`pinta-fake-server`) answers every guard request with one decision:

  deny        DENY: the file is not created; the call is in the result's permission_denials; the
              model's tool_result is is_error and reads `PreToolUse:Bash hook error: <reason>`
              (contract CLAUDE-2) and reaches the model's next request; our hook answered exit 0
              with the permissionDecision "deny" line.
  allow       ALLOW: the file is created; our hook answered exit 0 with nothing (CLAUDE-1).
  down        no guard listening (a refused port): fail open, the file is created, our hook
              answered exit 0 with nothing; the debug log says guard "unavailable" (so the adapter
              did try the guard rather than skip it).
  review      REVIEW with the default PINTA_GUARD_REVIEW: allow (CLAUDE-3), the file is created.
  review-ask  REVIEW with PINTA_GUARD_REVIEW=ask: our hook answers permissionDecision "ask", which
              print mode cannot ask: the call is denied, the file is not created, the tool_result
              is the reason (docs/hosts/claude-code-2.1.md, scenario pre-ask-json).

Every scenario with a guard checks the guard was consulted for this call (a request whose
input.toolName is "Bash" and whose toolInput.command is the scripted command, agent claude_code):
a guard that is never asked fails the lane. The guard budget is 2 s (PINTA_GUARD_TIMEOUT_MS): these
runs check what the CLI does with the adapter's decision; on a loaded machine the 50 ms default
would let the answer arrive late and the adapter fail open. Latency is ci/bench.sh's job.
Exit 0: every check passed; 1: failures (printed); 77: SKIPPED (the CLI cannot be installed).
"""
import argparse, json, os, shutil, subprocess, sys, tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "lanes"))
import real_diff  # noqa: E402  (install_claude, Session: the Claude lane's offline runner)
import guard_lane  # noqa: E402  (emulator/lanes: the guards, the scenario loop, the weak-check proof)

MADE = "made-by-bash.txt"
COMMAND = "printf created > " + MADE
REASON = "pinta real-host deny: no file writes here"
REVIEW_REASON = "pinta real-host review: a person should look"


def turns():
    return [{"content": [{"type": "tool_use", "name": "Bash",
                          "input": {"command": COMMAND, "description": "create a file"}}]},
            {"content": [{"type": "text", "text": "done"}]}]


class GuardSession(real_diff.Session):
    """real_diff's session with our adapter installed in the project and the guard settings."""

    def __init__(self, root, name, adapter, guard_env):
        super().__init__(root, {"name": name, "evidence": "guard lane", "turns": turns(),
                                "prompt": "create the file"})
        self.adapter, self.guard_env = adapter, guard_env
        self.data = os.path.join(root, "data")

    def build(self):
        super().build()
        shutil.rmtree(self.data, ignore_errors=True)
        os.makedirs(self.data, mode=0o700)
        p = subprocess.run([self.adapter, "install", "--host", "claude-code", "--workspace", self.proj],
                           env={"PATH": "/usr/bin:/bin", "HOME": self.home}, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("pinta-gemini install --host claude-code failed: " + (p.stderr or p.stdout).strip())

    def env(self, capture):
        e = super().env(capture)
        e.update({"PINTA_GEMINI_DEBUG": "1", "GEMINI_PLUGIN_DATA": self.data, "PINTA_GUARD_TIMEOUT_MS": "2000"})
        e.update(self.guard_env)
        return e


def observe(s):
    """What the real CLI did: our hook's PreToolUse results, the Bash call's tool_result, denials."""
    ours = []  # every PreToolUse hook's result: ours and real_diff's capture hook (always silent)
    for x in s.stream:
        if x.get("type") == "system" and x.get("subtype") == "hook_response" and x.get("hook_event") == "PreToolUse":
            ours.append(x)
    tool_use_id = next((b["id"] for x in s.stream if x.get("type") == "assistant"
                        for b in x["message"]["content"] if b.get("type") == "tool_use"), None)
    tool_result = None
    for x in s.stream:
        if x.get("type") == "user" and isinstance(x["message"]["content"], list):
            for b in x["message"]["content"]:
                if isinstance(b, dict) and b.get("type") == "tool_result" and b.get("tool_use_id") == tool_use_id:
                    c = b.get("content")
                    tool_result = {"is_error": bool(b.get("is_error")),
                                   "text": c if isinstance(c, str) else real_diff.text_of(c)}
    result = next((x for x in s.stream if x.get("type") == "result"), {})
    denied = any(d.get("tool_use_id") == tool_use_id for d in result.get("permission_denials") or [])
    debug = []
    path = os.path.join(s.data, "invocations.jsonl")
    if os.path.exists(path):
        debug = [json.loads(l) for l in open(path) if l.strip()]
    pre = [d for d in debug if "PreToolUse" in (d.get("argv") or [])]
    session = next((x.get("session_id") for x in s.stream if x.get("type") == "system"
                    and x.get("subtype") == "init"), None)
    return {"session": session, "hooks": ours, "tool_use_id": tool_use_id, "tool_result": tool_result, "denied": denied,
            "made": os.path.exists(os.path.join(s.proj, MADE)), "pre_debug": pre,
            "last_request": real_diff.text_of(s.api[-1]["body"]) if s.api else ""}


def check_consulted(checks, reqs, session):
    asked = [r for r in reqs if isinstance(r.get("input"), dict) and r["input"].get("toolName") == "Bash"
             and (r["input"].get("toolInput") or {}).get("command") == COMMAND]
    checks.append((len(asked) >= 1, "the guard was consulted for the Bash call (%d request(s), %d for Bash %r)"
                   % (len(reqs), len(asked), COMMAND)))
    seen = sorted({(str(r["input"].get("agent")), str(r["input"].get("hook")), r["input"].get("sessionId") == session)
                   for r in asked})
    checks.append((seen == [("claude_code", "PreToolUse", True)], "the request names agent claude_code, hook "
                   "PreToolUse and the CLI's session id: (agent, hook, same session) = %s" % seen))


def our_replies(o):
    """(exit, stdout) of the PreToolUse hooks that said something, and how many ran at all."""
    return [(h.get("exit_code"), h.get("stdout", "")) for h in o["hooks"]]


def check_silent(checks, o):
    # Two PreToolUse hooks run: the lane's capture hook (silent) and ours; both must be silent exit 0.
    replies = our_replies(o)
    checks.append((len(replies) == 2 and all(r == (0, "") for r in replies),
                   "our PreToolUse hook answered exit 0 with no output (CLAUDE-1): %r" % replies))


def decision_line(o, want):
    for code, out in our_replies(o):
        try:
            j = json.loads(out)
        except ValueError:
            continue
        hso = j.get("hookSpecificOutput", {}) if isinstance(j, dict) else {}
        if hso.get("permissionDecision") == want:
            return code, hso.get("permissionDecisionReason")
    return None, None


def scenario_checks(name, o, reqs):
    c = []
    tr = o["tool_result"] or {}
    if name == "deny":
        code, reason = decision_line(o, "deny")
        c.append((code == 0 and reason == REASON, "our hook answered exit 0, permissionDecision deny, the guard's "
                  "reason (CLAUDE-2): exit=%r reason=%r" % (code, reason)))
        c.append((not o["made"], "the Bash call did not run: %s absent" % MADE))
        c.append((o["denied"], "the call is in the result's permission_denials"))
        want = "PreToolUse:Bash hook error: " + REASON
        c.append((tr.get("is_error") is True and tr.get("text") == want,
                  "the model's tool_result is is_error and reads %r: %r" % (want, tr)))
        c.append((want in o["last_request"], "the reason reached the model's next request"))
        check_consulted(c, reqs, o["session"])
    elif name == "allow":
        check_silent(c, o)
        c.append((o["made"], "the Bash call ran: %s created" % MADE))
        c.append((not o["denied"] and tr.get("is_error") is False, "no denial, tool_result not an error: %r" % tr))
        check_consulted(c, reqs, o["session"])
    elif name == "down":
        check_silent(c, o)
        c.append((o["made"], "fail-open: the Bash call ran, %s created" % MADE))
        g = [(d.get("guard"), d.get("guard_error")) for d in o["pre_debug"]]
        c.append((len(g) == 1 and g[0][0] == "unavailable",
                  "the adapter tried the guard and found it unavailable (debug log guard, guard_error: %r)" % g))
    elif name == "review":
        check_silent(c, o)
        c.append((o["made"], "REVIEW is allow by default (CLAUDE-3): %s created" % MADE))
        check_consulted(c, reqs, o["session"])
    elif name == "review-ask":
        code, reason = decision_line(o, "ask")
        c.append((code == 0 and reason == REVIEW_REASON, "our hook answered exit 0, permissionDecision ask, the "
                  "guard's reason (CLAUDE-3, PINTA_GUARD_REVIEW=ask): exit=%r reason=%r" % (code, reason)))
        c.append((not o["made"], "print mode cannot ask: the Bash call did not run, %s absent" % MADE))
        c.append((o["denied"], "the call is in the result's permission_denials"))
        c.append((tr.get("is_error") is True and REVIEW_REASON in tr.get("text", ""),
                  "the model's tool_result is is_error with the reason: %r" % tr))
        c.append((REVIEW_REASON in o["last_request"], "the reason reached the model's next request"))
        check_consulted(c, reqs, o["session"])
    return c


SCENARIOS = [  # name, guard decision (None: no guard listening), extra adapter environment
    ("deny", "DENY", REASON, {}),
    ("allow", "ALLOW", "ok", {}),
    ("down", None, None, {}),
    ("review", "REVIEW", REVIEW_REASON, {}),
    ("review-ask", "REVIEW", REVIEW_REASON, {"PINTA_GUARD_REVIEW": "ask"}),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--adapter", required=True, help="the built pinta-gemini (pinta-gemini-admin beside it)")
    ap.add_argument("--hostemu", required=True)
    ap.add_argument("--fake-server", required=True, help="the built pinta-fake-server")
    ap.add_argument("--claude", help="the real claude.exe (default: ci/npm-claude.sh installs it)")
    ap.add_argument("--only", help="run only the scenarios whose name is this")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="keep the session directories under this directory")
    a = ap.parse_args()
    adapter, hostemu, fake = (os.path.abspath(x) for x in (a.adapter, a.hostemu, a.fake_server))
    for b in (adapter, os.path.join(os.path.dirname(adapter), "pinta-gemini-admin"), hostemu, fake):
        if not os.access(b, os.X_OK):
            print("FAIL: %s is not built" % b)
            sys.exit(1)
    claude = a.claude or real_diff.install_claude()
    base = a.keep or tempfile.mkdtemp(prefix="claude-guard-")
    os.makedirs(base, exist_ok=True)
    scs = [s for s in SCENARIOS if not a.only or s[0] == a.only]

    def one(sc):
        name, decision, reason, extra = sc

        def run(root, url):
            s = GuardSession(root, name, adapter, dict(extra, PINTA_GUARD_ENDPOINT=url))
            s.run_real(claude, hostemu)
            return s
        return guard_lane.run_scenario(base, fake, name, decision, reason, run, observe, scenario_checks)

    failures = guard_lane.run_lane(scs, one, a.jobs, scenario_checks, [s[0] for s in SCENARIOS])
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if failures or not scs else 0)


if __name__ == "__main__":
    main()
