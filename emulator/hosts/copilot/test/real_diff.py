#!/usr/bin/env python3
"""Differential lane: GitHub Copilot CLI 1.0.102 (the real CLI) against its recorded outcomes and
against `hostemu copilot run` (the emulator), for both hook-file dialects.

Each scenario (test/scenarios/*.json) runs once on the real CLI, offline, against the scripted
Responses API, in its own HOME and project (copilot_session.py). Capture hooks, first in each
event's list of the scenario's main hook file, copy what the CLI wrote to their stdin. A run is
reduced to an outcome:
  files      the project's top-level entries afterwards (did the command run?)
  read       per tool call, the text the model read back (function_call_output in the last
             model request: a hook's deny message, or the command's output)
  told       every text in the model's requests carrying the scenarios' marker "HK" (hook
             context), in first-seen order
  requests   how many model requests were answered
  events     the hook events fired, [event, count] in lifecycle order, by the name the capture
             hook was registered under; payloads: every distinct payload of each
             (normalised: ids, times, trace ids, the temp root)
  marks      what the scenario's hooks appended to $M (which hooks ran), in order: Copilot runs
             the hooks of one event one after another
  transcript the CLI's stdout as one line (whitespace collapsed), notices its stderr (less the
             closing usage lines), rc its status; the hooks' own notices (`! …`: a hook's stderr
             or block reason the CLI prints) are predicted by the emulator too
  otel       (scenarios with "otel") the host's hook.start/hook.end span events, in order per event, and
             whether each payload's traceparent names the invoke_agent span as parent
Checks: (1) the real outcome equals the one recorded in the scenario file ("expected"; --record
writes it): the oracle has not moved; (2) once `hostemu copilot run` exists, every captured
payload, replayed in order through it with the same files, predicts what the real CLI did: a
preToolUse deny <=> the call did not run, and then the text the model read; a prompt hook's
context reached the model; the same hooks ran ($M). (3) The self-check: an emulator answer built
from the real outcome (the oracle) gives no difference, and each perturbation of it (a call's fate
flipped, the text changed, a context invented, a hook's mark dropped) gives one; and a perturbed
recorded outcome is noticed by check (1). A perturbation nothing notices is WEAK, a difference.
Where the real CLI is racy the comparison says so: sessionStart's and userPromptSubmitted's hooks
overlap, so events (and otel's hook events) are compared per event, not in firing order; the
transcript is compared without whitespace (the CLI wraps it at a width, and the temp root's length
moves the breaks). A run whose model requests could not connect to the scripted server is made
again once, and the line says "retried". The prompt counts as dropped only when no request reached
the model server (a scripted 401 or 500 still carried it). The launcher's own variables
(LAUNCHER_VARS) are left out of what hooks report of their environment.
--version V (with --copilot, a launcher of release V from `ci/npm-copilot.sh V`) holds a version
profile to the release it describes: the emulator replays under V's profile, check (1) is skipped.
Without --only, --record or --fixtures-out a fixed slice of the scenarios runs
(emulator/lanes/real_slice.py); PINTA_REAL_HOST_FULL=1 runs all of them.
Exit 0: no difference; 1: differences (printed); 77: SKIPPED (npm unreachable, reason printed).
"""
import argparse, collections, concurrent.futures as cf, copy, json, os, re, shutil, subprocess
import sys, tempfile, time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import copilot_session as cs  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../lanes"))
import real_slice  # noqa: E402  (emulator/lanes: the README's slice or the full sweep)

