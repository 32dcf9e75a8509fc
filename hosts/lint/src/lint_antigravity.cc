// `hostemu lint` for Antigravity hooks.json files, under every profile (or the chosen ones): the
// findings of each profile's parser (agy::parse_hooks_json), positioned and merged across
// profiles, and the checks the parser does not make (timeout units, matcher shape, commands,
// duplicates across the user and project roots).
#include <map>

#include "common.h"
#include "pinta/common/fs.h"
#include "pinta/common/text.h"
#include "pinta/hosts/antigravity/antigravity.h"

namespace pinta::hostlint::detail {
namespace {

namespace agy = pinta::hosts::agy;
using pinta::text::ascii_lower;

// Event names of the other hosts (and Claude Code's), with this host's equivalent.
const std::map<std::string, std::string>& agy_foreign_events() {
  static const std::map<std::string, std::string> m = {{"BeforeTool", "PreToolUse"},
                                                       {"AfterTool", "PostToolUse"},
                                                       {"BeforeAgent", "PreInvocation"},
                                                       {"AfterAgent", "Stop"},
                                                       {"UserPromptSubmit", ""},
                                                       {"SessionEnd", ""},
                                                       {"Notification", ""},
                                                       {"PreCompact", ""},
                                                       {"SubagentStop", ""},
                                                       {"BeforeModel", "PreInvocation"},
                                                       {"AfterModel", "PostInvocation"}};
  return m;
}

const MatcherContext& agy_matchers(bool searched) {
  static const auto make = [](bool s) {
    MatcherContext m;
    m.host = "Antigravity";
    m.searched = s;
    m.backtracking = false;  // RE2 (§4): linear time
    m.tools = {"run_command",
               "view_file",
               "write_to_file",
               "edit_file",
               "replace_file_content",
               "multi_replace_file_content",
               "list_dir",
               "find_by_name",
               "grep_search",
               "codebase_search",
               "read_url_content",
               "search_web",
               "ask_permission",
               "call_mcp_tool"};
    m.claude_names = {
        {"Bash", "run_command"}, {"Write", "write_to_file"},       {"Edit", "replace_file_content"},
        {"Read", "view_file"},   {"Grep", "grep_search"},          {"Glob", "find_by_name"},
        {"LS", "list_dir"},      {"WebFetch", "read_url_content"}, {"WebSearch", "search_web"}};
    return m;
  };
  static const MatcherContext searched_ctx = make(true), anchored_ctx = make(false);
  return searched ? searched_ctx : anchored_ctx;
}

// Which profiles read a file at this place (reference §1.1).
struct AgyPlace {
  std::string layer;  // user | project | plugin | legacy | ide | not-read
  std::string why_not;
  std::string workspace;
};
AgyPlace agy_place(const std::string& path, const LintOptions& o) {
  std::string p = normalize(path);
  std::string home = home_of(o);
  AgyPlace a;
  if (same_file(p, home + "/.gemini/config/hooks.json")) {
    a.layer = "user";
    if (!o.workspace.empty()) a.workspace = normalize(o.workspace);
  } else if (ends_with(p, "/.agents/hooks.json")) {
    a.layer = "project";
    a.workspace = dir_of(dir_of(p));
  } else if (p.find("/plugins/") != std::string::npos &&
             (p.find("/.gemini/config/plugins/") != std::string::npos ||
              p.find("/.agents/plugins/") != std::string::npos)) {
    a.layer = "plugin";
  } else if (ends_with(p, "/.gemini/antigravity-cli/hooks.json")) {
    a.layer = "legacy";
  } else if (ends_with(p, "/.gemini/antigravity-ide/hooks.json")) {
    a.layer = "ide";
  } else if (ends_with(p, "/.agent/hooks.json")) {
    a.layer = "not-read";
    a.why_not = "agy reads .agents/hooks.json (with an s), not .agent/hooks.json";
  } else if (ends_with(p, "/.antigravitycli/hooks.json") || ends_with(p, "/.gemini/hooks.json")) {
    a.layer = "not-read";
    a.why_not = "no measured agy build reads this path (one third-party claim only)";
  } else {
    a.layer = "other";
  }
  return a;
}

// Erases the object member holding `pointer` (the member itself, else its nearest ancestor that is
// an object member). False when there is none (the root itself is at fault).
bool cut_member(ojson& root, std::string pointer) {
  while (!pointer.empty()) {
    std::string parent = parent_pointer(pointer);
    auto* holder = const_cast<ojson*>(at_pointer(root, parent));
    std::string key = unescape_token(pointer.substr(pointer.rfind('/') + 1));
    if (holder && holder->is_object() && holder->contains(key)) {
      holder->erase(key);
      return true;
    }
    pointer = parent;
  }
  return false;
}

bool profile_reads(const agy::Profile& p, const std::string& layer) {
  if (layer == "user") return p.read_global_config;
  if (layer == "project") return p.read_workspace_agents;
  if (layer == "plugin") return p.read_plugin_roots;
  if (layer == "legacy") return p.read_legacy_cli;
  if (layer == "ide") return p.read_ide_root;
  return layer == "other";
}

// The profiles to lint under: the ones named, else every profile.
Result<std::vector<const agy::Profile*>> chosen_profiles(const std::vector<agy::Profile>& all,
                                                         const LintOptions& o) {
  std::vector<const agy::Profile*> profs;
  for (const auto& n : o.profiles) {
    auto* p = agy::find_profile(all, n);
    if (!p)
      return make_error(ErrorCode::kInvalidArgument, "unknown Antigravity profile '" + n + "'");
    profs.push_back(p);
  }
  if (profs.empty())
    for (const auto& p : all) profs.push_back(&p);
  return profs;
}

// Findings per profile, merged: the same finding from every profile is reported once; one from
// only some says which.
class ProfileMerge {
 public:
  void collect(Sink& s, const std::string& profile) {
    for (auto& f : s.out) {
      Key k{f.rule, std::to_string(f.pos.line) + ":" + std::to_string(f.pos.col), f.message};
      auto it = merged_.find(k);
      if (it == merged_.end()) {
        merged_[k] = {f, {profile}};
        order_.push_back(k);
      } else {
        it->second.second.push_back(profile);
        if (f.severity == Severity::kError) it->second.first.severity = Severity::kError;
      }
    }
  }
  // The merged findings, in first-seen order, into `sink`.
  void flush(size_t profiles, Sink& sink) {
    for (const auto& k : order_) {
      auto& [f, which] = merged_[k];
      if (which.size() < profiles) {
        std::string list;
        for (const auto& w : which) list += (list.empty() ? "" : ", ") + w;
        f.message += " [profiles: " + list + "]";
      }
      sink.out.push_back(f);
    }
  }

