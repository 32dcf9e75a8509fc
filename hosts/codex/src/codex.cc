// OpenAI Codex CLI 0.171.0 hooks as data. Evidence: CX = shared/reference/real-hosts.md (measured);
// CXSRC = openai/codex codex-rs/hooks/src/engine/discovery.rs, events/common.rs, lib.rs and
// codex-rs/config/src/hook_config.rs, fingerprint.rs; HL = measured on the 0.171.0 binary through
// its app-server's `hooks/list` (hosts/codex/test/probe_hooks_list.py), which reports each hook's
// key, normalised fields, current hash, trust status and the discovery warnings.
#include "pinta/hosts/codex/codex.h"

#include <re2/re2.h>
#include <sys/stat.h>

#include <cctype>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "pinta/common/fs.h"
#include "pinta/common/sha256.h"
#include "toml_doc.h"

namespace pinta::hosts::codex {
namespace {

struct EventInfo {
  const char* name;
  const char* label;     // trust keys and hashes (CXSRC lib.rs hook_event_key_label; HL keys)
  bool matcher;          // HL: an invalid matcher warns and skips the group on these only
  long default_timeout;  // HL: timeoutSec without `timeout`
  long max_timeout;      // HL: larger ones are clamped with a warning (0: no limit)
  bool context_limit;    // HL: additionalContextLimit kept (elsewhere: warning, dropped)
};
// HL: discovery order (displayOrder) of one file with every event.
constexpr EventInfo kEvents[] = {
    {"PreModelRequest", "pre_model_request", false, 600, 0, false},
    {"PostModelRequest", "post_model_request", false, 600, 0, false},
    {"PreToolUse", "pre_tool_use", true, 600, 0, true},
    {"PermissionRequest", "permission_request", true, 600, 0, false},
    {"PostToolUse", "post_tool_use", true, 600, 0, true},
    {"PreCompact", "pre_compact", true, 600, 0, false},
    {"PostCompact", "post_compact", true, 600, 0, false},
    {"SessionStart", "session_start", true, 600, 0, true},
    {"SessionEnd", "session_end", true, 1, 3, false},
    {"UserPromptSubmit", "user_prompt_submit", false, 600, 0, true},
    {"SubagentStart", "subagent_start", true, 600, 0, true},
    {"SubagentStop", "subagent_stop", true, 600, 0, false},
    {"Stop", "stop", false, 600, 0, false},
    {"Interrupt", "interrupt", false, 1, 3, false},
};

const EventInfo* find_event(const std::string& name) {
  for (const auto& e : kEvents)
    if (name == e.name || name == e.label) return &e;
  return nullptr;
}

using json = nlohmann::json;

// One handler as the config deserialises it (CXSRC hook_config.rs HookHandlerConfig; HL for the
// 0.171.0 fields: command, commandWindows, timeout, async, statusMessage, additionalContextLimit;
// `id`, `visibilityHint`, `timeoutSec` and other keys are ignored).
struct RawHandler {
  std::string type;  // command | mcp_tool | prompt | agent
  std::string command;
  std::optional<std::uint64_t> timeout, context_limit;
  bool is_async = false;
  std::optional<std::string> status_message;
};
struct RawGroup {
  std::optional<std::string> matcher;
  std::vector<RawHandler> hooks;
};
using RawEvents = std::vector<std::pair<const EventInfo*, std::vector<RawGroup>>>;

// serde's verdicts on a value of the wrong shape: the whole file fails (HL "failed to parse hooks
// config …: invalid type …"). Each check returns "" when fine; `where` gets the failing value's
// JSON pointer (for lint's positions).
std::string want_string(const json& v, const char* what) {
  return v.is_string() ? "" : std::string("invalid type for `") + what + "`, expected a string";
}
std::string want_opt_string(const json& v, const char* what) {
  return v.is_null() ? "" : want_string(v, what);
}
std::string want_opt_u64(const json& v, const char* what, std::optional<std::uint64_t>& out) {
  if (v.is_null()) return "";
  if (v.is_number_unsigned()) {
    out = v.get<std::uint64_t>();
    return "";
  }
  if (v.is_number_integer())
    return std::string("invalid value for `") + what + "`: negative, expected u64";
  return std::string("invalid type for `") + what + "`, expected u64";
}

std::string parse_handler(const json& h, const std::string& ptr, RawHandler& out,
                          std::string& where) {
  where = ptr;
  if (!h.is_object()) return "a handler must be a table/object";
  auto t = h.find("type");
  if (t == h.end()) return "missing field `type`";
  where = ptr + "/type";
  if (!t->is_string()) return "invalid type for `type`, expected a string";
  out.type = t->get<std::string>();
  if (out.type == "prompt" || out.type == "agent") return "";
  if (out.type == "mcp_tool") {
    // HL: `server` and `tool` are required; such a hook calls an MCP tool (not modelled here).
    for (const char* k : {"server", "tool"}) {
      auto it = h.find(k);
      where = ptr;
      if (it == h.end()) return std::string("missing field `") + k + "`";
      where = ptr + "/" + k;
      if (auto e = want_string(*it, k); !e.empty()) return e;
    }
    return "";
  }
  if (out.type != "command")
    return "unknown variant `" + out.type +
           "`, expected one of `command`, `mcp_tool`, `prompt`, `agent`";
  where = ptr;
  auto c = h.find("command");
  if (c == h.end()) return "missing field `command`";
  where = ptr + "/command";
  if (auto e = want_string(*c, "command"); !e.empty()) return e;
  out.command = c->get<std::string>();
  std::optional<std::uint64_t> unused;
  for (const char* k :
       {"commandWindows", "timeout", "additionalContextLimit", "async", "statusMessage"}) {
    auto it = h.find(k);
    if (it == h.end()) continue;
    where = ptr + "/" + k;
    std::string e;
    if (std::string(k) == "timeout")
      e = want_opt_u64(*it, k, out.timeout);
    else if (std::string(k) == "additionalContextLimit")
      e = want_opt_u64(*it, k, out.context_limit);
    else if (std::string(k) == "async")
      e = it->is_boolean() ? "" : "invalid type for `async`, expected a boolean";
    else
      e = want_opt_string(*it, k);
    if (!e.empty()) return e;
  }
  if (auto it = h.find("async"); it != h.end()) out.is_async = it->get<bool>();
  if (auto it = h.find("statusMessage"); it != h.end() && it->is_string())
    out.status_message = it->get<std::string>();
  where.clear();
  return "";
}

std::string event_token(const std::string& k) {  // RFC 6901
  std::string o;
  for (char c : k)
    o += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return o;
}

// The event table (hooks.json's "hooks" or config.toml's [hooks]). Unknown event keys are ignored
// without a word (HL: "Foo" produced neither hook nor warning); `state` is config.toml's.
std::string parse_events(const json& hooks, RawEvents& out, std::string& where) {
  where = "/hooks";
  if (hooks.is_array() && hooks.empty()) return "";  // HL: serde reads `[]` as an empty struct
  if (!hooks.is_object()) return "invalid type for `hooks`, expected a map";
  for (const auto& e : kEvents) {
    auto it = hooks.find(e.name);
    if (it == hooks.end()) continue;
    const std::string eptr = "/hooks/" + event_token(e.name);
    where = eptr;
    if (!it->is_array())
      return std::string("invalid type for `") + e.name + "`, expected a sequence";
    std::vector<RawGroup> groups;
    for (size_t gi = 0; gi < it->size(); ++gi) {
      const json& g = (*it)[gi];
      const std::string gptr = eptr + "/" + std::to_string(gi);
      where = gptr;
      if (!g.is_object()) return "a matcher group must be a table/object";
      RawGroup rg;
      if (auto m = g.find("matcher"); m != g.end()) {
        where = gptr + "/matcher";
        if (auto err = want_opt_string(*m, "matcher"); !err.empty()) return err;
        if (m->is_string()) rg.matcher = m->get<std::string>();
      }
      if (auto hs = g.find("hooks"); hs != g.end()) {
        where = gptr + "/hooks";
        if (!hs->is_array()) return "invalid type for `hooks`, expected a sequence";
        for (size_t hi = 0; hi < hs->size(); ++hi) {
          RawHandler rh;
          if (auto err = parse_handler((*hs)[hi], gptr + "/hooks/" + std::to_string(hi), rh, where);
              !err.empty())
            return err;
          rg.hooks.push_back(std::move(rh));
        }
      }
      groups.push_back(std::move(rg));
    }
    out.emplace_back(&e, std::move(groups));
  }
  where.clear();
  return "";
}

// A name serde reads as a field somewhere in a hooks.json: a duplicate of one fails the file, a
// duplicate of any other key is ignored (HL: "duplicate field `Stop`" fails; repeated unknown
// keys load). Over-approximation: the name is not checked against the object it is in.
bool field_name(const std::string& k) {
  static const std::set<std::string> fields = {
      "description",    "hooks",   "matcher", "type",          "command",
      "commandWindows", "timeout", "async",   "statusMessage", "additionalContextLimit",
      "server",         "tool"};
  return fields.count(k) > 0 || is_event(k);
}

// hooks.json: {"description"?, "hooks"} and nothing else (HL: `unknown field `version`, expected
// `description` or `hooks``); duplicate keys fail as serde's "duplicate field" does (HL).
std::string parse_hooks_json(const std::string& text, RawEvents& out, std::string& where) {
  where.clear();
  bool duplicate = false;
  std::vector<std::set<std::string>> keys;
  json::parser_callback_t cb = [&](int, json::parse_event_t ev, json& parsed) {
    if (ev == json::parse_event_t::object_start)
      keys.emplace_back();
    else if (ev == json::parse_event_t::object_end)
      keys.pop_back();
    else if (ev == json::parse_event_t::key && !keys.empty() &&
             !keys.back().insert(parsed.get<std::string>()).second &&
             field_name(parsed.get<std::string>()))
      duplicate = true;
    return true;
  };
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0)
    return "expected value at line 1 column 1";  // HL: a BOM
  json j = json::parse(text, cb, false);
  if (j.is_discarded()) return "not valid JSON";
  if (duplicate) return "duplicate field";
  if (j.is_array() && j.empty()) return "";  // HL: serde reads `[]` as an empty struct
  if (!j.is_object()) return "invalid type, expected struct HooksFile";
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "description" && it.key() != "hooks") {
      where = "/" + event_token(it.key());
      return "unknown field `" + it.key() + "`, expected `description` or `hooks`";
    }
  if (auto d = j.find("description"); d != j.end()) {
    where = "/description";
    if (auto e = want_opt_string(*d, "description"); !e.empty()) return e;
  }
  where.clear();
  auto h = j.find("hooks");
  if (h == j.end()) return "";
  return parse_events(*h, out, where);
}

