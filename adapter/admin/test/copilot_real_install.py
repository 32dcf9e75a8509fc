#!/usr/bin/env python3
"""Real-host lane for `pinta-gemini install --host copilot`: does an install made by our installer
make the real GitHub Copilot CLI 1.0.102 run our adapter, with no bypass (no trust step, no
environment opt-in, no flag beyond the offline lane's own), and does uninstall leave the files as
they were?

CPM (docs/hosts/copilot-1.0.md "Measured on 1.0.102"): ~/.copilot/hooks/*.json load in `-p` with no
trust step (c-baseline); a native preToolUse reply {"permissionDecision":"deny",…} keeps the call
from running and the model reads `Denied by preToolUse hook: R` (c-pre-deny); any non-zero exit
denies (c-pre-exit1), so the guard being down must still let the call run. One temp HOME with a
hook file of the user's own (~/.copilot/hooks/mine.json, which must stay byte for byte and keep
running), the real pinta-gemini as installed by pinta-gemini-admin, a fake guard
(pinta-fake-server) answering one decision, the scripted Responses model (hostemu's model server,
emulator/hosts/copilot/test/copilot_session.py) asking for one bash `touch ran`. Runs:

  deny       guard DENY: the command does not run, the model reads our reason; the guard was asked
             for that call; the user's own hook ran too.
  allow      guard ALLOW: the command runs.
  down       no guard listening: the command runs (our exit 0 keeps the fail-closed gate open).
  repo       --workspace install into an untrusted project: does not run (doctor says so, exit 1);
             trusted in ~/.copilot/config.json: the DENY blocks.
  uninstall  both installs taken back: the hook folders hold exactly what they held before.

Usage: copilot_real_install.py --admin PATH [--keep DIR]. pinta-gemini, hostemu and
pinta-fake-server are looked up beside PATH (or $HOSTEMU, $FAKE_SERVER). Exit 0: every check
passed; 1: a failure (printed); 77: SKIPPED (npm or its registry is out of reach).
"""
import argparse, json, os, shutil, signal, subprocess, sys, tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
SRC = os.environ.get("PINTA_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
sys.path.insert(0, os.path.join(SRC, "emulator/hosts/copilot/test"))
sys.path.insert(0, os.path.join(SRC, "emulator/lanes"))
import copilot_session  # noqa: E402  (install_copilot, the run environment)
from guard_lane import refused_url, start_fake_guard  # noqa: E402  (emulator/lanes: the guards)

REASON = "pinta real-install lane: denied"
# CPM c-baseline: the events a `-p` run with one bash call fires that install registers
# (permissionRequest fires too, and is not registered).
FIRED = ["sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "agentStop", "sessionEnd"]
TURNS = [
    {"content": [{"type": "function_call", "name": "bash",
                  "arguments": {"command": "touch ran", "description": "touch"}}]},
    {"content": [{"type": "text", "text": "done"}]},
]


def tree(d):
    """Every file under d with its bytes (the hook folders the lane compares)."""
    out = {}
    for base, _, files in os.walk(d):
        for n in files:
            p = os.path.join(base, n)
            out[os.path.relpath(p, d)] = open(p, "rb").read()
    return out


def find_tool(admin, name, env_key):
    p = os.environ.get(env_key) or os.path.join(os.path.dirname(admin), name)
    if not os.access(p, os.X_OK):
        print("%s not found at %s (build it, or set %s)" % (name, p, env_key))
        sys.exit(1)
    return p


def start_guard(fake, root, name, decision):
    return start_fake_guard(fake, root, name, decision, REASON)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--admin", required=True)
    ap.add_argument("--keep", help="keep the run's files in this folder")
    a = ap.parse_args()
    admin = os.path.abspath(a.admin)
    adapter = find_tool(admin, "pinta-gemini", "PINTA_GEMINI")
    hostemu = find_tool(admin, "hostemu", "HOSTEMU")
    fake = find_tool(admin, "pinta-fake-server", "FAKE_SERVER")
    copilot = copilot_session.install_copilot()
    root = a.keep or tempfile.mkdtemp(prefix="pinta-copilot-install-")
    os.makedirs(root, exist_ok=True)
    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    home, proj, scratch = (os.path.join(root, d) for d in ("home", "proj", "scratch"))
    for d in (home, proj, scratch):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    hooks_dir = os.path.join(home, ".copilot/hooks")
    user_marks = os.path.join(scratch, "user-hook.txt")
    mine = ('{\n  "version": 1,\n  "hooks": {\n    "preToolUse": [\n      {"type": "command", '
            '"bash": "cat >/dev/null; echo mine >> %s"}\n    ]\n  }\n}\n' % user_marks)
    os.makedirs(hooks_dir)
    with open(os.path.join(hooks_dir, "mine.json"), "w") as f:
        f.write(mine)
    before_hooks = tree(hooks_dir)
    admin_env = {"PATH": "/usr/bin:/bin", "HOME": home}

    def run_admin(*args):
        return subprocess.run([admin, *args], env=admin_env, capture_output=True, text=True)

    def session(name, guard_url, extra=None):
        """One `copilot -p` run; (ran, model_read, exit status)."""
        marker = os.path.join(proj, "ran")
        if os.path.exists(marker):
            os.remove(marker)
        for p in (user_marks,):
            if os.path.exists(p):
                os.remove(p)
        script, api_log = os.path.join(root, name + "-script.json"), os.path.join(root, name + "-api.jsonl")
        with open(script, "w") as f:
            json.dump({"turns": TURNS, "whenExhausted": {"content": [{"type": "text", "text": "(end)"}]}}, f)
        srv = subprocess.Popen([hostemu, "copilot", "model-server", "--script", script, "--log", api_log],
                               stdout=subprocess.PIPE, text=True)
        try:
            port = int(srv.stdout.readline().split()[1])
            env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8",
                   "COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:%d/v1" % port,
                   "COPILOT_PROVIDER_WIRE_API": "responses", "COPILOT_MODEL": copilot_session.MODEL,
                   "COPILOT_PROVIDER_API_KEY": "sk-scripted", "COPILOT_AUTO_UPDATE": "false",
                   "PINTA_GUARD_ENDPOINT": guard_url, "PINTA_GUARD_TIMEOUT_MS": "2000",
                   "GEMINI_PLUGIN_DATA": os.path.join(root, "data")}
            env.update(extra or {})
            with open(os.devnull) as dn:
                p = subprocess.run([copilot, "-p", "go"] + copilot_session.ARGS, cwd=proj, env=env,
                                   stdin=dn, capture_output=True, text=True, timeout=180)
        finally:
            srv.send_signal(signal.SIGTERM)
            srv.wait()
        api = open(api_log).read() if os.path.exists(api_log) else ""
        return os.path.exists(marker), api, p.returncode

    def asked(log):
        """Guard requests about the bash call (the fake guard's log: one JSON line a request)."""
        n = 0
        if os.path.exists(log):
            for line in open(log):
                if "touch ran" in line:
                    n += 1
        return n

    try:
        p = run_admin("install", "--host", "copilot", "--adapter", adapter)
        check(p.returncode == 0, "install exits 0 (%s)" % (p.stderr.strip() or p.stdout.strip()))
        ours = os.path.join(hooks_dir, "pinta-gemini.json")
        check(os.path.exists(ours), "install wrote ~/.copilot/hooks/pinta-gemini.json")
        check(open(os.path.join(hooks_dir, "mine.json")).read() == mine,
              "the user's own hook file is byte for byte as it was")
        d = run_admin("doctor", "--host", "copilot", "--no-network")
        check("registered for every Copilot CLI event" in d.stdout,
              "doctor: registered for every event (exit %d)" % d.returncode)

        srv, url, log = start_guard(fake, root, "deny", "DENY")
        try:
            ran, api, rc = session("deny", url)
        finally:
            srv.kill()
            srv.wait()
        check(not ran, "deny: the command did not run")
        check("Denied by preToolUse hook: " + REASON in api,
              "deny: the model read `Denied by preToolUse hook: <our reason>`")
        check(asked(log) >= 1, "deny: the guard was asked about the bash call (%d)" % asked(log))

        srv, url, log = start_guard(fake, root, "allow", "ALLOW")
        try:
            ran, api, rc = session("allow", url, {"PINTA_GEMINI_DEBUG": "1"})
        finally:
            srv.kill()
            srv.wait()
        check(ran and asked(log) >= 1, "allow: the guard was asked and the command ran")
        # (After a deny the later hooks of the event do not run, CPM c-pre-deny-then-second, and
        # the files of one folder run in directory order: the user's hook is checked on the allow.)
        check(os.path.exists(user_marks), "allow: the user's own preToolUse hook ran as well")
        # Our adapter's own record of each run (PINTA_GEMINI_DEBUG: data dir invocations.jsonl).
        inv = os.path.join(root, "data", "invocations.jsonl")
        events = []
        if os.path.exists(inv):
            for line in open(inv):
                argv = (json.loads(line).get("argv") or []) if line.strip() else []
                if "--agent" in argv and "--event" in argv:
                    if argv[argv.index("--agent") + 1] == "copilot":
                        events.append(argv[argv.index("--event") + 1])
        check(all(e in events for e in FIRED),
              "allow: our adapter ran as --agent copilot for %s (ran for: %s)" % (", ".join(FIRED), events))

        ran, api, rc = session("down", refused_url())
        check(ran and "Denied by preToolUse hook" not in api,
              "down: no guard listening, the command ran (exit 0, never fail-closed)")

        # Project scope: .github/hooks/ of an untrusted folder is not read (CPM src-repo-untrusted).
        run_admin("uninstall", "--host", "copilot")
        w = run_admin("install", "--host", "copilot", "--workspace", proj, "--adapter", adapter)
        check(w.returncode == 0 and "trusted folder" in w.stderr,
              "install --workspace exits 0 and says it needs a trusted folder (%s)" % w.stderr.strip())
        admin_dir = proj
        d = subprocess.run([admin, "doctor", "--host", "copilot", "--no-network"], env=admin_env,
                           cwd=admin_dir, capture_output=True, text=True)
        check(d.returncode == 1 and "not trusted" in d.stdout,
              "doctor in the untrusted project: broken, not trusted (exit %d)" % d.returncode)
        srv, url, log = start_guard(fake, root, "repo-untrusted", "DENY")
        try:
            ran, api, rc = session("repo-untrusted", url)
        finally:
            srv.kill()
            srv.wait()
        check(ran and asked(log) == 0, "untrusted project: our hook does not run, the command runs")
        config = os.path.join(home, ".copilot/config.json")
        # Copilot writes config.json itself, with `//` comment lines above the object.
        text = open(config).read() if os.path.exists(config) else "{}"
        comments = "".join(l for l in text.splitlines(True) if l.lstrip().startswith("//"))
        cfg = json.loads("".join(l for l in text.splitlines(True) if not l.lstrip().startswith("//")))
        cfg["trustedFolders"] = [proj]
        with open(config, "w") as f:
            f.write(comments + json.dumps(cfg, indent=2) + "\n")
        srv, url, log = start_guard(fake, root, "repo-trusted", "DENY")
        try:
            ran, api, rc = session("repo-trusted", url)
        finally:
            srv.kill()
            srv.wait()
        check(not ran and asked(log) >= 1, "trusted project: the guard's DENY blocks the command")

        u = run_admin("uninstall", "--host", "copilot", "--workspace", proj)
        check(u.returncode == 0, "uninstall --workspace exits 0 (%s)" % u.stderr.strip())
        check(not os.path.exists(os.path.join(proj, ".github")),
              "uninstall --workspace: .github/hooks/pinta-gemini.json and the folders it made are gone")
        check(tree(hooks_dir) == before_hooks,
              "uninstall: ~/.copilot/hooks holds exactly the user's file, byte for byte")
    finally:
        if not a.keep:
            shutil.rmtree(root, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
