#!/usr/bin/env python3
"""The third-party hook corpus under the real hosts (conformance/examples/third-party/).

usage: third_party_real.py HOSTEMU [--record] [--only NAME] [--host gemini|claude|codex|copilot|deel]

For every hook of corpus.json and every real host it names (`real`: gemini, claude, codex,
copilot, deel), each of its calls is made by the real CLI, offline, against the project's scripted
model servers (`hostemu model-server`, `hostemu claude|codex|copilot model-server`), or for
deel-local-cli by its seed's own hook runner (hooks.js) at the call's 도구전 point: the hook installed
the way its form is installed (a Gemini extension in ~/.gemini/extensions/, a project's
.gemini/settings.json, a Claude Code plugin by --plugin-dir, a hook file as the user's
~/.codex/hooks.json or ~/.copilot/hooks/*.json with the hook's folder as the project), the model
making that one tool call and then answering. What the host did is recorded: whether the call
ran (the call leaves its `marker` file in the project), the text the model read for it, and which
hook runs the host reported. Without --record each run is compared with the recorded one
(real/<name>.json; outcome and what the model read, normalised); with --record the files are
rewritten. A fixed slice of the runs (emulator/lanes/real_slice.py), all of them under
PINTA_REAL_HOST_FULL=1 or --record. A host whose CLI cannot be installed (npm or its registry
missing, no seed) is SKIPPED with the reason (exit 77 when every host was skipped). The recorded
runs are held to expected.json by conformance/test/third_party.py, without any CLI.
"""
import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "../.."))
CORPUS = os.path.join(SRC, "conformance/examples/third-party")
sys.path.insert(0, os.path.join(SRC, "emulator/hosts/codex/test"))
sys.path.insert(0, os.path.join(SRC, "emulator/hosts/copilot/test"))
sys.path.insert(0, os.path.join(SRC, "emulator/lanes"))

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def norm(text, root):
    text = (text or "").replace(root, "<ROOT>")
    text = UUID.sub("<uuid>", text)
    text = re.sub(r"\d+(\.\d+)? ?(seconds|ms|s)\b", "<t>", text)
    text = re.sub(r"\b\d{4}-\d\d-\d\dT[0-9:.]+Z?", "<time>", text)
    text = re.sub(r"(PGID|PID|pid)(:? )\d+", r"\1\2<n>", text)
    text = re.sub(r"Chunk ID: \w+", "Chunk ID: <id>", text)
    text = re.sub(r"Node\.js v[\d.]+", "Node.js <v>", text)
    text = re.sub(r"(node:internal/[\w/]+):\d+(:\d+)?", r"\1", text)
    return text.strip()


def copy_tree(src, dst):
    shutil.copytree(src, dst, dirs_exist_ok=True, symlinks=True)


def left_files(proj, entry, marker):
    """Files in the project the run left that the hook's own tree does not hold (a hook's logs,
    state), besides the call's marker: evidence of where the hook ran."""
    src = os.path.join(CORPUS, entry["name"])
    out = []
    for d, _, fs in os.walk(proj):
        for f in fs:
            rel = os.path.relpath(os.path.join(d, f), proj)
            if rel != marker and not os.path.exists(os.path.join(src, rel)) and not rel.startswith(".git/"):
                out.append(rel)
    return sorted(out)[:12]


def probe_seen(entry, api_text):
    """Whether the text a context hook injects (corpus.json `probe`) reached the model's requests;
    None for a hook without one."""
    probe = entry.get("probe")
    return None if probe is None else probe in api_text


def serve(argv, log):
    """Start a scripted model server; returns (process, port)."""
    srv = subprocess.Popen(argv + ["--log", log], stdout=subprocess.PIPE, text=True)
    return srv, int(srv.stdout.readline().split()[1])


def stop(srv):
    srv.send_signal(signal.SIGTERM)
    srv.wait()


def npm_bin(script, sub=None):
    p = subprocess.run(["bash", os.path.join(SRC, "ci", script)], capture_output=True, text=True)
    if p.returncode in (3, 4):
        return None, p.stderr.strip() or "npm or its registry is unavailable"
    if p.returncode != 0:
        raise SystemExit("ci/%s failed: %s" % (script, p.stderr.strip()))
    out = p.stdout.strip().splitlines()[-1]
    return (os.path.join(out, sub) if sub else out), None


