"""emulator/lanes/real_slice.py — which hand scenarios a real-CLI differential lane runs.

A lane's full scenario set is a long sweep (each scenario is one or more runs of a real CLI, one
to several seconds each); the README's test command runs a fixed slice of it and CI's real-host
stage runs all of it (ci/real-hosts.sh, PINTA_REAL_HOST_FULL=1). The slice is every k-th scenario
in name order, k the smallest step that keeps it within the cap, so it spreads over every class
of scenario (their names group them) and is the same on every run of a commit: a verdict never
depends on the day or the machine. `--only` and explicit choices are the lane's business.
"""
import os

FULL_ENV = "PINTA_REAL_HOST_FULL"
DEFAULT_CAP = 24


def full_run():
    return os.environ.get(FULL_ENV) == "1"


def select(scenarios, name=lambda s: s["name"], cap=DEFAULT_CAP, lane="lane"):
    """The scenarios to run, sorted by name: all of them under PINTA_REAL_HOST_FULL=1 or when
    there are at most `cap`, else every k-th. Prints one line saying which."""
    ordered = sorted(scenarios, key=name)
    if full_run() or len(ordered) <= cap:
        print("%s: all %d hand scenarios" % (lane, len(ordered)), flush=True)
        return ordered
    step = -(-len(ordered) // cap)
    chosen = ordered[::step]
    print("%s: a slice of %d of %d hand scenarios (every %d%s by name); %s=1 or ci/real-hosts.sh "
          "runs all" % (lane, len(chosen), len(ordered), step,
                        {2: "nd", 3: "rd"}.get(step, "th"), FULL_ENV), flush=True)
    return chosen
