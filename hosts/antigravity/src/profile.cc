// Profile loading: data files under profiles/, each switch {"value", "evidence"}.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "pinta/common/fs.h"
#include "pinta/hosts/antigravity/antigravity.h"
#include "pinta/hosts/hosts.h"

namespace pinta::hosts::agy {
namespace {

using nlohmann::json;

Error bad(const std::string& name, const std::string& msg) {
  return make_error(ErrorCode::kParse, "profile " + name + ": " + msg);
}

struct Reader {
  const json& sw;
  const std::string& name;
  std::optional<Error> err;
  std::set<std::string> seen;

  const json* get(const std::string& key) {
    seen.insert(key);
    auto it = sw.find(key);
    if (it == sw.end()) {
      if (!err) err = bad(name, "missing switch " + key);
      return nullptr;
    }
    return &(*it)["value"];
  }
  void boolean(const std::string& key, bool& out) {
    const json* v = get(key);
    if (!v) return;
    if (!v->is_boolean()) {
      if (!err) err = bad(name, key + " must be a boolean");
      return;
    }
    out = v->get<bool>();
  }
  void integer(const std::string& key, int& out) {
    const json* v = get(key);
    if (!v) return;
    if (!v->is_number_integer()) {
      if (!err) err = bad(name, key + " must be an integer");
      return;
    }
    out = v->get<int>();
  }
  void strings(const std::string& key, std::vector<std::string>& out) {
    const json* v = get(key);
    if (!v) return;
    if (!v->is_array()) {
      if (!err) err = bad(name, key + " must be an array of strings");
      return;
    }
    for (const auto& e : *v) {
      if (!e.is_string()) {
        if (!err) err = bad(name, key + " must be an array of strings");
        return;
      }
      out.push_back(e.get<std::string>());
    }
  }
  void choice(const std::string& key, std::string& out,
              std::initializer_list<const char*> allowed) {
    const json* v = get(key);
    if (!v) return;
    if (!v->is_string()) {
      if (!err) err = bad(name, key + " must be a string");
      return;
    }
    out = v->get<std::string>();
    if (allowed.size() == 0) return;
    for (const char* a : allowed)
      if (out == a) return;
    if (!err) err = bad(name, key + ": unknown value '" + out + "'");
  }
};

}  // namespace

Result<Profile> parse_profile(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return make_error(ErrorCode::kParse, "profile: not a JSON object");
  Profile p;
  if (!j.contains("name") || !j["name"].is_string() || j["name"].get<std::string>().empty())
    return make_error(ErrorCode::kParse, "profile: missing name");
  p.name = j["name"].get<std::string>();
  if (j.contains("description") && j["description"].is_string()) p.description = j["description"];
  if (!j.contains("switches") || !j["switches"].is_object())
    return bad(p.name, "missing switches object");
  p.switches = j["switches"];
  for (auto& [k, v] : p.switches.items()) {
    if (!v.is_object() || !v.contains("value") || !v.contains("evidence") ||
        !v["evidence"].is_string() || v["evidence"].get<std::string>().empty())
      return bad(p.name, "switch " + k + " needs {\"value\", \"evidence\"}");
  }
  Reader r{p.switches, p.name, std::nullopt, {}};
  r.boolean("read_global_config", p.read_global_config);
  r.boolean("read_workspace_agents", p.read_workspace_agents);
  r.boolean("read_legacy_cli", p.read_legacy_cli);
  r.boolean("read_plugin_roots", p.read_plugin_roots);
  r.boolean("read_ide_root", p.read_ide_root);
  r.boolean("hooks_run", p.hooks_run);
  std::string shape;
  r.choice("wrong_shape", shape, {"strict", "lenient"});
  p.strict_shape = shape == "strict";
  r.boolean("matcher_anchored", p.matcher_anchored);
  r.choice("invalid_matcher", p.invalid_matcher, {"no-match", "match-all"});
  r.choice("shell", p.shell, {"sh-c", "split"});
  r.choice("cwd", p.cwd, {"hooks-dir", "launch-dir"});
  r.choice("stdin", p.stdin_mode, {"closed", "open"});
  r.choice("pretooluse_empty_stdout", p.pretooluse_empty_stdout, {"no-opinion", "deny"});
  r.choice("pretooluse_empty_object", p.pretooluse_empty_object, {"deny", "allow"});
  r.choice("deny_message_format", p.deny_message_format, {});
  r.boolean("session_start", p.session_start);
  r.choice("overwrite_shape", p.overwrite_shape, {"args-merge", "name-args"});
  r.boolean("force_ask", p.force_ask);
  r.integer("timeout_default_seconds", p.timeout_default_seconds);
  r.boolean("stdin_trailing_newline", p.stdin_trailing_newline);
  r.choice("stop_stdin", p.stop_stdin, {"payload", "none"});
  r.choice("timeout_kill", p.timeout_kill, {"group-sigkill", "process-sigkill"});
  r.choice("hook_signals", p.hook_signals, {"go", "node"});
  const auto effects = {"tool-failed", "deny", "no-opinion"};
  r.choice("pretooluse_nonjson", p.pretooluse_nonjson, effects);
  r.choice("pretooluse_unknown_fields", p.pretooluse_unknown_fields, effects);
  r.choice("pretooluse_nonzero_exit", p.pretooluse_nonzero_exit, effects);
  r.choice("pretooluse_timeout", p.pretooluse_timeout, effects);
  r.choice("unknown_decision", p.unknown_decision, effects);
  r.choice("tool_failed_unmarshal_format", p.tool_failed_unmarshal_format, {});
  r.choice("tool_failed_exit_format", p.tool_failed_exit_format, {});
  r.choice("tool_failed_timeout_format", p.tool_failed_timeout_format, {});
  r.boolean("legacy_allow_tool", p.legacy_allow_tool);
  r.choice("legacy_deny_message_format", p.legacy_deny_message_format, {});
  r.boolean("auto_approve", p.auto_approve);
  r.boolean("deny_unless_prior_grant", p.deny_unless_prior_grant);
  r.choice("permission_overrides", p.permission_overrides, {"ignored", "granted"});
  r.boolean("allow_skips_prompt", p.allow_skips_prompt);
  r.choice("headless_allow", p.headless_allow, {"cli-exit", "runs"});
  r.choice("headless_ask", p.headless_ask, {"tool-failed", "asked"});
  r.choice("overwrite_under_review", p.overwrite_under_review, {"applied", "discarded"});
  r.strings("inject_step_kinds", p.inject_step_kinds);
  r.boolean("termination_behavior", p.termination_behavior);
  r.choice("invocation_decision_key", p.invocation_decision_key, {"hook-error", "cli-exit"});
  r.choice("preinvocation_failure", p.preinvocation_failure, {"logged", "retry-loop", "cli-exit"});
  r.integer("stop_continuation_cap", p.stop_continuation_cap);
  r.choice("aggregation", p.aggregation, {"first-deny-wins"});
  r.choice("overwrite_chaining", p.overwrite_chaining, {"accumulate", "independent"});
  r.choice("transcript_root", p.transcript_root,
           {"antigravity-cli", "antigravity", "antigravity-ide"});
  r.choice("transcript_file", p.transcript_file, {"transcript_full.jsonl", "transcript.jsonl"});
  r.boolean("pretooluse_artifact_dir", p.pretooluse_artifact_dir);
  r.choice("stop_termination_reason", p.stop_termination_reason, {});
  if (r.err) return *r.err;
  if (p.deny_message_format.find("{reason}") == std::string::npos)
    return bad(p.name, "deny_message_format must contain {reason}");
  if (p.legacy_deny_message_format.find("{reason}") == std::string::npos)
    return bad(p.name, "legacy_deny_message_format must contain {reason}");
  if (p.timeout_default_seconds <= 0)
    return bad(p.name, "timeout_default_seconds must be positive");
  for (const auto& k : p.inject_step_kinds)
    if (k != "toolCall" && k != "userMessage" && k != "ephemeralMessage" && k != "systemMessage")
      return bad(p.name, "inject_step_kinds: unknown kind '" + k + "'");
  for (auto& [k, v] : p.switches.items())
    if (!r.seen.count(k)) return bad(p.name, "unknown switch " + k);
  return p;
}

Result<std::vector<Profile>> load_profiles(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> files;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (it->path().extension() == ".json") files.push_back(it->path().string());
  }
  if (ec) return make_error(ErrorCode::kNotFound, "profile dir " + dir + ": " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<Profile> out;
  for (const auto& f : files) {
    auto text = fs::read_file(f);
    if (!text) return text.error();
    auto p = parse_profile(*text);
    if (!p) return make_error(p.error().code, f + ": " + p.error().message);
    if (find_profile(out, p->name))
      return make_error(ErrorCode::kParse, "duplicate profile " + p->name);
    out.push_back(std::move(*p));
  }
  if (out.empty()) return make_error(ErrorCode::kNotFound, "no profiles in " + dir);
  return out;
}

std::string default_profile_dir() {
  return pinta::hosts::profile_dir(pinta::hosts::Family::kAntigravity);
}

const Profile* find_profile(const std::vector<Profile>& profiles, const std::string& name) {
  for (const auto& p : profiles)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace pinta::hosts::agy
