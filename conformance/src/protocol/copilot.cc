// PINTA-PLACEHOLDER: replaced by the conformance helper (the protocol profile's reading of
// Copilot CLI 1.0: both hook-file formats through pinta::hosts::copilot, the fail-closed gate).
#include <array>

#include "pinta/hosts/copilot/copilot.h"
#include "reading.h"

namespace pinta::conformance::protocol {
namespace {
namespace cp = pinta::hosts::copilot;
// CPDOC "Tool names for hook matching": the native runtime names.
constexpr std::array<ToolSample, 1> kTools = {{{"bash", ToolArgs::kShell}}};
// CPDOC: `timeoutSec`, 30 s by default.
int hook_timeout_ms(const std::string&) { return static_cast<int>(cp::HookHandler{}.timeout_sec * 1000); }
bool selects(const ProtocolHook& h, const std::string& tool) {
  return cp::matcher_matches(cp::Format::kNative, h.matcher, tool);
}
void judge(const Run&, std::vector<Finding>&) {}
}  // namespace
namespace readings::copilot {
extern const FamilyReading kReading = {pinta::hosts::Family::kCopilot, nullptr, ".github",
                                       hook_timeout_ms, kTools, selects, true, judge};
}  // namespace readings::copilot
}  // namespace pinta::conformance::protocol