struct TomlFile {
  bool exists = false;
  json hooks;                         // [hooks] as JSON, null when absent
  std::map<std::string, json> state;  // [hooks.state."<key>"]
};

// config.toml. Unlike hooks.json, a malformed config.toml (syntax, or a [hooks] value of the
// wrong type) stops Codex from loading its configuration at all (HL: an `errors` entry, not a
// warning): that is an Error here too.
Result<TomlFile> read_config_toml(const std::string& path) {
  TomlFile out;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return out;
  auto text = pinta::fs::read_file(path);
  if (!text) return make_error(text.error().code, path + ": " + text.error().message);
  out.exists = true;
  auto doc = detail::parse_toml(*text, path, false);
  if (!doc) return doc.error();
  if (auto h = doc->root.find("hooks"); h != doc->root.end()) {
    out.hooks = *h;
    if (out.hooks.is_object()) {
      if (auto s = out.hooks.find("state"); s != out.hooks.end() && s->is_object())
        for (auto it = s->begin(); it != s->end(); ++it) out.state[it.key()] = it.value();
    }
  }
  return out;
}

struct LayerSource {
  std::string path;        // the file, as the key's prefix for user/project/system layers
  std::string key_source;  // the trust key's prefix
  std::string source;      // user-json, …
  bool managed = false;
  std::map<std::string, std::string> env;  // plugin ${VAR} substitutions
};

