// Effect wording per family (pinta/hosts/effects.h).
#include "pinta/hosts/effects.h"

namespace pinta::hosts {
namespace {

// One line, at most n bytes ("..." marks a cut).
std::string clip(std::string s, size_t n) {
  for (auto& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > n) s = s.substr(0, n - 3) + "...";
  return s;
}

}  // namespace

std::string describe_effect(Family f, std::string_view event, const std::string& k,
                            const std::string& m, const std::string& error) {
  if (f == Family::kDeel) {  // seed 004 hooks.js 훅돌리기 l.438-457, 막힘말 l.504-511
    if (k == "passed") return "passes silently";
    if (k == "noted") return "passes; the user sees a note: " + clip(m, 80);
    if (k == "blocked") return "blocked (exit 2): " + clip(m, 120);
    if (k == "blocked_broken") return "blocked because the hook is broken: " + clip(m, 120);
    if (k == "broken_passed") return "broken hook, passed (not a blocking point): " + m;
    return k + (m.empty() ? "" : ": " + m);
  }
  // Claude Code: docs/hosts/claude-code-2.1.md, "Replies" and "What the model is told".
  if (f == Family::kClaude) {
    if (k == "no_opinion") return "no output: the host goes on as without the hook";
    if (k == "denied") return "denied; the model is told: " + clip(m, 120);
    if (k == "asked") return "asks (print mode: denied with the reason): " + clip(m, 120);
    if (k == "allowed") return "allowed by the hook";
    if (k == "blocking_error") return "blocking error (exit 2); the model is told: " + clip(m, 120);
    if (k == "error_shown") return "exit 2 where the event cannot block: stderr shown to the user";
    if (k == "hook_error") return "non-blocking hook error (shown to the user): " + clip(m, 80);
    if (k == "stopped")
      return "the session ends after this step" + (m.empty() ? "" : ": " + clip(m, 80));
    if (k == "blocked") return "blocked: " + clip(m, 120);
    if (k == "json_read") return "JSON reply read (context or message): " + clip(m, 80);
    if (k == "text_shown") return "plain text shown" + (m.empty() ? "" : ": " + clip(m, 80));
    if (k == "timed_out") return "cancelled at its timeout, no verdict";
    return k + (m.empty() ? "" : ": " + m);
  }
  if (f == Family::kGemini) {
    if (k == "denied")
      return event == "BeforeTool" ? "denied: the CLI prints `Tool execution blocked: " + m + "`"
                                   : "denied/blocked: " + m;
    if (k == "text_denied") return "denied (plain-text reply): " + m;
    if (k == "text_shown") return "plain text shown to the user";
    if (k == "hook_failed")
      return "hook failed (logged; the CLI carries on): " + (error.empty() ? "?" : error);
    if (k == "asked") return "asks the user";
    if (k == "allowed") return "allowed";
    if (k == "no_opinion") return "no opinion (the host's default applies: proceeds)";
    return k;
  }
  if (k == "allowed") return "allowed";
  if (k == "denied") return "denied: " + m;
  if (k == "asked") return "asks the user";
  if (k == "no_opinion") return "no opinion";
  if (k == "tool_failed") return "tool call failed: " + m;
  if (k == "cli_exited") return "the CLI exits: " + m;
  if (k == "continued") return "agent continues: " + m;
  if (k == "stopped") return "agent stops";
  if (k == "terminated") return "invocation ends";
  if (k == "force_continued") return "invocation forced to continue: " + m;
  if (k == "injected") return "steps injected";
  if (k == "hook_failed") return "hook failed (logged only): " + m;
  return k + (m.empty() ? "" : ": " + m);
}

bool same_failsafe(Family f, const std::string& got, const std::string& want) {
  if (got == want) return true;
  auto permits = [](const std::string& k) { return k == "no_opinion" || k == "allowed"; };
  return f == Family::kGemini && permits(got) && permits(want);
}

}  // namespace pinta::hosts
