#include "pinta/adapter/protocol.h"

#include <array>
#include <span>
#include <nlohmann/json.hpp>


namespace pinta::adapter {
namespace {

// The reply rows, one per event of each registered family, built at compile time from the
// families' descriptors (each row's evidence is there: hosts/<folder>/include/pinta/hosts/
// <folder>/family.h), so the hot path reads no data at start-up. Only the registry's gate event
// is a gate.
constexpr std::size_t kRowCount = [] {
  std::size_t n = 0;
  for (const auto& d : hosts::families()) n += d.replies.value.size();
  return n;
}();
constexpr std::array<ReplyRow, kRowCount> kRows = [] {
  std::array<ReplyRow, kRowCount> rows{};
  std::size_t i = 0;
  for (const auto& d : hosts::families())
    for (const auto& r : d.replies.value)
      rows[i++] = {d.id, r.event, r.event == d.gate_event, r.deny_allowed, r.allow, r.evidence};
  return rows;
}();

std::string escape(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Whether a reason is blank as any host reads it: every code point is white space by Unicode's
// White_Space property (what Rust's str::trim removes: Codex CLI), or U+FEFF (also removed by
// JavaScript's String.prototype.trim: Gemini CLI, Claude Code). Such a reason trims to nothing, and
// Codex fails a deny whose reason is empty: the command runs (shared/reference/real-hosts.md,
// "Codex 0.171.0 … hook rules"). Bytes that are not valid UTF-8 are not blank (they become U+FFFD).
bool white_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
         c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

bool blank(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      if (!white_space(b0)) return false;
      ++i;
      continue;
    }
    // Every white space code point above ASCII has 2 or 3 bytes (U+0085 .. U+FEFF).
    const std::size_t n = b0 >= 0xC2 && b0 <= 0xDF ? 2 : b0 >= 0xE0 && b0 <= 0xEF ? 3 : 0;
    if (n == 0 || i + n > s.size()) return false;
    char32_t c = b0 & (n == 2 ? 0x1F : 0x0F);
    for (std::size_t k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      c = (c << 6) | (b & 0x3F);
    }
    if (!white_space(c)) return false;
    i += n;
  }
  return true;
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
  if (blank(out)) return "guard_deny";
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
  if (event == "PreToolUse") return kUnknownHostGateReply;
  return kUnknownHostReply;
}

const ReplyRow* find_reply_row(Family f, std::string_view event) noexcept {
  // Rows are keyed by the canonical name; an alias (Copilot's PascalCase spellings, deel's Korean
  // names) finds its event's row, so every reply function answers an alias as its event.
  const std::string_view canonical = hosts::canonical_event_name(f, event);
  for (const auto& row : kRows) {
    if (row.family == f && row.event == canonical) return &row;
  }
  return nullptr;
}

std::string_view fail_safe_reply(Family f, std::string_view event) noexcept {
  const ReplyRow* row = find_reply_row(f, event);
  if (row != nullptr) return row->allow;
  return hosts::descriptor(f).forms.unknown_event;
}

namespace {

// The family's reply template with `{E}` (the event, a JSON string), `{R}` (the reason, a JSON
// string) and `{T}` (the reason as plain text) filled in.
std::string fill(std::string_view form, std::string_view event, std::string_view reason_json,
                 std::string_view reason_text) {
  std::string out;
  out.reserve(form.size() + 2 * reason_json.size() + event.size() + 8);
  for (std::size_t i = 0; i < form.size(); ++i) {
    if (form[i] == '{' && i + 2 < form.size() && form[i + 2] == '}') {
      const char k = form[i + 1];
      if (k == 'E' || k == 'R' || k == 'T') {
        out += k == 'E' ? escape(event) : k == 'R' ? std::string(reason_json) : std::string(reason_text);
        i += 2;
        continue;
      }
    }
    out += form[i];
  }
  return out;
}

}  // namespace

std::string deny_reply(Family f, std::string_view event, std::string_view reason) {
  const ReplyRow* row = find_reply_row(f, event);
  if (row == nullptr || !row->deny_allowed) return std::string(fail_safe_reply(f, event));
  const hosts::ReplyForms& forms = hosts::descriptor(f).forms;
  // An exit-code host quotes the text verbatim in its block message (deel-local-cli: DEEL l.452,
  // 막힘말 l.504-511).
  if (answers_by_exit_status(f)) return fill(forms.deny, row->event, "", plain_reason(reason));
  const std::string_view if_blank = forms.blank_deny_reason;
  const std::string r = escape(!if_blank.empty() && blank(reason) ? if_blank : reason);
  return fill(forms.deny, row->event, r, "");
}

std::string ask_reply(Family f, std::string_view event, std::string_view reason) {
  const ReplyRow* row = find_reply_row(f, event);
  const std::string_view ask = hosts::descriptor(f).forms.ask;
  // No native ask (the family's ask form is empty): allow.
  if (row == nullptr || !row->gate || ask.empty()) return std::string(fail_safe_reply(f, event));
  return fill(ask, row->event, escape(reason), "");
}

ReplyTable reply_table() noexcept { return {kRows.data(), kRows.size()}; }

}  // namespace pinta::adapter
