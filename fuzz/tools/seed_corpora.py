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
    seed_new_harnesses(fixtures)


GEM_EVENTS = ["BeforeTool", "AfterTool", "BeforeAgent", "Notification", "AfterAgent", "SessionStart",
              "SessionEnd", "PreCompress", "BeforeModel", "AfterModel", "BeforeToolSelection"]  # event_names()


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
    # gemini_hook_output: event byte, exit byte, stdout, stderr (2-byte lengths), second stdout.
    outs = {
        "allow": (0, 0, b"{}\n", b"", b""),
        "deny": (0, 0, b'{"decision":"deny","reason":"blocked by policy","systemMessage":"Blocked"}\n', b"", b"{}"),
        "ask": (0, 0, b'{"decision":"ask","reason":"review"}', b"", b'{"decision":"block"}'),
        "text_exit2": (0, 2, b"", b"refused: rm -rf", b""),
        "text_exit1": (4, 1, b"  careful  ", b"", b""),
        "json_in_string": (1, 0, b'"{\\"decision\\":\\"deny\\"}"', b"", b""),
        "number": (2, 0, b"42", b"stderr text", b""),
        "continue_false": (4, 0, b'{"continue":false,"stopReason":"stop"}', b"", b'{"reason":"r2"}'),
        "hso": (2, 0, b'{"hookSpecificOutput":{"additionalContext":"<x>"}}', b"", b'{"hookSpecificOutput":{"clearContext":true}}'),
        "toolsel": (10, 0, b'{"hookSpecificOutput":{"toolConfig":{"mode":"ANY","allowedFunctionNames":["b","a"]}}}', b"", b""),
        "model": (8, 0, b'{"hookSpecificOutput":{"llm_request":{"model":"m"}}}', b"", b'{"decision":"deny"}'),
        "stderr_only": (0, 3, b"   ", b"{\"decision\":\"deny\",\"reason\":\"e\"}", b""),
        "array": (5, 0, b"[1,2]", b"", b"[]"),
    }
    for name, (ev, code, out, err, out2) in outs.items():
        write("gemini_hook_output", name, bytes([ev, code]) + lp2(out) + lp2(err) + out2)
    # gemini_loader: flags (bit0 trusted, bit1 workspace file, bit2 extension), then user settings,
    # workspace settings, manifest, hooks.json (2-byte lengths).
    cmd = lambda c, extra="": ('{"type":"command","command":"%s"%s}' % (c, extra))
    loads = {
        "basic": (1, '{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[%s]}]}}' % cmd("pinta-gemini --agent gemini --event BeforeTool", ',"timeout":5000'), "", "", ""),
        "order": (7, '{"hooks":{"BeforeTool":[{"hooks":[%s,%s]}]}}' % (cmd("same", ',"name":"same"'), cmd("u")),
                  '{"hooks":{"BeforeTool":[{"hooks":[%s,%s]}]}}' % (cmd("same", ',"name":"same"'), cmd("w")),
                  '{"name":"extA","version":"1"}',
                  '{"hooks":{"BeforeTool":[{"hooks":[%s]}]}}' % cmd("${extensionPath}${/}h.sh ${nope}")),
        "untrusted": (6, '{"hooks":{"AfterAgent":[{"hooks":[%s]}]}}' % cmd("a"), '{"hooks":{}}', '{"name":"e","version":"2"}',
                      '{"hooks":{"SessionStart":[{"matcher":"startup","hooks":[%s]}]}}' % cmd("s")),
        "syntax": (1, '{ "hooks": { ', "", "", ""),
        "comments_env": (1, '{/*c*/"hooks":{"BeforeTool":{"hooks":[%s]}}} // t' % cmd("echo '$X ${NOPE:-dflt} $NOPE_Y'"), "", "", ""),
        "disabled": (3, '{"hooksConfig":{"enabled":true,"disabled":["x"]},"hooks":{"BeforeTool":[{"sequential":true,"hooks":[%s,%s]}]}}' % (cmd("x", ',"name":"x"'), cmd("y")),
                     '{"hooksConfig":{"enabled":false}}', "", ""),
        "matchers": (1, '{"hooks":{"BeforeTool":[{"matcher":"write_.*|read_file","hooks":[%s]},{"matcher":42,"hooks":[%s]}],"Bogus":[{"hooks":[%s]}]}}' % (cmd("m1"), cmd("m2"), cmd("b")), "", "", ""),
        "timeouts": (1, '{"hooks":{"PreCompress":[{"hooks":[%s,%s]}]}}' % (cmd("t1", ',"timeout":"abc"'), cmd("t2", ',"timeout":-1,"env":{"A":"b"}')), "", "", ""),
    }
    for name, (flags, user, work, man, hooks) in loads.items():
        write("gemini_loader", name, bytes([flags]) + b"".join(lp2(x.encode()) for x in (user, work, man, hooks)))
    # conformance_case: every shipped case file.
    for f in sorted((ROOT / "conformance/cases").rglob("*.case.json")):
        write("conformance_case", f.name.replace(".case.json", ""), f.read_bytes())
    # model_server_request: mode byte; structured: path byte, key byte, model, query, extra header,
    # body (2-byte length), script JSON; raw: bytes.
    body = b'{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}'
    reqs = {
        "ok": bytes([0, 0, 0]) + lp(b"") + lp(b"") + lp(b"") + lp2(body),
        "route": bytes([0, 1, 3 | 4]) + lp(b"") + lp(b"") + lp(b"") + lp2(body),
        "no_key": bytes([0, 0, 1]) + lp(b"") + lp(b"") + lp(b"") + lp2(body),
        "wrong_key": bytes([0, 0, 2]) + lp(b"") + lp(b"") + lp(b"") + lp2(body),
        "bad_model": bytes([0, 4, 0]) + lp(b" gemini ") + lp(b"") + lp(b"") + lp2(body),
        "no_sse": bytes([0, 16, 0]) + lp(b"") + lp(b"alt=json") + lp(b"") + lp2(body),
        "not_stream": bytes([0, 8, 0]) + lp(b"") + lp(b"") + lp(b"") + lp2(body),
        "bad_body": bytes([0, 0, 8]) + lp(b"") + lp(b"") + lp(b"X-Extra: 1") + lp2(b'{"contents":{}}'),
        "script": bytes([0, 0, 0]) + lp(b"") + lp(b"") + lp(b"") + lp2(body) +
                  b'{"apiKey":"k","routeId":"r","turns":[{"parts":[{"text":"hi"},{"thought":"t"},{"functionCall":{"name":"write_file","args":{}}}],"finishReason":"STOP"},{"frames":[{}]},{"error":{"code":502}}]}',
        "raw_get": b"\x01GET /v1beta/models/m:streamGenerateContent?alt=sse HTTP/1.1\r\nHost: x\r\n\r\n",
        "raw_chunked": b"\x01POST /v1beta/models/m:streamGenerateContent?alt=sse HTTP/1.1\r\nx-goog-api-key: k-fuzz\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n0\r\n\r\n",
        "raw_garbage": b"\x01\x00\xff\r\n\r\n",
        "raw_pct": b"\x01POST /gemini/%2e%2e/v1beta/models/a%2Fb:streamGenerateContent?alt=sse HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}",
    }
    for name, data in reqs.items():
        write("model_server_request", name, data)
    # span_queue: cap byte, then queue file bytes (otlp::queue_line lines, torn and foreign ones).
    line = lambda sid, n: ('{"spanId":"%s","resource":[],"span":{"spanId":"%s","n":%d}}' % (sid, sid, n)).encode()
    ids = ["%016x" % (0x1000 + i) for i in range(12)]
    queues = {
        "valid": bytes([4]) + b"\n".join(line(ids[i], i) for i in range(6)) + b"\n",
        "torn": bytes([8]) + line(ids[0], 0) + b"\n" + line(ids[1], 1)[:20] + b"\n" + line(ids[2], 2) + b"\n",
        "foreign": bytes([2]) + b"garbage\n\n{}\n" + line(ids[3], 3) + b"\n" + b'{"spanId":"ABCDEF0123456789"}\n',
        "dup": bytes([3]) + (line(ids[4], 4) + b"\n") * 3 + line(ids[5], 5),
        "over_cap": bytes([0]) + b"\n".join(line(ids[i], i) for i in range(12)) + b"\n",
    }
    for name, data in queues.items():
        write("span_queue", name, data)


if __name__ == "__main__":
    main()
