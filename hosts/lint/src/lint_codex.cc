// `hostemu lint` and `hostemu explain` for OpenAI Codex CLI 0.171.0 hook files: a hooks.json
// (~/.codex/hooks.json, <project>/.codex/hooks.json, a plugin's hooks/hooks.json) or the `[hooks]`
// table of a config.toml. What the host does with a file comes from hosts/codex (its events,
// loader, trust hashes, matcher semantics and planner: the code the emulator runs); this file walks
// the file to position what that loader refuses, skips or reads differently, and adds the checks a
// loader has no reason to make (timeout units, matcher shapes, commands, our adapter's --agent).
// Evidence, one per rule: HL = measured on the 0.171.0 binary with its app-server's `hooks/list`
// (hosts/codex/test/probe_hooks_list.py, vectors in hosts/codex/test/codex_test.cc); CX =
// shared/reference/real-hosts.md (Codex 0.171.0, measured runs); CXSRC = openai/codex
// codex-rs/hooks (source).
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>

#include "common.h"
#include "pinta/common/fs.h"
#include "pinta/common/text.h"
#include "pinta/hosts/codex/codex.h"
#include "pinta/hosts/family.h"

namespace pinta::hostlint::detail {
namespace {

namespace cx = pinta::hosts::codex;
namespace sfs = std::filesystem;

// The names Codex's tool hooks see (CX: every shell tool is `Bash`, `apply_patch` is also
// matched as `Write` and `Edit`, MCP tools are `mcp__server__tool`).
const std::vector<std::string>& codex_tools() {
  static const std::vector<std::string> k = {"Bash", "apply_patch", "Write", "Edit"};
  return k;
}

// Tool names of Codex's own model API and of other hosts, with the name a Codex hook sees.
const std::map<std::string, std::string>& foreign_tools() {
  static const std::map<std::string, std::string> k = {{"exec_command", "Bash"},
                                                       {"shell", "Bash"},
                                                       {"local_shell", "Bash"},
                                                       {"shell_command", "Bash"},
                                                       {"unified_exec", "Bash"},
                                                       {"run_shell_command", "Bash"},
                                                       {"run_command", "Bash"},
                                                       {"write_file", "Write"},
                                                       {"replace", "Edit"},
                                                       {"MultiEdit", "apply_patch"},
                                                       {"NotebookEdit", ""},
                                                       {"Read", ""},
                                                       {"Glob", ""},
                                                       {"Grep", ""},
                                                       {"WebFetch", ""},
                                                       {"WebSearch", ""},
                                                       {"Task", ""},
                                                       {"read_file", ""}};
  return k;
}

// Other hosts' event names with Codex's equivalent ("" = none).
const std::map<std::string, std::string>& foreign_events() {
  static const std::map<std::string, std::string> m = {
      {"BeforeTool", "PreToolUse"},        {"AfterTool", "PostToolUse"},
      {"BeforeAgent", "UserPromptSubmit"}, {"AfterAgent", "Stop"},
      {"PreCompress", "PreCompact"},       {"BeforeModel", "PreModelRequest"},
      {"AfterModel", "PostModelRequest"},  {"PreInvocation", "UserPromptSubmit"},
      {"PostInvocation", "Stop"},          {"Notification", ""},
      {"PostToolUseFailure", ""},          {"preToolUse", "PreToolUse"},
      {"postToolUse", "PostToolUse"}};
  return m;
}

bool is_tool_event(const std::string& e) {
  return e == "PreToolUse" || e == "PostToolUse" || e == "PermissionRequest";
}

// Findings positioned in a hooks.json (its PositionIndex) or a config.toml (toml++'s positions).
struct Out {
  Sink& sink;
  const cx::TomlHooks* toml = nullptr;

