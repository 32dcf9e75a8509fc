// Harness: conformance case parser (pinta/conformance/conformance.h parse_case, canonical,
// render_cases_doc; conformance/src/case.cc). Case files are users' input: hand-written, copied,
// and produced by `conformance fuzz` as reproducers.
// Properties, for any case file text:
//  1. total: parse_case never throws or crashes; it returns a Case or an Error;
//  2. an error is kInvalidArgument/kParse, one line, and names the file it was given;
//  3. an accepted case is well-formed: id is AREA-NNNN starting with its area, the area is one
//     of the documented areas, level is must|should, hosts is a non-empty, duplicate-free
//     subsequence of all_hosts() (in that order), raw is the object that was parsed;
//  4. round-trip: re-serialising raw (compact, and canonical()) parses to the same id, area,
//     level, hosts and xfail; canonical() is idempotent;
//  5. the case page of the accepted case (shared or its family's) is total and mentions its id.
#include <cctype>
#include <set>
#include <string>

#include "fuzz_support.h"
#include "pinta/conformance/case_docs.h"
#include "pinta/conformance/conformance.h"

namespace {

namespace conf = pinta::conformance;
// Written out on purpose (not read from case.cc): the harness checks the parser against the
// documented shared areas (docs/conformance-cases.md); a family's own area (DEEL, CLAUDE, …) is
// its registry folder in capitals, and only that family's cases may use it.
const std::set<std::string> kAreas = {"OUT",   "EXIT",   "FMT",   "INPUT", "GUARD",
                                      "OTLP",  "REDACT", "TRACE", "ENV",   "PERF"};
bool own_area(const std::string& area, const std::string& family) {
  for (const auto& d : pinta::hosts::families()) {
    std::string a(d.folder);
    for (char& ch : a) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (a == area) return family == d.name;
  }
  return false;
}
const char* kFile = "/fuzz/cases/X-0000.case.json";

std::string sig(const conf::Case& c) {
  std::string s = c.id + "|" + c.area + "|" + c.level + "|" + c.xfail.value_or("<none>") + "|";
  for (const auto& h : c.hosts) s += h + ",";
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto r = conf::parse_case(text, kFile);
  if (!r) {
    const auto code = r.error().code;
    FUZZ_CHECK(code == pinta::ErrorCode::kInvalidArgument || code == pinta::ErrorCode::kParse,
               "error code " + std::to_string(static_cast<int>(code)));
    FUZZ_CHECK(r.error().message.find(kFile) != std::string::npos,
               "error does not name the file: " + r.error().message);
    FUZZ_CHECK(r.error().message.find('\n') == std::string::npos, "error spans lines");
    return 0;
  }
  const conf::Case& c = *r;
  FUZZ_CHECK(kAreas.count(c.area) == 1 || own_area(c.area, c.family), "area " + c.area);
  FUZZ_CHECK(c.id.size() == c.area.size() + 5 && c.id.rfind(c.area + "-", 0) == 0, "id " + c.id);
  for (size_t i = c.area.size() + 1; i < c.id.size(); ++i)
    FUZZ_CHECK(c.id[i] >= '0' && c.id[i] <= '9', "id " + c.id);
  FUZZ_CHECK(c.level == "must" || c.level == "should", "level " + c.level);
  FUZZ_CHECK(!c.hosts.empty(), "no hosts");
  size_t at = 0;
  for (const auto& h : c.hosts) {
    while (at < conf::all_hosts().size() && conf::all_hosts()[at] != h) ++at;
    FUZZ_CHECK(at < conf::all_hosts().size(), "host " + h + " unknown, repeated or out of order");
    ++at;
  }
  FUZZ_CHECK(c.raw.is_object(), "raw is not an object");
  for (const std::string& again : {c.raw.dump(), conf::canonical(c.raw)}) {
    auto r2 = conf::parse_case(again, kFile);
    FUZZ_CHECK(r2.has_value(), "re-serialised case rejected: " + r2.error().message);
    FUZZ_CHECK(sig(*r2) == sig(c), "round-trip changed " + sig(c) + " to " + sig(*r2));
  }
  const std::string canon = conf::canonical(c.raw);
  FUZZ_CHECK(conf::canonical(nlohmann::json::parse(canon)) == canon, "canonical not idempotent");
  // A shared case is on the shared page, a family's own case on its family's page.
  const auto fam = pinta::hosts::family_by_name(c.family);
  const std::string doc = c.family.empty() || !fam
                              ? conf::render_cases_doc({c})
                              : conf::render_family_cases_doc({c}, pinta::hosts::descriptor(*fam));
  FUZZ_CHECK(doc.find(c.id) != std::string::npos, "doc does not mention the case");
  return 0;
}
