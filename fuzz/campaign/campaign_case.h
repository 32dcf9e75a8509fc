// The campaign's vocabulary, shared by its units (generate, execute, judge, report): one run's
// case (what is fed to the adapter and how the fake guard and collector behave) and the secrets
// it may plant. Internal to fuzz/campaign.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runner.h"

namespace pinta::fuzz::campaign {

// Guard behaviours. kNone: no guard configured.
enum GuardMode {
  kGuardNone,
  kGuardAllow,
  kGuardDeny,
  kGuardReviewAsk,
  kGuard500,
  kGuardGarbage,
  kGuardSlow,
  kGuardNever,
  kGuardClose,
  kGuardRefused,
  kGuardDenyCapped,     // a deny-all guard behind a 16 KiB body limit (413 past it; GUARD-16)
  kGuardDenyDecorated,  // a DENY with status 403, NaN in it and a second document after it (GUARD-6)
  kGuardModes
};
inline constexpr const char* kGuardNames[] = {"none",     "allow",   "deny", "review-ask",
                                              "http-500", "garbage", "slow", "never-answers",
                                              "closes",   "refused", "deny-capped",
                                              "deny-decorated"};
static_assert(sizeof kGuardNames / sizeof *kGuardNames == kGuardModes);
// The modes whose guard denies every call it can read.
inline constexpr bool guard_denies(GuardMode m) {
  return m == kGuardDeny || m == kGuardDenyCapped || m == kGuardDenyDecorated;
}
// The modes where a first request can meet a fault, so that the minimal request follows (GUARD-16):
// the guard may be asked twice.
inline constexpr bool guard_may_be_asked_twice(GuardMode m) {
  return m == kGuard500 || m == kGuardGarbage || m == kGuardSlow || m == kGuardNever ||
         m == kGuardClose || m == kGuardDenyCapped;
}
enum CollectorMode {
  kCollectorNone,
  kCollectorOk,
  kCollector500,
  kCollectorGarbage,
  kCollectorNever,
  kCollectorModes
};
inline constexpr const char* kCollectorNames[] = {"none", "ok", "http-500", "garbage",
                                                  "never-answers"};
inline constexpr const char* kDenyReason = "campaign deny P-8";
inline constexpr const char* kReviewReason = "campaign review P-8";
inline constexpr int kGuardTimeoutMs = 50;

// One run: the event, the stdin bytes and how they are fed, the home, the planted secret, the
// guard and collector behaviours.
struct Case {
  std::string event;
  std::string stdin_bytes;
  Stdin mode = Stdin::kClosed;
  size_t drip_chunk = 1;
  bool capped_home = false;  // HOME carries an env file with PINTA_MAX_INPUT_BYTES=4096
  std::string planted;       // a secret placed in the payload ("" = none)
  std::string mutation;
  GuardMode guard = kGuardNone;
  CollectorMode collector = kCollectorNone;
  int stdin_timeout_ms = 0;  // PINTA_STDIN_TIMEOUT_MS for this run (0: the default, 1000 ms)
  // PINTA_GUARD_TIMEOUT_MS for this run. The adversarial mode gives the guard a budget no load
  // can use up: it checks that the guard is asked and obeyed, not how fast (ci/bench.sh does).
  int guard_timeout_ms = 50;
};

// Planted into payloads; none may reach stdout, stderr or the collector.
inline const std::vector<std::string> kSecrets = {
    "AKIAQWERTYUIOPASDFGH", "ghp_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCbA9",
    "sk_live_Qw3Er5Ty7Ui9Op1As3Df5Gh7", "xoxb-1111222233-4444555566667-QwErTy"};

}  // namespace pinta::fuzz::campaign
