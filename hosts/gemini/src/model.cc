// Gemini CLI's model (pinta/hosts/family_model.h). GEM = shared/reference/gemini-cli-0.61-hooks.md
// (Gemini CLI 0.61.0); SPEC = seed 000, the prototype's SPEC.
#include <algorithm>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pinta/hosts/family.h"
#include "pinta/hosts/family_model.h"

namespace pinta::hosts::gemini {
namespace {

using nlohmann::json;

// Gemini: a reply with fields must carry a decision this event understands. GEM §6: deny is
// meaningful on BeforeTool, AfterTool and BeforeAgent, "ask" on BeforeTool only; SPEC §7.3: a
// deny is sent as decision + reason + systemMessage.
std::string shape(std::string_view event, const json& j, ReplyKind* kind) {
  if (j.empty()) return "";  // GEM §4.5, §5: `{}` is "no decision"
  if (!known_event(Family::kGemini, event)) return "unknown Gemini event must get {}";
  if (!j.contains("decision") || !j["decision"].is_string())
    return "Gemini reply with fields but no decision";
  const std::string d = j["decision"];
  if (d == "deny") {
    if (!deny_meaningful(Family::kGemini, event))
      return "deny on an event where it has no safe meaning";
    if (j.size() != 3 || !j.contains("reason") || !j["reason"].is_string() ||
        !j.contains("systemMessage") || !j["systemMessage"].is_string())
      return "Gemini deny must be {decision, reason, systemMessage}";
    if (j["reason"].get<std::string>().empty()) return "Gemini deny with an empty reason";
    *kind = ReplyKind::kDeny;
    return "";
  }
  if (d == "ask") {
    if (event != "BeforeTool") return "ask outside BeforeTool";
    if (j.size() != 2 || !j.contains("reason") || !j["reason"].is_string())
      return "Gemini ask must be {decision, reason}";
    *kind = ReplyKind::kAsk;
    return "";
  }
  return "Gemini decision not in {deny, ask}";
}

json allow_reply(std::string_view) { return json::object(); }  // GEM §4.5, §5: `{}`

std::string describe_effect(std::string_view event, const std::string& k, const std::string& m,
                            const std::string& error) {
  if (k == "denied")
    return event == "BeforeTool" ? "denied: the CLI prints `Tool execution blocked: " + m + "`"
                                 : "denied/blocked: " + m;
  if (k == "text_denied") return "denied (plain-text reply): " + m;
  if (k == "text_shown") return "plain text shown to the user";
  if (k == "hook_failed")
    return "hook failed (logged; the CLI carries on): " + (error.empty() ? "?" : error);
  if (k == "asked") return "asks the user";
  if (k == "allowed") return "allowed";
  if (k == "no_opinion") return "no opinion (the host's default applies: proceeds)";
  return k;
}

// `{}` and an explicit allow both leave the tool to run (GEM §5: the aggregator's default is
// allow).
bool same_failsafe(const std::string& got, const std::string& want) {
  if (got == want) return true;
  auto permits = [](const std::string& k) { return k == "no_opinion" || k == "allowed"; };
  return permits(got) && permits(want);
}

}  // namespace

extern const FamilyModel kModel{shape, allow_reply, describe_effect, same_failsafe};

}  // namespace pinta::hosts::gemini
