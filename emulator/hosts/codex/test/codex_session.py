"""One offline run of the real Codex CLI 0.171.0 against `hostemu codex model-server` (shared by
real_diff.py and real_host_guard.py).

Each run gets its own temp root: CODEX_HOME=<root>/codex-home (config.toml, hooks.json),
HOME=<root>/home, the project <root>/proj (the cwd; not a git repo). The configuration follows
shared/reference/real-hosts.md "OpenAI Codex CLI 0.171.0 … offline" (CX): a local provider with
wire_api "responses", approval_policy never, sandbox danger-full-access, [analytics] off (else a
~5 s stall at exit), and `codex exec --skip-git-repo-check --dangerously-bypass-hook-trust
--disable plugins --disable remote_plugin --disable apps` (without the switches it reaches out to
GitHub; without the bypass untrusted hooks are skipped silently).
"""
import json, os, re, shutil, signal, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("PINTA_SOURCE_DIR") or os.path.abspath(os.path.join(HERE, "../../../.."))
KEY_VAR = "PINTA_CODEX_SCRIPTED_KEY"
# A model slug 0.171.0 knows: its metadata offers the apply_patch tool (an unknown slug gets
# fallback metadata without it, and "unsupported custom tool call: apply_patch").
MODEL = "gpt-5.5"
EXEC_FLAGS = ["--skip-git-repo-check", "--disable", "plugins", "--disable", "remote_plugin",
              "--disable", "apps"]


_TRUST = {}


def has_trust(codex):
    """Whether this release has hook trust (`--dangerously-bypass-hook-trust` in `codex exec
    --help`): releases before it run every hook, and reject the switch (the version lanes,
    ci/codex-bisect.py)."""
    if codex not in _TRUST:
        p = subprocess.run([codex, "exec", "--help"], capture_output=True, text=True)
        _TRUST[codex] = "--dangerously-bypass-hook-trust" in p.stdout
    return _TRUST[codex]


def install_codex():
    """The native binary from ci/npm-codex.sh; exit 77 (SKIPPED) when npm or the registry is out."""
    import sys
    p = subprocess.run(["bash", os.path.join(SRC, "ci/npm-codex.sh")], capture_output=True, text=True)
    if p.returncode in (3, 4):
        print("[  SKIPPED ] real Codex CLI unavailable: " + p.stderr.strip())
        sys.exit(77)
    if p.returncode != 0:
        print("ci/npm-codex.sh failed: " + p.stderr.strip())
        sys.exit(1)
    return p.stdout.strip().splitlines()[-1]