 private:
  struct Key {
    std::string rule, pointer, message;
    bool operator<(const Key& k) const {
      return std::tie(rule, pointer, message) < std::tie(k.rule, k.pointer, k.message);
    }
  };
  std::map<Key, std::pair<Finding, std::vector<std::string>>> merged_;
  std::vector<Key> order_;
};

// A Claude-style {"hooks": {...}} root (the same under every profile).
void agy_root_findings(const ojson& root, Sink& sink) {
  if (!root.is_object()) return;
  for (auto it = root.begin(); it != root.end(); ++it) {
    std::string k = it.key();
    if (ascii_lower(k) == "hooks" && it.value().is_object())
      sink.add_at_key(
          Severity::kWarning, "foreign-root", "/" + pointer_token(k),
          "Claude-style {\"hooks\": {...}} root: agy reads \"hooks\" as the name of one hook; "
          "it loads only while every event inside is in agy's shape, and any non-object value "
          "next to it drops the whole file",
          "name the hook instead: {\"my-hook\": {\"PreToolUse\": [...], \"Stop\": [...]}}");
  }
}

// agy rejects the whole file at its first bad value. Lint reports it, takes the member holding
// that value out of a working copy and reads the rest, so one run lists every problem (each
// rejection, then the findings in what remains). Members only: array indices, and so every
// pointer into the user's text, stay as they were. `work` is the copy read last.
Result<agy::HooksFile> parse_past_rejections(const std::string& path, const std::string& text,
                                             const ojson& root, const agy::Profile& p, Sink& s,
                                             ojson& work) {
  std::string err_ptr;
  auto hf = agy::parse_hooks_json(text, p, path, &err_ptr);
  work = root;
  for (int round = 0; !hf && round < 64; ++round) {
    std::string top = err_ptr.empty() ? "" : err_ptr.substr(1, err_ptr.find('/', 1) - 1);
    bool event_at_root =
        !top.empty() && err_ptr.find('/', 1) == std::string::npos && any_host_event(top);
    if (event_at_root)
      s.add(Severity::kError, "foreign-root", err_ptr,
            "'" + top +
                "' is at the root, where agy expects hook names: the whole file is "
                "dropped (" +
                hf.error().message + ")",
            "wrap the events in a named hook: {\"my-hook\": {\"" + top + "\": [...]}}");
    else
      s.add(Severity::kError, "file-rejected", err_ptr,
            "agy drops every hook in this file: " + hf.error().message,
            "fix this value; one bad value rejects the whole file");
    if (!cut_member(work, err_ptr)) break;
    hf = agy::parse_hooks_json(work.dump(), p, path, &err_ptr);
  }
  return hf;
}

// What the parser dropped silently or reads differently (its notes), positioned.
void agy_note_findings(const agy::HooksFile& hf, const agy::Profile& p, Sink& s) {
  for (const auto& n : hf.notes) {
    if (n.kind == "unknown-event") {
      std::string k = n.pointer.substr(n.pointer.rfind('/') + 1);
      std::vector<std::string> names;
      for (auto e : agy::all_events())
        if (e != agy::Event::kSessionStart || p.session_start)
          names.push_back(agy::event_name(e));
      s.add_at_key(Severity::kWarning, any_host_event(k) ? "unknown-event" : "unknown-key",
                   n.pointer, "agy drops '" + k + "' in hook '" + n.hook + "'",
                   suggest_event(k, names, agy_foreign_events()));
    } else if (n.kind == "unknown-key") {
      std::string k = n.pointer.substr(n.pointer.rfind('/') + 1);
      s.add_at_key(Severity::kWarning, "unknown-key", n.pointer, "agy ignores key '" + k + "'",
                   "handler keys: type, command, timeout (seconds); group keys: matcher, hooks");
    } else if (n.kind == "wrapped-lifecycle") {
      s.add(Severity::kError, "event-shape", n.pointer,
            "lifecycle event written like a tool event ({matcher, hooks}): agy reads the entry "
            "as a handler without a command and runs nothing",
            "write it flat: [{\"type\": \"command\", \"command\": \"...\"}]");
    } else if (n.kind == "flat-tool-event") {
      s.add(Severity::kError, "event-shape", n.pointer,
            "tool event written flat: agy reads the entry as a group with no hooks and runs "
            "nothing",
            "wrap it: [{\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": "
            "\"...\"}]}]");
    } else if (n.kind == "commandless") {
      s.add(Severity::kError, "invalid-handler", n.pointer,
            "command hook without a command: loads and runs nothing", "add \"command\": \"...\"");
    } else if (n.kind == "invalid-matcher") {
      s.add(Severity::kError, "matcher-invalid", n.pointer,
            "matcher is not a valid RE2 pattern: this profile then " +
                std::string(p.invalid_matcher == "match-all" ? "runs the hook for every tool"
                                                             : "never runs the hook"),
            "fix the pattern (RE2 syntax: no lookaround, no backreferences)");
    } else if (n.kind == "disabled") {
      s.add(Severity::kWarning, "hook-disabled", n.pointer,
            "hook '" + n.hook + "' has enabled: false: none of its handlers run",
            "remove \"enabled\": false to turn it on");
    }
  }
}

// Each enabled command handler: its group's matcher, its timeout (seconds), its command.
void agy_hook_findings(const agy::HooksFile& hf, const ojson& work, const agy::Profile& p,
                       const CommandContext& cc, Sink& s) {
  for (const auto& nh : hf.hooks) {
    if (!nh.enabled) continue;
    for (const auto& e : nh.events) {
      for (const auto& g : e.groups) {
        if (agy::is_tool_event(e.event) && agy::matcher_valid(g.matcher))
          check_matcher_shape(s, g.pointer + "/matcher", g.matcher,
                              agy_matchers(!p.matcher_anchored));
        for (const auto& h : g.hooks) {
          if (h.type != "command" || h.command.empty()) continue;
          const std::string tp = h.pointer + "/timeout";
          if (h.timeout_written >= 1000)
            s.add(Severity::kWarning, "timeout-unit", tp,
                  "timeout " + std::to_string(h.timeout_written) + " is seconds in agy (" +
                      human_duration_ms(static_cast<double>(h.timeout_written) * 1000) +
                      "), not milliseconds",
                  "write " + std::to_string(h.timeout_written / 1000) + " for " +
                      std::to_string(h.timeout_written) + " ms");
          // (`work`: a value lint cut out to read past a rejection is not the user's 0.)
          else if (h.timeout_written < 0 ||
                   (h.timeout_written == 0 && at_pointer(work, tp) != nullptr &&
                    !at_pointer(work, tp)->is_null()))
            s.add(Severity::kWarning, "timeout-unit", tp,
                  "timeout " + std::to_string(h.timeout_written) + " falls back to agy's " +
                      std::to_string(p.timeout_default_seconds) + " s default",
                  "write a positive number of seconds");
          const bool denies =
              e.event == agy::Event::kPreToolUse && p.pretooluse_empty_object == "deny";
          check_adapter(s, h.pointer + "/command", Host::kAntigravity, agy::event_name(e.event),
                        h.command);
          check_command(s, h.pointer + "/command", h.command, cc, denies,
                        "on PreToolUse agy reads an object without \"decision\" as a deny "
                        "(reference §6.2), so every matched tool call is blocked");
        }
      }
    }
  }
}

// Duplicates across the user and project roots (both run: reference §1.2).
void agy_duplicate_findings(const agy::HooksFile& hf, const agy::Profile& p,
                            const AgyPlace& place, const std::string& home, Sink& s) {
  std::string other;
  if (place.layer == "project") other = home + "/.gemini/config/hooks.json";
  if (place.layer == "user" && !place.workspace.empty())
    other = place.workspace + "/.agents/hooks.json";
  if (other.empty() || !profile_reads(p, place.layer == "project" ? "user" : "project")) return;
  auto t = pinta::fs::read_file(other);
  if (!t) return;
  auto of = agy::parse_hooks_json(*t, p, other);
  auto oidx = PositionIndex::build(*t);
  if (!of) return;
  for (const auto& nh : hf.hooks)
    for (const auto& e : nh.events)
      for (const auto& g : e.groups)
        for (const auto& h : g.hooks) {
          bool dup = false;
          for (const auto& onh : of->hooks)
            for (const auto& oe : onh.events)
              for (const auto& og : oe.groups)
                for (const auto& oh : og.hooks)
                  if (!dup && oe.event == e.event && oh.command == h.command &&
                      !h.command.empty()) {
                    dup = true;
                    s.add(Severity::kWarning, "duplicate-registration", h.pointer,
                          "'" + h.command + "' is also registered for " +
                              agy::event_name(e.event) + " in " + other + ":" +
                              std::to_string(oidx.locate(oh.pointer).line) +
                              ": agy merges both files and runs it twice",
                          "keep one registration (global or workspace)");
                  }
        }
}

// The file under one profile, into `s`.
void lint_agy_profile(const std::string& path, const std::string& text, const ojson& root,
                      const agy::Profile& p, const AgyPlace& place, const std::string& home,
                      CommandContext& cc, Sink& s) {
  if (!profile_reads(p, place.layer) && place.layer != "not-read")
    s.add(Severity::kWarning, "file-not-read", "",
          "this profile does not read hooks from here (" + place.layer + " root)",
          "use ~/.gemini/config/hooks.json (read by every profile)");
  ojson work;
  auto hf = parse_past_rejections(path, text, root, p, s, work);
  if (!hf) return;
  cc.cwd = p.cwd == "hooks-dir"        ? dir_of(normalize(path))
           : !place.workspace.empty() ? place.workspace
                                      : home;
  agy_note_findings(*hf, p, s);
  agy_hook_findings(*hf, work, p, cc, s);
  agy_duplicate_findings(*hf, p, place, home, s);
}

// Every profile's hooks.json and the plugins' hooks.json (AGY).
const PathDetector kDetector(Host::kAntigravity, [](const std::string& p) {
  for (const char* s : {"/.gemini/config/hooks.json", "/.agents/hooks.json", "/.agent/hooks.json",
                        "/.gemini/antigravity-cli/hooks.json",
                        "/.gemini/antigravity-ide/hooks.json", "/.antigravitycli/hooks.json"})
    if (ends_with(p, s)) return true;
  return (p.find("/.gemini/config/plugins/") != std::string::npos ||
          p.find("/.agents/plugins/") != std::string::npos) &&
         ends_with(p, "/hooks.json");
});
// Named hook groups: a root whose every value is an object holding an event. A root "hooks"
// object is the settings shape other hosts read, never a group (the catch-all, asked last).
const ShapeDetector kShape(Host::kAntigravity, 2, [](const ojson& j) {
  if (!j.is_object() || j.empty() || (j.contains("hooks") && j["hooks"].is_object()))
    return ShapeMatch::kNo;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_object()) return ShapeMatch::kNo;
    bool has_event = false;
    for (auto e = it.value().begin(); e != it.value().end(); ++e)
      if (agy::parse_event(e.key()) || ascii_lower(e.key()) == "enabled" || any_host_event(e.key()))
        has_event = true;
    if (!has_event) return ShapeMatch::kNo;
  }
  return ShapeMatch::kYes;
});

}  // namespace

