"""One offline run of the real GitHub Copilot CLI 1.0.102 against the scripted OpenAI Responses API
(`hostemu copilot model-server`, emulator/model_server/src/responses_server.cc), shared by
real_diff.py and the lanes that run our adapter under the real CLI.

Copilot speaks streaming Chat Completions by default; with COPILOT_PROVIDER_WIRE_API=responses it
speaks the Responses API that Codex speaks, and runs the same (measured: the model's tool calls,
the tool outputs it reads back and every hook event are the same), so the one Responses dialect
serves both families. Environment (shared/reference/real-hosts.md, "… GitHub Copilot CLI 1.0.102,
offline"): COPILOT_OFFLINE, COPILOT_PROVIDER_BASE_URL/_API_KEY/_WIRE_API, COPILOT_MODEL,
COPILOT_AUTO_UPDATE=false and `copilot -p PROMPT --allow-all-tools --no-auto-update`; strace:
127.0.0.1 only.

Each run gets its own temp root: HOME=<root>/home (~/.copilot: hooks/, settings.json,
config.json, session state and logs), the project <root>/proj (the cwd; a git repository when the
scenario asks), capture/ (one file per captured hook run), scratch/ ($S, $M: what hooks append).
Copilot passes its own environment to hooks (less its provider variables), so $M, $S and $CAP
reach them.

Scenario keys used here:
  hooks      the main hook file, ~/.copilot/hooks/main.json (a JSON object, or a string written
             verbatim). Its dialect (the case of its event names, or "dialect") picks the capture
             hooks, which are put first in each event's list of this file: hooks of one file run
             in order, files of one folder in directory order (measured), and a deny stops the
             later hooks, so a capture hook must come first to see every payload.
  dialect    "camel" (native, default) or "pascal" (Claude-style): the capture hooks' dialect when
             the main file cannot tell (a raw string, or no hooks)
  capture    the event names captured (default: every event of the dialect)
  files      more files, {"home/…" or "proj/…": JSON object or text}, no capture added
  env        more environment; otel: true turns on the OpenTelemetry file exporter (otel.jsonl)
  git        true: the project is a git repository; prompt (default "go"); turns (Responses
             turns, default: one bash `touch ran`, then "done"); args: more CLI arguments
"""
import json, os, re, shutil, signal, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("PINTA_SOURCE_DIR") or os.path.abspath(os.path.join(HERE, "../../../.."))
MODEL = "gpt-4.1"
ARGS = ["--allow-all-tools", "--no-auto-update"]

CAMEL_EVENTS = ["sessionStart", "userPromptSubmitted", "userPromptTransformed", "preToolUse", "permissionRequest",
                "postToolUse", "postToolUseFailure", "agentStop", "subagentStart", "subagentStop",
                "errorOccurred", "preCompact", "notification", "sessionEnd"]
PASCAL_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
                 "PostToolUse", "PostToolUseFailure", "Stop", "SubagentStart", "SubagentStop",
                 "PreCompact", "Notification", "ErrorOccurred", "SessionEnd"]


def install_copilot():
    """The launcher from ci/npm-copilot.sh; exit 77 (SKIPPED) when npm or the registry is out."""
    p = subprocess.run(["bash", os.path.join(SRC, "ci/npm-copilot.sh")], capture_output=True, text=True)
    if p.returncode in (3, 4):
        print("[  SKIPPED ] real Copilot CLI unavailable: " + p.stderr.strip())
        sys.exit(77)
    if p.returncode != 0:
        print("ci/npm-copilot.sh failed: " + p.stderr.strip())
        sys.exit(1)
    return p.stdout.strip().splitlines()[-1]


def dialect_of(hooks_obj, default="camel"):
    evs = list((hooks_obj or {}).get("hooks", {}) or {}) if isinstance(hooks_obj, dict) else []
    if any(e[:1].isupper() for e in evs):
        return "pascal"
    if evs:
        return "camel"
    return default


def capture_cmd(label):
    # One file per hook run, named by its start time and the event it was registered for (the
    # native payload names no event).
    return 'cat > "$CAP/$(date +%%s%%N)-$$.%s.json"' % label


def capture_entry(label, dialect):
    if dialect == "camel":
        return {"type": "command", "bash": capture_cmd(label), "timeoutSec": 30}
    # No matcher: every tool (an empty matcher is an error that drops the event's whole list).
    return {"hooks": [{"type": "command", "command": capture_cmd(label)}]}


