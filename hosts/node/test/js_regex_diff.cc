// js_regex_diff: reads the JSONL of fuzz/js_regex/oracle.mjs (Node's answers) on stdin, runs
// every pattern and subject through pinta::hosts::node::JsRegExp, and prints each difference as
// one JSON line; the last line is a summary. Exit 0 when no difference is left unexplained,
// 1 otherwise, 2 on bad input. A difference is "explained" when the pattern has a construct
// docs/fuzzing.md lists as beyond this engine (see known_cause()).
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "pinta/common/version.h"
#include "pinta/hosts/node/js_regex.h"

namespace {

using pinta::hosts::node::JsRegExp;

// The small JSON subset the oracle writes: objects, arrays, strings (to UTF-16 code units, lone
// surrogate escapes kept), true/false.
struct Value {
  enum Kind { kNull, kBool, kString, kArray, kObject } kind = kNull;
  bool b = false;
  std::u16string s;
  std::vector<Value> items;
  std::map<std::string, Value> fields;
};

struct Parser {
  const std::string& t;
  size_t i = 0;
  bool ok = true;
  void ws() {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n')) ++i;
  }
  Value value() {
    ws();
    Value v;
    if (i >= t.size()) return ok = false, v;
    char c = t[i];
    if (c == '"') {
      v.kind = Value::kString;
      v.s = str();
    } else if (c == '[') {
      v.kind = Value::kArray;
      ++i;
      ws();
      if (i < t.size() && t[i] == ']') return ++i, v;
      for (;;) {
        v.items.push_back(value());
        ws();
        if (i < t.size() && t[i] == ',') { ++i; continue; }
        if (i < t.size() && t[i] == ']') { ++i; break; }
        return ok = false, v;
      }
    } else if (c == '{') {
      v.kind = Value::kObject;
      ++i;
      ws();
      if (i < t.size() && t[i] == '}') return ++i, v;
      for (;;) {
        ws();
        std::u16string k = str();
        std::string key(k.begin(), k.end());
        ws();
        if (i >= t.size() || t[i] != ':') return ok = false, v;
        ++i;
        v.fields[key] = value();
        ws();
        if (i < t.size() && t[i] == ',') { ++i; continue; }
        if (i < t.size() && t[i] == '}') { ++i; break; }
        return ok = false, v;
      }
    } else if (t.compare(i, 4, "true") == 0) {
      v.kind = Value::kBool, v.b = true, i += 4;
    } else if (t.compare(i, 5, "false") == 0) {
      v.kind = Value::kBool, i += 5;
    } else {
      ok = false;
    }
    return v;
  }
  std::u16string str() {
    std::u16string out;
    if (i >= t.size() || t[i] != '"') return ok = false, out;
    ++i;
    std::string raw;
    auto flush = [&] {
      out += pinta::hosts::node::utf16_units(raw);
      raw.clear();
    };
    while (i < t.size() && t[i] != '"') {
      if (t[i] == '\\' && i + 1 < t.size()) {
        flush();
        char e = t[i + 1];
        i += 2;
        switch (e) {
          case 'n': out += u'\n'; break;
          case 'r': out += u'\r'; break;
          case 't': out += u'\t'; break;
          case 'b': out += u'\b'; break;
          case 'f': out += u'\f'; break;
          case 'u': {
            out += static_cast<char16_t>(std::stoul(t.substr(i, 4), nullptr, 16));
            i += 4;
            break;
          }
          default: out += static_cast<char16_t>(e);
        }
        continue;
      }
      raw += t[i++];
    }
    flush();
    ++i;
    return out;
  }
};

std::string utf8(const std::u16string& s) {
  std::string out;
  for (char16_t c : s) {
    if (c < 0x80) {
      if (c == '"' || c == '\\') out += '\\';
      if (c < 0x20) {
        char b[8];
        std::snprintf(b, sizeof b, "\\u%04x", static_cast<unsigned>(c));
        out += b;
      } else {
        out += static_cast<char>(c);
      }
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", static_cast<unsigned>(c));
      out += b;
    }
  }
  return out;
}

// A construct beyond this engine, by docs/fuzzing.md's list, or "" when none applies.
std::string known_cause(const std::u16string& p) {
  // Scan, skipping classes: a back-reference (\1-\9 or \k<) together with a repeated group
  // (JS clears a repeated group's captures on each iteration; PCRE2 keeps the last iteration's)
  // or a lookbehind (JS matches it right to left, or its variable-length body runs apart).
  bool backref = false, repeated_group = false, lookbehind = false;
  for (size_t i = 0; i < p.size(); ++i) {
    char16_t c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      char16_t e = p[i + 1];
      if ((e >= '1' && e <= '9') || (e == 'k' && i + 2 < p.size() && p[i + 2] == '<')) backref = true;
      ++i;
      continue;
    }
    if (c == '[') {
      for (++i; i < p.size() && p[i] != ']'; ++i)
        if (p[i] == '\\') ++i;
      continue;
    }
    if (c == '(' && p.compare(i, 4, u"(?<=") == 0) lookbehind = true;
    if (c == '(' && p.compare(i, 4, u"(?<!") == 0) lookbehind = true;
    if (c == ')' && i + 1 < p.size() &&
        (p[i + 1] == '*' || p[i + 1] == '+' || p[i + 1] == '?' || p[i + 1] == '{'))
      repeated_group = true;
  }
  if (backref && lookbehind) return "lookbehind-backreference";
  if (backref && repeated_group) return "capture-reset";
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  if (int rc = pinta::answer_version_or_help(
          argc, argv, "js_regex_diff",
          "usage: node fuzz/js_regex/oracle.mjs ... | js_regex_diff\n"
          "Reads the oracle's JSONL (Node's answers) on stdin, runs every pattern and subject\n"
          "through this project's JavaScript RegExp engine and prints each difference as one JSON\n"
          "line, then a summary line. fuzz/js_regex/run.sh runs the whole comparison.\n"
          "Exit status: 0 no unexplained difference, 1 some, 2 bad input.\n");
      rc >= 0)
    return rc;
  if (argc > 1) {
    std::cerr << "js_regex_diff: unexpected argument " << argv[1] << " (it reads stdin; --help)\n";
    return 2;
  }
  std::string line;
  long patterns = 0, pairs = 0, ctor = 0, matches = 0, unexplained = 0;
  std::map<std::string, long> explained;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    Parser ps{line};
    Value v = ps.value();
    if (!ps.ok || v.kind != Value::kObject) {
      std::cerr << "js_regex_diff: line " << patterns + 1 << " is not an oracle record\n";
      return 2;
    }
    ++patterns;
    const std::u16string& p = v.fields["p"].s;
    const bool node_ok = v.fields["ok"].b;
    std::string err;
    auto re = JsRegExp::compile(p, &err);
    const auto& subjects = v.fields["s"].items;
    const auto& node_m = v.fields["m"].items;
    pairs += static_cast<long>(subjects.size());
    auto report = [&](const std::string& what) {
      const std::string cause = known_cause(p);
      if (cause.empty())
        ++unexplained;
      else
        ++explained[cause];
      std::cout << "{\"p\":\"" << utf8(p) << "\",\"diff\":\"" << utf8(std::u16string(what.begin(), what.end()))
                << "\",\"cause\":\"" << (cause.empty() ? "UNEXPLAINED" : cause) << "\"}\n";
    };
    if (node_ok != (re != nullptr)) {
      ++ctor;
      report(node_ok ? "engine throws: " + err : "Node throws, engine compiles");
      continue;
    }
    if (!re) continue;
    for (size_t k = 0; k < subjects.size() && k < node_m.size(); ++k) {
      const bool mine = re->test(subjects[k].s);
      if (mine != node_m[k].b) {
        ++matches;
        report("subject \"" + utf8(subjects[k].s) + "\": Node " + (node_m[k].b ? "true" : "false"));
      }
    }
  }
  std::cout << "{\"summary\":{\"patterns\":" << patterns << ",\"pairs\":" << pairs
            << ",\"constructor_differences\":" << ctor << ",\"match_differences\":" << matches
            << ",\"unexplained\":" << unexplained << ",\"explained\":{";
  bool first = true;
  for (const auto& [k, n] : explained) {
    std::cout << (first ? "" : ",") << "\"" << k << "\":" << n;
    first = false;
  }
  std::cout << "}}}\n";
  return unexplained ? 1 : 0;
}