struct State {
  std::optional<bool> enabled;
  std::optional<std::string> trusted_hash;
};

// The hash of one normalised handler (CXSRC discovery.rs command_hook_hash and
// fingerprint.rs version_for_toml; every vector in the tests measured with HL): the identity
// {"event_name": <label>, "matcher"?: <kept matcher>, "hooks": [<handler>]} goes through TOML, so
// absent (None) fields vanish, then through serde_json with object keys sorted, compact, UTF-8 as
// is; its SHA-256 in hex after "sha256:". The handler is {"type":"command","command","timeout"
// (defaulted, at least 1),"async","statusMessage"?,"additionalContextLimit"?}; commandWindows is
// normalised away.
std::string hash_of(const EventInfo& e, const std::optional<std::string>& matcher,
                    const std::string& command, std::uint64_t timeout, bool is_async,
                    const std::optional<std::string>& status,
                    const std::optional<std::uint64_t>& context_limit) {
  json h = json::object();  // std::map keys: sorted byte-wise, as serde_json's canonical form
  h["type"] = "command";
  h["command"] = command;
  h["timeout"] = timeout;
  h["async"] = is_async;
  if (status) h["statusMessage"] = *status;
  if (context_limit) h["additionalContextLimit"] = *context_limit;
  json id = json::object();
  id["event_name"] = e.label;
  if (matcher) id["matcher"] = *matcher;
  id["hooks"] = json::array({h});
  // Text from a file is valid UTF-8 (read_hooks_text, toml++); a caller's handler may not be, and
  // Codex could not have loaded it: no hash then.
  try {
    return "sha256:" + pinta::sha256_hex(id.dump(-1, ' ', false, json::error_handler_t::strict));
  } catch (const json::exception&) {
    return "";
  }
}

