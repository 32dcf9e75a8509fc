// File: pinta/hosts/node/js.h
// JavaScript's own functions as Node.js runs them, for the hosts written in JavaScript (Gemini
// CLI, deel-local-cli): String.prototype.trim, JSON.stringify, JSON.parse, Buffer.toString('utf8'),
// new Date().toISOString(). Exact semantics, byte for byte: the emulators' payloads and the
// loaders' readings of a hook file depend on them. One implementation for both hosts.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pinta::hosts::node {

using ojson = nlohmann::ordered_json;

// String.prototype.trim.
std::string js_trim(std::string_view s);
// JSON.stringify (array-index keys first, Number formatting as JavaScript prints it).
std::string js_stringify(const ojson& v);
// An object as a JavaScript host builds it for JSON.stringify (property order is insertion
// order): the keys of `order` that `in` has, in that order, then the rest in `in`'s order.
ojson keys_first(const ojson& in, const std::vector<std::string>& order);
// JSON.stringify of one string held WTF-8 style (lone surrogates as ED A0..BF xx): the quoted text.
std::string js_quote(const std::string& wtf8);
// Buffer.toString('utf8'): the WHATWG decoder, U+FFFD per maximal subpart.
std::string node_utf8_decode(std::string_view bytes);
// JSON.parse; nullopt when JSON.parse would throw.
std::optional<ojson> js_parse(std::string_view text);
// ECMA-262 WhiteSpace + LineTerminator (what String.prototype.trim removes).
bool js_is_space_cp(unsigned long cp);
// new Date().toISOString(): ISO-8601 UTC with milliseconds and Z.
std::string now_iso8601();

}  // namespace pinta::hosts::node
