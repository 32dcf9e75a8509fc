// deel-local-cli 1.17 through HostRunner (pinta/emulator/runner_family.h).
#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/emulator/deel/deel.h"
#include "pinta/emulator/runner_family.h"
#include "pinta/hosts/hosts.h"

namespace pinta::emu::deel {
namespace {

using nlohmann::json;
using pinta::hosts::Family;

// deel-local-cli 1.17.1 (emu::deel = seed 004 hooks.js): one hook at the event, run as 훅돌리기
// runs it (bash -c, stdin JSON.stringify({자리, 도구, ...rest}) + "\n", exit 0 passes, 2 blocks at
// a blocking point, anything else is broken). The hook is registered without "onError": "pass",
// so a broken adapter blocks at 도구전/말전 exactly as the host's default would make it.
class DeelRunner : public HostRunner {
 public:
  HookOutcome run(const HookCall& call) override {
    namespace deel = pinta::emu::deel;
    HookOutcome out;
    CaseSpawner sp(call);
    InCwd in_cwd(sp, call.cwd);
    auto korean = deel::resolve_event(deel::ojson(call.event));
    if (!korean) {
      out.effect = "unknown_event";
      return out;
    }
    deel::Hook hook;
    hook.event = *korean;
    hook.matcher = "*";
    hook.command = call.command;
    hook.timeout_ms = call.timeout_ms;
    hook.source = "이 PC";
    // The payload a case gives is the caller's: 도구 is the tool, the rest is spread after it.
    deel::ojson rest = deel::ojson::object();
    std::optional<std::string> tool;
    if (call.input.payload.is_object()) {
      for (auto it = call.input.payload.begin(); it != call.input.payload.end(); ++it) {
        if (it.key() == "도구") {
          if (it->is_string()) tool = it->get<std::string>();
        } else if (it.key() != "자리") {  // the host writes 자리 itself (l.427)
          rest[it.key()] = *it;  // the caller's fields, in the caller's order
        }
      }
    }
    const deel::EnvPairs env(call.env.begin(), call.env.end());
    const std::vector<deel::Hook> hooks = {hook};  // outlives the results (they point into it)
    auto o = deel::run_event(hooks, *korean, tool, rest, in_cwd, env);
    out.stdin_sent = sp.sent();
    if (o.results.empty()) {
      out.effect = "not_run";
      return out;
    }
    const deel::RunResult& r = o.results.front();
    out.raw = in_cwd.last();
    out.detail["spawn"] = spawn_json(out.raw);
    out.detail["code"] = r.code ? json(*r.code) : json();
    out.detail["why"] = r.why ? json(*r.why) : json();
    if (r.blocked) {
      out.effect = r.code && *r.code == 2 ? "blocked" : "blocked_broken";
      out.effect_message = deel::block_message(r);
    } else if (r.why) {
      out.effect = "broken_passed";
      out.effect_message = *r.why;
    } else {
      out.effect = r.message.empty() ? "passed" : "noted";
      out.effect_message = r.message;
    }
    return out;
  }

  payload_json default_payload(const std::string& event, const json& opts, const std::string&,
                               const std::string&) override {
    // seed 004 l.480: 도구 at every event (null off tool events: 자리돌리기's default, l.473); the
    // rest is not in the seed.
    payload_json p = payload_json::object();
    const bool tool_event = pinta::hosts::is_tool_event(Family::kDeel, event);
    p["도구"] = opts.contains("tool") ? opts["tool"] : tool_event ? json("Bash") : json();
    if (opts.contains("tool_args") && opts["tool_args"].is_object())
      for (auto it = opts["tool_args"].begin(); it != opts["tool_args"].end(); ++it)
        p[it.key()] = it.value();
    return p;
  }

 private:
  // Runs the hook in the case's workspace and keeps the raw result for the report.
  class InCwd : public pinta::proc::Spawner {
   public:
    InCwd(pinta::proc::Spawner& inner, std::string cwd) : inner_(inner), cwd_(std::move(cwd)) {}
    pinta::proc::SpawnResult run(const pinta::proc::SpawnRequest& request) override {
      pinta::proc::SpawnRequest rq = request;
      if (!cwd_.empty()) rq.cwd = cwd_;
      last_ = inner_.run(rq);
      return last_;
    }
    const pinta::proc::SpawnResult& last() const { return last_; }

   private:
    pinta::proc::Spawner& inner_;
    std::string cwd_;
    pinta::proc::SpawnResult last_;
  };
};

// deel-local-cli: its exit-code reading (code) and the message it shows (seed 004 l.444-460).
json deel_golden(const HookOutcome& o, const json&) {
  json e = {{"effect", o.effect}};
  e["code"] = o.detail.value("code", json());
  if (!o.effect_message.empty()) e["message"] = o.effect_message;
  return e;
}

std::unique_ptr<HostRunner> make_deel(const std::string&, const HostRunnerOptions&, std::string&) {
  return std::make_unique<DeelRunner>();
}

}  // namespace

extern const FamilyRunner kRunner{make_deel, deel_golden};

}  // namespace pinta::emu::deel