// Appends one file's handlers. Returns an error only for the condition that stops the host's
// discovery as a whole (HL: a timeout over i64::MAX cannot be written as TOML and discovery
// panics).
Status append_events(const LayerSource& src, const RawEvents& events,
                     const std::map<std::string, State>& states, LoadedHooks& out) {
  for (const auto& [e, groups] : events) {
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      const RawGroup& g = groups[gi];
      // CXSRC events/common.rs matcher_pattern_for_event: the matcher of an event without one is
      // dropped (so never invalid, HL) before validation and hashing.
      std::optional<std::string> matcher = e->matcher ? g.matcher : std::nullopt;
      if (matcher && matcher_kind(*matcher) == MatcherKind::kInvalid) {
        out.warnings.push_back("invalid matcher \"" + *matcher + "\" in " + src.path +
                               ": the group is skipped");
        continue;
      }
      for (size_t hi = 0; hi < g.hooks.size(); ++hi) {
        const RawHandler& r = g.hooks[hi];
        if (r.type == "prompt" || r.type == "agent") {
          out.warnings.push_back("skipping " + r.type + " hook in " + src.path + ": " + r.type +
                                 " hooks are not supported yet");
          continue;
        }
        if (r.type != "command") continue;  // mcp_tool: calls an MCP tool, not modelled here
        bool blank = r.command.find_first_not_of(" \t\r\n\v\f") == std::string::npos;
        if (blank) {
          out.warnings.push_back("skipping empty hook command in " + src.path);
          continue;
        }
        std::uint64_t timeout = r.timeout.value_or(static_cast<std::uint64_t>(e->default_timeout));
        if (timeout < 1) timeout = 1;  // CXSRC discovery.rs `.max(1)`; HL timeout 0 → 1
        if (e->max_timeout > 0 && timeout > static_cast<std::uint64_t>(e->max_timeout)) {
          // HL: "clamping SessionEnd hook timeout to 3s"; the hash is over the clamped value.
          timeout = static_cast<std::uint64_t>(e->max_timeout);
          out.warnings.push_back(std::string("clamping ") + e->name + " hook timeout to " +
                                 std::to_string(e->max_timeout) + "s in " + src.path);
        }
        if (timeout > static_cast<std::uint64_t>(INT64_MAX))
          return make_error(ErrorCode::kInvalidArgument,
                            src.path +
                                ": a `timeout` over 9223372036854775807 makes Codex's hook "
                                "discovery panic (it cannot be written as a TOML integer)");
        std::optional<std::uint64_t> limit = r.context_limit;
        if (limit && !e->context_limit) {
          out.warnings.push_back(std::string("ignoring additionalContextLimit for ") + e->name +
                                 " hook in " + src.path +
                                 ": this event cannot emit additionalContext");
          limit.reset();
        }
        HookHandler h;
        h.event = e->name;
        h.has_matcher = matcher.has_value();
        h.matcher = matcher.value_or("");
        h.command = r.command;
        for (const auto& [k, v] : src.env) {  // CXSRC: after hashing, ${PLUGIN_ROOT} etc.
          std::string needle = "${" + k + "}";
          for (size_t p = 0; (p = h.command.find(needle, p)) != std::string::npos; p += v.size())
            h.command.replace(p, needle.size(), v);
        }
        h.source = src.source;
        h.file = src.path;
        h.group_index = static_cast<int>(gi);
        h.handler_index = static_cast<int>(hi);
        h.pointer = "/hooks/" + std::string(e->name) + "/" + std::to_string(gi) + "/hooks/" +
                    std::to_string(hi);
        h.timeout_sec = static_cast<long>(timeout);
        h.timeout_ms =
            timeout > 9000000000000ULL ? INT64_MAX / 2 : static_cast<long>(timeout) * 1000;
        h.is_async = r.is_async;
        h.status_message = r.status_message;
        h.context_limit = limit;
        h.managed = src.managed;
        h.trust_key =
            src.key_source + ":" + e->label + ":" + std::to_string(gi) + ":" + std::to_string(hi);
        h.trust_hash =
            hash_of(*e, matcher, r.command, timeout, r.is_async, r.status_message, limit);
        auto st = states.find(h.trust_key);
        // CXSRC discovery.rs hook_enabled / hook_trust_status; HL trust state probe.
        h.enabled = src.managed || st == states.end() || st->second.enabled != false;
        if (src.managed) {
          h.trust_status = TrustStatus::kManaged;
        } else if (st == states.end() || !st->second.trusted_hash) {
          h.trust_status = TrustStatus::kUntrusted;
        } else {
          h.trust_status = *st->second.trusted_hash == h.trust_hash ? TrustStatus::kTrusted
                                                                    : TrustStatus::kModified;
        }
        h.trusted =
            h.trust_status == TrustStatus::kManaged || h.trust_status == TrustStatus::kTrusted;
        out.handlers.push_back(std::move(h));
      }
    }
  }
  return {};
}

