// File: adapter/test/handler_support.h
// What the handler tests share: a guard that answers what it is told and counts its calls, stdin
// bytes as the reader gives them, an argv, what the adapter read of a tool call, and the
// hookSpecificOutput deny line. Used by handler_test.cc and each family's adapter test
// (adapter/test/family/<folder>_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "pinta/adapter/handler.h"

namespace pinta::adapter::test {

struct FakeGuard : GuardClient {
  GuardVerdict verdict;
  int calls = 0;
  std::string last_tool;
  Deadline last_deadline = Deadline::never();
  GuardVerdict check(const CanonicalEvent& e, const std::string&, Deadline d) override {
    ++calls;
    last_tool = e.tool_name;
    last_deadline = d;
    return verdict;
  }
};

inline RawInput ok(std::string s) { return read_event_from_bytes(s, InputLimits{}); }

inline Args args(const char* agent, const char* event) {
  const char* argv[] = {"pinta-gemini", "--agent", agent, "--event", event};
  return parse_args(5, argv);
}

// What the adapter read of the tool call in `o`: a tool event with this tool, command (tool_input's
// "command"), session, working directory and the host's call id.
inline void expect_tool_call(const Outcome& o, const std::string& tool, const std::string& command,
                             const std::string& session, const std::string& cwd,
                             const std::string& call_id) {
  ASSERT_NE(o.event, nullptr);
  EXPECT_EQ(o.event->tool_name, tool);
  EXPECT_EQ(o.event->tool_input["command"], command);
  EXPECT_EQ(o.event->session_id, session);
  EXPECT_EQ(o.event->cwd, cwd);
  EXPECT_EQ(o.event->tool_call_id, call_id);
  EXPECT_TRUE(o.event->tool_event);
}

// The deny line of the families that answer {"hookSpecificOutput": {…, "permissionDecision":
// "deny", …}} (Claude Code, Codex CLI).
inline nlohmann::json hook_specific_deny(const std::string& event, const std::string& reason) {
  return {{"hookSpecificOutput",
           {{"hookEventName", event},
            {"permissionDecision", "deny"},
            {"permissionDecisionReason", reason}}}};
}

}  // namespace pinta::adapter::test
