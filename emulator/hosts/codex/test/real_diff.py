#!/usr/bin/env python3
"""Differential lane: Codex CLI 0.171.0 (the real CLI) against its recorded outcomes and against
`hostemu codex run` (the emulator).

Each scenario (test/scenarios/*.json) and each generated session runs once on the real CLI,
offline, against `hostemu codex model-server` (the scripted Responses API), each in its own
CODEX_HOME, HOME and project (codex_session.py). A capture hook (matcher "", every event the run
fires) appends what the CLI wrote to its stdin. What a run did is reduced to an outcome:
  files     the project's files afterwards (a tool call's side effect: did the command run?)
  read      per tool call, the text the model read back (function_call_output in the last
            model request: a hook's block message, or the command's output)
  told      every text in the model's requests carrying the scenarios' marker "HK" (hook
            context, a Stop hook's prompt), in first-seen order
  requests  how many model requests were answered (a blocked prompt: 0; a Stop block: one more)
  events    the hook events fired: [event, count] in the order each first fired; payloads:
            every distinct payload of each event (normalised: ids, times, the temp root)
  marks     what the scenario's hooks appended to $M (which hooks ran), sorted
  notices   the CLI's warnings (--json "error" items, e.g. an invalid matcher), sorted
Checks: (1) the real outcome equals the one recorded in the scenario file ("expected"; --record
writes it): the oracle has not moved; (2) every captured payload, replayed in order through
`hostemu codex run` with the same files, predicts what the real CLI did: a PreToolUse block <=>
the call did not run, and then the model's text; a UserPromptSubmit block <=> no model request; a
Stop block <=> another Stop; every context text reached the model; the same hooks ran ($M).
Each comparison must be able to fail: every payload's emulator outcome is also perturbed (the
call's fate flipped, a text changed, a block flipped, a context invented) and a perturbation the
comparison does not notice is reported as WEAK, a difference.
Exit 0: no difference; 1: differences (printed); 77: SKIPPED (npm unreachable, reason printed).
Scenario file: {"name", "evidence", "prompt"?, "turns": [Responses turns, default: one
exec_command `touch ran` then "done"], "hooks"?, "hooks_json_raw"?, "toml_hooks"?,
"config_extra"?, "bypass_trust"?, "capture"?, "expected"?} (codex_session.Run).
"""
import argparse, collections, concurrent.futures as cf, json, os, random, re, shutil, subprocess
import sys, tempfile, time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import codex_session as cs  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "lanes"))
import real_slice  # noqa: E402  (emulator/lanes: the README's slice or the full sweep)

DEFAULT_TURNS = [
    {"content": [{"type": "function_call", "name": "exec_command", "arguments": {"cmd": "touch ran"}}]},
    {"content": [{"type": "text", "text": "done"}]},
]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
FIXED_NOTICES = ("`--dangerously-bypass-hook-trust` is enabled",)
BLOCKED_PREFIX = "Command blocked by PreToolUse hook: "


def norm(text, root):
    text = text.replace(root, "<ROOT>")
    text = UUID.sub("<uuid>", text)
    text = re.sub(r"rollout-[0-9T:-]+-<uuid>", "rollout-<time>-<uuid>", text)
    text = re.sub(r"sessions/\d{4}/\d\d/\d\d/", "sessions/<date>/", text)
    text = re.sub(r"Wall time: [0-9.]+ seconds", "Wall time: <t> seconds", text)
    text = re.sub(r"Chunk ID: \w+", "Chunk ID: <id>", text)
    return text


def norm_json(x, root):
    if isinstance(x, str):
        return norm(x, root)
    if isinstance(x, list):
        return [norm_json(y, root) for y in x]
    if isinstance(x, dict):
        return {k: norm_json(v, root) for k, v in x.items()}
    return x


def read_marks(run):
    if not os.path.exists(run.marks):
        return []
    return sorted(norm(l, run.root) for l in open(run.marks, errors="surrogateescape").read().splitlines())


def texts_of(item):
    out = []
    if item.get("type") == "message":
        for c in item.get("content") or []:
            if isinstance(c, dict) and isinstance(c.get("text"), str):
                out.append(c["text"])
    return out