// Strict UTF-8 (no overlong forms, surrogates or code points past U+10FFFF), as Rust's
// read_to_string demands.
bool valid_utf8(const std::string& s) {
  size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80           ? 1
                 : (c >> 5) == 0x6  ? 2
                 : (c >> 4) == 0xE  ? 3
                 : (c >> 3) == 0x1E ? 4
                                    : 0;
    if (len == 0 || i + len > n) return false;
    unsigned long cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc >> 6) != 0x2) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += len;
  }
  return true;
}

// A hooks.json's text, or nullopt with the host's warning (HL: "failed to read hooks config …:
// stream did not contain valid UTF-8").
std::optional<std::string> read_hooks_text(const std::string& path, LoadedHooks& out) {
  auto text = pinta::fs::read_file(path);
  if (!text) {
    out.warnings.push_back("failed to read hooks config " + path + ": " + text.error().message);
    return std::nullopt;
  }
  if (!valid_utf8(*text)) {
    out.warnings.push_back("failed to read hooks config " + path +
                           ": stream did not contain valid UTF-8");
    return std::nullopt;
  }
  return std::move(*text);
}

bool is_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// One config folder's layer: hooks.json first, then config.toml's [hooks] (CXSRC discovery.rs;
// HL: both load, with a warning). hooks.json problems are warnings; config.toml's are errors.
Status load_layer(const std::string& dir, const std::string& kind, bool managed,
                  const std::map<std::string, State>& states, const TomlFile* toml_pre,
                  LoadedHooks& out) {
  RawEvents json_events, toml_events;
  std::string json_path = dir + "/hooks.json", toml_path = dir + "/config.toml";
  if (is_file(json_path)) {
    auto text = read_hooks_text(json_path, out);
    if (!text) {
      // warned
    } else if (std::string where, err = parse_hooks_json(*text, json_events, where); !err.empty()) {
      out.warnings.push_back("failed to parse hooks config " + json_path + ": " + err);
      json_events.clear();
    }
  }
  TomlFile loaded;
  const TomlFile* toml = toml_pre;
  if (!toml) {
    auto r = read_config_toml(toml_path);
    if (!r) return r.error();
    loaded = std::move(*r);
    toml = &loaded;
  }
  if (!toml->hooks.is_null()) {
    json events = toml->hooks;
    if (events.is_object()) events.erase("state");
    std::string where;
    if (auto err = parse_events(events, toml_events, where); !err.empty())
      return make_error(ErrorCode::kParse, toml_path + ": [hooks]: " + err);
  }
  auto count = [](const RawEvents& ev) {
    size_t n = 0;
    for (const auto& [e, g] : ev) n += g.size();
    return n;
  };
  if (count(json_events) > 0 && count(toml_events) > 0)
    out.warnings.push_back("loading hooks from both " + json_path + " and " + toml_path +
                           "; prefer a single representation for this layer");
  LayerSource js{json_path, json_path, managed ? "managed" : kind + "-json", managed, {}};
  if (auto s = append_events(js, json_events, states, out); !s) return s;
  LayerSource ts{toml_path, toml_path, managed ? "managed" : kind + "-toml", managed, {}};
  return append_events(ts, toml_events, states, out);
}

}  // namespace

