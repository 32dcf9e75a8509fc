// Merging several hooks' outputs: core hooks/hookAggregator.js (mergeWithOrDecision,
// mergeWithFieldReplacement, mergeToolSelectionOutputs, mergeSimple) and the derived helpers of
// core hooks/types.js DefaultHookOutput (§5 of gemini-cli-0.61-hooks.md).
#include <set>

#include "pinta/emulator/gemini/gemini.h"

namespace pinta::emu::gemini {
namespace {

bool truthy(const ojson& v) {
  if (v.is_null()) return false;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) return v.get<double>() != 0;
  if (v.is_string()) return !v.get_ref<const std::string&>().empty();
  return true;  // objects and arrays
}

// String(v) for Array.prototype.join.
std::string js_string(const ojson& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  if (v.is_array()) {
    std::string s;
    bool first = true;
    for (const auto& e : v) {
      if (!first) s += ",";
      first = false;
      s += (e.is_null() ? std::string() : js_string(e));
    }
    return s;
  }
  if (v.is_object()) return "[object Object]";
  return js_stringify(v);
}

std::string join(const std::vector<ojson>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) s += "\n";
    s += js_string(items[i]);
  }
  return s;
}

const ojson* field(const ojson& o, const char* k) {
  if (!o.is_object()) return nullptr;
  auto it = o.find(k);
  return it == o.end() ? nullptr : &*it;
}

void spread(ojson& into, const ojson& from) {
  if (!from.is_object()) return;
  for (auto& [k, v] : from.items()) into[k] = v;
}

ojson merge_or(const std::vector<ojson>& outputs) {
  ojson merged = ojson::object();
  merged["continue"] = true;
  merged["suppressOutput"] = false;
  std::vector<ojson> messages, reasons, system_messages;
  std::vector<std::string> contexts;
  bool has_block = false, has_ask = false, has_continue_false = false;
  for (const auto& o : outputs) {
    const ojson* cont = field(o, "continue");
    if (cont && cont->is_boolean() && !cont->get<bool>()) {
      has_continue_false = true;
      merged["continue"] = false;
      if (const ojson* sr = field(o, "stopReason"); sr && truthy(*sr)) messages.push_back(*sr);
    }
    const ojson* dec = field(o, "decision");
    if (dec && is_blocking(o)) {
      has_block = true;
      merged["decision"] = *dec;
    } else if (dec && dec->is_string() && *dec == "ask") {
      has_ask = true;
      if (!has_block) merged["decision"] = *dec;
    }
    if (const ojson* r = field(o, "reason"); r && truthy(*r)) reasons.push_back(*r);
    if (const ojson* s = field(o, "systemMessage"); s && truthy(*s)) system_messages.push_back(*s);
    if (const ojson* so = field(o, "suppressOutput"); so && truthy(*so))
      merged["suppressOutput"] = true;
    const ojson* hso = field(o, "hookSpecificOutput");
    if (hso && truthy(*hso)) {
      if (const ojson* cc = field(*hso, "clearContext");
          cc && cc->is_boolean() && cc->get<bool>()) {
        ojson m =
            merged.contains("hookSpecificOutput") ? merged["hookSpecificOutput"] : ojson::object();
        m["clearContext"] = true;
        merged["hookSpecificOutput"] = m;
      }
      ojson m =
          merged.contains("hookSpecificOutput") ? merged["hookSpecificOutput"] : ojson::object();
      if (hso->is_object())
        for (auto& [k, v] : hso->items())
          if (k != "clearContext") m[k] = v;
      merged["hookSpecificOutput"] = m;
      if (const ojson* ac = field(*hso, "additionalContext"); ac && ac->is_string())
        contexts.push_back(ac->get<std::string>());
    }
  }
  if (!has_block && !has_ask && !has_continue_false) merged["decision"] = "allow";
  if (!messages.empty()) merged["stopReason"] = join(messages);
  if (!reasons.empty()) merged["reason"] = join(reasons);
  if (!system_messages.empty()) merged["systemMessage"] = join(system_messages);
  if (!contexts.empty()) {
    std::string s;
    for (size_t i = 0; i < contexts.size(); ++i) s += (i ? "\n" : "") + contexts[i];
    ojson m =
        merged.contains("hookSpecificOutput") ? merged["hookSpecificOutput"] : ojson::object();
    m["additionalContext"] = s;
    merged["hookSpecificOutput"] = m;
  }
  return merged;
}