def outcome(run):
    """What the real run did (see the module comment), normalised to compare across runs."""
    root = run.root
    ok = [r for r in run.api if r.get("status") == 200]
    last = ok[-1]["body"] if ok else {}
    read = []
    for r in ok[-1]["toolOutputs"] if ok else []:
        o = r["output"]
        read.append([r["call_id"], norm(o if isinstance(o, str) else json.dumps(o), root)])
    told = []
    for r in ok:
        for item in r["body"].get("input", []):
            for t in texts_of(item):
                t = norm(t, root)
                if "HK" in t and t not in told:
                    told.append(t)
    # Parallel tool calls of one turn run their hooks in either order: events are counted in the
    # order each first fired, and payloads kept per event as a sorted set.
    events = []
    for p in run.payloads:
        ev = p["hook_event_name"]
        if any(e[0] == ev for e in events):
            next(e for e in events if e[0] == ev)[1] += 1
        else:
            events.append([ev, 1])
    payloads = collections.defaultdict(set)
    for p in run.payloads:
        payloads[p["hook_event_name"]].add(json.dumps(norm_json(p, root), ensure_ascii=False))
    payloads = {ev: [json.loads(x) for x in sorted(v)] for ev, v in payloads.items()}
    marks = read_marks(run)
    notices, final = [], None
    for line in run.stdout.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        item = ev.get("item") or {}
        if ev.get("type") == "item.completed" and item.get("type") == "error":
            m = item.get("message", "")
            if not m.startswith(FIXED_NOTICES) and not m.startswith("Model metadata"):
                notices.append(norm(m, root))
        if ev.get("type") == "item.completed" and item.get("type") == "agent_message":
            final = item.get("text")
    files = sorted(os.listdir(run.proj))
    return {"files": files, "read": read, "told": told, "requests": len(ok), "events": events,
            "marks": marks, "notices": sorted(notices), "final": final, "rc": run.rc,
            "payloads": payloads}


def compare_expected(sc, got):
    exp = sc.get("expected")
    if exp is None:
        return ["%s: no recorded outcome (run with --record)" % sc["name"]]
    diffs = []
    for k in sorted(set(exp) | set(got)):
        if k == "payloads":
            for ev in sorted(set(exp.get(k, {})) | set(got.get(k, {}))):
                a, b = exp.get(k, {}).get(ev), got.get(k, {}).get(ev)
                if a != b:
                    diffs.append("%s: real %s payload moved\n  recorded: %s\n  now:      %s"
                                 % (sc["name"], ev, json.dumps(a), json.dumps(b)))
        elif exp.get(k) != got.get(k):
            diffs.append("%s: real %s moved: recorded %r, now %r" % (sc["name"], k, exp.get(k), got.get(k)))
    return diffs


# ---- the emulator side -----------------------------------------------------------------------
def emulator_ready(hostemu):
    p = subprocess.run([hostemu, "codex", "--help"], capture_output=True, text=True)
    return p.returncode == 0 and re.search(r"^\s+run\b", p.stdout, re.M) is not None


def replay(run, hostemu):
    """Every captured payload, in order, through `hostemu codex run` with the files as the real
    run started (its marks go to the same $M, rebuilt empty)."""
    run.build(0)
    out = []
    for pl in run.payloads:
        args = [hostemu, "codex", "run", "--codex-home", run.codex_home, "--project", run.proj,
                "--event", pl["hook_event_name"]]
        if run.sc.get("bypass_trust", True):
            args.append("--bypass-trust")
        env = run.env()
        env["PINTA_CODEX_CAP"] = os.path.join(run.root, "replay-capture")
        os.makedirs(env["PINTA_CODEX_CAP"], exist_ok=True)
        p = subprocess.run(args, input=json.dumps(pl, separators=(",", ":")), cwd=run.proj, env=env,
                           capture_output=True, text=True, errors="surrogateescape", timeout=900)
        if p.returncode != 0:
            out.append({"error": (p.stderr or p.stdout).strip()[:500]})
        else:
            try:
                out.append(json.loads(p.stdout))
            except ValueError:
                out.append({"error": "not JSON: " + p.stdout[:200]})
    return out, read_marks(run)


