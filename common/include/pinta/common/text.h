// Small text encodings shared by the tools: JSON Pointer tokens (where a loader says a value
// is), GitHub workflow-command escaping (lint and conformance annotations) and the HTML/XML
// entities of the conformance reports.
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

// The entity for a character HTML and XML read as markup: '<' "&lt;", '>' "&gt;", '&' "&amp;",
// '"' "&quot;", and with `apostrophe` '\'' "&#39;"; nullptr for every other character. Callers
// decide what else a byte becomes (controls, Markdown punctuation).
const char* markup_entity(char c, bool apostrophe = false);
// s with markup_entity's four characters replaced; every other byte as it is.
std::string markup_escape(std::string_view s);

// ASCII case folding ('A'..'Z' only; every other byte as it is): header names, scheme names,
// keywords. Not for text a host compares with Unicode rules.
std::string ascii_lower(std::string_view s);

// s without the characters of `chars` at either end (default: the C locale's isspace set, as
// C++ hosts' `trim` and JavaScript's String.prototype.trim agree on for ASCII).
std::string trim(std::string_view s, std::string_view chars = " \t\r\n\f\v");

// s with every non-overlapping `from` (left to right) replaced by `to`; s itself when `from` is
// empty.
std::string replace_all(std::string s, std::string_view from, std::string_view to);

// Appends code point `cp` as UTF-8 (1 to 4 bytes; the caller keeps cp <= 0x10FFFF).
void append_utf8(std::string& out, unsigned long cp);

}  // namespace pinta::text
