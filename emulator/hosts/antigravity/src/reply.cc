// Reading hook replies the way agy does (shared/reference/antigravity-hooks.md §6-§7). Every
// branch that depends on a host fact reads a profile switch; the switch's evidence lives in the
// profile data (profiles/*.json) and the names are recorded in Effect::assumptions.
#include <optional>
#include <set>

#include "pinta/emulator/antigravity/antigravity.h"
#include "pinta/common/text.h"

namespace pinta::emu::agy {
namespace {

using nlohmann::json;

using pinta::text::replace_all;
// Go's strings.TrimSpace as the host applies it to a reply here: space, tab, CR, LF.
std::string trim(const std::string& s) { return pinta::text::trim(s, " \t\r\n"); }

// Go's text for a command that did not exit 0 ("exit status N", "signal: killed").
std::string command_failure_text(const HookReply& r) {
  if (r.exit_code) return "exit status " + std::to_string(*r.exit_code);
  switch (r.term_signal) {
    case 9:
      return "signal: killed";
    case 15:
      return "signal: terminated";
    case 2:
      return "signal: interrupt";
    case 6:
      return "signal: aborted";
    case 11:
      return "signal: segmentation fault";
    default:
      return "signal: " + std::to_string(r.term_signal);
  }
}

// Parses text as protojson would see it: one JSON value, no duplicate keys (protojson rejects
// "duplicate field"; nlohmann keeps the last, so duplicates are caught by a parse callback).
struct Parsed {
  json value;
  std::string error;  // empty: ok
};
Parsed parse_strict(const std::string& text) {
  std::vector<std::set<std::string>> keys;
  std::string dup;
  json::parser_callback_t cb = [&](int /*depth*/, json::parse_event_t ev, json& parsed) {
    if (ev == json::parse_event_t::object_start) {
      keys.emplace_back();
    } else if (ev == json::parse_event_t::object_end) {
      if (!keys.empty()) keys.pop_back();
    } else if (ev == json::parse_event_t::key && !keys.empty()) {
      std::string k = parsed.is_string() ? parsed.get<std::string>() : std::string();
      if (!keys.back().insert(k).second && dup.empty()) dup = k;
    }
    return true;
  };
  Parsed p;
  p.value = json::parse(text, cb, /*allow_exceptions=*/false);
  if (p.value.is_discarded()) {
    p.error = "syntax error (not one JSON value)";
  } else if (!dup.empty()) {
    p.error = "duplicate field \"" + dup + "\"";
  } else if (!p.value.is_object()) {
    p.error = "unexpected token " + p.value.dump() + " (not an object)";
  }
  return p;
}

// A protojson field: its JSON (camelCase) and proto (snake_case) names are both accepted.
const json* field(const json& obj, const char* camel, const char* snake, int* count = nullptr) {
  const json* out = nullptr;
  for (const char* n : {camel, snake}) {
    auto it = obj.find(n);
    if (it != obj.end()) {
      if (count) ++*count;
      if (!it->is_null()) out = &*it;  // protojson: null = field unset
    }
  }
  return out;
}

Effect make(const std::string& kind, const std::string& message, const std::string& id) {
  Effect e;
  e.kind = kind;
  e.message = message;
  e.hook_id = id;
  return e;
}

// Applies a "tool-failed" | "deny" | "no-opinion" switch value.
Effect pre_tool_outcome(const Profile& p, const std::string& value, const std::string& switch_name,
                        const std::string& failure_text, const ReplyContext& ctx,
                        const json& args) {
  Effect e;
  if (value == "tool-failed") {
    e = make("tool_failed", failure_text, ctx.hook_id);
  } else if (value == "deny") {
    e = make("denied",
             replace_all(replace_all(p.deny_message_format, "{reason}", ""), "{id}", ctx.hook_id),
             ctx.hook_id);
    e.assumptions.push_back("deny_message_format");
  } else {
    e = make("no_opinion", "", ctx.hook_id);
  }
  e.args_after = args;
  e.assumptions.insert(e.assumptions.begin(), switch_name);
  return e;
}

std::string unmarshal_text(const Profile& p, const std::string& id, const std::string& detail) {
  return replace_all(replace_all(p.tool_failed_unmarshal_format, "{id}", id), "{detail}", detail);
}

std::string exit_text(const Profile& p, const std::string& id, const HookReply& r) {
  if (r.spawn_failed)  // split mode: exec failed (Go: exec: "x": executable file not found …)
    return replace_all(replace_all(p.tool_failed_exit_format, "{id}", id), "exit status {code}",
                       r.spawn_error);
  std::string what = command_failure_text(r);
  std::string s = replace_all(p.tool_failed_exit_format, "{id}", id);
  return replace_all(s, "exit status {code}", what);
}

// The fields of a PreToolHookResult (§7.1) a decision reads; nullptr when absent.
struct PreToolFields {
  const json* decision;
  const json* reason;
  const json* overrides;
  const json* overwrite;
  const json* allow_tool;
  const json* deny_reason;
};

// The effect of a well-formed PreToolUse reply (§6.2): its decision, with `merged` the call's
// args after its overwrite.
Effect decide_pre_tool(const Profile& p, const PreToolFields& f, const json& args, json merged,
                       std::vector<std::string> overwrite_assumptions, const ReplyContext& ctx) {
  const std::string& id = ctx.hook_id;
  std::string dec = f.decision ? f.decision->get<std::string>() : "";
  std::string why = f.reason ? f.reason->get<std::string>() : "";
  auto deny_msg = [&](const std::string& fmt, const std::string& rsn) {
    return replace_all(replace_all(fmt, "{reason}", rsn), "{id}", id);
  };
  auto proceed = [&](const std::string& kind, const std::string& msg) {
    Effect e = make(kind, msg, id);
    e.decision = dec;
    e.args_after = merged;
    e.assumptions = overwrite_assumptions;
    // Under toolPermission=request-review agy reviews the call; on agy 1.0.2 the review judged
    // the original call and the overwrite was silently discarded (discuss.ai.google.dev thread
    // "PreToolHookResult overwrite is broken under ToolPermission request review").
    if (f.overwrite && ctx.permission_review) {
      e.assumptions.push_back("overwrite_under_review");
      if (p.overwrite_under_review == "discarded") {
        e.args_after = args.is_object() ? args : json::object();
        e.message += std::string(e.message.empty() ? "" : "; ") +
                     "overwrite discarded: the permission review judged the original call";
      }
    }
    if (f.overrides) {
      e.permission_overrides = *f.overrides;
      e.assumptions.push_back("permission_overrides");
    }
    return e;
  };
  auto denied = [&](const std::string& msg, std::vector<std::string> sw) {
    Effect e = make("denied", msg, id);
    e.decision = dec;
    e.args_after = args;
    e.assumptions = std::move(sw);
    return e;
  };

  if (dec.empty()) {
    // Deprecated allow_tool/deny_reason (§6.2, OBS 1.1.7 sigil #202/#208).
    if (f.allow_tool) {
      if (!f.allow_tool->get<bool>())
        return denied(deny_msg(p.legacy_deny_message_format,
                               f.deny_reason ? f.deny_reason->get<std::string>() : ""),
                      {"legacy_allow_tool", "legacy_deny_message_format"});
      Effect e = proceed("allowed", "allow_tool: true (deprecated field)");
      e.assumptions.push_back("legacy_allow_tool");
      return e;
    }
    // §6.2: an object without decision is a deny with an empty reason (OBS 1.0.5/1.0.15/1.2.7).
    if (p.pretooluse_empty_object == "allow") {
      Effect e = proceed("allowed", "");
      e.assumptions.push_back("pretooluse_empty_object");
      return e;
    }
    return denied(deny_msg(p.deny_message_format, ""),
                  {"pretooluse_empty_object", "deny_message_format"});
  }
  if (dec == "deny") return denied(deny_msg(p.deny_message_format, why), {"deny_message_format"});
  if (dec == "allow") {
    Effect e = proceed("allowed", p.allow_skips_prompt ? "runs without agy's permission prompt"
                                                       : "proceeds through agy's permission flow");
    e.assumptions.push_back("allow_skips_prompt");
    return e;
  }
  if (dec == "ask") return proceed("asked", why);
  if (dec == "force_ask" && p.force_ask) {
    Effect e = proceed("asked", why);
    e.assumptions.push_back("force_ask");
    return e;
  }
  if (dec == "auto_approve" && p.auto_approve) {
    Effect e = proceed("allowed", "auto_approve");
    e.assumptions.push_back("auto_approve");
    return e;
  }
  if (dec == "deny_unless_prior_grant" && p.deny_unless_prior_grant) {
    if (ctx.prior_grant) {
      Effect e = proceed("allowed", "deny_unless_prior_grant: resource granted before");
      e.assumptions.push_back("deny_unless_prior_grant");
      return e;
    }
    return denied(deny_msg(p.deny_message_format, why),
                  {"deny_unless_prior_grant", "deny_message_format"});
  }
  Effect e = pre_tool_outcome(p, p.unknown_decision, "unknown_decision",
                              unmarshal_text(p, id, "invalid value for decision: \"" + dec + "\""),
                              ctx, args);
  e.decision = dec;
  if (dec == "force_ask") e.assumptions.push_back("force_ask");
  if (dec == "auto_approve") e.assumptions.push_back("auto_approve");
  if (dec == "deny_unless_prior_grant") e.assumptions.push_back("deny_unless_prior_grant");
  return e;
}

Effect interpret_pre_tool(const Profile& p, const HookReply& r, const json& args,
                          const ReplyContext& ctx) {
  const std::string& id = ctx.hook_id;
  // §6.2: a command that did not run to exit 0 fails the tool call (grain, 1.1.26).
  if (r.timed_out)
    return pre_tool_outcome(p, p.pretooluse_timeout, "pretooluse_timeout",
                            replace_all(p.tool_failed_timeout_format, "{id}", id), ctx, args);
  if (r.spawn_failed || !r.exit_code || *r.exit_code != 0)
    return pre_tool_outcome(p, p.pretooluse_nonzero_exit, "pretooluse_nonzero_exit",
                            exit_text(p, id, r), ctx, args);
  // §6.2: empty stdout = no opinion (whitespace-only counted as empty: inference).
  if (trim(r.stdout_text).empty()) {
    Effect e = pre_tool_outcome(p, p.pretooluse_empty_stdout == "deny" ? "deny" : "no-opinion",
                                "pretooluse_empty_stdout", "", ctx, args);
    return e;
  }
  Parsed parsed = parse_strict(r.stdout_text);
  if (!parsed.error.empty())
    return pre_tool_outcome(p, p.pretooluse_nonjson, "pretooluse_nonjson",
                            unmarshal_text(p, id, parsed.error), ctx, args);
  const json& o = parsed.value;

  // Known fields of PreToolHookResult (§7.1); anything else is an unknown field (protojson).
  std::set<std::string> known = {"decision", "reason", "permissionOverrides",
                                 "permission_overrides", "overwrite"};
  if (p.legacy_allow_tool)
    for (const char* k : {"allowTool", "allow_tool", "denyReason", "deny_reason"}) known.insert(k);
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (!known.count(it.key())) {
      Effect e =
          pre_tool_outcome(p, p.pretooluse_unknown_fields, "pretooluse_unknown_fields",
                           unmarshal_text(p, id, "unknown field \"" + it.key() + "\""), ctx, args);
      if (!p.legacy_allow_tool && (it.key() == "allow_tool" || it.key() == "deny_reason"))
        e.assumptions.push_back("legacy_allow_tool");
      return e;
    }
  }
  auto type_error = [&](const std::string& what) {
    return pre_tool_outcome(p, p.pretooluse_nonjson, "pretooluse_nonjson",
                            unmarshal_text(p, id, "invalid value for " + what), ctx, args);
  };
  int n = 0;
  const json* decision = field(o, "decision", "decision");
  const json* reason = field(o, "reason", "reason");
  n = 0;
  const json* overrides = field(o, "permissionOverrides", "permission_overrides", &n);
  if (n > 1) return type_error("permission_overrides (set twice)");
  const json* overwrite = field(o, "overwrite", "overwrite");
  n = 0;
  const json* allow_tool = p.legacy_allow_tool ? field(o, "allowTool", "allow_tool", &n) : nullptr;
  const json* deny_reason = p.legacy_allow_tool ? field(o, "denyReason", "deny_reason") : nullptr;
  if (decision && !decision->is_string()) return type_error("string field decision");
  if (reason && !reason->is_string()) return type_error("string field reason");
  if (overrides) {
    if (!overrides->is_array()) return type_error("repeated string field permission_overrides");
    for (const auto& v : *overrides)
      if (!v.is_string()) return type_error("repeated string field permission_overrides");
  }
  if (allow_tool && !allow_tool->is_boolean()) return type_error("bool field allow_tool");
  if (deny_reason && !deny_reason->is_string()) return type_error("string field deny_reason");

