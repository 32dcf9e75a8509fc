#!/usr/bin/env python3
"""ci/check-function-length.py — no production function over 100 lines.

Reads the production C++ sources (.cc and .h under the folders of SCOPE; tests excluded as in
ci/check-families.py) and measures every function body: from the line of its opening brace to the
line of its closing one. A function is a braced body whose header (the text since the previous
`;`, `{` or `}` of its scope) holds a parameter list: free functions, member functions defined in
a class, and lambdas or initializers at namespace scope (measured as one body). What is inside a
function (its lambdas, its local classes) counts toward it. Comments, string literals and
preprocessor lines are skipped.

KNOWN_LONG lists the functions that are still over the limit (`path: name`): the list only
shrinks. A function over the limit that is not listed fails, and so does a listed one that is no
longer over it (remove its line), or that is gone. Run with --self-test to prove the check can
fail; with --list to print every function over the limit with its length.

Exit 0: clean; 1: a function over the limit not listed, or a stale entry; 2: usage.
"""
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMIT = 100
SCOPE = ["common", "hosts", "adapter", "emulator", "conformance/src", "conformance/include",
         "tools", "fuzz", "fixtures"]
EXTS = (".cc", ".h", ".cpp")

# Functions over LIMIT lines when this check was added, to be split into named phases; the list
# only shrinks. path: [function, ...]
KNOWN_LONG = {}


def is_test(rel):
    parts = rel.split("/")
    base = parts[-1]
    return ("test" in parts or base.endswith("_test.cc") or "_test_" in base or
            base.startswith("test_"))


# What blank() skips: preprocessor lines (with continuations), comments, raw strings, string and
# character literals (a digit separator 1'000 is not one).
SKIP = re.compile(r"""(?mx)
    ^[ \t]*\#(?:[^\n\\]|\\.|\\\n)*        # a directive
  | //[^\n]*                                # a line comment
  | /\*.*?(?:\*/|\Z)                         # a block comment
  | (?<![\w])(?:u8|u|U|L)?R"(?P<d>[^(\s"]{0,16})\(.*?(?:\)(?P=d)"|\Z)   # a raw string
  | "(?:[^"\\\n]|\\.)*"?                    # a string
  | (?<![\w])'(?:[^'\\\n]|\\.)*'?             # a character
""", re.S)


def blank(text):
    """`text` with comments, string and character literals and preprocessor lines replaced by
    spaces (newlines kept, so line numbers hold)."""
    return SKIP.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


CONTAINER = re.compile(r"^(?:template\s*<.*>\s*)?(?:(?:inline\s+)?namespace\b|extern\s*$|"
                       r"(?:typedef\s+)?(?:class|struct|union|enum)\b)", re.S)


def name_of(header):
    """The function's name: the identifier (qualified) before its parameter list."""
    h = re.sub(r"^\s*template\s*<[^{;]*?>\s*(?=[\w:~])", "", header.strip(), flags=re.S)
    depth, cut = 0, None
    for i, ch in enumerate(h):  # the first '(' outside <…>
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(0, depth - 1)
        elif ch == "(" and depth == 0:
            cut = i
            break
    m = re.search(r"((?:[\w~]+(?:<[^()]*>)?::)*(?:operator\s*\S+?|[\w~]+))\s*$", h[:cut] if cut else h)
    return re.sub(r"\s+", " ", m.group(1)) if m else "(anonymous)"


def functions(text):
    """[(name, first line, last line)] of the function bodies of `text` (C++ source)."""
    code = blank(text)
    out = []
    stack = []  # each open brace: "container", "function" or "other"
    header_start = 0
    fn_start = None  # (name, line) of the open function
    depth_fn = 0  # open braces from the function's own on (0: not in a function)
    for m in re.finditer(r"[{};]", code):
        i, c = m.start(), m.group(0)
        if depth_fn:
            if c == "{":
                depth_fn += 1
            elif c == "}":
                depth_fn -= 1
                if depth_fn == 0:
                    out.append((fn_start[0], fn_start[1], code.count("\n", 0, i) + 1))
                    header_start = i + 1
            continue
        if c == "{":
            header = code[header_start:i].strip()
            if header.endswith('extern "C"') or CONTAINER.match(header):
                stack.append("container")
            elif ")" in header and not header.endswith("="):
                depth_fn = 1
                fn_start = (name_of(header), code.count("\n", 0, i) + 1)
            else:
                stack.append("other")
            header_start = i + 1
        elif c == "}":
            if stack:
                stack.pop()
            header_start = i + 1
        elif c == ";" and "other" not in stack:
            header_start = i + 1
    return out


