#!/usr/bin/env python3
"""Checks the layering of docs/architecture.md mechanically.

  common <- hosts <- {adapter, emulator} <- conformance <- {campaign} <- tools

Every source file belongs to the layer of the longest FOLDERS prefix that matches its path. A
file may include a header of its own layer or of a lower one; never one of a higher layer or of a
sibling (adapter and emulator do not include each other). A quoted include of a bare name
("campaign.h") must name a file of the includer's own top-level folder: reaching another folder
takes the other library's include path (pinta/<lib>/<header>.h).

Every library (add_library in a CMakeLists.txt) belongs to the layer of its folder (or of
TARGET_LAYERS); a library may link only libraries of its own layer or lower. Executables and
tests are tools at the top and may link anything.

ALLOWED_INCLUDES / ALLOWED_LINKS list known upward edges (docs/architecture.md "Known
exceptions"); they are empty: every edge follows the layering. Anything not listed fails with one
line per violation.

Usage: check-layers.py [--root DIR] [--inject FILE=HEADER]... [--inject-link LIB=TARGET]...
  --inject / --inject-link add a pretend include or link, to show that the check catches one.
Exit status: 0 clean, 1 violations, 2 bad usage.
"""
import argparse
import os
import re
import sys

# Layer ranks: a higher rank may use a lower one; equal ranks with different names are siblings.
LAYERS = {
    "common": 0,
    "hosts": 1,
    "adapter": 2,
    "emulator": 2,
    "conformance": 3,
    "campaign": 4,
    "tool": 5,
}

# Path prefix -> layer; the longest matching prefix wins.
FOLDERS = {
    "common/": "common",  # Result, fs, process, data dir, version; common/fakes (test servers)
    "hosts/": "hosts",  # pinta::hosts: the registry (host list, events, effects, the reply check)
    "hosts/antigravity/": "hosts",  # pinta::hosts_antigravity: profiles, loader, matchers, planner
    "hosts/gemini/": "hosts",  # pinta::hosts_gemini: settings/extension loader, planner, JS helpers
    "hosts/deel/": "hosts",  # pinta::hosts_deel: hooks.json loader, matchers, hook selection
    "hosts/lint/": "hosts",  # pinta::hostlint: the hook-file lint over the three loaders
    "adapter/": "adapter",  # pinta-gemini libraries, tests; adapter/admin (install/doctor)
    "emulator/": "emulator",  # host emulators, host_runner, model server, hostemu sources
    "conformance/": "conformance",  # pinta::conformance runner library, its tests
    "fuzz/campaign/": "campaign",  # pinta::fuzz_campaign
    "fuzz/common/": "campaign",  # fuzz support headers (host table) the campaign shares
    "fuzz/": "tool",  # fuzz harnesses and properties: test programs
    "fixtures/": "tool",  # fixture tests and replay tests: test programs
    "tools/": "tool",  # executables at the top: the `conformance` CLI (links the campaign)
    "ci/": "tool",  # programs the CI scripts compile (ci/loopback-guard.c: the bench's own guard)
}

# Libraries whose layer is not that of the folder of their CMakeLists.txt.
TARGET_LAYERS = {
    "pinta_fuzz_support": "campaign",  # fuzz/CMakeLists.txt; its include dir is fuzz/common
}

# Known upward edges, each documented in docs/architecture.md "Known exceptions":
# (includer prefix, included prefix) and (library, library). None remain.
ALLOWED_INCLUDES = []
ALLOWED_LINKS = []

SOURCE_EXT = (".h", ".hpp", ".cc", ".cpp", ".c")
SKIP_DIRS = {"build", ".git", "node_modules"}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def layer_of(path):
    best = None
    for prefix, layer in FOLDERS.items():
        if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, layer)
    return best[1] if best else None


def may_use(user, used):
    if user == used:
        return True
    return LAYERS[used] < LAYERS[user]


def is_build_tree(path):
    # Any CMake build directory inside the checkout (build/, build-fuzz/, build/<preset>/ …):
    # generated files belong to no layer.
    return os.path.exists(os.path.join(path, "CMakeCache.txt"))


def walk(root):
    for top in sorted(os.listdir(root)):
        path = os.path.join(root, top)
        if (top in SKIP_DIRS or top.startswith(".") or not os.path.isdir(path)
                or is_build_tree(path)):
            continue
        for d, dirs, files in os.walk(path):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith(".")
                             and not is_build_tree(os.path.join(d, x)))
            for f in sorted(files):
                yield os.path.relpath(os.path.join(d, f), root)


