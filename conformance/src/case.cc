// Case schema, loader, canonical JSON and the generated case catalogue (docs/conformance-cases.md).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/conformance/case_docs.h"
#include "pinta/conformance/conformance.h"
#include "pinta/conformance/features.h"
#include "pinta/conformance/matchers.h"

namespace pinta::conformance {
namespace fs = std::filesystem;

// The shared areas (docs/contract.md sections). A family's own area is its folder in capitals
// (DEEL, CLAUDE, …: family_area), so a new family brings its area with its registry line.
static const std::set<std::string> kAreas = {"OUT",   "EXIT",   "FMT",   "INPUT", "GUARD",
                                             "OTLP",  "REDACT", "TRACE", "ENV",   "PERF"};
// Keys a case may carry; anything else is a typo and rejected.
static const std::set<std::string> kCaseKeys = {
    "id",         "area",        "title",      "requirement", "source",   "level",
    "xfail",      "event",       "agent",      "input",       "stdin",    "requires",
    "family",     "hosts",       "env",        "env_file",    "guard",    "collector",
    "steps",      "expect",      "repeat",     "timeout_ms",  "extra_args", "notes",
    "env_file_mode", "omit_event", "host_parent", "one_host_per_family"};

bool is_area(const std::string& area) {
  if (kAreas.count(area)) return true;
  for (const auto& d : pinta::hosts::families())
    if (family_area(d) == area) return true;
  return false;
}

std::string family_area(const pinta::hosts::FamilyDescriptor& d) {
  std::string a(d.folder);
  for (char& ch : a) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return a;
}

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

// A key of a per-host value: a family's name, a host's, or "*" (every other host: the shared value
// a family's own value was merged over, see merge_family_value).
static bool host_key(const std::string& k) {
  if (k == "*") return true;
  for (const auto& d : pinta::hosts::families())
    if (d.name == k) return true;
  return std::find(all_hosts().begin(), all_hosts().end(), k) != all_hosts().end();
}

bool is_per_host(const json& v) {
  if (!v.is_object() || v.empty()) return false;
  for (auto it = v.begin(); it != v.end(); ++it)
    if (!host_key(it.key())) return false;
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

namespace {

const pinta::hosts::FamilyDescriptor* family_descriptor(const std::string& name) {
  for (const auto& d : pinta::hosts::families())
    if (d.name == name) return &d;
  return nullptr;
}

// The first per-host value in a shared case (its path), or "": a shared case states meaning,
// and a family's own values live in cases/<family>/shared-cases.json.
std::string per_host_path(const json& v, const std::string& at) {
  if (is_per_host(v)) return at;
  if (v.is_object())
    for (auto it = v.begin(); it != v.end(); ++it)
      if (auto p = per_host_path(it.value(), at + "." + it.key()); !p.empty()) return p;
  if (v.is_array())
    for (size_t i = 0; i < v.size(); ++i)
      if (auto p = per_host_path(v[i], at + "[" + std::to_string(i) + "]"); !p.empty()) return p;
  return "";
}

// A shared case's event: a role (pinta/conformance/features.h) whose feature the case requires;
// "" or why not.
std::string check_role(const json& ev, const std::vector<std::string>& required, bool top,
                       bool has_steps, const std::string& at) {
  if (!ev.is_string()) return at + " must be an event role";
  const EventRole* r = find_event_role(ev.get<std::string>());
  if (!r) {
    std::string roles;
    for (const auto& x : event_roles()) roles += (roles.empty() ? "" : "|") + std::string(x.name);
    return at + " " + ev.dump() + " is not an event role (" + roles +
           "); a literal event belongs in a family case (cases/<family>/<AREA>/)";
  }
  if (!r->feature.empty() &&
      std::find(required.begin(), required.end(), r->feature) == required.end())
    return at + " " + ev.dump() + " needs \"requires\" to hold \"" + std::string(r->feature) + "\"";
  if (r->many && (!top || has_steps))
    return at + " " + ev.dump() + " is a sequence of events: the case's own event, without steps";
  return "";
}

// The rules of a shared case (one without "family"): it is in a shared area, requires features,
// names no host and no per-host value, and its events are roles. "" or what is wrong.
std::string check_shared_case(const json& j, const Case& c,
                              const pinta::hosts::FamilyDescriptor* area_family) {
  if (area_family)
    return "area " + c.area + " is family " + std::string(area_family->name) +
           "'s: a shared case belongs to a shared area";
  if (j.contains("hosts"))
    return "hosts: only a family case names hosts (a shared case requires features)";
  if (!j.contains("requires"))
    return "a shared case needs \"requires\" (features; [] for every family), a "
           "family case \"family\"";
  if (auto p = per_host_path(j, ""); !p.empty())
    return "per-host value at " + p.substr(1) +
           " in a shared case: state it by meaning, and a family's own value in "
           "cases/<family>/shared-cases.json";
  const bool steps = j.contains("steps") && j["steps"].is_array();
  if (j.contains("event"))
    if (auto why = check_role(j["event"], c.required, true, steps, "event"); !why.empty())
      return why;
  if (steps)
    for (size_t i = 0; i < j["steps"].size(); ++i)
      if (j["steps"][i].is_object() && j["steps"][i].contains("event"))
        if (auto why = check_role(j["steps"][i]["event"], c.required, false, true,
                                  "steps[" + std::to_string(i) + "].event");
            !why.empty())
          return why;
  return "";
}

// The case's hosts: its family's (all, or those of "hosts") or every graded host with the
// features it requires. "" or what is wrong.
std::string select_hosts(const json& j, const pinta::hosts::FamilyDescriptor* fam, Case& c) {
  // A family case may keep to some of its family's hosts (a reproducer of one host's finding).
  std::set<std::string> only;
  if (fam && j.contains("hosts")) {
    if (!j["hosts"].is_array() || j["hosts"].empty())
      return "hosts must be a non-empty array";
    for (const auto& h : j["hosts"]) {
      if (!h.is_string() || family_of(h.get<std::string>()) != c.family ||
          std::find(all_hosts().begin(), all_hosts().end(), h.get<std::string>()) ==
              all_hosts().end())
        return "unknown host " + h.dump() + " of family " + c.family;
      only.insert(h.get<std::string>());
    }
  }
  if (j.contains("one_host_per_family") && !j["one_host_per_family"].is_boolean())
    return "one_host_per_family must be true or false";
  const bool one_each = j.value("one_host_per_family", false);
  for (const auto& h : all_hosts()) {
    const auto hf = pinta::hosts::host_family(h);
    if (!hf) continue;
    const auto& d = pinta::hosts::descriptor(*hf);
    if (fam ? d.id != fam->id : !has_features(d, c.required)) continue;
    if (!only.empty() && !only.count(h)) continue;
    // One host per family: its newest graded one (the last in report order).
    if (one_each && !c.hosts.empty() && pinta::hosts::host_family(c.hosts.back()) == hf)
      c.hosts.back() = h;
    else
      c.hosts.push_back(h);
  }
  if (c.hosts.empty()) return "no graded host has the features the case requires";
  return "";
}

// What a run of the case needs: expectations, an event or steps, and well-formed run options.
// "" or what is wrong.
std::string check_run_fields(const json& j, const Case& c) {
  if (!j.contains("expect") || !j["expect"].is_object() || j["expect"].empty())
    return "expect must be a non-empty object";
  // Expectations: the kinds of the matcher registry (pinta/conformance/matchers.h), each value
  // validated there; an unknown key or a value the runner would not test would be a check that
  // cannot fail.
  if (auto why = validate_expect(j["expect"], kInCaseExpect); !why.empty()) return why;
  if (!j.contains("event") && !j.contains("steps")) return "missing 'event'";
  if (j.contains("stdin")) {
    const auto& s = j["stdin"];
    if (!s.is_string() ||
        (s != "host" && s != "closed" && s != "open" && s != "dripped" && s != "none"))
      return "stdin must be host|closed|open|dripped|none";
  }
  if (j.contains("steps") && (!j["steps"].is_array() || j["steps"].empty()))
    return "steps must be a non-empty array";
  // host_parent: the argv of a process the host's hook command runs under (the adapter's
  // ancestors look like e.g. `agy -p`); one list, or one per host.
  if (j.contains("host_parent"))
    for (const json* v : per_host_values(j["host_parent"]))
      if (!v->is_array() || v->empty() || v->size() > 16 ||
          !std::all_of(v->begin(), v->end(), [](const json& a) {
            return a.is_string() && !a.get<std::string>().empty() &&
                   a.get<std::string>().find('\0') == std::string::npos;
          }))
        return "host_parent must be a non-empty array of non-empty strings";
  // A step's expect holds per-run kinds only: a whole-case check there would never be evaluated.
  if (j.contains("steps"))
    for (size_t i = 0; i < j["steps"].size(); ++i) {
      const json& st = j["steps"][i];
      if (!st.is_object() || !st.contains("expect")) continue;
      const std::string at = c.id + ": steps[" + std::to_string(i) + "]";
      if (!st["expect"].is_object()) return at + ".expect must be an object";
      if (auto why = validate_expect(st["expect"], kInStepExpect); !why.empty())
        return at + (why.rfind("expect.", 0) == 0 ? "." : ": ") + why;
    }
  return "";
}

}  // namespace

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
  const pinta::hosts::FamilyDescriptor* area_family = nullptr;
  for (const auto& d : pinta::hosts::families())
    if (family_area(d) == c.area) area_family = &d;
  if (!kAreas.count(c.area) && !area_family) return bad(file, "unknown area '" + c.area + "'");
  if (c.id.substr(0, c.id.find('-')) != c.area)
    return bad(file, "id '" + c.id + "' does not start with its area '" + c.area + "'");
  if (c.level != "must" && c.level != "should")
    return bad(file, "level must be 'must' or 'should', not '" + c.level + "'");
  if (j.contains("xfail")) {
    if (!j["xfail"].is_string()) return bad(file, "xfail must be a reason string");
    c.xfail = j["xfail"].get<std::string>();
  }
  // Which hosts: a shared case by the features it requires, a family case by its family.
  if (j.contains("requires")) {
    if (!j["requires"].is_array()) return bad(file, "requires must be an array of features");
    for (const auto& f : j["requires"]) {
      if (!f.is_string()) return bad(file, "requires entries must be strings");
      if (!find_feature(f.get<std::string>())) {
        std::string names;
        for (const auto& x : features()) names += (names.empty() ? "" : "|") + std::string(x.name);
        return bad(file, "unknown feature " + f.dump() + " in requires (" + names + ")");
      }
      c.required.push_back(f.get<std::string>());
    }
  }
  const pinta::hosts::FamilyDescriptor* fam = nullptr;
  if (j.contains("family")) {
    if (!j["family"].is_string() || !(fam = family_descriptor(j["family"].get<std::string>())))
      return bad(file,
                 "family must name a registered family (" + pinta::hosts::family_names() + ")");
    c.family = j["family"].get<std::string>();
    if (!has_features(*fam, c.required))
      return bad(file, "family " + c.family + " lacks a feature the case requires");
    if (area_family && area_family != fam)
      return bad(file, "area " + c.area + " is family " + std::string(area_family->name) +
                           "'s: the case must say \"family\": \"" +
                           std::string(area_family->name) + "\"");
  } else if (auto why = check_shared_case(j, c, area_family); !why.empty()) {
    return bad(file, why);
  }
  if (auto why = select_hosts(j, fam, c); !why.empty()) return bad(file, why);
  if (auto why = check_run_fields(j, c); !why.empty()) return bad(file, why);
  c.raw = std::move(j);
  return c;
}

namespace {

// Collector kinds whose value is a map of names: a family's map is merged over the shared one.
bool merges_by_name(const std::string& key) { return key == "attributes" || key == "resource"; }

// Puts `family`'s own value for obj[key] beside the shared one: obj[key] becomes per host, the
// family's value under its name and the shared one under "*" (pinta::conformance::detail::pick).
// "" or why not.
std::string merge_family_value(json& obj, const std::string& key, const std::string& family,
                               const json& v) {
  if (!obj.contains(key)) {
    obj[key] = json::object({{family, v}});
    return "";
  }
  json& cur = obj[key];
  // A shared case holds no per-host value (parse_case), so one here is an earlier family's merge.
  const bool overlaid = is_per_host(cur);
  const json shared = overlaid ? cur.value("*", json()) : cur;
  if (overlaid && cur.contains(family)) return key + " is given twice for " + family;
  json mine = v;
  // A family's own payload ("input") replaces the shared one, which states it by meaning for
  // every other family; any other value stated twice would leave one of the two unchecked.
  if (!shared.is_null() && key != "input") {
    if (!merges_by_name(key) || !shared.is_object() || !v.is_object())
      return key + " is stated by the shared case already";
    for (auto it = shared.begin(); it != shared.end(); ++it) {
      if (v.contains(it.key()))
        return key + "." + it.key() + " is stated by the shared case already";
      mine[it.key()] = it.value();
    }
  }
  if (!overlaid) cur = json::object({{"*", shared}});
  cur[family] = std::move(mine);
  return "";
}

// cases/<family>/shared-cases.json: the family's own values for shared cases (its byte-exact
// replies and effects, its payloads), by case id: {"GUARD-0001": {"expect": {...}, "input": ...}}.
Status merge_family_file(const std::string& file, const std::string& family,
                         std::vector<Case>& cases) {
  auto text = pinta::fs::read_file(file);
  if (!text) return make_error(ErrorCode::kIo, file + ": " + text.error().message);
  json j = json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return bad(file, "not a JSON object");
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& id = it.key();
    const json& e = it.value();
    auto c = std::find_if(cases.begin(), cases.end(), [&](const Case& x) { return x.id == id; });
    if (c == cases.end()) return bad(file, "no case " + json(id).dump());
    if (!c->family.empty()) return bad(file, id + " is a family case: its values belong in it");
    if (std::none_of(c->hosts.begin(), c->hosts.end(),
                     [&](const std::string& h) { return family_of(h) == family; }))
      return bad(file, id + " does not run under " + family + " (its requires)");
    if (!e.is_object() || e.empty()) return bad(file, id + " must be a non-empty object");
    for (auto k = e.begin(); k != e.end(); ++k)
      if (k.key() != "expect" && k.key() != "input")
        return bad(file, id + ": unknown field " + json(k.key()).dump() + " (expect, input)");
    if (e.contains("input")) {
      if (!e["input"].is_object()) return bad(file, id + ".input must be an object");
      if (auto why = merge_family_value(c->raw, "input", family, e["input"]); !why.empty())
        return bad(file, id + ": " + why);
    }
    if (!e.contains("expect")) continue;
    const json& x = e["expect"];
    if (!x.is_object() || x.empty()) return bad(file, id + ".expect must be a non-empty object");
    if (auto why = validate_expect(x, kInCaseExpect); !why.empty())
      return bad(file, id + ": " + why);
    json& expect = c->raw["expect"];
    for (auto k = x.begin(); k != x.end(); ++k) {
      std::string why;
      if (k.key() == "collector") {
        if (!expect.contains("collector")) expect["collector"] = json::object();
        for (auto s = k.value().begin(); s != k.value().end() && why.empty(); ++s)
          why = merge_family_value(expect["collector"], s.key(), family, s.value());
      } else {
        why = merge_family_value(expect, k.key(), family, k.value());
      }
      if (!why.empty()) return bad(file, id + ": expect." + why);
    }
    c->family_values.push_back(family);
  }
  return {};
}

}  // namespace

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
    // Where a case lives says what it is: cases/<AREA>/ a shared case, cases/<family>/<AREA>/
    // one family's case (docs/contract.md "How cases select hosts").
    const std::string up = fs::path(f).parent_path().parent_path().filename().string();
    // The suite's own family cases all live in their family's folder (ctest
    // conformance_case_test); a user's directory (a campaign reproducer) may be flat.
    const bool in_family_dir = family_descriptor(up) != nullptr;
    if (in_family_dir && c->family != up)
      return bad(f, "a case in cases/" + up + "/ must name \"family\": \"" + up + "\"");
    if (!ids.insert(c->id).second) return bad(f, "duplicate id " + c->id);
    out.push_back(std::move(*c));
  }
  std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.id < b.id; });
  for (const auto& d : pinta::hosts::families()) {
    const std::string file = (fs::path(dir) / d.name / "shared-cases.json").string();
    if (!fs::exists(file, ec)) continue;
    if (auto st = merge_family_file(file, std::string(d.name), out); !st) return st.error();
  }
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

