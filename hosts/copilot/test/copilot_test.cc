// pinta::hosts_copilot: event names in both spellings, the format each selects, the Claude tool
// names and the matchers of each format (CPDOC = github/docs
// content/copilot/reference/hooks-reference.md). The loader's tests come with the loader.
#include <gtest/gtest.h>

#include "pinta/hosts/copilot/copilot.h"

namespace cp = pinta::hosts::copilot;
using cp::Format;
using cp::MatcherKind;

TEST(CopilotEvents, BothSpellingsAndTheFormatEachSelects) {
  EXPECT_EQ(cp::events().size(), 14u);
  EXPECT_EQ(cp::event_format("preToolUse"), Format::kNative);
  EXPECT_EQ(cp::event_format("PreToolUse"), Format::kClaudeStyle);
  EXPECT_EQ(cp::canonical_event("Stop"), "agentStop");
  EXPECT_EQ(cp::canonical_event("UserPromptSubmit"), "userPromptSubmitted");
  EXPECT_EQ(cp::canonical_event("agentStop"), "agentStop");
  // Case-sensitive: neither spelling's other case is an event.
  EXPECT_FALSE(cp::is_event("pretooluse"));
  EXPECT_FALSE(cp::is_event("PreTooluse"));
  EXPECT_EQ(cp::canonical_event("BeforeTool"), "");
  EXPECT_STREQ(cp::agent_label(Format::kNative), "copilot");
  EXPECT_STREQ(cp::agent_label(Format::kClaudeStyle), "copilot-claude");
}

TEST(CopilotMatchers, NativeIsAnAnchoredRegexOnTheRuntimeName) {
  EXPECT_TRUE(cp::matcher_matches(Format::kNative, "bash|edit", "bash"));
  EXPECT_FALSE(cp::matcher_matches(Format::kNative, "bash", "bash2"));  // anchored
  EXPECT_FALSE(cp::matcher_matches(Format::kNative, "ash", "bash"));
  EXPECT_FALSE(cp::matcher_matches(Format::kNative, "Bash", "bash"));  // runtime names only
  EXPECT_TRUE(cp::matcher_matches(Format::kNative, "b.*", "bash"));
  EXPECT_EQ(cp::matcher_kind(Format::kNative, "("), MatcherKind::kInvalid);
  EXPECT_FALSE(cp::matcher_matches(Format::kNative, "(", "bash"));  // the entry is skipped
}

TEST(CopilotMatchers, ClaudeStyleNamesListsAndRegexOnTheClaudeName) {
  for (const char* all : {"", "*", "**"}) {
    EXPECT_EQ(cp::matcher_kind(Format::kClaudeStyle, all), MatcherKind::kAll) << all;
    EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, all, "view")) << all;
  }
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "Bash", "bash"));
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "bash", "bash"));  // the runtime name too
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "Edit|Write", "create"));
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "Edit", "apply_patch"));
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "Task", "task"));
  EXPECT_FALSE(cp::matcher_matches(Format::kClaudeStyle, "Bash", "view"));
  EXPECT_EQ(cp::matcher_kind(Format::kClaudeStyle, "Ba.*"), MatcherKind::kRegex);
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "Ba.*", "powershell"));
  EXPECT_FALSE(cp::matcher_matches(Format::kClaudeStyle, "ba.*", "bash"));  // on the Claude name
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "my_.*", "my_tool"));  // no Claude name
  EXPECT_EQ(cp::claude_tool_name("view"), "Read");
  EXPECT_EQ(cp::claude_tool_name("mcp_x"), "mcp_x");
}

TEST(CopilotPlan, EitherSpellingSelectsBothFormatsHandlersByTheirOwnMatcher) {
  cp::LoadedHooks hooks;
  cp::HookHandler native{.event = "preToolUse", .canonical = "preToolUse", .format = Format::kNative};
  native.matcher = "bash";
  native.has_matcher = true;
  cp::HookHandler claude{.event = "PreToolUse", .canonical = "preToolUse",
                         .format = Format::kClaudeStyle};
  claude.matcher = "Bash";
  claude.has_matcher = true;
  cp::HookHandler post{.event = "postToolUse", .canonical = "postToolUse"};
  hooks.handlers = {native, claude, post};
  EXPECT_EQ(cp::plan(hooks, "preToolUse", "bash").size(), 2u);
  EXPECT_EQ(cp::plan(hooks, "PreToolUse", "bash").size(), 2u);
  EXPECT_EQ(cp::plan(hooks, "preToolUse", "view").size(), 0u);
  EXPECT_EQ(cp::plan(hooks, "postToolUse", "view").size(), 1u);
}
