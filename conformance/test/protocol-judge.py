#!/usr/bin/env python3
"""Judges the protocol profile's verdicts against the real hosts (conformance/test/protocol-hooks.sh).

usage: protocol-judge.py gemini REPORT.json EXAMPLES_DIR NPM_PREFIX HOOK_DRIVER WORK_DIR
       protocol-judge.py deel   REPORT.json EXAMPLES_DIR JUDGE_DIR WORK_DIR
       protocol-judge.py claude REPORT.json EXAMPLES_DIR CLAUDE_EXE HOSTEMU WORK_DIR [JOBS]

Every registration the profile graded (HOOK-NNNN in report.json, with the payload it sent) is run
again by the real host's own code: Gemini CLI 0.61.0's HookRunner (@google/gemini-cli-core, through
emulator/hosts/gemini/real/hook_driver.mjs), or deel-local-cli 1.17.1's hooks.js extracted from the
seed (conformance/test/deel-judge.mjs). Each example hook states its intent in a header line
("intent: allow | deny | context"); the real host honoured the hook when it did what the hook
means, the way the hook means it:
  allow    the host goes on with nothing to show: a clean exit, no text reply, no decision
           other than allow, no message (deel: nothing printed);
  deny     the host blocks, by the hook's answer (Gemini: exit 2 or a deny/block decision; deel:
           exit 2) with a reason it shows;
  context  Gemini reads hookSpecificOutput.additionalContext from a JSON reply on exit 0;
and in every case it did so without a timeout, and without waiting for the hook's leftovers (the
host's run took at most 1.5 s longer than the hook's own process, as the profile measured it).
Claude Code 2.1.332 (claude) is judged as a whole CLI, not a hook runner: the registrations are
batched into real print-mode sessions (conformance/test/protocol-hooks-claude.sh; the hook in the
project's .claude/settings.json, the example scripts beside it, the scripted Messages API of
`hostemu claude model-server` making the tool call the profile's payload names, then a text), and
read from the stream (`--include-hook-events`: each hook's exit, output and outcome), the result's
permission_denials, the tool_result and every request the model got:
  allow    outcome success with exit 0, the tool ran (PreToolUse) / the prompt went on, and nothing
           of the hook reached the model or the stream's notices;
  deny     PreToolUse: the call is in permission_denials and the reason (stderr on exit 2, else
           permissionDecisionReason or a block's reason) is in its tool_result; UserPromptSubmit:
           the prompt was blocked with a reason; Stop: the reason reached the model; elsewhere
           the event cannot stop what it follows: never honoured;
  context  additionalContext (UserPromptSubmit, SessionStart: the plain text printed) reached the
           model, outcome success, and the tool ran / the prompt went on.
An intent may depend on the payload: "deny when tool_input.command matches rm -rf; else allow".
Claude Code reads a hook's output when it exits (docs/hosts/claude-code-2.1.md, pre-late-output),
so no wait is measured there.
Every run of a registration (its benign and hostile sample calls, conformance/src/protocol/
samples.h) is judged on its own: the run's verdict in the report (no check failed on it) must be
PASS exactly when the real host honoured the hook on that payload; a difference, or a set of runs
that does not show both verdicts, fails. The default test run judges a slice: the first run and
the first hostile run of each registration (all of them with PINTA_REAL_HOST_FULL=1). The Claude Code judge replays each registration's first
run only (the real CLI executes what a hook lets through; a hostile call must never run).
"""
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys


def intent_of(command, examples, payload=None):
    """The intent a registration states: an "intent:" comment in the command itself (an inline
    command: `... # intent: deny`), else the header line of the first word naming an example
    script. A conditional intent, "A when FIELD matches REGEX; else B", is A when the payload's
    dotted FIELD (a string; FIELD|FIELD: the first present) has a match of REGEX, else B: what the
    hook means for this payload."""
    spec = None
    if "intent:" in command:
        spec = command.split("intent:", 1)[1].strip()
    for word in ([] if spec else command.split()):
        path = os.path.join(examples, word)
        if os.path.isfile(path):
            for line in open(path, encoding="utf-8"):
                if "intent:" in line:
                    spec = line.split("intent:", 1)[1].strip()
                    break
            break
    if spec is None:
        raise SystemExit(f"protocol-judge: no 'intent:' line in the script of {command!r}")
    m = re.fullmatch(r"(\w+) when ([\w.|]+) matches (.+); else (\w+)", spec)
    if not m:
        return spec
    for field in m.group(2).split("|"):  # alternatives: where each host's payload keeps it
        value = payload
        for key in field.split("."):
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, str):
            break
    return m.group(1) if isinstance(value, str) and re.search(m.group(3), value) else m.group(4)