# ---- Gemini CLI 0.61.0 (shared/reference/real-hosts.md "Gemini CLI 0.61.0 end to end") ---------
GEMINI_SETTINGS = {"general": {"enableAutoUpdate": False}, "telemetry": {"enabled": False},
                   "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
                   "ide": {"enabled": False, "hasSeenNudge": True}, "model": {"name": "gemini-2.5-flash"},
                   "hooksConfig": {"enabled": True}}


def run_gemini(cli, hostemu, entry, how, call, root):
    home, ws = os.path.join(root, "home"), os.path.join(root, "proj")
    os.makedirs(os.path.join(home, ".gemini"))
    os.makedirs(ws)
    with open(os.path.join(home, ".gemini/settings.json"), "w") as f:
        json.dump(GEMINI_SETTINGS, f)
    with open(os.path.join(home, ".gemini/state.json"), "w") as f:
        f.write('{"terminalSetupPromptShown":true}')
    src = os.path.join(CORPUS, entry["name"])
    if how == "extension":
        copy_tree(src, os.path.join(home, ".gemini/extensions", entry["name"]))
    else:
        copy_tree(src, ws)
    if "shell" in call:
        fc = {"name": "run_shell_command", "args": {"command": call["shell"]}}
    else:
        fc = {"name": "write_file", "args": {"file_path": call["write"]["path"], "content": call["write"]["content"]}}
    frame = lambda parts: {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}]}
    script = os.path.join(root, "turns.json")
    with open(script, "w") as f:
        json.dump({"apiKey": "fake-key", "turns": [{"frames": [frame([{"functionCall": fc}])]},
                                                   {"frames": [frame([{"text": "Done."}])]}]}, f)
    log = os.path.join(root, "api.jsonl")
    srv, port = serve([hostemu, "model-server", "--script", script], log)
    try:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "GEMINI_CLI_HOME": home,
               "LANG": "C.UTF-8", "GEMINI_API_KEY": "fake-key", "GEMINI_PTY_INFO": "child_process",
               "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:%d" % port}
        p = subprocess.run(["node", cli, "--approval-mode=yolo", "-p", "go"], cwd=ws, env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace", timeout=180)
    finally:
        stop(srv)
    reqs = [json.loads(l) for l in open(log)] if os.path.exists(log) else []
    api = "\n".join(json.dumps(q, ensure_ascii=False) for q in reqs)
    read = ""
    for q in reqs[-1:]:
        for c in (q.get("body") or {}).get("contents", []):
            for part in c.get("parts", []):
                if "functionResponse" in part:
                    read = json.dumps(part["functionResponse"].get("response"), ensure_ascii=False)
    told = [l for l in p.stderr.splitlines() if "hook" in l.lower() or "Hook" in l]
    return {"ran": os.path.exists(os.path.join(ws, call["marker"])), "model_read": norm(read, root),
            "host_said": [norm(l, root) for l in told][:6], "left": left_files(ws, entry, call["marker"]),
            "probe": probe_seen(entry, api), "rc": p.returncode}


# ---- Claude Code 2.1.332 (real-hosts.md "Claude Code 2.1.332 end to end") -----------------------
def run_claude(cli, hostemu, entry, how, call, root):
    home, proj = os.path.join(root, "home"), os.path.join(root, "proj")
    os.makedirs(home)
    os.makedirs(proj)
    plugin = os.path.join(root, "plugin")
    copy_tree(os.path.join(CORPUS, entry["name"]), plugin)
    if "shell" in call:
        tool = {"type": "tool_use", "id": "toolu_corpus_1", "name": "Bash", "input": {"command": call["shell"]}}
    else:
        tool = {"type": "tool_use", "id": "toolu_corpus_1", "name": "Write",
                "input": {"file_path": os.path.join(proj, call["write"]["path"]), "content": call["write"]["content"]}}
    script = os.path.join(root, "script.json")
    with open(script, "w") as f:
        json.dump({"turns": [{"content": [tool]}, {"content": [{"type": "text", "text": "done"}]}],
                   "whenExhausted": {"content": [{"type": "text", "text": "(more)"}]}}, f)
    log = os.path.join(root, "api.jsonl")
    srv, port = serve([hostemu, "claude", "model-server", "--script", script], log)
    try:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8",
               "ANTHROPIC_BASE_URL": "http://127.0.0.1:%d" % port, "ANTHROPIC_API_KEY": "scripted",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}
        args = [cli, "-p", "go", "--output-format", "stream-json", "--verbose", "--include-hook-events",
                "--allowedTools", "Bash,Write,Edit,Read"]
        if how == "plugin":
            args += ["--plugin-dir", plugin]
        p = subprocess.run(args, cwd=proj, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, errors="replace", timeout=300)
    finally:
        stop(srv)
    stream = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    api = open(log, encoding="utf-8", errors="replace").read() if os.path.exists(log) else ""
    read, hooks = "", []
    for x in stream:
        if x.get("type") == "user" and isinstance(x.get("message", {}).get("content"), list):
            for b in x["message"]["content"]:
                if isinstance(b, dict) and b.get("type") == "tool_result" and b.get("tool_use_id") == "toolu_corpus_1":
                    c = b.get("content")
                    read = c if isinstance(c, str) else "\n".join(
                        str(x.get("text", "")) for x in c if isinstance(x, dict))
        if x.get("type") == "system" and x.get("subtype") == "hook_response":
            hooks.append("%s exit %s %s" % (x.get("hook_name") or x.get("hook_event"), x.get("exit_code"), x.get("outcome")))
    return {"ran": os.path.exists(os.path.join(proj, call["marker"])), "model_read": norm(read, root),
            "host_said": sorted(set(hooks)), "left": left_files(proj, entry, call["marker"]),
            "probe": probe_seen(entry, api), "rc": p.returncode}