DEFAULT_TURNS = [
    {"content": [{"type": "function_call", "name": "bash",
                  "arguments": {"command": "touch ran", "description": "touch"}}]},
    {"content": [{"type": "text", "text": "done"}]},
]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TRACEPARENT = re.compile(r"00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]")
# The closing usage block on stderr (changes, duration, tokens, the resume command).
USAGE_LINE = re.compile(r"^(Changes|Duration|Tokens|Resume)\s")
PRE_EVENTS = ("preToolUse", "PreToolUse")
# What the model reads for a call a preToolUse hook denied (CPM pre-* scenarios).
DENIED_PREFIX = "Denied by preToolUse hook"
# Variables our launcher sets, not Copilot (ci/npm-copilot.sh pins the unpacked package's cache;
# XDG_CACHE_HOME for releases before COPILOT_PKG_CACHE_HOME):
# hooks see them under the real CLI, and `hostemu copilot run` must not invent them, so they are
# left out of what the hooks report of their environment.
LAUNCHER_VARS = ("COPILOT_PKG_CACHE_HOME", "XDG_CACHE_HOME")
# The CLI's notice when a model request could not connect (CPM c-pre-deny-long-reason, once):
# the scripted server on loopback was not reached, a harness fault, so the run is made again once.
NO_MODEL_SERVER = "Could not connect to local model provider"


def norm(text, root):
    text = text.replace(root, "<ROOT>")
    text = UUID.sub("<uuid>", text)
    text = TRACEPARENT.sub("<traceparent>", text)
    text = re.sub(r"\d+(\.\d+)? seconds", "<t> seconds", text)
    text = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:<port>", text)
    text = re.sub(r"<current_datetime>[^<]*</current_datetime>", "<current_datetime><t></current_datetime>", text)
    return text


def norm_json(x, root, key=None):
    if key == "timestamp":
        return "<ms>" if isinstance(x, int) else "<iso>" if isinstance(x, str) else x
    if key == "stack" and isinstance(x, str):
        return "<stack>"  # native frames, not stable
    if isinstance(x, str):
        return norm(x, root)
    if isinstance(x, list):
        return [norm_json(y, root) for y in x]
    if isinstance(x, dict):
        return {k: norm_json(v, root, k) for k, v in x.items()}
    return x


def read_marks(run):
    if not os.path.exists(run.marks):
        return []
    return [norm(l, run.root) for l in open(run.marks, errors="surrogateescape").read().splitlines()]


def strings_in(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, list):
        for y in x:
            yield from strings_in(y)
    elif isinstance(x, dict):
        for y in x.values():
            yield from strings_in(y)


def otel_view(run):
    """The host's hook span events in order, and per payload whether its traceparent's parent is
    the run's invoke_agent span (same trace)."""
    agent = [s for s in run.spans if s.get("type") == "span" and s.get("name") == "invoke_agent"]
    evs = []
    for s in sorted(agent, key=lambda s: s.get("startTime", [0, 0])):
        for e in s.get("events", []):
            if not e.get("name", "").startswith("github.copilot.hook."):
                continue
            a = e.get("attributes", {})
            evs.append([e["name"][len("github.copilot."):], a.get("github.copilot.hook.type"),
                        a.get("github.copilot.hook.decision"), a.get("github.copilot.hook.tool_names")])
    ids = {(s["traceId"], s["spanId"]) for s in agent}
    # Per event type in its own order: the start of userPromptSubmitted's hooks was seen before
    # the end of sessionStart's in one run and after it in another.
    by_type = collections.OrderedDict()
    for name, typ, decision, tools in evs:
        by_type.setdefault(typ, []).append([name, decision, tools])
    evs = sorted([t, v] for t, v in by_type.items())
    parents = []
    for label, p in zip(run.labels, run.payloads):
        tp = p.get("traceparent") if isinstance(p, dict) else None
        if tp:
            _, trace, span, _ = tp.split("-")
            parents.append([label, (trace, span) in ids])
    return {"hookEvents": evs, "traceparentParentIsInvokeAgent": parents}


def sorted_events(counts):
    """[event, count] in the lifecycle order of the capture lists: sessionStart's hooks and
    userPromptSubmitted's run concurrently (either was seen first), so firing order is not kept."""
    order = cs.CAMEL_EVENTS + cs.PASCAL_EVENTS
    return sorted(([e, n] for e, n in counts), key=lambda x: (order.index(x[0]) if x[0] in order else len(order), x[0]))


