#!/usr/bin/env python3
"""Find where Codex CLI's hook behaviour changes between published releases.

  ci/codex-bisect.py [FROM..TO] [--scenarios NAME,NAME,...] [--out DIR] [--hostemu PATH]
                     [--jobs N] [--sweep]
  ci/codex-bisect.py --radar [--skip-status N]

--radar is the version radar's Codex part (ci/codex-radar.sh, run by ci/drift.sh): the stable
releases on npm from 0.124.0 on, each with its profile, and NEW for every release past the newest
profile's range (exit 1: bisect from the newest profiled release to it and extend or add a
profile), nothing downloaded; npm unreachable: exit --skip-status (default 77).

Lists the stable releases of @openai/codex in FROM..TO (default 0.124.0, the first with hooks on
by default, .. the newest), and gives each probed release a signature: the lines in which the real
release's outcomes differ from the outcomes recorded from the reference release in
emulator/hosts/codex/test/scenarios/ (`real_diff.py --real-only`: events fired, files, the text
the model read, marks, notices, payloads), plus which hook event names its binary holds (the
compaction and subagent events have no offline scenario). The search and the report are
ci/version_bisect.py's: the release table with each release's profile (`hostemu codex profiles
--version V`), every boundary with the lines that appear and vanish there, MISMATCH where a
profile range spans a boundary.

Not a default test: each probed release is one npm download of 60-110 MB (ci/npm-codex.sh
VERSION, cached per release) and about a minute of runs. Probe outputs are kept in OUT/VERSION.txt
(default ~/.cache/pinta-gemini/bisect/codex-<hash of the scenario set>) and reused.

Exit: 0 profile boundaries match behaviour boundaries, 1 a MISMATCH, 2 usage / install error, 77
npm unreachable.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SRC, "ci"))
import version_bisect as vb  # noqa: E402

TAG = "codex-bisect"
SCENARIOS = os.path.join(SRC, "emulator", "hosts", "codex", "test", "scenarios")
# The scenarios that told the releases apart (docs/hosts/codex-0.171.md "Releases"): SessionEnd
# (every scenario fires it) and whether hooks run at all, hook trust (untrusted-no-bypass), the
# updatedInput rewrite and the legacy PreToolUse block (racy, see RACY), the start-up notices
# (layers-json-and-toml: hooks in both files of a layer; matcher-post-regex: an invalid matcher),
# and the strict reply parser's cases, unchanged so far (pre-deny-extra-key, pre-deny-noreason,
# pre-exit2-empty), the config.toml layer and the seconds timeout (layers-toml-deny,
# timeout-seconds).
DEFAULT_SCENARIOS = ("pre-allow-updated-input,untrusted-no-bypass,pre-legacy-block,"
                     "layers-json-and-toml,matcher-post-regex,pre-deny-extra-key,pre-deny-noreason,"
                     "pre-exit2-empty,layers-toml-deny,timeout-seconds")
# The first release with hooks on by default (`codex features list`: codex_hooks "stable true";
# 0.123.0: "under development false").
FIRST_WITH_HOOKS = "0.124.0"
# Scenarios whose outcome raced on releases up to 0.145.0: every scenario's capture hook runs
# beside the hook under test, and there a silent hook beside a deciding one made the decision lost
# in some runs (scenario multi-deny-then-slow-silent; docs/hosts/codex-0.171.md "Releases").
# Their lines stay in each probe's file but are no part of the signature: a race is not a
# boundary. Their rules were measured without the capture hook (the profiles' evidence).
RACY = ("layers-toml-deny", "pre-allow-updated-input", "pre-legacy-block")
EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
          "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop", "SessionEnd"]


class Prober:
    def __init__(self, a, out_dir):
        self.a, self.out_dir, self.sigs = a, out_dir, {}

    def install(self, v):
        r = subprocess.run(["bash", os.path.join(SRC, "ci", "npm-codex.sh"), v],
                           capture_output=True, text=True)
        if r.returncode in (3, 4):
            vb.die(TAG, "npm unavailable: " + r.stderr.strip()[:200], 77)
        if r.returncode != 0:
            vb.die(TAG, "cannot install %s: %s" % (v, r.stderr.strip()[:200]))
        return r.stdout.strip().splitlines()[-1]

    def signature(self, v):
        if v in self.sigs:
            return self.sigs[v]
        path = os.path.join(self.out_dir, v + ".txt")
        if not os.path.exists(path):
            codex = self.install(v)
            print("  probing %s ..." % v, file=sys.stderr, flush=True)
            blob = open(codex, "rb").read()
            lines = ["binary names %s: %s" % (e, "yes" if e.encode() in blob else "no")
                     for e in EVENTS]
            r = subprocess.run([sys.executable, os.path.join(SCENARIOS, "..", "real_diff.py"),
                                "--hostemu", self.a.hostemu, "--codex", codex, "--scenarios",
                                SCENARIOS, "--only", self.a.scenarios, "--generated", "0",
                                "--real-only", "--jobs", str(self.a.jobs)],
                               capture_output=True, text=True)
            if r.returncode not in (0, 1):
                vb.die(TAG, "real_diff on %s failed (exit %d): %s" %
                       (v, r.returncode, (r.stdout + r.stderr).strip()[-300:]))
            lines += [l for l in r.stdout.splitlines() if not l.startswith("scenarios: ")]
            with open(path + ".tmp", "w") as f:
                f.write("\n".join(lines) + "\n")
            os.replace(path + ".tmp", path)
        lines = [l.rstrip("\n") for l in open(path)]
        # A run that did not finish is not behaviour: stop instead of inventing a boundary.
        bad = [l for l in lines if "did not finish" in l]
        if bad:
            os.remove(path)
            vb.die(TAG, "probe of %s failed: %s" % (v, bad[0][:200]))
        # The event names in the binary are shown (names()), not compared: a name can precede the
        # event firing (SessionEnd from 0.143.0, fired from 0.145.0).
        sig, scenario = [], None
        for l in lines:
            if l.startswith("binary names "):
                continue
            if l and not l.startswith(" "):
                scenario = l.split()[0]
            if scenario not in RACY:
                sig.append(l)
        self.sigs[v] = frozenset(sig)
        return self.sigs[v]

    def names(self, v):
        """The hook event names release v's binary holds (from its probe file)."""
        path = os.path.join(self.out_dir, v + ".txt")
        return [l.split()[2].rstrip(":") for l in open(path)
                if l.startswith("binary names ") and l.rstrip().endswith("yes")]

    def profile(self, v):
        r = subprocess.run([self.a.hostemu, "codex", "profiles", "--version", v],
                           capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else "(none)"


def radar(a):
    if not os.access(a.hostemu, os.X_OK):
        vb.die(TAG, "no hostemu at %s (cmake --build build --target hostemu)" % a.hostemu)
    try:
        vs = vb.stable_versions(TAG, "@openai/codex", FIRST_WITH_HOOKS)
    except SystemExit as e:
        if e.code == 77:
            print("%s: SKIPPED: npm view @openai/codex versions failed" % TAG)
            return a.skip_status
        raise
    prober = Prober(a, None)
    new = []
    for v in vs:
        p = prober.profile(v)
        print("%-10s %s" % (v, p))
        if p == "(none)":
            new.append(v)
    if new:
        last = [v for v in vs if v not in new][-1] if len(new) < len(vs) else FIRST_WITH_HOOKS
        print("NEW: %d release(s) past the newest profile: %s; bisect them: ci/codex-bisect.py "
              "%s..%s, then extend the newest profile's applies_through or add a profile"
              % (len(new), " ".join(new), last, new[-1]))
        return 1
    print("%s: every release since %s has a profile" % (TAG, FIRST_WITH_HOOKS))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("range", nargs="?", default=FIRST_WITH_HOOKS + "..",
                    help="FROM..TO (default 0.124.0.. the newest release)")
    ap.add_argument("--scenarios", default=DEFAULT_SCENARIOS,
                    help="scenario names, comma-separated (default %(default)s)")
    ap.add_argument("--hostemu", default=os.path.join(SRC, "build", "bin", "hostemu"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="probe cache directory")
    ap.add_argument("--sweep", action="store_true", help="probe every release")
    ap.add_argument("--record", metavar="FILE",
                    help="write the result as JSON (the table docs/hosts/codex-0.171.md shows: "
                         "emulator/hosts/codex/tools/versions.json, gen_doc.py)")
    ap.add_argument("--self-test", action="store_true",
                    help="check the search and the report on a scripted prober (no npm; ctest)")
    ap.add_argument("--radar", action="store_true",
                    help="list the releases past the newest profile (no download)")
    ap.add_argument("--skip-status", type=int, default=77,
                    help="--radar's exit status when npm is unreachable (default 77)")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if a.radar:
        return radar(a)
    if not os.access(a.hostemu, os.X_OK):
        vb.die(TAG, "no hostemu at %s (cmake --build build --target hostemu)" % a.hostemu)
    if a.range.endswith(".."):
        lo, hi = a.range[:-2], None
        vb.parse_range(TAG, lo + ".." + lo)
    else:
        lo, hi = vb.parse_range(TAG, a.range)
    tag = hashlib.sha256(",".join(sorted(a.scenarios.split(","))).encode()).hexdigest()[:12]
    out_dir = a.out or os.path.join(os.environ.get("PINTA_NPM_CACHE",
                                                   os.path.expanduser("~/.cache/pinta-gemini")),
                                    "bisect", "codex-" + tag)
    os.makedirs(out_dir, exist_ok=True)
    vs = vb.stable_versions(TAG, "@openai/codex", lo, hi)
    prober = Prober(a, out_dir)
    probed = vb.search(prober, vs, a.sweep)
    status = vb.report(prober, vs, probed)
    if a.record:
        rows, boundaries = vb.classify(prober, vs, probed)
        for r in rows:
            if r["probed"]:
                r["names"] = prober.names(r["version"])
        with open(a.record, "w") as f:
            json.dump({"tool": "ci/codex-bisect.py", "date": time.strftime("%Y-%m-%d", time.gmtime()),
                       "range": "%s..%s" % (vs[0], vs[-1]), "scenarios": a.scenarios.split(","),
                       "rows": rows, "boundaries": boundaries}, f, indent=1)
            f.write("\n")
    return status


def self_test():
    """The search finds every boundary of a scripted behaviour with fewer probes than releases,
    the report flags a profile range that spans a boundary, and a profile boundary without a
    behaviour change is only a note."""
    vs = ["0.%d.0" % i for i in range(124, 172)]
    cut = lambda v, at: sum(vb.key(v) >= vb.key(x) for x in at)

    class Scripted:
        def __init__(self, behaviour, profiles):
            self.behaviour, self.profiles, self.calls = behaviour, profiles, set()

        def signature(self, v):
            self.calls.add(v)
            return frozenset(["class %d" % cut(v, self.behaviour)])

        def profile(self, v):
            return "p%d" % cut(v, self.profiles)

    problems = []
    import contextlib, io
    for behaviour, profiles, want_status in (
            (["0.130.0", "0.145.0"], ["0.130.0", "0.145.0"], 0),
            (["0.130.0", "0.145.0"], ["0.145.0"], 1),               # 0.130 spans a boundary
            (["0.145.0"], ["0.130.0", "0.145.0"], 0)):             # a note only
        p = Scripted(behaviour, profiles)
        probed = vb.search(p, vs)
        rows, bounds = vb.classify(p, vs, probed)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            status = vb.report(p, vs, probed)
        if [b["version"] for b in bounds] != behaviour:
            problems.append("boundaries %s, want %s" % ([b["version"] for b in bounds], behaviour))
        if status != want_status:
            problems.append("status %d, want %d for profiles %s" % (status, want_status, profiles))
        if len(p.calls) >= len(vs) // 2:
            problems.append("%d probes for %d releases: not a bisection" % (len(p.calls), len(vs)))
        if want_status == 1 and "MISMATCH" not in out.getvalue():
            problems.append("no MISMATCH line")
    for pr in problems:
        print("codex-bisect self-test: " + pr)
    print("codex-bisect self-test: %s" % ("FAILED" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
