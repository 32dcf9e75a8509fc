#!/usr/bin/env python3
"""Find where Gemini CLI's hook behaviour changes between published releases.

  ci/gemini-bisect.py FROM..TO [--scenarios ID,ID,...] [--reference PROFILE] [--out DIR]
                      [--hostemu PATH] [--jobs N] [--sweep]

Lists every stable release of @google/gemini-cli in FROM..TO (`npm view @google/gemini-cli
versions`, nightlies and previews left out), and gives each probed release a signature: the
difference lines of `hostemu drift --host gemini --version V --profile REFERENCE` over a small
set of discriminating session scenarios. The emulator side is the same for every release (one
fixed profile), so two releases with the same signature behave alike on those scenarios.

The search is a bisection: the two ends are probed; a range whose ends share a signature is taken
to hold no change (its inner releases are marked "assumed"), otherwise its middle release is
probed and both halves are searched again, down to adjacent releases. --sweep probes every
release instead. Then it prints:
  - one row per release: the signature class (A, B, ...), probed or assumed, and the profile that
    `hostemu gemini profiles --version V` maps it to;
  - every boundary (first release of a new class) with the difference lines that appear and
    vanish there;
  - MISMATCH lines where a profile range spans a behaviour boundary or two profiles share one
    signature class across a boundary that is not a behaviour change.
Each probe's drift output is kept in OUT/VERSION.txt (default: ~/.cache/pinta-gemini/bisect/<hash
of the scenario set and reference>) and reused by later runs, so an interrupted search resumes.

Exit: 0 the profile boundaries match the behaviour boundaries, 1 a MISMATCH, 2 usage / install
error, 77 npm unreachable (nothing to probe).
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SRC, "ci"))
import version_bisect as vb  # noqa: E402  (the search and the report, shared with other families)
SESSIONS = os.path.join(SRC, "emulator", "hosts", "gemini", "test", "sessions")
# The scenarios that tell the profiles apart (docs/gemini-versions.md, switch table), few enough
# for a probe of a few minutes on the shared machine: the stop request line and tool error wording
# (s13), partial tool_input (s15), extension loading and enablement (s27), hook environment and
# transcript_path (s29), tail tool calls (u05), AfterAgent continuation (u28), the model request
# payload (u06: BeforeModel). SessionEnd twice and the payload's base fields show in every one.
# Folder trust (s04), the log stream order (s23, s25) and exit-code reading (u02) changed only
# before 0.30 (gemini-0.26 .. gemini-0.29: at 0.28, 0.29 and 0.30); add them with --scenarios for
# that range. The hook env field (0.27.0) has no scenario: source only.
DEFAULT_SCENARIOS = "s13,s15,s27,s29,u05,u06,u28"


PROJECT_HASH = re.compile(r"(\.gemini/tmp/)[0-9a-f]{64}")


def die(msg, code=2):
    vb.die("gemini-bisect", msg, code)


def profile_of(hostemu, v):
    r = subprocess.run([hostemu, "gemini", "profiles", "--version", v], capture_output=True,
                       text=True)
    return r.stdout.strip() if r.returncode == 0 else "(none: %s)" % r.stderr.strip()[:80]


class Prober:
    def __init__(self, args, scen_dir, out_dir):
        self.a, self.scen_dir, self.out_dir = args, scen_dir, out_dir
        self.sigs = {}

    def profile(self, v):
        return profile_of(self.a.hostemu, v)

    def signature(self, v):
        if v in self.sigs:
            return self.sigs[v]
        path = os.path.join(self.out_dir, v + ".txt")
        if not os.path.exists(path):
            inst = subprocess.run(["bash", os.path.join(SRC, "ci", "npm-hosts.sh"), v],
                                  capture_output=True, text=True)
            if inst.returncode in (3, 4):
                die("npm unavailable: " + inst.stderr.strip()[:200], 77)
            if inst.returncode != 0:
                die("cannot install %s: %s" % (v, inst.stderr.strip()[:200]))
            print("  probing %s ..." % v, file=sys.stderr, flush=True)
            r = subprocess.run([self.a.hostemu, "drift", "--host", "gemini", "--version", v,
                                "--profile", self.a.reference, "--scenarios", self.scen_dir,
                                "--jobs", str(self.a.jobs)], capture_output=True, text=True)
            if r.returncode not in (0, 1):
                die("drift %s failed (exit %d): %s" % (v, r.returncode, r.stderr.strip()[:300]))
            with open(path + ".tmp", "w") as f:
                f.write(r.stdout)
            os.replace(path + ".tmp", path)
        with open(path) as f:
            lines = [l.rstrip("\n") for l in f if not l.startswith("gemini ")]
        # A failed play (timeout, crash) is not behaviour: it stops the search instead of
        # becoming a boundary.
        bad = [l for l in lines if "timed out" in l or "did not start" in l]
        if bad:
            os.remove(path)
            die("probe of %s failed: %s" % (v, bad[0][:200]))
        # The real CLI's project folder under ~/.gemini/tmp is, up to some release, the SHA-256 of
        # the project path: a temp dir of the probe, different on every run. Not behaviour.
        lines = [PROJECT_HASH.sub(r"\1@PROJECT_HASH@", l) for l in lines]
        self.sigs[v] = frozenset(lines)
        return self.sigs[v]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("range", help="FROM..TO, e.g. 0.26.0..0.61.0")
    ap.add_argument("--scenarios", default=DEFAULT_SCENARIOS,
                    help="scenario id prefixes (default %(default)s)")
    ap.add_argument("--reference", default="gemini-0.61",
                    help="the fixed emulator profile (default %(default)s)")
    ap.add_argument("--hostemu", default=os.path.join(SRC, "build", "bin", "hostemu"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="probe cache directory")
    ap.add_argument("--sweep", action="store_true", help="probe every release")
    a = ap.parse_args()
    lo, hi = vb.parse_range("gemini-bisect", a.range)
    if not os.access(a.hostemu, os.X_OK):
        die("no hostemu at %s (build it: cmake --build build --target hostemu)" % a.hostemu)
    ids = [s for s in a.scenarios.split(",") if s]
    tag = hashlib.sha256((",".join(sorted(ids)) + "|" + a.reference).encode()).hexdigest()[:12]
    out_dir = a.out or os.path.join(os.environ.get("PINTA_NPM_CACHE",
                                                   os.path.expanduser("~/.cache/pinta-gemini")),
                                    "bisect", tag)
    os.makedirs(out_dir, exist_ok=True)
    vs = vb.stable_versions("gemini-bisect", "@google/gemini-cli", lo, hi)

    with tempfile.TemporaryDirectory(prefix="gemini-bisect.") as scen_dir:
        files = sorted(os.listdir(SESSIONS))
        for sid in ids:
            hit = [f for f in files if f.startswith(sid + "-") or f == sid + ".json"]
            if len(hit) != 1:
                die("scenario %s: %s" % (sid, "not found" if not hit else "ambiguous"))
            os.symlink(os.path.join(SESSIONS, hit[0]), os.path.join(scen_dir, hit[0]))
        prober = Prober(a, scen_dir, out_dir)
        probed = vb.search(prober, vs, a.sweep)
    return vb.report(prober, vs, probed)


if __name__ == "__main__":
    sys.exit(main())