Status lint_antigravity(const std::string& path, const std::string& text, const LintOptions& o,
                        Sink& sink) {
  auto all =
      agy::load_profiles(o.profiles_dir.empty() ? agy::default_profile_dir() : o.profiles_dir);
  if (!all) return all.error();
  auto profs = chosen_profiles(*all, o);
  if (!profs) return profs.error();
  const std::string home = home_of(o);
  const AgyPlace place = agy_place(path, o);
  if (place.layer == "not-read")
    sink.add(Severity::kWarning, "file-not-read", "",
             "Antigravity does not read this file: " + place.why_not,
             "move it to ~/.gemini/config/hooks.json or <workspace>/.agents/hooks.json");

  ojson root = ojson::parse(text, nullptr, false, false);
  if (root.is_discarded()) {
    Position pos{1, 1};
    std::string detail = "invalid JSON";
    syntax_error(text, false, pos, detail);
    sink.out.push_back({path, pos, Severity::kError, "json-syntax",
                        "Antigravity drops every hook in this file: " + detail,
                        "agy reads strict JSON: no comments, no trailing commas"});
    return {};
  }
  agy_root_findings(root, sink);

  ProfileMerge merge;
  CommandContext cc;
  cc.home = home;
  cc.path_env = env_or(o, "PATH");
  for (const agy::Profile* p : *profs) {
    Sink s{path, sink.index, {}};
    lint_agy_profile(path, text, root, *p, place, home, cc, s);
    merge.collect(s, p->name);
  }
  merge.flush(profs->size(), sink);
  return {};
}


