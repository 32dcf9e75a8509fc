#!/usr/bin/env python3
"""Generates the fuzz harnesses' seed corpora that are derived from other files of the tree:
the fixtures (adapter_input, agy_reply, otlp_span), the conformance cases (conformance_case) and
the Antigravity loader corpus (agy_hooks_json). They are not committed: the build runs this script
(target fuzz_seed_corpora) and the replay tests, ci/fuzz-smoke.sh and the OSS-Fuzz build read
OUT/<harness>/ beside the committed fuzz/<harness>/corpus (hand-made seeds) and regressions/.

Usage: fuzz/tools/seed_corpora.py --out DIR
  writes DIR/<harness>/seed_* for every harness directory fuzz/<harness>/ (an empty directory
  where nothing is generated), replacing what DIR held.

Harnesses that take a selector prefix (see the layout comment at the top of each *_fuzzer.cc)
get the fixture bytes behind a prefix that picks the fixture's own host and event, so libFuzzer
starts from real payloads on the right rows of the table.
"""
import argparse
import json
import pathlib
import re
import shutil

ROOT = pathlib.Path(__file__).resolve().parents[2]
FUZZ = ROOT / "fuzz"


def _array(path: pathlib.Path, name: str) -> list:
    """The string elements of `constexpr std::array<…> name = {…};` in a harness source: the
    selector tables are read from the harnesses, never copied, so a seed's prefix byte always picks
    the row it means."""
    text = (FUZZ / path).read_text(encoding="utf-8")
    m = re.search(name + r"\s*=\s*\{(.*?)\};", text, re.S)
    if not m:
        raise SystemExit(f"seed_corpora: no {name} table in fuzz/{path}")
    body = m.group(1)
    strings = re.findall(r'"((?:[^"\\]|\\.)*)"', body)
    if strings:
        return strings
    return re.findall(r"Event::k(\w+)", body)  # agy::Event::kPreToolUse -> "PreToolUse"


def _registry_tables() -> tuple[list[str], list[str]]:
    """adapter_input's selector tables, in the order fuzz/common/host_table.h builds them from the
    family registry (the list hosts/include/pinta/hosts/families.def, each family's descriptor in
    hosts/<folder>/include/pinta/hosts/<folder>/family.h): every family's --agent labels then
    unknown labels; every family's events then its aliases (first spelling kept), then unknown
    names."""
    listing = (ROOT / "hosts/include/pinta/hosts/families.def").read_text(encoding="utf-8")
    folders = re.findall(r"^PINTA_FAMILY\(\w+,\s*(\w+),", listing, re.M)
    if not folders:
        raise SystemExit("seed_corpora: no family in hosts/include/pinta/hosts/families.def")
    agents: list[str] = []
    events: list[str] = []
    for folder in folders:
        path = ROOT / f"hosts/{folder}/include/pinta/hosts/{folder}/family.h"
        text = path.read_text(encoding="utf-8")
        d = re.search(r"kDescriptor\s*=\s*\{\s*Family::k\w+,\s*\"[^\"]*\",\s*\"[^\"]*\",\s*"
                      r"(?://[^\n]*\n\s*)*\{([^}]*)\}", text, re.S)
        m = re.search(r"\bkEvents\s*=\s*(\{.*?\});", text, re.S)
        if not d or not m:
            raise SystemExit(f"seed_corpora: no descriptor or kEvents in {path}")
        agents += [l for l in re.findall(r'"([^"]*)"', d.group(1)) if l]
        for e in re.findall(r'"([^"]*)"', m.group(1)):
            if e not in events:
                events.append(e)
        am = re.search(r"\bkAliases\s*=\s*\{\{(.*?)\}\};", text, re.S)
        for alias, _event in re.findall(r'\{"([^"]*)",\s*"([^"]*)"\}', am.group(1) if am else ""):
            if alias not in events:
                events.append(alias)
    agents += ["", "Gemini", "claude_code", "x"]
    for u in ["", "beforetool", "Nope", "pretooluse"]:
        if u not in events:
            events.append(u)
    return agents, events


# The selector tables: adapter_input's (from the registry), kEvents (agy::Event) of agy_reply.
AGENTS, EVENTS = _registry_tables()
AGY_EVENTS = _array(pathlib.Path("agy_reply/agy_reply_fuzzer.cc"), "kEvents")


def lp(s: bytes) -> bytes:  # Bytes::string(64) length prefix (one byte)
    return bytes([len(s)]) + s


def lp2(s: bytes) -> bytes:  # Bytes::string(>255) length prefix (two bytes)
    return bytes([len(s) >> 8, len(s) & 0xFF]) + s


OUT = pathlib.Path()


def write(entry: str, name: str, data: bytes) -> None:
    d = OUT / entry
    d.mkdir(parents=True, exist_ok=True)
    (d / ("seed_" + name)).write_bytes(data)


