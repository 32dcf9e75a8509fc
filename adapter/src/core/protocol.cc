#include "pinta/adapter/protocol.h"

#include <array>
#include <nlohmann/json.hpp>

#include "pinta/hosts/events.h"

namespace pinta::adapter {
namespace {

// Evidence keys:
//  GEM§n  = shared/reference/gemini-cli-0.61-hooks.md section n (Gemini CLI 0.61.0 code + runs)
//  AGY§n  = shared/reference/antigravity-hooks.md section n (public evidence by agy version)
//  SPEC§n = seed SPEC (shared/seeds/000_*.txt) section n
//  DEEL l.n = shared/seeds/004_*.txt line n (deel-local-cli 1.17.1 package/src/safety/hooks.js)
constexpr std::string_view kGeminiAllow =
    "GEM§4.5/§5: `{}` parses to an object with no decision, so the aggregator's default (allow) "
    "holds; an empty stdout would make the CLI read stderr instead (stdout.trim()||stderr.trim()).";

constexpr ReplyRow kRows[] = {
    // ---- Gemini CLI 0.61.0: 11 events (GEM§2.1). Deny = {decision:deny, reason, systemMessage}
    // (SPEC§7.3; GEM§6 BeforeTool: `Tool execution blocked: R`).
    {Family::kGemini, "BeforeTool", true, true, "{}", kGeminiAllow},
    {Family::kGemini, "AfterTool", false, true, "{}", kGeminiAllow},
    {Family::kGemini, "BeforeAgent", false, true, "{}", kGeminiAllow},
    {Family::kGemini, "AfterAgent", false, false, "{}",
     "GEM§6 AfterAgent: a deny re-prompts the model with R; never sent by the adapter."},
    {Family::kGemini, "SessionStart", false, false, "{}", "GEM§6: decision ignored on SessionStart."},
    {Family::kGemini, "SessionEnd", false, false, "{}", "GEM§6: decision ignored on SessionEnd."},
    {Family::kGemini, "BeforeModel", false, false, "{}", kGeminiAllow},
    {Family::kGemini, "AfterModel", false, false, "{}", "GEM§6: fires per streamed chunk."},
    {Family::kGemini, "BeforeToolSelection", false, false, "{}", kGeminiAllow},
    {Family::kGemini, "PreCompress", false, false, "{}", "GEM§6: decision ignored on PreCompress."},
    {Family::kGemini, "Notification", false, false, "{}", "GEM§6: decision ignored on Notification."},
    // ---- Antigravity (agy 1.x, Antigravity 2.0): replies are decoded with protojson, so unknown
    // fields fail the call (AGY§6.2).
    {Family::kAntigravity, "PreToolUse", true, true, R"({"decision":"allow"})",
     "AGY§6.2: `{}` or any object without `decision` is read as deny with an empty reason "
     "(agy 1.0.5, 1.0.15, 1.1.26, 1.2.7); decision is required (SPEC§7.3)."},
    {Family::kAntigravity, "PostToolUse", false, false, "{}",
     "AGY§6.3: PostToolHookResult is an empty message; `{}` is the only safe reply."},
    {Family::kAntigravity, "PreInvocation", false, false, "{}",
     "AGY§6.3/§7.3: `{}` valid (agy 1.2.7); a `decision` key is reported to make a build exit."},
    {Family::kAntigravity, "PostInvocation", false, false, "{}",
     "AGY§6.3/§7.3: `{}` valid; never a `decision` key (issue: a reported agy build exits 1)."},
    {Family::kAntigravity, "Stop", false, false, "{}",
     "AGY§7.4: `{}` lets the agent stop; `decision:continue` would re-enter the loop."},
    {Family::kAntigravity, "SessionStart", false, false, "{}",
     "AGY§8: exists on later builds (1.1.27); flat lifecycle event; `{}` is valid."},
    // ---- deel-local-cli 1.17: exit-code protocol (DEEL = seed 004 package/src/safety/hooks.js).
    // Allow = no output + exit 0: exit 0 passes (DEEL l.444) but stdout+stderr are still shown to
    // the user as a note (DEEL l.431-434; repl.js hook_note), so even `{}` would be noise.
    {Family::kDeel, "PreToolUse", true, true, "",
     "DEEL l.213-221: 도구전 is a blocking point; exit 2 blocks with stdout as the message "
     "(l.452, 막힘말 l.504-511); exit 0 passes (l.444)."},
    {Family::kDeel, "PostToolUse", false, false, "",
     "DEEL l.221: 도구후 is not a blocking point; exit 2 cannot block there (l.452)."},
    {Family::kDeel, "UserPromptSubmit", false, false, "",
     "DEEL l.221: 말전 is a blocking point, but the guard judges tool calls only (SPEC §7.2); "
     "never blocks here."},
    {Family::kDeel, "Stop", false, false, "", "DEEL l.221: 턴끝 is not a blocking point."},
};

// The table has exactly one row per event of each family's event list (the host registry's,
// pinta/hosts/events.h) and no other: checked at compile time, so the hot path reads nothing.
template <size_t N>
constexpr bool rows_match(Family f, const std::array<std::string_view, N>& list) {
  size_t rows = 0;
  for (const auto& r : kRows) {
    if (r.family != f) continue;
    ++rows;
    if (!hosts::event_lists::contains(list, r.event)) return false;
  }
  if (rows != N) return false;
  for (auto e : list) {
    size_t n = 0;
    for (const auto& r : kRows) n += (r.family == f && r.event == e) ? 1 : 0;
    if (n != 1) return false;
  }
  return true;
}
static_assert(rows_match(Family::kGemini, hosts::event_lists::kGemini),
              "reply table rows differ from the Gemini event list (pinta/hosts/events.h)");
static_assert(rows_match(Family::kAntigravity, hosts::event_lists::kAntigravity),
              "reply table rows differ from the Antigravity event list (pinta/hosts/events.h)");
static_assert(rows_match(Family::kDeel, hosts::event_lists::kDeel),
              "reply table rows differ from the deel-local-cli event list (pinta/hosts/events.h)");

std::string escape(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

struct EventAlias {
  std::string_view alias;
  std::string_view event;
};
// DEEL l.213-218 (자리표): the Korean names deel-local-cli itself uses.
constexpr EventAlias kDeelAliases[] = {
    {"도구전", "PreToolUse"},
    {"도구후", "PostToolUse"},
    {"말전", "UserPromptSubmit"},
    {"턴끝", "Stop"},
};

// A deny reason as plain text for an exit-code host: valid UTF-8 (bad bytes become U+FFFD, by
// the same JSON escaper the other families use), no control characters but newline and tab (a
// terminal must not be driven by the guard's text), never blank (that would read as "blocked, no
// reason").
std::string plain_reason(std::string_view reason) {
  std::string out = nlohmann::json::parse(escape(reason)).get<std::string>();
  for (char& ch : out) {
    auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) ch = ' ';
  }
  if (out.find_first_not_of(" \t\n") == std::string::npos) return "guard_deny";
  return out;
}

}  // namespace

Family family_for_agent(std::string_view agent_label) noexcept {
  if (agent_label == "gemini") return Family::kGemini;
  if (agent_label == "deel") return Family::kDeel;
  return Family::kAntigravity;
}

std::string_view family_prefix(Family f) noexcept {
  switch (f) {
    case Family::kGemini: return "gemini";
    case Family::kDeel: return "deel";
    case Family::kAntigravity: break;
  }
  return "antigravity";
}

std::string_view family_service_name(Family f) noexcept {
  switch (f) {
    case Family::kGemini: return "gemini-cli";
    case Family::kDeel: return "deel-local-cli";
    case Family::kAntigravity: break;
  }
  return "antigravity";
}

bool answers_by_exit_status(Family f) noexcept { return f == Family::kDeel; }

int deny_exit_status(Family f) noexcept { return f == Family::kDeel ? 2 : 0; }

std::string_view canonical_event(Family f, std::string_view event) noexcept {
  if (f != Family::kDeel) return event;
  for (const auto& a : kDeelAliases) {
    if (a.alias == event) return a.event;
  }
  return event;
}

const ReplyRow* find_reply_row(Family f, std::string_view event) noexcept {
  for (const auto& row : kRows) {
    if (row.family == f && row.event == event) return &row;
  }
  return nullptr;
}

std::string_view fail_safe_reply(Family f, std::string_view event) noexcept {
  const ReplyRow* row = find_reply_row(f, event);
  if (row != nullptr) return row->allow;
  // Unknown event: deel shows any output to the user (DEEL l.431-434), so nothing; elsewhere `{}`
  // carries no field a strict (protojson) decoder could reject.
  return f == Family::kDeel ? std::string_view() : std::string_view("{}");
}

std::string deny_reply(Family f, std::string_view event, std::string_view reason) {
  const ReplyRow* row = find_reply_row(f, event);
  if (row == nullptr || !row->deny_allowed) return std::string(fail_safe_reply(f, event));
  // DEEL l.452 + 막힘말 l.504-511: the host quotes stdout verbatim in the block message.
  if (f == Family::kDeel) return plain_reason(reason);
  std::string r = escape(reason);
  if (f == Family::kGemini) {
    // SPEC§7.3: systemMessage too, so the user sees why (GEM§6: `Hook system message: …`).
    return R"({"decision":"deny","reason":)" + r + R"(,"systemMessage":)" + r + "}";
  }
  // AGY§7.1: decision + reason only; any other field risks a protojson unmarshal failure.
  return R"({"decision":"deny","reason":)" + r + "}";
}

std::string ask_reply(Family f, std::string_view event, std::string_view reason) {
  const ReplyRow* row = find_reply_row(f, event);
  // deel-local-cli has no "ask" (DEEL l.444-457: pass or block only): allow.
  if (row == nullptr || !row->gate || f == Family::kDeel) return std::string(fail_safe_reply(f, event));
  std::string r = escape(reason);
  // GEM§6 BeforeTool: ask → confirmation (hangs in headless -p runs); AGY§6.2: ask prompts.
  return R"({"decision":"ask","reason":)" + r + "}";
}

ReplyTable reply_table() noexcept { return {kRows, sizeof kRows / sizeof kRows[0]}; }

}  // namespace pinta::adapter