const std::vector<std::string>& events() {
  static const std::vector<std::string> k = [] {
    std::vector<std::string> v;
    for (const auto& e : kEvents) v.emplace_back(e.name);
    return v;
  }();
  return k;
}

bool is_event(const std::string& name) {
  for (const auto& e : kEvents)
    if (name == e.name) return true;
  return false;
}

std::string event_key_label(const std::string& event) {
  const EventInfo* e = find_event(event);
  return e ? e->label : "";
}

bool event_uses_matcher(const std::string& event) {
  const EventInfo* e = find_event(event);
  return e && e->matcher;
}

long default_timeout_sec(const std::string& event) {
  const EventInfo* e = find_event(event);
  return e ? e->default_timeout : 600;
}

// CX: every shell tool is `Bash`; CXSRC HookToolName::apply_patch: `apply_patch` with the matcher
// aliases `Write` and `Edit`; MCP tools keep their `mcp__server__tool` name.
std::vector<std::string> match_names(const std::string& tool_name) {
  static const std::set<std::string> shell = {"Bash",          "shell",         "exec_command",
                                              "local_shell",   "shell_command", "unified_exec",
                                              "container.exec"};
  if (shell.count(tool_name)) return {"Bash"};
  if (tool_name == "apply_patch") return {"apply_patch", "Write", "Edit"};
  return {tool_name};
}

// CXSRC events/common.rs is_match_all_matcher / is_exact_matcher / validate_matcher_pattern. The
// host's regex is Rust's `regex` crate; RE2, whose syntax the crate follows, stands in, after
// rust_to_re2 has rewritten what the two spell differently (HL, the 0.171.0 verdicts: `\<B`,
// `B\>`, `(?<n>B)` valid; `\C`, `\Z`, look-around, back-references invalid). Left different:
// the crate's \d \w \s \b are Unicode-aware (RE2's ASCII; tool names are ASCII), its class set
// operations and nested classes ([a-z&&[^x]], [[a-z]]) which RE2 reads otherwise, nested
// repetition (`a++`, valid in the crate) and counted repetitions over 1000 (RE2 rejects both).
namespace {
std::optional<std::string> rust_to_re2(const std::string& p) {
  std::string out;
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      char n = p[i + 1];
      if (n == 'C') return std::nullopt;  // the crate has no "any byte" escape
      if (!in_class && (n == '<' || n == '>')) {
        out += "\\b";  // start / end of a word (the crate); a word boundary is as near as RE2 goes
      } else {
        out += c;
        out += n;
      }
      ++i;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      out += c;
      continue;
    }
    if (c == '[') {
      in_class = true;
      out += c;
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      if (i + 1 < p.size() && p[i + 1] == ']') out += p[++i];  // a literal ] first
      continue;
    }
    if (c == '(' && p.compare(i, 3, "(?<") == 0 && i + 3 < p.size() && p[i + 3] != '=' &&
        p[i + 3] != '!') {
      out += "(?P<";  // named group: RE2 2022 knows only the (?P<name>…) spelling
      i += 2;
      continue;
    }
    out += c;
  }
  return out;
}

std::unique_ptr<RE2> compile(const std::string& matcher) {
  auto translated = rust_to_re2(matcher);
  if (!translated) return nullptr;
  RE2::Options o;
  o.set_log_errors(false);
  auto re = std::make_unique<RE2>(*translated, o);
  return re->ok() ? std::move(re) : nullptr;
}
}  // namespace

MatcherKind matcher_kind(const std::string& matcher) {
  if (matcher.empty() || matcher == "*") return MatcherKind::kAll;
  bool names = true;
  for (unsigned char c : matcher)
    if (!(std::isalnum(c) && c < 0x80) && c != '_' && c != '|') names = false;
  if (names) return MatcherKind::kNames;
  return compile(matcher) ? MatcherKind::kRegex : MatcherKind::kInvalid;
}

