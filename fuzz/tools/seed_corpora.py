#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz harnesses from fixtures/ and the Antigravity loader corpus.

Usage: fuzz/tools/seed_corpora.py   (from anywhere; rewrites fuzz/*/corpus/seed_* files)

Harnesses that take a selector prefix (see the layout comment at the top of each *_fuzzer.cc)
get the fixture bytes behind a prefix that picks the fixture's own host and event, so libFuzzer
starts from real payloads on the right rows of the table.
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
FUZZ = ROOT / "fuzz"
# Must match kAgents / kEvents in fuzz/adapter_input/adapter_input_fuzzer.cc.
AGENTS = ["gemini", "antigravity", "agy", "antigravity2", "", "Gemini", "claude"]
EVENTS = ["BeforeTool", "AfterTool", "BeforeAgent", "Notification", "AfterAgent", "SessionStart",
          "SessionEnd", "PreCompress", "BeforeModel", "AfterModel", "BeforeToolSelection", "PreToolUse",
          "PostToolUse", "PreInvocation", "PostInvocation", "Stop", "", "beforetool", "Nope", "pretooluse"]
AGY_EVENTS = ["PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop", "SessionStart"]


def lp(s: bytes) -> bytes:  # Bytes::string(64) length prefix (one byte)
    return bytes([len(s)]) + s


def lp2(s: bytes) -> bytes:  # Bytes::string(>255) length prefix (two bytes)
    return bytes([len(s) >> 8, len(s) & 0xFF]) + s


def write(entry: str, name: str, data: bytes) -> None:
    d = FUZZ / entry / "corpus"
    d.mkdir(parents=True, exist_ok=True)
    (d / ("seed_" + name)).write_bytes(data)


def main() -> None:
    fixtures = sorted(p for p in (ROOT / "fixtures").rglob("*.json") if p.name != "MANIFEST.json")
    for i, f in enumerate(fixtures):
        rel = f.relative_to(ROOT / "fixtures").parts  # host/version/Event/file
        host, event = rel[0], rel[2]
        agent = 0 if host == "gemini" else (2 if rel[1].startswith("agy") else 3)
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
    envs = {
        "basic": b"PINTA_GUARD_URL=http://127.0.0.1:8080\nexport OTEL_EXPORTER_OTLP_ENDPOINT='http://x:4318'\n",
        "quotes": b'A="line\\nnext \\"q\\" \\$HOME \\\\ end" # c\nB=\'lit $X\'\nC=plain value #comment\n',
        "bad": b"=nokey\n1BAD=x\nNOEQ\nUNCLOSED=\"abc\nD=\"ok\" trailing\n",
        "comments": b"# header\n\n   \t\nexport\tE=1\r\nF = spaced \t\n",
    }
    for name, data in envs.items():
        write("env_file", name, data)
    texts = {
        "aws": b"\x00\x00\x80export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
        "bearer": b"\x01\x01\x00curl -H 'Authorization: Bearer abc.def.ghi' https://x",
        "url": b"\x02\x02\xffpostgres://user:hunter2@db:5432/x\x00tail",
        "utf8": "\x03\x03\x90\ud55c\uad6d\uc5b4 \u00e9 \U0001F600 password=s3cret".encode("utf-8", "surrogatepass"),
        "pem": b"\x04\x00\x00-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
    }
    for name, data in texts.items():
        write("redact", name, data)


if __name__ == "__main__":
    main()
