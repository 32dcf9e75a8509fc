// Harness: Gemini CLI 0.61.0 settings / extension loader and planner
// (pinta/emulator/gemini/gemini.h load_hooks, plan_event), shared/reference/gemini-cli-0.61-hooks.md
// §1-§3. The input is split into four files written into a private temp tree:
// ~/.gemini/settings.json, <workspace>/.gemini/settings.json,
// ~/.gemini/extensions/ext/gemini-extension.json and .../ext/hooks/hooks.json.
// Properties, for any text of those four files and trusted / untrusted folders:
//  1. total: load_hooks and plan_event never throw, crash or hang;
//  2. deterministic: loading the same files twice gives the same hooks, warnings and exit;
//  3. fatal_exit is absent, 52 (settings syntax error, §1.2) or 55 (headless untrusted, §1.4),
//     and 55 never happens when the folder is trusted; a fatal exit carries a message;
//  4. well-formed registry: every key of by_event is one of the 11 event names (§2.1), every
//     hook's event equals its key, its source is project|extensions, and in an untrusted folder no
//     project (settings) hook is loaded (§1.2 step 7: only extension hooks survive);
//  5. plan_event for every event (with and without a tool name) is total and plans only hooks
//     that were loaded for that event and are enabled, in registry order.
// Input layout: flags byte (bit0 trusted, bit1 write the workspace file, bit2 write the extension),
// then four strings with 2-byte lengths: user settings, workspace settings, manifest, hooks.json.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_support.h"
#include "pinta/hosts/gemini/gemini.h"

namespace {

namespace gem = pinta::hosts::gemini;
namespace sfs = std::filesystem;

const std::string& root() { return pinta::fuzz::process_temp_dir("pinta-fuzz-gemini-loader"); }

void put(const std::string& path, const std::string& text, bool present) {
  std::error_code ec;
  if (!present) {
    sfs::remove(path, ec);
    return;
  }
  sfs::create_directories(sfs::path(path).parent_path(), ec);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string dump(const gem::LoadResult& r) {
  std::string s = std::to_string(r.fatal_exit.value_or(-1)) + "|" + r.fatal_message + "|" +
                  std::to_string(r.hooks_enabled) + std::to_string(r.trusted) + "\n";
  for (const auto& [event, hooks] : r.by_event)
    for (const auto& h : hooks)
      s += event + "/" + h.source + "/" + h.matcher + "/" + h.spec.command + "/" + h.spec.name +
           "/" + std::to_string(h.spec.timeout_ms) + "/" + std::to_string(h.enabled) + "\n";
  for (const auto& w : r.warnings) s += "W " + w + "\n";
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pinta::fuzz::Bytes in(data, size);
  const uint8_t flags = in.byte();
  const std::string user = in.string(16384), work = in.string(16384), manifest = in.string(4096),
                    hooks = in.string(16384);
  const std::string home = root() + "/home", ws = root() + "/ws";
  put(home + "/.gemini/settings.json", user, true);
  put(ws + "/.gemini/settings.json", work, (flags & 2) != 0);
  put(home + "/.gemini/extensions/ext/gemini-extension.json", manifest, (flags & 4) != 0);
  put(home + "/.gemini/extensions/ext/hooks/hooks.json", hooks, (flags & 4) != 0);

  gem::LoadOptions o;
  o.home = home;
  o.workspace = ws;
  o.cli_env = std::map<std::string, std::string>{{"HOME", home}, {"X", "ex"}};
  o.system_settings_path = root() + "/none/settings.json";
  o.system_defaults_path = root() + "/none/system-defaults.json";
  const bool trusted = (flags & 1) != 0;
  o.trusted = trusted;
  const gem::LoadResult r = gem::load_hooks(o);
  FUZZ_CHECK(dump(r) == dump(gem::load_hooks(o)), "not deterministic");
  if (r.fatal_exit) {
    FUZZ_CHECK(*r.fatal_exit == 52 || *r.fatal_exit == 55, "exit " + std::to_string(*r.fatal_exit));
    FUZZ_CHECK(!(trusted && *r.fatal_exit == 55), "exit 55 in a trusted folder");
    FUZZ_CHECK(!r.fatal_message.empty(), "fatal exit without a message");
  }
  for (const auto& [event, list] : r.by_event) {
    FUZZ_CHECK(gem::is_event_name(event), "registry key " + event);
    for (const auto& h : list) {
      FUZZ_CHECK(h.event == event, "hook event " + h.event + " under " + event);
      FUZZ_CHECK(h.source == "project" || h.source == "extensions", "source " + h.source);
      if (!trusted) FUZZ_CHECK(h.source != "project", "settings hook loaded untrusted");
    }
  }
  for (const auto& event : gem::event_names()) {
    for (int t = 0; t < 2; ++t) {
      gem::PlanContext ctx;
      if (t == 1) ctx.tool_name = "run_shell_command";
      const gem::Plan p = gem::plan_event(r, event, ctx);
      auto it = r.by_event.find(event);
      size_t at = 0;
      for (const auto& h : p.hooks) {
        FUZZ_CHECK(it != r.by_event.end(), "planned a hook for an empty event " + event);
        FUZZ_CHECK(h.enabled, "planned a disabled hook");
        while (at < it->second.size() && it->second[at].spec.command != h.spec.command) ++at;
        FUZZ_CHECK(at < it->second.size(), "planned hook not loaded or out of order: " +
                                               h.spec.command);
      }
    }
  }
  return 0;
}
