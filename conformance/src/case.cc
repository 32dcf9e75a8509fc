// Case schema, loader, canonical JSON and the generated case catalogue (docs/conformance-cases.md).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/conformance/conformance.h"
#include "pinta/conformance/matchers.h"

namespace pinta::conformance {
namespace fs = std::filesystem;

static const std::set<std::string> kAreas = {"OUT",    "EXIT",  "FMT", "INPUT", "GUARD", "OTLP",
                                             "REDACT", "TRACE", "ENV", "PERF",  "DEEL",  "CLAUDE"};
// Keys a case may carry; anything else is a typo and rejected.
static const std::set<std::string> kCaseKeys = {
    "id",     "area",       "title",      "requirement", "source",        "level",
    "hosts",  "xfail",      "event",      "agent",       "input",         "stdin",
    "env",    "env_file",   "guard",      "collector",   "steps",         "expect",
    "repeat", "timeout_ms", "extra_args", "notes",       "env_file_mode", "omit_event",
    "host_parent"};

bool Case::needs_fakes() const {
  if (raw.contains("guard") || raw.contains("collector")) return true;
  return false;
}

// Every message quotes values from the file; a control character in one ("level": "x\n") must not
// break the one-line error contract, so controls are shown escaped (fuzz/conformance_case
// regression value-with-newline-in-error).
static Error bad(const std::string& file, const std::string& what) {
  std::string line;
  for (unsigned char c : what) {
    if (c >= 0x20 && c != 0x7f) {
      line += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      line += buf;
    }
  }
  return make_error(ErrorCode::kInvalidArgument, file + ": " + line);
}

bool is_per_host(const json& v) {
  if (!v.is_object() || v.empty()) return false;
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string& k = it.key();
    if (k != "gemini" && k != "antigravity" &&
        std::find(all_hosts().begin(), all_hosts().end(), k) == all_hosts().end())
      return false;
  }
  return true;
}

std::vector<const json*> per_host_values(const json& v) {
  std::vector<const json*> out;
  if (is_per_host(v)) {
    for (auto it = v.begin(); it != v.end(); ++it) out.push_back(&it.value());
  } else {
    out.push_back(&v);
  }
  return out;
}

Result<Case> parse_case(const std::string& text, const std::string& file) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return bad(file, "not a JSON object");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!kCaseKeys.count(it.key())) return bad(file, "unknown field " + json(it.key()).dump());
  Case c;
  c.file = file;
  auto str = [&](const char* k, std::string& out) -> bool {
    if (!j.contains(k) || !j[k].is_string() || j[k].get<std::string>().empty()) return false;
    out = j[k].get<std::string>();
    return true;
  };
  for (const char* k : {"id", "area", "title", "requirement", "source", "level"}) {
    std::string v;
    if (!str(k, v)) return bad(file, std::string("missing or empty string field '") + k + "'");
  }
  str("id", c.id);
  str("area", c.area);
  str("title", c.title);
  str("requirement", c.requirement);
  str("source", c.source);
  str("level", c.level);
  if (!std::regex_match(c.id, std::regex("[A-Z]+-[0-9]{4}")))
    return bad(file, "id '" + c.id + "' is not AREA-NNNN");
  if (!kAreas.count(c.area)) return bad(file, "unknown area '" + c.area + "'");
  if (c.id.substr(0, c.id.find('-')) != c.area)
    return bad(file, "id '" + c.id + "' does not start with its area '" + c.area + "'");
  if (c.level != "must" && c.level != "should")
    return bad(file, "level must be 'must' or 'should', not '" + c.level + "'");
  if (j.contains("xfail")) {
    if (!j["xfail"].is_string()) return bad(file, "xfail must be a reason string");
    c.xfail = j["xfail"].get<std::string>();
  }
  // hosts: list of host names or the shorthands "all" and a family's name ("gemini",
  // "antigravity", "deel", "claude-code").
  if (!j.contains("hosts") || !j["hosts"].is_array() || j["hosts"].empty())
    return bad(file, "hosts must be a non-empty array");
  std::set<std::string> hs;
  for (const auto& h : j["hosts"]) {
    if (!h.is_string()) return bad(file, "hosts entries must be strings");
    std::string s = h.get<std::string>();
    if (s == "all") {
      // Every host of the JSON-line protocol (its family's ReplyReading); an exit-code host
      // (deel-local-cli, contract DEEL) or Claude Code (allow = no output) is named by its own
      // cases, and the JSON-line cases do not apply there.
      for (const auto& x : all_hosts())
        if (pinta::hosts::is_json_line_host(x)) hs.insert(x);
    } else if (auto fam = pinta::hosts::family_named(s); fam && s != "agy") {
      // A family: every graded host of it in the registry (each version profile is a host).
      for (const auto& x : pinta::hosts::hosts_of(*fam)) hs.insert(x);
    } else if (std::find(all_hosts().begin(), all_hosts().end(), s) != all_hosts().end()) {
      hs.insert(s);
    } else {
      return bad(file, "unknown host '" + s + "'");
    }
  }
  for (const auto& x : all_hosts())
    if (hs.count(x)) c.hosts.push_back(x);
  if (!j.contains("expect") || !j["expect"].is_object() || j["expect"].empty())
    return bad(file, "expect must be a non-empty object");
  // Expectations: the kinds of the matcher registry (pinta/conformance/matchers.h), each value
  // validated there; an unknown key or a value the runner would not test would be a check that
  // cannot fail.
  if (auto why = validate_expect(j["expect"], kInCaseExpect); !why.empty()) return bad(file, why);
  if (!j.contains("event") && !j.contains("steps")) return bad(file, "missing 'event'");
  if (j.contains("stdin")) {
    const auto& s = j["stdin"];
    if (!s.is_string() ||
        (s != "host" && s != "closed" && s != "open" && s != "dripped" && s != "none"))
      return bad(file, "stdin must be host|closed|open|dripped|none");
  }
  if (j.contains("steps") && (!j["steps"].is_array() || j["steps"].empty()))
    return bad(file, "steps must be a non-empty array");
  // host_parent: the argv of a process the host's hook command runs under (the adapter's
  // ancestors look like e.g. `agy -p`); one list, or one per host.
  if (j.contains("host_parent"))
    for (const json* v : per_host_values(j["host_parent"]))
      if (!v->is_array() || v->empty() || v->size() > 16 ||
          !std::all_of(v->begin(), v->end(), [](const json& a) {
            return a.is_string() && !a.get<std::string>().empty() &&
                   a.get<std::string>().find('\0') == std::string::npos;
          }))
        return bad(file, "host_parent must be a non-empty array of non-empty strings");
  // A step's expect holds per-run kinds only: a whole-case check there would never be evaluated.
  if (j.contains("steps"))
    for (size_t i = 0; i < j["steps"].size(); ++i) {
      const json& st = j["steps"][i];
      if (!st.is_object() || !st.contains("expect")) continue;
      const std::string at = c.id + ": steps[" + std::to_string(i) + "]";
      if (!st["expect"].is_object()) return bad(file, at + ".expect must be an object");
      if (auto why = validate_expect(st["expect"], kInStepExpect); !why.empty())
        return bad(file, at + (why.rfind("expect.", 0) == 0 ? "." : ": ") + why);
    }
  c.raw = std::move(j);
  return c;
}

