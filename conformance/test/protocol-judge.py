#!/usr/bin/env python3
"""Judges the protocol profile's verdicts against the real hosts (conformance/test/protocol-hooks.sh).

usage: protocol-judge.py gemini REPORT.json EXAMPLES_DIR NPM_PREFIX HOOK_DRIVER WORK_DIR
       protocol-judge.py deel   REPORT.json EXAMPLES_DIR JUDGE_DIR WORK_DIR

Every registration the profile graded (HOOK-NNNN in report.json, with the payload it sent) is run
again by the real host's own code: Gemini CLI 0.61.0's HookRunner (@google/gemini-cli-core, through
emulator/hosts/gemini/real/hook_driver.mjs), or deel-local-cli 1.17.1's hooks.js extracted from the
seed (conformance/test/deel-judge.mjs). Each example hook states its intent in a header line
("intent: allow | deny | context"); the real host honoured the hook when it did what the hook
means, the way the hook means it:
  allow    the host goes on with nothing to show: a clean exit, no text reply, no decision
           other than allow, no message (deel: nothing printed);
  deny     the host blocks, by the hook's answer (Gemini: exit 2 or a deny/block decision; deel:
           exit 2) with a reason it shows;
  context  Gemini reads hookSpecificOutput.additionalContext from a JSON reply on exit 0;
and in every case it did so without a timeout, and without waiting for the hook's leftovers (the
host's run took at most 1.5 s longer than the hook's own process, as the profile measured it).
The profile's verdict must be PASS exactly when the real host honoured the hook; a difference,
or a set of hooks that does not show both verdicts, fails.
"""
import json
import os
import subprocess
import sys


def intent_of(command, examples):
    for word in command.split():
        path = os.path.join(examples, word)
        if os.path.isfile(path):
            for line in open(path, encoding="utf-8"):
                if "intent:" in line:
                    return line.split("intent:", 1)[1].strip()
    raise SystemExit(f"protocol-judge: no 'intent:' line in the script of {command!r}")


def blank(s):
    return not (s or "").strip()


def graded(report):
    out = []
    for c in json.load(open(report))["cases"]:
        h = c["hosts"][0]
        if not h.get("runs"):
            raise SystemExit(f"protocol-judge: {c['id']} has no run ({h['state']})")
        out.append((c, h["runs"][0]))
    return out


def gemini(report, examples, prefix, driver, work):
    cases = graded(report)
    os.makedirs(os.path.join(work, "plans"), exist_ok=True)
    os.makedirs(os.path.join(work, "home"), exist_ok=True)
    lines = []
    for c, run in cases:
        lines.append(json.dumps({"id": c["id"], "event": run["event"], "command": run["command"],
                                 "timeout": run["timeout_ms"], "source": "project",
                                 "plans_dir": os.path.join(work, "plans"), "input": run["payload"]}))
    cin, cout = os.path.join(work, "cases.jsonl"), os.path.join(work, "results.jsonl")
    open(cin, "w").write("\n".join(lines) + "\n")
    env = dict(os.environ, HOME=os.path.join(work, "home"))
    subprocess.run(["node", driver, prefix, cin, cout, "2"], cwd=examples, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    real = {r["id"]: r for r in map(json.loads, open(cout).read().split("\n")[:-1])}

    def honoured(intent, r, run):
        if r.get("error") or r.get("exitCode") is None:
            return False, f"error {r.get('error')!r}"
        if (r.get("duration") or 0) - run["exited_ms"] > 1500:
            return False, f"waited {r['duration']:.0f} ms for a hook that exited after {run['exited_ms']:.0f} ms"
        out, fmt, code = r.get("output"), r.get("outputFormat"), r.get("exitCode")
        decision = out.get("decision") if isinstance(out, dict) else None
        if intent == "allow":
            ok = code == 0 and fmt != "text" and decision in (None, "allow", "approve")
        elif intent == "deny":
            reason = out.get("reason") if isinstance(out, dict) else None
            ok = decision in ("deny", "block") and not blank(reason)
        elif intent == "context":
            ctx = (out or {}).get("hookSpecificOutput", {}) if isinstance(out, dict) else {}
            ok = code == 0 and fmt == "json" and not blank(ctx.get("additionalContext"))
        else:
            raise SystemExit(f"protocol-judge: unknown intent {intent}")
        return ok, f"exit {code}, outputFormat {fmt}, decision {decision}"

    return compare(cases, examples, lambda c, run: honoured(intent_of(run["command"], examples),
                                                            real[c["id"]], run), "Gemini CLI 0.61.0 HookRunner")


def deel(report, examples, judge_dir, work):
    cases = graded(report)
    todo = []
    for c, run in cases:
        path, _, pointer = c["source"].partition("#")
        entries = json.load(open(path, encoding="utf-8"))
        entry = entries[int(pointer.rsplit("/", 1)[1])]
        payload = dict(run["payload"])
        tool = payload.pop("도구", None)
        todo.append({"id": c["id"], "entry": entry, "event": run["event"], "tool": tool,
                     "payload": payload, "cwd": examples})
    os.makedirs(work, exist_ok=True)
    cin = os.path.join(work, "deel-cases.json")
    json.dump(todo, open(cin, "w"), ensure_ascii=False)
    env = dict(os.environ, HOME=os.path.join(work, "home"))
    os.makedirs(env["HOME"], exist_ok=True)
    p = subprocess.run(["node", os.path.join(judge_dir, "judge.mjs"), cin], env=env, check=True,
                       capture_output=True, text=True, timeout=600)
    real = {r["id"]: r for r in map(json.loads, p.stdout.splitlines())}

    def honoured(c, run):
        r, intent = real[c["id"]], intent_of(run["command"], examples)
        if r["why"]:
            return False, r["why"]
        if r["ms"] - run["exited_ms"] > 1500:
            return False, f"waited {r['ms']} ms for a hook that exited after {run['exited_ms']:.0f} ms"
        if intent == "allow":
            ok = r["code"] == 0 and not r["blocked"] and blank(r["message"])
        elif intent == "deny":
            ok = r["blocked"] and r["code"] == 2 and not blank(r["message"])
        else:
            raise SystemExit(f"protocol-judge: intent {intent} has no deel-local-cli meaning")
        return ok, f"code {r['code']}, blocked {r['blocked']}, message {r['message'][:50]!r}"

    return compare(cases, examples, honoured, "deel-local-cli 1.17.1 hooks.js (seed)")


def compare(cases, examples, honoured, judge):
    bad = 0
    seen = set()
    for c, run in cases:
        ok, why = honoured(c, run)
        verdict = c["state"]
        seen.add(verdict)
        agree = (verdict == "PASS") == ok
        bad += not agree
        first = c["hosts"][0]["failures"][:1]
        print(f"{'ok ' if agree else 'DIFF'} {c['id']} {c['title'][:60]:<60} profile {verdict:<4}"
              f" | {judge}: {'honoured' if ok else 'not honoured'} ({why})"
              + (f"\n       profile: {first[0]}" if first else ""))
    if seen != {"PASS", "FAIL"}:
        print(f"protocol-judge: the hooks show only {sorted(seen)}; both verdicts are needed")
        bad += 1
    print(f"protocol-judge: {len(cases) - bad} of {len(cases)} verdicts agree with {judge}")
    return 1 if bad else 0


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "gemini":
        sys.exit(gemini(*sys.argv[2:7]))
    if mode == "deel":
        sys.exit(deel(*sys.argv[2:6]))
    raise SystemExit("usage: protocol-judge.py gemini|deel ...")