// ---- explain: the hooks that fire for one event, in run order (hostemu explain) ----------

namespace {

std::string agy_on_failure(const agy::Profile& p, agy::Event e) {
  if (e == agy::Event::kPreToolUse)
    return "non-zero exit: " + p.pretooluse_nonzero_exit + "; timeout: " + p.pretooluse_timeout +
           "; non-JSON stdout: " + p.pretooluse_nonjson +
           "; empty stdout: " + p.pretooluse_empty_stdout + "; {}: " + p.pretooluse_empty_object;
  if (e == agy::Event::kPreInvocation)
    return "failure: " + p.preinvocation_failure + " (" +
           (p.preinvocation_failure == "logged" ? "fail-open" : "not fail-open") + ")";
  return "failure is logged, no effect (fail-open)";
}

std::string agy_layer(const std::string& path, const std::string& home) {
  std::string p = normalize(path);
  if (ends_with(p, "/.gemini/config/hooks.json") && p.rfind(normalize(home), 0) == 0) return "user";
  if (ends_with(p, "/.agents/hooks.json")) return "project";
  if (p.find("/plugins/") != std::string::npos) return "plugin";
  if (ends_with(p, "/.gemini/antigravity-cli/hooks.json")) return "legacy";
  if (ends_with(p, "/.gemini/antigravity-ide/hooks.json")) return "user (ide)";
  return "other";
}

// Antigravity: what one loaded file holds for the event that this profile never runs, with why.
void agy_not_run(const agy::FileStatus& f, const agy::Profile& p, agy::Event ev,
                 const std::string& event, Locator& loc, ExplainSection& s) {
  auto text = pinta::fs::read_file(f.path);
  if (!text) return;
  auto hf = agy::parse_hooks_json(*text, p, f.path);
  if (!hf) return;
  auto where = [&](const std::string& ptr) { return loc.where(f.path, ptr); };
  // Shape notes first; a handler they already explain is not listed again.
  std::vector<std::string> noted_at;
  for (const auto& n : hf->notes)
    if ((n.kind == "wrapped-lifecycle" || n.kind == "flat-tool-event") &&
        n.pointer.find("/" + event) != std::string::npos) {
      s.dropped.push_back(where(n.pointer) + n.message);
      noted_at.push_back(n.pointer);
    }
  auto noted = [&](const std::string& ptr) {
    for (const auto& n : noted_at)
      if (ptr.rfind(n, 0) == 0) return true;
    return false;
  };
  for (const auto& nh : hf->hooks)
    for (const auto& e : nh.events) {
      if (e.event != ev) continue;
      for (const auto& g : e.groups) {
        bool bad_matcher = agy::is_tool_event(e.event) && !agy::matcher_valid(g.matcher);
        for (const auto& h : g.hooks) {
          if (!nh.enabled)
            s.dropped.push_back(where(h.pointer) + "hook '" + nh.name +
                                "' has enabled: false");
          else if (h.type == "command" && h.command.empty() && !noted(h.pointer))
            s.dropped.push_back(where(h.pointer) + "command hook without a command");
          else if (bad_matcher && p.invalid_matcher == "no-match")
            s.dropped.push_back(where(g.pointer + "/matcher") + "matcher '" + g.matcher +
                                "' is not a valid RE2 pattern: this profile never runs it");
        }
      }
    }
}

// The group's matcher: the handler pointer is …/<g>/hooks/<h> on tool events.
std::string agy_group_matcher(const agy::PlannedRun& r) {
  std::string matcher;
  auto t = pinta::fs::read_file(r.file);
  auto j = t ? ojson::parse(*t, nullptr, false) : ojson();
  const ojson* g = at_pointer(j, parent_pointer(parent_pointer(r.pointer)));
  if (g && g->is_object())
    for (auto it = g->begin(); it != g->end(); ++it)
      if (ascii_lower(it.key()) == "matcher" && it.value().is_string())  // keys fold case
        matcher = it.value().get<std::string>();
  return matcher;
}

// Antigravity under one profile: the files it reads, what it drops, the hooks it runs.
ExplainSection agy_section(const ExplainRequest& rq, const agy::Profile& p, agy::Event ev,
                           Locator& loc) {
  agy::PlanRequest pr;
  pr.home = rq.home;
  pr.workspace = rq.workspace;
  pr.event = ev;
  pr.tool = rq.tool;
  pr.launch_dir = rq.workspace.empty() ? rq.home : rq.workspace;
  auto plan = agy::plan(p, pr);
  ExplainSection s;
  s.host = "antigravity " + p.name;
  for (const auto& f : plan.files)
    if (f.status == "rejected")
      s.notes.push_back(f.path + " is rejected: " + f.error);
    else if (f.status == "not-read" && pinta::fs::exists(f.path))
      s.notes.push_back(f.path + " exists but this profile does not read it");
  if (auto why = agy::hooks_not_run_reason(p)) s.notes.push_back(*why);
  // What this profile loads for the event but never runs, with why.
  for (const auto& f : plan.files)
    if (f.status == "loaded") agy_not_run(f, p, ev, rq.event, loc, s);
  int n = 0;
  for (const auto& r : plan.run) {
    ExplainedHook e;
    e.order = ++n;
    e.layer = agy_layer(r.file, rq.home);
    e.file = r.file;
    e.pos = loc.at(r.file, r.pointer);
    e.command = r.command;
    e.name = r.id;
    if (agy::is_tool_event(ev)) e.matcher = agy_group_matcher(r);
    e.timeout = std::to_string(r.timeout_seconds) + " s";
    e.on_failure = agy_on_failure(p, ev);
    s.hooks.push_back(e);
  }
  return s;
}

}  // namespace


// Antigravity: one section per profile (the one asked for, else every profile).
Result<std::vector<ExplainSection>> explain_antigravity(const ExplainRequest& rq,
                                                        const LintOptions& options, Locator& loc) {
  std::vector<ExplainSection> out;
  auto profs = agy::load_profiles(options.profiles_dir.empty() ? agy::default_profile_dir()
                                                               : options.profiles_dir);
  if (!profs) return profs.error();
  auto ev = agy::parse_event(rq.event);
  if (!ev) return bad_request("unknown Antigravity event '" + rq.event + "'");
  if (!rq.tool.empty() && !agy::is_tool_event(*ev))
    return bad_request("--tool only applies to PreToolUse/PostToolUse");
  std::vector<const agy::Profile*> chosen;
  if (!rq.profile.empty()) {
    auto* p = agy::find_profile(*profs, rq.profile);
    if (!p) return bad_request("unknown Antigravity profile '" + rq.profile + "'");
    chosen.push_back(p);
  } else {
    for (const auto& p : *profs) chosen.push_back(&p);
  }
  for (const auto* p : chosen) out.push_back(agy_section(rq, *p, *ev, loc));
  return out;
}

}  // namespace pinta::hostlint::detail
