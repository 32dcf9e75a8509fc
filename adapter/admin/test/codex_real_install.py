#!/usr/bin/env python3
"""Real-host lane for `pinta-gemini install --host codex`: does an install made by our installer
make the real Codex CLI 0.171.0 run our hooks, without --dangerously-bypass-hook-trust?

CX (shared/reference/real-hosts.md): Codex skips an untrusted hook without a word, so a hook in
hooks.json is not enough; install records its trust in config.toml ([hooks.state."<key>"]
trusted_hash). One temp HOME (CODEX_HOME unset: ~/.codex), a user config.toml without a final line
break (the installer's append-with-a-break path), a loopback Responses API server whose model asks
for one exec_command and then answers "ok", and a stand-in adapter named pinta-gemini that logs
the event it was run for and answers nothing (allow). Runs:

  installed   SessionStart, UserPromptSubmit, PreToolUse, PostToolUse and Stop all run; the
              command ran.
  untrusted   the user's config.toml as it was before install (hooks.json still ours): no hook runs
              (the check above can fail: the trust is what makes them run).
  stale       the installed config.toml with PreToolUse's hash one digit off: PreToolUse does not
              run, the others do; `doctor --host codex` says it is stale and exits 1.
  uninstall   config.toml is byte for byte what it was; hooks.json is gone.
  toml        a config.toml that holds the user's hooks ([[hooks.Stop]]) and no hooks.json: install
              writes ours there, the five events run from it (none without the trust install wrote),
              doctor says trusted, uninstall
              leaves the file byte for byte as it was.

Usage: codex_real_install.py --admin PATH. Exit 0: every check passed; 1: a failure (printed);
77: SKIPPED (ci/npm-codex.sh is absent, or npm or its registry is out of reach).
"""
import argparse, http.server, json, os, shutil, subprocess, sys, tempfile, threading

SRC = os.environ.get("PINTA_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
RUN_FLAGS = ["exec", "--skip-git-repo-check", "--disable", "plugins", "--disable",
             "remote_plugin", "--disable", "apps"]
ALWAYS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]


def install_codex():
    script = os.path.join(SRC, "ci/npm-codex.sh")
    if not os.path.exists(script):
        print("[  SKIPPED ] ci/npm-codex.sh is not in this tree")
        sys.exit(77)
    p = subprocess.run(["bash", script], capture_output=True, text=True)
    if p.returncode in (3, 4):
        print("[  SKIPPED ] real Codex CLI unavailable: " + p.stderr.strip())
        sys.exit(77)
    if p.returncode != 0:
        print("ci/npm-codex.sh failed: " + p.stderr.strip())
        sys.exit(1)
    return p.stdout.strip().splitlines()[-1]