def outcome(run):
    """What the real run did (see the module comment), normalised to compare across runs."""
    root = run.root
    ok = [r for r in run.api if r.get("status") == 200]
    # Every call's output as the model last read it, in first-seen order: one conversation's last
    # request holds all of its calls; a subagent's calls are in its own requests (c-subagent).
    outputs = {}
    for req in ok:
        for r in req["toolOutputs"]:
            o = r["output"]
            outputs[r["call_id"]] = norm(o if isinstance(o, str) else json.dumps(o), root)
    read = [[c, t] for c, t in outputs.items()]
    told = []
    for r in ok:
        for item in r["body"].get("input", []):
            if item.get("type") in ("function_call_output", "function_call"):
                continue
            for t in strings_in(item):
                t = norm(t, root)
                if "HK" in t and t not in told:
                    told.append(t)
    events = sorted_events(collections.Counter(run.labels).items())
    payloads = collections.defaultdict(set)
    for label, p in zip(run.labels, run.payloads):
        payloads[label].add(json.dumps(norm_json(p, root), ensure_ascii=False))
    payloads = {ev: [json.loads(x) for x in sorted(v)] for ev, v in payloads.items()}
    notices = [norm(l.rstrip(), root) for l in run.stderr.splitlines()
               if l.strip() and not USAGE_LINE.match(l)]
    # One line of text: the CLI wraps its output at a width, so where a line breaks depends on the
    # length of the temp root. A tool line ends in its duration when it took seconds
    # ("● touch (shell)   30s").
    lines = [re.sub(r"\s{2,}\d+s$", "", l.rstrip()) for l in run.stdout.splitlines()]
    text = " ".join(lines)
    # The temp root itself may be broken over lines (a path longer than the width).
    text = re.sub(r"\s*".join(map(re.escape, root)), "<ROOT>", text)
    transcript = norm(re.sub(r"\s+", " ", text).strip(), root)
    got = {"files": sorted(os.listdir(run.proj)), "read": read, "told": told, "requests": len(ok),
           "events": events, "marks": read_marks(run), "transcript": transcript, "notices": notices,
           "rc": run.rc, "payloads": payloads}
    if run.sc.get("otel"):
        got["otel"] = otel_view(run)
    return got


def squeeze(text):
    return re.sub(r"\s+", "", text)


def host_marks(marks):
    """$M as Copilot alone would leave it: the launcher's variables dropped from a hook's report of
    its environment (a line "env=NAME NAME …")."""
    out = []
    for m in marks:
        if m.startswith("env="):
            m = "env=" + " ".join(v for v in m[4:].split(" ") if v not in LAUNCHER_VARS)
        out.append(m)
    return out


def prompt_dropped(run):
    """A prompt hook dropped the prompt: no request reached the model server at all. A request the
    server refused (a scripted 401) or a failed call still carried the prompt."""
    return not run.api


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
        elif k == "transcript" and isinstance(exp.get(k), str) and isinstance(got.get(k), str):
            # Compared without whitespace: a break may fall inside a word, and the indent of a
            # continuation line becomes a space.
            if squeeze(exp[k]) != squeeze(got[k]):
                diffs.append("%s: real transcript moved: recorded %r, now %r" % (sc["name"], exp[k], got[k]))
        elif exp.get(k) != got.get(k):
            diffs.append("%s: real %s moved: recorded %r, now %r" % (sc["name"], k, exp.get(k), got.get(k)))
    return diffs


# ---- the emulator side -----------------------------------------------------------------------
# `hostemu copilot run --home H --project P --event E < payload` (the family's emulator): runs the
# hooks Copilot would run for one event, registered under the name E (either dialect), and prints
# {"outcome": {"toolRuns": bool, "modelText": str|null, "blocked": bool,
#              "additionalContexts": [str]}} (what the model reads on a deny, as the real CLI
# writes it). The payloads are replayed in the order the real CLI fired them.
def emulator_ready(hostemu):
    p = subprocess.run([hostemu, "copilot", "run", "--help"], capture_output=True, text=True)
    return "Usage: hostemu copilot run" in p.stdout


