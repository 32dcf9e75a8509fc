#!/usr/bin/env python3
"""Keeps docs/hosts/copilot-1.0.md tied to its evidence.

The measured tables ("Measured on 1.0.102") are the real-CLI lane's, written by hand: each row a
fact of Copilot CLI 1.0.102 and, in its last column, the scenarios that show it. This script
generates three parts of the document and checks the rest:
  * the per-event reply table, from the family descriptor
    (hosts/copilot/include/pinta/hosts/copilot/family.h, kReplies: what our adapter answers on
    each event and why, with the descriptor's own evidence);
  * the conformance index: the family's own cases (conformance/cases/copilot/) with the zoo
    members (conformance/zoo/copilot_*.sh) whose flaw each one catches;
  * the release classes, from emulator/hosts/copilot/tools/releases.json (written by
    `ci/copilot-bisect.py … --record`): each release probed or assumed, its class and profile, and
    what changes at each boundary;
  * the scenario index, from emulator/hosts/copilot/test/scenarios/*.json (the scenarios the
    real-CLI lane runs on the real 1.0.102 binary), each with what the real CLI showed and the
    sections that cite it;
and checks that
  * every table row names its evidence: a scenario, CP, CPDOC, CPLOG, CPM, a fixture path, a
    conformance case, an exploratory run or an explicit "not measured";
  * every scenario the document cites (a `name`, or a `prefix-*` pattern) exists, and every
    scenario is cited at least once (no behaviour recorded but undocumented);
  * every conformance case the document cites (COPILOT-NNNN, GUARD-NNNN, …) exists;
  * every repository path the document names exists.

  gen_doc.py            rewrite the generated parts of the document
  gen_doc.py --check    exit 1 (one line per problem) when a generated part is stale or a check
                        fails
"""
import argparse, fnmatch, json, os, re, sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "lanes"))
import host_doc  # noqa: E402  (emulator/lanes: the descriptor's replies, generated parts, the ending)
from host_doc import cell  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "../../../.."))
SCENARIOS = os.path.join(HERE, "../test/scenarios")
DESCRIPTOR = os.path.join(SRC, "hosts/copilot/include/pinta/hosts/copilot/family.h")
CASES = os.path.join(SRC, "conformance/cases")
OWN_CASES = os.path.join(CASES, "copilot")
ZOO = os.path.join(SRC, "conformance/zoo")
DOC = os.path.join(SRC, "docs/hosts/copilot-1.0.md")
SCENARIO_TOKEN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9*]+)+$")
CASE_ID = re.compile(r"\b([A-Z]+-\d{4})\b")
EVIDENCE = re.compile(r"`[a-z0-9]+(?:-[a-z0-9*]+)+`|\bCP(?:DOC|LOG|M)?\b|fixtures/|\b[A-Z]+-\d{4}\b|"
                      r"exploratory run|not measured")
TOOL = "emulator/hosts/copilot/tools/gen_doc.py"


def zoo_members():
    """name -> [case ids on its `# Catches:` line], for the family's zoo members."""
    out = {}
    for f in sorted(os.listdir(ZOO)):
        if f.startswith("copilot_") and f.endswith(".sh"):
            ids = []
            for line in open(os.path.join(ZOO, f), encoding="utf-8"):
                if line.startswith("# Catches:"):
                    ids += line[len("# Catches:"):].split()
            out[f[:-3]] = ids
    return out


def own_cases():
    """[(id, level, title)] of the family's own cases, by id."""
    out = []
    for d, _, files in os.walk(OWN_CASES):
        for f in files:
            if f.endswith(".case.json"):
                c = json.load(open(os.path.join(d, f), encoding="utf-8"))
                out.append((c["id"], c.get("level", "must"), c.get("title", "")))
    return sorted(out)


def cases_table():
    zoo = zoo_members()
    rows = ["| case | level | what it requires | zoo members it catches |", "|---|---|---|---|"]
    for cid, level, title in own_cases():
        by = ["`%s`" % n for n, ids in zoo.items() if cid in ids]
        rows.append("| %s | %s | %s | %s |" % (cid, level, cell(title), ", ".join(by) or "—"))
    if len(rows) == 2:
        rows.append("| — | — | no case yet in conformance/cases/copilot/ | — |")
    shared = [i for ids in zoo.values() for i in ids if not i.startswith("COPILOT-")]
    if shared:
        rows.append("")
        rows.append("Shared cases the same members break under Copilot: %s." %
                    ", ".join(sorted(set(shared))))
    return "\n".join(rows)


def clip(text, n=70):
    text = text.replace("\n", "\\n").replace("|", "\\|").replace("`", "'")
    return text if len(text) <= n else text[:n] + "…"


def showed(e):
    """What the real CLI showed in one recorded run (a scenario's `expected`), in a few words."""
    read = [r[1] for r in e.get("read", []) if isinstance(r, list) and len(r) > 1]
    denied = [r for r in read if r.startswith("Denied by preToolUse hook")]
    out = []
    if not e.get("events") and not e.get("marks"):
        out.append("no hook event recorded")
    if denied:
        out.append("the call did not run; the model read `%s`" % clip(denied[-1]))
    elif "ran" in e.get("files", []):  # the scripted bash call's side effect
        out.append("the call ran")
    elif "files" in e:
        out.append("no side effect")
    for n in e.get("notices", [])[:1]:
        out.append("notice `%s`" % clip(n, 60))
    if e.get("rc", 0):
        out.append("exit status %s" % e["rc"])
    return "; ".join(out) or "—"


