// The protocol profile's reading of Antigravity (protocol/reading.h): no hook file of its own here
// (one command at a time, --hook); stdout read as protojson on exit 0 (AGY §6), the one reply
// check of pinta/hosts/reply_check.h.
#include <array>

#include "pinta/hosts/reply_check.h"
#include "reading.h"

namespace pinta::conformance::protocol {
namespace {
using pinta::hosts::Family;

constexpr Family f = Family::kAntigravity;

constexpr std::array<std::string_view, 3> kTools = {"run_command", "write_to_file", "view_file"};

bool selects(const ProtocolHook&, const std::string&) { return true; }

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

}  // namespace

// AGY §5.5: 30 s when a hook states no timeout.
extern const FamilyReading kAntigravityReading = {f, nullptr, "", 30000, kTools, selects, true, judge};

}  // namespace pinta::conformance::protocol
