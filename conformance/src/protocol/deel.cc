// The protocol profile's reading of deel-local-cli (protocol/reading.h): a hooks.json unfolded
// as the runner unfolds it (pinta::hosts::deel, seed 004), its matchers, and its exit-code
// protocol (0 passes, 2 blocks, anything else fails closed at a blocking point).
#include <array>
#include <filesystem>

#include "pinta/hosts/deel/deel.h"
#include "pinta/hosts/reply_check.h"
#include "reading.h"

namespace pinta::conformance::protocol {
namespace {
namespace stdfs = std::filesystem;
namespace deel = pinta::hosts::deel;
using pinta::hosts::Family;

constexpr Family f = Family::kDeel;

// deel-local-cli's tools take Claude Code's names (seed 004 l.247: a `Read` pattern and
// `TodoWrite`; l.604: `Grep`).
constexpr std::array<ToolSample, 6> kTools = {{{"Bash", ToolArgs::kShell},
                                              {"Write", ToolArgs::kWriteFile},
                                              {"Edit", ToolArgs::kEdit},
                                              {"Read", ToolArgs::kPath},
                                              {"Grep", ToolArgs::kPath},
                                              {"Glob", ToolArgs::kPath}}};

int hook_timeout_ms(const std::string&) { return static_cast<int>(deel::kDefaultTimeoutMs); }

// DEEL l.416-428 (the runner's environment is process.env with HOME): no variable of its own.
constexpr std::span<const std::string_view> kVars{};

bool selects(const ProtocolHook& h, const std::string& tool) {
  auto m = deel::make_matcher(deel::ojson(h.matcher.empty() ? "*" : h.matcher));
  return !m || deel::matcher_matches(*m, tool);
}

Result<std::vector<ProtocolHook>> deel_hooks(const ProtocolOptions& po, const std::string& host) {
  std::string err;
  const std::string path = stdfs::absolute(po.config).lexically_normal().string();
  std::string text = read_text(path, err);
  if (!err.empty()) return make_error(ErrorCode::kIo, err);
  auto raw = deel::ojson::parse(text, nullptr, false);
  if (raw.is_discarded())
    return make_error(ErrorCode::kInvalidArgument, "--config " + po.config + ": not valid JSON");
  auto read = deel::unfold(raw, "프로젝트");
  std::vector<ProtocolHook> out;
  for (const auto& dh : read.hooks) {
    ProtocolHook h;
    h.host = host;
    h.event = dh.event;
    h.matcher = dh.matcher;
    h.command = dh.command;
    h.timeout_ms = static_cast<int>(dh.timeout_ms);
    h.name = dh.name ? *dh.name : "";
    h.origin = path;
    h.pointer = dh.pointer;
    out.push_back(std::move(h));
  }
  return out;
}

void judge(const Run& run, std::vector<Finding>& fs) {
  const auto& [h, o, r, exit0, exit2] = run;
  const std::string& ev = h.event;
  const bool blocking = pinta::hosts::deny_meaningful(f, ev);
  if (!r.timed_out && !exit0 && !exit2)
    fs.push_back({"PROTO-3", exit_text(r) + ": deel-local-cli counts a failed hook, which " +
                                 (blocking ? "blocks here (fail-closed)" : "it ignores here") +
                                 " (" + o.effect + "); pass with 0, block with 2"});
  // DEEL l.444-453: the exit status is the whole answer; a JSON decision on stdout is text.
  const auto printed = json::parse(r.out, nullptr, false);
  if (exit0 && printed.is_object() && printed.contains("decision"))
    fs.push_back({"PROTO-5", "a JSON decision on stdout with exit 0: deel-local-cli decides by "
                             "exit status only (0 passes, 2 blocks) and shows the JSON as a "
                             "note"});
  else if (exit0 && o.effect == "noted")  // a should (README, docs/ci.md): nothing breaks
    fs.push_back({"PROTO-4", "prints on a pass: deel-local-cli shows it to the user as a note "
                             "on every run",
                  false, true});
  if (exit2 && !blocking)
    fs.push_back({"PROTO-5", "exit 2 on " + ev + ", which is not a blocking point: ignored"});
  // DEEL l.432, l.504-511: the block message is stdout and stderr together, trimmed.
  if (exit2 && blocking && !nonblank(r.out + r.err))
    fs.push_back({"PROTO-6", "exit 2 without a reason (nothing on stdout or stderr)"});
}

// The call after a 도구전 run (emulator/hosts/deel/src/runner.cc): blocked by exit 2, or
// blocked_broken by a failed hook (deel is fail-closed at its blocking points).
const char* gate_call(const HookOutcome& o) {
  return o.effect == "blocked" || o.effect == "blocked_broken" ? "blocks" : "runs";
}

}  // namespace

// No MCP tool naming is on record for deel-local-cli: no MCP calls.
// Registered through families.def (reading.cc).
namespace readings::deel {
// DEEL l.213-218 (자리표): 말전 before the turn, 도구전 and 도구후 around each tool, 턴끝 at its end.
constexpr std::string_view kSession[] = {"UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"};
extern const FamilyReading kReading = {
    f, deel_hooks, ".deel", hook_timeout_ms, kTools, selects, true, judge, gate_call, kVars, {},
    nullptr, kSession};
}  // namespace readings::deel


}  // namespace pinta::conformance::protocol
