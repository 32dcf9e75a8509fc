#!/usr/bin/env python3
"""Asks a real Codex CLI what its hook discovery makes of a config layout (the evidence "HL" in
hosts/codex/src/codex.cc and test/codex_test.cc).

Codex's app-server answers `hooks/list` with every hook it found: its trust key, the normalised
fields (matcher kept or dropped, timeout after defaults and clamps), the hash `[hooks.state]`
must record (`currentHash`), the trust status and the discovery warnings. Offline: only the
app-server's stdio is used, in a temporary HOME/CODEX_HOME.

  probe_hooks_list.py CODEX_BINARY LAYOUT.json
LAYOUT.json maps paths relative to a fresh temporary root ("home/hooks.json",
"proj/.codex/config.toml", …) to file contents; "@ROOT@" in a content is replaced by that root.
The answer is printed with the root replaced by "@ROOT@" again. Not run by ctest (it needs the
CLI: ci/npm-codex.sh installs it).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def hooks_list(binary, layout, cwd_rel="proj", timeout_s=20):
    root = tempfile.mkdtemp(prefix="codex-hooks-list-")
    try:
        for rel, text in layout.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace("@ROOT@", root))
        os.makedirs(os.path.join(root, "home"), exist_ok=True)
        cwd = os.path.join(root, cwd_rel)
        os.makedirs(cwd, exist_ok=True)
        env = dict(os.environ, HOME=root, CODEX_HOME=os.path.join(root, "home"))
        requests = [
            {"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "probe", "version": "1"}}},
            {"method": "initialized"},
            {"id": 2, "method": "hooks/list", "params": {"cwds": [cwd]}},
        ]
        proc = subprocess.Popen([binary, "app-server"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                text=True)
        try:
            proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
            proc.stdin.flush()
            deadline = time.time() + timeout_s
            while time.time() < deadline:
                line = proc.stdout.readline()
                if not line:
                    break
                msg = json.loads(line)
                if msg.get("id") == 2:
                    return json.loads(json.dumps(msg).replace(root, "@ROOT@"))
            return None
        finally:
            proc.kill()
            proc.wait()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[2], encoding="utf-8") as f:
        layout = json.load(f)
    answer = hooks_list(sys.argv[1], layout)
    if answer is None:
        print("no hooks/list answer", file=sys.stderr)
        return 1
    print(json.dumps(answer, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
