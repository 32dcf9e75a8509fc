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
# The shared skeleton (cache, lock, exit statuses): ci/npm-lib.sh.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-lib.sh"

protobufjs=7.6.6
carrier=promptfoo@0.121.20
npm_setup npm-otlp-proto "otlp-proto-1.4.0-protobufjs-$protobufjs"
# sha256 of each file at opentelemetry-proto v1.4.0.
sums="6a75b9ff79bb37e502a16fd739294a29a4a6608eb07416f2187d05d7f3745e8e  opentelemetry/proto/common/v1/common.proto
eaaed42d4912ead1405d6bc16314e2b20f031f401e7fec70199c52f9311a3d86  opentelemetry/proto/resource/v1/resource.proto
582b792c0711e574d6dbb1638580c064ae3c558ea3a67db77a9caf6d42c9d45a  opentelemetry/proto/trace/v1/trace.proto
8b76d311c75f6eaee985dac358dd50ea98f77ec06a8022e299dcdb5c8c517a7a  opentelemetry/proto/collector/trace/v1/trace_service.proto"

verified() { (cd "$prefix/protos" 2>/dev/null && sha256sum --check --status - <<<"$sums"); }

installed() { [[ -f "$marker" && -f "$prefix/node_modules/protobufjs/package.json" ]] && verified; }
finished() { [[ -f "$marker" ]] && verified; }

npm_ready_exit installed
npm_need_tools
npm_need_registry "protobufjs@$protobufjs"
npm_lock
npm_ready_exit finished
rm -f "$marker"
npm_install pinta-otlp-proto "protobufjs@$protobufjs"
pack="$prefix/pack"
rm -rf "$pack" "$prefix/protos"
mkdir -p "$pack" "$prefix/protos"
if ! tgz=$(cd "$pack" && npm pack "$carrier" --loglevel=error | tail -n 1) || [[ ! -f "$pack/$tgz" ]]; then
  npm_fail "npm pack $carrier failed"
fi
if ! tar -xzf "$pack/$tgz" -C "$prefix/protos" --strip-components=5 \
    package/dist/src/tracing/proto/opentelemetry >&2; then
  npm_fail "$carrier has no dist/src/tracing/proto/opentelemetry"
fi
rm -rf "$pack"
if ! verified; then
  echo "npm-otlp-proto: the .proto files in $carrier are not opentelemetry-proto v1.4.0's:" >&2
  (cd "$prefix/protos" && sha256sum --check - <<<"$sums") >&2
  exit 5
fi
npm_finish
