// File: pinta/adapter/bounded_json.h
// Parsing a payload the model helped write, without letting its shape decide whether the guard is
// asked (docs/contract.md GUARD-14). Nesting deeper than a cap is cut and replaced by a marker
// instead of refusing the payload; a prefix (the input cap was hit, the host stopped early) still
// yields the members that arrived whole; invalid UTF-8 is repaired to U+FFFD.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace pinta::adapter {

// The key of the marker object that stands where something was cut: {"…truncated": n}, n = how
// many values were left out there (a cut container counts itself and everything in it).
inline constexpr const char* kTruncatedKey = "\xE2\x80\xA6truncated";

struct BoundedParse {
  nlohmann::json value;     // the top-level value as far as it could be read (null if nothing)
  bool complete = false;    // the whole text was one JSON value and nothing but whitespace after it
  size_t cut_values = 0;    // values left out below max_depth (each cut leaves one marker)
};

// How many values (scalars and containers) a payload's DOM holds at most: about 100 MB of nodes at
// worst, whatever the input (32 MiB of `0,` would otherwise be 16 M values).
inline constexpr size_t kMaxPayloadValues = size_t{1} << 20;

// SAX parse of `text` into a DOM no deeper than `max_depth` (the top-level container is level 1):
// a container that would open at level max_depth + 1 becomes {"…truncated": n} there (the only
// object at that level, holding only the count). Once `max_values` values are built, the rest of
// each open container is left out and one marker closes it (last element, or the key
// "…truncated"), so memory is bounded too. On a syntax error
// or at the end of a prefix, `value` holds every member and element completed before that point
// (open containers stay, with what they had) and `complete` is false. Work is linear in the text.
BoundedParse parse_bounded(std::string_view text, int max_depth,
                           size_t max_values = kMaxPayloadValues);

// Finishes a JSON text that stops part-way (the input cap, EOF or a deadline inside the object) so
// that it parses with what it had: an open string is closed after "…[truncated]" (a half escape or
// half UTF-8 sequence at its end dropped), a number or literal cut short is dropped, a key without
// its value gets null, a trailing comma goes, and every open container is closed. So a huge
// argument cut by the input cap still reaches the guard with its start (GUARD-14). Returns whether
// the text changed (false for a complete value or text that never opened a container). Linear.
bool complete_prefix(std::string& text);

// Turns every bare token outside strings that is not JSON (NaN, Infinity, -Infinity, undefined, a
// number no double holds such as 1e400, stray words) into a JSON string of itself, so that a
// parser reads past it instead of stopping there: Python's json.dumps writes NaN and Infinity by
// default, and the model can put such a token in a tool argument. Valid tokens are untouched.
// Returns whether anything changed. Linear.
bool quote_bare_tokens(std::string& text);

// Replaces every byte sequence that is not well-formed UTF-8 (RFC 3629: no overlongs, no
// surrogates, nothing over U+10FFFF, no truncated sequence) with U+FFFD. Returns whether anything
// changed. Linear; touches nothing when the text is already valid.
bool repair_utf8(std::string& text);

}  // namespace pinta::adapter
