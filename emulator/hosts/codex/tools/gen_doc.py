#!/usr/bin/env python3
"""Keeps docs/hosts/codex-0.171.md tied to its evidence.

The rule tables are written by hand (each row: a rule of Codex CLI 0.171.0 and, in its last
column, its evidence). This script generates two parts of the document and checks the rest:
  * the per-event reply table, from the family descriptor
    (hosts/codex/include/pinta/hosts/codex/family.h, kReplies: what our adapter answers on each
    event and why, with the descriptor's own evidence);
  * the scenario index, from emulator/hosts/codex/test/scenarios/*.json (the scenarios the
    real-CLI lane runs on the real 0.171.0 binary and on the emulator), each with what the real
    CLI showed and the sections that cite it;
  * the releases: the version profiles (hosts/codex/profiles/*.json, the rules each sets) and the
    bisection's measured table (emulator/hosts/codex/tools/versions.json, written by
    `ci/codex-bisect.py --record`): every boundary with what changed there, each release's class;
and checks that
  * every rule row names its evidence: a scenario, CX (shared/reference/real-hosts.md, measured),
    CXSRC (a file of openai/codex codex-rs/hooks/, named), a fixture path or a conformance case;
  * every scenario a rule cites (`name` after "scenario"/"scenarios") exists, and every scenario
    is cited by at least one rule (no behaviour proven but undocumented);
  * every conformance case a rule cites (CODEX-NNNN, GUARD-NNNN, …) exists;
  * every repository path the document names exists.

  gen_doc.py            rewrite the generated parts of the document
  gen_doc.py --check    exit 1 (one line per problem) when a generated part is stale or a check
                        fails
"""
import argparse, json, os, re, sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "lanes"))
import host_doc  # noqa: E402  (emulator/lanes: the descriptor's replies, generated parts, the ending)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "../../../.."))
SCENARIOS = os.path.join(HERE, "../test/scenarios")
DESCRIPTOR = os.path.join(SRC, "hosts/codex/include/pinta/hosts/codex/family.h")
CASES = os.path.join(SRC, "conformance/cases")
DOC = os.path.join(SRC, "docs/hosts/codex-0.171.md")
PROFILES = os.path.join(SRC, "hosts/codex/profiles")
VERSIONS = os.path.join(HERE, "versions.json")
EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
          "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop", "SessionEnd"]
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SCENARIO_CLAUSE = re.compile(r"scenarios?\s+((?:`[^`]+`(?:,\s*|\s+and\s+)?)+)")
CASE_ID = re.compile(r"\b([A-Z]+-\d{4})\b")
EVIDENCE = re.compile(r"\bCX\b|\bCXSRC\b|fixtures/|\bscenarios?\s+`|\b[A-Z]+-\d{4}\b")


def clip(text, n=70):
    text = text.replace("\n", "\\n").replace("|", "\\|").replace("`", "'")
    return text if len(text) <= n else text[:n] + "…"


def showed(e):
    """What the real CLI showed in one recorded run (a scenario's `expected`), in a few words."""
    if "files" not in e:  # the generated lane: one recorded run per session
        return "%d generated sessions, each hook's run recorded" % len(e)
    read = [r[1] for r in e.get("read", [])]
    blocked = [r for r in read if r.startswith(("Command blocked", "Tool call blocked"))]
    own = [r for r in read if not r.startswith(("Chunk ID", "Exit code", "Command blocked",
                                                "Tool call blocked"))]
    out = []
    if not e.get("events"):
        out.append("no hook ran")
    if blocked:
        out.append("the call did not run; the model read `%s`" % clip(blocked[-1]))
    if e.get("files"):
        out.append("the command ran" + ("" if e["files"] == ["ran"] else
                                        " (files: %s)" % ", ".join(e["files"])))
    if own:
        out.append("the model read `%s` as the result" % clip(own[0]))
    if not read and not e.get("requests"):
        out.append("no model request")
    elif not read and not blocked and not e.get("files"):
        out.append("%d model request(s)" % e.get("requests", 0))
    for t in e.get("told", [])[:1]:
        out.append("the model was told `%s`" % clip(t, 50))
    for n in e.get("notices", [])[:1]:
        out.append("warning `%s`" % clip(n, 60))
    if e.get("marks"):
        out.append("marks %s" % ", ".join("`%s`" % clip(m, 20) for m in e["marks"][:10]))
    return "; ".join(out) or "—"