# The Claude-style spelling of each native event (one event, two names: a file may register both).
PASCAL_OF = {"SessionStart": "sessionStart", "UserPromptSubmit": "userPromptSubmitted",
             "PreToolUse": "preToolUse", "PermissionRequest": "permissionRequest",
             "PostToolUse": "postToolUse", "PostToolUseFailure": "postToolUseFailure",
             "Stop": "agentStop", "SubagentStart": "subagentStart", "SubagentStop": "subagentStop",
             "PreCompact": "preCompact", "Notification": "notification",
             "ErrorOccurred": "errorOccurred", "SessionEnd": "sessionEnd"}


def replay(run, hostemu, version=None):
    """One `hostemu copilot run` per firing: it runs the event's hooks of both spellings, so where
    both spellings were captured (mixed-file: one firing, two captures) the first spelling seen is
    replayed and the other capture of that firing shares its answer."""
    run.build()
    out, spelling, last = [], {}, {}
    for label, raw in zip(run.labels, run.raw_payloads):
        event = PASCAL_OF.get(label, label)
        spelling.setdefault(event, label)
        if spelling[event] != label and event in last:
            out.append(copy.deepcopy(last[event]))
            continue
        env = run.env(0)
        env["CAP"] = os.path.join(run.root, "replay-capture")
        os.makedirs(env["CAP"], exist_ok=True)
        p = subprocess.run([hostemu, "copilot", "run", "--home", run.home, "--project", run.proj,
                            "--event", label] + (["--version", version] if version else []), input=raw, cwd=run.proj, env=env, capture_output=True,
                           timeout=900)
        if p.returncode != 0:
            out.append({"error": (p.stderr or p.stdout).decode("utf-8", "replace").strip()[:500]})
            continue
        try:
            out.append(json.loads(p.stdout))
        except ValueError:
            out.append({"error": "not JSON: " + p.stdout[:200].decode("utf-8", "replace")})
        last[event] = out[-1]
    return out, read_marks(run)


def pre_calls(run, got):
    """The preToolUse payloads (either dialect) in firing order, each paired with the text the
    model read for the call it gated: the scripted call with the same arguments (a subagent's calls
    fire between the main agent's), else the calls in order (one capture per dialect)."""
    read = dict(got["read"])
    order = [t for _, t in got["read"]]
    calls = []  # (call id, arguments) of every scripted function call, in script order
    for t, turn in enumerate(run.sc.get("turns") or []):
        for i, item in enumerate(turn.get("content") or []):
            if item.get("type") == "function_call":
                args = json.loads(json.dumps(item.get("arguments")).replace("<ROOT>", run.root))
                calls.append(("call_s%d_%d" % (t, i), args))
    out, used, seen = [], set(), collections.Counter()
    for i, (label, p) in enumerate(zip(run.labels, run.payloads)):
        if label not in PRE_EVENTS:
            continue
        args = p.get("toolArgs", p.get("tool_input")) if isinstance(p, dict) else None
        match = next((c for c, a in calls if c not in used and a == args and c in read), None)
        if match is not None:
            used.add(match)
            out.append((i, read[match]))
        else:
            n = seen[label]
            out.append((i, order[n] if n < len(order) else None))
        seen[label] += 1
    return out


def call_ran(text):
    return text is not None and not text.startswith(DENIED_PREFIX)


def hook_notices(lines):
    """The notices a hook's output made the CLI print (`! …`, one per line), sorted: the events
    that print them (postToolUse and userPromptSubmitted exit 2, a Claude-style prompt block) fire
    at set points, but sessionStart's and userPromptSubmitted's hooks overlap."""
    return sorted(l.rstrip() for l in lines if l.startswith("! "))


