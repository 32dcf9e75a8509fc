// Antigravity hosts (every version profile) through HostRunner (pinta/emulator/runner_family.h).
#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/emulator/antigravity/antigravity.h"
#include "pinta/emulator/runner_family.h"
#include "pinta/hosts/hosts.h"

namespace pinta::emu::antigravity {
namespace {

using nlohmann::json;
using pinta::hosts::Family;
namespace agy = pinta::emu::agy;

class AgyRunner : public HostRunner {
 public:
  explicit AgyRunner(agy::Profile p) : profile_(std::move(p)) {}

  std::optional<std::string> hooks_not_run() const override {
    return agy::hooks_not_run_reason(profile_);
  }

  HookOutcome run(const HookCall& call) override {
    HookOutcome out;
    CaseSpawner sp(call);
    auto ev = agy::parse_event(call.event);
    agy::PlannedHook planned;
    planned.hook = "pinta";
    planned.id = "jsonhook__pinta_" + call.event + "_0_0";
    planned.command = call.command;
    // §5.1: sh -c or a whitespace split, per profile.
    if (profile_.shell == "split") {
      std::istringstream in(call.command);
      for (std::string w; in >> w;) planned.argv.push_back(w);
    } else {
      planned.argv = {"sh", "-c", call.command};
    }
    planned.timeout_seconds = std::max(1, (call.timeout_ms + 999) / 1000);
    planned.cwd = call.cwd;
    std::string line = agy::payload_line(profile_, json(call.input.payload));  // §5.4: sorted
    auto rq = agy::spawn_request_for(profile_, planned, line, call.env);
    if (ev && *ev == agy::Event::kStop && profile_.stop_stdin == "none") {
      rq.stdin_data.clear();  // §5.4 (alera PR #75): no stdin on Stop for this profile
      rq.stdin_mode = pinta::proc::StdinMode::kNone;
    }
    out.raw = sp.run(rq);
    out.stdin_sent = sp.sent();
    out.detail["spawn"] = spawn_json(out.raw);
    if (!ev) {
      out.effect = "unknown_event";
      return out;
    }
    json args = json::object();
    const json pl = call.input.payload;
    if (pl.is_object() && pl.contains("toolCall") && pl["toolCall"].is_object() &&
        pl["toolCall"].contains("args"))
      args = pl["toolCall"]["args"];
    agy::ReplyContext ctx;
    ctx.hook_id = planned.id;
    if (pl.is_object() && pl.contains("toolCall") && pl["toolCall"].is_object() &&
        pl["toolCall"].contains("name") && pl["toolCall"]["name"].is_string())
      ctx.tool = pl["toolCall"]["name"].get<std::string>();
    auto eff = agy::interpret_reply(profile_, *ev, agy::reply_from(out.raw),
                                    *ev == agy::Event::kPreToolUse ? args : json(), ctx);
    out.effect = eff.kind;
    out.effect_message = eff.message;
    out.detail["effect"] = agy::effect_to_json(eff);
    return out;
  }

  payload_json default_payload(const std::string& event, const json& opts, const std::string& home,
                               const std::string& workspace) override {
    auto ev = agy::parse_event(event);
    if (!ev) return payload_json::object();
    agy::PayloadOptions o;
    o.home = home;
    o.workspace_paths = {workspace};
    if (opts.contains("tool")) o.tool = opts["tool"].get<std::string>();
    if (opts.contains("tool_args")) o.args = opts["tool_args"];
    if (opts.contains("session")) o.conversation_id = opts["session"].get<std::string>();
    return agy::make_payload(profile_, *ev, o);
  }

 private:
  agy::Profile profile_;
};

std::unique_ptr<HostRunner> make_antigravity(const std::string& host,
                                             const HostRunnerOptions& options, std::string& error) {
  static std::mutex mu;
  static std::map<std::string, std::vector<agy::Profile>> cache;
  std::lock_guard<std::mutex> lock(mu);
  // The family's own profile folder unless the caller names another (the registry's HostSource).
  const std::string dir =
      options.profiles_dir.empty() ? agy::default_profile_dir() : options.profiles_dir;
  auto it = cache.find(dir);
  if (it == cache.end()) {
    auto ps = agy::load_profiles(dir);
    if (!ps) {
      error = "cannot load Antigravity profiles from " + dir + ": " +
              ps.error().message;
      return nullptr;
    }
    it = cache.emplace(dir, std::move(*ps)).first;
  }
  const agy::Profile* p = agy::find_profile(it->second, host);
  if (!p) {
    error = "no Antigravity profile named " + host;
    return nullptr;
  }
  return std::make_unique<AgyRunner>(*p);
}

// Antigravity: the host's effect on the step; the tool's args as the host runs them,
// "<unchanged>" when the reply did not rewrite them (keeps goldens small and says the one thing
// that matters). A step without args runs with `{}`: that too is unchanged, so the allow reply's
// effect is one golden whatever the payload (the replay's derived default).
json agy_golden(const HookOutcome& o, const json& payload) {
  json e = {{"effect", o.effect}};
  if (!o.detail.contains("effect")) return e;
  e["host_effect"] = o.detail["effect"];
  json& after = e["host_effect"]["argsAfter"];
  json before = json::object();
  if (payload.contains("toolCall") && payload["toolCall"].is_object() &&
      payload["toolCall"].contains("args"))
    before = payload["toolCall"]["args"];
  if (!after.is_null() && after == before) after = "<unchanged>";
  return e;
}

}  // namespace

extern const FamilyRunner kRunner{make_antigravity, agy_golden};

}  // namespace pinta::emu::antigravity