def blank(s):
    return not (s or "").strip()


def graded(report, first_only=False):
    """(case, run, id) for every run of every graded registration (a registration is run on
    several calls: benign and hostile samples, --payload files), each with its own verdict;
    first_only: the first run of each (the benign call of the first tool its matcher selects)."""
    out = []
    for c in json.load(open(report))["cases"]:
        h = c["hosts"][0]
        if not h.get("runs"):
            raise SystemExit(f"protocol-judge: {c['id']} has no run ({h['state']})")
        runs = list(enumerate(h["runs"]))
        if first_only:
            runs = runs[:1]
        elif not os.environ.get("PINTA_REAL_HOST_FULL"):
            # The default test run's slice (the whole set: PINTA_REAL_HOST_FULL=1, ci/real-hosts.sh):
            # the first run and the first hostile one of each registration, so its allow path and
            # its deny path are both judged.
            hostile = [r for r in runs if r[1].get("hostile")]
            runs = runs[:1] + [r for r in hostile[:1] if r[0] != 0]
        for i, run in runs:
            out.append((c, run, "%s#%d" % (c["id"], i + 1)))
    return out


def rebased(payload, folder):
    """The payload with the folder the profile ran the hook in (a copy of the project, removed
    after the run; the payload's cwd) replaced by `folder`, where the real host runs it again."""
    old = payload.get("cwd")
    if not isinstance(old, str) or not old:
        return payload
    return json.loads(json.dumps(payload).replace(json.dumps(old)[1:-1], json.dumps(folder)[1:-1]))