# ---- Codex 0.171.0 and Copilot 1.0.102 through their lanes' session drivers ---------------------
def codex_turns(call):
    if "shell" in call:
        first = {"type": "function_call", "name": "exec_command", "arguments": {"cmd": call["shell"]}}
    else:
        body = "".join("+" + l + "\n" for l in call["write"]["content"].split("\n"))
        first = {"type": "custom_tool_call", "name": "apply_patch",
                 "input": "*** Begin Patch\n*** Add File: %s\n%s*** End Patch\n" % (call["write"]["path"], body)}
    return [{"content": [first]}, {"content": [{"type": "text", "text": "done"}]}]


def tool_read(api):
    ok = [r for r in api if r.get("status") == 200]
    outs = ok[-1]["toolOutputs"] if ok else []
    return "\n".join(o["output"] if isinstance(o["output"], str) else json.dumps(o["output"]) for o in outs)


def run_codex(cli, hostemu, entry, how, call, root):
    import codex_session

    class Run(codex_session.Run):
        def build(self, port):
            super().build(port)
            copy_tree(os.path.join(CORPUS, entry["name"]), self.proj)

        def env(self):
            return dict(super().env(), **{k: v.replace("<ROOT>", self.root) for k, v in call.get("env", {}).items()})

    with open(os.path.join(CORPUS, entry["name"], grade_config(entry, "codex")), encoding="utf-8") as f:
        text = f.read()
    r = Run(root, {"hooks_json_raw": text, "capture": [], "turns": codex_turns(call)}).run(cli, hostemu)
    said = [l for l in (r.stdout + "\n" + r.stderr).splitlines() if "hook" in l.lower()
            and "dangerously-bypass-hook-trust" not in l]
    return {"ran": os.path.exists(os.path.join(r.proj, call["marker"])), "model_read": norm(tool_read(r.api), root),
            "host_said": sorted(set(norm(l, root)[:200] for l in said))[:6],
            "left": left_files(r.proj, entry, call["marker"]), "rc": r.rc}