bool matcher_matches(const std::string& matcher, const std::string& tool_name) {
  switch (matcher_kind(matcher)) {
    case MatcherKind::kAll:
      return true;
    case MatcherKind::kNames: {
      size_t start = 0;
      while (true) {
        size_t bar = matcher.find('|', start);
        if (matcher.compare(start, bar == std::string::npos ? std::string::npos : bar - start,
                            tool_name) == 0 &&
            (bar == std::string::npos ? matcher.size() - start : bar - start) == tool_name.size())
          return true;
        if (bar == std::string::npos) return false;
        start = bar + 1;
      }
    }
    case MatcherKind::kRegex: {
      auto re = compile(matcher);  // unanchored (CX: `^Bash` matches BashOutput)
      return re && RE2::PartialMatch(tool_name, *re);
    }
    case MatcherKind::kInvalid:
      return false;
  }
  return false;
}

std::string trust_key(const std::string& config_path, const std::string& event, int group,
                      int handler) {
  std::string label = event_key_label(event);
  return config_path + ":" + (label.empty() ? event : label) + ":" + std::to_string(group) + ":" +
         std::to_string(handler);
}

std::string trust_hash(const HookHandler& handler) {
  const EventInfo* e = find_event(handler.event);
  if (!e) return "";
  std::optional<std::string> matcher;
  if (e->matcher && handler.has_matcher) matcher = handler.matcher;
  long t = handler.timeout_sec < 1 ? 1 : handler.timeout_sec;
  return hash_of(*e, matcher, handler.command, static_cast<std::uint64_t>(t), handler.is_async,
                 handler.status_message, handler.context_limit);
}

Result<LoadedHooks> load_hooks(const Sources& given) {
  LoadedHooks out;
  // Trust keys carry the file's path as Codex prints it: CODEX_HOME with its symbolic links
  // resolved, without "." segments or a trailing slash (HL: CODEX_HOME=<link>/./ gave keys under
  // the link's target). Folders are used so, the other layers' alike.
  auto clean = [](const std::string& dir) {
    if (dir.empty()) return dir;
    std::error_code ec;
    std::filesystem::path c = std::filesystem::weakly_canonical(dir, ec);
    std::string d = ec ? std::filesystem::path(dir).lexically_normal().string() : c.string();
    while (d.size() > 1 && d.back() == '/') d.pop_back();
    return d;
  };
  Sources sources = given;
  sources.system_dir = clean(given.system_dir);
  sources.codex_home = clean(given.codex_home);
  sources.project = clean(given.project);
  for (auto& d : sources.plugin_dirs) d = clean(d);
  // Trust state: the user config.toml only (CXSRC config_rules.rs hook_states_from_stack: user,
  // session-flag and in-memory layers; keys trimmed; a malformed entry is skipped).
  std::map<std::string, State> states;
  TomlFile user_toml;
  if (!sources.codex_home.empty()) {
    auto r = read_config_toml(sources.codex_home + "/config.toml");
    if (!r) return r.error();
    user_toml = std::move(*r);
    for (const auto& [k, v] : user_toml.state) {
      if (!v.is_object()) continue;
      State s;
      bool ok = true;
      if (auto e = v.find("enabled"); e != v.end()) {
        if (e->is_boolean())
          s.enabled = e->get<bool>();
        else
          ok = false;
      }
      if (auto h = v.find("trusted_hash"); h != v.end()) {
        if (h->is_string())
          s.trusted_hash = h->get<std::string>();
        else
          ok = false;
      }
      size_t b = k.find_first_not_of(" \t\r\n"), e = k.find_last_not_of(" \t\r\n");
      if (!ok || b == std::string::npos) continue;
      State& dst = states[k.substr(b, e - b + 1)];
      if (s.enabled) dst.enabled = s.enabled;
      if (s.trusted_hash) dst.trusted_hash = s.trusted_hash;
    }
  }
  // Layers lowest precedence first (CXSRC discovery.rs): system (managed), user, project (only
  // when trusted, CX), then plugins.
  if (!sources.system_dir.empty())
    if (auto s = load_layer(sources.system_dir, "system", true, states, nullptr, out); !s)
      return s.error();
  if (!sources.codex_home.empty())
    if (auto s = load_layer(sources.codex_home, "user", false, states, &user_toml, out); !s)
      return s.error();
  if (!sources.project.empty() && sources.project_trusted)
    if (auto s = load_layer(sources.project + "/.codex", "project", false, states, nullptr, out);
        !s)
      return s.error();
  for (size_t i = 0; i < sources.plugin_dirs.size(); ++i) {
    const std::string& root = sources.plugin_dirs[i];
    std::string id = i < sources.plugin_ids.size() && !sources.plugin_ids[i].empty()
                         ? sources.plugin_ids[i]
                         : root.substr(root.find_last_of('/') + 1);
    std::string path = root + "/hooks/hooks.json";
    if (!is_file(path)) continue;
    RawEvents ev;
    auto text = read_hooks_text(path, out);
    if (!text) continue;
    std::string where;
    if (auto err = parse_hooks_json(*text, ev, where); !err.empty()) {
      out.warnings.push_back("failed to parse hooks config " + path + ": " + err);
      continue;
    }
    // CXSRC declarations.rs plugin_hook_key_source: "<plugin id>:<path in the plugin>"; the
    // command sees PLUGIN_ROOT / CLAUDE_PLUGIN_ROOT substituted (after hashing).
    LayerSource src{path,
                    id + ":hooks/hooks.json",
                    "plugin",
                    false,
                    {{"PLUGIN_ROOT", root}, {"CLAUDE_PLUGIN_ROOT", root}}};
    if (auto s = append_events(src, ev, states, out); !s) return s.error();
  }
  return out;
}

