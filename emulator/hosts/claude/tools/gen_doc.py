#!/usr/bin/env python3
"""Keeps docs/hosts/claude-code-2.1.md tied to its evidence.

The rule tables are written by hand (each row: a rule of Claude Code 2.1.332 and its evidence);
this script generates the scenario index from emulator/hosts/claude/test/scenarios/*.json (the
scenarios claude_real_diff_test runs on the real CLI and on `hostemu claude run`) and checks that
  * every scenario a rule cites (a backticked name in a table's evidence column) exists,
  * every scenario is cited by at least one rule (no behaviour proven but undocumented),
  * every repository path the document names exists.

  gen_doc.py            rewrite the generated index in the document
  gen_doc.py --check    exit 1 (one line per problem) when the index is stale or a check fails
"""
import argparse, json, os, re, sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "lanes"))
import host_doc  # noqa: E402  (emulator/lanes: generated parts, paths, the --check ending)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "../../../.."))
SCENARIOS = os.path.join(HERE, "../test/scenarios")
DOC = os.path.join(SRC, "docs/hosts/claude-code-2.1.md")
BEGIN, END = "<!-- scenario-index:begin -->", "<!-- scenario-index:end -->"
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def load_scenarios():
    out = {}
    for f in sorted(os.listdir(SCENARIOS)):
        if f.endswith(".json"):
            s = json.load(open(os.path.join(SCENARIOS, f), encoding="utf-8"))
            out[s.get("name", f[:-5])] = s.get("evidence", "")
    return out


def rule_citations(text):
    """(section, scenario name) for every backticked name in the last column of a table row."""
    section, cites = "", []
    for line in text.split("\n"):
        if line.startswith(BEGIN):
            break
        if line.startswith("## "):
            section = line[3:].strip()
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or cells[-1] in ("evidence",):
            continue
        for tok in re.findall(r"`([^`]+)`", cells[-1]):
            if NAME.match(tok):
                cites.append((section, tok))
    return cites


def index_table(scenarios, cites):
    by = {}
    for section, name in cites:
        by.setdefault(name, [])
        if section not in by[name]:
            by[name].append(section)
    rows = ["| scenario | what the real CLI showed | cited under |", "|---|---|---|"]
    for name, ev in scenarios.items():
        rows.append("| `%s` | %s | %s |" % (name, ev.replace("|", "\\|"), ", ".join(by.get(name, [])) or "—"))
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--doc", default=DOC)
    a = ap.parse_args()
    text = host_doc.read_doc(a.doc)
    if text is None:
        return 1
    scenarios = load_scenarios()
    cites = rule_citations(text)
    problems = []
    for section, name in cites:
        if name not in scenarios:
            problems.append("rule under '%s' cites `%s`, which is not a scenario in %s" %
                            (section, name, os.path.relpath(SCENARIOS, SRC)))
    cited = {n for _, n in cites}
    for name in scenarios:
        if name not in cited:
            problems.append("scenario `%s` is cited by no rule" % name)
    problems += host_doc.missing_paths(text, SRC)
    new = host_doc.regenerate(text, {"scenario-index": index_table(scenarios, cites)}, problems)
    return host_doc.finish(a.check, a.doc, text, new, problems, "claude doc: ",
                           "the scenario index is stale: run emulator/hosts/claude/tools/gen_doc.py")


if __name__ == "__main__":
    sys.exit(main())
