#!/usr/bin/env bash
# End-to-end check of hook trust against a real Codex CLI: a SessionStart hook (it fires before the
# first model request, so no model server is needed) is skipped while untrusted, runs once the
# [hooks.state] entry that `hostemu lint` prints (our trust key and hash) is added to config.toml,
# and is skipped again with a stale hash. Offline: the model provider points at a closed loopback
# port, so each run ends by timeout after the hook had its turn. Not run by ctest (it needs the
# CLI: ci/npm-codex.sh).
#   trust_e2e.sh CODEX_BINARY HOSTEMU
set -euo pipefail
codex=$1 hostemu=$2
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/home" "$root/proj"
cat >"$root/home/hooks.json" <<EOF
{"hooks":{"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"touch $root/ran","timeout":5,"statusMessage":"s\u00e9"}]}]}}
EOF
base_config() {
  printf '%s\n' 'model = "m"' 'model_provider = "local"' 'approval_policy = "never"' \
    'sandbox_mode = "danger-full-access"' '[analytics]' 'enabled = false' \
    '[model_providers.local]' 'name = "local"' 'base_url = "http://127.0.0.1:9/v1"' \
    'env_key = "PINTA_E2E_KEY"' 'wire_api = "responses"'
}
run() {  # $1 = label; prints whether the hook ran
  rm -f "$root/ran"
  (cd "$root/proj" && HOME=$root CODEX_HOME=$root/home PINTA_E2E_KEY=x timeout 20 "$codex" exec \
    --skip-git-repo-check --disable plugins --disable remote_plugin --disable apps hi \
    >"$root/out.txt" 2>&1) || true
  echo "$1: hook ran: $([ -e "$root/ran" ] && echo yes || echo no)"
}
base_config >"$root/home/config.toml"
run untrusted
entry=$(HOME=$root CODEX_HOME=$root/home "$hostemu" lint --host codex --home "$root" \
  "$root/home/hooks.json" --format json | python3 -c '
import json, re, sys
hint = json.load(sys.stdin)["findings"][0]["hint"]
table, value = re.search(r"(\[hooks\.state\..*\]) with (trusted_hash = \"sha256:[0-9a-f]+\")", hint).groups()
print(table + "\n" + value)')
{ base_config; echo "$entry"; } >"$root/home/config.toml"
run trusted
{ base_config; echo "$entry" | sed 's/sha256:[0-9a-f]*/sha256:00/'; } >"$root/home/config.toml"
run stale
