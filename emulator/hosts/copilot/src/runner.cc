// PINTA-PLACEHOLDER: replaced by the emulator helper (Copilot CLI 1.0 through HostRunner).
// Until then the host runs no hooks, and says so: its cells read "hooks do not run", never a
// pass (HostRunner::hooks_not_run).
#include "pinta/emulator/runner_family.h"

namespace pinta::emu::copilot {
namespace {

using nlohmann::json;

constexpr const char* kNotYet = "the Copilot CLI emulator is not built yet";

class PlaceholderRunner : public HostRunner {
 public:
  HookOutcome run(const HookCall&) override {
    HookOutcome out;
    out.effect = "hooks_not_run";
    out.effect_message = kNotYet;
    return out;
  }
  std::optional<std::string> hooks_not_run() const override { return kNotYet; }
  json default_payload(const std::string&, const json&, const std::string&,
                       const std::string&) override {
    return json::object();
  }
};

std::unique_ptr<HostRunner> make_copilot(const std::string&, const HostRunnerOptions&,
                                         std::string&) {
  return std::make_unique<PlaceholderRunner>();
}
json copilot_golden(const HookOutcome& o, const json&) { return {{"effect", o.effect}}; }

}  // namespace
extern const FamilyRunner kRunner{make_copilot, copilot_golden};
}  // namespace pinta::emu::copilot