def compare_emulator(run, got, emu, emu_marks):
    name = run.sc["name"]
    diffs = []
    root = run.root
    told = "\n".join(got["told"])
    gates = dict(pre_calls(run, got))
    for i, (label, em) in enumerate(zip(run.labels, emu)):
        where = "%s #%d (%s)" % (name, i, label)
        if "error" in em:
            diffs.append(where + ": hostemu copilot run failed: " + em["error"])
            continue
        o = em.get("outcome", {})
        text = norm(o["modelText"], root) if o.get("modelText") is not None else None
        if i in gates:
            real = gates[i]
            real_runs = call_ran(real)
            if bool(o.get("toolRuns", True)) != real_runs:
                diffs.append(where + ": the call runs emulator=%s real=%s (the model read %r)"
                             % (o.get("toolRuns"), real_runs, real))
            elif not real_runs and text != real:
                diffs.append(where + ": the model read emulator=%r real=%r" % (text, real))
        if label in ("userPromptSubmitted", "UserPromptSubmit"):
            if bool(o.get("blocked")) != prompt_dropped(run):
                diffs.append(where + ": prompt dropped emulator=%s real=%s" % (bool(o.get("blocked")), prompt_dropped(run)))
        for t in o.get("additionalContexts") or []:
            t = norm(t, root)
            if t.strip() and t not in told:
                diffs.append(where + ": the emulator says the model was told %r; real never was" % t)
    for t in got["told"]:
        said = any(t in norm(c, root) or norm(c, root) in t for em in emu if "error" not in em
                   for c in em.get("outcome", {}).get("additionalContexts") or [])
        if not said:
            diffs.append("%s: the model was told %r; the emulator predicted no such context" % (name, t))
    if emu_marks != host_marks(got["marks"]):
        diffs.append("%s: hooks that ran ($M) emulator=%r real=%r" % (name, emu_marks, host_marks(got["marks"])))
    emu_notices = hook_notices(norm(l, root) for em in emu if "error" not in em
                               for n in em.get("outcome", {}).get("notices") or []
                               for l in n.splitlines())
    if emu_notices != hook_notices(got["notices"]):
        diffs.append("%s: the hooks' notices (`! …` on stderr) emulator=%r real=%r"
                     % (name, emu_notices, hook_notices(got["notices"])))
    return diffs


def oracle(run, got):
    """An emulator answer built from the real outcome: what a right emulator prints."""
    gates = dict(pre_calls(run, got))
    emu = []
    for i, label in enumerate(run.labels):
        o = {"toolRuns": True, "modelText": None, "blocked": False, "additionalContexts": []}
        if i in gates and not call_ran(gates[i]):
            o.update(toolRuns=False, modelText=gates[i])
        if label in ("userPromptSubmitted", "UserPromptSubmit") and prompt_dropped(run):
            o["blocked"] = True
        emu.append({"outcome": o})
    if emu:
        emu[0]["outcome"]["additionalContexts"] = list(got["told"])
        emu[0]["outcome"]["notices"] = hook_notices(got["notices"])
    return emu


def weak_checks(run, got, emu, emu_marks):
    """Each perturbation a wrong emulator would show must give a difference; returns those that
    went unnoticed."""
    weak = []
    for i, label in enumerate(run.labels):
        if "error" in emu[i]:
            continue
        muts = [("a context invented", lambda o: o.setdefault("additionalContexts", []).append("HK perturbed"))]
        if label in PRE_EVENTS:
            muts.append(("the call's fate flipped", lambda o: o.update(toolRuns=not o.get("toolRuns", True))))
            if not emu[i]["outcome"].get("toolRuns", True):
                muts.append(("the deny text changed", lambda o: o.update(modelText="perturbed")))
        if label in ("userPromptSubmitted", "UserPromptSubmit"):
            muts.append(("the prompt block flipped", lambda o: o.update(blocked=not o.get("blocked"))))
        for what, mut in muts:
            bad = copy.deepcopy(emu)
            mut(bad[i].setdefault("outcome", {}))
            if not compare_emulator(run, got, bad, emu_marks):
                weak.append("%s #%d (%s): %s went unnoticed" % (run.sc["name"], i, label, what))
    marks = host_marks(got["marks"])
    if marks and not compare_emulator(run, got, emu, marks[1:]):
        weak.append("%s: a hook's mark dropped went unnoticed" % run.sc["name"])
    if got["told"] and len(emu) and not compare_emulator(run, got, [{"outcome": {}}] * len(emu), marks):
        weak.append("%s: contexts never predicted went unnoticed" % run.sc["name"])
    if len(emu) and "error" not in emu[0]:
        bad = copy.deepcopy(emu)
        bad[0].setdefault("outcome", {}).setdefault("notices", []).append("! HK perturbed")
        if not compare_emulator(run, got, bad, marks):
            weak.append("%s: a notice invented went unnoticed" % run.sc["name"])
    return weak


