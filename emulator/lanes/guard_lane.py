"""emulator/lanes/guard_lane.py — what every real-host guard lane shares.

A family's guard lane (emulator/hosts/<folder>/test/real_host_guard.py) runs the real CLI with our
adapter as its hook, once per scenario, each against a fake guard (`pinta-fake-server`) answering
one decision or against a port nothing listens on. The family's file says how its CLI runs and
what it must have done; this module starts and stops the guards, reads what they were asked, runs
the scenarios, prints the verdicts and proves that every check can fail.
"""
import concurrent.futures as cf
import json
import os
import shutil
import socket
import subprocess
import time


def start_fake_guard(fake, root, name, decision, reason):
    """A pinta-fake-server answering every request with {decision, reason}: (process, url, log)."""
    script, log = os.path.join(root, name + "-guard.json"), os.path.join(root, name + "-guard.jsonl")
    with open(script, "w") as f:
        json.dump({"fallback": {"status": 200, "body": {"decision": decision, "reason": reason}}}, f)
    srv = subprocess.Popen([fake, "--script", script, "--log", log], stdout=subprocess.PIPE, text=True)
    line = srv.stdout.readline().split()
    if len(line) != 2 or line[0] != "port":
        srv.kill()
        raise RuntimeError("pinta-fake-server did not start")
    return srv, "http://127.0.0.1:%s/guard" % line[1], log


def refused_url():
    """A loopback port nothing listens on: bound by the kernel's choice, then closed."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return "http://127.0.0.1:%d/guard" % port


def guard_requests(log):
    """The request bodies a fake guard logged, parsed; [] without a log."""
    out = []
    if log and os.path.exists(log):
        for line in open(log):
            if line.strip():
                try:
                    out.append(json.loads(json.loads(line)["body"]))
                except (ValueError, KeyError):
                    out.append({"unparsed": line})
    return out


def run_scenario(base, fake, name, decision, reason, run, observe, scenario_checks):
    """One scenario in base/name: the guard (decision None: nothing listening), run(root, url) →
    the finished run (rc, stderr), observe(run) → what the CLI did, scenario_checks(name, o, reqs).
    Returns (name, checks, seconds, observed, guard requests)."""
    root = os.path.join(base, name)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    srv, log = None, None
    try:
        if decision is None:
            url = refused_url()
        else:
            srv, url, log = start_fake_guard(fake, root, name, decision, reason)
        t0 = time.monotonic()
        r = run(root, url)
        took = time.monotonic() - t0
    finally:
        if srv is not None:
            srv.terminate()
            srv.wait()
    o = observe(r)
    reqs = guard_requests(log)
    checks = scenario_checks(name, o, reqs)
    if r.rc != 0:
        checks.append((False, "the CLI exited %d: %s" % (r.rc, r.stderr.strip()[-400:])))
    return name, checks, took, o, reqs


def prove_checks_can_fail(observed, scenario_checks):
    """Every check of a scenario must fail on some other run's evidence: another scenario's session
    and guard log, or this session with another run's guard log (a request of another session).
    A check no such pairing fails could not catch a broken adapter; it counts as a failure."""
    if len(observed) < 2:
        return 0  # --only: nothing to pair with
    weak = 0
    for name, (o, reqs) in observed.items():
        n = len(scenario_checks(name, o, reqs))
        caught = [False] * n
        pairs = [(o2, r2) for other, (o2, r2) in observed.items() if other != name]
        pairs += [(o, r2) for other, (_, r2) in observed.items() if other != name and r2]
        for o2, r2 in pairs:
            for i, (ok, _) in enumerate(scenario_checks(name, o2, r2)[:n]):
                caught[i] = caught[i] or not ok
        for i, (ok, m) in enumerate(scenario_checks(name, o, reqs)):
            if not caught[i]:
                weak += 1
                print("WEAK %s: this check passed on every other run's evidence too: %s" % (name, m))
    print("every check failed on some other run's evidence: %s" % ("no" if weak else "yes"))
    return weak


def run_lane(scenarios, one, jobs, scenario_checks, every):
    """Runs one(scenario) (run_scenario's result) for each of `scenarios` on `jobs` threads, prints
    each verdict and its checks (names padded to the longest of `every` name), then the weak-check
    proof; returns the number of failed checks (weak ones included)."""
    width = max(len(n) for n in every) + 1
    failures = 0
    observed = {}
    with cf.ThreadPoolExecutor(jobs) as ex:
        for name, checks, took, o, reqs in ex.map(one, scenarios):
            observed[name] = (o, reqs)
            bad = [m for ok, m in checks if not ok]
            failures += len(bad)
            print("%-*s %s  %d checks, %.1f s" % (width, name, "OK  " if not bad else "FAIL", len(checks), took))
            for ok, m in checks:
                print("   %s %s" % ("PASS" if ok else "FAIL", m))
    failures += prove_checks_can_fail(observed, scenario_checks)
    print("scenarios: %d, failed checks: %d" % (len(scenarios), failures))
    return failures