def gemini(report, examples, prefix, driver, work):
    cases = graded(report)
    os.makedirs(os.path.join(work, "plans"), exist_ok=True)
    os.makedirs(os.path.join(work, "home"), exist_ok=True)
    lines = []
    for c, run, rid in cases:
        lines.append(json.dumps({"id": rid, "event": run["event"], "command": run["command"],
                                 "timeout": run["timeout_ms"], "source": "project",
                                 "plans_dir": os.path.join(work, "plans"),
                                 "input": rebased(run["payload"], examples)}))
    cin, cout = os.path.join(work, "cases.jsonl"), os.path.join(work, "results.jsonl")
    open(cin, "w").write("\n".join(lines) + "\n")
    env = dict(os.environ, HOME=os.path.join(work, "home"))
    subprocess.run(["node", driver, prefix, cin, cout, "2"], cwd=examples, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    real = {r["id"]: r for r in map(json.loads, open(cout).read().split("\n")[:-1])}

    def honoured(intent, r, run):
        if r.get("error") or r.get("exitCode") is None:
            return False, f"error {r.get('error')!r}"
        if (r.get("duration") or 0) - run["exited_ms"] > 1500:
            return False, f"waited {r['duration']:.0f} ms for a hook that exited after {run['exited_ms']:.0f} ms"
        out, fmt, code = r.get("output"), r.get("outputFormat"), r.get("exitCode")
        decision = out.get("decision") if isinstance(out, dict) else None
        if intent == "allow":
            ok = code == 0 and fmt != "text" and decision in (None, "allow", "approve")
        elif intent == "deny":
            reason = out.get("reason") if isinstance(out, dict) else None
            ok = decision in ("deny", "block") and not blank(reason)
        elif intent == "context":
            ctx = (out or {}).get("hookSpecificOutput", {}) if isinstance(out, dict) else {}
            ok = code == 0 and fmt == "json" and not blank(ctx.get("additionalContext"))
        else:
            raise SystemExit(f"protocol-judge: unknown intent {intent}")
        return ok, f"exit {code}, outputFormat {fmt}, decision {decision}"

    return compare(cases, examples, lambda c, run, rid: honoured(intent_of(run["command"], examples, run["payload"]),
                                                                 real[rid], run), "Gemini CLI 0.61.0 HookRunner")


def deel(report, examples, judge_dir, work):
    cases = graded(report)
    todo = []
    for c, run, rid in cases:
        path, _, pointer = c["source"].partition("#")
        entries = json.load(open(path, encoding="utf-8"))
        entry = entries[int(pointer.rsplit("/", 1)[1])]
        payload = dict(run["payload"])
        tool = payload.pop("도구", None)
        todo.append({"id": rid, "entry": entry, "event": run["event"], "tool": tool,
                     "payload": payload, "cwd": examples})
    os.makedirs(work, exist_ok=True)
    cin = os.path.join(work, "deel-cases.json")
    json.dump(todo, open(cin, "w"), ensure_ascii=False)
    env = dict(os.environ, HOME=os.path.join(work, "home"))
    os.makedirs(env["HOME"], exist_ok=True)
    p = subprocess.run(["node", os.path.join(judge_dir, "judge.mjs"), cin], env=env, check=True,
                       capture_output=True, text=True, timeout=600)
    real = {r["id"]: r for r in map(json.loads, p.stdout.splitlines())}

    def honoured(c, run, rid):
        r, intent = real[rid], intent_of(run["command"], examples, run["payload"])
        if r["why"]:
            return False, r["why"]
        if r["ms"] - run["exited_ms"] > 1500:
            return False, f"waited {r['ms']} ms for a hook that exited after {run['exited_ms']:.0f} ms"
        if intent == "allow":
            ok = r["code"] == 0 and not r["blocked"] and blank(r["message"])
        elif intent == "deny":
            ok = r["blocked"] and r["code"] == 2 and not blank(r["message"])
        else:
            raise SystemExit(f"protocol-judge: intent {intent} has no deel-local-cli meaning")
        return ok, f"code {r['code']}, blocked {r['blocked']}, message {r['message'][:50]!r}"

    return compare(cases, examples, honoured, "deel-local-cli 1.17.1 hooks.js (seed)")


# ---- Claude Code: the real CLI, one print-mode session per batch of registrations --------------
CLAUDE_TOOL_EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure")


def claude_matches(matcher, tool):
    """Claude Code 2.1.332's matcher on a tool name (docs/hosts/claude-code-2.1.md "Matchers"):
    "", "*" match all; a plain list of names split on | and , compares exactly; else a regex."""
    if matcher in ("", "*"):
        return True
    if re.fullmatch(r"[A-Za-z0-9_|, -]*", matcher):
        return tool in [x.strip() for x in re.split(r"[|,]", matcher)]
    try:
        return re.search(matcher, tool) is not None
    except re.error:
        return False


def claude_registration(c, run, examples):
    event, command = run["event"], run["command"]
    title = c["title"]
    head = f"{event} ["
    matcher = title[len(head):len(title) - len(command) - 3] if title.startswith(head) else ""
    payload = run["payload"]
    return {"id": c["id"], "event": event, "matcher": matcher, "command": command,
            "timeout_s": run["timeout_ms"] // 1000, "tool": payload.get("tool_name"),
            "tool_input": payload.get("tool_input"), "ws": payload.get("cwd", ""),
            "intent": intent_of(command, examples, payload)}


def claude_fits(session, r):
    """A registration joins a session when what the real CLI does with it stays its own: one
    registration per event without a tool, and no tool call of the session fires another
    registration's tool hook (the session makes one call per tool hook, each to a tool no other
    tool hook's matcher takes), so an outcome and a text the model got are this registration's
    alone. A UserPromptSubmit hook meant to block would stop the whole session: it runs alone."""
    for o in session:
        if o["event"] == r["event"] and r["event"] not in CLAUDE_TOOL_EVENTS:
            return False
        if any(x["event"] == "UserPromptSubmit" and x["intent"] == "deny" for x in (o, r)):
            return False
        if r["event"] in CLAUDE_TOOL_EVENTS and o["event"] in CLAUDE_TOOL_EVENTS:
            if r["tool"] == o["tool"] or claude_matches(r["matcher"], o["tool"]) or \
                    claude_matches(o["matcher"], r["tool"]):
                return False
    return True


def claude_pack(regs):
    """First fit, the most demanding first: tool hooks whose matcher takes every tool (each needs a
    session of its own tool events), then the other tool hooks, then the rest."""
    def demand(r):
        tool = r["event"] in CLAUDE_TOOL_EVENTS
        return (0 if tool and claude_matches(r["matcher"], "NoSuchTool_") else 1 if tool else 2)
    sessions = []
    for r in sorted(regs, key=demand):
        home = next((s for s in sessions if claude_fits(s, r)), None)
        if home is None:
            sessions.append([r])
        else:
            home.append(r)
    return sessions


def claude_text(x):
    out = []

    def walk(y):
        if isinstance(y, str):
            out.append(y)
        elif isinstance(y, list):
            for z in y:
                walk(z)
        elif isinstance(y, dict):
            for z in y.values():
                walk(z)
    walk(x)
    return "\n".join(out)


def claude_session(k, regs, examples, claude_bin, hostemu, work):
    """One real print-mode session: the registrations in the project's .claude/settings.json, the
    example scripts beside it (the commands run in the project dir, as the profile ran them in
    the examples' dir), the scripted model making each tool call the profile's payload named (the
    profile's workspace replaced by the project) and then a text answer."""
    root = os.path.join(work, "session-%d" % k)
    shutil.rmtree(root, ignore_errors=True)
    home, proj = os.path.join(root, "home"), os.path.join(root, "proj")
    os.makedirs(os.path.join(home, ".claude"))
    os.makedirs(os.path.join(proj, ".claude"))
    for f in os.listdir(examples):
        os.symlink(os.path.join(examples, f), os.path.join(proj, f))
    hooks = {}
    for r in regs:
        h = {"type": "command", "command": r["command"]}
        if r["timeout_s"] != 600:
            h["timeout"] = r["timeout_s"]
        hooks.setdefault(r["event"], []).append({"matcher": r["matcher"], "hooks": [h]})
    with open(os.path.join(proj, ".claude", "settings.json"), "w") as f:
        json.dump({"hooks": hooks}, f, indent=1)
    turns = []
    for r in regs:
        if r["event"] in CLAUDE_TOOL_EVENTS and r["tool"]:
            ti = json.loads(json.dumps(r["tool_input"]).replace(json.dumps(r["ws"])[1:-1], proj))
            r["tool_use_id"] = "toolu_judge_%s" % r["id"].replace("-", "_")
            turns.append({"content": [{"type": "tool_use", "id": r["tool_use_id"], "name": r["tool"],
                                       "input": ti}]})
    turns.append({"content": [{"type": "text", "text": "done"}]})
    script, api_log = os.path.join(root, "script.json"), os.path.join(root, "api.jsonl")
    with open(script, "w") as f:
        json.dump({"turns": turns, "whenExhausted": {"content": [{"type": "text", "text": "(more)"}]}}, f)
    srv = subprocess.Popen([hostemu, "claude", "model-server", "--script", script, "--log", api_log],
                           stdout=subprocess.PIPE, text=True)
    try:
        port = srv.stdout.readline().split()[1]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8",
               "ANTHROPIC_BASE_URL": "http://127.0.0.1:" + port, "ANTHROPIC_API_KEY": "scripted",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}
        p = subprocess.run([claude_bin, "-p", "go", "--output-format", "stream-json", "--verbose",
                            "--include-hook-events", "--allowedTools", "Bash,Write,Edit"],
                           cwd=proj, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           errors="surrogateescape", timeout=300)
    finally:
        srv.send_signal(signal.SIGTERM)
        srv.wait()
    stream = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    api = [json.loads(l) for l in open(api_log)] if os.path.exists(api_log) else []
    return {"regs": regs, "stream": stream, "api": api, "proj": proj, "rc": p.returncode,
            "stderr": p.stderr}