class Run:
    def __init__(self, root, sc):
        self.root, self.sc = root, sc
        self.home = os.path.join(root, "home")
        self.proj = os.path.join(root, "proj")
        self.cap = os.path.join(root, "capture")
        self.scratch = os.path.join(root, "scratch")
        self.marks = os.path.join(self.scratch, "marks.txt")
        self.api_log = os.path.join(root, "api.jsonl")
        self.otel = os.path.join(root, "otel.jsonl")

    def dialect(self):
        h = self.sc.get("hooks")
        return self.sc.get("dialect") or dialect_of(h if isinstance(h, dict) else None)

    def main_hooks(self):
        """main.json's text: the scenario's hooks with the capture hooks first in each event."""
        h = self.sc.get("hooks")
        if isinstance(h, str):
            return h
        d = self.dialect()
        evs = self.sc.get("capture", CAMEL_EVENTS if d == "camel" else PASCAL_EVENTS)
        out = json.loads(json.dumps(h)) if isinstance(h, dict) else {"version": 1, "hooks": {}}
        hooks = out.setdefault("hooks", {})
        for e in evs:
            # Each entry in its event's dialect: one file may hold both (mixed-file).
            hooks[e] = [capture_entry(e, "pascal" if e[:1].isupper() else "camel")] + list(hooks.get(e, []))
        return json.dumps(out, indent=1, ensure_ascii=False)

    def build(self):
        for d in (self.home, self.proj, self.scratch, self.cap):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
        files = {"home/.copilot/hooks/main.json": self.main_hooks()}
        for rel, content in self.sc.get("files", {}).items():
            files[rel] = content if isinstance(content, str) else json.dumps(content, indent=1, ensure_ascii=False)
        for rel, text in files.items():
            assert rel.startswith(("home/", "proj/")), rel
            p = os.path.join(self.root, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text.replace("<ROOT>", self.root))
        if self.sc.get("git"):
            subprocess.run(["git", "init", "-q", self.proj], check=True)

    def env(self, port):
        e = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": self.home, "LANG": "C.UTF-8",
             "COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:%d/v1" % port,
             "COPILOT_PROVIDER_WIRE_API": "responses", "COPILOT_MODEL": MODEL,
             "COPILOT_PROVIDER_API_KEY": "sk-scripted", "COPILOT_AUTO_UPDATE": "false",
             "CAP": self.cap, "M": self.marks, "S": self.scratch}
        if self.sc.get("otel"):
            e.update({"COPILOT_OTEL_ENABLED": "true", "COPILOT_OTEL_EXPORTER_TYPE": "file",
                      "COPILOT_OTEL_FILE_EXPORTER_PATH": self.otel})
        for k, v in self.sc.get("env", {}).items():
            e[k] = v.replace("<ROOT>", self.root)
        return e

    def run(self, copilot, hostemu, timeout=180):
        script = os.path.join(self.root, "script.json")
        with open(script, "w") as f:
            text = json.dumps({"turns": self.sc["turns"],
                               "whenExhausted": {"content": [{"type": "text", "text": "(script exhausted)"}]}})
            f.write(text.replace("<ROOT>", self.root))
        for p in (self.api_log, self.otel):
            if os.path.exists(p):
                os.remove(p)
        srv = subprocess.Popen([hostemu, "copilot", "model-server", "--script", script, "--log",
                                self.api_log], stdout=subprocess.PIPE, text=True)
        try:
            port = int(srv.stdout.readline().split()[1])
            self.build()
            args = [copilot, "-p", self.sc.get("prompt", "go")] + ARGS + self.sc.get("args", [])
            with open(os.devnull) as dn:
                p = subprocess.run(args, cwd=self.proj, env=self.env(port), stdin=dn, capture_output=True,
                                   timeout=timeout, errors="surrogateescape")
            self.rc, self.stdout, self.stderr = p.returncode, p.stdout, p.stderr
        finally:
            # None: the server was still serving when the CLI finished (else its exit status).
            self.server_exit = srv.poll()
            srv.send_signal(signal.SIGTERM)
            srv.wait()
        self.api = [json.loads(l) for l in open(self.api_log)] if os.path.exists(self.api_log) else []
        names = sorted(os.listdir(self.cap), key=lambda n: tuple(int(x) for x in n.split(".")[0].split("-")))
        self.labels = [n.split(".")[1] for n in names]
        self.raw_payloads = [open(os.path.join(self.cap, n), "rb").read() for n in names]
        self.payloads = []
        for raw in self.raw_payloads:
            try:
                self.payloads.append(json.loads(raw))
            except ValueError:
                self.payloads.append({"<not JSON>": raw.decode("utf-8", "replace")})
        self.spans = []
        if os.path.exists(self.otel):
            for l in open(self.otel):
                try:
                    self.spans.append(json.loads(l))
                except ValueError:
                    pass
        return self