  Position pos(std::string ptr, bool key) const {
    if (key)
      if (auto it = toml->positions.find(ptr + "#key"); it != toml->positions.end())
        return {it->second.first, it->second.second};
    while (true) {
      if (auto it = toml->positions.find(ptr); it != toml->positions.end())
        return {it->second.first, it->second.second};
      if (ptr.empty()) return {1, 1};
      ptr = parent_pointer(ptr);
    }
  }
  void add(Severity sev, const std::string& rule, const std::string& ptr, const std::string& msg,
           const std::string& hint, bool at_key = false) {
    if (!toml) {
      if (at_key)
        sink.add_at_key(sev, rule, ptr, msg, hint);
      else
        sink.add(sev, rule, ptr, msg, hint);
      return;
    }
    sink.out.push_back({sink.file, pos(ptr, at_key), sev, rule, msg, hint});
  }
  // The shared command checks (common.h), repositioned for TOML.
  template <typename F>
  void shared(const std::string& ptr, F&& check) {
    if (!toml) {
      check(sink);
      return;
    }
    Sink tmp{sink.file, nullptr, {}};
    check(tmp);
    for (auto& f : tmp.out) {
      f.pos = pos(ptr, false);
      sink.out.push_back(std::move(f));
    }
  }
};

std::string num(std::uint64_t v) { return std::to_string(v); }

// How Codex will run this file: which layer it is, whether it is read at all, the trust state.
struct Place {
  std::string layer;       // user | project | other
  std::string codex_home;  // $CODEX_HOME, else ~/.codex
  std::string project;     // the project folder of a <project>/.codex/ file
  bool read = true;        // false: a project Codex does not trust
};

// A path as Codex names it in trust keys: symbolic links resolved (HL), else lexically normal.
std::string canon(const std::string& path) {
  std::error_code ec;
  sfs::path c = sfs::weakly_canonical(path, ec);
  return ec ? normalize(path) : normalize(c.string());
}

Place place_of(const std::string& path, const LintOptions& o) {
  Place p;
  std::string ch = env_or(o, "CODEX_HOME");
  p.codex_home = canon(!ch.empty() ? ch : home_of(o) + "/.codex");
  const std::string f = canon(path);
  if (f == p.codex_home + "/hooks.json" || f == p.codex_home + "/config.toml") {
    p.layer = "user";
  } else if (ends_with(f, "/.codex/hooks.json") || ends_with(f, "/.codex/config.toml")) {
    p.layer = "project";
    p.project = dir_of(dir_of(f));
    p.read = cx::project_trusted(p.codex_home, p.project);
  } else {
    p.layer = "other";
  }
  return p;
}

// One name of an exact-name list matcher on a tool event.
void check_listed_name(Out& out, const std::string& ptr, const std::string& name) {
  if (name.empty()) return;
  const auto& tools = codex_tools();
  if (std::find(tools.begin(), tools.end(), name) != tools.end()) return;
  if (name.rfind("mcp__", 0) == 0) return;  // an MCP tool: its names are the server's
  if (auto f = foreign_tools().find(name); f != foreign_tools().end()) {
    out.add(Severity::kWarning, "matcher-never-matches", ptr,
            "'" + name + "' is not a name Codex's hooks see" +
                (f->second.empty() ? std::string(": Codex 0.171.0 has no such hooked tool")
                                   : ": that call reaches a hook as '" + f->second + "'"),
            f->second.empty() ? "hooked tools are Bash, apply_patch (also Write, Edit) and "
                                "mcp__server__tool"
                              : "write '" + f->second + "'");
    return;
  }
  for (const auto& t : tools)
    if (pinta::text::ascii_lower(t) == pinta::text::ascii_lower(name)) {
      out.add(Severity::kWarning, "matcher-case", ptr,
              "'" + name + "' differs from the tool name '" + t +
                  "' only in case; Codex compares listed names exactly",
              "write '" + t + "'");
      return;
    }
  out.add(Severity::kWarning, "matcher-never-matches", ptr,
          "no tool reaches Codex's hooks as '" + name + "'" + did_you_mean(name, tools) +
              " (a matcher of letters, digits, _ and | is a list of exact names)",
          "hooked tools are Bash, apply_patch (also Write, Edit) and mcp__server__tool");
}

// A string matcher of `event` (CXSRC events/common.rs; HL).
void check_matcher(Out& out, const std::string& ptr, const std::string& event,
                   const std::string& m) {
  if (m.empty() || m == "*") return;
  if (!cx::event_uses_matcher(event)) {
    // HL: the matcher of these events is dropped (an invalid one is not even reported).
    out.add(Severity::kWarning, "matcher-ignored", ptr,
            event + " has no matcher: Codex ignores this one and runs the hooks on every " + event,
            "remove \"matcher\"");
    return;
  }
  switch (cx::matcher_kind(m)) {
    case cx::MatcherKind::kAll:
      return;
    case cx::MatcherKind::kInvalid:
      // HL: "invalid matcher … regex parse error", the group is skipped (a log line only).
      out.add(Severity::kError, "matcher-invalid", ptr,
              "matcher is not a valid regular expression (Rust regex syntax): Codex skips this "
              "group's hooks, with a warning in its log only",
              "fix the pattern, or write exact names separated by |");
      return;
    case cx::MatcherKind::kNames: {
      if (!is_tool_event(event)) return;
      size_t start = 0;
      while (true) {
        size_t bar = m.find('|', start);
        check_listed_name(out, ptr, m.substr(start, bar == std::string::npos ? bar : bar - start));
        if (bar == std::string::npos) break;
        start = bar + 1;
      }
      return;
    }
    case cx::MatcherKind::kRegex:
      break;
  }
  // A list written with spaces or commas is a regular expression that must match literally.
  if (std::all_of(m.begin(), m.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '|' || c == ' ' ||
               c == ',';
      })) {
    out.add(Severity::kWarning, "matcher-never-matches", ptr,
            "'" + m +
                "' is a regular expression to Codex, not a list: only letters, digits, _ "
                "and | make a list of names, so a space or comma must match literally",
            "separate the names with | only, e.g. 'Write|Edit'");
    return;
  }
  // "Bash*" as a glob: in a regular expression `h*` is "zero or more h", searched anywhere.
  if (m.size() >= 2 && m.back() == '*' && m[m.size() - 2] != '.' &&
      std::all_of(m.begin(), m.end() - 1,
                  [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; })) {
    out.add(Severity::kWarning, "matcher-unanchored", ptr,
            "'" + m +
                "' is a regular expression, not a glob: it matches any tool name containing "
                "'" +
                m.substr(0, m.size() - 2) + "'",
            "write '^" + m.substr(0, m.size() - 1) + ".*' (or the exact name)");
    return;
  }
  // CX: unanchored search, `^Bash` also matches BashOutput.
  if (m.front() == '^' && m.back() != '$') {
    out.add(Severity::kWarning, "matcher-unanchored", ptr,
            "Codex searches the tool name: '" + m +
                "' also matches every longer name it "
                "starts (e.g. '^Bash' matches 'BashOutput')",
            "end it with $ ('" + m + "$') or write the exact name");
  }
  if (!is_tool_event(event) || m.find("mcp") != std::string::npos) return;
  bool any = false;
  for (const auto& t : codex_tools()) any = any || cx::matcher_matches(m, t);
  if (!any)
    out.add(Severity::kWarning, "matcher-never-matches", ptr,
            "regular expression '" + m + "' matches none of the names Codex's tool hooks see",
            "hooked tools are Bash, apply_patch (also Write, Edit) and mcp__server__tool");
}

// One handler of `event`: its keys, type, command and timeout.
void handler_findings(Out& out, const nlohmann::json& h, const std::string& ptr,
                      const std::string& event, const CommandContext& ctx) {
  if (!h.is_object()) return;  // file-rejected
  auto t = h.find("type");
  if (t == h.end() || !t->is_string()) return;  // file-rejected
  const std::string type = t->get<std::string>();
  if (type == "prompt" || type == "agent") {
    // HL: "skipping prompt hook …: prompt hooks are not supported yet".
    out.add(Severity::kWarning, "invalid-handler", ptr + "/type",
            "Codex " + std::string(cx::kVersion) + " skips " + type +
                " hooks (\"not supported yet\", in its log only)",
            "write a command hook: {\"type\": \"command\", \"command\": \"...\"}");
    return;
  }
  if (type != "command") return;  // mcp_tool (valid), or file-rejected
  static const std::vector<std::string> kKeys = {
      "type",  "command",       "commandWindows",        "timeout",
      "async", "statusMessage", "additionalContextLimit"};
  for (auto k = h.begin(); k != h.end(); ++k) {
    const std::string key = k.key();
    if (std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end()) continue;
    const std::string kptr = ptr + "/" + pointer_token(key);
    if (key == "timeoutSec" || key == "timeout_sec" || key == "timeoutMs" || key == "timeout_ms") {
      // CX: `timeoutSec` is not honoured on 0.171.0 (measured), whatever older docs say.
      out.add(Severity::kWarning, "timeout-unit", kptr,
              "Codex " + std::string(cx::kVersion) + " does not read '" + key +
                  "': the hook gets " +
                  num(static_cast<std::uint64_t>(cx::default_timeout_sec(event))) +
                  " s (the default) unless \"timeout\" (seconds) is set",
              "write \"timeout\": <seconds>");
      continue;
    }
    out.add(Severity::kWarning, "unknown-key", kptr,
            "Codex ignores key '" + key + "' in a hook" + did_you_mean(key, kKeys),
            "a command hook has \"type\", \"command\", \"timeout\" (seconds), \"async\", "
            "\"statusMessage\"",
            true);
  }
  if (auto acl = h.find("additionalContextLimit"); acl != h.end() && !acl->is_null()) {
    const bool kept = event == "PreToolUse" || event == "PostToolUse" || event == "SessionStart" ||
                      event == "UserPromptSubmit" || event == "SubagentStart";
    if (!kept)  // HL: "ignoring additionalContextLimit for Stop hook …"
      out.add(Severity::kWarning, "unknown-key", ptr + "/additionalContextLimit",
              "Codex ignores additionalContextLimit on " + event +
                  ": this event cannot emit additionalContext",
              "remove it", true);
  }
  if (auto tv = h.find("timeout"); tv != h.end() && tv->is_number_unsigned()) {
    const std::uint64_t v = tv->get<std::uint64_t>();
    const std::string tptr = ptr + "/timeout";
    if (v > static_cast<std::uint64_t>(INT64_MAX)) {
      // HL: discovery panics ("normalized hook identity should serialize to TOML").
      out.add(Severity::kError, "file-rejected", tptr,
              "timeout " + num(v) +
                  " does not fit a TOML integer: Codex's hook discovery fails "
                  "and no hook runs",
              "write a timeout in seconds, e.g. 30");
    } else if (v == 0) {
      out.add(Severity::kWarning, "timeout-unit", tptr,
              "timeout 0 is raised to 1 s by Codex (CXSRC `.max(1)`; HL)",
              "write the seconds the hook may take, or leave it out for the default");
    } else if ((event == "SessionEnd" || event == "Interrupt") && v > 3) {
      out.add(Severity::kWarning, "timeout-unit", tptr,
              event + " hooks get at most 3 s: Codex clamps " + num(v) + " to 3 (HL)",
              "write at most 3");
    } else if (v >= 1000) {
      out.add(Severity::kWarning, "timeout-unit", tptr,
              "timeout " + num(v) + " is seconds in Codex (" +
                  human_duration_ms(static_cast<double>(v) * 1000) + ")",
              "write " + num(v / 1000) + " for " + num(v) + " ms");
    }
  }
  auto c = h.find("command");
  if (c == h.end() || !c->is_string()) return;  // file-rejected
  const std::string command = c->get<std::string>();
  if (command.find_first_not_of(" \t\r\n\v\f") == std::string::npos) {
    // HL: "skipping empty hook command".
    out.add(Severity::kWarning, "invalid-handler", ptr + "/command",
            "empty command: Codex skips this hook (a warning in its log only)",
            "write \"command\": \"...\" (a shell command line)");
    return;
  }
  const std::string cptr = ptr + "/command";
  out.shared(cptr, [&](Sink& s) {
    check_adapter(s, cptr, pinta::hosts::Family::kCodex, event, command);
    // CX: run as /bin/bash -c; a missing program exits 127, a failed run lets the tool run.
    check_command(s, cptr, command, ctx, false, "");
  });
}

// Every event of a hooks table (hooks.json's "hooks", config.toml's [hooks]).
void events_findings(Out& out, const nlohmann::json& hooks, bool toml, const CommandContext& ctx) {
  if (!hooks.is_object()) return;  // file-rejected
  std::vector<std::string> names(cx::events().begin(), cx::events().end());
  for (auto ev = hooks.begin(); ev != hooks.end(); ++ev) {
    const std::string event = ev.key();
    const std::string eptr = "/hooks/" + pointer_token(event);
    if (toml && event == "state") continue;
    if (!cx::is_event(event)) {
      // HL: an unknown event key is ignored without a word.
      out.add(Severity::kWarning, "unknown-event", eptr,
              "Codex " + std::string(cx::kVersion) + " has no event '" + event +
                  "': it ignores the hooks under it without a word",
              suggest_event(event, names, foreign_events()), true);
      continue;
    }
    const nlohmann::json& groups = ev.value();
    if (!groups.is_array()) continue;  // file-rejected
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      const nlohmann::json& g = groups[gi];
      const std::string gptr = eptr + "/" + std::to_string(gi);
      if (!g.is_object()) continue;
      for (auto k = g.begin(); k != g.end(); ++k)
        if (k.key() != "matcher" && k.key() != "hooks")
          out.add(Severity::kWarning, "unknown-key", gptr + "/" + pointer_token(k.key()),
                  "Codex ignores key '" + k.key() + "' in a matcher group" +
                      did_you_mean(k.key(), {"matcher", "hooks"}),
                  "a group has \"matcher\" and \"hooks\"", true);
      if (auto m = g.find("matcher"); m != g.end() && m->is_string())
        check_matcher(out, gptr + "/matcher", event, m->get<std::string>());
      auto hs = g.find("hooks");
      if (hs == g.end() || !hs->is_array()) continue;
      for (size_t hi = 0; hi < hs->size(); ++hi)
        handler_findings(out, (*hs)[hi], gptr + "/hooks/" + std::to_string(hi), event, ctx);
    }
  }
}