def claude_observe(sess, r):
    """What the real CLI did with registration r in its session."""
    stream = sess["stream"]
    responses = [x for x in stream if x.get("type") == "system" and x.get("subtype") == "hook_response"
                 and x.get("hook_event") == r["event"]]
    if r["event"] in CLAUDE_TOOL_EVENTS:
        responses = [x for x in responses if x.get("hook_name") == "%s:%s" % (r["event"], r["tool"])]
    result = next((x for x in stream if x.get("type") == "result"), {})
    tid = r.get("tool_use_id")
    tool_result = None
    for x in stream:
        if x.get("type") == "user" and isinstance(x["message"]["content"], list):
            for b in x["message"]["content"]:
                if isinstance(b, dict) and b.get("type") == "tool_result" and tid and b.get("tool_use_id") == tid:
                    c = b.get("content")
                    tool_result = {"is_error": bool(b.get("is_error")),
                                   "text": c if isinstance(c, str) else claude_text(c)}
    denied = any(d.get("tool_use_id") == tid for d in result.get("permission_denials") or []) if tid else False
    return {"responses": responses, "tool_result": tool_result, "denied": denied,
            "prompt_blocked": any((x.get("prompt_submit_outcome") or {}).get("kind") == "blocked_by_hook"
                                  for x in stream),
            "requests": "\n".join(claude_text(q.get("body")) for q in sess["api"]),
            "n_requests": len(sess["api"]),
            "notices": [x for x in stream if x.get("type") == "system" and x.get("subtype") == "informational"]}


