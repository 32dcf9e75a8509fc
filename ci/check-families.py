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
Second check, the cost of a new family: a tracked file outside the families' own files that
names EVERY registered family (folder, name or product name as a word) enumerates them, so a new
family has to be added to it. Those files must be the four that register a family (REGISTRATION)
or be listed in ENUMERATIONS with why; adding a family then touches at most len(REGISTRATION) +
len(ENUMERATIONS) existing files, and the check fails above MAX_TOUCHED. This reads docs, tests
and data too. A record of measured runs (RECORDS) is read only up to its first dated heading: its
dated entries name the families each run measured, which a new family does not edit; the text
before them (what is measured, how) must not list the families.

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
    # The doctor's guard probe is one synthetic call, a Gemini BeforeTool read_file: what the
    # guard is asked does not depend on which families are installed.
    "adapter/admin/src/doctor.cc": (2, "doctor: the guard probe's event is Gemini's"),
    # Replay: per-family fixture layout.
    "emulator/src/replay_cli.cc": (6, "replay: per-family fixture layout"),
    # The shared fuzzers' per-family branches: the adapter-input oracle's Gemini/Antigravity
    # replies, the campaign's generator and judge, the properties' link. (A family's own fuzzers
    # are in its fuzz/<folder>.cmake and fuzz/<prefix>_<entry>/.)
    "fuzz": (7, "adapter_input oracle, campaign generate/judge, properties link per family"),
    "fixtures": (1, "fixture capture tools per family"),
    "tools": (3, "conformance CLI: --host gemini@<version>"),
}

# The files a new family is added to by design (docs/architecture.md, "A host family").
REGISTRATION = ["hosts/include/pinta/hosts/families.def", "README.md", "docs/contract.md",
                "docs/architecture.md"]
# Adding a family touches at most this many existing files outside its own: the bound,
# the four of REGISTRATION.
MAX_TOUCHED = 4
# Other files that enumerate every family, with why; only ever shrinks.
ENUMERATIONS = {
    # (What the fixture layer knows of a family, and its fixtures' index, are in the family's own
    # fixtures/<folder>/family.json and MANIFEST.json: fixtures/README.md. Which hosts grade a
    # case is generated per family, docs/conformance-cases/<folder>.md.)
}
# Records of measured runs, read up to their first dated heading (`## … 2026-12-07 …`). The
# bench's rows come from the registry (ci/bench.sh loops over families.def and each family's
# fixtures), so a new family is measured without an edit; a run's figures are written under a
# dated heading of that run and name the families it measured. Past entries are never edited
# for a family, so a new family touches neither file; the standing text above the first dated
# heading is checked like any other file.
RECORDS = {
    "docs/benchmarks.md": "the current figures: dated runs below the method",
    "docs/benchmarks-history.md": "the log of bench runs, one dated entry per run, newest first",
}
# Recordings of what real hosts did with a fixed corpus (measured runs, like the records above):
# a family registered later is not added to them; its column is reported as unrecorded by the
# corpus test (conformance/test/third_party.py) until its real CLI's runs are recorded.
RECORDINGS = {
    "conformance/examples/third-party/expected.json": "expected verdicts and real runs per host",
    "docs/third-party-hooks.md": "generated from that recording by conformance/test/third_party.py",
}
DATED_HEADING = re.compile(r"^#+ .*\b\d{4}-\d{2}-\d{2}\b", re.M)

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


def family_words(fam, display):
    """A regex for the family as a word: its folder, name and product name (case-insensitive);
    `pinta-gemini`, `.gemini/` paths and `GEMINI_` variables are the product's, not the family's."""
    _, folder, name, _ = fam
    alts = {folder, name} | ({display} if display else set())
    body = "|".join(re.escape(a) for a in sorted(alts, key=len, reverse=True))
    # A host name such as `claude-code-2.1` or `deel-1.17` names the family too.
    return re.compile(rf"(?<![-\w./])(?:{body})(?![\w]|-[A-Za-z])", re.I)


def display_names(root):
    """Each family's product name from its descriptor (the third string after Family::k<Id>)."""
    out = {}
    for ident, folder, name, _ in read_families(root):
        path = os.path.join(root, "hosts", folder, "include", "pinta", "hosts", folder, "family.h")
        try:
            src = open(path, encoding="utf-8").read()
        except OSError:
            continue
        m = re.search(rf"Family::k{ident},\s*\"[^\"]*\",\s*\"([^\"]+)\"", src)
        if m:
            out[folder] = m.group(1)
    return out


