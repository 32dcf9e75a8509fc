// Gemini CLI hosts (gemini-0.61 and every version profile) through HostRunner (pinta/emulator/runner_family.h).
#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/emulator/gemini/gemini.h"
#include "pinta/emulator/runner_family.h"
#include "pinta/hosts/hosts.h"

namespace pinta::emu::gemini {
namespace {

using nlohmann::json;
using pinta::hosts::Family;
namespace gem = pinta::emu::gemini;

// A Gemini CLI host: gemini-0.61 (the emulator's own rules) or a version profile's column
// (gemini-0.26, gemini-0.35, …: hosts/gemini/profiles/<host>.json), whose per-hook
// switches change how the one hook runs and how its reply is read (docs/gemini-versions.md).
class GeminiRunner : public HostRunner {
 public:
  GeminiRunner(std::string fixtures, gem::ojson switches)
      : fixtures_(std::move(fixtures)), switches_(std::move(switches)) {}

  HookOutcome run(const HookCall& call) override {
    HookOutcome out;
    CaseSpawner sp(call);
    gem::HookSpec spec;
    spec.command = call.command;
    spec.timeout_ms = call.timeout_ms;
    gem::RunContext ctx;
    ctx.cwd = call.cwd;
    ctx.env = std::vector<std::pair<std::string, std::string>>(call.env.begin(), call.env.end());
    ctx.spawner = &sp;
    ctx.rules = gem::hook_rules_from_switches(switches_);
    const gem::ojson& input = call.input.payload;
    auto r = gem::run_hook(spec, call.event, input, ctx);
    out.raw = r.raw;
    out.stdin_sent = sp.sent();
    // What the CLI does with the hook's output (§4.5, §5): text output is shown to the user or
    // becomes a deny reason; decision deny/block blocks; a failed hook is logged (§4.6).
    std::string decision;
    if (r.output && r.output->is_object() && r.output->contains("decision") &&
        (*r.output)["decision"].is_string())
      decision = (*r.output)["decision"].get<std::string>();
    if (r.plain_text)  // outputFormat "text" (0.30+); 0.26 converts the same way without it
      out.effect = decision == "deny" ? "text_denied" : "text_shown";
    else if (decision == "deny" || decision == "block")
      out.effect = "denied";
    else if (!r.success)
      out.effect = "hook_failed";
    else if (decision == "ask")
      out.effect = "asked";
    else if (decision == "allow" || decision == "approve")
      out.effect = "allowed";
    else
      out.effect = "no_opinion";
    if (r.output && r.output->is_object()) {
      out.effect_message = gem::effective_reason(*r.output);
      out.detail["output"] = json::parse(r.output->dump(), nullptr, false);
      // The tool error the CLI reports for this reply, worded by the version (0.26: bare).
      auto terr = gem::tool_error_text(switches_, call.event, *r.output);
      if (!terr.empty()) out.detail["tool_error"] = terr;
      if (call.event == "BeforeTool" && terr.empty() && input.is_object()) {
        auto ti = gem::rewritten_tool_input(
            switches_, input.contains("tool_input") ? input["tool_input"] : gem::ojson(),
            *r.output);
        if (!ti.is_null()) out.detail["tool_input"] = json::parse(ti.dump(), nullptr, false);
      }
    }
    if (r.error) out.detail["error"] = *r.error;
    out.detail["output_format"] = r.output_format;
    out.detail["spawn"] = spawn_json(r.raw);
    return out;
  }

  payload_json default_payload(const std::string& event, const json& opts, const std::string&,
                               const std::string& workspace) override {
    // The first y_ fixture for the event (GEM§7 shapes, fixtures/gemini/MANIFEST.json provenance).
    std::string dir = fixtures_ + "/gemini/0.61.0/" + event;
    std::vector<std::string> ys;
    std::error_code ec;
    for (auto& e : std::filesystem::directory_iterator(dir, ec)) {
      auto n = e.path().filename().string();
      if (n.starts_with("y_")) ys.push_back(e.path().string());
    }
    std::sort(ys.begin(), ys.end());
    std::string want = opts.value("fixture_name", std::string());
    // As captured: the host's order, nested objects included (the runner writes it as is).
    payload_json p = payload_json::object();
    for (const auto& f : ys) {
      if (!want.empty() && !f.ends_with("/" + want)) continue;
      auto t = pinta::fs::read_file(f);
      if (t) p = payload_json::parse(*t, nullptr, false);
      break;
    }
    if (!p.is_object()) p = payload_json::object();
    if (p.empty())
      p = {{"session_id", "11111111-2222-4333-8444-555555555555"},
           {"hook_event_name", event},
           {"timestamp", "2026-12-02T10:00:00.000Z"}};
    p["cwd"] = workspace;
    if (opts.contains("session")) p["session_id"] = opts["session"];
    if (opts.contains("tool")) p["tool_name"] = opts["tool"];
    if (opts.contains("tool_args")) p["tool_input"] = opts["tool_args"];
    return p;
  }

 private:
  std::string fixtures_;
  gem::ojson switches_;
};

std::unique_ptr<HostRunner> make_gemini(const std::string& host, const HostRunnerOptions& options,
                                        std::string& error) {
  // gemini-0.61 is the emulator's default; any other Gemini host is its profile file.
  if (host == "gemini-0.61")
    return std::make_unique<GeminiRunner>(options.fixtures_dir, gem::ojson::object());
  static std::mutex gmu;
  static std::map<std::string, gem::ojson> gcache;
  std::lock_guard<std::mutex> lock(gmu);
  auto it = gcache.find(host);
  if (it == gcache.end()) {
    auto prof = gem::load_profile(host);
    if (!prof) {
      error = "no Gemini CLI profile for host " + host + ": " + prof.error().message;
      return nullptr;
    }
    it = gcache.emplace(host, gem::profile_switches(*prof)).first;
  }
  return std::make_unique<GeminiRunner>(options.fixtures_dir, it->second);
}

// Gemini CLI: the parsed output and its format, the hook error, the deny message (GEM §4.5-§5).
json gemini_golden(const HookOutcome& o, const json&) {
  json e = {{"effect", o.effect}};
  if (o.detail.contains("output")) e["output"] = o.detail["output"];
  e["output_format"] = o.detail.value("output_format", std::string());
  if (o.detail.contains("error")) e["error"] = o.detail["error"];
  if (o.effect == "denied" || o.effect == "text_denied") e["message"] = o.effect_message;
  return e;
}

}  // namespace

extern const FamilyRunner kRunner{make_gemini, gemini_golden};

}  // namespace pinta::emu::gemini