def run_copilot(cli, hostemu, entry, how, call, root):
    import copilot_session

    class Run(copilot_session.Run):
        def build(self):
            super().build()
            copy_tree(os.path.join(CORPUS, entry["name"]), self.proj)
            # The hook file is installed in ~/.copilot/hooks/ (user-file, as recorded); its copy
            # at .github/hooks/ would load a second time as a repository hook in a trusted folder.
            os.remove(os.path.join(self.proj, grade_config(entry, "copilot")))

    with open(os.path.join(CORPUS, entry["name"], grade_config(entry, "copilot")), encoding="utf-8") as f:
        text = f.read()
    if "shell" in call:
        first = {"type": "function_call", "name": "bash", "arguments": {"command": call["shell"], "description": "run"}}
    else:
        first = {"type": "function_call", "name": "create",
                 "arguments": {"path": "<ROOT>/proj/" + call["write"]["path"], "file_text": call["write"]["content"]}}
    sc = {"hooks": text, "turns": [{"content": [first]}, {"content": [{"type": "text", "text": "done"}]}],
          "env": call.get("env", {})}
    r = Run(root, sc).run(cli, hostemu)
    said = [l for l in (r.stdout + "\n" + r.stderr).splitlines() if "hook" in l.lower()]
    return {"ran": os.path.exists(os.path.join(r.proj, call["marker"])), "model_read": norm(tool_read(r.api), root),
            "host_said": sorted(set(norm(l, root)[:200] for l in said))[:6],
            "left": left_files(r.proj, entry, call["marker"]), "rc": r.rc}


# ---- deel-local-cli 1.17.1: the seed's own hook runner (conformance/test/deel-judge-setup.sh) ----
def deel_judge():
    j = tempfile.mkdtemp(prefix="pinta-3p-deel-judge-")
    atexit.register(shutil.rmtree, j, True)
    p = subprocess.run(["bash", os.path.join(HERE, "deel-judge-setup.sh"), os.path.join(SRC, "../shared/seeds"), SRC, j],
                       capture_output=True, text=True)
    if p.returncode == 3:
        return None, p.stderr.strip()
    if p.returncode != 0:
        raise SystemExit("deel-judge-setup.sh failed: " + p.stderr.strip())
    return j, None


def run_deel(judge, hostemu, entry, how, call, root):
    """The file read by the seed's 훅펴기 (a Claude-shaped file as well), its 도구전 hooks run by
    자리돌리기 for a Bash call (payload as deel gives it: 도구 and the tool's input)."""
    proj = os.path.join(root, "proj")
    copy_tree(os.path.join(CORPUS, entry["name"]), proj)
    with open(os.path.join(CORPUS, entry["name"], grade_config(entry, "deel")), encoding="utf-8") as f:
        config = json.load(f)
    cases = os.path.join(root, "cases.json")
    with open(cases, "w") as f:
        json.dump([{"id": "c", "config": config, "event": "도구전", "tool": "Bash",
                    "payload": {"command": call["shell"]}, "cwd": proj}], f, ensure_ascii=False)
    os.makedirs(os.path.join(root, "home"))
    env = dict(os.environ, HOME=os.path.join(root, "home"),
               **{k: v.replace("<ROOT>", root) for k, v in call.get("env", {}).items()})
    p = subprocess.run(["node", os.path.join(judge, "judge.mjs"), cases], env=env, capture_output=True,
                       text=True, errors="replace", timeout=120)
    r = json.loads(p.stdout.splitlines()[-1])
    return {"ran": not r["blocked"], "model_read": norm(r["message"] or "", root),
            "host_said": ["code %s%s" % (r["code"], ", " + norm(r["why"], root)[:160] if r["why"] else "")],
            "left": left_files(proj, entry, call["marker"]), "rc": 0}


HOSTS = {
    "gemini": ("Gemini CLI 0.61.0", lambda: npm_bin("npm-hosts.sh", "node_modules/@google/gemini-cli/bundle/gemini.js"), run_gemini),
    "claude": ("Claude Code 2.1.332", lambda: npm_bin("npm-claude.sh"), run_claude),
    "codex": ("Codex CLI 0.171.0", lambda: npm_bin("npm-codex.sh"), run_codex),
    "copilot": ("Copilot CLI 1.0.102", lambda: npm_bin("npm-copilot.sh"), run_copilot),
    "deel": ("deel-local-cli 1.17.1 (seed hooks.js)", deel_judge, run_deel),
}
GRADE_HOST = {"gemini": "gemini-", "claude": "claude-code-", "codex": "codex-", "copilot": "copilot-", "deel": "deel-"}


def grade_config(entry, host):
    return next(u["config"] for u in entry["grade"] if u["host"].startswith(GRADE_HOST[host]))