def enumerations(root, records=None):
    """Tracked text files outside the families' own files that name every registered family (a
    record: in its text before the first dated heading), and the records that are not records."""
    recordings = RECORDINGS if records is None else {}  # the self-test's trees hold neither
    records = RECORDS if records is None else records
    fams = read_families(root)
    if len(fams) < 2:
        return [], []
    disp = display_names(root)
    words = [(f, family_words(f, disp.get(f[1]))) for f in fams]
    try:
        files = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True,
                               check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d not in ("build", ".git", "node_modules")]
            files += [os.path.relpath(os.path.join(dirpath, n), root) for n in names]
    out, bad_records = [], []
    for rel in sorted(records):
        if rel not in files:
            bad_records.append(f"{rel}: listed in RECORDS but not tracked: remove its line")
    for rel in sorted(recordings):
        if rel not in files:
            bad_records.append(f"{rel}: listed in RECORDINGS but not tracked: remove its line")
    for rel in files:
        if not rel or rel in recordings or any(owned(rel, f) for f in fams):
            continue
        try:
            text = open(os.path.join(root, rel), encoding="utf-8").read()
        except (OSError, UnicodeDecodeError):
            continue
        if rel in records:
            m = DATED_HEADING.search(text)
            if m is None:
                bad_records.append(f"{rel}: listed in RECORDS but has no dated heading: a record's "
                                   "figures sit under the dated heading of the run that measured them")
                continue
            text = text[:m.start()]
        if all(w.search(text) for _, w in words):
            out.append(rel)
    return sorted(out), bad_records


def judge_cost(found, enums=None):
    enums = ENUMERATIONS if enums is None else enums
    failures = []
    for rel in found:
        if rel not in REGISTRATION and rel not in enums:
            failures.append(f"{rel}: names every family, so a new family must be added to it; "
                            "derive it from the list (families.def) or list it in ENUMERATIONS")
    for rel in sorted(enums):
        if rel not in found:
            failures.append(f"{rel}: listed in ENUMERATIONS but no longer names every family: "
                            "remove its line so the count stays true")
    if len(REGISTRATION) + len(enums) > MAX_TOUCHED:
        failures.append(f"a new family touches {len(REGISTRATION) + len(enums)} existing files, "
                        f"more than {MAX_TOUCHED}: derive {', '.join(sorted(enums))} from the list")
    return failures


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
    with tempfile.TemporaryDirectory() as t:
        os.makedirs(os.path.join(t, os.path.dirname(DEF)))
        open(os.path.join(t, DEF), "w").write(
            'PINTA_FAMILY(Probe, probe, "probe")\nPINTA_FAMILY(Other, other, "other-cli")\n')
        os.makedirs(os.path.join(t, "docs"))
        open(os.path.join(t, "docs/hosts.md"), "w").write("Probe and other-cli and pinta-probe\n")
        open(os.path.join(t, "docs/one.md"), "w").write("only probe here\n")
        found, _ = enumerations(t, {})
        bad = judge_cost(found, {})
        if "docs/hosts.md" not in found or "docs/one.md" in found or len(bad) != 1:
            print(f"check-families self-test: a file listing every family was not caught: {found}",
                  file=sys.stderr)
            return 1
        if not judge_cost(["docs/hosts.md"], {"docs/hosts.md": "probe"}):
            print(f"check-families self-test: {len(REGISTRATION) + 1} touched files passed the "
                  f"bound of {MAX_TOUCHED}", file=sys.stderr)
            return 1
        # A record: the families named under a dated heading are a run's; above it they are a list.
        rec = "docs/runs.md"
        open(os.path.join(t, rec), "w").write(
            "# Runs\n\nWhat is measured.\n\n## 2026-12-07 — a run\n\nprobe 1.0x, other-cli 1.1x\n")
        found, bad_rec = enumerations(t, {rec: "probe"})
        if rec in found or bad_rec:
            print(f"check-families self-test: a dated record was taken for a list: {found} "
                  f"{bad_rec}", file=sys.stderr)
            return 1
        open(os.path.join(t, rec), "w").write(
            "# Runs\n\nToday for probe and other-cli.\n\n## 2026-12-07 — a run\n\nprobe\n")
        found, _ = enumerations(t, {rec: "probe"})
        open(os.path.join(t, "docs/undated.md"), "w").write("# Runs\n\nprobe\n")
        _, bad_rec = enumerations(t, {"docs/undated.md": "probe"})
        if rec not in found or len(bad_rec) != 1:
            print(f"check-families self-test: a record's standing list or a record without a "
                  f"dated heading passed: {found} {bad_rec}", file=sys.stderr)
            return 1
    print("check-families self-test: a family named in a central file fails the check, and so "
          "do a file that lists every family, a record that lists them above its dated runs, and "
          f"more than {MAX_TOUCHED} touched files")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) > 2:
        print("usage: ci/check-families.py [ROOT | --self-test]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else ROOT
    failures, per_key = judge(scan(root))
    found, bad_records = enumerations(root)
    failures += judge_cost(found) + bad_records
    for f in failures:
        print(f)
    if failures:
        print(f"check-families: {len(failures)} problem(s); a family belongs in its own folders "
              "and families.def (docs/architecture.md, 'A host family')")
        return 1
    debt = sum(per_key.values())
    print(f"check-families: no family named outside its files and the list; known debt "
          f"{debt} name(s) in {len(per_key)} place(s); a new family touches "
          f"{len(REGISTRATION) + len(ENUMERATIONS)} existing files ({len(REGISTRATION)} by design, "
          f"{len(ENUMERATIONS)} more{': ' if ENUMERATIONS else ''}"
          f"{', '.join(sorted(ENUMERATIONS))}; at most {MAX_TOUCHED}); {len(RECORDS)} record(s) of "
          f"measured runs name the families of their dated runs: {', '.join(sorted(RECORDS))}; "
          f"{len(RECORDINGS)} recording(s) of real hosts' runs: {', '.join(sorted(RECORDINGS))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