def load_scenarios():
    """name -> (what it asks, what the real CLI showed)."""
    out = {}
    if os.path.isdir(SCENARIOS):
        for f in sorted(os.listdir(SCENARIOS)):
            if f.endswith(".json"):
                s = json.load(open(os.path.join(SCENARIOS, f), encoding="utf-8"))
                out[s.get("name", f[:-5])] = (s.get("evidence", ""), showed(s.get("expected", {})))
    return out


def strip_generated(text):
    return re.sub(r"<!-- ([\w-]+):begin -->.*?<!-- \1:end -->", "", text, flags=re.S)


def table_rows(text):
    """(section, cells) for every hand-written table row (generated parts skipped)."""
    section = ""
    for line in strip_generated(text).split("\n"):
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if len(cells) < 2 or cells[-1] in ("evidence", "scenario"):
            continue
        yield section, cells


def citations(text, scenarios):
    """(cites: [(section, pattern)], cases: [(section, id)], bare rows: [(section, rule)])."""
    cites, cases, bare = [], [], []
    for section, cells in table_rows(text):
        ev = cells[-1]
        if not EVIDENCE.search(ev):
            bare.append((section, cells[0]))
        cases += [(section, c) for c in CASE_ID.findall(ev)]
    section = ""
    for line in strip_generated(text).split("\n"):
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        for tok in re.findall(r"`([^`]+)`", line):
            # A scenario token: its name or a pattern over names (`c-matcher-*`); a backticked
            # option (`-p`) or value is no citation.
            if SCENARIO_TOKEN.match(tok) and ("*" in tok or tok in scenarios or
                                               re.match(r"^(?:c|p|src|mixed)-", tok)):
                cites.append((section, tok))
    return cites, cases, bare


def index_table(scenarios, cites):
    by = {}
    for section, pat in cites:
        for name in scenarios:
            if fnmatch.fnmatchcase(name, pat) and section not in by.setdefault(name, []):
                by[name].append(section)
    rows = ["| scenario | what it asks | what the real CLI showed (recorded) | cited under |",
            "|---|---|---|---|"]
    for name, (ask, seen) in scenarios.items():
        rows.append("| `%s` | %s | %s | %s |" % (name, cell(ask), seen, ", ".join(by.get(name, [])) or "—"))
    if not scenarios:
        rows.append("| — | no scenario yet in emulator/hosts/copilot/test/scenarios/ | — | — |")
    return "\n".join(rows)


RELEASES = os.path.join(HERE, "releases.json")


def releases_table():
    try:
        r = json.load(open(RELEASES, encoding="utf-8"))
    except OSError:
        return "(no probe recorded: run ci/copilot-bisect.py --cached --record)"
    rows = ["Probed %s against %s (`ci/copilot-bisect.py %s --record`, %s); assumed = between two "
            "probes of one class; ? = between probes of two classes, not probed yet; profile = "
            "`hostemu copilot profiles --version V` ((none): no profile covers it)."
            % (", ".join(x["version"] for x in r["rows"] if x["probed"]), r["pinned"], r["range"],
               r["date"]),
            "", "| release | class | probe | profile | lines that differ from %s |" % r["pinned"],
            "|---|---|---|---|---|"]
    for x in r["rows"]:
        d = x.get("differs_from_pinned")
        rows.append("| %s | %s | %s | %s | %s |" % (
            x["version"], x["class"], "probed" if x["probed"] else "assumed" if x["class"] != "?" else "-",
            x["profile"], "-" if d is None else (str(len(d)) if d else "none")))
    for b in r["boundaries"]:
        rows.append("")
        rows.append("Between %s and %s (class %s to %s, profile %s to %s): %s now as %s; %s new." % (
            b["after"], b["version"], b["from"], b["to"], b["profiles"][0], b["profiles"][1],
            ", ".join("`%s`" % f for f in b["vanish"]) or "nothing", r["pinned"],
            ", ".join("`%s`" % f for f in b["appear"]) or "nothing"))
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--doc", default=DOC)
    a = ap.parse_args()
    text = host_doc.read_doc(a.doc)
    if text is None:
        return 1
    problems = []
    scenarios = load_scenarios()
    cites, cases, bare = citations(text, scenarios)
    for section, rule in bare:
        problems.append("row under '%s' names no evidence (a scenario, CP, CPDOC, CPLOG, CPM, a "
                        "fixture, a case): %s" % (section, rule[:60]))
    cited = set()
    for section, pat in cites:
        hit = [n for n in scenarios if fnmatch.fnmatchcase(n, pat)]
        if not hit:
            problems.append("'%s' cites `%s`, which is no scenario in %s" %
                            (section, pat, os.path.relpath(SCENARIOS, SRC)))
        cited.update(hit)
    for name in scenarios:
        if name not in cited:
            problems.append("scenario `%s` is cited nowhere in the document" % name)
    known = host_doc.case_ids(CASES)
    for section, cid in cases + [("(anywhere)", c) for c in CASE_ID.findall(strip_generated(text))]:
        if cid not in known:
            problems.append("'%s' cites case %s, which does not exist" % (section, cid))
    # A path with a `*` names files by pattern (conformance/zoo/copilot_*.sh): one must exist.
    problems += host_doc.missing_paths(text, SRC, host_doc.PATTERNS)
    parts = {"scenario-index": index_table(scenarios, cites), "conformance-index": cases_table(),
             "releases": releases_table()}
    try:
        parts["replies"] = host_doc.replies_table(DESCRIPTOR, SRC, "the top-level deny line")
    except (OSError, ValueError) as e:
        problems.append("cannot read the descriptor's replies: %s" % e)
    new = host_doc.regenerate(text, parts, problems)
    return host_doc.finish(a.check, a.doc, text, new, problems, "copilot doc: ",
                           "a generated part is stale: run " + TOOL)


if __name__ == "__main__":
    sys.exit(main())