bool has_events(const nlohmann::json& hooks) {
  if (!hooks.is_object()) return false;
  for (const auto& e : cx::events())
    if (auto it = hooks.find(e); it != hooks.end() && it->is_array() && !it->empty()) return true;
  return false;
}

// The same layer's other representation (HL: both load, with a warning in the log).
void both_representations(Out& out, const std::string& path, bool toml, bool mine) {
  if (!mine) return;
  const std::string other = dir_of(normalize(path)) + (toml ? "/hooks.json" : "/config.toml");
  auto text = pinta::fs::read_file(other);
  if (!text) return;
  bool theirs = false;
  if (toml) {
    auto j = nlohmann::json::parse(*text, nullptr, false);
    theirs = !cx::hooks_json_problem(*text) && j.is_object() && j.contains("hooks") &&
             has_events(j["hooks"]);
  } else {
    auto t = cx::read_toml_hooks(*text, other);
    theirs = t && has_events(t->hooks);
  }
  if (theirs)
    out.add(Severity::kWarning, "duplicate-registration", "/hooks",
            "this folder also has hooks in " + other +
                ": Codex loads both (hooks.json first) and warns \"prefer a single "
                "representation for this layer\"",
            "keep the hooks in one of hooks.json or config.toml [hooks]");
}

// Trust (CX: untrusted hooks are skipped without a word; CXSRC/HL: a stale hash is "modified"
// and skipped too; `enabled = false` turns a hook off even with the bypass flag).
void trust_findings(Out& out, const std::string& path, const Place& place) {
  if (place.layer == "other" || !place.read) return;
  cx::Sources s;
  s.codex_home = place.codex_home;
  if (place.layer == "project") {
    s.project = place.project;
    s.project_trusted = true;
  }
  auto loaded = cx::load_hooks(s);
  if (!loaded) return;  // the user's config.toml does not load: its own lint says so
  const std::string f = canon(path);
  for (const auto& h : loaded->handlers) {
    if (canon(h.file) != f) continue;
    // One line (a finding's hint is printed on one): the table and its value.
    const std::string entry = "the table [hooks.state.\"" + h.trust_key +
                              "\"] with trusted_hash = \"" + h.trust_hash + "\"";
    if (!h.enabled) {
      out.add(Severity::kWarning, "hook-disabled", h.pointer,
              "[hooks.state] in " + place.codex_home +
                  "/config.toml sets enabled = false: Codex "
                  "never runs this hook (not even with --dangerously-bypass-hook-trust)",
              "remove enabled = false from [hooks.state.\"" + h.trust_key + "\"]");
    } else if (h.trust_status == cx::TrustStatus::kUntrusted) {
      out.add(
          Severity::kWarning, "hook-disabled", h.pointer,
          "not trusted: " + place.codex_home +
              "/config.toml has no [hooks.state] entry for "
              "it, so Codex skips it without a word (unless run with "
              "--dangerously-bypass-hook-trust)",
          "trust it in Codex (/hooks), or add to " + place.codex_home + "/config.toml " + entry);
    } else if (h.trust_status == cx::TrustStatus::kModified) {
      out.add(Severity::kWarning, "hook-disabled", h.pointer,
              "its trusted_hash in [hooks.state] is stale (the hook changed since it was "
              "trusted): Codex skips it without a word",
              "trust it again (/hooks), or set in " + place.codex_home + "/config.toml " + entry);
    }
  }
}

