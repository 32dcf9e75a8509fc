// File: adapter/test/handler_support.h
// What the handler tests share: a guard that answers what it is told and counts its calls, stdin
// bytes as the reader gives them, and an argv. Used by handler_test.cc and each family's
// adapter test (adapter/test/family/<folder>_test.cc).
#pragma once

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

}  // namespace pinta::adapter::test
