// `hostemu codex …`: the Codex CLI host emulator on the command line.
//   hostemu codex run --codex-home H --project P --event E [--tool T] [--bypass-trust]
//       [--project-trusted] [--version V | --profile NAME] < payload.json
//     runs the hooks Codex would run for one event (pinta::hosts::codex load_hooks + plan) and
//     prints {"loaded":[…],"results":[…],"outcome":{…}} (emulator/hosts/codex); under a release's
//     version profile (default: 0.171.0's rules) an event it does not fire runs nothing
//     ("fired": false), a release without hook trust runs untrusted hooks, and on a release with
//     the deny race (deny_race: 0.124.0 .. 0.145.x) a PreToolUse block beside another hook is
//     undecided ("toolRuns": null, "denyMayBeLost": true).
//   hostemu codex profiles [--version V] [--dir D]
//     lists the version profiles (name, range), or prints the one profile covering release V
//     (exit 3 when none does: a release past the newest profile, for the version radar).
//   hostemu codex model-server --script turns.json [--port 0] [--log FILE]
//     the scripted OpenAI Responses API server (emulator/model_server/responses_server.h, the
//     command shared with Copilot: add_responses_model_server, emulator/src/hostemu_cli.h);
//     prints `port N` once listening, runs until SIGINT/SIGTERM. Point a Codex provider's
//     base_url at http://127.0.0.1:N/v1 with wire_api = "responses".
// One function per subcommand, each called from add_commands.
#include <iostream>
#include <iterator>
#include <memory>

#include "hostemu_cli.h"
#include "pinta/common/process.h"
#include "pinta/emulator/codex/codex.h"
#include "pinta/hosts/hosts.h"

namespace pinta::hostemu {

namespace {

struct CodexRunArgs {
  std::string codex_home, project, event, tool, version, profile;
  bool bypass_trust = false, project_trusted = false;
};

// The rules of --version V / --profile NAME (default: 0.171.0's, pinta::hosts::codex::Rules{}).
pinta::Result<pinta::hosts::codex::Rules> codex_rules(const std::string& version,
                                                     const std::string& profile) {
  namespace cx = pinta::hosts::codex;
  const std::string dir = pinta::hosts::profile_dir(pinta::hosts::Family::kCodex);
  if (!version.empty()) {
    auto p = cx::profile_for_version(dir, version);
    if (!p) return p.error();
    return p->rules;
  }
  if (!profile.empty()) {
    auto p = cx::profile_named(dir, profile);
    if (!p) return p.error();
    return p->rules;
  }
  return cx::Rules{};
}

int run_codex(const CodexRunArgs& a) {
  namespace cx = pinta::hosts::codex;
  if (!cx::is_event(a.event)) return usage_error("codex run: unknown event " + a.event);
  auto rules = codex_rules(a.version, a.profile);
  if (!rules) return usage_error("codex run: " + rules.error().message);
  std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  // Ordered: the objects the host passes through (the tool input) keep the given order.
  auto payload = nlohmann::ordered_json::parse(input, nullptr, false);
  if (payload.is_discarded() || !payload.is_object())
    return usage_error("codex run: stdin is not a JSON object");
  cx::Sources src;
  src.codex_home = a.codex_home;
  src.project = a.project;
  src.project_trusted = a.project_trusted;
  // A release without hook trust runs every hook (measured: codex-bisect, untrusted-no-bypass).
  src.bypass_trust = a.bypass_trust || !rules->hook_trust;
  auto loaded = cx::load_hooks(src);
  if (!loaded) return usage_error("codex run: " + loaded.error().message);
  for (const auto& w : loaded->warnings) std::cerr << "codex run: warning: " << w << "\n";
  // The matcher target: the tool on tool events; SessionStart's source, the compact trigger and
  // the subagent's agent_type elsewhere (CXSRC dispatcher.rs select_handlers_for_matcher_inputs).
  std::string target = a.tool;
  auto field = [&](const char* k) {
    return payload.contains(k) && payload[k].is_string() ? payload[k].get<std::string>()
                                                         : std::string();
  };
  if (target.empty()) {
    if (a.event == "PreToolUse" || a.event == "PermissionRequest" || a.event == "PostToolUse")
      target = field("tool_name");
    else if (a.event == "SessionStart")
      target = field("source");
    else if (a.event == "PreCompact" || a.event == "PostCompact")
      target = field("trigger");
    else if (a.event == "SubagentStart" || a.event == "SubagentStop")
      target = field("agent_type");
  }
  const bool fired = rules->hooks_run && cx::fires(*rules, a.event);
  auto plan = fired ? cx::plan(*loaded, a.event, target, src.bypass_trust)
                    : std::vector<cx::HookHandler>{};
  const std::string cwd = field("cwd").empty() ? a.project : field("cwd");
  auto run = pinta::emu::codex::run_plan(plan, a.event, payload, cwd,
                                         pinta::proc::current_environment(), *rules);
  auto report = pinta::emu::codex::report_json(plan, run);
  report["fired"] = fired;
  std::cout << report.dump() << "\n";
  return 0;
}

int list_codex_profiles(const std::string& version, const std::string& dir_opt) {
  namespace cx = pinta::hosts::codex;
  const std::string dir =
      dir_opt.empty() ? pinta::hosts::profile_dir(pinta::hosts::Family::kCodex) : dir_opt;
  if (!version.empty()) {
    auto p = cx::profile_for_version(dir, version);
    if (!p) {
      std::cerr << "codex profiles: " << p.error().message << "\n";
      return p.error().code == pinta::ErrorCode::kNotFound ? 3 : 2;
    }
    std::cout << p->name << "\n";
    return 0;
  }
  auto all = cx::read_profiles(dir);
  if (!all) return usage_error("codex profiles: " + all.error().message);
  for (const auto& p : *all)
    std::cout << p.name << "\t" << p.applies_from << " .. " << p.applies_through << "\n";
  return 0;
}

}  // namespace

}  // namespace pinta::hostemu

