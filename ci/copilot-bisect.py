#!/usr/bin/env python3
"""Find where GitHub Copilot CLI's hook behaviour changes between published releases.

  ci/copilot-bisect.py [FROM..TO] [--scenarios NAME,NAME,...] [--out DIR] [--hostemu PATH]
                       [--jobs N] [--sweep | --cached] [--keep-installs] [--record FILE]
  ci/copilot-bisect.py --radar [--hostemu PATH] [--skip-status N]
  ci/copilot-bisect.py --self-test

--radar is the version radar's Copilot part (ci/copilot-radar.sh, run by ci/drift.sh): the stable
releases with a native linux-x64 package from the oldest profile's on, each with its version
profile (`hostemu copilot profiles --version V`), NEW for every release past the newest profile's
range (exit 1: bisect from the newest profiled release to it, then add or extend a profile) and
UNPROBED for a release between two profiles that no probe has placed yet (said, exit 0); nothing
downloaded; npm unreachable: exit --skip-status (default 77).

The releases are those of `@github/copilot-linux-x64` (the native package; the older
pure-JavaScript releases need a newer Node than the build machine's) in FROM..TO (default 1.0.57,
the first with a fail-closed preToolUse (CPLOG), .. the newest). A probe installs a release
(ci/npm-copilot.sh VERSION), plays a small set of discriminating differential scenarios
(emulator/hosts/copilot/test/scenarios/) through it, offline, against the scripted model server,
and compares each outcome with the one recorded from the pinned 1.0.102 (the scenario's
"expected"). Its signature: the hook-rule fields that differ, "scenario:field" (a payload by its
shape, "scenario:payload.<event>"; the transcript's wording and a tool's own output left out), and
the values of the payload members a hook decides on (tool names, event names, reasons) where they
differ, "scenario:payload.<event>.<key>: recorded [..], now [..]" (a shape hides a renamed tool:
1.0.61's Claude-style `bash`). The search, the classes and the report are ci/version_bisect.py's:
the release table with each release's profile, every boundary with the lines that appear and
vanish there, MISMATCH where a profile range spans a boundary. --cached probes nothing: the table
from the probes kept so far (an interrupted search), a release between probes of two classes "?".

Probes are cached (OUT/VERSION.json, default ~/.cache/pinta-gemini/bisect-copilot/<hash of the
scenario set>), so an interrupted search resumes; an install other than the pinned one is removed
after its probe unless --keep-installs (each is ~450 MB of packages plus ~235 MB unpacked).
Not in the default tests (a probe downloads a release); --self-test (ctest copilot_bisect_self_test)
checks the signature, the radar's verdicts and the "?" classes without npm.
Exit: 0 the profiles match the classes, 1 a MISMATCH (--radar: a NEW release), 2 usage or install
error, 77 npm unreachable.
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SRC, "ci"))
import version_bisect as vb  # noqa: E402
TEST = os.path.join(SRC, "emulator", "hosts", "copilot", "test")
sys.path.insert(0, TEST)
import copilot_session as cs  # noqa: E402  (the real-CLI lane's run and outcome)
import real_diff  # noqa: E402

TAG = "copilot-bisect"
PACKAGE = "@github/copilot-linux-x64"
PINNED = "1.0.102"
FIRST = "1.0.57"
RECORD = os.path.join(SRC, "emulator", "hosts", "copilot", "tools", "releases.json")
# One scenario per hook rule known to have moved (the package's changelog.json, CPLOG): a
# preToolUse hook that exits 1 (fail-closed since 1.0.57), exit 2 (a deny since 1.0.70), a hook
# past its timeoutSec (fails open since 1.0.67), ask in -p, hookSpecificOutput in the native
# dialect, the events a plain run fires and their payloads (both dialects; toolArgs' type), the
# repository's .claude/settings.json, OpenTelemetry's traceparent (1.0.81).
DEFAULT_SCENARIOS = ("c-baseline,c-pre-exit1,c-pre-exit2-stderr,c-pre-timeout,c-pre-ask,"
                     "c-pre-hso-deny,c-pre-deny,c-otel-allow,p-baseline,p-pre-hso-deny,"
                     "p-pre-exit1,src-claude-trusted")
# Payload members whose value (not only its type) is a hook rule: what a matcher or a guard reads.
VALUE_KEYS = ("tool_name", "toolName", "hook_event_name", "hookName", "notification_type",
              "source", "reason", "stopReason", "stop_reason")
MOVED = re.compile(r"^(\S+): real (\S+) payload moved\n  recorded: (.*)\n  now:      (.*)$", re.S)


def values(payloads):
    """The VALUE_KEYS members of a list of payloads, as sorted "key=value" texts."""
    out = set()
    for p in payloads or []:
        if isinstance(p, dict):
            out.update("%s=%s" % (k, json.dumps(p[k])) for k in VALUE_KEYS if k in p)
    return sorted(out)


def signature_of(rec):
    """A probe record's signature (see the module comment): its differing fields plus the value
    lines recovered from its payload difference lines."""
    sig = set(rec["signature"])
    for line in rec["lines"]:
        m = MOVED.match(line)
        if not m:
            continue
        rec_, now = json.loads(m.group(3)), json.loads(m.group(4))
        if rec_ is None or now is None:
            continue  # an event fired on one side only: its field line says so
        a, b = values(rec_), values(now)
        if a != b:
            sig.add("%s:payload.%s.values: recorded %s, now %s" % (m.group(1), m.group(2), a, b))
    return frozenset(sig)


def shape(x):
    """A payload's shape: its keys and each value's JSON type, nested (the values move with
    every run's ids and with tool output wording)."""
    if isinstance(x, dict):
        return {k: shape(v) for k, v in x.items()}
    if isinstance(x, list):
        return [shape(v) for v in x]
    return type(x).__name__


class Prober:
    def __init__(self, a, out_dir, cached=False):
        self.a, self.out_dir, self.cached, self.recs = a, out_dir, cached, {}

    def path(self, v):
        return os.path.join(self.out_dir, v + ".json")

    def has(self, v):
        return v in self.recs or os.path.exists(self.path(v))

    def record(self, v):
        if v not in self.recs:
            if not os.path.exists(self.path(v)):
                if self.cached:
                    vb.die(TAG, "no probe of %s kept in %s" % (v, self.out_dir))
                self.probe(v)
            self.recs[v] = json.load(open(self.path(v)))
        return self.recs[v]

    def signature(self, v):
        return signature_of(self.record(v))

    def profile(self, v):
        r = subprocess.run([self.a.hostemu, "copilot", "profiles", "--version", v],
                           capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else "(none)"

    def install(self, v):
        p = subprocess.run(["bash", os.path.join(SRC, "ci", "npm-copilot.sh"), v],
                           capture_output=True, text=True)
        if p.returncode in (3, 4):
            vb.die(TAG, "npm unavailable: " + p.stderr.strip()[-300:], 77)
        if p.returncode != 0:
            return None, p.stderr.strip()[-300:]
        return p.stdout.strip().splitlines()[-1], None

    def probe(self, v):
        scs = scenarios(self.a.scenarios)
        launcher, err = self.install(v)
        if launcher is None:
            rec = {"version": v, "error": err, "signature": ["<no install>"], "lines": [err]}
        else:
            print("  probing %s ..." % v, file=sys.stderr, flush=True)
            base = tempfile.mkdtemp(prefix="copilot-bisect-")

            def one(sc):
                run = cs.Run(os.path.join(base, sc["name"]), sc)
                os.makedirs(run.root, exist_ok=True)
                try:
                    run.run(launcher, self.a.hostemu, timeout=sc.get("timeout", 180))
                except subprocess.TimeoutExpired:
                    return sc["name"], ["timeout"], ["%s: the CLI did not finish" % sc["name"]]
                got = real_diff.outcome(run)
                return sc["name"], differing(sc, got), real_diff.compare_expected(sc, got)

            sig, lines = [], []
            with cf.ThreadPoolExecutor(self.a.jobs) as ex:
                for name, fields, diffs in ex.map(one, scs):
                    sig += ["%s:%s" % (name, f) for f in fields]
                    lines += diffs
            shutil.rmtree(base, ignore_errors=True)
            rec = {"version": v, "signature": sorted(sig), "lines": lines}
            # A run that did not finish is not behaviour: stop instead of inventing a boundary.
            if any("did not finish" in l for l in lines):
                vb.die(TAG, "probe of %s failed: %s" % (v, [l for l in lines if "did not finish" in l][0]))
        with open(self.path(v) + ".tmp", "w") as f:
            json.dump(rec, f, indent=1, ensure_ascii=False)
        os.replace(self.path(v) + ".tmp", self.path(v))
        if v != PINNED and not self.a.keep_installs:
            shutil.rmtree(vb.cache_dir(os.path.join("npm", "copilot-" + v)), ignore_errors=True)
        print("probed %-8s %d differing fields" % (v, len(rec["signature"])), flush=True)


def hook_view(got):
    """What a hook rule decides, less what moves for other reasons: the tool's own output text
    (a call that ran reads as "ran"), the transcript's wording, payload values."""
    v = dict(got)
    v.pop("transcript", None)
    v["read"] = [[c, t if not real_diff.call_ran(t) else "ran"] for c, t in got.get("read") or []]
    v["payloads"] = {e: shape(p) for e, p in (got.get("payloads") or {}).items()}
    # The launcher's own variable (which one depends on the release) is not Copilot's.
    drop = re.compile(r"\b(%s)\b ?" % "|".join(real_diff.LAUNCHER_VARS))
    v["marks"] = [drop.sub("", m) for m in got.get("marks") or []]
    return v


def differing(sc, got):
    """The hook-rule fields of an outcome that differ from the recorded 1.0.102 outcome."""
    exp, got = hook_view(sc.get("expected") or {}), hook_view(got)
    fields = []
    for k in sorted(set(exp) | set(got)):
        if k == "payloads":
            a, b = exp.get(k, {}), got.get(k, {})
            fields += ["payload." + e for e in sorted(set(a) | set(b)) if a.get(e) != b.get(e)]
        elif exp.get(k) != got.get(k):
            fields.append(k)
    return fields


def scenarios(names):
    out = []
    for n in names.split(","):
        p = os.path.join(TEST, "scenarios", n + ".json")
        if not os.path.exists(p):
            vb.die(TAG, "no scenario " + n)
        sc = json.load(open(p))
        sc.setdefault("turns", real_diff.DEFAULT_TURNS)
        out.append(sc)
    return out


def radar_verdicts(vs, profile_of):
    """Each release with its profile and verdict: ok (a profile covers it), UNPROBED (between two
    profiles, no profile yet) or NEW (past the newest profiled release)."""
    profiles = [(v, profile_of(v)) for v in vs]
    last = max((i for i, (_, p) in enumerate(profiles) if p != "(none)"), default=-1)
    return [(v, p, "ok" if p != "(none)" else "NEW" if i > last else "UNPROBED")
            for i, (v, p) in enumerate(profiles)]


def radar(a):
    if not os.access(a.hostemu, os.X_OK):
        vb.die(TAG, "no hostemu at %s (cmake --build build --target hostemu)" % a.hostemu)
    try:
        vs = vb.stable_versions(TAG, PACKAGE, FIRST)
    except SystemExit as e:
        if e.code == 77:
            print("%s: SKIPPED: npm view %s versions failed" % (TAG, PACKAGE))
            return a.skip_status
        raise
    rows = radar_verdicts(vs, Prober(a, None).profile)
    for v, p, verdict in rows:
        print("%-10s %-16s %s" % (v, p, "" if verdict == "ok" else verdict))
    new = [v for v, _, verdict in rows if verdict == "NEW"]
    gaps = [v for v, _, verdict in rows if verdict == "UNPROBED"]
    if gaps:
        print("UNPROBED: %d release(s) between profiles: %s (ci/copilot-bisect.py resumes the "
              "search)" % (len(gaps), " ".join(gaps)))
    if new:
        last = [v for v, _, verdict in rows if verdict == "ok"][-1]
        print("NEW: %d release(s) past the newest profile: %s; bisect them: ci/copilot-bisect.py "
              "%s..%s, then add a profile (hosts/copilot/profiles/)" % (len(new), " ".join(new),
                                                                       last, new[-1]))
        return 1
    print("%s: every release since %s is profiled or between profiles" % (TAG, FIRST))
    return 0


def write_record(path, prober, vs, probed, rows, boundaries, a):
    for r in rows:
        if r["probed"]:
            r["differs_from_pinned"] = sorted(prober.signature(r["version"]))
    with open(path, "w") as f:
        json.dump({"tool": "ci/copilot-bisect.py", "date": time.strftime("%Y-%m-%d", time.gmtime()),
                   "pinned": PINNED, "range": "%s..%s" % (vs[0], vs[-1]),
                   "scenarios": a.scenarios.split(","), "rows": rows,
                   "boundaries": boundaries}, f, indent=1, ensure_ascii=False)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("range", nargs="?", default=FIRST + "..",
                    help="FROM..TO (default %s.. the newest release)" % FIRST)
    ap.add_argument("--scenarios", default=DEFAULT_SCENARIOS)
    ap.add_argument("--hostemu", default=os.path.join(SRC, "build", "bin", "hostemu"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="probe cache directory")
    ap.add_argument("--sweep", action="store_true", help="probe every release")
    ap.add_argument("--cached", action="store_true",
                    help="probe nothing: the table from the probes already kept in OUT")
    ap.add_argument("--keep-installs", action="store_true")
    ap.add_argument("--record", metavar="FILE", nargs="?", const=RECORD,
                    help="write the result as JSON (default %s: the table gen_doc.py puts in "
                         "docs/hosts/copilot-1.0.md)" % os.path.relpath(RECORD, SRC))
    ap.add_argument("--radar", action="store_true",
                    help="list the releases with their profiles (no download)")
    ap.add_argument("--skip-status", type=int, default=77)
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if a.radar:
        return radar(a)
    lo, hi = vb.parse_open_range(TAG, a.range)
    if not os.access(a.hostemu, os.X_OK):
        vb.die(TAG, "no hostemu at %s (cmake --build build --target hostemu)" % a.hostemu)
    # The cache key of the scenario files as loaded (that of the tool this one replaced, whose
    # probes it reuses).
    tag = hashlib.sha256(json.dumps(scenarios(a.scenarios), sort_keys=True).encode()).hexdigest()[:12]
    out_dir = a.out or vb.cache_dir(os.path.join("bisect-copilot", tag))
    os.makedirs(out_dir, exist_ok=True)
    vs = vb.stable_versions(TAG, PACKAGE, lo, hi)
    prober = Prober(a, out_dir, cached=a.cached)
    if a.cached:
        probed = {i for i, v in enumerate(vs) if prober.has(v)}
        if not probed:
            vb.die(TAG, "no probe kept in " + out_dir)
    else:
        probed = vb.search(prober, vs, a.sweep)
    status = vb.report(prober, vs, probed, unknown_between=a.cached)
    if a.record:
        rows, boundaries = vb.classify(prober, vs, probed, unknown_between=a.cached)
        write_record(a.record, prober, vs, probed, rows, boundaries, a)
    print("\nprobes kept in " + out_dir)
    return status


def self_test():
    """The value lines of the signature, the radar's verdicts and the "?" rows of an interrupted
    search, on data (no npm)."""
    problems = []
    rec = {"signature": ["p-baseline:marks"], "lines": [
        'p-baseline: real PreToolUse payload moved\n  recorded: [{"tool_name": "Bash", "cwd": "a"}]'
        '\n  now:      [{"tool_name": "bash", "cwd": "b"}]',
        'p-baseline: real Stop payload moved\n  recorded: [{"cwd": "a"}]\n  now:      [{"cwd": "b"}]']}
    sig = signature_of(rec)
    if not any('tool_name="bash"' in s for s in sig) or len(sig) != 2:
        problems.append("a renamed tool is not in the signature: %s" % sorted(sig))
    prof = {"1.0.57": "copilot-1.0.57", "1.0.60": "(none)", "1.0.61": "copilot-1.0.61",
            "1.0.62": "(none)", "1.0.102": "copilot-1.0", "1.0.103": "(none)"}
    got = [x[2] for x in radar_verdicts(list(prof), prof.get)]
    if got != ["ok", "UNPROBED", "ok", "UNPROBED", "ok", "NEW"]:
        problems.append("radar verdicts %s" % got)

    class Scripted:
        def signature(self, v):
            return frozenset(["new"] if vb.key(v) >= (1, 0, 73) else [])

        def profile(self, v):
            return "p"

    vs = ["1.0.%d" % i for i in (65, 66, 67, 73)]
    rows, _ = vb.classify(Scripted(), vs, {0, 3}, unknown_between=True)
    if [r["class"] for r in rows] != ["A", "?", "?", "B"]:
        problems.append("an interrupted search's unprobed rows: %s" % [r["class"] for r in rows])
    rows, _ = vb.classify(Scripted(), vs, {0, 3})
    if [r["class"] for r in rows] != ["A", "A", "A", "B"]:
        problems.append("a finished search's assumed rows: %s" % [r["class"] for r in rows])
    return vb.self_test_verdict(TAG, problems)


if __name__ == "__main__":
    sys.exit(main())
