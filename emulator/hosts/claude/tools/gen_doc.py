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

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "../../../.."))
SCENARIOS = os.path.join(HERE, "../test/scenarios")
DOC = os.path.join(SRC, "docs/hosts/claude-code-2.1.md")
BEGIN, END = "<!-- scenario-index:begin -->", "<!-- scenario-index:end -->"
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
PATH = re.compile(r"(?<![\w/.-])((?:fixtures|emulator|hosts|docs|ci|conformance|adapter)/[\w./-]*[\w/])")


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
    try:
        text = open(a.doc, encoding="utf-8").read()
    except OSError as e:
        print("gen_doc: cannot read %s: %s" % (a.doc, e.strerror), file=sys.stderr)
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
    for p in sorted(set(PATH.findall(text))):
        if not os.path.exists(os.path.join(SRC, p)):
            problems.append("the document names %s, which does not exist" % p)
    if BEGIN not in text or END not in text:
        problems.append("the document has no %s … %s section" % (BEGIN, END))
        new = text
    else:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        new = head + BEGIN + "\n" + index_table(scenarios, cites) + "\n" + END + tail
    if a.check:
        if new != text:
            problems.append("the scenario index is stale: run emulator/hosts/claude/tools/gen_doc.py")
        for p in problems:
            print("claude doc: " + p)
        return 1 if problems else 0
    for p in problems:
        print("claude doc: " + p, file=sys.stderr)
    if new != text:
        open(a.doc, "w", encoding="utf-8").write(new)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
