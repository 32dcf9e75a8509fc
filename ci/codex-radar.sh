#!/usr/bin/env bash
# The version radar's Codex CLI part (run by ci/drift.sh with the other ci/*-radar.sh): every
# stable @openai/codex release since hooks, each with its version profile, and NEW for a release
# past the newest profile (exit 1). Lists only, downloads nothing (ci/codex-bisect.py --radar).
#   ci/codex-radar.sh [--hostemu PATH] [--skip-status N]
exec python3 "$(dirname "${BASH_SOURCE[0]}")/codex-bisect.py" --radar "$@"