namespace {

constexpr const char* kGenerated =
    "<!-- GENERATED by `conformance docs` from conformance/cases/**/*.case.json; do not edit. "
    "The ctest entry conformance_docs_fresh fails when this file is stale. -->\n\n";

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The hosts of one family a case runs under.
std::vector<std::string> family_hosts(const std::vector<std::string>& hosts,
                                      const pinta::hosts::FamilyDescriptor& d) {
  std::vector<std::string> out;
  for (const auto& h : hosts)
    if (pinta::hosts::host_family(h) == d.id) out.push_back(h);
  return out;
}

}  // namespace

// The shared cases: what each requires and checks. Which hosts grade them, and each family's own
// cases, are the family pages' (render_family_cases_doc), so a new family changes nothing here.
std::string render_cases_doc(const std::vector<Case>& cases) {
  std::ostringstream o;
  o << "# Conformance cases\n\n" << kGenerated
    << "Each case checks one requirement of the hook-adapter contract (docs/contract.md; the ID "
       "prefix is the contract section). `must` cases decide the exit status of `conformance run`; "
       "`should` cases only with `--strict`. A shared case (`conformance/cases/<AREA>/`, listed "
       "here) runs under every host whose family has the features it requires (below; "
       "docs/contract.md \"How cases select hosts\"), a family's own case "
       "(`conformance/cases/<family>/<AREA>/`) under that family's hosts. Hosts are the host "
       "registry's (`hosts/`; a family's version profiles are in `hosts/<folder>/profiles`). "
       "Each registered family has its page, generated with this one: "
       "`docs/conformance-cases/<folder>.md`, its hosts, its own cases and the hosts that grade "
       "each shared case.\n\n";
  std::map<std::string, int> per_area;
  size_t shared = 0;
  for (const auto& c : cases)
    if (c.family.empty()) per_area[c.area]++, shared++;
  o << "| Area | Cases |\n|---|---|\n";
  for (const auto& [a, n] : per_area) o << "| " << a << " | " << n << " |\n";
  o << "\nTotal: " << shared << " shared cases.\n";
  o << "\nFeatures a shared case may require, each computed from the family descriptor "
       "(`conformance/src/features.cc`):\n\n| Feature | Meaning |\n|---|---|\n";
  for (const auto& f : features())
    o << "| `" << f.name << "` | " << md_cell(std::string(f.meaning)) << " |\n";
  o << "\nEvents a shared case names by meaning:\n\n"
       "| Event | Meaning | Requires |\n|---|---|---|\n";
  for (const auto& r : event_roles())
    o << "| `" << r.name << "` | " << md_cell(std::string(r.meaning)) << " | "
      << (r.feature.empty() ? std::string("-") : "`" + std::string(r.feature) + "`") << " |\n";
  std::string area;
  for (const auto& c : cases) {
    if (!c.family.empty()) continue;
    if (c.area != area) {
      area = c.area;
      o << "\n## " << area
        << "\n\n| ID | Level | Selects | Requirement | Source |\n|---|---|---|---|---|\n";
    }
    std::string sel = c.required.empty() ? "every family" : "requires " + joined(c.required);
    if (!c.family_values.empty()) sel += "; families' own values";
    o << "| " << c.id << " | " << c.level << (c.xfail ? " (xfail)" : "") << " | " << sel << " | "
      << md_cell(c.requirement) << " | " << md_cell(c.source) << " |\n";
  }
  return o.str();
}

