#include "pinta/adapter/protocol.h"

#include <array>
#include <span>
#include <nlohmann/json.hpp>

#include "pinta/hosts/events.h"

namespace pinta::adapter {
namespace {

// Evidence keys:
//  GEM§n  = shared/reference/gemini-cli-0.61-hooks.md section n (Gemini CLI 0.61.0 code + runs)
//  AGY§n  = shared/reference/antigravity-hooks.md section n (public evidence by agy version)
//  SPEC§n = seed SPEC (shared/seeds/000_*.txt) section n
//  DEEL l.n = shared/seeds/004_*.txt line n (deel-local-cli 1.17.1 package/src/safety/hooks.js)
//  CC     = shared/reference/real-hosts.md "Claude Code 2.1.332" (measured runs of the real CLI)
//  CCDOC  = https://code.claude.com/docs/en/hooks (the public hooks reference)
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
    // ---- Claude Code 2.1.x: exit 0 with no output lets everything go on (CC: `(Bash completed
    // with no output)`); stdout text would be shown, and on UserPromptSubmit / SessionStart added
    // to the model's context (CCDOC), so the allow is no output at all. A deny is JSON on stdout
    // with exit 0, never exit 2 (whose stderr reaches the model as a hook error).
    {Family::kClaude, "PreToolUse", true, true, "",
     "CC: stdout {\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":"
     "\"deny\",\"permissionDecisionReason\":R}} + exit 0 blocked the call with R as the tool "
     "error; exit 0 without output ran it."},
    {Family::kClaude, "PostToolUse", false, false, "",
     "CCDOC: the tool already ran; a block only feeds the reason back to the model."},
    {Family::kClaude, "PostToolUseFailure", false, false, "",
     "CC: fires when the tool failed (`error`, `is_interrupt`); nothing to decide."},
    {Family::kClaude, "UserPromptSubmit", false, false, "",
     "CCDOC: stdout at exit 0 becomes model context; the guard judges tool calls only (SPEC§7.2)."},
    {Family::kClaude, "Stop", false, false, "",
     "CCDOC: a block keeps Claude working (a loop); never sent."},
    {Family::kClaude, "SubagentStop", false, false, "", "CCDOC: as Stop, for a subagent."},
    {Family::kClaude, "SessionStart", false, false, "",
     "CCDOC: stdout at exit 0 becomes model context; no output."},
    {Family::kClaude, "SessionEnd", false, false, "", "CCDOC: cannot block; output is ignored."},
    {Family::kClaude, "Notification", false, false, "", "CCDOC: cannot block; output is shown."},
    {Family::kClaude, "PreCompact", false, false, "", "CCDOC: cannot block; output is shown."},
    {Family::kClaude, "PermissionRequest", false, false, "",
     "CCDOC: the permission dialog; no output leaves the dialog to the user (print mode has none)."},
    {Family::kClaude, "SubagentStart", false, false, "", "CCDOC: cannot block; output is shown."},
};

// The table has exactly one row per event of each family's event list (the host registry's,
// pinta/hosts/events.h) and no other: checked at compile time, so the hot path reads nothing.
constexpr bool rows_match(Family f, std::span<const std::string_view> list) {
  size_t rows = 0;
  for (const auto& r : kRows) {
    if (r.family != f) continue;
    ++rows;
    if (!hosts::in_list(list, r.event)) return false;
  }
  if (rows != list.size()) return false;
  for (auto e : list) {
    size_t n = 0;
    for (const auto& r : kRows) n += (r.family == f && r.event == e) ? 1 : 0;
    if (n != 1) return false;
  }
  return true;
}
constexpr bool all_families_match() {
  for (const auto& d : hosts::families())
    if (!rows_match(d.id, d.events)) return false;
  // Only the registry's gate event is a gate; an exit-code host's allow is no output.
  for (const auto& r : kRows) {
    if (r.gate != hosts::is_gate_event(r.family, r.event)) return false;
    if (r.deny_allowed && !hosts::blocks_on(r.family, r.event)) return false;
    if (hosts::answers_by_exit_status(r.family) && !r.allow.empty()) return false;
  }
  return true;
}
static_assert(all_families_match(),
              "reply table rows differ from the family registry (pinta/hosts/family.h)");

std::string escape(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

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

std::optional<Family> family_for_agent(std::string_view agent_label) noexcept {
  return hosts::family_for_label(agent_label);
}

std::string_view family_prefix(Family f) noexcept { return hosts::descriptor(f).prefix; }

std::string_view family_service_name(Family f) noexcept {
  return hosts::descriptor(f).service_name;
}

int deny_exit_status(Family f) noexcept {
  return hosts::answers_by_exit_status(f) ? hosts::descriptor(f).block_status : 0;
}

std::string_view canonical_event(Family f, std::string_view event) noexcept {
  return hosts::canonical_event_name(f, event);
}

std::string_view unknown_agent_reply(std::string_view event) noexcept {
  if (event == "PreToolUse") return fail_safe_reply(Family::kAntigravity, "PreToolUse");
  return kUnknownHostReply;
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
  // Unknown event: an exit-code host shows any output to the user (DEEL l.431-434) and Claude
  // Code may add it to the model's context (CCDOC), so nothing; elsewhere `{}` carries no field a
  // strict (protojson) decoder could reject.
  return hosts::descriptor(f).reads == hosts::ReplyReading::kJsonStdout ? std::string_view("{}")
                                                                        : std::string_view();
}

std::string deny_reply(Family f, std::string_view event, std::string_view reason) {
  const ReplyRow* row = find_reply_row(f, event);
  if (row == nullptr || !row->deny_allowed) return std::string(fail_safe_reply(f, event));
  // DEEL l.452 + 막힘말 l.504-511: the host quotes stdout verbatim in the block message.
  if (answers_by_exit_status(f)) return plain_reason(reason);
  std::string r = escape(reason);
  if (f == Family::kClaude) {
    // CC: permissionDecision deny on PreToolUse blocks the call; the reason reaches the model as
    // the tool error (`PreToolUse:Bash hook error: R`). An empty reason would read as no reason.
    if (reason.find_first_not_of(" \t\n") == std::string_view::npos) r = escape("guard_deny");
    return R"({"hookSpecificOutput":{"hookEventName":)" + escape(row->event) +
           R"(,"permissionDecision":"deny","permissionDecisionReason":)" + r + "}}";
  }
  if (f == Family::kGemini) {
    // SPEC§7.3: systemMessage too, so the user sees why (GEM§6: `Hook system message: …`).
    return R"({"decision":"deny","reason":)" + r + R"(,"systemMessage":)" + r + "}";
  }
  // AGY§7.1: decision + reason only; any other field risks a protojson unmarshal failure.
  return R"({"decision":"deny","reason":)" + r + "}";
}

std::string ask_reply(Family f, std::string_view event, std::string_view reason) {
  const ReplyRow* row = find_reply_row(f, event);
  // No native ask (deel-local-cli, DEEL l.444-457: pass or block only): allow.
  if (row == nullptr || !row->gate || !hosts::descriptor(f).ask_on_gate)
    return std::string(fail_safe_reply(f, event));
  std::string r = escape(reason);
  if (f == Family::kClaude) {
    // CCDOC: permissionDecision ask shows the permission prompt with the reason.
    return R"({"hookSpecificOutput":{"hookEventName":)" + escape(row->event) +
           R"(,"permissionDecision":"ask","permissionDecisionReason":)" + r + "}}";
  }
  // GEM§6 BeforeTool: ask → confirmation (hangs in headless -p runs); AGY§6.2: ask prompts.
  return R"({"decision":"ask","reason":)" + r + "}";
}

ReplyTable reply_table() noexcept { return {kRows, sizeof kRows / sizeof kRows[0]}; }

}  // namespace pinta::adapter