def compare_emulator(run, got, emu, emu_marks):
    """The emulator's outcome of each payload (emulator/hosts/codex report_json: toolRuns, blocked,
    stopped, modelText, additionalContexts, updatedInput) against what the real CLI did."""
    name = run.sc["name"]
    diffs = []
    root = run.root
    read = dict((c, t) for c, t in got["read"])
    posts = {p.get("tool_use_id"): p for p in run.payloads if p["hook_event_name"] == "PostToolUse"}
    stops = [i for i, p in enumerate(run.payloads) if p["hook_event_name"] == "Stop"]
    told = "\n".join(got["told"])

    def ran_output(text):  # the command's own output (exec_command / apply_patch), not a hook's
        return text is not None and text.startswith(("Chunk ID: ", "Exit code: "))

    for i, (pl, em) in enumerate(zip(run.payloads, emu)):
        ev = pl["hook_event_name"]
        where = "%s #%d (%s)" % (name, i, ev)
        if "error" in em:
            diffs.append(where + ": hostemu codex run failed: " + em["error"])
            continue
        o = em.get("outcome", {})
        text = norm(o["modelText"], root) if o.get("modelText") is not None else None
        tid = pl.get("tool_use_id")
        if ev == "PreToolUse":
            real_runs = tid in posts or ran_output(read.get(tid))
            if bool(o.get("toolRuns", True)) != real_runs:
                diffs.append(where + ": the call runs emulator=%s real=%s (the model read %r)"
                             % (o.get("toolRuns"), real_runs, read.get(tid)))
            elif not real_runs and text != read.get(tid):
                diffs.append(where + ": the model read emulator=%r real=%r" % (text, read.get(tid)))
            upd = o.get("updatedInput")
            if upd is not None and real_runs and tid in posts and posts[tid].get("tool_input") != upd:
                diffs.append(where + ": updatedInput %r, the call ran with %r" % (upd, posts[tid].get("tool_input")))
        if ev == "PostToolUse":
            real = read.get(tid)
            if text is not None and text != real:
                diffs.append(where + ": the model read emulator=%r real=%r" % (text, real))
            if text is None and real is not None and not ran_output(real):
                diffs.append(where + ": emulator leaves the output, the model read %r" % real)
        if ev == "UserPromptSubmit":
            emu_dropped = bool(o.get("blocked")) or bool(o.get("stopped"))
            if emu_dropped != (got["requests"] == 0):
                diffs.append(where + ": prompt dropped emulator=%s real=%s" % (emu_dropped, got["requests"] == 0))
        if ev == "Stop":
            again = stops.index(i) + 1 < len(stops)
            emu_again = bool(o.get("blocked")) and not o.get("stopped")
            if emu_again != again:
                diffs.append(where + ": model sent back emulator=%s real=%s" % (emu_again, again))
            elif again and text is not None and text not in told:
                diffs.append(where + ": the model was never told the continuation %r" % text)
        for t in o.get("additionalContexts") or []:
            t = norm(t, root)
            if t.strip() and t not in told:
                diffs.append(where + ": the emulator says the model was told %r; real never was" % t)
    for t in got["told"]:
        if t.startswith("<hook_prompt"):
            continue  # a Stop continuation: checked above
        said = any(t in norm(c, root) or norm(c, root) in t for em in emu if "error" not in em
                   for c in em.get("outcome", {}).get("additionalContexts") or [])
        if not said:
            diffs.append("%s: the model was told %r; the emulator predicted no such context" % (name, t))
    if emu_marks != got["marks"]:
        diffs.append("%s: hooks that ran ($M) emulator=%r real=%r" % (name, emu_marks, got["marks"]))
    return diffs


def weak_checks(run, got, emu, emu_marks):
    """The comparison must be able to fail: each payload's emulator outcome, perturbed the way a
    wrong emulator would be (a PreToolUse call's fate flipped, a PostToolUse text changed, a
    prompt block or Stop block flipped, a context invented), must give a difference. Returns the
    perturbations nothing caught."""
    import copy
    weak = []
    for i, (pl, em) in enumerate(zip(run.payloads, emu)):
        if "error" in em:
            continue
        ev = pl["hook_event_name"]
        muts = [("a context invented", lambda o: o.setdefault("additionalContexts", []).append("perturbed context"))]
        if ev == "PreToolUse":
            muts.append(("the call's fate flipped", lambda o: o.update(toolRuns=not o.get("toolRuns", True))))
        if ev == "PostToolUse":
            muts.append(("the text the model reads changed", lambda o: o.update(modelText="perturbed")))
        if ev in ("UserPromptSubmit", "Stop"):
            def flip(o, stop=(ev == "Stop")):
                # UserPromptSubmit: the prompt dropped (blocked or stopped); Stop: sent back.
                if stop:
                    held = bool(o.get("blocked")) and not o.get("stopped")
                else:
                    held = bool(o.get("blocked")) or bool(o.get("stopped"))
                o.update(blocked=not held, stopped=False)
            muts.append(("the block flipped", flip))
        for label, mut in muts:
            bad = copy.deepcopy(emu)
            mut(bad[i].setdefault("outcome", {}))
            if not compare_emulator(run, got, bad, emu_marks):
                weak.append("%s #%d (%s): %s went unnoticed" % (run.sc["name"], i, ev, label))
    return weak