  // overwrite (§7.1): shallow merge into args, or the older HookToolCall {name, args} shape.
  json merged = args.is_object() ? args : json::object();
  std::vector<std::string> overwrite_assumptions;
  if (overwrite) {
    if (!overwrite->is_object()) return type_error("message field overwrite");
    overwrite_assumptions.push_back("overwrite_shape");
    if (p.overwrite_shape == "name-args") {
      for (auto it = overwrite->begin(); it != overwrite->end(); ++it)
        if (it.key() != "name" && it.key() != "args") {
          Effect e = pre_tool_outcome(
              p, p.pretooluse_unknown_fields, "pretooluse_unknown_fields",
              unmarshal_text(p, id, "unknown field \"" + it.key() + "\" in overwrite"), ctx, args);
          e.assumptions.push_back("overwrite_shape");
          return e;
        }
      const json* a = field(*overwrite, "args", "args");
      if (a && !a->is_object()) return type_error("message field overwrite.args");
      if (a)
        for (auto it = a->begin(); it != a->end(); ++it) merged[it.key()] = it.value();
    } else {
      for (auto it = overwrite->begin(); it != overwrite->end(); ++it)
        merged[it.key()] = it.value();
    }
  }

  return decide_pre_tool(p, {decision, reason, overrides, overwrite, allow_tool, deny_reason}, args,
                         std::move(merged), std::move(overwrite_assumptions), ctx);
}

const char* failure_label(Event ev) {
  // [BIN 1.0.7] "failed to call custom pre-invocation hook %s: %v"; other labels by analogy.
  switch (ev) {
    case Event::kPreInvocation:
      return "pre-invocation";
    case Event::kPostInvocation:
      return "post-invocation";
    case Event::kStop:
      return "stop";
    case Event::kPostToolUse:
      return "post-tool";
    case Event::kSessionStart:
      return "session-start";
    case Event::kPreToolUse:
      return "pre-tool";
  }
  return "";
}

// A lifecycle hook that failed: logged, with no effect, but for PreInvocation.
Effect lifecycle_failure(const Profile& p, Event ev, const std::string& id, const std::string& what) {
  Effect e = make(
      "hook_failed",
      std::string("failed to call custom ") + failure_label(ev) + " hook " + id + ": " + what,
      id);
  // A failed PreInvocation gates the model call it precedes (profile preinvocation_failure):
  // agy 1.0.x retried it without end (clawd-on-desk PR #433); agy 1.2.1 aborts the invocation
  // and exits 1 (synara PR #1143, prehooks.go:43).
  if (ev == Event::kPreInvocation) {
    e.assumptions.push_back("preinvocation_failure");
    if (p.preinvocation_failure == "retry-loop") {
      e.kind = "retry_loop";
      e.message += "; agy retries the invocation (and this hook) without end";
    } else if (p.preinvocation_failure == "cli-exit") {
      e.kind = "cli_exited";
      e.message += "; the invocation is aborted and agy exits 1";
    }
  }
  return e;
}

// Stop's reply (§7.4): "continue" re-enters the loop with reason as a system message, up to the
// profile's cap; anything else stops.
Effect stop_outcome(const Profile& p, const json& o, const ReplyContext& ctx) {
  const std::string& id = ctx.hook_id;
  const json* d = field(o, "decision", "decision");
  const json* rs = field(o, "reason", "reason");
  if ((d && !d->is_string()) || (rs && !rs->is_string()))
    return lifecycle_failure(p, Event::kStop, id, "proto: invalid value for string field");
  if (d && d->get<std::string>() == "continue") {
    if (ctx.stop_continuations >= p.stop_continuation_cap) {
      Effect e = make("stopped",
                      "continuation cap reached (" + std::to_string(p.stop_continuation_cap) +
                          " consecutive continuations)",
                      id);
      e.decision = "continue";
      e.assumptions.push_back("stop_continuation_cap");
      return e;
    }
    Effect e = make("continued", rs ? rs->get<std::string>() : "", id);
    e.decision = "continue";
    e.injected_steps.push_back({{"systemMessage", e.message}});
    e.assumptions.push_back("stop_continuation_cap");
    return e;
  }
  Effect e = make("stopped", "", id);
  if (d) e.decision = d->get<std::string>();
  return e;
}

// injectSteps (§7.3): each item one step of a kind the profile knows, added to e.injected_steps.
// The failure, if an item is not one.
std::optional<Effect> read_inject_steps(const Profile& p, Event ev, const std::string& id,
                                        const json& steps, Effect& e) {
  auto failed = [&](const std::string& what) { return lifecycle_failure(p, ev, id, what); };
  if (!steps.is_array()) return failed("proto: invalid value for repeated field injectSteps");
  for (const auto& st : steps) {
    if (!st.is_object()) return failed("proto: invalid value for injectSteps item");
    json step = json::object();
    for (auto it = st.begin(); it != st.end(); ++it) {
      if (it->is_null()) continue;
      static const std::map<std::string, std::string> kSnake = {
          {"tool_call", "toolCall"},
          {"user_message", "userMessage"},
          {"ephemeral_message", "ephemeralMessage"},
          {"system_message", "systemMessage"}};
      std::string k = kSnake.count(it.key()) ? kSnake.at(it.key()) : it.key();
      bool allowed = false;
      for (const auto& a : p.inject_step_kinds) allowed = allowed || a == k;
      if (!allowed) {
        Effect f = failed("proto: unknown field \"" + it.key() + "\" in injectSteps item");
        f.assumptions.push_back("inject_step_kinds");
        return f;
      }
      bool ok = (k == "userMessage" || k == "ephemeralMessage") ? it->is_string()
                : k == "toolCall"
                    ? it->is_object() && (!it->contains("name") || (*it)["name"].is_string()) &&
                          (!it->contains("args") || (*it)["args"].is_object() ||
                           (*it)["args"].is_null())
                    : it->is_object();
      if (!ok) return failed("proto: invalid value for injectSteps." + k);
      if (!step.empty()) return failed("proto: oneof step already set in injectSteps item");
      step[k] = *it;
    }
    if (!step.empty()) e.injected_steps.push_back(step);
  }
  e.assumptions.push_back("inject_step_kinds");
  return std::nullopt;
}

// Lifecycle events and PostToolUse (§6.3, §7.3, §7.4). A failure is logged; it has no effect.
Effect interpret_lifecycle(const Profile& p, Event ev, const HookReply& r,
                           const ReplyContext& ctx) {
  const std::string& id = ctx.hook_id;
  const std::string quiet = ev == Event::kStop ? "stopped" : "no_opinion";
  auto failed = [&](const std::string& what) { return lifecycle_failure(p, ev, id, what); };
  if (r.timed_out) return failed("command failed: signal: killed");
  if (r.spawn_failed) return failed("command failed: " + r.spawn_error);
  if (!r.exit_code || *r.exit_code != 0)
    return failed("command failed: " + command_failure_text(r));
  if (trim(r.stdout_text).empty()) return make(quiet, "", id);
  Parsed parsed = parse_strict(r.stdout_text);
  if (!parsed.error.empty()) return failed("proto: syntax error: " + parsed.error);
  const json& o = parsed.value;

  std::set<std::string> known;
  if (ev == Event::kPreInvocation || ev == Event::kPostInvocation || ev == Event::kSessionStart)
    known = {"injectSteps", "inject_steps"};
  if (ev == Event::kPostInvocation && p.termination_behavior)
    known.insert({"terminationBehavior", "termination_behavior"});
  if (ev == Event::kStop) known = {"decision", "reason"};
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (known.count(it.key())) continue;
    if (it.key() == "decision" && (ev == Event::kPreInvocation || ev == Event::kPostInvocation) &&
        p.invocation_decision_key == "cli-exit") {
      Effect e = make(
          "cli_exited",
          "agy exited on a " + std::string(event_name(ev)) + " decision " + it.value().dump(), id);
      e.assumptions.push_back("invocation_decision_key");
      return e;
    }
    Effect e = failed("proto: unknown field \"" + it.key() + "\"");
    if (it.key() == "decision" && ev != Event::kStop)
      e.assumptions.push_back("invocation_decision_key");
    if (it.key() == "terminationBehavior" || it.key() == "termination_behavior")
      e.assumptions.push_back("termination_behavior");
    return e;
  }