class Model(http.server.BaseHTTPRequestHandler):
    """Responses API, streamed: a function call first, a message once the call's output is back."""
    protocol_version = "HTTP/1.1"
    marker = ""

    def log_message(self, *a):
        pass

    def do_POST(self):
        req = self.rfile.read(int(self.headers.get("content-length", 0)))
        if b"function_call_output" not in req:
            item = {"type": "function_call", "id": "fc_1", "call_id": "call_1",
                    "name": "exec_command", "status": "completed",
                    "arguments": json.dumps({"cmd": "printf ran > " + Model.marker})}
        else:
            item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "ok", "annotations": []}]}
        resp = {"id": "resp_1", "object": "response", "status": "completed", "output": [item],
                "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                          "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens_details": {"reasoning_tokens": 0}}}
        events = [("response.created", {"type": "response.created",
                                        "response": dict(resp, status="in_progress", output=[])}),
                  ("response.output_item.done", {"type": "response.output_item.done",
                                                 "output_index": 0, "item": item}),
                  ("response.completed", {"type": "response.completed", "response": resp})]
        body = "".join("event: %s\ndata: %s\n\n" % (e, json.dumps(d)) for e, d in events).encode()
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--admin", required=True)
    args = ap.parse_args()
    codex = install_codex()
    root = tempfile.mkdtemp(prefix="pinta-codex-install-")
    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    try:
        home, proj, bindir = (os.path.join(root, d) for d in ("home", "proj", "bin"))
        codex_home = os.path.join(home, ".codex")
        for d in (codex_home, proj, bindir):
            os.makedirs(d)
        log = os.path.join(root, "events.log")
        Model.marker = os.path.join(root, "tool-ran")
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Model)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        adapter = os.path.join(bindir, "pinta-gemini")
        with open(adapter, "w") as f:
            f.write("#!/bin/sh\ncat >/dev/null\necho \"$4\" >> '%s'\n" % log)
        os.chmod(adapter, 0o755)
        config = os.path.join(codex_home, "config.toml")
        user_config = "\n".join([
            'model = "gpt-5.5"', 'model_provider = "local"', 'approval_policy = "never"',
            'sandbox_mode = "danger-full-access"', "", "[analytics]", "enabled = false", "",
            "[model_providers.local]", 'name = "local"',
            'base_url = "http://127.0.0.1:%d/v1"' % server.server_address[1],
            'env_key = "PINTA_CODEX_KEY"', 'wire_api = "responses"'])  # no final line break
        with open(config, "w") as f:
            f.write(user_config)
        env = dict(os.environ, HOME=home, PINTA_CODEX_KEY="unused", XDG_STATE_HOME="")
        env.pop("CODEX_HOME", None)

        def admin(*a):
            return subprocess.run([args.admin, *a], env=env, capture_output=True, text=True)

        def session():
            for p in (log, Model.marker):
                if os.path.exists(p):
                    os.unlink(p)
            subprocess.run([codex, *RUN_FLAGS, "go"], cwd=proj, env=env, capture_output=True,
                           text=True, timeout=120)
            ran = open(log).read().split() if os.path.exists(log) else []
            return ran, os.path.exists(Model.marker)

        p = admin("install", "--host", "codex", "--adapter", adapter)
        check(p.returncode == 0, "install exits 0 (%s)" % (p.stderr.strip() or p.stdout.strip()))
        check("trusted 11 hooks in " + config in p.stderr, "install says it recorded the trust")
        installed = open(config).read()
        check(installed.startswith(user_config + "\n# pinta-gemini: "),
              "the user's config.toml bytes come first, then our block")

        ran, tool = session()
        check(all(e in ran for e in ALWAYS) and tool,
              "installed: %s ran and the command ran (ran: %s)" % (", ".join(ALWAYS), ran))

        with open(config, "w") as f:
            f.write(user_config)
        ran, tool = session()
        check(ran == [] and tool, "untrusted: no hook runs (ran: %s)" % ran)

        key = '[hooks.state."%s:pre_tool_use:0:0"] # pinta-gemini\ntrusted_hash = "sha256:' % os.path.join(
            codex_home, "hooks.json")
        at = installed.find(key)
        check(at >= 0, "config.toml holds PreToolUse's trust under its key")
        digit = at + len(key)
        stale = installed[:digit] + ("0" if installed[digit] != "0" else "1") + installed[digit + 1:]
        with open(config, "w") as f:
            f.write(stale)
        ran, tool = session()
        check("PreToolUse" not in ran and "UserPromptSubmit" in ran and tool,
              "stale: PreToolUse is skipped, the others run (ran: %s)" % ran)
        d = admin("doctor", "--host", "codex", "--no-network")
        check(d.returncode == 1 and "trust is stale for PreToolUse" in d.stdout,
              "doctor: stale for PreToolUse, exit 1 (exit %d)" % d.returncode)

        with open(config, "w") as f:
            f.write(installed)
        u = admin("uninstall", "--host", "codex")
        check(u.returncode == 0, "uninstall exits 0 (%s)" % u.stderr.strip())
        check(open(config).read() == user_config, "uninstall: config.toml byte for byte as it was")
        check(not os.path.exists(os.path.join(codex_home, "hooks.json")),
              "uninstall: hooks.json (created by install) is gone")

        # The config.toml form: a user who keeps their hooks in config.toml ([[hooks.<Event>]], one
        # of theirs on Stop, untrusted) and has no hooks.json gets ours there, trusted by the key
        # that names config.toml.
        user_toml = user_config + ('\n\n[[hooks.Stop]]  # mine\n'
                                   'hooks = [{ type = "command", command = "true" }]\n')
        with open(config, "w") as f:
            f.write(user_toml)
        p = admin("install", "--host", "codex", "--adapter", adapter)
        check(p.returncode == 0, "toml: install exits 0 (%s)" % (p.stderr.strip() or p.stdout.strip()))
        check(not os.path.exists(os.path.join(codex_home, "hooks.json")),
              "toml: no hooks.json written")
        check(open(config).read().startswith(user_toml + "# pinta-gemini: "),
              "toml: the user's config.toml bytes come first, then our block")
        ran, tool = session()
        check(all(e in ran for e in ALWAYS) and tool,
              "toml: %s ran from config.toml and the command ran (ran: %s)" % (", ".join(ALWAYS), ran))
        toml_installed = open(config).read()
        lines = toml_installed.split("\n")
        untrusted = "\n".join(l for i, l in enumerate(lines)
                              if not l.startswith("[hooks.state.") and
                              not (i > 0 and lines[i - 1].startswith("[hooks.state.")))
        check(untrusted.count("[hooks.state.") == 0 and untrusted.count("# pinta-gemini\n") == 11,
              "toml: our groups without their trust")
        with open(config, "w") as f:
            f.write(untrusted)
        ran, tool = session()
        check(ran == [] and tool, "toml: untrusted, no hook runs (ran: %s)" % ran)
        with open(config, "w") as f:
            f.write(toml_installed)
        d = admin("doctor", "--host", "codex", "--no-network")
        check("registered and trusted for every Codex event" in d.stdout,
              "toml: doctor says registered and trusted (exit %d)" % d.returncode)
        u = admin("uninstall", "--host", "codex")
        check(u.returncode == 0, "toml: uninstall exits 0 (%s)" % u.stderr.strip())
        check(open(config).read() == user_toml, "toml: uninstall: config.toml byte for byte as it was")
        server.shutdown()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
