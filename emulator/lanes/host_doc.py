"""emulator/lanes/host_doc.py — what the host documents' generators share.

A family's emulator/hosts/<folder>/tools/gen_doc.py keeps its docs/hosts/<host>.md tied to its
evidence: it regenerates marked parts (`<!-- name:begin -->` … `<!-- name:end -->`) and checks
the hand-written rest. This module holds the pieces that do not depend on the family: reading the
descriptor's reply table, the generated parts, the repository paths and case ids a document
names, and the --check / write ending.
"""
import glob
import os
import re
import sys

# A repository path as a document names it; PATTERNS: one with a `*` names files by pattern.
PATH = re.compile(r"(?<![\w/.-])((?:fixtures|emulator|hosts|docs|ci|conformance|adapter)/[\w./-]*[\w/])")
PATTERNS = re.compile(r"(?<![\w/.-])((?:fixtures|emulator|hosts|docs|ci|conformance|adapter)/[\w./*-]*[\w/*])")


def cell(text):
    """Text for one markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def cpp_strings(text):
    """The C++ string literals of `text` in order, adjacent ones joined (no escapes but \\" and \\\\)."""
    out, i, joined = [], 0, False
    while i < len(text):
        c = text[i]
        if c == '"':
            j, s = i + 1, []
            while text[j] != '"':
                if text[j] == "\\":
                    s.append(text[j + 1])
                    j += 2
                else:
                    s.append(text[j])
                    j += 1
            lit = "".join(s)
            if joined and out:
                out[-1] += lit
            else:
                out.append(lit)
            joined, i = True, j + 1
        elif c.isspace():
            i += 1
        else:
            joined = False
            i += 1
    return out


def brace_groups(text):
    """The contents of each top-level {…} of `text`, braces inside string literals ignored."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            if depth == 0:
                start = i + 1
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                out.append(text[start:i])
        i += 1
    return out


def descriptor_replies(descriptor, src):
    """[(event, gate, reply, evidence)] from the descriptor's kReplies, in its order."""
    text = re.sub(r"//[^\n]*", "", open(descriptor, encoding="utf-8").read())
    m = re.search(r"kReplies\[\]\s*=\s*\{(.*?)\n\};", text, re.S)
    if not m:
        raise ValueError("no kReplies table in %s" % os.path.relpath(descriptor, src))
    rows = []
    for row in brace_groups(m.group(1)):
        lits = cpp_strings(row)
        gate = re.search(r",\s*(true|false)\s*,", re.sub(r'"(?:\\.|[^"\\])*"', '""', row))
        if len(lits) != 3 or not gate:
            raise ValueError("unreadable kReplies row: %s" % row.strip()[:80])
        rows.append((lits[0], gate.group(1) == "true", lits[1], lits[2]))
    return rows


def replies_table(descriptor, src, deny):
    """The per-event reply table: what the adapter answers, `deny` naming the gate's deny."""
    rows = ["| event | our adapter answers | the guard decides | why (the descriptor's evidence) |",
            "|---|---|---|---|"]
    for event, gate, reply, ev in descriptor_replies(descriptor, src):
        answer = "`%s`" % reply if reply else "nothing, exit 0"
        if gate:
            answer += "; a guard DENY: %s, exit 0" % deny
        rows.append("| %s | %s | %s | %s |" % (event, answer, "yes" if gate else "no", cell(ev)))
    return "\n".join(rows)


def case_ids(cases):
    """Every conformance case id under the cases directory."""
    ids = set()
    for d, _, files in os.walk(cases):
        ids |= {f[: -len(".case.json")] for f in files if f.endswith(".case.json")}
    return ids


def missing_paths(text, src, pattern=PATH):
    """Problems for the repository paths the document names that do not exist (a pattern: none
    that matches)."""
    return ["the document names %s, which does not exist" % p
            for p in sorted(set(pattern.findall(text))) if not glob.glob(os.path.join(src, p))]


def regenerate(text, parts, problems):
    """`text` with each marked part's body replaced; a missing marker is a problem."""
    for name, body in parts.items():
        begin, end = "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name
        if begin not in text or end not in text:
            problems.append("the document has no %s … %s section" % (begin, end))
            continue
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + begin + "\n" + body + "\n" + end + tail
    return text


def read_doc(path):
    """The document's text, or None (said on stderr)."""
    try:
        return open(path, encoding="utf-8").read()
    except OSError as e:
        print("gen_doc: cannot read %s: %s" % (path, e.strerror), file=sys.stderr)
        return None


def finish(check, path, text, new, problems, prefix, stale):
    """--check: `stale` is a problem when the regenerated text differs, every problem printed on
    stdout; else the problems on stderr and the document rewritten. Exit status 1 on a problem."""
    if check:
        if new != text:
            problems.append(stale)
        for p in problems:
            print(prefix + p)
        return 1 if problems else 0
    for p in problems:
        print(prefix + p, file=sys.stderr)
    if new != text:
        open(path, "w", encoding="utf-8").write(new)
    return 1 if problems else 0