# ---- generated behaviours ----------------------------------------------------------------------
def shquote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def gen_reply(rng, ev, uid):
    """One hook command with a generated reply for `ev` (uid keeps texts distinct)."""
    hso = {"hookEventName": ev}
    pool = [{}, {"systemMessage": "HK sm %s" % uid}, {"continue": True}, {"suppressOutput": False},
            {"decision": "block", "reason": "HK b %s" % uid}, {"decision": "block"},
            {"decision": "approve"}, {"reason": "HK r %s" % uid},
            {"hookSpecificOutput": dict(hso, additionalContext="HK ctx %s" % uid)}]
    if ev == "PreToolUse":
        pool += [{"hookSpecificOutput": dict(hso, permissionDecision="deny", permissionDecisionReason="HK d %s" % uid)},
                 {"hookSpecificOutput": dict(hso, permissionDecision="deny")},
                 {"hookSpecificOutput": dict(hso, permissionDecision="allow")},
                 {"hookSpecificOutput": dict(hso, permissionDecision="ask", permissionDecisionReason="HK a %s" % uid)},
                 {"hookSpecificOutput": dict(hso, permissionDecision="deny", permissionDecisionReason="HK d %s" % uid),
                  "x": 1},
                 {"permissionDecision": "deny", "permissionDecisionReason": "HK t %s" % uid}]
    texts = ["", "HK plain %s" % uid, "{not json %s" % uid, "  \n", "ünï HK %s" % uid]
    parts = [": %s" % uid]
    if rng.random() < 0.6:
        parts.append("printf '%%s\\n' %s" % shquote(json.dumps(rng.choice(pool), ensure_ascii=False)))
    else:
        t = rng.choice(texts)
        if t:
            parts.append("printf '%%s' %s" % shquote(t))
    if rng.random() < 0.4:
        parts.append("printf '%%s' %s >&2" % shquote("HK err %s" % uid))
    parts.append("echo %s >> \"$M\"" % uid)
    parts.append("exit %d" % rng.choice([0, 0, 0, 0, 1, 2, 2, 3]))
    return "; ".join(parts)