def check_includes(root, files, injected):
    headers = {}  # "pinta/x/y.h" -> repo path, from every .../include/ directory
    by_name = {}  # basename -> [repo paths]
    for p in files:
        if not p.endswith(SOURCE_EXT):
            continue
        by_name.setdefault(os.path.basename(p), []).append(p)
        parts = p.split("/")
        if "include" in parts:
            i = len(parts) - 1 - parts[::-1].index("include")
            headers["/".join(parts[i + 1:])] = p
    problems = []
    for p in files:
        if not p.endswith(SOURCE_EXT):
            continue
        if layer_of(p) is None:
            problems.append(f"{p}: in no layer (add its folder to FOLDERS)")
            continue
        try:
            with open(os.path.join(root, p), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            problems.append(f"{p}: cannot read: {e.strerror}")
            continue
        incs = [(m.group(1), m.group(2)) for m in INCLUDE_RE.finditer(text)]
        incs += [('"', h) for h in injected.get(p, [])]
        user = layer_of(p)
        for kind, inc in incs:
            target = None
            local = os.path.normpath(os.path.join(os.path.dirname(p), inc))
            if kind == '"' and os.path.isfile(os.path.join(root, local)):
                target = local
            elif inc in headers:
                target = headers[inc]
            elif kind == '"' and "/" not in inc and inc in by_name:
                # A bare name found only through some include directory: same top folder only.
                top = p.split("/")[0]
                mine = [t for t in by_name[inc] if t.split("/")[0] == top]
                if not mine:
                    problems.append(
                        f"{p}: includes \"{inc}\" by bare name from another folder "
                        f"({by_name[inc][0]}); use its library's include path")
                    continue
                target = mine[0]
            if target is None:
                continue  # a system or third-party header
            used = layer_of(target)
            if used is None or may_use(user, used):
                continue
            if any(p.startswith(a) and target.startswith(b) for a, b in ALLOWED_INCLUDES):
                continue
            problems.append(f"{p}: includes {inc} ({target}): layer {user} may not use layer {used}")
    return problems


def strip_comments(text):
    return "\n".join(re.sub(r"(^|\s)#.*$", r"\1", line) for line in text.splitlines())


def calls(text, name):
    """Argument strings of every call of the CMake command `name` (no nested-paren commands)."""
    out = []
    for m in re.finditer(r"\b" + name + r"\s*\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        out.append(text[m.end():i - 1])
    return out


def family_folders(root):
    """The family folders of hosts/include/pinta/hosts/families.def (the one list)."""
    path = os.path.join(root, "hosts/include/pinta/hosts/families.def")
    with open(path, encoding="utf-8") as f:
        return re.findall(r"^PINTA_FAMILY\(\w+,\s*(\w+),", f.read(), re.M)


def check_links(root, files, injected_links):
    libs = {}  # target -> layer
    alias = {}
    links = []  # (library, linked word)
    for p in files:
        if os.path.basename(p) != "CMakeLists.txt":
            continue
        folder = os.path.dirname(p) + "/"
        with open(os.path.join(root, p), encoding="utf-8") as f:
            text = strip_comments(f.read())
        for args in calls(text, "add_library"):
            words = args.split()
            if not words:
                continue
            if len(words) >= 3 and words[1] == "ALIAS":
                alias[words[0]] = words[2]
            elif not words[0].startswith("${"):
                libs[words[0]] = TARGET_LAYERS.get(words[0], layer_of(folder))
        for call in calls(text, "target_link_libraries"):
            # A link inside `foreach(f IN LISTS PINTA_FAMILY_FOLDERS)` names each family's target.
            expanded = [call.replace("${f}", f) for f in family_folders(root)] if "${f}" in call \
                else [call]
            for args in expanded:
                words = re.findall(r"[A-Za-z_][A-Za-z0-9_:+.-]*", args)
                if words:
                    links += [(words[0], w) for w in words[1:]]
    links += injected_links
    problems = []
    for lib, word in links:
        lib = alias.get(lib, lib)
        used = alias.get(word, word)
        if lib not in libs or used not in libs or libs[lib] is None or libs[used] is None:
            continue  # an executable, a test, or a third-party target
        if may_use(libs[lib], libs[used]) or (lib, used) in ALLOWED_LINKS:
            continue
        problems.append(
            f"library {lib} ({libs[lib]}) links {word} ({libs[used]}): layer {libs[lib]} "
            f"may not use layer {libs[used]}")
    return problems, libs


def main():
    ap = argparse.ArgumentParser(description="Check the include and link layering.")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--inject", action="append", default=[], metavar="FILE=HEADER")
    ap.add_argument("--inject-link", action="append", default=[], metavar="LIB=TARGET")
    try:
        a = ap.parse_args()
    except SystemExit as e:
        return 2 if e.code else 0
    root = os.path.abspath(a.root)
    injected, injected_links = {}, []
    for spec in a.inject + a.inject_link:
        if "=" not in spec:
            print(f"check-layers: --inject wants A=B, got {spec!r}", file=sys.stderr)
            return 2
    for spec in a.inject:
        f, h = spec.split("=", 1)
        injected.setdefault(f, []).append(h)
    for spec in a.inject_link:
        injected_links.append(tuple(spec.split("=", 1)))
    if not os.path.isfile(os.path.join(root, "CMakeLists.txt")):
        print(f"check-layers: {root} is not the source tree (no CMakeLists.txt)", file=sys.stderr)
        return 2
    files = list(walk(root))
    problems = check_includes(root, files, injected)
    link_problems, libs = check_links(root, files, injected_links)
    problems += link_problems
    unmapped = sorted(t for t, l in libs.items() if l is None)
    problems += [f"library {t} is in no layer (add its folder to FOLDERS)" for t in unmapped]
    for line in problems:
        print(line)
    sources = sum(1 for f in files if f.endswith(SOURCE_EXT))
    print(f"check-layers: {sources} source files, {len(libs)} libraries, "
          f"{len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