def scan(root):
    """{rel: [(name, first, last, length)]} of the functions over LIMIT."""
    long = {}
    for top in SCOPE:
        base = os.path.join(root, top)
        for dirpath, dirs, names in os.walk(base):
            dirs[:] = sorted(d for d in dirs if d not in ("build", ".git", "node_modules"))
            for nm in sorted(names):
                path = os.path.join(dirpath, nm)
                rel = os.path.relpath(path, root)
                if not rel.endswith(EXTS) or is_test(rel):
                    continue
                text = open(path, encoding="utf-8", errors="replace").read()
                for name, a, b in functions(text):
                    if b - a + 1 > LIMIT:
                        long.setdefault(rel, []).append((name, a, b, b - a + 1))
    return long


def judge(long, known=None):
    known = KNOWN_LONG if known is None else known
    failures = []
    for rel, fs in sorted(long.items()):
        for name, a, _, n in fs:
            if name not in known.get(rel, []):
                failures.append(f"{rel}:{a}: {name} is {n} lines, over {LIMIT}: split it into "
                                "named phases")
    for rel, names in sorted(known.items()):
        have = {f[0] for f in long.get(rel, [])}
        for name in names:
            if name not in have:
                failures.append(f"{rel}: {name} is listed in KNOWN_LONG but is not over {LIMIT} "
                                "lines (or is gone): remove its entry so the list stays true")
    return failures


def self_test():
    with tempfile.TemporaryDirectory() as t:
        os.makedirs(os.path.join(t, "adapter/src"))
        os.makedirs(os.path.join(t, "adapter/test"))
        body = "".join("  x += %d;  // }\n" % i for i in range(LIMIT))
        src = ("namespace a {\nnamespace {\nconst char* k = \"{\";\n}\n"
               "int long_one(int x) {\n" + body + "  return x;\n}\n"
               "struct S {\n  int short_one() const { return 1; }\n};\n}  // namespace a\n")
        open(os.path.join(t, "adapter/src/x.cc"), "w").write(src)
        open(os.path.join(t, "adapter/test/x_test.cc"), "w").write(src)
        got = scan(t)
        bad = judge(got, {})
        if list(got) != ["adapter/src/x.cc"] or len(bad) != 1 or "long_one is 103 lines" not in bad[0]:
            print(f"check-function-length self-test: a {LIMIT + 3}-line function was not caught "
                  f"alone: {got} {bad}", file=sys.stderr)
            return 1
        if judge(got, {"adapter/src/x.cc": ["long_one"]}):
            print("check-function-length self-test: a listed function failed", file=sys.stderr)
            return 1
        if len(judge({}, {"adapter/src/x.cc": ["long_one"]})) != 1:
            print("check-function-length self-test: a stale entry passed", file=sys.stderr)
            return 1
    print(f"check-function-length self-test: a function over {LIMIT} lines fails the check, and "
          "so does a stale entry")
    return 0


def main(argv):
    args = argv[1:]
    if args == ["--self-test"]:
        return self_test()
    listing = "--list" in args
    args = [a for a in args if a != "--list"]
    if len(args) > 1:
        print("usage: ci/check-function-length.py [--list] [ROOT] | --self-test", file=sys.stderr)
        return 2
    root = args[0] if args else ROOT
    long = scan(root)
    if listing:
        for rel, fs in sorted(long.items()):
            for name, a, _, n in fs:
                print(f"{n:5d}  {rel}:{a}  {name}")
    failures = judge(long)
    for f in failures:
        print(f)
    count = sum(len(v) for v in long.values())
    if failures:
        print(f"check-function-length: {len(failures)} problem(s); {count} function(s) over "
              f"{LIMIT} lines")
        return 1
    print(f"check-function-length: no function over {LIMIT} lines but the {count} known "
          "(KNOWN_LONG)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