def load_scenarios():
    """name -> (what it asks, what the real CLI showed)."""
    out = {}
    if not os.path.isdir(SCENARIOS):
        return out
    for f in sorted(os.listdir(SCENARIOS)):
        if f.endswith(".json"):
            s = json.load(open(os.path.join(SCENARIOS, f), encoding="utf-8"))
            out[s.get("name", f[:-5])] = (s.get("evidence", ""), showed(s.get("expected", {})))
    return out


def table_rows(text):
    """(section, cells) for every rule row of a hand-written table (generated parts skipped)."""
    section, skip = "", False
    for line in text.split("\n"):
        if line.startswith("<!-- ") and line.endswith(":begin -->"):
            skip = True
        elif line.startswith("<!-- ") and line.endswith(":end -->"):
            skip = False
        if skip:
            continue
        if line.startswith("## "):
            section = line[3:].strip()
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if len(cells) < 2 or cells[-1] == "evidence":
            continue
        yield section, cells


def citations(text):
    cites, cases, bare = [], [], []
    for section, cells in table_rows(text):
        ev = cells[-1]
        if not EVIDENCE.search(ev):
            bare.append((section, cells[0]))
        for clause in SCENARIO_CLAUSE.findall(ev):
            for tok in re.findall(r"`([^`]+)`", clause):
                if NAME.match(tok):
                    cites.append((section, tok))
        cases += [(section, c) for c in CASE_ID.findall(ev)]
    return cites, cases, bare


def index_table(scenarios, cites):
    by = {}
    for section, name in cites:
        by.setdefault(name, [])
        if section not in by[name]:
            by[name].append(section)
    rows = ["| scenario | what it asks | what the real CLI showed (recorded) | cited under |",
            "|---|---|---|---|"]
    for name, (ask, seen) in scenarios.items():
        rows.append("| `%s` | %s | %s | %s |" % (name, ask.replace("|", "\\|"), seen,
                                                 ", ".join(by.get(name, [])) or "—"))
    if not scenarios:
        rows.append("| — | no scenario yet in emulator/hosts/codex/test/scenarios/ | — | — |")
    return "\n".join(rows)


def vkey(v):
    return tuple(int(x) for x in v.split("."))