def toml_str(s):
    return json.dumps(s, ensure_ascii=False)  # a TOML basic string is a JSON string


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return toml_str(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise ValueError("no TOML for %r" % (v,))


def hooks_toml(hooks):
    """`{"Event": [{"matcher", "hooks": [handler…]}]}` as config.toml [[hooks.Event]] tables."""
    out = []
    for ev, groups in hooks.items():
        for g in groups:
            out.append("[[hooks.%s]]" % ev)
            for k, v in g.items():
                if k != "hooks":
                    out.append("%s = %s" % (k, toml_value(v)))
            for h in g.get("hooks", []):
                out.append("[[hooks.%s.hooks]]" % ev)
                for k, v in h.items():
                    out.append("%s = %s" % (k, toml_value(v)))
    return "\n".join(out) + "\n"


class Run:
    """A scenario's files and one real run. Scenario keys used here:
    hooks: hooks.json's "hooks" object; hooks_json_raw: hooks.json written verbatim instead;
    toml_hooks: hooks written as [hooks] tables in config.toml; config_extra: raw TOML appended;
    bypass_trust (default true); prompt (default "go"); turns (Responses turns);
    capture: the events a capture hook (matcher "", copying its stdin to a file in capture/) is
    added for, in hooks.json, or in config.toml when hooks_json_raw is given."""

    CAPTURE_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
                      "PostToolUse", "PreCompact", "PostCompact", "SubagentStart", "SubagentStop",
                      "Stop", "SessionEnd"]

    def __init__(self, root, sc):
        self.root, self.sc = root, sc
        self.codex_home = os.path.join(root, "codex-home")
        self.home = os.path.join(root, "home")
        self.proj = os.path.join(root, "proj")
        self.cap = os.path.join(root, "capture")  # one file per captured payload
        self.scratch = os.path.join(root, "scratch")  # $S: hooks keep state here (run once, …)
        self.marks = os.path.join(self.scratch, "marks.txt")  # $M: hooks append what they saw
        self.api_log = os.path.join(root, "api.jsonl")

    def capture_hooks(self):
        # One file per hook run, named by its start time: the hooks of parallel tool calls run
        # concurrently, and appends to one file could interleave.
        cmd = 'cat > "$PINTA_CODEX_CAP/$(date +%s%N)-$$.json"'
        return {e: [{"matcher": "", "hooks": [{"type": "command", "command": cmd}]}]
                for e in self.sc.get("capture", self.CAPTURE_EVENTS)}

    def build(self, port):
        for d in (self.codex_home, self.home, self.proj, self.scratch):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
        shutil.rmtree(self.cap, ignore_errors=True)
        os.makedirs(self.cap)
        sc = self.sc
        cap = self.capture_hooks()
        toml_hooks = {k: list(v) for k, v in sc.get("toml_hooks", {}).items()}
        if "hooks_json_raw" in sc:
            with open(os.path.join(self.codex_home, "hooks.json"), "w") as f:
                f.write(sc["hooks_json_raw"])
            for e, g in cap.items():
                toml_hooks.setdefault(e, []).extend(g)
        else:
            hooks = {k: list(v) for k, v in sc.get("hooks", {}).items()}
            for e, g in cap.items():
                hooks.setdefault(e, []).extend(g)
            with open(os.path.join(self.codex_home, "hooks.json"), "w") as f:
                json.dump({"hooks": hooks}, f, indent=1)
        cfg = [
            'model = %s' % toml_str(sc.get("model", MODEL)), 'model_provider = "local"', 'approval_policy = "never"',
            'sandbox_mode = "danger-full-access"', sc.get("config_top", ""),
            "[analytics]", "enabled = false",
            "[model_providers.local]", 'name = "local"',
            'base_url = "http://127.0.0.1:%d/v1"' % port, 'env_key = "%s"' % KEY_VAR,
            'wire_api = "responses"', "",
        ]
        text = "\n".join(cfg) + sc.get("config_extra", "")
        if toml_hooks:
            text += "\n" + hooks_toml(toml_hooks)
        with open(os.path.join(self.codex_home, "config.toml"), "w") as f:
            f.write(text)

    def env(self):
        return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": self.home, "LANG": "C.UTF-8",
                "CODEX_HOME": self.codex_home, KEY_VAR: "sk-scripted", "PINTA_CODEX_CAP": self.cap,
                "M": self.marks, "S": self.scratch, "RUST_LOG": "error"}

    def run(self, codex, hostemu, timeout=120):
        script = os.path.join(self.root, "script.json")
        with open(script, "w") as f:
            json.dump({"turns": self.sc["turns"],
                       "whenExhausted": {"content": [{"type": "text", "text": "(script exhausted)"}]}}, f)
        if os.path.exists(self.api_log):
            os.remove(self.api_log)
        srv = subprocess.Popen([hostemu, "codex", "model-server", "--script", script, "--log",
                                self.api_log], stdout=subprocess.PIPE, text=True)
        try:
            port = int(srv.stdout.readline().split()[1])
            self.build(port)
            args = [codex, "exec"] + EXEC_FLAGS
            if self.sc.get("bypass_trust", True) and has_trust(codex):
                args.append("--dangerously-bypass-hook-trust")
            args += ["--json", self.sc.get("prompt", "go")]
            with open(os.devnull) as dn:
                p = subprocess.run(args, cwd=self.proj, env=self.env(), stdin=dn, capture_output=True,
                                   timeout=timeout, errors="surrogateescape")
            self.rc, self.stdout, self.stderr = p.returncode, p.stdout, p.stderr
        finally:
            srv.send_signal(signal.SIGTERM)
            srv.wait()
        self.api = [json.loads(l) for l in open(self.api_log)] if os.path.exists(self.api_log) else []
        names = sorted(os.listdir(self.cap), key=lambda n: tuple(int(x) for x in n[:-5].split("-")))
        self.raw_payloads = [open(os.path.join(self.cap, n), "rb").read() for n in names]
        self.payloads = [json.loads(l) for l in self.raw_payloads]
        return self