def self_check(run, got):
    """The comparisons can fail: the oracle passes, its perturbations and a moved record do not."""
    emu = oracle(run, got)
    marks = host_marks(got["marks"])
    diffs = ["SELF-CHECK the oracle emulator answer differs: " + d
             for d in compare_emulator(run, got, emu, marks)]
    diffs += ["WEAK " + w for w in weak_checks(run, got, emu, marks)]
    if any(m != h for m, h in zip(got["marks"], marks)) and not compare_emulator(run, got, emu, got["marks"]):
        diffs.append("WEAK %s: a launcher variable the emulator invented went unnoticed" % run.sc["name"])
    moved = dict(got, files=got["files"] + ["<perturbed>"])
    if not compare_expected(dict(run.sc, expected=moved), got):
        diffs.append("WEAK %s: a moved recorded outcome went unnoticed" % run.sc["name"])
    return diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hostemu", required=True)
    ap.add_argument("--copilot", help="the Copilot launcher (default: ci/npm-copilot.sh installs it)")
    ap.add_argument("--scenarios", required=True, help="directory of scenario JSON files")
    ap.add_argument("--only", help="run only the scenarios whose name contains one of these (comma-separated)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--record", action="store_true",
                    help="write each scenario's real outcome into its file as \"expected\"")
    ap.add_argument("--keep", help="keep the session directories under this directory")
    ap.add_argument("--fixtures-out", metavar="FIXTURES_ROOT",
                    help="write the captured payloads as fixtures under this fixtures root")
    ap.add_argument("--version", metavar="V",
                    help="--copilot runs release V, not the pinned one: the emulator replays under "
                         "V's version profile (hosts/copilot/profiles/) and the recorded outcomes "
                         "(the pinned release's) are not compared")
    a = ap.parse_args()
    if a.version and (a.record or a.fixtures_out or not a.copilot):
        ap.error("--version checks a profile against another release: with --copilot, without "
                 "--record or --fixtures-out")
    a.hostemu = os.path.abspath(a.hostemu)
    copilot = a.copilot or cs.install_copilot()
    t0 = time.time()
    scs, files = [], {}
    for f in sorted(os.listdir(a.scenarios)):
        if not f.endswith(".json"):
            continue
        sc = json.load(open(os.path.join(a.scenarios, f)))
        if not a.only or any(w in sc["name"] for w in a.only.split(",")):
            sc.setdefault("turns", DEFAULT_TURNS)
            scs.append(sc)
            files[sc["name"]] = os.path.join(a.scenarios, f)
    if not a.only and not a.record and not a.fixtures_out:  # records cover every scenario
        scs = real_slice.select(scs, lane="copilot_real_diff")
    emu_ok = emulator_ready(a.hostemu)
    if not emu_ok:
        print("[ NO EMULATOR ] `hostemu copilot run` is not built yet: the real CLI is checked against "
              "its recorded outcomes, and the comparison against the self-check's oracle")
    base = a.keep or tempfile.mkdtemp(prefix="copilot-diff-")
    os.makedirs(base, exist_ok=True)

    def one(sc):
        run = cs.Run(os.path.join(base, sc["name"]), sc)
        os.makedirs(run.root, exist_ok=True)
        retried = None
        for attempt in (1, 2):
            try:
                run.run(copilot, a.hostemu, timeout=sc.get("timeout", 180))
            except subprocess.TimeoutExpired:
                return run, None, ["%s: the real CLI did not finish within its timeout" % sc["name"]]
            expected_notices = " ".join((sc.get("expected") or {}).get("notices") or [])
            if attempt == 1 and NO_MODEL_SERVER in run.stderr and NO_MODEL_SERVER not in expected_notices:
                retried = ("the CLI could not reach the model server (%d request(s) logged, server %s); "
                           "made again once" % (len(run.api), "still serving" if run.server_exit is None
                                                else "exited %s" % run.server_exit))
                continue
            break
        got = outcome(run)
        run.retried = retried
        diffs = [] if a.record or a.version else compare_expected(sc, got)
        diffs += self_check(run, got)
        if emu_ok:
            emu, emu_marks = replay(run, a.hostemu, a.version)
            diffs += compare_emulator(run, got, emu, emu_marks)
            diffs += ["WEAK " + w for w in weak_checks(run, got, emu, emu_marks)]
        return run, got, diffs

    total, runs = 0, []
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for run, got, d in ex.map(one, scs):
            total += len(d)
            print("%-40s %s  %d payloads%s" % (run.sc["name"], "OK  " if not d else "DIFF",
                                               len(run.payloads) if got else 0,
                                               "  (retried: %s)" % run.retried if getattr(run, "retried", None) else ""),
                  flush=True)
            for x in d:
                print("   " + x.replace("\n", "\n   "))
            runs.append((run, got))
    print("scenarios: %d, differences: %d, wall %.0f s" % (len(scs), total, time.time() - t0))
    if a.record:
        for run, got in runs:
            if got is None:
                continue
            sc = json.load(open(files[run.sc["name"]]))
            sc["expected"] = got
            with open(files[run.sc["name"]], "w") as f:
                json.dump(sc, f, indent=1, ensure_ascii=False)
                f.write("\n")
    if a.fixtures_out:
        write_fixtures(a.fixtures_out, [r for r, g in runs if g is not None])
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if total else 0)


