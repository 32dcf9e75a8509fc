// Small text encodings shared by the tools: JSON Pointer tokens (where a loader says a value
// is) and GitHub workflow-command escaping (lint and conformance annotations).
#pragma once

#include <string>
#include <string_view>

namespace pinta::text {

// One RFC 6901 reference token: '~' → "~0", '/' → "~1".
std::string json_pointer_token(std::string_view key);

// GitHub workflow commands (`::error file=…::message`): the message escapes '%', CR and LF;
// a property value also ':' and ',' (actions/toolkit command.ts, escapeData/escapeProperty).
std::string github_escape_data(std::string_view s);
std::string github_escape_property(std::string_view s);

}  // namespace pinta::text
