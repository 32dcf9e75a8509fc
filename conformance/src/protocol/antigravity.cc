// The protocol profile's reading of Antigravity (protocol/reading.h): no hook file of its own here
// (one command at a time, --hook); stdout read as protojson on exit 0 (AGY §6), the one reply
// check of pinta/hosts/reply_check.h.
#include <array>

#include "pinta/hosts/antigravity/antigravity.h"
#include "pinta/hosts/reply_check.h"
#include "reading.h"

namespace pinta::conformance::protocol {
namespace {
namespace agy = pinta::hosts::agy;
using pinta::hosts::Family;

constexpr Family f = Family::kAntigravity;

// Tool names seen in Antigravity's hook payloads (shared/reference/antigravity-hooks.md, "Tool
// names seen").
constexpr std::array<ToolSample, 3> kTools = {{{"run_command", ToolArgs::kShell},
                                              {"write_to_file", ToolArgs::kWriteFile},
                                              {"view_file", ToolArgs::kPath}}};

// The host's version profile says its default (AGY §5.5; `timeout` in seconds, default 30 in
// every profile measured so far: shared/reference/antigravity-hooks.md).
int hook_timeout_ms(const std::string& host) {
  static const auto profiles = agy::load_profiles(agy::default_profile_dir());
  const agy::Profile* p = profiles ? agy::find_profile(*profiles, host) : nullptr;
  return (p ? p->timeout_default_seconds : agy::Profile{}.timeout_default_seconds) * 1000;
}

// MCP calls are `mcp_<server>_<tool>` (shared/reference/antigravity-hooks.md: grain on 1.1.26).
constexpr std::array<ToolSample, 1> kMcpTools = {{{"mcp_{server}_{tool}", ToolArgs::kMcpWrite}}};

bool selects(const ProtocolHook&, const std::string&) { return true; }

// shared/reference/antigravity-hooks.md l.246: the GEMINI_* variables are Gemini CLI's, not
// Antigravity's; it sets none of its own.
constexpr std::span<const std::string_view> kVars{};

void judge(const Run& run, std::vector<Finding>& fs) {
  const auto& r = run.raw;
  const std::string& ev = run.hook.event;
  const bool exit0 = run.exit0;
  const auto& o = run.outcome;
  // Antigravity reads stdout as protojson on exit 0; its own reading is the one reply check.
  auto rc = pinta::hosts::check_reply(f, ev, {r.out, r.exit_code});
  if (!r.timed_out && !exit0)
    fs.push_back({"PROTO-3", exit_text(r) + ": Antigravity reads a failed hook (" + o.effect +
                                 ")"});
  else if (exit0 && !rc.framing.empty() && nonblank(r.out))
    fs.push_back({"PROTO-4", rc.framing});
  else if (exit0 && !rc.shape.empty())
    fs.push_back({"PROTO-5", rc.shape});
}

// The call after a PreToolUse run (emulator/hosts/antigravity/src/run.cc: denied, tool_failed and
// cli_exited end the call; the headless profiles already turn an unanswerable ask into
// tool_failed).
const char* gate_call(const HookOutcome& o) {
  if (o.effect == "denied" || o.effect == "tool_failed" || o.effect == "cli_exited") return "blocks";
  return o.effect == "asked" ? "asks" : "runs";
}

}  // namespace

// Registered through families.def (reading.cc).
namespace readings::antigravity {
// AGY §3, §8 (the installer's session order; SessionStart first where a build fires it).
constexpr std::string_view kSession[] = {"SessionStart", "PreInvocation", "PreToolUse",
                                         "PostToolUse",  "PostInvocation", "Stop"};
extern const FamilyReading kReading = {f,       nullptr, "",    hook_timeout_ms, kTools,
                                       selects, true,    judge, gate_call,       kVars, kMcpTools,
                                       nullptr, kSession};
}  // namespace readings::antigravity


}  // namespace pinta::conformance::protocol
