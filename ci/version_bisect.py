"""Bisection over a host's published npm releases, shared by the families' bisect scripts
(ci/<family>-bisect.py): which releases exist, the search, and the report.

A family script supplies a prober: `signature(version)` returns a frozenset of lines describing
what the release did on a fixed set of scenarios (the same lines for two releases = the same
behaviour there), and `profile(version)` the version profile its emulator maps the release to.
The search probes both ends of a range; a range whose ends share a signature is taken to hold no
change (its inner releases are "assumed"), otherwise its middle release is probed and both halves
are searched again, down to adjacent releases.
"""
import json
import os
import re
import subprocess
import sys


def key(v):
    return tuple(int(x) for x in v.split("-")[0].split("."))


def die(tag, msg, code=2):
    print("%s: %s" % (tag, msg), file=sys.stderr)
    sys.exit(code)


def stable_versions(tag, package, lo=None, hi=None):
    """The package's stable releases (x.y.z, no prerelease tag) in lo..hi, oldest first. Exit 77
    when the registry cannot be read (nothing to probe)."""
    try:
        out = subprocess.run(["npm", "view", package, "versions", "--json"],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        die(tag, "npm view failed: %s" % e, 77)
    if out.returncode != 0:
        die(tag, "npm view %s versions failed: %s" % (package, out.stderr.strip()[:200]), 77)
    vs = [v for v in json.loads(out.stdout) if re.fullmatch(r"\d+\.\d+\.\d+", v)]
    vs = sorted((v for v in vs if (lo is None or key(lo) <= key(v)) and
                 (hi is None or key(v) <= key(hi))), key=key)
    if not vs:
        die(tag, "no stable release of %s in %s..%s" % (package, lo, hi))
    return vs


def parse_range(tag, text):
    m = re.fullmatch(r"(\d+\.\d+\.\d+)\.\.(\d+\.\d+\.\d+)", text)
    if not m:
        die(tag, "range must be FROM..TO with exact versions, e.g. 0.124.0..0.171.0")
    return m.group(1), m.group(2)


def parse_open_range(tag, text):
    """FROM..TO, or FROM.. (hi None: to the newest release)."""
    if text.endswith(".."):
        parse_range(tag, text + text[:-2])
        return text[:-2], None
    return parse_range(tag, text)


def cache_dir(name):
    """A bisection's probe cache: $PINTA_NPM_CACHE (default ~/.cache/pinta-gemini)/<name>."""
    return os.path.join(os.environ.get("PINTA_NPM_CACHE", os.path.expanduser("~/.cache/pinta-gemini")),
                        name)


def search(prober, vs, sweep=False):
    """The indices of vs probed: every one with sweep, else the bisection's."""
    probed = set()

    def rec(lo, hi):
        a, b = prober.signature(vs[lo]), prober.signature(vs[hi])
        probed.update((lo, hi))
        if hi - lo <= 1 or a == b:
            return
        mid = (lo + hi) // 2
        rec(lo, mid)
        rec(mid, hi)

    if sweep:
        for i, v in enumerate(vs):
            prober.signature(v)
            probed.add(i)
    else:
        rec(0, len(vs) - 1)
    return probed


def classify(prober, vs, probed, unknown_between=False):
    """The search's result as data: rows [{version, class, probed, profile}] in release order (an
    assumed release takes the class of the probed one below it) and boundaries [{version, after,
    from, to, profiles: [before, after], vanish: [lines], appear: [lines]}]. unknown_between (a
    search that was interrupted, probed being the probes kept): a release between probes of two
    classes has class "?" (not known yet), and a boundary is after the last probe below it."""
    classes, rows, last = [], [], None
    name = lambda c: chr(ord("A") + c) if c < 26 else "C%d" % c
    for i, v in enumerate(vs):
        if i in probed:
            s = prober.signature(v)
            if s not in classes:
                classes.append(s)
            last = classes.index(s)
        rows.append({"version": v, "class": name(last), "probed": i in probed,
                     "profile": prober.profile(v)})
    if unknown_between:
        for i, r in enumerate(rows):
            above = [rows[j]["class"] for j in sorted(probed) if j > i]
            if not r["probed"] and above and above[0] != r["class"]:
                r["class"] = "?"
        rows_known = [r for r in rows if r["class"] != "?"]
        boundaries = []
        for p, r in zip(rows_known, rows_known[1:]):
            if p["class"] != r["class"]:
                before, after = prober.signature(p["version"]), prober.signature(r["version"])
                boundaries.append({"version": r["version"], "after": p["version"],
                                   "from": p["class"], "to": r["class"],
                                   "profiles": [p["profile"], r["profile"]],
                                   "vanish": sorted(before - after),
                                   "appear": sorted(after - before)})
        return rows, boundaries
    boundaries = []
    for i in range(1, len(vs)):
        if rows[i - 1]["class"] != rows[i]["class"]:
            before = prober.signature(vs[max(j for j in probed if j < i)])
            after = prober.signature(vs[i])
            boundaries.append({"version": vs[i], "after": vs[i - 1], "from": rows[i - 1]["class"],
                               "to": rows[i]["class"],
                               "profiles": [rows[i - 1]["profile"], rows[i]["profile"]],
                               "vanish": sorted(before - after), "appear": sorted(after - before)})
    return rows, boundaries


def report(prober, vs, probed, unknown_between=False):
    """Prints the release table, every boundary with the lines that appear and vanish there, and
    MISMATCH lines where a profile range spans a behaviour boundary. Returns 1 on a MISMATCH.
    unknown_between: as classify's (the table of an interrupted search)."""
    rows, boundaries = classify(prober, vs, probed, unknown_between)
    print("| version | class | probed | profile |")
    print("|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %s | %s |" % (r["version"], r["class"], "yes" if r["probed"] else
                                        "assumed" if r["class"] != "?" else "-", r["profile"]))
    print()
    status = 0
    at = {b["version"]: b for b in boundaries}
    for i in range(1, len(rows)):
        p, r = rows[i - 1], rows[i]
        b = at.get(r["version"])
        profile_change = p["profile"] != r["profile"]
        if b:
            print("boundary %s (after %s): class %s -> %s, profile %s -> %s" %
                  (r["version"], p["version"], b["from"], b["to"], p["profile"], r["profile"]))
            for l in b["vanish"]:
                print("  - " + l)
            for l in b["appear"]:
                print("  + " + l)
            if not profile_change:
                print("MISMATCH: behaviour changes at %s but %s and %s share profile %s" %
                      (r["version"], p["version"], r["version"], r["profile"]))
                status = 1
        elif profile_change:
            print("note: profile changes at %s (%s -> %s) with no change on these scenarios" %
                  (r["version"], p["profile"], r["profile"]))
    return status


def self_test_verdict(tag, problems):
    """A family script's --self-test ending: each problem, then ok or FAILED; the exit status."""
    for p in problems:
        print("%s self-test: %s" % (tag, p))
    print("%s self-test: %s" % (tag, "FAILED" if problems else "ok"))
    return 1 if problems else 0
