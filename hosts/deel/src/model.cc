// deel-local-cli's model (pinta/hosts/family_model.h). DEEL l.n = seed 004, deel-local-cli 1.17
// package/src/safety/hooks.js, by line.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pinta/hosts/family.h"
#include "pinta/hosts/family_model.h"

namespace pinta::hosts::deel {
namespace {

using nlohmann::json;

// The host reads exit statuses, not JSON (DEEL l.444-453; the reply check's exit-status reading):
// a JSON object means nothing to it.
std::string shape(std::string_view, const json&, ReplyKind*) {
  return "deel-local-cli reads the exit status, not JSON";
}

// DEEL l.431-434: any output is shown to the user, so the allow is no output ({} stands for it).
json allow_reply(std::string_view) { return json::object(); }

// 훅돌리기 l.438-457, 막힘말 l.504-511.
std::string describe_effect(std::string_view, const std::string& k, const std::string& m,
                            const std::string&) {
  if (k == "passed") return "passes silently";
  if (k == "noted") return "passes; the user sees a note: " + clip_line(m, 80);
  if (k == "blocked") return "blocked (exit 2): " + clip_line(m, 120);
  if (k == "blocked_broken") return "blocked because the hook is broken: " + clip_line(m, 120);
  if (k == "broken_passed") return "broken hook, passed (not a blocking point): " + m;
  return k + (m.empty() ? "" : ": " + m);
}

bool same_failsafe(const std::string& got, const std::string& want) { return got == want; }

}  // namespace

extern const FamilyModel kModel{shape, allow_reply, describe_effect, same_failsafe};

}  // namespace pinta::hosts::deel