namespace pinta::hostemu::codex {

namespace {

// `codex run`: kept in its own block.
void add_run_command(CLI::App* codex, Action& action) {
  auto a = std::make_shared<CodexRunArgs>();
  auto* run = codex->add_subcommand("run", "run the hooks of one event as Codex does");
  run->add_option("--codex-home", a->codex_home, "CODEX_HOME (hooks.json, config.toml)")
      ->required();
  run->add_option("--project", a->project, "project root (.codex/hooks.json, .codex/config.toml)")
      ->required();
  run->add_option("--event", a->event, "hook event name, e.g. PreToolUse")->required();
  run->add_option("--tool", a->tool, "matcher target (default: from the payload)");
  run->add_flag("--bypass-trust", a->bypass_trust,
                "run untrusted hooks too (--dangerously-bypass-hook-trust)");
  run->add_flag("--project-trusted", a->project_trusted,
                "read the project's .codex/ layer (a trusted project)");
  auto* ver = run->add_option("--version", a->version,
                              "run under the version profile covering this release (e.g. 0.144.6)");
  run->add_option("--profile", a->profile, "run under this version profile (e.g. codex-0.141)")
      ->excludes(ver);
  run->callback([a, &action] { action = [a] { return run_codex(*a); }; });
}

void add_profiles_command(CLI::App* codex, Action& action) {
  auto version = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>();
  auto* cmd = codex->add_subcommand("profiles", "list the version profiles, or the one for a release");
  cmd->add_option("--version", *version, "print the profile covering this release (exit 3: none)");
  cmd->add_option("--dir", *dir, "profile folder (default: the installed or source one)");
  cmd->callback([version, dir, &action] {
    action = [version, dir] { return list_codex_profiles(*version, *dir); };
  });
}

}  // namespace

// The family's `hostemu` subcommands (registered through families.def, hostemu_main.cc).
void add_commands(CLI::App& app, Action& action) {
  auto* codex = app.add_subcommand("codex", "Codex CLI host emulator (0.124.0 .. 0.171.x by profile)");
  codex->require_subcommand(1);
  add_run_command(codex, action);
  add_profiles_command(codex, action);
  add_responses_model_server(codex, "codex model-server", action);
}

}  // namespace pinta::hostemu::codex