CommandContext command_context(const Place& place, const LintOptions& o) {
  CommandContext ctx;
  ctx.home = home_of(o);
  ctx.cwd = !place.project.empty() ? place.project
            : !o.workspace.empty() ? normalize(o.workspace)
                                   : ctx.home;
  ctx.path_env = env_or(o, "PATH");
  return ctx;
}

void lint_json(const std::string& path, const std::string& text, const LintOptions& o, Sink& sink) {
  Out out{sink};
  auto root = ojson::parse(text, nullptr, false);
  if (root.is_discarded() || text.compare(0, 3, "\xEF\xBB\xBF") == 0) {
    Position pos{1, 1};
    std::string detail = root.is_discarded() ? "invalid JSON" : "a byte-order mark";
    if (root.is_discarded()) syntax_error(text, false, pos, detail);
    // HL: "failed to parse hooks config …": the file is skipped, the other layers still run.
    sink.out.push_back({path, pos, Severity::kError, "json-syntax",
                        "Codex skips this hooks.json, every hook in it (a warning in its log "
                        "only): " +
                            detail,
                        "fix the JSON (no comments, no trailing commas, no BOM)"});
    return;
  }
  if (auto p = cx::hooks_json_problem(text)) {
    // HL: a value of the wrong type, an unknown top-level key, a duplicate key, an unknown
    // handler type, text that is not UTF-8: the whole file is skipped.
    out.add(Severity::kError, "file-rejected", p->pointer,
            "Codex " + std::string(cx::kVersion) + " skips this whole hooks.json (" + p->message +
                "), so none of its hooks run (a warning in its log only)",
            p->message.rfind("unknown field", 0) == 0
                ? "a hooks.json has only \"hooks\" (and \"description\")"
                : "fix the value's type: see the shape {\"hooks\": {\"PreToolUse\": "
                  "[{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": "
                  "\"...\", \"timeout\": 30}]}]}}",
            p->message.rfind("unknown field", 0) == 0);
  }
  const Place place = place_of(path, o);
  if (!place.read)
    out.add(Severity::kWarning, "file-not-read", "",
            "Codex reads " + place.project + "/.codex/ only when the project is trusted, and " +
                place.codex_home + "/config.toml does not trust it: none of these hooks run",
            "trust the project in Codex, or add [projects.\"" + place.project +
                "\"] trust_level = \"trusted\" to " + place.codex_home + "/config.toml");
  if (!root.is_object() || !root.contains("hooks")) return;
  const nlohmann::json hooks = nlohmann::json::parse(root["hooks"].dump());
  events_findings(out, hooks, false, command_context(place, o));
  both_representations(out, path, false, has_events(hooks));
  trust_findings(out, path, place);
}

