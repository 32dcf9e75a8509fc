// File: pinta/adapter/guard.h
// The guard gate (seed SPEC §7.2, §8): on gate events only (Gemini BeforeTool,
// Antigravity PreToolUse) the adapter POSTs the tool call to PINTA_GUARD_ENDPOINT and turns the
// verdict into the host's reply. Fail-open: timeout, refusal, non-200, an oversize or malformed
// body all give Decision::kUnavailable, which the hot path treats as allow.
//
// Values first (GuardConfig, the request body builder, the response parser), then the client.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pinta/adapter/normalize.h"
#include "pinta/adapter/seams.h"

namespace pinta::adapter {

struct GuardConfig {
  bool enabled = false;     // PINTA_GUARD_ENDPOINT set (non-empty) and not PINTA_GUARD_DISABLED
  std::string endpoint;     // PINTA_GUARD_ENDPOINT (http:// or https://)
  std::string relay_token;  // PINTA_RELAY_TOKEN → header x-pinta-relay-token (omitted if empty)
  std::chrono::milliseconds timeout{kDefaultTimeoutMs};  // PINTA_GUARD_TIMEOUT_MS, clamped
  std::string review_mode = "allow";                     // PINTA_GUARD_REVIEW: allow | ask
  // The (trusted) data dir, where an https guard's TLS session is kept between processes
  // (GUARD-9); "" keeps none. Set by the caller (main: AdapterConfig::data_dir), not from here.
  std::string data_dir;
  // PINTA_GUARD_KEEPER (default on): an https guard's connection is held open between events by
  // the guard keeper in the data dir (guard_keeper.h, GUARD-13).
  bool keeper = true;
  // PINTA_GUARD_ON_UNJUDGEABLE=deny (default `guard`): a tool call the guard could be shown only as
  // a truncated view (GUARD-14) is denied without asking, for deployments that put security first.
  bool deny_unjudgeable = false;
  std::string
      note;  // why a setting was ignored (bad timeout, unknown review mode), for the debug log

  static constexpr int64_t kDefaultTimeoutMs = 50;  // SPEC §8
  static constexpr int64_t kMinTimeoutMs = 1;
  // Hosts wait for the hook (Gemini CLI default hook timeout 60 s, gemini-cli-0.61-hooks.md §4.4);
  // a guard that needs more than 10 s would make every tool call crawl.
  static constexpr int64_t kMaxTimeoutMs = 10000;
};

// Reads the (env-file-merged) environment. Cheap: a few getenv calls; no allocation beyond the
// copied values when PINTA_GUARD_ENDPOINT is unset.
GuardConfig guard_config_from_environment();

// Caps on what the guard may send back (a guard reply is untrusted input). The body cap is far
// above any verdict so that a guard quoting the request (whose tool input is a bounded view, at
// most kGuardViewMaxBytes of text, JSON-escaped twice) in its reason and userMessage still gets its
// verdict read: the model must not be able to push a DENY over the cap (GUARD-14).
inline constexpr size_t kGuardMaxResponseBytes = 8u << 20;
inline constexpr size_t kGuardMaxReasonBytes = 1024;  // reason and userMessage, each
inline constexpr size_t kGuardMaxRuleBytes = 256;

// The request body: {"input":{"spanId","toolName","toolInput","rawTextFields":{"toolInput":<JSON
// text of toolInput>, "mcpContext"?},"agent","hook","sessionId","cwd","mcpContext"?,"product"?}}.
// toolInput is passed as the host sent it (Antigravity's PascalCase args untouched); the raw text
// copy lets text policies match any argument, MCP ones included (SPEC §8).
nlohmann::json guard_request_body(const CanonicalEvent& event, const std::string& span_id);

// The bounded view of a tool input the guard is shown (GUARD-14). The view keeps every top-level
// argument name (up to kGuardViewMaxNames), cuts strings over kGuardViewMaxString bytes (UTF-8
// safe, with the suffix "…[truncated N bytes]"), containers below kGuardViewMaxDepth levels or
// past kGuardViewMaxMembers members ({"…truncated": n} stands for what was left out), and stops
// taking text once kGuardViewMaxBytes of strings and keys are in. Work is linear in the view, not
// in the input, so a 10 MB tool input is judged inside the guard's budget.
inline constexpr size_t kGuardViewMaxBytes = 256u << 10;
inline constexpr size_t kGuardViewMaxString = 64u << 10;
inline constexpr size_t kGuardViewMaxMembers = 1000;
inline constexpr size_t kGuardViewMaxNames = 4096;
inline constexpr int kGuardViewMaxDepth = 64;
struct GuardView {
  nlohmann::json value;
  size_t markers = 0;  // places where something was cut (0: the view is the input)
};
GuardView guard_view(const nlohmann::json& value);

// The request body and whether the guard sees less than the host sent (payload incomplete, nesting
// cut, or a cut view: then the body carries "truncated": true and a "truncation" object).
struct GuardRequest {
  nlohmann::json body;
  bool truncated = false;
};
GuardRequest build_guard_request(const CanonicalEvent& event, const std::string& span_id);

// Parses a 200 reply body, leniently where that can only keep a verdict (GUARD-6): lone-surrogate
// escapes and invalid UTF-8 become U+FFFD, a reason or userMessage of another type is ignored (a
// DENY stays a DENY), the decision is matched case-insensitively after trimming spaces. A body
// that is not a JSON object, or has no known decision → kUnavailable with `error` set. Strings are
// cut to the caps above (UTF-8-safe).
GuardVerdict parse_guard_response(std::string_view body);

// guard_deny_reason (the deny reason shown to the host) is in seams.h, beside GuardVerdict: the
// handler (pinta::adapter_core) writes every deny with it.

// The production client: pinta::http::send with one Deadline for the whole exchange.
std::unique_ptr<GuardClient> make_http_guard_client(GuardConfig config);

}  // namespace pinta::adapter
