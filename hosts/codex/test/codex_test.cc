// PINTA-PLACEHOLDER: replaced by the hosts helper.
#include <gtest/gtest.h>

#include "pinta/hosts/codex/codex.h"

TEST(CodexPlaceholder, Events) { EXPECT_TRUE(pinta::hosts::codex::is_event("PreToolUse")); }
