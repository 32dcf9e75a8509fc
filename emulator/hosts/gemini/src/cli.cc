// `hostemu gemini …`: the Gemini CLI 0.61.0 host emulator on the command line.
//   run-hook  runs one hook as core HookRunner.executeHook does and prints its result object
//   session   plays a scripted sequence of host events through the hooks of a home + workspace
//   payload   prints the stdin object the host sends for an event (§7)
//   profiles  prints the version -> profile mapping (or the profile of one --version)
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>

#include "hostemu_cli.h"
#include "pinta/common/fs.h"
#include "pinta/emulator/gemini/gemini.h"

namespace gem = pinta::emu::gemini;

namespace pinta::hostemu {
namespace {

// Node's setTimeout(fn, t) semantics for the configured `timeout` (§2.3): numeric text → that many
// ms; anything else (or < 1) fires after 1 ms, while the error message prints the value as given.
void parse_timeout(const std::string& text, gem::HookSpec& spec) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  bool numeric = !text.empty() && end && *end == '\0';
  spec.timeout_text = text;
  spec.timeout_ms = numeric && v >= 1 && v <= 2147483647.0 ? static_cast<int>(v) : 1;
}

}  // namespace

}  // namespace pinta::hostemu

namespace pinta::hostemu {
void add_drift_commands(CLI::App& app, Action& action);  // drift_cli.cc: Gemini CLI releases
}  // namespace pinta::hostemu

