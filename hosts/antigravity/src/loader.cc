// hooks.json loading as agy's Go loader does it (reference §2-§3): strict JSON, root map of
// named hooks decoded with encoding/json rules (case-insensitive struct keys, last duplicate
// wins, unknown keys and events dropped, null = absent), then validation; any error rejects the
// whole file.
#include <algorithm>
#include <cctype>
#include <limits>
#include <map>

#include "pinta/hosts/antigravity/antigravity.h"
#include "pinta/common/text.h"

namespace pinta::hosts::agy {
namespace {

using ojson = nlohmann::ordered_json;

using pinta::text::ascii_lower;

const char* go_type(const ojson& v) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number()) return "number";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  return "null";
}

struct Decoder {
  const Profile& profile;
  std::optional<std::string> err;  // first decode/validation error
  std::vector<Note> notes;
  std::string err_pointer;  // where the first error is
  std::string at;           // JSON pointer of the value being decoded (for fail())

  void fail(const std::string& m) {
    if (!err) {
      err = m;
      err_pointer = at;
    }
  }
  void type_error(const ojson& v, const std::string& field, const std::string& type) {
    fail("json: cannot unmarshal " + std::string(go_type(v)) + " into Go struct field " + field +
         " of type " + type);
  }

  // Case-insensitive field lookup: for every known (lowercase) name, the last matching key's value.
  // Unknown keys are returned in `unknown`.
  // `keys` (optional) receives, per known name, the key as written (for JSON pointers).
  std::map<std::string, const ojson*> fold(const ojson& obj,
                                           std::initializer_list<const char*> known,
                                           std::vector<std::string>* unknown,
                                           std::map<std::string, std::string>* keys = nullptr) {
    std::map<std::string, const ojson*> out;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      std::string k = ascii_lower(it.key());
      bool hit = false;
      for (const char* n : known)
        if (k == n) {
          out[k] = &it.value();
          if (keys) (*keys)[k] = it.key();
          hit = true;
        }
      if (!hit && unknown) unknown->push_back(it.key());
    }
    return out;
  }

  // ptr: the handler's JSON pointer.
  bool handler(const std::string& hook, const std::string& where, const std::string& ptr,
               const ojson& v, Handler& h, bool lifecycle) {
    h.pointer = ptr;
    at = ptr;
    if (v.is_null()) return true;
    if (!v.is_object()) {
      type_error(v, where, "jsonhook.JSONHookHandler");
      return false;
    }
    std::vector<std::string> unknown;
    std::map<std::string, std::string> keys;
    auto f = fold(v, {"type", "command", "prompt", "model", "timeout"}, &unknown, &keys);
    std::string prompt, model;
    auto str = [&](const char* key, std::string& out) {
      auto it = f.find(key);
      if (it == f.end() || it->second->is_null()) return;
      at = ptr + "/" + pinta::text::json_pointer_token(keys[key]);
      if (!it->second->is_string()) return type_error(*it->second, where + "." + key, "string");
      out = it->second->get<std::string>();
    };
    std::string type;
    str("type", type);
    str("command", h.command);
    str("prompt", prompt);
    str("model", model);
    h.timeout_seconds = 0;
    if (auto it = f.find("timeout"); it != f.end() && !it->second->is_null()) {
      const ojson& t = *it->second;
      at = ptr + "/" + pinta::text::json_pointer_token(keys["timeout"]);
      bool ok = false;
      if (t.is_number_integer()) {
        if (t.is_number_unsigned()) {
          auto u = t.get<uint64_t>();
          ok = u <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max());
          if (ok) h.timeout_seconds = static_cast<int32_t>(u);
        } else {
          auto s = t.get<int64_t>();
          ok = s >= std::numeric_limits<int32_t>::min() && s <= std::numeric_limits<int32_t>::max();
          if (ok) h.timeout_seconds = static_cast<int32_t>(s);
        }
        if (ok) h.timeout_written = h.timeout_seconds;
      }
      if (!ok) {
        if (t.is_number())
          fail("json: cannot unmarshal number " + t.dump() + " into Go struct field " + where +
               ".timeout of type int32");
        else
          type_error(t, where + ".timeout", "int32");
      }
    }
    // Go's zero value cannot be told from "absent": <=0 falls back to the default (inference,
    // §5.5).
    if (h.timeout_seconds <= 0) h.timeout_seconds = profile.timeout_default_seconds;
    if (err) return false;
    at = ptr;
    h.type = type.empty() ? "command" : type;
    if (h.type != "command" && h.type != "prompt") {
      fail("invalid hook \"" + hook + "\": unknown hook type \"" + type + "\"");
      return false;
    }
    if (h.type == "command" && (!prompt.empty() || !model.empty())) {
      fail("invalid hook \"" + hook + "\": command hook must not specify 'prompt' or 'model'");
      return false;
    }
    if (h.type == "prompt" && !h.command.empty()) {
      fail("invalid hook \"" + hook + "\": prompt hook must not specify 'command'");
      return false;
    }
    if (h.type == "command" && h.command.empty()) {
      if (profile.strict_shape) {
        fail("invalid hook \"" + hook + "\": command hook must specify 'command'");
        return false;
      }
      bool wrapped = std::any_of(unknown.begin(), unknown.end(), [](const std::string& k) {
        auto l = ascii_lower(k);
        return l == "hooks" || l == "matcher";
      });
      notes.push_back({hook,
                       where + ": command hook without 'command' loads and runs nothing" +
                           std::string(wrapped && lifecycle
                                           ? " (grouped {matcher,hooks} entry on a lifecycle event)"
                                           : ""),
                       wrapped && lifecycle ? "wrapped-lifecycle" : "commandless", ptr});
    }
    if (h.type == "prompt")
      notes.push_back(
          {hook, where + ": prompt hook loads but is not run by the emulator", "prompt", ptr});
    for (const auto& k : unknown) {
      auto l = ascii_lower(k);
      // The wrapped-lifecycle note above already covers a lifecycle entry's matcher/hooks keys.
      if (lifecycle && h.command.empty() && (l == "hooks" || l == "matcher")) continue;
      notes.push_back({hook, where + ": unknown key '" + k + "' ignored", "unknown-key",
                       ptr + "/" + pinta::text::json_pointer_token(k)});
    }
    return true;
  }

  // Group `gi` of a tool event's array `field` (at pointer `ep`): its matcher and handlers, and
  // the notes on what it holds. false when the file fails to load here.
  bool tool_group(const std::string& name, const std::string& field, const std::string& ep,
                  size_t gi, const ojson& g, Group& grp) {
    const std::string gp = ep + "/" + std::to_string(gi);
    grp.pointer = gp;
    at = gp;
    if (g.is_null()) return true;
    if (!g.is_object()) {
      type_error(g, field, "jsonhook.JSONHookGroup");
      return false;
    }
    std::vector<std::string> gunk;
    std::map<std::string, std::string> gkeys;
    auto gf = fold(g, {"matcher", "hooks"}, &gunk, &gkeys);
    std::string mp = gp;
    if (auto m = gf.find("matcher"); m != gf.end() && !m->second->is_null()) {
      mp = at = gp + "/" + pinta::text::json_pointer_token(gkeys["matcher"]);
      if (!m->second->is_string()) {
        type_error(*m->second, field + ".matcher", "string");
        return false;
      }
      grp.matcher = m->second->get<std::string>();
    }
    if (auto hs = gf.find("hooks"); hs != gf.end() && !hs->second->is_null()) {
      const std::string hsp = gp + "/" + pinta::text::json_pointer_token(gkeys["hooks"]);
      at = hsp;
      if (!hs->second->is_array()) {
        type_error(*hs->second, field + ".hooks", "[]jsonhook.JSONHookHandler");
        return false;
      }
      for (size_t hi = 0; hi < hs->second->size(); ++hi) {
        const ojson& hv = (*hs->second)[hi];
        Handler h;
        if (!handler(name, field + ".hooks", hsp + "/" + std::to_string(hi), hv, h, false))
          return false;
        if (!hv.is_null()) grp.hooks.push_back(h);
      }
    }
    bool flat = false;
    for (const auto& k : gunk) {
      auto l = ascii_lower(k);
      if (l == "command" || l == "type") grp.flat_handler_keys = true;
    }
    flat = grp.flat_handler_keys && grp.hooks.empty();
    for (const auto& k : gunk) {
      auto l = ascii_lower(k);
      // The flat-handler note below covers the handler keys of a flat entry.
      if (flat && (l == "command" || l == "type" || l == "timeout")) continue;
      notes.push_back(
          {name, field + "[" + std::to_string(gi) + "]: unknown key '" + k + "' ignored",
           "unknown-key", gp + "/" + pinta::text::json_pointer_token(k)});
    }
    if (flat)
      notes.push_back({name,
                       field + "[" + std::to_string(gi) +
                           "]: handler written flat on a tool event: read as a group "
                           "with no hooks, runs nothing",
                       "flat-tool-event", gp});
    if (!matcher_valid(grp.matcher))
      notes.push_back({name,
                       field + "[" + std::to_string(gi) + "]: matcher '" + grp.matcher +
                           "' is not a valid RE2 pattern (loads; at run time: " +
                           profile.invalid_matcher + ")",
                       "invalid-matcher", mp});
    return true;
  }

  void hook_spec(const std::string& name, const ojson& v, NamedHook& nh) {
    nh.name = name;
    const std::string hp = "/" + pinta::text::json_pointer_token(name);
    at = hp;
    if (v.is_null()) return;
    if (!v.is_object())
      return fail("json: cannot unmarshal " + std::string(go_type(v)) +
                  " into Go value of type jsonhook.JSONHookSpec");
    std::vector<std::string> unknown;
    std::map<std::string, std::string> keys;
    auto f = profile.session_start ? fold(v,
                                          {"enabled", "pretooluse", "posttooluse", "preinvocation",
                                           "postinvocation", "stop", "sessionstart"},
                                          &unknown, &keys)
                                   : fold(v,
                                          {"enabled", "pretooluse", "posttooluse", "preinvocation",
                                           "postinvocation", "stop"},
                                          &unknown, &keys);
    if (auto it = f.find("enabled"); it != f.end() && !it->second->is_null()) {
      at = hp + "/" + pinta::text::json_pointer_token(keys["enabled"]);
      if (!it->second->is_boolean()) return type_error(*it->second, ".enabled", "bool");
      nh.enabled = it->second->get<bool>();
      if (!nh.enabled)
        notes.push_back({name, "enabled:false: every handler of this hook is off", "disabled", at});
    }
    for (const auto& k : unknown)
      notes.push_back({name, "unknown event or key '" + k + "' dropped", "unknown-event",
                       hp + "/" + pinta::text::json_pointer_token(k)});
    static const std::pair<const char*, Event> kEvents[] = {
        {"pretooluse", Event::kPreToolUse},
        {"posttooluse", Event::kPostToolUse},
        {"preinvocation", Event::kPreInvocation},
        {"postinvocation", Event::kPostInvocation},
        {"stop", Event::kStop},
        {"sessionstart", Event::kSessionStart}};
    for (const auto& [key, ev] : kEvents) {
      auto it = f.find(key);
      if (it == f.end() || it->second->is_null()) continue;
      const ojson& arr = *it->second;
      std::string field = std::string(".") + event_name(ev);
      const std::string ep = hp + "/" + pinta::text::json_pointer_token(keys[key]);
      at = ep;
      if (!arr.is_array()) {
        return type_error(
            arr, field,
            is_tool_event(ev) ? "[]jsonhook.JSONHookGroup" : "[]jsonhook.JSONHookHandler");
      }
      EventEntry e{ev, {}};
      if (is_tool_event(ev)) {
        for (size_t gi = 0; gi < arr.size(); ++gi) {
          Group grp;
          if (!tool_group(name, field, ep, gi, arr[gi], grp)) return;
          e.groups.push_back(std::move(grp));
        }
      } else {
        Group grp;
        grp.pointer = ep;
        for (size_t hi = 0; hi < arr.size(); ++hi) {
          const ojson& hv = arr[hi];
          Handler h;
          if (!handler(name, field, ep + "/" + std::to_string(hi), hv, h, true)) return;
          if (!hv.is_null()) grp.hooks.push_back(h);
        }
        e.groups.push_back(std::move(grp));
      }
      nh.events.push_back(std::move(e));
    }
  }
};

}  // namespace