FAMILY = "copilot"
VERSION = "1.0.102"


def write_fixtures(out, runs):
    """The captured payloads, byte-exact, one per (event, scenario): OUT/copilot/1.0.102/<Event>/
    y_captured_<scenario>.json, <Event> the name the capture hook was registered under (camelCase:
    the native payload; PascalCase: the Claude-style one); entries merged into the family's
    OUT/copilot/MANIFEST.json."""
    import datetime, hashlib
    manifest = []
    for run in runs:
        if run.sc.get("no_fixtures"):
            continue
        seen = set()
        for label, raw in zip(run.labels, run.raw_payloads):
            if label in seen:
                continue
            seen.add(label)
            rel = "%s/%s/%s/y_captured_%s.json" % (FAMILY, VERSION, label, run.sc["name"])
            os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
            with open(os.path.join(out, rel), "wb") as f:
                f.write(raw)
            where = "~/.copilot/hooks/main.json, %s dialect" % ("Claude-style PascalCase" if label[0].isupper()
                                                                 else "native camelCase")
            manifest.append({"path": rel, "host": FAMILY, "version": VERSION, "event": label, "kind": "y",
                             "date": datetime.date.today().isoformat(),
                             "provenance": "captured from the real Copilot CLI " + VERSION,
                             "source": "emulator/hosts/copilot/test/real_diff.py --fixtures-out, scenario %s: a "
                                       "capture hook (%s, first in its event's list) copied its stdin; session "
                                       "ids, times and temp paths are the recorded ones" % (run.sc["name"], where),
                             "sha256": hashlib.sha256(raw).hexdigest()})
    path = os.path.join(out, FAMILY, "MANIFEST.json")
    old = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else []
    new_paths = {m["path"] for m in manifest}
    manifest += [m for m in old if m.get("path") not in new_paths]
    manifest.sort(key=lambda m: m["path"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