ojson merge_replace(const std::vector<ojson>& outputs) {
  ojson merged = ojson::object();
  for (const auto& o : outputs) {
    ojson hso = ojson::object();
    if (merged.contains("hookSpecificOutput")) spread(hso, merged["hookSpecificOutput"]);
    if (const ojson* h = field(o, "hookSpecificOutput")) spread(hso, *h);
    spread(merged, o);
    merged["hookSpecificOutput"] = hso;
  }
  return merged;
}

ojson merge_tool_selection(const std::vector<ojson>& outputs) {
  bool none = false, any = false;
  std::set<std::string> names;  // Array.sort() of strings = UTF-16 order; ASCII names sort the same
  for (const auto& o : outputs) {
    const ojson* hso = field(o, "hookSpecificOutput");
    const ojson* tc = hso ? field(*hso, "toolConfig") : nullptr;
    if (!tc || !truthy(*tc)) continue;
    if (const ojson* m = field(*tc, "mode"); m && m->is_string()) {
      if (*m == "NONE")
        none = true;
      else if (*m == "ANY")
        any = true;
    }
    if (const ojson* a = field(*tc, "allowedFunctionNames"); a && a->is_array())
      for (const auto& n : *a)
        if (n.is_string()) names.insert(n.get<std::string>());
  }
  ojson tc = ojson::object();
  tc["mode"] = none ? "NONE" : any ? "ANY" : "AUTO";
  tc["allowedFunctionNames"] =
      none ? ojson::array() : ojson(std::vector<std::string>(names.begin(), names.end()));
  ojson hso = ojson::object();
  hso["hookEventName"] = "BeforeToolSelection";
  hso["toolConfig"] = tc;
  ojson merged = ojson::object();
  merged["hookSpecificOutput"] = hso;
  return merged;
}

}  // namespace

bool is_blocking(const ojson& o) {
  const ojson* d = field(o, "decision");
  return d && d->is_string() && (*d == "block" || *d == "deny");
}

std::string effective_reason(const ojson& o) {
  // getEffectiveReason: stopReason || reason || 'No reason provided'
  if (const ojson* s = field(o, "stopReason"); s && truthy(*s)) return js_string(*s);
  if (const ojson* r = field(o, "reason"); r && truthy(*r)) return js_string(*r);
  return "No reason provided";
}

std::optional<std::string> additional_context(const ojson& o) {
  const ojson* hso = field(o, "hookSpecificOutput");
  const ojson* ac = hso ? field(*hso, "additionalContext") : nullptr;
  if (!ac || !ac->is_string()) return std::nullopt;
  std::string out;
  for (char c : ac->get<std::string>()) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out += c;
  }
  return out;
}

std::optional<ojson> aggregate(std::string_view event, const std::vector<ojson>& outputs) {
  // aggregateResults keeps `if (result.output)` — every object/array output counts.
  if (outputs.empty()) return std::nullopt;
  if (event == "BeforeTool" || event == "AfterTool" || event == "BeforeAgent" ||
      event == "AfterAgent" || event == "SessionStart")
    return merge_or(outputs);
  if (event == "BeforeModel" || event == "AfterModel") return merge_replace(outputs);
  if (event == "BeforeToolSelection") return merge_tool_selection(outputs);
  ojson merged = ojson::object();
  for (const auto& o : outputs) spread(merged, o);
  return merged;
}

}  // namespace pinta::emu::gemini
