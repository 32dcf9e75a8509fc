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


def report(prober, vs, probed):
    """Prints the release table, every boundary with the lines that appear and vanish there, and
    MISMATCH lines where a profile range spans a behaviour boundary. Returns 1 on a MISMATCH."""
    classes, cls_of, last = [], {}, None
    for i, v in enumerate(vs):
        if i in probed:
            s = prober.signature(v)
            if s not in classes:
                classes.append(s)
            last = classes.index(s)
        cls_of[v] = last
    name = lambda c: chr(ord("A") + c) if c < 26 else "C%d" % c
    profiles = {v: prober.profile(v) for v in vs}
    print("| version | class | probed | profile |")
    print("|---|---|---|---|")
    for i, v in enumerate(vs):
        print("| %s | %s | %s | %s |" % (v, name(cls_of[v]), "yes" if i in probed else "assumed",
                                        profiles[v]))
    print()
    status = 0
    for i in range(1, len(vs)):
        p, v = vs[i - 1], vs[i]
        behaviour = cls_of[p] != cls_of[v]
        profile_change = profiles[p] != profiles[v]
        if behaviour:
            before = prober.signature(vs[max(j for j in probed if j < i)])
            after = prober.signature(v)
            print("boundary %s (after %s): class %s -> %s, profile %s -> %s" %
                  (v, p, name(cls_of[p]), name(cls_of[v]), profiles[p], profiles[v]))
            for l in sorted(before - after):
                print("  - " + l)
            for l in sorted(after - before):
                print("  + " + l)
        if behaviour and not profile_change:
            print("MISMATCH: behaviour changes at %s but %s and %s share profile %s" %
                  (v, p, v, profiles[v]))
            status = 1
        if profile_change and not behaviour:
            print("note: profile changes at %s (%s -> %s) with no change on these scenarios" %
                  (v, profiles[p], profiles[v]))
    return status
