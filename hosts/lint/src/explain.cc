// `hostemu explain`: the hooks that fire for one event, in run order, from the emulators' own
// selection functions (gemini load_hooks + plan_event, agy::plan, deel load + select), so explain
// cannot disagree with `run`/`fire`/`session`.
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "common.h"
#include "pinta/common/fs.h"
#include "pinta/common/text.h"
#include "pinta/hosts/antigravity/antigravity.h"
#include "pinta/hosts/deel/deel.h"
#include "pinta/hosts/gemini/gemini.h"

namespace pinta::hostlint {
namespace {

using namespace detail;
namespace gem = pinta::hosts::gemini;
namespace agy = pinta::hosts::agy;
namespace deel = pinta::hosts::deel;

// Gemini CLI 0.61 failure handling (reference §4.4-§4.6, §6).
std::string gemini_on_failure(const std::string& event) {
  bool ignored = event == "SessionStart" || event == "SessionEnd" || event == "PreCompress" ||
                 event == "Notification";
  if (ignored)
    return "fail-open: the output's decision is ignored for " + event +
           "; a failure (non-zero exit, timeout) is only warned about";
  return "JSON on stdout decides whatever the exit code; plain text: exit 0 allow, exit 1 allow "
         "with a warning, exit >=2 (also 127 command not found) deny with the text as reason; "
         "timeout or signal with no output: fail-open (warning only)";
}

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

std::string gemini_layer_of(const std::string& origin, const gem::LoadOptions& lo) {
  std::string p = normalize(origin);
  if (p == normalize(lo.home + "/.gemini/settings.json")) return "user";
  if (p == normalize(lo.workspace + "/.gemini/settings.json")) return "project";
  if (p.find("/.gemini/extensions/") != std::string::npos) return "extension";
  if (ends_with(p, "system-defaults.json")) return "system-defaults";
  return "system";
}

using pinta::text::ascii_lower;

std::string fmt_ms(double ms) {
  std::ostringstream o;
  o << ms << " ms";
  return o.str();
}

Result<std::vector<ExplainSection>> bad_request(const std::string& m) {
  return make_error(ErrorCode::kInvalidArgument, m);
}

// Gemini CLI: what the loader discarded for the event, or hooksConfig.disabled lists.
void gemini_dropped(const ExplainRequest& rq, const gem::LoadResult& loaded, Locator& loc,
                    ExplainSection& s) {
  // Written for this event but discarded at load, or listed in hooksConfig.disabled.
  for (const auto& is : loaded.issues) {
    if (is.pointer.find("/" + rq.event + "/") == std::string::npos) continue;
    s.dropped.push_back(loc.where(is.origin, is.pointer) + is.message);
  }
  if (auto it = loaded.by_event.find(rq.event); it != loaded.by_event.end())
    for (const auto& h : it->second)
      if (!h.enabled)
        s.dropped.push_back(loc.where(h.origin, h.pointer) + "'" +
                            (h.spec.name.empty() ? h.spec.command : h.spec.name) +
                            "' is listed in hooksConfig.disabled");
}

// Gemini CLI: the settings and extensions loaded as for the workspace, and the event's plan.
Result<std::vector<ExplainSection>> explain_gemini(const ExplainRequest& rq,
                                                   const LintOptions& options, Locator& loc) {
  std::vector<ExplainSection> out;
  if (!gem::is_event_name(rq.event)) return bad_request("unknown Gemini CLI event '" + rq.event + "'");
  bool tool_event = rq.event == "BeforeTool" || rq.event == "AfterTool";
  if (!rq.tool.empty() && !tool_event) return bad_request("--tool only applies to BeforeTool/AfterTool");
  gem::LoadOptions lo;
  lo.home = rq.home;
  lo.workspace = rq.workspace.empty() ? rq.home : rq.workspace;
  lo.headless = false;
  if (!options.env.empty()) lo.cli_env = options.env;
  auto loaded = gem::load_hooks(lo);
  ExplainSection s;
  s.host = "gemini-cli " + std::string(gem::kHostVersion);
  if (loaded.fatal_exit) {
    s.notes.push_back("Gemini CLI would not start (exit " + std::to_string(*loaded.fatal_exit) +
                      "): " + loaded.fatal_message);
    out.push_back(s);
    return out;
  }
  if (!loaded.hooks_enabled) s.notes.push_back("hooksConfig.enabled is false: no hook runs");
  if (!loaded.trusted)
    s.notes.push_back("the workspace is not trusted: settings hooks are not loaded");
  gem::PlanContext ctx;
  if (!rq.tool.empty()) ctx.tool_name = rq.tool;
  auto plan = gem::plan_event(loaded, rq.event, ctx);
  if (plan.error) s.notes.push_back("every " + rq.event + " hook is skipped: " + *plan.error);
  gemini_dropped(rq, loaded, loc, s);
  if (plan.hooks.size() > 1)
    s.notes.push_back(plan.sequential ? "run one after another (sequential)"
                                      : "run in parallel; outputs merged in this order");
  int n = 0;
  for (const auto& h : plan.hooks) {
    ExplainedHook e;
    e.order = ++n;
    e.layer = gemini_layer_of(h.origin, lo);
    e.file = h.origin;
    e.pos = loc.at(h.origin, h.pointer);
    e.command = h.spec.command;
    e.name = h.spec.name;
    e.matcher = h.has_matcher ? h.matcher : "";
    e.timeout = fmt_ms(h.spec.timeout_ms);
    e.on_failure = gemini_on_failure(rq.event);
    s.hooks.push_back(e);
  }
  out.push_back(s);
  return out;
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

// deel-local-cli: what a failure of hook `h` of `event` does.
std::string deel_on_failure(const std::string& event, const deel::Hook& h) {
  return deel::is_blocking_event(event)
             ? (h.pass_on_failure
                    ? "exit 2 blocks; other failures (non-zero exit, timeout, spawn error) pass "
                      "(onError: pass)"
                    : "fail-closed: exit 2 or any failure (non-zero exit, timeout, spawn error) "
                      "blocks")
             : "fail-open: " + event + " does not block; failures are reported only";
}

// deel-local-cli: the PC and project files as loaded for the workspace, and the hooks selected.
Result<std::vector<ExplainSection>> explain_deel(const ExplainRequest& rq,
                                                 const LintOptions& options, Locator& loc) {
  std::vector<ExplainSection> out;
  auto ev = deel::resolve_event(ojson(rq.event));
  if (!ev) return bad_request("unknown deel-local-cli event '" + rq.event + "'");
  if (!rq.tool.empty() && !deel::is_tool_event(*ev))
    return bad_request("--tool only applies to PreToolUse/PostToolUse");
  deel::LoadRequest lr;
  lr.home = rq.home;
  lr.workspace = rq.workspace.empty() ? rq.home : rq.workspace;
  lr.cwd = lr.workspace;
  for (const char* k : {"DEEL_HOME", "DEEL_HOOKS"}) {
    if (auto it = options.env.find(k); it != options.env.end()) lr.env[k] = it->second;
  }
  lr.trusted = rq.deel_trusted.value_or(false);
  auto l = deel::load(lr);
  ExplainSection s;
  s.host = std::string("deel-local-cli ") + deel::kHostVersion;
  if (!l.enabled) s.notes.push_back("hooks are off (" + l.disabled_by.value_or("") + ")");
  if (l.untrusted_project)
    s.notes.push_back(l.project.path + " is not read: the folder is not trusted");
  for (const auto* f : {&l.pc, &l.project})
    if (f->error) s.notes.push_back(f->path + ": " + *f->error);
  if (l.overflow) s.notes.push_back("more than 32 hooks: the rest are dropped");
  for (const auto* f : {&l.pc, &l.project})
    for (size_t i = 0; i < f->dropped.size() && i < f->dropped_at.size(); ++i)
      if (f->dropped[i].rfind(*ev, 0) == 0)  // "<event>: why" (seed L271-276)
        s.dropped.push_back(loc.where(f->path, f->dropped_at[i]) + f->dropped[i]);
  std::optional<std::string> tool;
  if (!rq.tool.empty()) tool = rq.tool;
  int n = 0;
  for (const deel::Hook* h : deel::select(l.hooks, *ev, tool)) {
    ExplainedHook e;
    e.order = ++n;
    e.layer = h->source == "프로젝트" ? "project" : "user";
    e.file = h->source == "프로젝트" ? l.project.path : l.pc.path;
    e.pos = loc.at(e.file, h->pointer);
    e.command = h->command;
    e.name = h->name.value_or("");
    e.matcher = h->matcher;
    e.timeout = deel::js_number_text(h->timeout_ms / 1000) + " s";
    e.on_failure = deel_on_failure(*ev, *h);
    s.hooks.push_back(e);
  }
  if (s.hooks.size() > 1)
    s.notes.push_back("run one after another; the first block stops the rest");
  out.push_back(s);
  return out;
}

}  // namespace

Result<std::vector<ExplainSection>> explain(const ExplainRequest& rq, const LintOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_directory(rq.home, ec))
    return bad_request("--home " + rq.home + " is not a directory");
  if (!rq.workspace.empty() && !std::filesystem::is_directory(rq.workspace, ec))
    return bad_request("--workspace " + rq.workspace + " is not a directory");
  if (rq.host == Host::kClaude) return explain_claude(rq, options);
  Locator loc;
  if (rq.host == Host::kGemini) return explain_gemini(rq, options, loc);
  if (rq.host == Host::kAntigravity) return explain_antigravity(rq, options, loc);
  return explain_deel(rq, options, loc);
}

std::string format_explain(const std::vector<ExplainSection>& sections, const std::string& format) {
  if (format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& s : sections) {
      nlohmann::json sj{{"host", s.host},
                        {"notes", s.notes},
                        {"dropped", s.dropped},
                        {"hooks", nlohmann::json::array()}};
      for (const auto& h : s.hooks)
        sj["hooks"].push_back({{"order", h.order},
                               {"layer", h.layer},
                               {"file", h.file},
                               {"line", h.pos.line},
                               {"col", h.pos.col},
                               {"command", h.command},
                               {"name", h.name},
                               {"matcher", h.matcher},
                               {"timeout", h.timeout},
                               {"onFailure", h.on_failure}});
      j.push_back(sj);
    }
    return j.dump(2) + "\n";
  }
  // Sections with the same body (everything but the host line) print once: "antigravity agy-1.0.5,
  // agy-1.1: …" rather than six identical blocks.
  auto body = [](const ExplainSection& s) {
    nlohmann::json j{{"notes", s.notes}, {"dropped", s.dropped}};
    for (const auto& h : s.hooks)
      j["hooks"].push_back({h.order, h.layer, h.file, h.pos.line, h.pos.col, h.command, h.name,
                            h.matcher, h.timeout, h.on_failure});
    return j.dump();
  };
  std::vector<std::pair<std::string, const ExplainSection*>> groups;  // label, first section
  std::vector<std::string> keys;
  for (const auto& s : sections) {
    std::string k = body(s);
    auto it = std::find(keys.begin(), keys.end(), k);
    if (it == keys.end()) {
      keys.push_back(k);
      groups.push_back({s.host, &s});
      continue;
    }
    auto& label = groups[static_cast<size_t>(it - keys.begin())].first;
    // "antigravity agy-1.1" + "antigravity agy-1.2" → "antigravity agy-1.1, agy-1.2"
    const std::string prefix = s.host.substr(0, s.host.find(' ') + 1);
    label += ", " + (label.rfind(prefix, 0) == 0 ? s.host.substr(prefix.size()) : s.host);
  }
  std::ostringstream o;
  for (const auto& [label, sp] : groups) {
    const ExplainSection& s = *sp;
    o << label << ": " << s.hooks.size() << (s.hooks.size() == 1 ? " hook" : " hooks") << "\n";
    for (const auto& n : s.notes) o << "  note: " << n << "\n";
    for (const auto& d : s.dropped) o << "  dropped: " << d << "\n";
    for (const auto& h : s.hooks) {
      o << "  " << h.order << ". [" << h.layer << "] " << h.file << ":" << h.pos.line << ":"
        << h.pos.col << "\n";
      o << "     command: " << h.command << "\n";
      if (!h.name.empty()) o << "     name: " << h.name << "\n";
      o << "     matcher: " << (h.matcher.empty() ? "(all)" : "\"" + h.matcher + "\"")
        << "  timeout: " << h.timeout << "\n";
      o << "     on failure: " << h.on_failure << "\n";
    }
  }
  return o.str();
}

}  // namespace pinta::hostlint