void lint_toml(const std::string& path, const std::string& text, const LintOptions& o, Sink& sink) {
  auto t = cx::read_toml_hooks(text, path);
  if (!t) {
    // HL: Codex does not start ("Failed to read config file …" / "unclosed table").
    Position pos{1, 1};
    const std::string& m = t.error().message;  // "path:line:col: description"
    if (m.rfind(path + ":", 0) == 0) {
      const char* rest = m.c_str() + path.size() + 1;
      int line = std::atoi(rest);
      const char* colon = std::strchr(rest, ':');
      int col = colon ? std::atoi(colon + 1) : 1;
      if (line > 0) pos = {line, col > 0 ? col : 1};
    }
    sink.out.push_back({path, pos, Severity::kError, "file-rejected",
                        "config.toml does not parse, so Codex does not start: " + m,
                        "fix the TOML"});
    return;
  }
  Out out{sink, &*t};
  if (t->problem)
    // HL: a [hooks] value of the wrong type stops Codex loading its configuration at all.
    out.add(Severity::kError, "file-rejected", t->problem->pointer,
            "Codex refuses this config.toml (" + t->problem->message + "): it does not start",
            "fix the value's type: [[hooks.PreToolUse]] matcher = \"Bash\", then "
            "[[hooks.PreToolUse.hooks]] type = \"command\", command = \"...\", timeout = 30");
  if (t->hooks.is_null()) return;
  const Place place = place_of(path, o);
  if (!place.read)
    out.add(Severity::kWarning, "file-not-read", "/hooks",
            "Codex reads " + place.project + "/.codex/ only when the project is trusted, and " +
                place.codex_home + "/config.toml does not trust it: none of these hooks run",
            "trust the project in Codex, or add [projects.\"" + place.project +
                "\"] trust_level = \"trusted\" to " + place.codex_home + "/config.toml");
  events_findings(out, t->hooks, true, command_context(place, o));
  both_representations(out, path, true, has_events(t->hooks));
  trust_findings(out, path, place);
}