def gen_session(rng, idx):
    hooks = {}
    for ev in ["UserPromptSubmit", "PreToolUse", "PostToolUse"]:
        if ev != "PreToolUse" and rng.random() < 0.5:
            continue
        n = rng.choice([1, 1, 2]) if ev == "PreToolUse" else 1
        hooks[ev] = [{"matcher": "", "hooks": [{"type": "command", "command": gen_reply(rng, ev, "g%d-%s-%d" % (idx, ev[:3], k))}
                                               for k in range(n)]}]
    turns = [{"content": [{"type": "function_call", "name": "exec_command", "arguments": {"cmd": "touch ran%d" % k}}]}
             for k in range(2)] + [{"content": [{"type": "text", "text": "done"}]}]
    return {"name": "gen-%d" % idx, "evidence": "generated", "turns": turns, "hooks": hooks}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hostemu", required=True)
    ap.add_argument("--codex", help="the real native codex (default: ci/npm-codex.sh installs it)")
    ap.add_argument("--scenarios", help="directory of scenario JSON files")
    ap.add_argument("--only", help="run only the scenarios whose name contains one of these "
                                   "(comma-separated)")
    ap.add_argument("--generated", type=int, default=8, help="generated sessions (seeded)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--long", action="store_true", help="64 generated sessions instead")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--record", action="store_true",
                    help="write each scenario's real outcome into its file as \"expected\", and the "
                         "generated sessions' into scenarios/generated.json")
    ap.add_argument("--real-only", action="store_true",
                    help="check the real CLI against the recorded outcomes only, no emulator replay "
                         "(ci/codex-bisect.py: another release's behaviour as differences)")
    ap.add_argument("--keep", help="keep the session directories under this directory")
    ap.add_argument("--fixtures-out", metavar="FIXTURES_ROOT",
                    help="write the captured payloads as fixtures under this fixtures root")
    a = ap.parse_args()
    a.hostemu = os.path.abspath(a.hostemu)
    codex = a.codex or cs.install_codex()
    t0 = time.time()
    scs, files = [], {}
    if a.scenarios:
        for f in sorted(os.listdir(a.scenarios)):
            if f.endswith(".json") and f != "generated.json":
                sc = json.load(open(os.path.join(a.scenarios, f)))
                if not a.only or any(w in sc["name"] for w in a.only.split(",")):
                    sc.setdefault("turns", DEFAULT_TURNS)
                    scs.append(sc)
                    files[sc["name"]] = os.path.join(a.scenarios, f)
        if not a.only and not a.record and not a.fixtures_out:  # records cover every scenario
            scs = real_slice.select(scs, lane="codex_real_diff")
    n_gen = 64 if a.long else a.generated
    rng = random.Random(a.seed)
    gen = [gen_session(rng, i) for i in range(n_gen)]
    gen_file = os.path.join(a.scenarios, "generated.json") if a.scenarios else None
    if gen_file and os.path.exists(gen_file) and not a.only:
        rec = json.load(open(gen_file))
        if rec.get("seed") == a.seed:
            for sc in gen:
                if sc["name"] in rec.get("expected", {}):
                    sc["expected"] = rec["expected"][sc["name"]]
    if not a.only:
        scs += gen
    emu_ok = not a.real_only and emulator_ready(a.hostemu)
    if not emu_ok and not a.real_only:
        print("[ NO EMULATOR ] `hostemu codex run` is not built yet: only the real CLI against its "
              "recorded outcomes is checked")
    base = a.keep or tempfile.mkdtemp(prefix="codex-diff-")
    os.makedirs(base, exist_ok=True)

    def one(sc):
        run = cs.Run(os.path.join(base, sc["name"]), sc)
        os.makedirs(run.root, exist_ok=True)
        try:
            run.run(codex, a.hostemu)
        except subprocess.TimeoutExpired:
            return run, None, ["%s: the real CLI did not finish within its timeout" % sc["name"]]
        got = outcome(run)
        diffs = [] if a.record else compare_expected(sc, got)
        if emu_ok:
            emu, emu_marks = replay(run, a.hostemu)
            diffs += compare_emulator(run, got, emu, emu_marks)
            diffs += ["WEAK " + w for w in weak_checks(run, got, emu, emu_marks)]
        return run, got, diffs

    total = 0
    runs = []
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for run, got, d in ex.map(one, scs):
            total += len(d)
            print("%-36s %s  %d payloads" % (run.sc["name"], "OK  " if not d else "DIFF", len(run.payloads) if got else 0))
            for x in d:
                print("   " + x.replace("\n", "\n   "))
            runs.append((run, got))
    print("scenarios: %d (%d generated), differences: %d, wall %.0f s" % (len(scs), len(gen) if not a.only else 0,
                                                                         total, time.time() - t0))
    if a.record:
        gen_rec = {}
        for run, got in runs:
            if got is None:
                continue
            if run.sc["name"] in files:
                sc = json.load(open(files[run.sc["name"]]))
                sc["expected"] = got
                with open(files[run.sc["name"]], "w") as f:
                    json.dump(sc, f, indent=1, ensure_ascii=False)
                    f.write("\n")
            else:
                gen_rec[run.sc["name"]] = got
        if gen_file and gen_rec:
            with open(gen_file, "w") as f:
                json.dump({"seed": a.seed, "evidence": "real outcomes of real_diff.py's generated sessions",
                           "expected": gen_rec}, f, indent=1, ensure_ascii=False)
                f.write("\n")
    if a.fixtures_out:
        write_fixtures(a.fixtures_out, [r for r, g in runs if g is not None])
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if total else 0)


FIXTURE_DIR = "codex/0.171.0"


def write_fixtures(out, runs):
    """The captured payloads, byte-exact, one per (event, scenario): OUT/codex/0.171.0/<Event>/
    y_captured_<scenario>.json, their entries merged into OUT/codex/MANIFEST.json."""
    import datetime, hashlib
    manifest = []
    for run in runs:
        seen = set()
        for raw, pl in zip(run.raw_payloads, run.payloads):
            ev = pl["hook_event_name"]
            if ev in seen:
                continue
            seen.add(ev)
            rel = "%s/%s/y_captured_%s.json" % (FIXTURE_DIR, ev, run.sc["name"])
            os.makedirs(os.path.join(out, FIXTURE_DIR, ev), exist_ok=True)
            with open(os.path.join(out, rel), "wb") as f:
                f.write(raw)
            manifest.append({"path": rel, "host": "codex", "version": "0.171.0", "event": ev, "kind": "y",
                             "date": datetime.date.today().isoformat(),
                             "provenance": "captured from the real Codex CLI 0.171.0",
                             "source": "emulator/hosts/codex/test/real_diff.py --fixtures-out, scenario %s: a capture "
                                       "hook (hooks.json, matcher \"\") appended its stdin; session ids and temp paths "
                                       "are the recorded ones" % run.sc["name"],
                             "sha256": hashlib.sha256(raw).hexdigest()})
    path = os.path.join(out, "codex", "MANIFEST.json")  # the family's (fixtures/README.md)
    old = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else []
    new_paths = {m["path"] for m in manifest}
    manifest += [m for m in old if m.get("path") not in new_paths]
    manifest.sort(key=lambda m: m["path"])
    with open(path, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
