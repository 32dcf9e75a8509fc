#!/usr/bin/env python3
"""ci/check-families.py — a host family is named once (docs/architecture.md, "A host family").

Reads the one list (hosts/include/pinta/hosts/families.def) and fails when production code names
a family outside the family's own files: its enumerator (`Family::k<Id>`, through any alias such as `Host::k<Id>`), its code namespaces
(`hosts::<ns>`, `emu::<ns>`, learnt from the family's own headers), its include folders
(`pinta/hosts/<folder>/`, `pinta/emulator/<folder>/`) or its CMake targets
(`pinta::hosts_<folder>`, `pinta::emulator_<folder>`, `hosts/<folder>/`), and its name or folder
as a string literal ("gemini", "claude-code").

A family's own files: any path with a folder or file stem that is one of the family's names (its
folder or a code namespace), alone, as `<name>_…` or as `…_<name>` (hosts/gemini/…,
lint_gemini.cc, protocol/gemini.cc, fuzz/agy_reply/).

Not checked: tests (a test names the family whose behaviour it checks; tests that must cover
every family loop over the registry), docs, case data and fixtures' data. Comments are stripped
before matching (evidence citations name hosts).

KNOWN_DEBT lists the files that still name families, each with the number of names allowed and
why: the count may only go down (a new name in a listed file fails, as does a new file). Run with
--self-test to prove the check can fail.
Exit 0: clean; 1: a family named outside its files; 2: usage or an unreadable list.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEF = "hosts/include/pinta/hosts/families.def"

# Production files that still name families, with how many names and why. The numbers only go
# down; removing the last name of a file means removing its line.
KNOWN_DEBT = {
    # The layering check's own self-tests plant a family's header and library where they are
    # forbidden (ci/check-layers.py --inject): test definitions, not product code.
    "CMakeLists.txt": (4, "ci/check-layers.py self-tests plant a family's header and library"),
    # Hook-file detection by path and by shape: each family's paths and root shapes are still
    # rules in one function (detect_host), not fields of its entry.
    "hosts/lint/src/lint.cc": (14, "detect_host: hook-file paths and shapes per family"),
    # ExplainRequest defaults its host to the first family; every caller sets it (--host is
    # required), the default is never read.
    "hosts/lint/include/pinta/hostlint/lint.h": (1, "ExplainRequest::host default"),
    # The doctor's guard probe is one synthetic call, a Gemini BeforeTool read_file: what the
    # guard is asked does not depend on which families are installed.
    "adapter/admin/src/doctor.cc": (2, "doctor: the guard probe's event is Gemini's"),
    # Replay and the Gemini session lane: per-family fixture layout and the lane's Gemini runs.
    "emulator/src/replay_cli.cc": (6, "replay: per-family fixture layout"),
    "emulator/session_lane/src/session_lane.cc": (1, "the session lane drives hostemu gemini session"),
    # Fuzzers, fixture tools and the conformance runner: per-family targets and case selection.
    "fuzz": (19, "fuzzers and campaign generators per family"),
    "fixtures": (1, "fixture capture tools per family"),
    "conformance/src": (2, "conformance: the cases docs name two families' profile folders"),
    "tools": (3, "conformance CLI: --host gemini@<version>"),
}

SCOPE = ["common", "hosts", "adapter", "emulator", "conformance/src", "conformance/include",
         "tools", "fuzz", "fixtures", "CMakeLists.txt", "cmake"]
EXTS = (".cc", ".h", ".c", ".cpp", ".txt", ".cmake", ".inc")


def read_families(root):
    path = os.path.join(root, DEF)
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        print(f"check-families: cannot read {DEF}: {e}", file=sys.stderr)
        sys.exit(2)
    fams = re.findall(r'^PINTA_FAMILY\((\w+),\s*(\w+),\s*"([^"]+)"\)', text, re.M)
    if not fams:
        print(f"check-families: {DEF} lists no family", file=sys.stderr)
        sys.exit(2)
    out = []
    for ident, folder, name in fams:
        spaces = {folder}
        inc = os.path.join(root, "hosts", folder, "include", "pinta", "hosts", folder)
        for dirpath, _, files in os.walk(inc):
            for f in files:
                src = open(os.path.join(dirpath, f), encoding="utf-8", errors="replace").read()
                spaces.update(re.findall(r"namespace pinta::(?:hosts|emu)::(\w+)", src))
        out.append((ident, folder, name, sorted(spaces)))
    return out


def owned(rel, fam):
    """A family's own file: a folder or a file stem that is one of its names (its folder or a code
    namespace), alone or as a `<name>_` prefix or `_<name>` suffix."""
    _, folder, _, spaces = fam
    names = set(spaces) | {folder}
    parts = rel.split("/")
    for i, part in enumerate(parts):
        stem = os.path.splitext(part)[0] if i == len(parts) - 1 else part
        for n in names:
            if stem == n or stem.startswith(n + "_") or stem.endswith("_" + n):
                return True
    return False


def is_test(rel):
    parts = rel.split("/")
    base = parts[-1]
    return ("test" in parts or base.endswith("_test.cc") or "_test_" in base or
            base.startswith("test_"))


def strip_comments(text, cmake):
    if cmake:
        return re.sub(r"#[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def patterns(fam):
    ident, folder, name, spaces = fam
    pats = [rf"::k{ident}\b", rf'"{re.escape(name)}"', rf'"{folder}"',
            rf"pinta/(?:hosts|emulator)/{folder}/",
            rf"\bpinta::(?:hosts|emulator)_{folder}\b", rf"\bhosts/{folder}/"]
    for ns in spaces:
        pats.append(rf"\b(?:hosts|emu)::{ns}\b")
    return [re.compile(p) for p in pats]


def scan(root):
    fams = read_families(root)
    pats = [(f, patterns(f)) for f in fams]
    hits = {}  # rel -> [(line, family, text)]
    for top in SCOPE:
        base = os.path.join(root, top)
        files = [base] if os.path.isfile(base) else []
        for dirpath, dirs, names in os.walk(base):
            dirs[:] = [d for d in dirs if d not in ("build", ".git", "node_modules")]
            files += [os.path.join(dirpath, n) for n in names]
        for path in files:
            rel = os.path.relpath(path, root)
            if not rel.endswith(EXTS) or is_test(rel) or rel == DEF:
                continue
            text = open(path, encoding="utf-8", errors="replace").read()
            code = strip_comments(text, rel.endswith((".txt", ".cmake")))
            for fam, ps in pats:
                if owned(rel, fam):
                    continue
                for i, line in enumerate(code.split("\n"), 1):
                    for p in ps:
                        if p.search(line):
                            hits.setdefault(rel, []).append((i, fam[2], line.strip()))
                            break
    return hits


def debt_key(rel, debt):
    for k in debt:
        if rel == k or rel.startswith(k + "/"):
            return k
    return None


def judge(hits, debt=None):
    debt = KNOWN_DEBT if debt is None else debt
    per_key = {}
    failures = []
    for rel, hs in sorted(hits.items()):
        k = debt_key(rel, debt)
        if k is None:
            for line, fam, text in hs:
                failures.append(f"{rel}:{line}: names family {fam} outside its files: {text}")
            continue
        per_key[k] = per_key.get(k, 0) + len(hs)
    for k, (allowed, why) in sorted(debt.items()):
        n = per_key.get(k, 0)
        if n > allowed:
            failures.append(f"{k}: {n} family names, more than the {allowed} allowed ({why})")
        elif n < allowed:
            failures.append(f"{k}: {n} family names, fewer than the {allowed} listed: lower its "
                            "KNOWN_DEBT count (or remove its line at 0) so the list stays true")
    return failures, per_key


def self_test():
    """A copy of the list and one planted name in a central file must fail."""
    with tempfile.TemporaryDirectory() as t:
        os.makedirs(os.path.join(t, os.path.dirname(DEF)))
        open(os.path.join(t, DEF), "w").write('PINTA_FAMILY(Probe, probe, "probe")\n')
        os.makedirs(os.path.join(t, "adapter/src/core"))
        os.makedirs(os.path.join(t, "hosts/probe/src"))
        open(os.path.join(t, "hosts/probe/src/model.cc"), "w").write("auto f = Family::kProbe;\n")
        clean, _ = judge(scan(t), {})
        if clean:
            print("check-families self-test: the family's own file was flagged", file=sys.stderr)
            return 1
        open(os.path.join(t, "adapter/src/core/protocol.cc"), "w").write(
            "// Family::kProbe in a comment is evidence\nif (f == Family::kProbe) {}\n")
        bad, _ = judge(scan(t), {})
        if len(bad) != 1 or "protocol.cc:2" not in bad[0]:
            print(f"check-families self-test: a planted name was not caught: {bad}", file=sys.stderr)
            return 1
    print("check-families self-test: a family named in a central file fails the check")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) > 2:
        print("usage: ci/check-families.py [ROOT | --self-test]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else ROOT
    failures, per_key = judge(scan(root))
    for f in failures:
        print(f)
    if failures:
        print(f"check-families: {len(failures)} problem(s); a family belongs in its own folders "
              "and families.def (docs/architecture.md, 'A host family')")
        return 1
    debt = sum(per_key.values())
    print(f"check-families: no family named outside its files and the list; known debt "
          f"{debt} name(s) in {len(per_key)} place(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
