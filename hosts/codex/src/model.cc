// OpenAI Codex CLI's model (pinta/hosts/family_model.h) and its reply structs as checks
// (pinta/hosts/codex/replies.h).
#include <initializer_list>
#include <utility>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pinta/hosts/codex/replies.h"
#include "pinta/hosts/family.h"
#include "pinta/hosts/family_model.h"

namespace pinta::hosts::codex {

using nlohmann::json;

namespace {

// The code point of the UTF-8 sequence at s[i] and its length, or {-1, 1} for an invalid byte.
std::pair<long, size_t> decode_at(const std::string& s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return {-1, 1};
  long cp = len == 1 ? b : b & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c >> 6) != 2) return {-1, 1};
    cp = (cp << 6) | (c & 0x3F);
  }
  return {cp, len};
}

// Unicode White_Space (Rust's char::is_whitespace).
bool white_space(long cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
}

}  // namespace

std::string rust_trim(const std::string& s) {
  size_t begin = 0;
  while (begin < s.size()) {
    auto [cp, len] = decode_at(s, begin);
    if (!white_space(cp)) break;
    begin += len;
  }
  size_t end = s.size();
  while (end > begin) {
    size_t start = end - 1;  // back to the lead byte of the last sequence
    while (start > begin && (static_cast<unsigned char>(s[start]) >> 6) == 2 && end - start < 4)
      --start;
    auto [cp, len] = decode_at(s, start);
    if (start + len != end || !white_space(cp)) break;
    end = start;
  }
  return s.substr(begin, end - begin);
}

std::optional<std::string> trimmed_reason(const std::string& s) {
  std::string t = rust_trim(s);
  if (t.empty()) return std::nullopt;
  return t;
}

bool serde_parses(const std::string& text) {
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) return false;  // a BOM is no JSON to serde_json
  // serde_json's recursion limit: the 128th nested [ or { fails. Brackets inside strings do not
  // count.
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth >= 128) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return !json::parse(text, nullptr, false).is_discarded();
}