Result<std::vector<Case>> load_cases(const std::string& dir) {
  std::vector<Case> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return make_error(ErrorCode::kNotFound, "cases directory not found: " + dir);
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string p = it->path().string();
    if (it->is_regular_file() && p.size() > 10 && p.ends_with(".case.json")) files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  std::set<std::string> ids;
  for (const auto& f : files) {
    auto text = pinta::fs::read_file(f);
    if (!text) return make_error(ErrorCode::kIo, f + ": " + text.error().message);
    auto c = parse_case(*text, f);
    if (!c) return c.error();
    if (fs::path(f).filename().string() != c->id + ".case.json")
      return bad(f, "file name must be " + c->id + ".case.json");
    if (fs::path(f).parent_path().filename().string() != c->area)
      return bad(f, "case must live in cases/" + c->area + "/");
    if (!ids.insert(c->id).second) return bad(f, "duplicate id " + c->id);
    out.push_back(std::move(*c));
  }
  std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.id < b.id; });
  return out;
}

std::string canonical(const json& j) { return j.dump(); }  // nlohmann::json keeps keys sorted

std::string json_diff(const json& expected, const json& actual) {
  auto lines = [](const json& j) {
    std::vector<std::string> v;
    std::istringstream in(j.dump(2));
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
  };
  auto a = lines(expected), b = lines(actual);
  // LCS diff; replies are small.
  size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> L(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t k = m; k-- > 0;)
      L[i][k] = a[i] == b[k] ? L[i + 1][k + 1] + 1 : std::max(L[i + 1][k], L[i][k + 1]);
  std::string out;
  size_t i = 0, k = 0;
  while (i < n || k < m) {
    if (i < n && k < m && a[i] == b[k]) {
      out += "    " + a[i] + "\n";
      ++i, ++k;
    } else if (k < m && (i == n || L[i][k + 1] >= L[i + 1][k])) {
      out += "  + " + b[k++] + "\n";
    } else {
      out += "  - " + a[i++] + "\n";
    }
  }
  return out;
}

static std::string md_cell(std::string s) {
  std::string o;
  for (char ch : s) {
    if (ch == '|')
      o += "\\|";
    else if (ch == '\n')
      o += ' ';
    else
      o += ch;
  }
  return o;
}

std::string render_cases_doc(const std::vector<Case>& cases) {
  std::ostringstream o;
  o << "# Conformance cases\n\n"
       "<!-- GENERATED by `conformance docs` from conformance/cases/**/*.case.json; do not edit. "
       "The ctest entry conformance_docs_fresh fails when this file is stale. -->\n\n"
       "Each case checks one requirement of the hook-adapter contract (docs/contract.md; the ID "
       "prefix is the contract section). `must` cases decide the exit status of `conformance run`; "
       "`should` cases only with `--strict`. Hosts are the host registry's (`hosts/`): "
       "`gemini-0.XX` a Gemini CLI version profile (`hosts/gemini/profiles`), `deel-1.17` "
       "deel-local-cli 1.17, `claude-code-2.1` Claude Code 2.1, the others Antigravity profiles "
       "(`hosts/antigravity/profiles`).\n\n";
  std::map<std::string, int> per_area;
  for (const auto& c : cases) per_area[c.area]++;
  o << "| Area | Cases |\n|---|---|\n";
  for (const auto& [a, n] : per_area) o << "| " << a << " | " << n << " |\n";
  o << "\nTotal: " << cases.size() << " cases.\n";
  std::string area;
  for (const auto& c : cases) {
    if (c.area != area) {
      area = c.area;
      o << "\n## " << area
        << "\n\n| ID | Level | Hosts | Requirement | Source |\n|---|---|---|---|---|\n";
    }
    std::string hosts;
    if (c.hosts.size() == all_hosts().size())
      hosts = "all";
    else
      for (const auto& h : c.hosts) hosts += (hosts.empty() ? "" : ", ") + h;
    o << "| " << c.id << " | " << c.level << (c.xfail ? " (xfail)" : "") << " | " << hosts << " | "
      << md_cell(c.requirement) << " | " << md_cell(c.source) << " |\n";
  }
  return o.str();
}

}  // namespace pinta::conformance