def load(name):
    with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
        return json.load(f)


def calls_of(entry, host):
    """The calls made under `host`: corpus.json's calls, and where the hook names a control
    (`control`: an environment for some hosts) each call again with it, named "<call>+env"."""
    out = list(entry["calls"])
    ctl = entry.get("control")
    if ctl and host in ctl["hosts"]:
        out += [dict(c, name=c["name"] + "+env", env=ctl["env"]) for c in entry["calls"]]
    return out


def units(only=None, host=None):
    for e in load("corpus.json")["hooks"]:
        if only and e["name"] != only:
            continue
        for h, how in e["real"].items():
            if host and h != host:
                continue
            for call in calls_of(e, h):
                yield e, h, how, call


def outcome(obs):
    return "ran" if obs["ran"] else "blocked"


def recorded(name):
    path = os.path.join(CORPUS, "real", name + ".json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    hostemu = argv[1]
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    want_host = argv[argv.index("--host") + 1] if "--host" in argv else None
    record = "--record" in argv
    todo = list(units(only, want_host))
    import real_slice
    names = ["%s/%s/%s" % (e["name"], h, c["name"]) for e, h, _, c in todo]
    keep = set(names) if record else \
        {s["name"] for s in real_slice.select([{"name": n} for n in names], lane="third_party_real", cap=4)}
    todo = [u for u, n in zip(todo, names) if n in keep]
    clis = {}
    for h in sorted({u[1] for u in todo}):  # only the hosts the runs need
        cli, why = HOSTS[h][1]()
        if cli is None:
            print("SKIPPED %s: %s" % (HOSTS[h][0], why))
        else:
            clis[h] = cli
    new = {}
    bad = 0
    for e, h, how, call in todo:
        if h not in clis:
            continue
        root = tempfile.mkdtemp(prefix="pinta-3p-")
        try:
            obs = HOSTS[h][2](clis[h], hostemu, e, how, call, root)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        tool = (call.get("shell") or "write %s" % call["write"]["path"]) + \
            "".join(" [%s=%s]" % kv for kv in sorted(call.get("env", {}).items()))
        run = {"host": HOSTS[h][0], "installed_as": how, "call": call["name"], "tool": tool,
               "outcome": outcome(obs), "model_read": obs["model_read"][:600], "host_said": obs["host_said"],
               "left_in_project": obs["left"]}
        if obs.get("probe") is not None:
            run["probe_reached_model"] = obs["probe"]
        new.setdefault(e["name"], []).append(run)
        rec = recorded(e["name"])
        old = next((r for r in (rec or {}).get("runs", []) if r["host"] == run["host"] and r["call"] == run["call"]), None)
        same = old is not None and old["outcome"] == run["outcome"] and old["model_read"] == run["model_read"]
        print("%s %-34s %-20s %-7s %s; the model read %r" % ("ok  " if same or record else "DIFF", e["name"], run["host"],
              call["name"], run["outcome"], run["model_read"][:90]))
        if not same and not record:
            bad += 1
            print("      recorded: %s" % ("none" if old is None else "%s; the model read %r" % (old["outcome"], old["model_read"][:90])))
    if record:
        os.makedirs(os.path.join(CORPUS, "real"), exist_ok=True)
        for name, runs in new.items():
            rec = recorded(name) or {}
            keep_runs = [r for r in rec.get("runs", []) if not any(r["host"] == n["host"] and r["call"] == n["call"] for n in runs)]
            out = {"about": "What the real hosts did with this hook (conformance/test/third_party_real.py --record): "
                            "per host and call, whether the call ran (its marker file appeared) or was blocked, the text "
                            "the model read for it and the hook runs the host reported. Offline, scripted model; "
                            "<ROOT> is the run's temp root.",
                   "recorded_with": sorted({r["host"] for r in keep_runs + runs}),
                   "last_recorded": time.strftime("%Y-%m-%d", time.gmtime()),
                   "runs": sorted(keep_runs + runs, key=lambda r: (r["host"], r["call"]))}
            with open(os.path.join(CORPUS, "real", name + ".json"), "w", encoding="utf-8") as f:
                json.dump(out, f, indent=1, ensure_ascii=False)
                f.write("\n")
    if not clis:
        return 77
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