namespace {

// serde: Option<String> takes a string or null; bool a boolean only (null is an error); an
// Option<enum> null or one of its names; a required enum one of its names.
bool opt_string(const json& v) { return v.is_null() || v.is_string(); }
bool is_bool(const json& v) { return v.is_boolean(); }
bool any_value(const json&) { return true; }
bool enum_of(const json& v, std::initializer_list<const char*> names, bool nullable) {
  if (nullable && v.is_null()) return true;
  if (!v.is_string()) return false;
  for (const char* n : names)
    if (v == n) return true;
  return false;
}
// CXSRC schema.rs HookEventNameWire: the names hookSpecificOutput.hookEventName may carry. The
// parser never compares it with the event: a known name of another event is read as is.
bool event_name_wire(const json& v) {
  return enum_of(v,
                 {"PreToolUse", "PermissionRequest", "PostToolUse", "SessionStart",
                  "UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop"},
                 false);
}

using Check = bool (*)(const json&);
using Fields = std::map<std::string, Check>;

std::string fields_problem(const json& o, const std::string& where, const Fields& fields,
                           std::initializer_list<const char*> required = {}) {
  for (auto it = o.begin(); it != o.end(); ++it) {
    auto f = fields.find(it.key());
    if (f == fields.end()) return "unknown field `" + where + it.key() + "`";
    if (f->second && !f->second(it.value()))
      return "invalid type or value for `" + where + it.key() + "`";
  }
  for (const char* r : required)
    if (!o.contains(r)) return "missing field `" + where + r + "`";
  return "";
}

// CXSRC schema.rs HookUniversalOutputWire, flattened into every reply struct.
Fields universal_fields() {
  return {{"continue", is_bool},
          {"stopReason", opt_string},
          {"suppressOutput", is_bool},
          {"systemMessage", opt_string}};
}

// hookSpecificOutput: null (= absent) or an object of `fields`, hookEventName required.
std::string hso_problem(const json& reply, Fields fields) {
  if (!reply.contains("hookSpecificOutput") || reply["hookSpecificOutput"].is_null()) return "";
  const json& h = reply["hookSpecificOutput"];
  if (!h.is_object()) return "invalid type or value for `hookSpecificOutput`";
  fields["hookEventName"] = event_name_wire;
  return fields_problem(h, "hookSpecificOutput.", fields, {"hookEventName"});
}

bool present(const json& j, const char* k) {
  return j.is_object() && j.contains(k) && !j[k].is_null();
}
std::optional<std::string> str(const json& j, const char* k) {
  if (j.is_object() && j.contains(k) && j[k].is_string()) return j[k].get<std::string>();
  return std::nullopt;
}
bool nonblank(const json& j, const char* k) {
  auto s = str(j, k);
  return s && trimmed_reason(*s);
}

// CXSRC output_parser.rs unsupported_<event>_universal: the universal fields an event refuses.
std::optional<std::string> unsupported_universal(std::string_view event, const json& j) {
  const std::string e(event);
  if (j.contains("continue") && j["continue"] == false)
    return e + " hook returned unsupported continue:false";
  if (present(j, "stopReason")) return e + " hook returned unsupported stopReason";
  if (j.contains("suppressOutput") && j["suppressOutput"] == true)
    return e + " hook returned unsupported suppressOutput";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> reply_wire_problem(std::string_view event, const json& reply) {
  // SessionEnd and Interrupt are not in the engine snapshot read; their output is not read
  // (hosts/codex family.h), so nothing in it can fail.
  if (event == "SessionEnd" || event == "Interrupt") return std::nullopt;
  if (!reply.is_object()) return "not a JSON object";
  Fields top = universal_fields();
  std::string p;
  if (event == "PreToolUse") {
    // PreToolUseCommandOutputWire: decision approve|block, reason, hookSpecificOutput
    // {permissionDecision allow|deny|ask, permissionDecisionReason, updatedInput,
    // additionalContext}.
    top["decision"] = [](const json& v) { return enum_of(v, {"approve", "block"}, true); };
    top["reason"] = opt_string;
    top["hookSpecificOutput"] = nullptr;
    p = fields_problem(reply, "", top);
    if (p.empty())
      p = hso_problem(reply, {{"permissionDecision",
                               [](const json& v) { return enum_of(v, {"allow", "deny", "ask"}, true); }},
                              {"permissionDecisionReason", opt_string},
                              {"updatedInput", any_value},
                              {"additionalContext", opt_string}});
  } else if (event == "PermissionRequest") {
    // PermissionRequestCommandOutputWire: hookSpecificOutput.decision {behavior allow|deny
    // (required), updatedInput, updatedPermissions, message, interrupt}.
    top["hookSpecificOutput"] = nullptr;
    p = fields_problem(reply, "", top);
    if (p.empty()) p = hso_problem(reply, {{"decision", nullptr}});
    if (p.empty() && present(reply, "hookSpecificOutput") &&
        present(reply["hookSpecificOutput"], "decision")) {
      const json& d = reply["hookSpecificOutput"]["decision"];
      if (!d.is_object()) return "invalid type or value for `hookSpecificOutput.decision`";
      p = fields_problem(d, "hookSpecificOutput.decision.",
                         {{"behavior", [](const json& v) { return enum_of(v, {"allow", "deny"}, false); }},
                          {"updatedInput", any_value},
                          {"updatedPermissions", any_value},
                          {"message", opt_string},
                          {"interrupt", is_bool}},
                         {"behavior"});
    }
  } else if (event == "PostToolUse" || event == "UserPromptSubmit" || event == "Stop" ||
             event == "SubagentStop") {
    // PostToolUse / UserPromptSubmit / Stop output wires: decision "block" only, reason;
    // hookSpecificOutput on PostToolUse {additionalContext, updatedMCPToolOutput} and
    // UserPromptSubmit {additionalContext}; none on Stop / SubagentStop.
    top["decision"] = [](const json& v) { return enum_of(v, {"block"}, true); };
    top["reason"] = opt_string;
    if (event == "PostToolUse" || event == "UserPromptSubmit") top["hookSpecificOutput"] = nullptr;
    p = fields_problem(reply, "", top);
    if (p.empty() && event == "PostToolUse")
      p = hso_problem(reply, {{"additionalContext", opt_string}, {"updatedMCPToolOutput", any_value}});
    if (p.empty() && event == "UserPromptSubmit")
      p = hso_problem(reply, {{"additionalContext", opt_string}});
  } else if (event == "SessionStart" || event == "SubagentStart") {
    // SessionStartCommandOutputWire: hookSpecificOutput {additionalContext}.
    top["hookSpecificOutput"] = nullptr;
    p = fields_problem(reply, "", top);
    if (p.empty()) p = hso_problem(reply, {{"additionalContext", opt_string}});
  } else {
    // PreCompact / PostCompact (events/compact.rs: a block decision is invalid JSON there) and
    // any other event: the universal fields only.
    p = fields_problem(reply, "", top);
  }
  if (p.empty()) return std::nullopt;
  return p;
}

std::optional<std::string> reply_rejection(std::string_view event, const json& j) {
  const std::string e(event);
  if (event == "PreToolUse") {
    // CXSRC output_parser.rs parse_pre_tool_use; CX (measured): continue / stopReason /
    // suppressOutput, a deny without a reason and `ask` each make the run Failed.
    if (auto u = unsupported_universal(event, j)) return u;
    const json hso = present(j, "hookSpecificOutput") ? j["hookSpecificOutput"] : json::object();
    const json pd = hso.contains("permissionDecision") ? hso["permissionDecision"] : json();
    const bool has_reason = present(hso, "permissionDecisionReason");
    const bool has_updated = present(hso, "updatedInput");
    // The hookSpecificOutput decision is read when it carries any of these three fields; the
    // top-level decision/reason only otherwise.
    if (!pd.is_null() || has_reason || has_updated) {
      if (has_updated && pd != "allow")
        return std::string("PreToolUse hook returned updatedInput without permissionDecision:allow");
      if (pd == "allow" && !has_updated)
        return std::string("PreToolUse hook returned unsupported permissionDecision:allow");
      if (pd == "ask") return std::string("PreToolUse hook returned unsupported permissionDecision:ask");
      if (pd == "deny" && !nonblank(hso, "permissionDecisionReason"))
        return std::string(
            "PreToolUse hook returned permissionDecision:deny without a non-empty "
            "permissionDecisionReason");
      if (pd.is_null() && has_reason)
        return std::string(
            "PreToolUse hook returned permissionDecisionReason without permissionDecision");
      return std::nullopt;
    }
    const json d = j.contains("decision") ? j["decision"] : json();
    if (d == "approve") return std::string("PreToolUse hook returned unsupported decision:approve");
    if (d == "block" && !nonblank(j, "reason"))
      return std::string("PreToolUse hook returned decision:block without a non-empty reason");
    if (d.is_null() && present(j, "reason"))
      return std::string("PreToolUse hook returned reason without decision");
    return std::nullopt;
  }
  if (event == "PermissionRequest") {
    // CXSRC output_parser.rs parse_permission_request: the reserved decision fields fail closed.
    if (auto u = unsupported_universal(event, j)) return u;
    const json hso = present(j, "hookSpecificOutput") ? j["hookSpecificOutput"] : json::object();
    if (!present(hso, "decision")) return std::nullopt;
    const json& d = hso["decision"];
    if (present(d, "updatedInput"))
      return std::string("PermissionRequest hook returned unsupported updatedInput");
    if (present(d, "updatedPermissions"))
      return std::string("PermissionRequest hook returned unsupported updatedPermissions");
    if (d.value("interrupt", false))
      return std::string("PermissionRequest hook returned unsupported interrupt:true");
    return std::nullopt;
  }
  if (event == "PostToolUse" || event == "UserPromptSubmit" || event == "Stop" ||
      event == "SubagentStop") {
    // CXSRC output_parser.rs parse_post_tool_use / parse_user_prompt_submit / parse_stop.
    if (event == "PostToolUse" && j.contains("suppressOutput") && j["suppressOutput"] == true)
      return std::string("PostToolUse hook returned unsupported suppressOutput");
    const bool block = j.contains("decision") && j["decision"] == "block";
    if (block && !nonblank(j, "reason"))
      return e + " hook returned decision:block without a non-empty reason";
    const bool cont = !(j.contains("continue") && j["continue"] == false);
    if (event == "PostToolUse" && !block && cont && present(j, "reason"))
      return std::string("PostToolUse hook returned reason without decision");
    return std::nullopt;
  }
  return std::nullopt;
}

namespace {

// Codex CLI 0.171 (ReplyReading::kBoth): a reply is what it is when it deserializes into the
// event's reply struct (reply_wire_problem: CX, one extra key and the run is Failed) and Codex
// accepts what it says (reply_rejection); otherwise the run is Failed and the host goes on as if
// the hook had not answered (on PreToolUse: the command runs).
std::string shape(std::string_view event, const json& j, ReplyKind* kind) {
  const bool gate = event == "PreToolUse";
  const std::string after = gate ? " (a failed run: the command runs)" : " (a failed run)";
  if (auto p = reply_wire_problem(event, j)) return "Codex rejects the reply: " + *p + after;
  if (auto p = reply_rejection(event, j)) return "Codex rejects the reply: " + *p + after;
  if (event == "SessionEnd" || event == "Interrupt") return "";
  const json hso = present(j, "hookSpecificOutput") ? j["hookSpecificOutput"] : json::object();
  if (gate) {
    const json pd = hso.contains("permissionDecision") ? hso["permissionDecision"] : json();
    const bool specific = !pd.is_null() || present(hso, "permissionDecisionReason") ||
                          present(hso, "updatedInput");
    if (specific ? pd == "deny" : j.value("decision", json()) == "block") *kind = ReplyKind::kDeny;
    else if (pd == "allow") *kind = ReplyKind::kAllow;
    return "";
  }
  if (event == "PermissionRequest" && present(hso, "decision"))
    *kind = hso["decision"]["behavior"] == "deny" ? ReplyKind::kDeny : ReplyKind::kAllow;
  if (j.contains("decision") && j["decision"] == "block") *kind = ReplyKind::kDeny;
  return "";
}

// CX: exit 0 with no output is the one reply that is never a failed run ({} stands for it).
json allow_reply(std::string_view) { return json::object(); }

// The effects emu::codex reports (emulator/hosts/codex/src/runner.cc, classify).
std::string describe_effect(std::string_view, const std::string& k, const std::string& m,
                            const std::string&) {
  if (k == "no_opinion") return "no output: the host goes on as without the hook";
  if (k == "denied") return "denied; the model is told: " + clip_line(m, 120);
  if (k == "blocked") return "blocked; the model is told: " + clip_line(m, 120);
  if (k == "allowed") return "allowed by the hook" + (m.empty() ? "" : ": " + clip_line(m, 80));
  if (k == "failed")
    return "the hook run Failed (the reply is not one Codex accepts): the call goes on" +
           (m.empty() ? std::string() : ": " + clip_line(m, 80));
  if (k == "stopped") return "the turn stops" + (m.empty() ? "" : ": " + clip_line(m, 80));
  if (k == "json_read") return "reply read" + (m.empty() ? "" : ": " + clip_line(m, 80));
  if (k == "text_ignored") return "plain text on exit 0: ignored";
  if (k == "timed_out") return "cancelled at its timeout (a failed run): the call goes on";
  return k + (m.empty() ? "" : ": " + m);
}

bool same_failsafe(const std::string& got, const std::string& want) { return got == want; }

}  // namespace

extern const FamilyModel kModel{shape, allow_reply, describe_effect, same_failsafe};

}  // namespace pinta::hosts::codex