def claude_reason(code, out, err):
    """The reason a blocking reply gives, as Claude Code reads it: stderr on exit 2; on exit 0 a
    JSON reply's permissionDecisionReason (deny) or reason (decision block)."""
    if code == 2:
        return err.strip()
    try:
        j = json.loads(out)
    except ValueError:
        return ""
    if not isinstance(j, dict):
        return ""
    hso = j.get("hookSpecificOutput") if isinstance(j.get("hookSpecificOutput"), dict) else {}
    if hso.get("permissionDecision") == "deny":
        return str(hso.get("permissionDecisionReason") or "").strip()
    if j.get("decision") == "block":
        return str(j.get("reason") or "").strip()
    return ""


def claude_context(event, code, out):
    """The context a reply carries: additionalContext of a JSON reply, or (UserPromptSubmit,
    SessionStart) the plain text printed."""
    if code != 0:
        return ""
    try:
        j = json.loads(out)
    except ValueError:
        j = None
    if isinstance(j, dict):
        hso = j.get("hookSpecificOutput") if isinstance(j.get("hookSpecificOutput"), dict) else {}
        return str(hso.get("additionalContext") or "").strip()
    return out.strip() if event in ("UserPromptSubmit", "SessionStart") else ""


def claude_honoured(r, o):
    if len(o["responses"]) != 1:
        return False, "the real CLI reported %d runs of it" % len(o["responses"])
    h = o["responses"][0]
    code, out, err, outcome = h.get("exit_code"), h.get("stdout") or "", h.get("stderr") or "", h.get("outcome")
    ev, intent = r["event"], r["intent"]
    said = f"exit {code}, outcome {outcome}"
    # Shown: a text the CLI labels with this hook (`PreToolUse:Bash hook error: …`, `Stop hook
    # feedback: …`) or a line the hook printed, in a model request; a notice in the stream that
    # names this hook (`<Hook> says: …`, a warning about this event or this tool call).
    name = ev + (":" + r["tool"] if ev in CLAUDE_TOOL_EVENTS else "")
    label = re.compile(r"\b%s%s hook (?!\()" % (re.escape(name), "" if ev in CLAUDE_TOOL_EVENTS else r"(?::\S+)?"))
    shown = [m.group(0) for m in label.finditer(o["requests"])]
    shown += [l.strip() for l in (out + "\n" + err).splitlines() if len(l.strip()) >= 4
              and l.strip() in o["requests"]]
    for n in o["notices"]:
        about = n.get("hook_no_verdict") or {}
        if str(n.get("content", "")).startswith(name) or (about.get("hook_event") == ev and (
                ev not in CLAUDE_TOOL_EVENTS or about.get("tool_use_id") == r.get("tool_use_id"))):
            shown.append(n.get("content", ""))
    tr = o["tool_result"]
    if ev == "PreToolUse":
        went_on = tr is not None and not tr["is_error"] and not o["denied"]
        said += ", tool %s" % ("ran" if went_on else "not run: %r" % (tr or {}).get("text", "")[:80])
    elif ev == "UserPromptSubmit":
        went_on = not o["prompt_blocked"] and o["n_requests"] > 0
    else:
        went_on = True
    if intent == "allow":
        ok = code == 0 and outcome == "success" and went_on and not shown
        if shown:
            said += ", shown: %r" % shown[0][:60]
    elif intent == "deny":
        reason = claude_reason(code, out, err)
        said += ", reason %r" % reason[:50]
        if ev == "PreToolUse":
            ok = o["denied"] and tr is not None and tr["is_error"] and bool(reason) and \
                reason in tr["text"] and reason in o["requests"]
        elif ev == "UserPromptSubmit":
            ok = o["prompt_blocked"] and bool(reason)
        elif ev == "Stop":
            ok = bool(reason) and reason in o["requests"]
        else:
            ok, said = False, said + ", %s cannot stop what it follows" % ev
    elif intent == "context":
        ctx = claude_context(ev, code, out)
        ok = outcome == "success" and went_on and bool(ctx) and ctx in o["requests"]
        said += ", context %s the model" % ("reached" if ctx and ctx in o["requests"] else "did not reach")
    else:
        raise SystemExit(f"protocol-judge: unknown intent {intent}")
    return ok, said


