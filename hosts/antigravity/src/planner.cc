// Discovery (reference §1), matcher semantics (§4) and the run plan (§5.1-§5.2): which files a
// profile reads and which commands it would run; nothing is spawned here.
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/hosts/antigravity/antigravity.h"

namespace pinta::hosts::agy {
namespace {

std::vector<std::string> plugin_files(const std::string& plugins_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(plugins_dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    std::string f = (it->path() / "hooks.json").string();
    if (fs::exists(f)) out.push_back(f);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string expand_home(const std::string& s, const std::string& home) {
  if (s == "~") return home;
  if (s.rfind("~/", 0) == 0) return home + s.substr(1);
  return s;
}

}  // namespace

Plan plan(const Profile& profile, const PlanRequest& rq) {
  Plan out;
  out.hooks_run = profile.hooks_run;
  const std::string gem = fs::join(rq.home, ".gemini");
  struct Candidate {
    std::string path;
    bool read;
    bool list_if_absent;
  };
  std::vector<Candidate> cands;
  cands.push_back({fs::join(gem, "config/hooks.json"), profile.read_global_config, true});
  cands.push_back({fs::join(gem, "antigravity-ide/hooks.json"), profile.read_ide_root, true});
  cands.push_back({fs::join(gem, "antigravity-cli/hooks.json"), profile.read_legacy_cli, true});
  for (const auto& f : plugin_files(fs::join(gem, "config/plugins")))
    cands.push_back({f, profile.read_plugin_roots, true});
  if (!rq.workspace.empty()) {
    cands.push_back(
        {fs::join(rq.workspace, ".agents/hooks.json"), profile.read_workspace_agents, true});
    for (const auto& f : plugin_files(fs::join(rq.workspace, ".agents/plugins")))
      cands.push_back({f, profile.read_plugin_roots, true});
    cands.push_back({fs::join(rq.workspace, ".agent/hooks.json"), false, false});  // §1.1 not read
    cands.push_back(
        {fs::join(rq.workspace, ".antigravitycli/hooks.json"), false, false});  // CLAIM only
  }
  cands.push_back({fs::join(gem, "settings.json"), false, false});  // Gemini CLI hooks: never read
  cands.push_back({fs::join(gem, "hooks.json"), false, false});     // CLAIM only (DefenseClaw)

  for (const auto& c : cands) {
    bool present = fs::exists(c.path);
    if (!c.read) {
      if (present || c.list_if_absent) out.files.push_back({c.path, "not-read", ""});
      continue;
    }
    if (!present) {
      out.files.push_back({c.path, "absent", ""});
      continue;
    }
    auto text = fs::read_file(c.path);
    if (!text) {
      out.files.push_back({c.path, "rejected", text.error().message});
      continue;
    }
    auto hf = parse_hooks_json(*text, profile, c.path);
    if (!hf) {
      out.files.push_back({c.path, "rejected", hf.error().message});
      continue;
    }
    out.files.push_back({c.path, "loaded", ""});
    std::string dir = fs::dirname(c.path);
    std::string cwd = profile.cwd == "hooks-dir" ? dir
                      : !rq.launch_dir.empty()   ? rq.launch_dir
                      : !rq.workspace.empty()    ? rq.workspace
                                                 : rq.home;
    for (const auto& nh : hf->hooks) {
      if (!nh.enabled) continue;
      for (const auto& e : nh.events) {
        if (e.event != rq.event) continue;
        for (size_t gi = 0; gi < e.groups.size(); ++gi) {
          const Group& g = e.groups[gi];
          if (is_tool_event(e.event)) {
            bool all = g.matcher.empty() || g.matcher == "*";
            if (!all && (rq.tool.empty() || !matcher_matches(profile, g.matcher, rq.tool)))
              continue;
          }
          for (size_t hi = 0; hi < g.hooks.size(); ++hi) {
            const Handler& h = g.hooks[hi];
            if (h.type != "command" || h.command.empty()) continue;
            PlannedRun r;
            r.hook = nh.name;
            r.file = c.path;
            r.pointer = h.pointer;
            r.id = "jsonhook__" + nh.name + "_" + event_name(e.event) + "_" + std::to_string(gi) +
                   "_" + std::to_string(hi);
            r.command = h.command;
            if (profile.shell == "split") {
              std::istringstream ss(h.command);
              std::string w;
              while (ss >> w) r.argv.push_back(r.argv.empty() ? expand_home(w, rq.home) : w);
            } else {
              r.argv = {"sh", "-c", h.command};
            }
            r.timeout_seconds = h.timeout_seconds;
            r.cwd = cwd;
            out.run.push_back(std::move(r));
          }
        }
      }
    }
  }
  return out;
}

nlohmann::json plan_to_json(const Plan& p) {
  nlohmann::json j;
  j["files"] = nlohmann::json::array();
  for (const auto& f : p.files)
    j["files"].push_back({{"path", f.path}, {"status", f.status}, {"error", f.error}});
  j["run"] = nlohmann::json::array();
  for (const auto& r : p.run)
    j["run"].push_back({{"hook", r.hook},
                        {"id", r.id},
                        {"command", r.command},
                        {"argv", r.argv},
                        {"timeoutSeconds", r.timeout_seconds},
                        {"cwd", r.cwd}});
  j["hooksRun"] = p.hooks_run;
  return j;
}

nlohmann::json lint(const std::vector<Profile>& profiles, const std::string& text,
                    const std::string& path) {
  nlohmann::json out;
  out["file"] = path;
  out["profiles"] = nlohmann::json::array();
  for (const auto& p : profiles) {
    nlohmann::json pj;
    pj["profile"] = p.name;
    auto hf = parse_hooks_json(text, p, path);
    if (!hf) {
      pj["status"] = "rejected";
      pj["error"] = hf.error().message;
      pj["hooks"] = nlohmann::json::array();
      pj["notes"] = nlohmann::json::array();
      out["profiles"].push_back(pj);
      continue;
    }
    pj["status"] = "loaded";
    pj["error"] = "";
    pj["hooksRun"] = p.hooks_run;
    pj["hooks"] = nlohmann::json::array();
    for (const auto& nh : hf->hooks) {
      nlohmann::json hj;
      hj["name"] = nh.name;
      hj["enabled"] = nh.enabled;
      nlohmann::json fires = nlohmann::json::array();
      size_t runnable = 0;
      for (const auto& e : nh.events) {
        size_t n = 0;
        for (const auto& g : e.groups) {
          if (is_tool_event(e.event) && !matcher_valid(g.matcher) &&
              p.invalid_matcher == "no-match")
            continue;
          for (const auto& h : g.hooks)
            if (h.type == "command" && !h.command.empty()) ++n;
        }
        if (n > 0) fires.push_back(event_name(e.event));
        runnable += n;
      }
      // A profile whose hooks_run is false registers the hook but never spawns it (#1008).
      const bool live = nh.enabled && p.hooks_run;
      hj["fires"] = live ? fires : nlohmann::json::array();
      hj["neverFires"] = !live || runnable == 0;
      pj["hooks"].push_back(hj);
    }
    pj["notes"] = nlohmann::json::array();
    for (const auto& n : hf->notes)
      pj["notes"].push_back({{"hook", n.hook}, {"message", n.message}});
    out["profiles"].push_back(pj);
  }
  return out;
}

}  // namespace pinta::hosts::agy