  if (ev == Event::kStop) return stop_outcome(p, o, ctx);

  Effect e = make("no_opinion", "", id);
  if (const json* steps = field(o, "injectSteps", "inject_steps"))
    if (auto bad = read_inject_steps(p, ev, id, *steps, e)) return *bad;
  if (!e.injected_steps.empty()) e.kind = "injected";
  if (ev == Event::kPostInvocation && p.termination_behavior) {
    if (const json* tb = field(o, "terminationBehavior", "termination_behavior")) {
      if (!tb->is_string()) return failed("proto: invalid value for terminationBehavior");
      std::string v = tb->get<std::string>();
      if (v == "terminate")
        e.kind = "terminated";
      else if (v == "force_continue")
        e.kind = "force_continued";
      else if (!v.empty())
        return failed("proto: invalid value for terminationBehavior: \"" + v + "\"");
      e.decision = v;
      e.assumptions.push_back("termination_behavior");
    }
  }
  return e;
}

bool needs_permission(const std::string& tool) {
  // antigravity-cli#1053 [OBS 1.2.7]: run_command needs the "command" permission headless mode
  // cannot prompt for. Other tools' permissions in headless mode: unmeasured.
  return tool == "run_command";
}

}  // namespace

HookReply reply_from(const pinta::proc::SpawnResult& r) {
  HookReply h;
  h.stdout_text = r.out;
  h.stderr_text = r.err;
  h.exit_code = r.exit_code;
  h.timed_out = r.timed_out || r.hard_limited;
  h.term_signal = r.term_signal.value_or(0);
  h.spawn_failed = !r.started;
  h.spawn_error = r.spawn_error;
  return h;
}

