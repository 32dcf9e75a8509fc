// Planning one event: core hooks/hookPlanner.js createExecutionPlan / matchesContext /
// deduplicateHooks and hookRunner.js applyHookOutputToInput (§3 of gemini-cli-0.61-hooks.md).
#include <set>

#include "pinta/hosts/gemini/gemini.h"
#include "pinta/hosts/node/js_regex.h"

namespace pinta::hosts::gemini {

bool matcher_matches(std::string_view event, const std::string& matcher_raw,
                     const PlanContext& ctx) {
  // §3 step 2. The matcher is trimmed; "" or "*" match everything.
  std::string m = js_trim(matcher_raw);
  if (m.empty() || m == "*") return true;
  if (event == "BeforeTool" || event == "AfterTool") {
    if (!ctx.tool_name) return true;  // no context → match
    // new RegExp(matcher).test(toolName): unanchored, flag-less JavaScript (Node's engine:
    // pinta::hosts::node::JsRegExp); a SyntaxError → equality.
    auto re = pinta::hosts::node::JsRegExp::compile_utf8(m);
    if (!re) return m == *ctx.tool_name;
    return re->test_utf8(*ctx.tool_name);
  }
  if (event == "SessionStart" || event == "SessionEnd" || event == "PreCompress") {
    if (!ctx.trigger) return true;
    return m == *ctx.trigger;  // exact equality (exp e01)
  }
  return true;  // other events pass no context: matcher ignored (exp e02, f02)
}

Plan plan_event(const LoadResult& loaded, std::string_view event, const PlanContext& ctx) {
  Plan plan;
  auto it = loaded.by_event.find(std::string(event));
  if (it == loaded.by_event.end()) return plan;
  std::vector<LoadedHook> matched;
  for (const auto& h : it->second) {
    if (!h.enabled) continue;
    if (h.has_matcher && !h.matcher_is_string) {
      // entry.matcher.trim throws inside planning → the whole event is skipped (exp g11).
      plan.hooks.clear();
      plan.error = "TypeError: entry.matcher.trim is not a function";
      return plan;
    }
    if (!h.has_matcher || matcher_matches(event, h.matcher, ctx)) matched.push_back(h);
  }
  // deduplicateHooks: key `${name ?? ''}:${command}`, first occurrence wins (§1.7).
  std::set<std::string> seen;
  for (auto& h : matched) {
    std::string key = h.spec.name + ":" + h.spec.command;
    if (!seen.insert(key).second) continue;
    plan.sequential = plan.sequential || h.sequential;
    plan.hooks.push_back(std::move(h));
  }
  return plan;
}

ojson apply_output_to_input(const ojson& input, const ojson& output, std::string_view event) {
  ojson in = input;
  if (!output.is_object() || !output.contains("hookSpecificOutput")) return in;
  const ojson& hso = output["hookSpecificOutput"];
  if (!hso.is_object()) return in;
  if (event == "BeforeAgent") {
    if (hso.contains("additionalContext") && hso["additionalContext"].is_string() &&
        in.contains("prompt") && in["prompt"].is_string())
      in["prompt"] =
          in["prompt"].get<std::string>() + "\n\n" + hso["additionalContext"].get<std::string>();
  } else if (event == "BeforeModel") {
    if (hso.contains("llm_request") && hso["llm_request"].is_object() &&
        in.contains("llm_request")) {
      ojson merged = in["llm_request"].is_object() ? in["llm_request"] : ojson::object();
      for (auto& [k, v] : hso["llm_request"].items()) merged[k] = v;
      in["llm_request"] = merged;
    }
  } else if (event == "BeforeTool") {
    if (hso.contains("tool_input") && in.contains("tool_input")) {
      const ojson& ti = hso["tool_input"];
      bool truthy = !(ti.is_null() || (ti.is_boolean() && !ti.get<bool>()) ||
                      (ti.is_number() && ti.get<double>() == 0) ||
                      (ti.is_string() && ti.get<std::string>().empty()));
      if (truthy) {
        ojson merged = in["tool_input"].is_object() ? in["tool_input"] : ojson::object();
        if (ti.is_object())
          for (auto& [k, v] : ti.items()) merged[k] = v;
        in["tool_input"] = merged;
      }
    }
  }
  return in;
}

}  // namespace pinta::hosts::gemini
