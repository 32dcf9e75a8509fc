#!/usr/bin/env bash
# The version radar's GitHub Copilot CLI part (run by ci/drift.sh with the other ci/*-radar.sh):
# every stable release with a native linux-x64 package since 1.0.57, each with its version profile,
# UNPROBED for a release between two profiles, NEW for a release past the newest profile (exit 1).
# Lists only, downloads nothing (ci/copilot-bisect.py --radar).
#   ci/copilot-radar.sh [--hostemu PATH] [--skip-status N]
exec python3 "$(dirname "${BASH_SOURCE[0]}")/copilot-bisect.py" --radar "$@"
