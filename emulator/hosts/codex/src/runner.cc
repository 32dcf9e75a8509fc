// PINTA-PLACEHOLDER: replaced by the emulator helper.
#include "pinta/emulator/runner_family.h"

namespace pinta::emu::codex {
namespace {
std::unique_ptr<HostRunner> make_codex(const std::string&, const HostRunnerOptions&,
                                       std::string& error) {
  error = "codex: no emulator yet";
  return nullptr;
}
nlohmann::json codex_golden(const HookOutcome& o, const nlohmann::json&) {
  return {{"effect", o.effect}};
}
}  // namespace
extern const FamilyRunner kRunner{make_codex, codex_golden};
}  // namespace pinta::emu::codex