// What a failure of a hook of `event` does (CX outcome matrix and rules).
std::string on_failure_of(const std::string& event) {
  if (event == "PreToolUse")
    return "exit 2 with stderr, or hookSpecificOutput permissionDecision deny with a reason, "
           "blocks; any other exit, exit 2 with empty stderr, unparsable JSON, an extra key or "
           "a timeout: the hook \"Failed\" and the tool runs (fail-open)";
  if (event == "PostToolUse" || event == "Stop" || event == "UserPromptSubmit" ||
      event == "SubagentStop")
    return "{\"decision\":\"block\",\"reason\"} or exit 2 with stderr blocks; other failures are "
           "logged (fail-open)";
  if (event == "PermissionRequest")
    return "hookSpecificOutput.decision {behavior, message} decides; a failure decides nothing "
           "(fail-open)";
  return "cannot block: failures are logged (fail-open)";
}

// ~/.codex/ and <project>/.codex/ (CX): hooks.json and config.toml.
const PathDetector kDetector(Host::kCodex, [](const std::string& p) {
  return ends_with(p, "/.codex/hooks.json") || ends_with(p, "/.codex/config.toml");
});

}  // namespace

Status lint_codex(const std::string& path, const std::string& text, const LintOptions& o,
                  Sink& sink) {
  if (ends_with(path, ".toml")) {
    // The JSON position index of a TOML file means nothing: positions come from toml++.
    const PositionIndex* idx = sink.index;
    sink.index = nullptr;
    lint_toml(path, text, o, sink);
    sink.index = idx;
  } else {
    lint_json(path, text, o, sink);
  }
  return {};
}

