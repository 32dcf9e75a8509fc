// Harness: guard response parser (pinta/adapter/guard.h parse_guard_response, guard_deny_reason).
// Properties, for any reply body (untrusted: the guard is a remote service):
//  1. total and deterministic;
//  2. fail-open is explicit: a verdict is only read from a body that names a decision, and every
//     kUnavailable carries a non-empty `error`; and leniency keeps a verdict: a repaired body
//     (lone-surrogate escapes and invalid UTF-8 → U+FFFD) whose "decision" is a string reading
//     DENY (any case, whitespace or NULs around) is a kDeny, whatever its other fields hold, and
//     stays one with any bytes after it (GUARD-6);
//  3. the caps hold: reason and user_message at most kGuardMaxReasonBytes, matched_rule at most
//     kGuardMaxRuleBytes, and they are valid UTF-8;
//  4. a deny turns into a non-empty reason and, through deny_reply, into a reply the independent
//     host table accepts as a deny on both gate events.
#include <string>

#include "fuzz_support.h"
#include "host_table.h"
#include "pinta/adapter/bounded_json.h"
#include "pinta/adapter/guard.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/protocol.h"
#include "pinta/adapter/redact.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace ad = pinta::adapter;
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  const ad::GuardVerdict v = ad::parse_guard_response(body);
  const ad::GuardVerdict w = ad::parse_guard_response(body);
  FUZZ_CHECK(v.decision == w.decision && v.reason == w.reason && v.user_message == w.user_message &&
                 v.matched_rule == w.matched_rule && v.error == w.error,
             "not deterministic");
  std::string repaired(body);
  nlohmann::json j = nlohmann::json::parse(repaired, nullptr, false);
  if (j.is_discarded()) {
    bool changed = ad::repair_lone_surrogates(repaired);
    changed = ad::repair_utf8(repaired) || changed;
    if (changed) j = nlohmann::json::parse(repaired, nullptr, false);
  }
  if (v.decision != ad::GuardVerdict::Decision::kUnavailable)
    FUZZ_CHECK(body.find("decision") != std::string_view::npos, "a verdict from a body without one");
  if (j.is_object() && j.contains("decision") && j["decision"].is_string()) {
    std::string d = j["decision"].get<std::string>();
    auto space = [](char c) {
      return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0' || c == '\v' || c == '\f';
    };
    while (!d.empty() && space(d.front())) d.erase(0, 1);
    while (!d.empty() && space(d.back())) d.pop_back();
    for (char& c : d) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c;
    if (d == "DENY") {
      FUZZ_CHECK(v.decision == ad::GuardVerdict::Decision::kDeny, "a DENY was dropped");
      const std::string followed = repaired + "\n{\"decision\":\"ALLOW\"} trailing";
      FUZZ_CHECK(ad::parse_guard_response(followed).decision == ad::GuardVerdict::Decision::kDeny,
                 "bytes after a DENY dropped it");
    }
  }
  if (v.decision == ad::GuardVerdict::Decision::kUnavailable)
    FUZZ_CHECK(!v.error.empty(), "unavailable without error");
  FUZZ_CHECK(v.reason.size() <= ad::kGuardMaxReasonBytes &&
                 v.user_message.size() <= ad::kGuardMaxReasonBytes,
             "reason over cap");
  FUZZ_CHECK(v.matched_rule.size() <= ad::kGuardMaxRuleBytes, "rule over cap");
  FUZZ_CHECK(
      ad::valid_utf8(v.reason) && ad::valid_utf8(v.user_message) && ad::valid_utf8(v.matched_rule),
      "invalid UTF-8 kept");
  if (v.decision == ad::GuardVerdict::Decision::kDeny) {
    const std::string reason = ad::guard_deny_reason(v);
    FUZZ_CHECK(!reason.empty(), "empty deny reason");
    // The deny every registered family prints on its gate for this reason: the host's own reply
    // check must read it as a deny (a family registered later is covered by registering it).
    for (const auto& d : pinta::hosts::families()) {
      if (d.gate_event.empty()) continue;
      pinta::fuzz::ReplyKind k{};
      const std::string r = ad::deny_reply(d.id, d.gate_event, reason);
      const std::string why =
          pinta::fuzz::judge_reply(d.id, d.gate_event, r, &k, ad::deny_exit_status(d.id));
      FUZZ_CHECK(why.empty() && k == pinta::fuzz::ReplyKind::kDeny,
                 std::string(d.name) + ": " + why + " — " + r);
    }
  }
  return 0;
}
