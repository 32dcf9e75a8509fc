#!/usr/bin/env python3
"""Differential lane: Claude Code 2.1.332 (the real CLI) against `hostemu claude run`.

Each scenario (test/scenarios/*.json) and each generated fuzz session runs once on the real CLI,
offline, against `hostemu claude model-server` (the scripted Messages API), with its own HOME.
A capture hook (a --settings file, matcher "") records every payload the real CLI sent. Then the
home and project are rebuilt as they were and every captured payload is replayed, in the real
order, through `hostemu claude run` with the same settings. Compared, per hook event fired:
  - the hook results: the multiset of (exit, stdout, stderr) against the real CLI's
    `--include-hook-events` hook_response lines;
  - the outcome against what the real CLI did: PreToolUse blocked <=> the call is in
    permission_denials, and then toolResult == the tool_result text; updatedInput == the input the
    tool ran with; UserPromptSubmit blocked <=> the prompt was blocked; Stop blocked <=> the model
    got another turn; continue:false <=> the session ended early; every systemMessage as the
    "<hook> says: <message>" notices; every modelContext text is in the model's requests, and every
    hook text in the model's last request is one the emulator predicted.
Exit 0: no difference; 1: differences (printed); 77: SKIPPED (npm unreachable, reason printed).
  - SubagentStop blocked <=> the same subagent (agent_id) stopped again; the hook results' outcome
    ("success" | "error" | "cancelled") against hook_response's; PreToolUse's warnings against
    the stream's hook_no_verdict notices for that call.
Scenario file: {"name", "evidence", "prompt"?, "turns": [Messages turns], "user"?, "project"?,
"local"?, "extra"?: [settings objects passed with --settings], "allowedTools"?: the --allowedTools
value (default "Bash"; "Bash,Agent,Task" lets a turn call the Agent tool)}.
A subagent: a turn with a tool_use of `Agent` (input {"description", "prompt", "subagent_type",
"run_in_background": false}) runs a subagent in the foreground; its model requests take the next
scripted turns (after SubagentStart), one more each time SubagentStop sends it back, then the main
agent's request takes the next. In the background (the Agent tool's default) the subagent's and
the main agent's requests race for the turns.
"""
import argparse, collections, concurrent.futures as cf, json, os, random, re, shutil, signal
import subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "lanes"))
import real_slice  # noqa: E402  (emulator/lanes: the README's slice or the full sweep)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("PINTA_SOURCE_DIR") or os.path.abspath(os.path.join(HERE, "../../../.."))
CAPTURE_CMD = 'cat >> "${PINTA_CLAUDE_CAP:-/dev/null}"; echo >> "${PINTA_CLAUDE_CAP:-/dev/null}"'
EVENTS_IN_PRINT_MODE = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                        "PostToolUseFailure", "Stop", "SessionEnd", "Notification", "SubagentStart", "SubagentStop",
                        "PreCompact", "PostCompact", "PermissionRequest", "PermissionDenied"]
# Hooks the stream does not report: SessionEnd runs after it has ended; PreCompact (a /compact
# prompt) is not reported by --include-hook-events (compact-prompt).
NOT_IN_STREAM = ("SessionEnd", "PreCompact")
HOOK_TEXT = re.compile(r"\b([A-Z][A-Za-z]+(?::[A-Za-z0-9_.-]+)?) hook (additional context|success|"
                       r"blocking error from command|feedback):")


def install_claude():
    p = subprocess.run(["bash", os.path.join(SRC, "ci/npm-claude.sh")], capture_output=True, text=True)
    if p.returncode in (3, 4):
        print("[  SKIPPED ] real Claude Code unavailable: " + p.stderr.strip())
        sys.exit(77)
    if p.returncode != 0:
        print("ci/npm-claude.sh failed: " + p.stderr.strip())
        sys.exit(1)
    return p.stdout.strip().splitlines()[-1]


