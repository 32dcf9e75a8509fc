// PINTA-PLACEHOLDER: replaced by the conformance helper.
#include <array>

#include "reading.h"

namespace pinta::conformance::protocol {
namespace {
constexpr std::array<ToolSample, 1> kTools = {{{"Bash", ToolArgs::kShell}}};
int hook_timeout_ms(const std::string&) { return 600000; }
bool selects(const ProtocolHook&, const std::string&) { return true; }
void judge(const Run&, std::vector<Finding>&) {}
}  // namespace
namespace readings::codex {
extern const FamilyReading kReading = {
    pinta::hosts::Family::kCodex, nullptr, ".codex", hook_timeout_ms, kTools, selects, true, judge};
}  // namespace readings::codex
}  // namespace pinta::conformance::protocol