// One family's page: its hosts, its own cases in full, and the hosts of it each shared case runs
// under (the requirement is the shared page's).
std::string render_family_cases_doc(const std::vector<Case>& cases,
                                    const pinta::hosts::FamilyDescriptor& d) {
  const std::string name(d.name);
  std::ostringstream o;
  o << "# Conformance cases: " << d.display_name << "\n\n" << kGenerated;
  std::vector<std::string> hosts = family_hosts(all_hosts(), d);
  o << "The cases " << d.display_name << " (`" << name << "`) is graded by. Its hosts, from the "
    << "host registry: " << (hosts.empty() ? "none" : "`" + joined(hosts) + "`")
    << ". Its own cases live in `conformance/cases/" << name << "/`; the shared cases "
    << "(docs/conformance-cases.md, with their requirements) run under its hosts when its "
    << "descriptor has the features they require, with its own values where "
    << "`conformance/cases/" << name << "/shared-cases.json` gives them.\n";
  std::string area;
  size_t own = 0;
  for (const auto& c : cases) {
    if (c.family != name) continue;
    ++own;
    if (c.area != area) {
      area = c.area;
      o << "\n## " << area
        << "\n\n| ID | Level | Hosts | Requirement | Source |\n|---|---|---|---|---|\n";
    }
    o << "| " << c.id << " | " << c.level << (c.xfail ? " (xfail)" : "") << " | "
      << joined(family_hosts(c.hosts, d)) << " | " << md_cell(c.requirement) << " | "
      << md_cell(c.source) << " |\n";
  }
  if (own == 0) o << "\nNo own cases.\n";
  o << "\n## Shared cases\n\n| ID | Level | Hosts | Values |\n|---|---|---|---|\n";
  std::vector<std::string> skipped;
  size_t graded = 0;
  for (const auto& c : cases) {
    if (!c.family.empty()) continue;
    const auto hs = family_hosts(c.hosts, d);
    if (hs.empty()) {
      skipped.push_back(c.id);
      continue;
    }
    ++graded;
    const bool values = std::find(c.family_values.begin(), c.family_values.end(), name) !=
                        c.family_values.end();
    o << "| " << c.id << " | " << c.level << (c.xfail ? " (xfail)" : "") << " | "
      << (hs.size() == hosts.size() ? std::string("all") : joined(hs)) << " | "
      << (values ? "own" : "shared") << " |\n";
  }
  o << "\nTotal: " << own << " own cases, " << graded << " shared cases graded";
  if (!skipped.empty())
    o << "; not graded here (a required feature the family lacks): " << joined(skipped);
  o << ".\n";
  return o.str();
}

}  // namespace pinta::conformance