def main() -> None:
    # The fixture files only: <folder>/<version>/<event>/{y,n,i}_*.json (not MANIFEST.json, not a
    # family's family.json, not the goldens' files).
    fixtures = sorted(p for p in (ROOT / "fixtures").rglob("*.json")
                      if len(p.relative_to(ROOT / "fixtures").parts) == 4 and p.name[:2] in ("y_", "n_", "i_"))
    for i, f in enumerate(fixtures):
        rel = f.relative_to(ROOT / "fixtures").parts  # host/version/Event/file
        host, event = rel[0], rel[2]
        if host not in ("gemini", "antigravity"):  # the harness drives the JSON-line hosts only
            continue
        agent = AGENTS.index("gemini" if host == "gemini" else ("agy" if rel[1].startswith("agy") else "antigravity2"))
        ev = EVENTS.index(event) if event in EVENTS else EVENTS.index("Nope")
        body = f.read_bytes()
        tag = "_".join(rel).replace(".json", "")
        # verdicts: allow, deny (with message), review in ask mode, unavailable, no guard
        for vname, vb, reason, msg in [("allow", 0, b"", b""), ("deny", 1, b"rm -rf blocked", b"Blocked by policy"),
                                       ("review_ask", 2 | 0x10, b"needs review", b""), ("noguard", 0x08, b"", b"")]:
            write("adapter_input", f"{tag}_{vname}", bytes([agent, ev, vb]) + lp(reason) + lp(msg) + bytes([i & 0xFF]) + body)
        # agy replies: the fixture as the tool args of a PreToolUse reply interpretation
        if host == "antigravity":
            try:
                args = json.loads(body).get("toolCall", {}) or {}
                args = json.dumps(args.get("args", {})).encode()
            except Exception:
                args = b"null"
            e = AGY_EVENTS.index(event) if event in AGY_EVENTS else 0
            for rname, out in [("allow", b'{"decision":"allow"}\n'), ("deny", b'{"decision":"deny","reason":"no"}'),
                               ("empty", b""), ("emptyobj", b"{}"), ("ask", b'{"decision":"ask"}'),
                               ("overwrite", b'{"decision":"allow","overwrite":{"CommandLine":"ls"}}'),
                               ("continue", b'{"decision":"continue","reason":"more"}'), ("garbage", b"not json")]:
                write("agy_reply", f"{tag}_{rname}", bytes([i % 5, e, 0, 1]) + lp2(out) + lp2(b"") + args)
    for f in sorted((ROOT / "emulator/hosts/antigravity/test/corpus").glob("*.json")):
        write("agy_hooks_json", f.stem, f.read_bytes())
    seed_new_harnesses(fixtures)


def seed_new_harnesses(fixtures) -> None:
    # otlp_span: count, family byte (bit0 antigravity, bits2+ hook index), guard byte, 8 time bytes,
    # payload (2-byte length). The fixture payloads of both hosts.
    for i, f in enumerate(fixtures):
        rel = f.relative_to(ROOT / "fixtures").parts
        if rel[0] not in ("gemini", "antigravity"):
            continue
        fam = (0 if rel[0] == "gemini" else 1) | ((i % 8) << 2)
        guard = [0, 4 | 1, 4 | 2 | 8, 16][i % 4]
        t = (1764670211342000123 + i).to_bytes(8, "big")
        body = f.read_bytes()
        if len(body) < 60000:
            write("otlp_span", "_".join(rel).replace(".json", ""), bytes([0, fam, guard]) + t + lp2(body))
    # keeper_wire: a guard request carrying each fixture as its body, and the replies a keeper sends.
    def ns(b: bytes) -> bytes:
        return str(len(b)).encode() + b":" + b + b","

    def message(fields) -> bytes:
        return ns(b"".join(ns(x) for x in fields))

    magic = b"pinta-guard-keeper 1"
    for i, f in enumerate(fixtures):
        rel = f.relative_to(ROOT / "fixtures").parts
        body = f.read_bytes()
        if rel[0] not in ("gemini", "antigravity") or len(body) > 60000 or i % 4:
            continue
        req = message([magic, b"v1 host=guard.example port=443 sni=guard.example", str(1000 * i).encode(), b"65536",
                       b"POST", b"https://guard.example/guard", b"1", b"Content-Type", b"application/json", body])
        write("keeper_wire", "_".join(rel).replace(".json", "") + "_request", b"\x00" + req)
        rep = message([magic, b"ok", b"200", b"0", body[:2000]])
        write("keeper_wire", "_".join(rel).replace(".json", "") + "_reply", b"\xff" + rep)
    # conformance_case: every shipped case file.
    for f in sorted((ROOT / "conformance/cases").rglob("*.case.json")):
        write("conformance_case", f.name.replace(".case.json", ""), f.read_bytes())


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="directory for the generated corpora")
    OUT = pathlib.Path(ap.parse_args().out).resolve()
    shutil.rmtree(OUT, ignore_errors=True)
    for h in sorted(FUZZ.glob("*/*_fuzzer.cc")):
        (OUT / h.parent.name).mkdir(parents=True, exist_ok=True)
    main()
