// File: pinta/adapter/guard.h
// The guard gate (seed SPEC §7.2, §8): on gate events only (Gemini BeforeTool,
// Antigravity PreToolUse) the adapter POSTs the tool call to PINTA_GUARD_ENDPOINT and turns the
// verdict into the host's reply. Fail-open on guard faults only (GUARD-5): what the tool input can
// provoke is handled by a bounded request (GUARD-15) and, after any fault, the minimal request
// (GUARD-16); a DENY is read at any status and wherever the body lets it be read (GUARD-6).
// What is left (refused, unreachable, out of budget, no readable verdict) is
// Decision::kUnavailable, which the hot path treats as allow.
//
// Values first (GuardConfig, the request body builder, the response parser), then the client.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "pinta/adapter/normalize.h"
#include "pinta/adapter/seams.h"

namespace pinta::adapter {

// The request bound (kGuardDefaultMaxRequestBytes and its clamp) is in seams.h, with GuardPolicy.
// The minimal request, the second chance after a fault the full request may have caused
// (GUARD-16): at most this many bytes, ASCII only.
inline constexpr size_t kGuardMinimalRequestBytes = 4u << 10;
// Strings outside the tool input (tool name, session id, cwd, hook, agent) are cut to this.
inline constexpr size_t kGuardFieldMaxBytes = 1024;

struct GuardConfig {
  bool enabled = false;     // PINTA_GUARD_ENDPOINT set (non-empty) and not PINTA_GUARD_DISABLED
  std::string endpoint;     // PINTA_GUARD_ENDPOINT (http:// or https://)
  std::string relay_token;  // PINTA_RELAY_TOKEN → header x-pinta-relay-token (omitted if empty)
  // The timeout, review mode, unjudgeable mode and request bound (seams.h): main hands the same
  // value to the hot path (Services::guard_policy).
  GuardPolicy policy;
  // The (trusted) data dir, where an https guard's TLS session is kept between processes
  // (GUARD-9); "" keeps none. Set by the caller (main: AdapterConfig::data_dir), not from here.
  std::string data_dir;
  // PINTA_GUARD_KEEPER (default on): an https guard's connection is held open between events by
  // the guard keeper in the data dir (guard_keeper.h, GUARD-13).
  bool keeper = true;
  std::string
      note;  // why a setting was ignored (bad timeout, unknown review mode), for the debug log
};

// Reads the (env-file-merged) environment. Cheap: a few getenv calls; no allocation beyond the
// copied values when PINTA_GUARD_ENDPOINT is unset.
GuardConfig guard_config_from_environment();

// Caps on what the guard may send back (a guard reply is untrusted input). The body cap is far
// above any verdict so that a guard quoting the request (at most max_request_bytes) in its reason
// and userMessage still gets its verdict read: the model must not be able to push a DENY over the
// cap (GUARD-14).
inline constexpr size_t kGuardMaxResponseBytes = 8u << 20;
inline constexpr size_t kGuardMaxReasonBytes = 1024;  // reason and userMessage, each
inline constexpr size_t kGuardMaxRuleBytes = 256;

// The request body: {"input":{"spanId","toolName","toolInput","rawTextFields":{"toolInput":<JSON
// text of toolInput>, "mcpContext"?},"agent","hook","sessionId","cwd","mcpContext"?,"product"?}}.
// toolInput is passed as the host sent it (Antigravity's PascalCase args untouched); the raw text
// copy lets text policies match any argument, MCP ones included (SPEC §8).
nlohmann::json guard_request_body(const CanonicalEvent& event, const std::string& span_id);

// The bounded view of a tool input the guard is shown (GUARD-14, GUARD-15), built within a budget
// counted in request bytes: each byte of a string costs what it costs in the request, once as
// toolInput and once more, escaped again, inside rawTextFields.toolInput. The family's command
// arguments (PayloadShape::command_args: the command, paths, written text) take the budget
// first, each up to half of what is left; every other argument gets a fair share of the rest, in
// the input's key order. A string over its share keeps its head and its tail (what runs last)
// around "…[truncated N bytes]…" (UTF-8 safe); containers below kGuardViewMaxDepth levels, past
// kGuardViewMaxMembers members or past the budget end in {"…truncated": n}. Work is linear in
// the view, not in the input, so a 10 MB tool input is judged inside the guard's budget.
inline constexpr size_t kGuardViewMaxMembers = 1000;
inline constexpr int kGuardViewMaxDepth = 64;
struct GuardView {
  nlohmann::json value;
  size_t markers = 0;  // places where something was cut (0: the view is the input)
};
struct ViewOptions {
  size_t budget = kGuardDefaultMaxRequestBytes / 2;  // request bytes the view may take
  bool ascii = false;                                // the request is sent ASCII-escaped
  std::span<const std::string_view> priority;        // top-level names that take the budget first
};
GuardView guard_view(const nlohmann::json& value, const ViewOptions& options = {});

// Which request: the full one (within GuardConfig::max_request_bytes), or the minimal one.
enum class RequestForm { kFull, kMinimal };

// The request body, its JSON text (what is sent: never over the bound) and whether the guard sees
// less than the host sent (payload incomplete, nesting cut, no tool name, or a cut view: then the
// body carries "truncated": true and a "truncation" object). A tool input (and MCP context) whose
// whole request fits the bound, within the view's depth, member and name limits, is sent as it
// is, after one dump measured against the bound; otherwise the bounded views of guard_view().
struct GuardRequest {
  nlohmann::json body;
  std::string text;
  bool truncated = false;
};
GuardRequest build_guard_request(const CanonicalEvent& event, const std::string& span_id,
                                 size_t max_bytes = kGuardDefaultMaxRequestBytes,
                                 RequestForm form = RequestForm::kFull);

// Parses a reply body, leniently wherever that can only keep a verdict (GUARD-6): lone-surrogate
// escapes and invalid UTF-8 become U+FFFD; NaN, Infinity and numbers no double holds are read as
// strings; bytes after the first complete object are ignored; a reason or userMessage of another
// type is ignored (a DENY stays a DENY); the decision is matched case-insensitively after trimming
// whitespace and NULs. A body with no readable object or no known decision → kUnavailable with
// `error` set. Strings are cut to the caps above (UTF-8-safe).
GuardVerdict parse_guard_response(std::string_view body);

// What an HTTP status and body mean (GUARD-6, GUARD-16): a 2xx with a readable verdict is that
// verdict; any other status is a verdict only when its body holds a readable DENY or REVIEW (a
// guard that answers 403 with a DENY has denied); everything else is kUnavailable.
GuardVerdict read_guard_reply(int status, std::string_view body);

// guard_deny_reason (the deny reason shown to the host) is in seams.h, beside GuardVerdict: the
// handler (pinta::adapter_core) writes every deny with it.

// The production client: pinta::http::send with one Deadline for the whole exchange.
std::unique_ptr<GuardClient> make_http_guard_client(GuardConfig config);

}  // namespace pinta::adapter
