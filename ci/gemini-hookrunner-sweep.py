#!/usr/bin/env python3
"""The Gemini CLI release sweep at hook level: `hostemu gemini run-hook` against each release's own
HookRunner, where npm publishes that release's @google/gemini-cli-core.

The session sweep (ci/drift.sh --all) compares sessions and telemetry, which never carry what a
single hook run returns (outputFormat, for one); this compares the run-hook object {success,
exitCode, outputFormat, output, error} of every case of emulator/hosts/gemini/test/cases/
hook_cases.json: for each release V, @google/gemini-cli-core@V is installed under its own npm prefix
($PINTA_NPM_CACHE/npm/gemini-core-V, default cache ~/.cache/pinta-gemini), the profile is the one
`hostemu gemini profiles --version V` maps V to, and the build's emulator_gemini_real_hook_test
runs with PINTA_GEMINI_CORE_PREFIX and PINTA_GEMINI_PROFILE set (the real side imports that
core's dist/src/hooks/hookRunner.js; the emulator runs under that profile).

  ci/gemini-hookrunner-sweep.py --build build             every published core release in the
                                                          profiled range (stable releases only)
  ci/gemini-hookrunner-sweep.py --build build 0.36.0 0.40.0   those releases
Releases without a published core (0.37.x, 0.38.x, 0.39.x, …) are listed as not published: their
hook runner is only in the CLI bundle (the profiles cite the bundle lines instead).
Exit: 0 every swept release agrees, 1 differences, 2 usage, 77 npm unavailable.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = "@google/gemini-cli-core"


def vkey(v):
    return tuple(int(x) for x in v.split("."))


def npm(*args, timeout=600):
    return subprocess.run(["npm", *args], capture_output=True, text=True, timeout=timeout)


def published():
    try:
        r = npm("view", CORE, "versions", "--json", timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return [v for v in json.loads(r.stdout) if re.fullmatch(r"\d+\.\d+\.\d+", v)], ""


def install(version):
    """The npm prefix holding @google/gemini-cli-core@version (installed once)."""
    cache = os.environ.get("PINTA_NPM_CACHE") or os.path.expanduser("~/.cache/pinta-gemini")
    prefix = os.path.join(cache, "npm", "gemini-core-" + version)
    marker = os.path.join(prefix, ".pinta-installed")
    if os.path.exists(marker):
        return prefix, ""
    os.makedirs(prefix, exist_ok=True)
    r = npm("install", "--prefix", prefix, "--no-audit", "--no-fund", "--ignore-scripts",
            f"{CORE}@{version}")
    if r.returncode != 0:
        return None, r.stderr.strip()[-400:]
    open(marker, "w").close()
    return prefix, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="the build directory (bin/hostemu, the test)")
    ap.add_argument("--out", help="write the per-release results here (JSON)")
    ap.add_argument("versions", nargs="*", help="releases (default: every published core release "
                                                "the profiles cover)")
    a = ap.parse_args()
    hostemu = os.path.join(a.build, "bin", "hostemu")
    test = os.path.join(a.build, "tests", "emulator_gemini_real_hook_test")  # pinta_add_test's
    for f in (hostemu, test):
        if not os.access(f, os.X_OK):
            print(f"gemini-hookrunner-sweep: {f} is not built", file=sys.stderr)
            return 2
    pub, err = published()
    if pub is None:
        print(f"[  SKIPPED ] npm registry unavailable: {err}")
        return 77
    versions = a.versions
    if not versions:
        versions = []
        for v in sorted(pub, key=vkey):
            r = subprocess.run([hostemu, "gemini", "profiles", "--version", v], capture_output=True,
                               text=True)
            if r.returncode == 0:
                versions.append(v)
    rows, bad = [], 0
    # As ctest runs the test: hostemu from PINTA_BIN_DIR, the cases from PINTA_SOURCE_DIR.
    env0 = dict(os.environ, PINTA_SOURCE_DIR=SRC, PINTA_BIN_DIR=os.path.abspath(os.path.dirname(hostemu)))
    for v in versions:
        prof = subprocess.run([hostemu, "gemini", "profiles", "--version", v], capture_output=True,
                              text=True)
        if prof.returncode != 0:
            rows.append({"version": v, "result": "outside the profiled range"})
            continue
        profile = prof.stdout.strip()
        if v not in pub:
            rows.append({"version": v, "profile": profile, "result": "core not published"})
            continue
        prefix, err = install(v)
        if not prefix:
            rows.append({"version": v, "profile": profile, "result": "install failed: " + err})
            bad += 1
            continue
        t0 = time.time()
        env = dict(env0, PINTA_GEMINI_CORE_PREFIX=prefix, PINTA_GEMINI_PROFILE=profile)
        r = subprocess.run([test], capture_output=True, text=True, env=env, timeout=1200)
        m = re.search(r"hook cases: (\d+), differing: (\d+)", r.stdout)
        cases, differing = (int(m.group(1)), int(m.group(2))) if m else (None, None)
        # ADD_FAILURE's text: "<file>:<line>: Failure", "Failed", then "[case] behaviour" and fields.
        diffs = re.findall(r"^\S*: Failure\n(?:Failed\n)?(\[[^\]]+\] .*(?:\n    .*)*)", r.stdout, re.M)
        row = {"version": v, "profile": profile, "cases": cases, "differing": differing,
               "seconds": round(time.time() - t0), "exit": r.returncode, "differences": diffs}
        if r.returncode != 0 or differing:
            bad += 1
            row["result"] = f"{differing} of {cases} differ" if m else "test failed: " + r.stdout[-600:]
        else:
            row["result"] = f"{cases} of {cases} agree"
        rows.append(row)
        print(f"{v:8} {profile:12} {row['result']} ({row['seconds']} s)", flush=True)
        for d in diffs:
            print("    " + d.replace("\n", "\n    "))
    for row in rows:
        if "cases" not in row:
            print(f"{row['version']:8} {row.get('profile', '-'):12} {row['result']}")
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