namespace pinta::hostemu::gemini {

namespace {

// What `hostemu gemini …` was given, shared by its subcommands.
struct Opts {
  std::string event, command, timeout, source = "user", name, plans_dir, cwd;
  std::vector<std::string> env;
  bool untrusted = false, full = false;
  std::string home, workspace, script, profile, version, assume_profile, map_version;
  std::string payload_event, session_id, payload_cwd;
  CLI::App* run_cmd = nullptr;
  CLI::App* session_cmd = nullptr;
  CLI::App* payload_cmd = nullptr;
  CLI::App* profiles_cmd = nullptr;
};

// run-hook: one hook as HookRunner.executeHook runs it; its result object (--full: with what the
// CLI derives from it).
int run_hook_command(const Opts& o) {
  if (!gem::is_event_name(o.event)) return usage_error("unknown --event: " + o.event);
  std::string in((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  auto input = gem::js_parse(in);
  if (!input || !input->is_object()) return usage_error("stdin is not a JSON object");
  gem::ojson switches = gem::ojson::object();
  if (!o.profile.empty()) {
    auto prof = gem::load_profile(o.profile);
    if (!prof) return usage_error(prof.error().message);
    switches = gem::profile_switches(*prof);
  }
  gem::HookSpec spec;
  spec.command = o.command;
  spec.source = o.source;
  spec.name = o.name;
  if (!o.timeout.empty()) parse_timeout(o.timeout, spec);
  for (const auto& kv : o.env) {
    auto eq = kv.find('=');
    if (eq == std::string::npos) return usage_error("--env needs KEY=VALUE: " + kv);
    spec.env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  gem::RunContext ctx;
  ctx.cwd = o.cwd;
  ctx.trusted_folder = !o.untrusted;
  ctx.rules = gem::hook_rules_from_switches(switches);
  ctx.plans_dir = o.plans_dir;
  if (ctx.plans_dir.empty()) {
    std::string cwd = !o.cwd.empty()               ? o.cwd
                      : (*input)["cwd"].is_string() ? (*input)["cwd"].get<std::string>()
                                                    : std::string(".");
    ctx.plans_dir = cwd + "/.gemini/plans";
  }
  auto r = gem::run_hook(spec, o.event, *input, ctx);
  auto j = gem::run_result_json(r);
  if (o.full) {
    j["stdout"] = r.stdout_text;
    j["stderr"] = r.stderr_text;
    j["durationMs"] = r.duration_ms;
    gem::ojson eff = gem::ojson::object();
    if (r.output) {
      auto err = gem::tool_error_text(switches, o.event, *r.output);
      if (!err.empty()) eff["toolError"] = err;
      if (o.event == "BeforeTool" && err.empty()) {
        auto ti = gem::rewritten_tool_input(
            switches, input->contains("tool_input") ? (*input)["tool_input"] : gem::ojson(),
            *r.output);
        if (!ti.is_null()) eff["toolInput"] = ti;
      }
    }
    j["hostEffect"] = eff;
  }
  std::cout << gem::js_stringify(j) << "\n";
  return 0;
}

// session: a scripted sequence of host events; the transcript.
int session_command(const Opts& o) {
  auto text = pinta::fs::read_file(o.script);
  if (!text)
    return usage_error("cannot read --script " + o.script + ": " + text.error().message);
  auto script = gem::js_parse(*text);
  if (!script || !script->is_object())
    return usage_error("--script is not a JSON object: " + o.script);
  if (!o.profile.empty() && !o.version.empty())
    return usage_error("session: --profile and --version are exclusive");
  std::string profile = o.profile;
  if (!o.version.empty()) {
    auto m = gem::profile_for_version(gem::default_profile_dir(), o.version);
    if (m)
      profile = m->path;
    else if (!o.assume_profile.empty() && m.error().code == ErrorCode::kNotFound)
      profile = o.assume_profile;
    else
      return usage_error("--version: " + m.error().message);
  } else if (!o.assume_profile.empty()) {
    return usage_error("session: --assume-profile goes with --version");
  }
  if (!profile.empty()) {
    auto prof = gem::load_profile(profile);
    if (!prof) return usage_error("--profile: " + prof.error().message);
    (*script)["profile"] = *prof;
  }
  gem::RunContext ctx;
  auto r = gem::run_session(o.home, o.workspace, *script, ctx);
  if (!r) return usage_error(r.error().message);
  std::cout << r->dump(1) << "\n";
  return 0;
}

// profiles: every version profile with its range, or the one of --version.
int profiles_command(const Opts& o) {
  const std::string dir = gem::default_profile_dir();
  if (!o.map_version.empty()) {
    auto m = gem::profile_for_version(dir, o.map_version);
    if (!m) return usage_error("profiles: " + m.error().message);
    std::cout << m->name << "\n";
    return 0;
  }
  // Every profile with its range, in release order; the whole range last.
  std::vector<std::pair<std::vector<long>, std::string>> rows;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (it->path().extension() != ".json") continue;
    auto p = gem::load_profile(it->path().string());
    if (!p) return usage_error("profiles: " + p.error().message);
    const std::string from = p->value("applies_from", ""), through = p->value("applies_through", "");
    rows.emplace_back(gem::version_key(from),
                      p->value("name", it->path().stem().string()) + " " + from + " .. " + through);
  }
  std::sort(rows.begin(), rows.end());
  for (auto& r : rows) std::cout << r.second << "\n";
  std::cout << "range " << gem::known_version_range(dir) << "\n";
  return 0;
}

// payload: the stdin object the host sends for an event.
int payload_command(const Opts& o) {
  if (!gem::is_event_name(o.payload_event))
    return usage_error("unknown --event: " + o.payload_event);
  gem::PayloadOptions po;
  if (!o.session_id.empty()) po.session_id = o.session_id;
  if (!o.payload_cwd.empty()) po.cwd = o.payload_cwd;
  std::cout << gem::js_stringify(gem::make_payload(o.payload_event, po)) << "\n";
  return 0;
}

}  // namespace

// The family's `hostemu` subcommands (registered through families.def, hostemu_main.cc).
void add_commands(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* gm = app.add_subcommand("gemini", "Gemini CLI 0.61.0 host emulator");
  gm->require_subcommand(1);

  o->run_cmd = gm->add_subcommand(
      "run-hook",
      "run one hook exactly as Gemini CLI 0.61.0 does; hook input JSON on stdin; prints "
      "{\"success\",\"exitCode\",\"outputFormat\",\"output\",\"error\"}");
  auto* rc = o->run_cmd;
  rc->add_option("--event", o->event, "hook event name (BeforeTool, AfterTool, ...)")->required();
  rc->add_option("--command", o->command, "the hook's command (run with bash -c)")->required();
  rc->add_option("--timeout-ms", o->timeout, "hook timeout in ms (default 60000)");
  rc->add_option("--source", o->source, "hook source: user|project|extensions|system")
      ->capture_default_str();
  rc->add_option("--name", o->name, "hook name");
  rc->add_option("--env", o->env, "hook env entry KEY=VALUE (repeatable; spread last)");
  rc->add_option("--plans-dir", o->plans_dir,
                 "value of GEMINI_PLANS_DIR (default: <cwd>/.gemini/plans)");
  rc->add_option("--cwd", o->cwd, "run in this directory instead of the input's cwd");
  rc->add_flag("--untrusted", o->untrusted, "the folder is untrusted (project hooks refused)");
  rc->add_flag("--full", o->full,
               "also print stdout, stderr, durationMs and hostEffect (the tool error / rewritten "
               "tool_input the CLI derives from this one reply)");
  rc->add_option("--profile", o->profile,
                 "version profile: a name (gemini-0.26) or a file; its per-hook switches apply "
                 "(docs/gemini-versions.md); default: 0.61");

  o->session_cmd = gm->add_subcommand(
      "session",
      "play a scripted sequence of host events through the configured hooks; prints a transcript");
  o->session_cmd->add_option("--home", o->home, "GEMINI_CLI_HOME (reads H/.gemini)")->required();
  o->session_cmd->add_option("--workspace", o->workspace, "workspace directory (the CLI's cwd)")
      ->required();
  o->session_cmd->add_option("--script", o->script, "script JSON file")->required();
  o->session_cmd->add_option(
      "--profile", o->profile,
      "version profile: a name (gemini-0.26) or a file (hosts/gemini/profiles/"
      "gemini-0.XX.json); default: 0.61");
  o->session_cmd->add_option(
      "--version", o->version,
      "a Gemini CLI release (0.38.2): its profile, by the same mapping as hostemu drift; a "
      "release outside the profiled range is an error unless --assume-profile names one");
  o->session_cmd->add_option("--assume-profile", o->assume_profile,
                             "the profile for a --version outside the profiled range");

  o->profiles_cmd = gm->add_subcommand(
      "profiles",
      "print the version profiles with the releases each covers (applies_from .. "
      "applies_through), or with --version V the one profile for V (exit 2 outside the range)");
  o->profiles_cmd->add_option("--version", o->map_version, "a Gemini CLI release");

  o->payload_cmd =
      gm->add_subcommand("payload", "print the stdin object the host sends for an event");
  o->payload_cmd->add_option("--event", o->payload_event, "hook event name")->required();
  o->payload_cmd->add_option("--session-id", o->session_id, "session id");
  o->payload_cmd->add_option("--cwd", o->payload_cwd, "cwd field");

  o->run_cmd->callback([o, &action] { action = [o] { return run_hook_command(*o); }; });

  o->session_cmd->callback([o, &action] { action = [o] { return session_command(*o); }; });

  o->profiles_cmd->callback([o, &action] { action = [o] { return profiles_command(*o); }; });

  o->payload_cmd->callback([o, &action] { action = [o] { return payload_command(*o); }; });
  add_drift_commands(app, action);
}

}  // namespace pinta::hostemu::gemini