std::vector<HookHandler> plan(const LoadedHooks& hooks, const std::string& event,
                              const std::string& tool_name, bool bypass_trust) {
  std::vector<HookHandler> out;
  const EventInfo* e = find_event(event);
  if (!e) return out;
  // Tool events match the tool's name and its aliases (CXSRC matcher_inputs); other matcher
  // events match the value as given (source, trigger, agent type).
  bool tool_event = event == "PreToolUse" || event == "PostToolUse" || event == "PermissionRequest";
  std::vector<std::string> inputs =
      tool_event ? match_names(tool_name) : std::vector<std::string>{tool_name};
  for (const auto& h : hooks.handlers) {
    if (h.event != e->name || !h.enabled) continue;
    if (!(h.trusted || bypass_trust)) continue;  // CX: skipped without a word
    if (e->matcher && h.has_matcher) {
      bool any = false;
      for (const auto& in : inputs) any = any || matcher_matches(h.matcher, in);
      if (!any) continue;
    }
    out.push_back(h);
  }
  return out;
}

std::optional<FileProblem> hooks_json_problem(const std::string& text) {
  if (!valid_utf8(text)) return FileProblem{"", "stream did not contain valid UTF-8"};
  RawEvents ev;
  std::string where;
  std::string err = parse_hooks_json(text, ev, where);
  if (err.empty()) return std::nullopt;
  return FileProblem{where, err};
}

Result<TomlHooks> read_toml_hooks(const std::string& text, const std::string& path) {
  TomlHooks out;
  auto doc = detail::parse_toml(text, path, true);
  if (!doc) return doc.error();
  if (auto h = doc->root.find("hooks"); h != doc->root.end()) {
    out.hooks = *h;
    for (auto& [ptr, where] : doc->positions)
      if (ptr.rfind("/hooks", 0) == 0) out.positions.emplace(ptr, where);
    json events = out.hooks;
    if (events.is_object()) events.erase("state");
    RawEvents ev;
    std::string where;
    if (std::string err = parse_events(events, ev, where); !err.empty())
      out.problem = FileProblem{where, err};
  }
  return out;
}

bool project_trusted(const std::string& codex_home, const std::string& project) {
  std::string path = codex_home + "/config.toml";
  if (!is_file(path)) return false;
  auto text = pinta::fs::read_file(path);
  if (!text) return false;
  auto doc = detail::parse_toml(*text, path, false);
  if (!doc) return false;
  const json& r = doc->root;
  auto p = r.find("projects");
  if (p == r.end() || !p->is_object()) return false;
  auto e = p->find(project);
  if (e == p->end() || !e->is_object()) return false;
  auto l = e->find("trust_level");
  return l != e->end() && l->is_string() && *l == "trusted";
}

}  // namespace pinta::hosts::codex