class Session:
    def __init__(self, root, sc):
        self.root, self.sc = root, sc
        self.home, self.proj = os.path.join(root, "home"), os.path.join(root, "proj")
        self.cap = os.path.join(root, "capture.jsonl")
        self.capture_settings = os.path.join(root, "capture-settings.json")
        self.extra = [os.path.join(root, "extra-%d.json" % i) for i in range(len(sc.get("extra", [])))]

    def build(self):
        for d in (self.home, self.proj):
            shutil.rmtree(d, ignore_errors=True)
        os.makedirs(os.path.join(self.home, ".claude"))
        os.makedirs(os.path.join(self.proj, ".claude"))
        os.makedirs(os.path.join(self.root, "managed"), exist_ok=True)
        def put(path, obj):  # a string is written as it is (a broken settings file)
            with open(path, "w") as f:
                f.write(obj) if isinstance(obj, str) else json.dump(obj, f)
        if "user" in self.sc: put(os.path.join(self.home, ".claude/settings.json"), self.sc["user"])
        if "project" in self.sc: put(os.path.join(self.proj, ".claude/settings.json"), self.sc["project"])
        if "local" in self.sc: put(os.path.join(self.proj, ".claude/settings.local.json"), self.sc["local"])
        for path, obj in zip(self.extra, self.sc.get("extra", [])): put(path, obj)
        last = dict(self.sc["extra"][-1]) if self.sc.get("extra") else {}
        hooks = {k: list(v) for k, v in last.get("hooks", {}).items()}
        for e in EVENTS_IN_PRINT_MODE:
            hooks.setdefault(e, []).append({"matcher": "", "hooks": [{"type": "command", "command": CAPTURE_CMD}]})
        last["hooks"] = hooks
        put(self.capture_settings, last)

    def env(self, capture):
        e = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": self.home, "LANG": "C.UTF-8",
             "PINTA_CLAUDE_MANAGED_DIR": os.path.join(self.root, "managed")}
        if capture: e["PINTA_CLAUDE_CAP"] = self.cap
        return e

    def settings_args(self):
        # Several --settings are merged key by key (the later "hooks" replaces the earlier), so the
        # capture hooks go into the last one.
        out = []
        for p in self.extra: out += ["--settings", p]
        return out + ["--settings", self.capture_settings]

    def run_real(self, claude, hostemu):
        self.build()
        with open(os.path.join(self.root, "script.json"), "w") as f:
            json.dump({"turns": self.sc["turns"], "whenExhausted": {"content": [{"type": "text", "text": "(script exhausted)"}]}}, f)
        api_log = os.path.join(self.root, "api.jsonl")
        srv = subprocess.Popen([hostemu, "claude", "model-server", "--script", os.path.join(self.root, "script.json"),
                                "--log", api_log], stdout=subprocess.PIPE, text=True)
        try:
            port = srv.stdout.readline().split()[1]
            env = self.env(True)
            env.update({"ANTHROPIC_BASE_URL": "http://127.0.0.1:" + port, "ANTHROPIC_API_KEY": "scripted",
                        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"})
            args = [claude, "-p", self.sc.get("prompt", "go"), "--output-format", "stream-json", "--verbose",
                    "--include-hook-events", "--allowedTools", self.sc.get("allowedTools", "Bash")] + self.settings_args()
            with open(os.devnull) as dn:
                p = subprocess.run(args, cwd=self.proj, env=env, stdin=dn, capture_output=True, text=True,
                                   timeout=300, errors="surrogateescape")
            self.stream = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
            with open(os.path.join(self.root, "stream.jsonl"), "w", errors="surrogateescape") as f:
                f.write(p.stdout)  # for --keep
            self.stderr = p.stderr
            self.rc = p.returncode
        finally:
            srv.send_signal(signal.SIGTERM)
            srv.wait()
        self.load_recorded()

    def load_recorded(self):
        """What the real CLI did, as run_real left it in the session directory (--keep): the
        stream, the model requests and the captured payloads. --rejudge reads these again."""
        api_log = os.path.join(self.root, "api.jsonl")
        if not hasattr(self, "stream"):
            with open(os.path.join(self.root, "stream.jsonl"), errors="surrogateescape") as f:
                self.stream = [json.loads(l) for l in f.read().splitlines() if l.startswith("{")]
        self.api = [json.loads(l) for l in open(api_log)] if os.path.exists(api_log) else []
        self.raw_payloads = [l for l in open(self.cap, "rb").read().split(b"\n") if l.strip()] \
            if os.path.exists(self.cap) else []
        self.payloads = [json.loads(l) for l in self.raw_payloads]

    def replay(self, hostemu):
        self.hostemu = hostemu
        self.build()  # the files the hooks see start as they started for the real CLI
        # The emulator's per-session record of the hooks that warned (a hook warns once per
        # session) starts empty too: a second judging of the same session (--rejudge) must not
        # find the first one's.
        key = re.sub(r"[^A-Za-z0-9]", "-", self.proj)
        for sid in {pl.get("session_id") for pl in self.payloads if isinstance(pl.get("session_id"), str)}:
            state = os.path.join("/tmp", "claude-%d" % os.getuid(), key, sid, "pinta-hostemu-warned.json")
            if os.path.exists(state): os.remove(state)
        self.emu = []
        for pl in self.payloads:
            ev = pl["hook_event_name"]
            p = subprocess.run([hostemu, "claude", "run", "--home", self.home, "--project", self.proj,
                                "--event", ev] + self.settings_args(), input=json.dumps(pl, separators=(",", ":")),
                               cwd=self.proj, env=self.env(False), capture_output=True, text=True,
                               errors="surrogateescape", timeout=900)
            if p.returncode != 0:
                self.emu.append({"error": p.stderr.strip()})
            else:
                self.emu.append(json.loads(p.stdout))


def text_of(obj):
    out = []
    def walk(x):
        if isinstance(x, str): out.append(x)
        elif isinstance(x, list):
            for y in x: walk(y)
        elif isinstance(x, dict):
            for y in x.values(): walk(y)
    walk(obj)
    return "\n".join(out)


def persisted_name(text):
    return re.sub(r"/tool-results/hook-[^\s/]*-additionalContext\.txt", "/tool-results/hook-*-additionalContext.txt", text)


def compare(s):
    diffs = []
    behaviours = 0
    stream = s.stream
    responses = collections.defaultdict(list)
    for x in stream:
        if x.get("type") == "system" and x.get("subtype") == "hook_response":
            responses[x["hook_event"]].append(x)
    used = collections.Counter()
    # A session that gets another prompt (a background task's notification) has several results.
    results = [x for x in stream if x.get("type") == "result"]
    result = results[-1] if results else {}
    denials = {d["tool_use_id"]: d for r in results for d in (r.get("permission_denials") or [])}
    tool_results = {}
    for x in stream:
        if x.get("type") == "user":
            for b in x["message"]["content"] if isinstance(x["message"]["content"], list) else []:
                if isinstance(b, dict) and b.get("type") == "tool_result":
                    c = b["content"]
                    tool_results[b["tool_use_id"]] = c if isinstance(c, str) else text_of(c)
    no_verdict = collections.defaultdict(collections.Counter)  # tool_use_id -> warning texts
    for x in stream:
        if x.get("tag") == "hook_no_verdict":
            no_verdict[x["hook_no_verdict"].get("tool_use_id")][x.get("content")] += 1
    # permissionDecision "defer": the session ends with the call neither run nor denied.
    deferred = result.get("terminal_reason") == "tool_deferred"
    generated = s.sc.get("evidence") == "generated"
    says = collections.Counter(x["content"] for x in stream if x.get("type") == "system"
                               and x.get("subtype") == "informational" and " says: " in x.get("content", ""))
    ups_blocked = any(x.get("prompt_submit_outcome", {}).get("kind") == "blocked_by_hook" for x in stream)
    # A persisted context's file name carries an id and 32 hex digits the real CLI draws itself
    # (post-ctx-large): compared without them.
    all_requests_text = persisted_name("\n".join(text_of(r.get("body")) for r in s.api))
    last_text = text_of(s.api[-1]["body"]) if s.api else ""
    expect_says = collections.Counter()
    predicted_hook_texts = collections.Counter()
    halted = False
    stop_idx = [i for i, pl in enumerate(s.payloads) if pl["hook_event_name"] == "Stop"]
    # A subagent's SubagentStop payloads, in order (one more each time a hook sends it back).
    substop_idx = collections.defaultdict(list)
    for i, pl in enumerate(s.payloads):
        if pl["hook_event_name"] == "SubagentStop":
            substop_idx[pl.get("agent_id")].append(i)
    for i, (pl, em) in enumerate(zip(s.payloads, s.emu)):
        ev = pl["hook_event_name"]
        where = "%s #%d (%s)" % (s.sc["name"], i, ev)
        if "error" in em:
            diffs.append(where + ": hostemu failed: " + em["error"]); continue
        n = len(em["results"])
        real = responses[ev][used[ev]:used[ev] + n]
        o = em["outcome"]
        # Hooks still running when a sibling ends the session (continue:false) are cancelled: not
        # reported, their replies unread. Which ones is a race the one-event emulator does not
        # order, so where generated hooks race the real report may be any part of the emulator's.
        cut_short = generated and not o["continue"]
        if ev not in NOT_IN_STREAM:
            used[ev] += len(real) if cut_short else n
            mine = sorted((r["exit"], r["stdout"], r["stderr"], r["outcome"]) for r in em["results"])
            theirs = sorted((r["exit_code"], r["stdout"], r["stderr"], r["outcome"]) for r in real)
            behaviours += len(real) if cut_short else n
            if (collections.Counter(theirs) - collections.Counter(mine)) if cut_short else mine != theirs:
                diffs.append(where + ": hook results differ\n  emulator: %r\n  real:     %r" % (mine, theirs))
        name = ev + (":" + pl["tool_name"] if "tool_name" in pl else ":" + pl["source"] if ev == "SessionStart" else "")
        # SessionStart notices are not in the print-mode stream (fuzz lane), nor are a subagent's
        # (subagent-start, subagent-stop-block).
        for m in (o["systemMessage"].split("\n") if o["systemMessage"] and
                  ev not in ("SessionStart", "SubagentStart", "SubagentStop") else []):
            if cut_short and not any(m in r["stdout"] for r in real):
                continue  # a cancelled hook's message (each generated message is unique)
            expect_says[name + " says: " + m] += 1
        for t in o["modelContext"]:
            if ev == "PreToolUse" and t == o["toolResult"]:
                continue
            t = persisted_name(t)
            if not o["continue"] or halted:
                continue  # the session ends at this step or did at an earlier one: nothing more reaches the model
            label = " hook additional context: "
            if label in t:
                # Several hooks' contexts may reach the model joined under one label, in the order
                # the hooks finished (timing): each item must be there after its label.
                head, items = t.split(label, 1)
                if head + label not in all_requests_text or any(x not in all_requests_text for x in items.split("\n")):
                    diffs.append(where + ": the model was never told %r" % t)
            elif t not in all_requests_text:
                diffs.append(where + ": the model was never told %r" % t)
            for m in HOOK_TEXT.finditer(t):
                predicted_hook_texts[m.group(0)] += 1
        if not o["continue"]:
            halted = True
        if ev == "PreToolUse":
            tid = pl.get("tool_use_id")
            warned = collections.Counter(o.get("warnings", []))  # the report leaves out an empty list
            if warned != no_verdict[tid]:
                diffs.append(where + ": no-verdict warnings emulator=%r real=%r" % (dict(warned), dict(no_verdict[tid])))
            ran = any(p["hook_event_name"] in ("PostToolUse", "PostToolUseFailure") and p.get("tool_use_id") == tid
                      for p in s.payloads)
            real_deferred = deferred and not ran and tid not in denials and tid not in tool_results
            if (o["permissionDecision"] == "defer") != real_deferred:
                diffs.append(where + ": deferred emulator=%s real=%s" % (o["permissionDecision"] == "defer", real_deferred))
            real_blocked = tid in denials or real_deferred
            if o["blocked"] != real_blocked:
                diffs.append(where + ": blocked emulator=%s real=%s" % (o["blocked"], real_blocked))
            elif real_blocked and not real_deferred:
                # Several blocking hooks: the last to finish gives the text. Scenarios declare
                # their order by timing; generated hooks race (no sleep), so only one is checked.
                n_blockers = sum(1 for r in em["results"] if r["exit"] == 2 or '"deny"' in r["stdout"]
                                 or '"block"' in r["stdout"] or '"ask"' in r["stdout"])
                if (n_blockers <= 1 or not generated) and o["toolResult"] != tool_results.get(tid):
                    diffs.append(where + ": tool_result emulator=%r real=%r" % (o["toolResult"], tool_results.get(tid)))
            # Several hooks' updatedInput: the last to finish wins; generated hooks race (no
            # sleep), so there only a single one is checked.
            n_updaters = sum(1 for r in em["results"] if '"updatedInput"' in r["stdout"])
            if o["updatedInput"] is not None and (n_updaters <= 1 or not generated):
                post = next((p for p in s.payloads if p["hook_event_name"] in ("PostToolUse", "PostToolUseFailure")
                             and p.get("tool_use_id") == tid), None)
                if post is None or post["tool_input"] != o["updatedInput"]:
                    diffs.append(where + ": updatedInput %r, tool ran with %r" % (o["updatedInput"], post and post["tool_input"]))
        if ev == "UserPromptSubmit":
            if o["blocked"] != ups_blocked:
                diffs.append(where + ": prompt blocked emulator=%s real=%s" % (o["blocked"], ups_blocked))
            if not o["continue"] and o["stopReason"] is not None and \
                    result.get("result") != "Operation stopped by hook: " + o["stopReason"]:
                diffs.append(where + ": stopReason %r, real result %r" % (o["stopReason"], result.get("result")))
        if ev == "Stop":
            again = stop_idx.index(i) + 1 < len(stop_idx)
            # Session-level cap: after 8 re-prompts in a row the 9th Stop ends the session whatever
            # its hooks say (fuzz lane); the emulator judges one event and reports the hook's ask.
            capped = stop_idx.index(i) == 8 and not again
            if (o["blocked"] and o["continue"]) != again and not capped:
                diffs.append(where + ": model sent back emulator=%s real=%s" % (o["blocked"] and o["continue"], again))
        if ev == "SubagentStop":
            mine_idx = substop_idx[pl.get("agent_id")]
            again = mine_idx.index(i) + 1 < len(mine_idx)
            if (o["blocked"] and o["continue"]) != again:
                diffs.append(where + ": subagent sent back emulator=%s real=%s" % (o["blocked"] and o["continue"], again))
    if not s.payloads:
        # Nothing was captured (every hook off, the capture hook included): the emulator must plan
        # nothing either for the events this session fires.
        for ev, extra in (("SessionStart", {"source": "startup"}), ("UserPromptSubmit", {"prompt": "go"}),
                          ("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "echo ran"}}), ("Stop", {})):
            pl = dict({"session_id": "x", "cwd": s.proj, "hook_event_name": ev}, **extra)
            p = subprocess.run([s.hostemu, "claude", "run", "--home", s.home, "--project", s.proj, "--event", ev]
                               + s.settings_args(), input=json.dumps(pl), cwd=s.proj, env=s.env(False),
                               capture_output=True, text=True)
            planned = len(json.loads(p.stdout)["loaded"]) if p.returncode == 0 else -1
            real_n = sum(1 for x in stream if x.get("subtype") == "hook_response" and x.get("hook_event") == ev)
            if planned != real_n:
                diffs.append("%s: %s hooks real=%d emulator=%d" % (s.sc["name"], ev, real_n, planned))
    if len(s.payloads) != len(s.emu):
        diffs.append(s.sc["name"] + ": replay count differs")
    for ev, lst in responses.items():
        if used[ev] != len(lst):
            diffs.append("%s: real ran %d %s hooks, emulator %d" % (s.sc["name"], len(lst), ev, used[ev]))
    if says != expect_says:
        diffs.append("%s: systemMessage notices emulator=%r real=%r" % (s.sc["name"], dict(expect_says), dict(says)))
    real_hook_texts = collections.Counter(m.group(0) for m in HOOK_TEXT.finditer(last_text))
    for k, v in real_hook_texts.items():
        if predicted_hook_texts[k] < v:
            diffs.append("%s: the model was told %r %d times, emulator predicted %d" % (s.sc["name"], k, v, predicted_hook_texts[k]))
    last_assistant, ended_on_tool = "", False
    for x in stream:
        if x.get("type") == "assistant" and not x.get("parent_tool_use_id"):  # the main agent's
            last_assistant = "".join(b.get("text", "") for b in x["message"]["content"] if b.get("type") == "text")
            ended_on_tool = any(b.get("type") == "tool_use" for b in x["message"]["content"])
    # Halted: the session ended before the model's final text (it last asked for a tool, or the
    # result is not its last text); a blocked prompt is not a halt.
    # After the 9th Stop in a row that asks for another turn the CLI ends the turn itself
    # (notification stop-hook-block-cap) with an empty result: only a last tool request counts then.
    stop_capped = any(x.get("key") == "stop-hook-block-cap" for x in stream)
    real_halted = (ended_on_tool or (result.get("result") != last_assistant and not stop_capped)) \
        and not ups_blocked
    if halted != real_halted:
        diffs.append("%s: session halted emulator=%s real=%s" % (s.sc["name"], halted, real_halted))
    return diffs, behaviours


# ---- generated behaviours (fuzz) ------------------------------------------------------------
# One generated session carries many behaviours: `calls` Bash tool calls, each with its marker
# Kx<i>x in the command, and a few hooks per event, each hook one sh command whose behaviour is
# chosen by the marker in its stdin (a case over `grep -o 'Kx[0-9]*x'`; no marker, as on
# SessionStart or an exhausted script's Stop, takes the default branch). So every hook has one
# generated behaviour per call it is called on, a pure function of the payload: the replay
# through `hostemu claude run` meets the same one. A behaviour that ends the session (continue
# false, defer, a blocked prompt) is drawn only for the last calls, so the rest are all played.
MARK = "Kx%dx"
HOOKS_PER_EVENT = {"SessionStart": 2, "UserPromptSubmit": 2, "PreToolUse": 4, "PostToolUse": 3,
                   "PostToolUseFailure": 2, "Stop": 2}


def gen_reply(rng, ev, uid, call, ending_ok):
    """(stdout bytes as a printf format and argument, stderr, exit, sleep) for one behaviour."""
    hso = lambda **k: {"hookSpecificOutput": dict({"hookEventName": ev}, **k)}
    texts = ["plain %s" % uid, "line1\nline2 %s" % uid, "  spaced %s  " % uid, "{not json %s" % uid,
             "\u00fcn\u00ef %s" % uid, "[1, 2] %s" % uid]
    jsons = [{}, {"systemMessage": "sm-%s" % uid}, {"suppressOutput": True}, {"continue": True},
             hso(additionalContext="ctx-%s" % uid), {"reason": "r-%s" % uid},
             {"systemMessage": "sm-%s" % uid, **hso(additionalContext="ctx2-%s" % uid)}]
    if ev == "PreToolUse":
        upd = {"command": "echo %s upd-%s" % (MARK % call, uid), "description": "d"}
        jsons += [hso(permissionDecision="allow"), hso(permissionDecision="allow", updatedInput=upd),
                  hso(updatedInput=upd), {"decision": "approve"}, hso(permissionDecision="ask"),
                  hso(permissionDecision="deny", permissionDecisionReason="deny-%s" % uid),
                  hso(permissionDecision="deny"), {"decision": "block", "reason": "pb-%s" % uid},
                  {"decision": "block"},
                  dict(hso(permissionDecision="allow"), decision="block", reason="both-%s" % uid),
                  hso(permissionDecision="allow", additionalContext="pctx-%s" % uid)]
        if ending_ok:
            jsons += [hso(permissionDecision="defer"), {"continue": False, "stopReason": "st-%s" % uid}]
    if ev in ("PostToolUse", "PostToolUseFailure"):
        jsons += [{"decision": "block", "reason": "pb-%s" % uid}, {"decision": "block"}]
        if ending_ok:
            jsons += [{"continue": False, "stopReason": "st-%s" % uid}]
    if ev == "Stop":
        jsons += [{"decision": "block", "reason": "again-%s" % uid}]
    if ev == "PostToolUse" and rng.random() < 0.02:
        jsons.append(hso(additionalContext="big-%s " % uid + "y" * 12000))  # persisted output
    blocking_ok = ev in ("PreToolUse", "PostToolUse", "PostToolUseFailure", "SessionStart", "Stop")
    exits = [0, 0, 0, 0, 1, 3, 126, 127] + ([2] if blocking_ok else [])
    code = rng.choice(exits)
    r = rng.random()
    if r < 0.55:
        body = json.dumps(rng.choice(jsons), ensure_ascii=False)
        if rng.random() < 0.05:
            body = "\ufeff" + body  # a byte order mark before the JSON
    elif r < 0.8:
        body = rng.choice(texts)
    else:
        body = ""
    if body and rng.random() < 0.7:
        body += "\n"
    err = "err %s\n" % uid if rng.random() < 0.35 else ""
    sleep = "0.%d" % rng.randint(1, 2) if rng.random() < 0.04 else ""
    return body, err, code, sleep


def shquote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def branch(rng, ev, uid, call, ending_ok):
    body, err, code, sleep = gen_reply(rng, ev, uid, call, ending_ok)
    parts = []
    if sleep: parts.append("sleep " + sleep)
    if body: parts.append("printf '%%s' %s" % shquote(body))
    if err: parts.append("printf '%%s' %s >&2" % shquote(err))
    parts.append("exit %d" % code)
    return "; ".join(parts)


def gen_hook(rng, ev, idx, k, keys, ending_keys):
    """One hook command: a case over the markers `keys` (plus the default branch)."""
    arms = []
    for call in keys:
        uid = "g%d-%s%d-c%d" % (idx, ev[:4], k, call)
        arms.append("%s) %s;;" % (MARK % call, branch(rng, ev, uid, call, call in ending_keys)))
    arms.append("*) %s;;" % branch(rng, ev, "g%d-%s%d-any" % (idx, ev[:4], k), -1, False))
    return ("k=$(tr -d '\\n' | grep -o 'Kx[0-9]*x' | head -n 1); case \"$k\" in %s esac"
            % " ".join(arms))


def gen_session(rng, idx, calls):
    """A generated session of `calls` tool calls (about a fifth of them fail) and its hooks."""
    turns = []
    for i in range(calls):
        cmd = "echo %s" % (MARK % i) if rng.random() < 0.8 else "echo %s >&2; exit 5" % (MARK % i)
        turns.append({"content": [{"type": "tool_use", "name": "Bash", "input": {"command": cmd, "description": "d"}}]})
    final = calls  # the last text turn's marker: Stop's first call
    turns.append({"content": [{"type": "text", "text": "done %s" % (MARK % final)}]})
    ending = set(range(max(0, calls - 2), calls))
    hooks = {}
    for ev, n in HOOKS_PER_EVENT.items():
        keys = list(range(calls)) if ev in ("PreToolUse", "PostToolUse", "PostToolUseFailure") else [final]
        hooks[ev] = [{"matcher": "" if ev != "SessionStart" else "startup",
                      "hooks": [{"type": "command", "command": gen_hook(rng, ev, idx, k, keys, ending)}
                                for k in range(n)]}]
    return {"name": "fuzz-%d" % idx, "evidence": "generated", "turns": turns, "project": {"hooks": hooks},
            "prompt": "go"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hostemu", required=True)
    ap.add_argument("--claude", help="the real claude.exe (default: ci/npm-claude.sh installs it)")
    ap.add_argument("--scenarios", help="directory of scenario JSON files")
    ap.add_argument("--only", help="run only the scenarios whose name contains this")
    ap.add_argument("--fuzz-sessions", type=int, default=0,
                    help="generated sessions (PINTA_REAL_HOST_FULL=1: --fuzz-sessions-full)")
    ap.add_argument("--fuzz-sessions-full", type=int, default=0,
                    help="generated sessions in the full run (ci/real-hosts.sh)")
    ap.add_argument("--fuzz-calls", type=int, default=30, help="tool calls per generated session")
    ap.add_argument("--fuzz-seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="keep the session directories under this directory")
    ap.add_argument("--rejudge", metavar="DIR",
                    help="run no real CLI: judge the sessions a --keep run recorded under DIR (the same "
                         "--scenarios/--only and --fuzz-* arguments) against this --hostemu")
    ap.add_argument("--fixtures-out", metavar="FIXTURES_ROOT",
                    help="write the captured payloads as fixtures under this fixtures root (the source "
                         "tree's fixtures/): claude/2.1.332/<Event>/y_captured_<scenario>.json, one per "
                         "event per scenario, their entries merged into its claude/MANIFEST.json")
    a = ap.parse_args()
    a.hostemu = os.path.abspath(a.hostemu)  # the sessions run in other directories
    claude = None if a.rejudge else a.claude or install_claude()
    scs = []
    if a.scenarios:
        for f in sorted(os.listdir(a.scenarios)):
            if f.endswith(".json"):
                sc = json.load(open(os.path.join(a.scenarios, f)))
                if not a.only or a.only in sc["name"]:
                    scs.append(sc)
        if not a.only and not a.fixtures_out:  # a capture records every scenario
            scs = real_slice.select(scs, lane="claude_real_diff")
    rng = random.Random(a.fuzz_seed)
    n_fuzz = a.fuzz_sessions_full if real_slice.full_run() and a.fuzz_sessions_full else a.fuzz_sessions
    scs += [gen_session(rng, i, a.fuzz_calls) for i in range(n_fuzz)]
    base = a.rejudge or a.keep or tempfile.mkdtemp(prefix="claude-diff-")
    os.makedirs(base, exist_ok=True)

    def one(sc):
        s = Session(os.path.join(base, sc["name"]), sc)
        if a.rejudge:
            s.load_recorded()
        else:
            os.makedirs(s.root, exist_ok=True)
            if os.path.exists(s.cap): os.remove(s.cap)
            s.run_real(claude, a.hostemu)
        s.replay(a.hostemu)
        d, n = compare(s)
        return s, d, n

    total_diffs, total_b, fuzz_b = 0, 0, 0
    fixtures = []
    t0 = time.time()
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for s, d, n in ex.map(one, scs):
            total_b += n
            if s.sc.get("evidence") == "generated": fuzz_b += n
            total_diffs += len(d)
            print("%-34s %s  %d hook runs compared, %d payloads" % (s.sc["name"], "OK  " if not d else "DIFF", n, len(s.payloads)))
            for x in d: print("   " + x.replace("\n", "\n   "))
            fixtures.append(s)
    mins = (time.time() - t0) / 60
    print("scenarios: %d, hook runs compared: %d, differences: %d" % (len(scs), total_b, total_diffs))
    if n_fuzz:
        print("generated: %d sessions, %d behaviours compared in %.1f min (%.0f behaviours/minute, "
              "the whole run)" % (n_fuzz, fuzz_b, mins, fuzz_b / mins if mins else 0))
    if a.fixtures_out:
        write_fixtures(a.fixtures_out, fixtures)
    if not a.keep and not a.rejudge:
        shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if total_diffs else 0)


FIXTURE_DIR = "claude/2.1.332"  # the family's folder (pinta/hosts/family.h) and the CLI version


def write_fixtures(out, sessions):
    """The captured payloads, byte-exact (what the real CLI wrote to the hook's stdin), one per
    (event, scenario), as fixtures under the fixtures root `out`: OUT/claude/2.1.332/<Event>/
    y_captured_<scenario>.json, and their entries (fixtures/README.md conventions, paths relative
    to OUT) merged into OUT/claude/MANIFEST.json, replacing an entry with the same path. Afterwards:
    fixtures/tools/update-manifest.sh --check, then `hostemu replay --host claude-code-2.1
    --update-golden` for the new files' goldens."""
    import datetime, hashlib
    os.makedirs(out, exist_ok=True)
    manifest = []
    for s in sessions:
        seen = set()
        for raw, pl in zip(s.raw_payloads, s.payloads):
            ev = pl["hook_event_name"]
            if ev in seen: continue
            seen.add(ev)
            rel = "%s/%s/y_captured_%s.json" % (FIXTURE_DIR, ev, s.sc["name"])
            os.makedirs(os.path.join(out, FIXTURE_DIR, ev), exist_ok=True)
            with open(os.path.join(out, rel), "wb") as f:
                f.write(raw)
            manifest.append({"path": rel, "host": "claude-code", "version": "2.1.332", "event": ev, "kind": "y",
                             "date": datetime.date.today().isoformat(),
                             "provenance": "captured from the real Claude Code 2.1.332",
                             "source": "emulator/hosts/claude/test/real_diff.py --fixtures-out, scenario %s: a capture "
                                       "hook (--settings, matcher \"\") appended its stdin; session ids and temp paths "
                                       "are the recorded ones" % s.sc["name"],
                             "sha256": hashlib.sha256(raw).hexdigest()})
    path = os.path.join(out, "claude", "MANIFEST.json")  # the family's (fixtures/README.md)
    old = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else []
    new_paths = {m["path"] for m in manifest}
    manifest += [m for m in old if m.get("path") not in new_paths]
    manifest.sort(key=lambda m: m["path"])  # path order, as update-manifest.sh writes it
    with open(path, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
