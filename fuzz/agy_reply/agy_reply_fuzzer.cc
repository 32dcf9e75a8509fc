// Harness: Antigravity reply interpreter (pinta/emulator/antigravity/antigravity.h
// interpret_reply, aggregate) under every profile.
// Properties, for any stdout/stderr text, exit status, timeout flag and tool args:
//  1. total and deterministic (same reply → same effect JSON);
//  2. the effect kind belongs to the event's documented set (header comment of Effect):
//     PreToolUse → allowed|no_opinion|denied|asked|tool_failed|cli_exited; the PreToolUse-only
//     kinds (allowed, denied, asked, tool_failed) never appear on another event; Stop →
//     continued|stopped|hook_failed; args_after is null off PreToolUse;
//  3. agreement with the independent host table (fuzz/common/host_table.h): the adapter's allow
//     reply on an event, exit 0, interactive, is never a failure or a deny, and its deny reply on
//     PreToolUse is denied under every profile (reference §6.2: deny holds whatever the permission
//     mode);
//  4. aggregate() of one effect is total and keeps a PreToolUse deny a deny.
// Input layout: profile byte, event byte, exit byte, flags byte, stdout string, stderr string,
// then tool args text (JSON if it parses, else null).
#include <array>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "agy_profiles.h"
#include "fuzz_support.h"
#include "host_table.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace {

namespace agy = pinta::emu::agy;

const std::vector<agy::Profile>& profiles() {
  static const std::vector<agy::Profile> all =
      pinta::fuzz::load_agy_profiles(pinta::fuzz::Synthetic::kDefaultsIfNone);
  return all;
}

constexpr std::array<agy::Event, 6> kEvents = {
    agy::Event::kPreToolUse,     agy::Event::kPostToolUse, agy::Event::kPreInvocation,
    agy::Event::kPostInvocation, agy::Event::kStop,        agy::Event::kSessionStart};

const std::set<std::string> kPreToolUse = {"allowed", "no_opinion",  "denied",
                                           "asked",   "tool_failed", "cli_exited"};
const std::set<std::string> kPreToolUseOnly = {"allowed", "denied", "asked", "tool_failed"};
const std::set<std::string> kStop = {"continued", "stopped", "hook_failed"};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  pinta::fuzz::use_profiles_next_to_binary(*argc, *argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pinta::fuzz::Bytes in(data, size);
  const auto& all = profiles();
  const agy::Profile& profile = all[in.byte() % all.size()];
  const agy::Event event = kEvents[in.byte() % kEvents.size()];
  const uint8_t exit_byte = in.byte();
  const uint8_t flags = in.byte();
  agy::HookReply reply;
  reply.stdout_text = in.string(4096);
  reply.stderr_text = in.string(256);
  if ((flags & 3u) == 0)
    reply.exit_code = exit_byte & 0x7f;
  else if ((flags & 3u) == 1)
    reply.exit_code = 0;
  else
    reply.term_signal = 9;
  reply.timed_out = (flags & 4u) != 0 && !reply.exit_code;
  agy::ReplyContext ctx;
  ctx.tool = "run_command";
  ctx.headless = (flags & 8u) != 0;
  ctx.prior_grant = (flags & 16u) != 0;
  ctx.stop_continuations = (flags >> 5) & 7;
  nlohmann::json args = nlohmann::json::parse(in.rest(), nullptr, false);
  if (args.is_discarded()) args = nullptr;

  const std::string where =
      std::string(" event=") + agy::event_name(event) + " profile=" + profile.name;
  const agy::Effect e = agy::interpret_reply(profile, event, reply, args, ctx);
  const agy::Effect e2 = agy::interpret_reply(profile, event, reply, args, ctx);
  FUZZ_CHECK(agy::effect_to_json(e) == agy::effect_to_json(e2), "not deterministic" + where);
  if (event == agy::Event::kPreToolUse) {
    FUZZ_CHECK(kPreToolUse.count(e.kind) == 1, "kind " + e.kind + where);
  } else {
    FUZZ_CHECK(kPreToolUseOnly.count(e.kind) == 0, "PreToolUse kind " + e.kind + where);
    FUZZ_CHECK(e.args_after.is_null(), "args_after off PreToolUse" + where);
  }
  if (event == agy::Event::kStop) FUZZ_CHECK(kStop.count(e.kind) == 1, "kind " + e.kind + where);
  const agy::Effect folded = agy::aggregate(profile, event, {e}, args, ctx);
  if (event == agy::Event::kPreToolUse && e.kind == "denied")
    FUZZ_CHECK(folded.kind == "denied", "deny lost" + where);

  // 3. The adapter's replies, read the way this profile reads them.
  // Interactive context: headless `agy -p` turns even an allow into a CLI exit (reference §6.2,
  // antigravity-cli#1053), which is the host's rule, not a property of the reply.
  const std::string name = agy::event_name(event);
  agy::ReplyContext plain;
  plain.tool = "run_command";
  agy::HookReply allow;
  allow.exit_code = 0;
  allow.stdout_text = pinta::fuzz::allow_reply(pinta::fuzz::Host::kAntigravity, name).dump() + "\n";
  const agy::Effect ae = agy::interpret_reply(profile, event, allow, args, plain);
  FUZZ_CHECK(ae.kind != "denied" && ae.kind != "tool_failed" && ae.kind != "hook_failed" &&
                 ae.kind != "cli_exited",
             "the adapter's allow reply reads as " + ae.kind + where);
  if (event == agy::Event::kPreToolUse) {
    agy::HookReply deny;
    deny.exit_code = 0;
    deny.stdout_text = R"({"decision":"deny","reason":"blocked by policy"})";
    const agy::Effect de = agy::interpret_reply(profile, event, deny, args, plain);
    FUZZ_CHECK(de.kind == "denied", "the adapter's deny reply reads as " + de.kind + where);
  }
  return 0;
}