def claude(report, examples, claude_bin, hostemu, work, jobs="2"):
    # Each registration's first run only: the real CLI executes the call a hook lets through, and
    # the hostile sample calls (`rm -rf /`, …) must never run; they are judged against the hooks
    # runners of the Gemini and deel lanes, which run the hook and not the tool.
    cases = graded(report, first_only=True)
    regs = [claude_registration(c, run, examples) for c, run, _ in cases]
    sessions = claude_pack(regs)
    os.makedirs(work, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(int(jobs)) as ex:
        done = list(ex.map(lambda kv: claude_session(kv[0], kv[1], examples, claude_bin, hostemu, work),
                           enumerate(sessions)))
    by_id = {}
    for sess in done:
        for r in sess["regs"]:
            by_id[r["id"]] = (r, sess)
    print(f"protocol-judge: {len(regs)} registrations in {len(sessions)} real Claude Code sessions")

    def honoured(c, run, rid):
        r, sess = by_id[c["id"]]
        return claude_honoured(r, claude_observe(sess, r))

    return compare(cases, examples, honoured, "Claude Code 2.1.332 (real CLI)")


def compare(cases, examples, honoured, judge):
    """Each run's own verdict (PASS: no check failed on it) against the real host."""
    bad = 0
    seen = set()
    for c, run, rid in cases:
        ok, why = honoured(c, run, rid)
        verdict = "FAIL" if run.get("failed_checks") else "PASS"
        seen.add(verdict)
        agree = (verdict == "PASS") == ok
        bad += not agree
        title = "%s | %s" % (c["title"][:40], run.get("call", ""))
        first = [f for f in c["hosts"][0]["failures"] if run.get("call", "") in f][:1]
        print(f"{'ok ' if agree else 'DIFF'} {rid:<12} {title[:70]:<70} profile {verdict:<4}"
              f" | {judge}: {'honoured' if ok else 'not honoured'} ({why})"
              + (f"\n       profile: {first[0]}" if first and not agree else ""))
    if seen != {"PASS", "FAIL"}:
        print(f"protocol-judge: the hooks show only {sorted(seen)}; both verdicts are needed")
        bad += 1
    npass = sum(1 for c, run, _ in cases if not run.get("failed_checks"))
    print(f"protocol-judge: {len(cases) - bad} of {len(cases)} run verdicts ({npass} PASS, "
          f"{len(cases) - npass} FAIL) agree with {judge}")
    return 1 if bad else 0


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "gemini":
        sys.exit(gemini(*sys.argv[2:7]))
    if mode == "deel":
        sys.exit(deel(*sys.argv[2:6]))
    if mode == "claude":
        sys.exit(claude(*sys.argv[2:8]))
    raise SystemExit("usage: protocol-judge.py gemini|deel|claude ...")
