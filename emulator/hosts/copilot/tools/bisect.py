#!/usr/bin/env python3
"""Find where GitHub Copilot CLI's hook behaviour changes between published releases.

  emulator/hosts/copilot/tools/bisect.py FROM..TO --hostemu PATH [--scenarios ID,ID,...]
                                         [--out DIR] [--jobs N] [--sweep] [--keep-installs]

The releases are the stable ones of `@github/copilot` that ship a native package for this
platform (`npm view @github/copilot-linux-x64 versions`: the older pure-JavaScript releases need
a newer Node than the build machine's). A probe installs a release (ci/npm-copilot.sh VERSION),
plays a small set of discriminating differential scenarios (test/scenarios/) through it, offline,
against the scripted model server (`hostemu copilot model-server`), and compares each outcome
with the one recorded from the pinned 1.0.102 (the scenario's "expected"). Its signature is the
set of hook-rule outcome fields that differ, "scenario:field" (a payload's shape as
"scenario:payload.<event>"; the transcript's wording and a tool's own output left out): two
releases with the same signature behave alike on those scenarios. The difference lines themselves
are kept with the probe (OUT/VERSION.json) and printed at each boundary.

The search is a bisection, as ci/gemini-bisect.py's: both ends are probed; a range whose ends share
a signature is taken to hold no change (its inner releases are "assumed"), otherwise its middle is
probed and both halves searched, down to adjacent releases. --sweep probes every release. The
output: one row per release (signature class A, B, ..., probed or assumed, and the profile that
`hostemu copilot profiles --version V` gives it), then each boundary with the fields that appear
and vanish there, then MISMATCH lines where one profile spans two classes.

--latest is the version radar: the newest release on npm against the pinned one (exit 1 when
its hook behaviour moved: a new profile is due). --cached prints the table from the probes kept so far (an interrupted search) without probing.
Probes are cached (OUT, default ~/.cache/pinta-gemini/bisect-copilot/<hash of the scenario set>),
so an interrupted search resumes; an install other than the pinned one is removed after its probe
unless --keep-installs (each is ~450 MB of packages plus ~235 MB unpacked).
Not in the default tests: a probe downloads a release. Exit: 0 the profiles match the classes,
1 a MISMATCH, 2 usage or install error, 77 npm unreachable.
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

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TEST = os.path.join(HERE, "..", "test")
SRC = os.path.abspath(os.path.join(HERE, "../../../.."))
sys.path.insert(0, TEST)
import copilot_session as cs  # noqa: E402
import real_diff  # noqa: E402

PINNED = "1.0.102"
# One scenario per hook rule known to have moved (the package's changelog.json, CPLOG): a
# preToolUse hook that exits 1 (fail-closed since 1.0.57), exit 2 (a deny since 1.0.70), a hook
# past its timeoutSec (fails open since 1.0.67), ask in -p, hookSpecificOutput in the native
# dialect, the events a plain run fires and their payloads (both dialects; toolArgs' type), the
# repository's .claude/settings.json, OpenTelemetry's traceparent (1.0.81).
DEFAULT_SCENARIOS = ("c-baseline,c-pre-exit1,c-pre-exit2-stderr,c-pre-timeout,c-pre-ask,"
                     "c-pre-hso-deny,c-pre-deny,c-otel-allow,p-baseline,p-pre-hso-deny,"
                     "p-pre-exit1,src-claude-trusted")


def key(v):
    return tuple(int(x) for x in v.split("."))


def die(msg, code=2):
    print("copilot-bisect: " + msg, file=sys.stderr)
    sys.exit(code)


def releases(lo, hi):
    try:
        out = subprocess.run(["npm", "view", "@github/copilot-linux-x64", "versions", "--json"],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        die("npm view failed: %s" % e, 77)
    if out.returncode != 0:
        die("npm view failed: " + out.stderr.strip()[:200], 77)
    vs = [v for v in json.loads(out.stdout) if re.fullmatch(r"\d+\.\d+\.\d+", v)]
    vs = sorted((v for v in vs if key(lo) <= key(v) <= key(hi)), key=key)
    if not vs:
        die("no release with a native package in %s..%s" % (lo, hi))
    return vs


def install(v):
    p = subprocess.run(["bash", os.path.join(SRC, "ci/npm-copilot.sh"), v], capture_output=True,
                       text=True)
    if p.returncode in (3, 4):
        die("npm unavailable: " + p.stderr.strip()[-300:], 77)
    if p.returncode != 0:
        return None, p.stderr.strip()[-300:]
    return p.stdout.strip().splitlines()[-1], None


def shape(x):
    """A payload's shape: its keys and each value's JSON type, nested (the values move with
    every run's ids and with tool output wording)."""
    if isinstance(x, dict):
        return {k: shape(v) for k, v in x.items()}
    if isinstance(x, list):
        return [shape(v) for v in x]
    return type(x).__name__


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


def probe(v, scs, hostemu, out, jobs, keep):
    path = os.path.join(out, v + ".json")
    if os.path.exists(path):
        return json.load(open(path))
    launcher, err = install(v)
    if launcher is None:
        rec = {"version": v, "error": err, "signature": ["<no install>"], "lines": [err]}
    else:
        base = tempfile.mkdtemp(prefix="copilot-bisect-")

        def one(sc):
            run = cs.Run(os.path.join(base, sc["name"]), sc)
            os.makedirs(run.root, exist_ok=True)
            try:
                run.run(launcher, hostemu, timeout=sc.get("timeout", 180))
            except subprocess.TimeoutExpired:
                return sc["name"], ["timeout"], ["%s: the CLI did not finish" % sc["name"]]
            got = real_diff.outcome(run)
            return sc["name"], differing(sc, got), real_diff.compare_expected(sc, got)

        sig, lines = [], []
        with cf.ThreadPoolExecutor(jobs) as ex:
            for name, fields, diffs in ex.map(one, scs):
                sig += ["%s:%s" % (name, f) for f in fields]
                lines += diffs
        shutil.rmtree(base, ignore_errors=True)
        rec = {"version": v, "signature": sorted(sig), "lines": lines}
    with open(path, "w") as f:
        json.dump(rec, f, indent=1, ensure_ascii=False)
    if v != PINNED and not keep:
        root = os.environ.get("PINTA_NPM_CACHE") or os.path.join(os.path.expanduser("~"), ".cache",
                                                                 "pinta-gemini")
        shutil.rmtree(os.path.join(root, "npm", "copilot-" + v), ignore_errors=True)
    print("probed %-8s %d differing fields" % (v, len(rec["signature"])), flush=True)
    return rec


def profile_of(hostemu, v):
    r = subprocess.run([hostemu, "copilot", "profiles", "--version", v], capture_output=True,
                       text=True)
    return r.stdout.strip() if r.returncode == 0 else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("range", help="FROM..TO (releases)")
    ap.add_argument("--hostemu", required=True)
    ap.add_argument("--scenarios", default=DEFAULT_SCENARIOS)
    ap.add_argument("--out")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--latest", action="store_true",
                    help="the version radar: probe only the newest release on npm (RANGE is "
                         "ignored); exit 1 when it behaves otherwise than the pinned one")
    ap.add_argument("--cached", action="store_true",
                    help="probe nothing: the table from the probes already kept in OUT")
    ap.add_argument("--keep-installs", action="store_true")
    ap.add_argument("--record", metavar="FILE",
                    help="write the classes and boundaries as JSON (tools/releases.json: the "
                         "measured table gen_doc.py puts in docs/hosts/copilot-1.0.md)")
    a = ap.parse_args()
    if ".." not in a.range:
        die("the range is FROM..TO")
    lo, hi = a.range.split("..", 1)
    hostemu = os.path.abspath(a.hostemu)
    want = a.scenarios.split(",")
    scs = []
    sdir = os.path.join(TEST, "scenarios")
    for n in want:
        p = os.path.join(sdir, n + ".json")
        if not os.path.exists(p):
            die("no scenario " + n)
        sc = json.load(open(p))
        sc.setdefault("turns", real_diff.DEFAULT_TURNS)
        scs.append(sc)
    tag = hashlib.sha256(json.dumps(scs, sort_keys=True).encode()).hexdigest()[:12]
    out = a.out or os.path.join(os.path.expanduser("~"), ".cache", "pinta-gemini", "bisect-copilot", tag)
    os.makedirs(out, exist_ok=True)
    if a.latest:
        newest = releases("0.0.0", "999.0.0")[-1]
        rec = probe(newest, scs, hostemu, out, a.jobs, a.keep_installs)
        if newest == PINNED or not rec["signature"]:
            print("radar: %s behaves as %s on the bisect scenarios" % (newest, PINNED))
            sys.exit(0)
        print("radar: %s differs from %s in %d fields:" % (newest, PINNED, len(rec["signature"])))
        for line in rec["lines"]:
            print("  " + line.replace("\n", "\n  "))
        sys.exit(1)
    vs = releases(lo, hi)
    recs = {}

    def get(i):
        if vs[i] not in recs:
            recs[vs[i]] = probe(vs[i], scs, hostemu, out, a.jobs, a.keep_installs)
        return recs[vs[i]]["signature"]

    if a.cached:
        for v in vs:
            if os.path.exists(os.path.join(out, v + ".json")):
                recs[v] = json.load(open(os.path.join(out, v + ".json")))
        if not recs:
            die("no probe kept in " + out)
    elif a.sweep:
        for i in range(len(vs)):
            get(i)
    else:
        todo = [(0, len(vs) - 1)]
        while todo:
            i, j = todo.pop()
            if j - i < 2 or get(i) == get(j):
                get(i), get(j)
                continue
            m = (i + j) // 2
            get(m)
            todo += [(m, j), (i, m)]
    classes, cls_of = {}, {}
    for v in vs:
        if v in recs:
            s = tuple(recs[v]["signature"])
            cls_of[v] = classes.setdefault(s, chr(ord("A") + len(classes)))
    rows, probed = [], [v for v in vs if v in recs]
    for v in vs:
        if v in recs:
            c = cls_of[v]
        else:
            # Between two probes: their class when both ends share it, else not known yet (an
            # interrupted search, --cached).
            lo_ = max((p for p in probed if key(p) < key(v)), key=key, default=None)
            hi_ = min((p for p in probed if key(p) > key(v)), key=key, default=None)
            c = cls_of[lo_] if lo_ and hi_ and cls_of[lo_] == cls_of[hi_] else "?"
        rows.append((v, c, v in recs, profile_of(hostemu, v)))
    print("%-9s %-5s %-8s %s" % ("release", "class", "probe", "profile"))
    for v, c, p, prof in rows:
        print("%-9s %-5s %-8s %s" % (v, c, "probed" if p else "assumed" if c != "?" else "-", prof))
    last, boundaries = None, []
    for v in vs:
        if v not in recs:
            continue
        s = set(recs[v]["signature"])
        if last is not None and s != last[1]:
            print("\nboundary at %s (after %s):" % (v, last[0]))
            for f in sorted(last[1] - s):
                print("  - %s (behaves as %s from here)" % (f, PINNED))
            for f in sorted(s - last[1]):
                print("  + %s" % f)
            boundaries.append({"at": v, "after": last[0], "now_as_pinned": sorted(last[1] - s),
                               "new": sorted(s - last[1])})
        last = (v, s)
    if a.record:
        with open(a.record, "w") as f:
            json.dump({"pinned": PINNED, "range": a.range, "scenarios": want,
                       "releases": [{"version": v, "class": c, "probed": p,
                                     "differs_from_pinned": recs[v]["signature"] if p else None}
                                    for v, c, p, _ in rows],
                       "boundaries": boundaries}, f, indent=1)
            f.write("\n")
    mismatch = 0
    by_profile = {}
    for v, c, _, prof in rows:
        by_profile.setdefault(prof, set()).add(c)
    for prof, cs_ in sorted(by_profile.items()):
        cs_.discard("?")
        if prof != "-" and len(cs_) > 1:
            print("MISMATCH profile %s spans classes %s" % (prof, ",".join(sorted(cs_))))
            mismatch = 1
    print("\nprobes kept in " + out)
    sys.exit(mismatch)


if __name__ == "__main__":
    main()