Effect interpret_reply(const Profile& profile, Event event, const HookReply& reply,
                       const json& original_args) {
  return interpret_reply(profile, event, reply, original_args, ReplyContext{});
}

Effect interpret_reply(const Profile& profile, Event event, const HookReply& reply,
                       const json& original_args, const ReplyContext& ctx) {
  if (event == Event::kPreToolUse) {
    Effect e = interpret_pre_tool(profile, reply, original_args, ctx);
    if (ctx.headless) return aggregate(profile, event, {e}, original_args, ctx);
    return e;
  }
  return interpret_lifecycle(profile, event, reply, ctx);
}

Effect aggregate(const Profile& profile, Event event, const std::vector<Effect>& per_hook,
                 const json& original_args, const ReplyContext& ctx) {
  Effect out;
  if (event == Event::kPreToolUse) {
    // ASSUMPTION (§7.2, switch aggregation/overwrite_chaining): first deny/failure wins, ask
    // sticks over allow, args accumulate across hooks.
    json args = original_args.is_object() ? original_args : json::object();
    out.kind = "no_opinion";
    out.args_after = args;
    bool asked = false, allowed = false;
    for (const auto& e : per_hook) {
      for (const auto& a : e.assumptions) out.assumptions.push_back(a);
      if (e.kind == "denied" || e.kind == "tool_failed" || e.kind == "cli_exited") {
        Effect r = e;
        r.args_after = args;
        r.assumptions = out.assumptions;
        if (per_hook.size() > 1) r.assumptions.push_back("aggregation");
        return r;
      }
      if (profile.overwrite_chaining == "accumulate" && e.args_after.is_object())
        for (auto it = e.args_after.begin(); it != e.args_after.end(); ++it)
          args[it.key()] = it.value();
      for (const auto& po : e.permission_overrides) out.permission_overrides.push_back(po);
      // `agy -p` cannot answer a prompt: on the builds synara PR #1096 describes an ask fails
      // the tool call outright (profile headless_ask).
      if (e.kind == "asked" && ctx.headless && profile.headless_ask == "tool-failed") {
        Effect r = make("tool_failed",
                        "JSON hook " + e.hook_id + " failed: decision \"" + e.decision +
                            "\" cannot be answered in print mode",
                        e.hook_id);
        r.decision = e.decision;
        r.args_after = args;
        r.assumptions = out.assumptions;
        r.assumptions.push_back("headless_ask");
        if (per_hook.size() > 1) r.assumptions.push_back("aggregation");
        return r;
      }
      if (e.kind == "asked" && !asked) {
        asked = true;
        out.message = e.message;
        out.decision = e.decision;
        out.hook_id = e.hook_id;
      }
      if (e.kind == "allowed" && !allowed && !asked) {
        out.message = e.message;
        out.decision = e.decision;
        out.hook_id = e.hook_id;
      }
      allowed = allowed || e.kind == "allowed";
    }
    out.kind = asked ? "asked" : allowed ? "allowed" : "no_opinion";
    out.args_after = args;
    if (per_hook.size() > 1) {
      out.assumptions.push_back("aggregation");
      out.assumptions.push_back("overwrite_chaining");
    }
    if (ctx.headless && profile.headless_allow == "cli-exit" && needs_permission(ctx.tool) &&
        !(out.kind == "allowed" && profile.allow_skips_prompt)) {
      out.kind = "cli_exited";
      out.message =
          "no output produced - a tool required the \"command\" permission that headless mode "
          "cannot prompt for";
      out.assumptions.push_back("headless_allow");
    }
    return out;
  }
  out.kind = event == Event::kStop ? "stopped" : "no_opinion";
  bool failed = false;
  for (const auto& e : per_hook) {
    for (const auto& a : e.assumptions) out.assumptions.push_back(a);
    if (e.kind == "cli_exited" || e.kind == "retry_loop") {
      Effect r = e;
      r.assumptions = out.assumptions;
      return r;
    }
    if (e.kind == "hook_failed") {
      failed = true;
      if (out.message.empty()) out.message = e.message;
      continue;
    }
    for (const auto& s : e.injected_steps) out.injected_steps.push_back(s);
    if (event == Event::kStop && e.kind == "continued") {  // SDK: first CONTINUE short-circuits
      Effect r = e;
      r.assumptions = out.assumptions;
      if (per_hook.size() > 1) r.assumptions.push_back("aggregation");
      return r;
    }
    if (event == Event::kStop && !e.message.empty() && out.message.empty()) out.message = e.message;
    if ((e.kind == "terminated" || e.kind == "force_continued") &&
        (out.kind != "terminated" && out.kind != "force_continued")) {
      out.kind = e.kind;  // first termination behaviour wins (ASSUMPTION)
      out.decision = e.decision;
      out.hook_id = e.hook_id;
    }
  }
  if (out.kind == "no_opinion" && !out.injected_steps.empty()) out.kind = "injected";
  // A failed hook is logged and has no effect; with nothing else happening, say so.
  if ((out.kind == "no_opinion" || out.kind == "stopped") && failed) out.kind = "hook_failed";
  if (per_hook.size() > 1) out.assumptions.push_back("aggregation");
  return out;
}

json effect_to_json(const Effect& e) {
  json j;
  j["kind"] = e.kind;
  j["message"] = e.message;
  j["decision"] = e.decision;
  j["hookId"] = e.hook_id;
  j["argsAfter"] = e.args_after;
  j["injectedSteps"] = e.injected_steps;
  j["permissionOverrides"] = e.permission_overrides;
  std::vector<std::string> a;
  std::set<std::string> seen;
  for (const auto& s : e.assumptions)
    if (seen.insert(s).second) a.push_back(s);
  j["assumptions"] = a;
  return j;
}

}  // namespace pinta::emu::agy