// The releases whose version profile has the deny race (hosts/codex/profiles, deny_race: measured,
// a PreToolUse deny beside another PreToolUse hook was lost in some runs and the call ran), as a
// note for a plan of several PreToolUse hooks; "" when no profile has it.
static std::string deny_race_note() {
  auto all = cx::read_profiles(cx::default_profile_dir());
  if (!all) return "";
  std::string ranges;
  for (const auto& p : *all)
    if (p.rules.deny_race && p.rules.hooks_run)
      ranges += (ranges.empty() ? "" : ", ") + p.name + " (" + p.applies_from + " .. " +
                p.applies_through +
                (std::count(p.applies_through.begin(), p.applies_through.end(), '.') == 1 ? ".x"
                                                                                          : "") +
                ")";
  if (ranges.empty()) return "";
  return "several PreToolUse hooks: on the releases of " + ranges +
         " a deny from one of them can be lost while another runs beside it, and the call runs "
         "(measured on 0.145.0: 3 of 7 runs; docs/hosts/codex-0.171.md \"Releases\"); later "
         "releases block on any deny";
}

Result<std::vector<ExplainSection>> explain_codex(const ExplainRequest& rq,
                                                  const LintOptions& options, Locator& loc) {
  std::vector<std::string> names(cx::events().begin(), cx::events().end());
  if (!cx::is_event(rq.event))
    return bad_request("unknown Codex event '" + rq.event + "'" + did_you_mean(rq.event, names));
  if (!rq.tool.empty() && !cx::event_uses_matcher(rq.event))
    return bad_request("--tool names the matcher input; Codex's " + rq.event +
                       " has none (its matchers are ignored)");
  LintOptions o = options;
  if (o.home.empty()) o.home = rq.home;
  cx::Sources s;
  std::string ch = env_or(o, "CODEX_HOME");
  s.codex_home = normalize(!ch.empty() ? ch : rq.home + "/.codex");
  ExplainSection sec;
  sec.host = "codex " + std::string(cx::kVersion);
  if (!rq.workspace.empty()) {
    s.project = normalize(rq.workspace);
    s.project_trusted = cx::project_trusted(s.codex_home, s.project);
    if (!s.project_trusted)
      sec.notes.push_back("the project " + s.project + " is not trusted in " + s.codex_home +
                          "/config.toml: its .codex/ hooks are not read");
  } else {
    sec.notes.push_back("no --workspace: the project's .codex/ hooks are not read");
  }
  auto loaded = cx::load_hooks(s);
  if (!loaded) {
    sec.notes.push_back("Codex does not start: " + loaded.error().message);
    return std::vector<ExplainSection>{sec};
  }
  for (const auto& w : loaded->warnings) sec.notes.push_back(w);
  if (!cx::event_uses_matcher(rq.event))
    sec.notes.push_back(rq.event + " has no matcher: matchers are ignored");
  // CX: matching hooks run concurrently.
  sec.notes.push_back("all listed hooks start at once; the event waits for every one");
  auto planned = cx::plan(*loaded, rq.event, rq.tool, false);
  if (rq.event == "PreToolUse" &&
      std::count_if(planned.begin(), planned.end(),
                    [](const cx::HookHandler& h) { return !h.is_async; }) > 1)
    if (auto note = deny_race_note(); !note.empty()) sec.notes.push_back(note);
  const std::string on_failure = on_failure_of(rq.event);
  auto where = [&](const cx::HookHandler& h) -> Position {
    if (ends_with(h.file, ".toml")) {
      auto t = pinta::fs::read_file(h.file);
      if (t)
        if (auto th = cx::read_toml_hooks(*t, h.file); th)
          if (auto it = th->positions.find(h.pointer); it != th->positions.end())
            return {it->second.first, it->second.second};
      return {1, 1};
    }
    return loc.at(h.file, h.pointer);
  };
  int order = 0;
  std::set<std::string> ran;
  for (const auto& h : planned) {
    ExplainedHook e;
    e.order = ++order;
    e.layer = h.source;
    e.file = h.file;
    e.pos = where(h);
    e.command = h.command;
    e.matcher = h.has_matcher ? h.matcher : "";
    e.timeout = std::to_string(h.timeout_sec) + " s";
    e.on_failure = on_failure;
    sec.hooks.push_back(e);
    ran.insert(h.trust_key);
  }
  for (const auto& h : loaded->handlers) {
    if (h.event != rq.event || ran.count(h.trust_key)) continue;
    std::string why;
    if (!h.enabled)
      why = "enabled = false in [hooks.state]";
    else if (h.trust_status == cx::TrustStatus::kUntrusted)
      why =
          "not trusted (no [hooks.state] entry): skipped without a word; "
          "--dangerously-bypass-hook-trust would run it";
    else if (h.trust_status == cx::TrustStatus::kModified)
      why = "its trusted_hash is stale (the hook changed): skipped without a word";
    else
      why = "matcher \"" + h.matcher + "\" does not match '" + rq.tool + "'";
    Position p = where(h);
    sec.dropped.push_back(h.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.col) +
                          ": " + why);
  }
  return std::vector<ExplainSection>{sec};
}

}  // namespace pinta::hostlint::detail