Result<HooksFile> parse_hooks_json(const std::string& text, const Profile& profile,
                                   const std::string& path, std::string* error_pointer) {
  if (error_pointer) error_pointer->clear();
  auto reject = [&](const std::string& m) {
    return make_error(ErrorCode::kParse, "failed to parse hooks.json at " + path + ": " + m);
  };
  // Strict JSON: no comments, no trailing commas, no NaN/Infinity (nlohmann's defaults).
  ojson root = ojson::parse(text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/false);
  if (root.is_discarded()) return reject("invalid JSON");
  if (!root.is_object())
    return reject("json: cannot unmarshal " + std::string(go_type(root)) +
                  " into Go value of type map[string]jsonhook.JSONHookSpec");
  Decoder d{profile, std::nullopt, {}, "", ""};
  HooksFile out;
  for (auto it = root.begin(); it != root.end(); ++it) {
    NamedHook nh;
    d.hook_spec(it.key(), it.value(), nh);
    if (d.err) {
      if (error_pointer) *error_pointer = d.err_pointer;
      return reject(*d.err);
    }
    out.hooks.push_back(std::move(nh));
  }
  std::sort(out.hooks.begin(), out.hooks.end(),
            [](const NamedHook& a, const NamedHook& b) { return a.name < b.name; });
  out.notes = std::move(d.notes);
  return out;
}

const std::vector<Event>& all_events() {
  static const std::vector<Event> events = {Event::kPreToolUse,     Event::kPostToolUse,
                                            Event::kPreInvocation,  Event::kPostInvocation,
                                            Event::kStop,           Event::kSessionStart};
  return events;
}

std::optional<Event> parse_event(const std::string& name) {
  for (Event e : all_events())
    if (name == event_name(e)) return e;
  return std::nullopt;
}

const char* event_name(Event e) {
  switch (e) {
    case Event::kPreToolUse:
      return "PreToolUse";
    case Event::kPostToolUse:
      return "PostToolUse";
    case Event::kPreInvocation:
      return "PreInvocation";
    case Event::kPostInvocation:
      return "PostInvocation";
    case Event::kStop:
      return "Stop";
    case Event::kSessionStart:
      return "SessionStart";
  }
  return "?";
}

bool is_tool_event(Event e) { return e == Event::kPreToolUse || e == Event::kPostToolUse; }

}  // namespace pinta::hosts::agy