def versions_part(problems):
    """The profiles' rules and the bisection's table (see the module comment)."""
    profiles = []
    for f in sorted(os.listdir(PROFILES)) if os.path.isdir(PROFILES) else []:
        if f.endswith(".json"):
            profiles.append(json.load(open(os.path.join(PROFILES, f), encoding="utf-8")))
    profiles.sort(key=lambda p: vkey(p["applies_from"]))
    yes = lambda b: "yes" if b else "**no**"
    rows = ["| profile | releases | hooks run | events it does not fire | hook trust | updatedInput "
            "applied | start-up notices | a deny beside another PreToolUse hook |",
            "|---|---|---|---|---|---|---|---|"]
    for p in profiles:
        sw = p.get("switches", {})
        missing = [e for e in EVENTS if e not in sw.get("events", EVENTS)]
        graded = (" (graded as `%s`)" % p["graded_as"] if p.get("graded_as") else
                  "" if p.get("graded", True) else " (not graded)")
        race = "—" if not sw.get("hooks_run", True) else (
            "**may be lost**" if sw.get("deny_race", False) else "blocks")
        rows.append("| `%s`%s | %s .. %s%s | %s | %s | %s | %s | %s | %s |" % (
            p["name"], graded, p["applies_from"],
            p["applies_through"], ".x" if len(vkey(p["applies_through"])) == 2 else "",
            yes(sw.get("hooks_run", True)), ", ".join(missing) or "—",
            yes(sw.get("hook_trust", True)), yes(sw.get("updated_input", True)),
            yes(sw.get("startup_notices", True)), race))
    try:
        rec = json.load(open(VERSIONS, encoding="utf-8"))
    except (OSError, ValueError) as e:
        problems.append("cannot read the bisection record %s: %s" % (os.path.relpath(VERSIONS, SRC), e))
        return "\n".join(rows)
    out = rows + ["", "The bisection (`%s`, %s, releases %s, scenarios %s): each boundary and the "
                  "outcomes of the real release that stop (−) or start (+) differing from "
                  "0.171.0's recorded ones there, by scenario." % (rec["tool"], rec["date"], rec["range"],
                                                 ", ".join("`%s`" % x for x in rec["scenarios"])),
                  "", "| release | after | profiles | what changed |", "|---|---|---|---|"]
    moved = re.compile(r"^(\S+): real (.+?) moved")
    for b in rec["boundaries"]:
        # "<scenario>: real <aspect> moved" lines, grouped by aspect: which outcomes of which
        # scenarios start (−: a difference from 0.171.0 vanishes) or stop (+) matching 0.171.0.
        parts = []
        for mark, lines in (("−", b["vanish"]), ("+", b["appear"])):
            by = {}
            for l in lines:
                m = moved.match(l.strip())
                if m:
                    by.setdefault(m.group(2), []).append(m.group(1))
            for aspect, scs in sorted(by.items()):
                parts.append("%s %s differs in %s" % (mark, aspect, ", ".join("`%s`" % x for x in
                                                                            sorted(set(scs)))))
        out.append("| %s | %s | %s → %s | %s |" % (b["version"], b["after"], b["profiles"][0],
                                                  b["profiles"][1], "<br>".join(parts) or "—"))
    out += ["", "| class | releases | probed |", "|---|---|---|"]
    groups = []
    for r in rec["rows"]:
        if groups and groups[-1]["class"] == r["class"]:
            groups[-1]["rows"].append(r)
        else:
            groups.append({"class": r["class"], "rows": [r]})
    for g in groups:
        rs = g["rows"]
        out.append("| %s | %s .. %s (%d) | %s |" % (g["class"], rs[0]["version"], rs[-1]["version"],
                                                   len(rs), ", ".join(r["version"] for r in rs
                                                                      if r["probed"])))
    return "\n".join(out)


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
    cites, cases, bare = citations(text)
    for section, rule in bare:
        problems.append("rule under '%s' names no evidence (a scenario, CX, CXSRC, a fixture or a "
                        "case): %s" % (section, rule[:60]))
    for section, name in cites:
        if name not in scenarios:
            problems.append("rule under '%s' cites `%s`, which is not a scenario in %s" %
                            (section, name, os.path.relpath(SCENARIOS, SRC)))
    cited = {n for _, n in cites}
    for name in scenarios:
        if name not in cited:
            problems.append("scenario `%s` is cited by no rule" % name)
    known = host_doc.case_ids(CASES)
    for section, cid in cases:
        if cid not in known:
            problems.append("rule under '%s' cites case %s, which does not exist" % (section, cid))
    problems += host_doc.missing_paths(text, SRC)
    try:
        replies = host_doc.replies_table(DESCRIPTOR, SRC, "the deny line")
    except (OSError, ValueError) as e:
        problems.append("cannot read the descriptor's replies: %s" % e)
        replies = None
    parts = {"scenario-index": index_table(scenarios, cites), "versions": versions_part(problems)}
    if replies is not None:
        parts["replies"] = replies
    new = host_doc.regenerate(text, parts, problems)
    return host_doc.finish(a.check, a.doc, text, new, problems, "codex doc: ",
                           "a generated part is stale: run emulator/hosts/codex/tools/gen_doc.py")


if __name__ == "__main__":
    sys.exit(main())
