#!/usr/bin/env python3
"""The protocol profile on the third-party hook corpus (conformance/examples/third-party/).

usage: third_party.py check CONFORMANCE [--slice N] [--doc FILE] [--write-doc] [--only NAME]
       third_party.py grade CONFORMANCE OUT.json [--only NAME]

`grade` runs `conformance run --profile protocol --host H --config C` for every grade unit of
corpus.json (and `--matrix` for every hook whose expected data has a matrix), and writes what the
profile said: per registration (its JSON pointer in the config) the checks it failed, and the
matrix cells per printed hook row.

`check` first holds the recorded real runs (real/*.json) to expected.json: every corpus hook has
one per real host and call, each with the outcome expected.json's `real` states (`ran` or
`blocked`), and every expected matrix cell of a family the real-host lane ran agrees with that
host's benign call. It then grades the same way, in a temporary copy of the corpus (with
--slice N a fixed slice of at most N grade units, emulator/lanes/real_slice.py; all of them under
PINTA_REAL_HOST_FULL=1), and compares with expected.json (the verdicts each registration must get
on each host, derived from the host references, the hook's source and what the real host did:
real/*.json, recorded by third_party_real.py) and with the copy (a file the grading wrote there
is a difference too). A difference fails, unless it is listed in expected-failures.json with what
the profile gives today; a listed difference that is gone fails too (the entry is stale: remove
it). Every registration graded must be in expected.json and, in a full run, every expected one
graded. With --doc FILE, in a full run, the generated page (docs/third-party-hooks.md) must equal
FILE (--write-doc rewrites it instead).
"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "../.."))
CORPUS = os.path.join(SRC, "conformance/examples/third-party")
PASS = "PASS"
sys.path.insert(0, HERE)
from third_party_real import calls_of  # noqa: E402  (the calls the real-host lane makes)


def load(name):
    with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
        return json.load(f)


def verdict_of(fails):
    return ",".join(sorted(set(fails))) if fails else PASS


# The matrix as printed (conformance/src/protocol.cc render_matrix): a header line of host
# columns, one line per hook, columns aligned by spaces; the hook column may hold spaces, so each
# row is cut at the header's column starts.
def parse_matrix(text):
    lines = text.splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith("Cross-host matrix"))
    except StopIteration:
        return None
    head = lines[start + 1]
    cols = [(m.start(), m.group(0)) for m in re.finditer(r"\S+", head)]
    rows = {}
    for line in lines[start + 2:]:
        if not line.strip() or line.startswith("blocks:"):
            break
        cells = {}
        for k, (pos, name) in enumerate(cols[1:], 1):
            end = cols[k + 1][0] if k + 1 < len(cols) else None
            cells[name] = line[pos:end].strip()
        rows[line[:cols[1][0]].rstrip()] = cells
    return rows


def registration_key(title, seen):
    """A registration's key where the report gives no JSON pointer (the Claude Code reading): its
    event and matcher as the title shows them ("PreToolUse [Bash]"), numbered when repeated."""
    head = title.split(": ", 1)[0]
    seen[head] = seen.get(head, 0) + 1
    return head + ("" if seen[head] == 1 else " #%d" % seen[head])


def grade_unit(conf, entry, unit, matrix, work):
    d = os.path.join(work, "corpus", entry["name"])
    config = os.path.normpath(os.path.join(d, unit["config"]))
    rep = tempfile.mkdtemp(prefix="report-", dir=work)
    cmd = [conf, "run", "--profile", "protocol", "--host", unit["host"], "--config", config,
           "--report", rep] + (["--matrix"] if matrix else [])
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=600)
    out = {"entry": entry["name"], "host": unit["host"], "rc": p.returncode, "verdicts": {},
           "messages": {}}
    path = os.path.join(rep, "report.json")
    if not os.path.exists(path):
        out["error"] = (p.stdout + p.stderr).strip().splitlines()[-1:] or ["exit %d" % p.returncode]
        return out
    with open(path, encoding="utf-8") as f:
        rep_json = json.load(f)
    seen = {}
    for c in rep_json["cases"]:
        pointer = c["source"].partition("#")[2] or registration_key(c["title"], seen)
        h = c["hosts"][0]
        out["verdicts"][pointer] = verdict_of(h.get("failed_checks", []))
        out["messages"][pointer] = (h.get("failures") or [""])[0]
    if matrix:
        out["matrix"] = {hook_dir(row, d): cells for row, cells in (parse_matrix(p.stdout) or {}).items()}
    return out


def hook_dir(text, d):
    """A command as the matrix prints it, with the graded copy's folder (where a host variable
    such as ${CLAUDE_PLUGIN_ROOT} may have been resolved to) as `<hook dir>`, however much of it
    the matrix kept before its `~` cut."""
    i = text.find(os.path.dirname(os.path.dirname(d)))
    if i < 0:
        return text
    n = 0
    while i + n < len(text) and n < len(d) and text[i + n] == d[n]:
        n += 1
    return text[:i] + "<hook dir>" + text[i + n:] if n == len(d) else text[:i] + "<hook dir>~"


def grade(conf, only=None, jobs=2, cap=None):
    corpus, expected = load("corpus.json"), load("expected.json")
    units = []
    for e in corpus["hooks"]:
        if only and e["name"] != only:
            continue
        for k, u in enumerate(e["grade"]):
            units.append((e, u, k == 0 and bool(expected["matrix"].get(e["name"]))))
    if cap:
        sys.path.insert(0, os.path.join(SRC, "emulator/lanes"))
        import real_slice
        chosen = {s["name"] for s in real_slice.select(
            [{"name": "%s/%s" % (e["name"], u["host"])} for e, u, _ in units], cap=cap, lane="third_party_corpus")}
        units = [x for x in units if "%s/%s" % (x[0]["name"], x[1]["host"]) in chosen]
    # The profile runs hooks in a copy of the project it grades; it is given a copy of the corpus
    # too, so that anything it still writes into the project it grades (a logger's log) is
    # reported as a difference of its own ("tree"), never left in the source tree.
    with tempfile.TemporaryDirectory(prefix="pinta-third-party-") as work, \
            concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for name in sorted({e["name"] for e, _, _ in units}):
            shutil.copytree(os.path.join(CORPUS, name), os.path.join(work, "corpus", name), symlinks=True)
        results = list(ex.map(lambda a: grade_unit(conf, a[0], a[1], a[2], work), units))
        for r in results:
            r["wrote"] = []
        for name in sorted({e["name"] for e, _, _ in units}):
            copy = os.path.join(work, "corpus", name)
            for d, _, fs in os.walk(copy):
                for f in fs:
                    rel = os.path.relpath(os.path.join(d, f), copy)
                    orig = os.path.join(CORPUS, name, rel)
                    if not os.path.exists(orig) or open(orig, "rb").read() != open(os.path.join(d, f), "rb").read():
                        next(r for r in results if r["entry"] == name)["wrote"].append(rel)
        return results


def compare(results, only=None, partial=False):
    """Differences between the profile and expected.json: (kind, entry, host, key, want, got)."""
    expected = load("expected.json")
    diffs = []
    for r in results:
        name, host = r["entry"], r["host"]
        want = expected["verdicts"].get(name, {}).get(host, {})
        if "error" in r:
            diffs.append(("verdict", name, host, "(run)", "a report", "no report: " + r["error"][0]))
            continue
        for ptr, got in r["verdicts"].items():
            w = want.get(ptr)
            if w is None:
                diffs.append(("verdict", name, host, ptr, "(not in expected.json)", got))
            elif verdict_of(w["fail"]) != got:
                diffs.append(("verdict", name, host, ptr, verdict_of(w["fail"]), got))
        for ptr in set(want) - set(r["verdicts"]):
            diffs.append(("verdict", name, host, ptr, verdict_of(want[ptr]["fail"]), "(not graded)"))
        for rel in r.get("wrote", []):
            diffs.append(("tree", name, host, rel, "the project untouched", "written while grading"))
        if "matrix" in r:
            # Rows by position (a hook's gate registrations in order): the command as printed
            # changes with how the profile resolves host variables, the cells are the verdict.
            wm = list(expected["matrix"].get(name, {}).get("rows", {}).items())
            gm = list((r["matrix"] or {}).items())
            for k in range(max(len(wm), len(gm))):
                row = wm[k][0] if k < len(wm) else gm[k][0]
                wc = wm[k][1] if k < len(wm) else {}
                gc = gm[k][1] if k < len(gm) else {}
                # The recorded columns: a family registered after the recording (its column in
                # the profile's matrix, none in expected.json) is unrecorded, said, not a difference
                # (ci/check-families.py RECORDINGS).
                for h in sorted(set(gc) - set(wc) if wc else ()):
                    print("UNRECORDED  %s matrix %s: no expected cell for this host (record its runs)" % (name, h))
                for h in sorted(set(wc) if wc else set(gc)):
                    w, g = wc.get(h, "(no row)"), gc.get(h, "(no row)")
                    if w != g:
                        diffs.append(("matrix", name, h, row, w, g))
    graded = {(r["entry"], r["host"]) for r in results}
    for name, hosts in expected["verdicts"].items():
        if only and name != only or partial:
            continue
        for h in hosts:
            if (name, h) not in graded:
                diffs.append(("verdict", name, h, "(unit)", "graded", "not in corpus.json's grade list"))
    return diffs


# The family of a real host as the matrix names its column, and a matrix cell as a real outcome.
REAL_COLUMN = {"Gemini CLI": "gemini-", "Claude Code": "claude-code-", "Codex CLI": "codex-",
               "Copilot CLI": "copilot-", "deel-local-cli": "deel-"}
CELL = {"runs": "ran", "blocks": "blocked"}


def check_recorded(only=None):
    """The recorded real runs against expected.json: (problems, lines)."""
    corpus, expected = load("corpus.json"), load("expected.json")
    bad, n = 0, 0
    for e in corpus["hooks"]:
        name = e["name"]
        if only and name != only:
            continue
        path = os.path.join(CORPUS, "real", name + ".json")
        runs = json.load(open(path, encoding="utf-8"))["runs"] if os.path.exists(path) else []
        want = expected["real"].get(name, {})
        for host in e["real"]:
            for call in calls_of(e, host):
                w = want.get(host, {}).get(call["name"])
                got = [r for r in runs if r["host"].lower().startswith(host) and r["call"] == call["name"]]
                if len(got) != 1:
                    print("REAL  %s %s %s: %d recorded runs (third_party_real.py --record)" % (name, host, call["name"], len(got)))
                    bad += 1
                elif w is None:
                    print("REAL  %s %s %s: no expected outcome in expected.json `real`" % (name, host, call["name"]))
                    bad += 1
                elif got[0]["outcome"] != w:
                    print("REAL  %s %s %s: the real host %s the call, expected.json says %s" % (
                        name, host, call["name"], got[0]["outcome"], w))
                    bad += 1
                elif "probe" in e and got[0].get("probe_reached_model") is False:
                    print("REAL  %s %s %s: the hook's context (%r) never reached the model" % (
                        name, host, call["name"], e["probe"]))
                    bad += 1
                else:
                    n += 1
        # A hook's command may print as several rows (resolved where the host sets a variable it
        # names, as written where it does not): a `-` cell is not that host's reading; every other
        # cell of a real host's column agrees with its benign call, and at least one row reads it.
        rows = expected["matrix"].get(name, {}).get("rows", {})
        for r in runs if rows else []:
            if r["call"] != "benign":
                continue
            read = [(row, c, cells[c]) for row, cells in rows.items() for c in cells
                    for k, v in REAL_COLUMN.items() if r["host"].startswith(k) and c.startswith(v)]
            if read and all(cell == "-" for _, _, cell in read):
                print("REAL  %s matrix %s: no row reads the hook there, but the real host %s the benign call" % (
                    name, read[0][1], r["outcome"]))
                bad += 1
            for row, col, cell in read:
                if cell != "-" and CELL.get(cell) != r["outcome"]:
                    print("REAL  %s matrix %s %s: expected cell %s, but the real host %s the benign call" % (
                        name, row, col, cell, r["outcome"]))
                    bad += 1
    return bad, n


def check_against_xfail(diffs, results, only=None):
    """Prints each difference; counts those not listed (with what the profile gives) in
    expected-failures.json and the listed ones of a graded unit that no longer occur."""
    known = load("expected-failures.json")["disagreements"]
    key = lambda d: (d["kind"], d["entry"], d["host"], d["key"])
    graded = {(r["entry"], r["host"]) for r in results}
    with_matrix = {r["entry"] for r in results if "matrix" in r}
    listed = {key(d): d for d in known if (not only or d["entry"] == only) and
              ((d["entry"], d["host"]) in graded if d["kind"] != "matrix" else d["entry"] in with_matrix)}
    bad = 0
    seen = set()
    for kind, name, host, k, want, got in diffs:
        d = listed.get((kind, name, host, k))
        tag = "known" if d and d["got"] == got else "DIFF "
        if d and d["got"] == got:
            seen.add((kind, name, host, k))
        else:
            bad += 1
        print("%s %s %s %s %s: expected %s, got %s%s" % (tag, kind, name, host, k, want, got,
              "" if not d else " (listed: got %s; %s)" % (d["got"], d["why"])))
    for k, d in listed.items():
        if k not in seen:
            bad += 1
            print("STALE %s %s %s %s: listed in expected-failures.json as got %s, but the profile "
                  "now agrees or says something else: update the list" % (*k, d["got"]))
    return bad


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def provenance(name):
    out = {}
    with open(os.path.join(CORPUS, name, "PROVENANCE"), encoding="utf-8") as f:
        for line in f:
            k, _, v = line.partition(": ")
            out[k] = v.strip()
    return out


def recorded_runs(name):
    path = os.path.join(CORPUS, "real", name + ".json")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return json.load(f)["runs"]


def render_doc(results):
    """docs/third-party-hooks.md: the matrix, the verdicts, the open disagreements, the real runs
    and the sources, from the corpus data and a full grading run."""
    corpus, expected = load("corpus.json"), load("expected.json")
    known = load("expected-failures.json")["disagreements"]
    by = {(r["entry"], r["host"]): r for r in results}
    L = ["# Third-party hooks across hosts", "",
         "<!-- Generated by conformance/test/third_party.py from conformance/examples/third-party/ "
         "and `conformance run --profile protocol`; the test third_party_corpus fails when it is stale. -->",
         "",
         "%d real hooks as their authors publish them (conformance/examples/third-party/, each with its "
         "licence and PROVENANCE: Gemini CLI extensions and settings, Claude Code plugins, Copilot CLI hook "
         "files), graded by `conformance run --profile protocol` on every host that loads them, beside what "
         "the real hosts did with them: Gemini CLI 0.61.0, Claude Code 2.1.332, Codex CLI 0.171.0 and "
         "Copilot CLI 1.0.102 offline against scripted models, deel-local-cli 1.17.1 through its own hook "
         "runner (conformance/test/third_party_real.py). *Expected* is the verdict derived from the host "
         "references, the hook's source and the real run (expected.json)." % len(corpus["hooks"]), ""]
    # The matrix: every gate-event row of every hook, with the real outcomes beside the profile's cell.
    rows = []
    for e in corpus["hooks"]:
        m = next((by[(e["name"], u["host"])].get("matrix") for u in e["grade"][:1] if (e["name"], u["host"]) in by), None)
        for row, cells in (m or {}).items():
            rows.append((e, row, cells))
    if rows:
        hosts = list(rows[0][2].keys())
        L += ["## The cross-host matrix", "",
              "For each hook on a gate event, per host family: what the profile says happens to the tool "
              "call after the hook's reply to its sample call (`blocks`, `runs`, `asks`; `-` the host does "
              "not load it there, `?` not read), and in brackets what the real host did with the benign and, "
              "for guards, the hostile call.", "",
              "| hook | command | " + " | ".join(hosts) + " |", "|---|---" + "|---" * len(hosts) + "|"]
        for e, row, cells in rows:
            runs = recorded_runs(e["name"])
            out = []
            for h in hosts:
                real = [r for r in runs if any(r["host"].startswith(k) and h.startswith(v) for k, v in REAL_COLUMN.items())]
                tag = " / ".join("%s %s" % (r["call"], r["outcome"]) for r in sorted(real, key=lambda r: (r["call"].endswith("+env"), r["call"])))
                out.append(cells.get(h, "") + (" (real: %s)" % tag if tag else ""))
            L.append("| %s | `%s` | %s |" % (e["name"], cell(row), " | ".join(out)))
        L.append("")
    L += ["## Verdicts", "",
          "A verdict lists the protocol checks (PROTO-1..6) a registration fails; PASS: none.", "",
          "| hook | host | registration | profile | expected | why |", "|---|---|---|---|---|---|"]
    for e in corpus["hooks"]:
        for u in e["grade"]:
            r = by.get((e["name"], u["host"]), {})
            for ptr, w in sorted(expected["verdicts"].get(e["name"], {}).get(u["host"], {}).items()):
                got = r.get("verdicts", {}).get(ptr, "(not graded)")
                L.append("| %s | %s | `%s` | %s | %s | %s |" % (e["name"], u["host"], ptr, got,
                                                              verdict_of(w["fail"]), cell(w["why"])))
    L.append("")
    if known:
        groups = {}
        for d in known:
            groups.setdefault(d["why"], []).append(d)
        L += ["## Open disagreements", "",
              "Where the profile differs from the expected verdict today (%d, listed in "
              "conformance/examples/third-party/expected-failures.json; each is removed as the profile "
              "is fixed):" % len(known), ""]
        for why, ds in groups.items():
            L.append("- %s: %s (%d)" % (cell(why), ", ".join(sorted({"%s on %s" % (d["entry"], d["host"]) for d in ds})), len(ds)))
        L.append("")
    L += ["## Real runs", "", "| hook | host | installed as | call | outcome | what the model read |", "|---|---|---|---|---|---|"]
    for e in corpus["hooks"]:
        for r in recorded_runs(e["name"]):
            L.append("| %s | %s | %s | %s `%s` | %s | %s |" % (e["name"], r["host"], r["installed_as"], r["call"],
                     cell(r["tool"]), r["outcome"], cell(r["model_read"][:110])))
    L += ["", "## Sources", "", "| hook | form | repository | commit | licence |", "|---|---|---|---|---|"]
    for e in corpus["hooks"]:
        pv = provenance(e["name"])
        L.append("| %s | %s | %s | `%s` | %s |" % (e["name"], e["form"], pv.get("repository", ""),
                                                   pv.get("commit", "")[:12], pv.get("licence", "").split(" (")[0]))
    return "\n".join(L).rstrip() + "\n"


def main(argv):
    if len(argv) < 3 or argv[1] not in ("check", "grade"):
        raise SystemExit(__doc__)
    conf = argv[2]
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    cap = int(argv[argv.index("--slice") + 1]) if "--slice" in argv else None
    if argv[1] == "check":
        rbad, rn = check_recorded(only)
        print("third-party corpus: %d recorded real runs agree with expected.json, %d problems" % (rn, rbad))
    results = grade(conf, only, cap=cap)
    if argv[1] == "grade":
        with open(argv[3], "w") as f:
            json.dump(results, f, indent=1)
        return 0
    diffs = compare(results, only, partial=bool(cap))
    bad = check_against_xfail(diffs, results, only) + rbad
    n = sum(len(r["verdicts"]) for r in results)
    print("third-party corpus: %d registrations graded in %d runs; %d differ from expected.json, "
          "%d problems (a difference not listed in expected-failures.json, a stale entry there, "
          "or a recorded real run)" % (n, len(results), len(diffs), bad))
    total = sum(len(e["grade"]) for e in load("corpus.json")["hooks"])
    if "--doc" in argv and len(results) < total:
        print("docs/third-party-hooks.md: not checked (a slice of %d of %d grade units; "
              "PINTA_REAL_HOST_FULL=1 grades all and checks it)" % (len(results), total))
    elif "--doc" in argv:
        doc = argv[argv.index("--doc") + 1]
        text = render_doc(results)
        if "--write-doc" in argv:
            with open(doc, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            with open(doc, encoding="utf-8") as f:
                if f.read() != text:
                    print("%s is stale: regenerate it with conformance/test/third_party.py check "
                          "CONFORMANCE --doc %s --write-doc" % (doc, doc))
                    bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
