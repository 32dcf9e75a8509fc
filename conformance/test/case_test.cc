// The case files and their parser ("Cases are data"): every case loads, IDs are
// AREA-NNNN in cases/<AREA>/ (shared) or cases/<family>/<AREA>/ (one family's), every area has
// its section in docs/contract.md and every contract section has cases; shared cases select
// hosts by feature and name events by meaning, so a family inherits them by its descriptor; the
// parser rejects what the runner could not check (unknown fields, unknown expectations, values no
// run can fail) with one line naming the file and the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "../src/matcher_context.h"
#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"
#include "pinta/conformance/conformance.h"
#include "pinta/hosts/family.h"
#include "pinta/conformance/features.h"
#include "pinta/conformance/matchers.h"
#include "pinta/conformance/output.h"

namespace conf = pinta::conformance;

namespace {

const std::string kSrc = PINTA_SOURCE_DIR;

// A shared case on the gate of every JSON-line host.
std::string minimal(const std::string& expect) {
  return R"({"id":"OUT-9999","area":"OUT","title":"t","requirement":"r","source":"s",)"
         R"("level":"must","requires":["json-line","gate"],"event":"gate","expect":)" +
         expect + "}";
}
// One family's case (its literal event, per-host values of its own).
std::string family_case(const std::string& family, const std::string& event,
                        const std::string& expect, const std::string& extra = "") {
  return R"({"id":"OUT-9999","area":"OUT","title":"t","requirement":"r","source":"s",)"
         R"("level":"must","family":")" +
         family + R"(","event":")" + event + "\"," + extra + R"("expect":)" + expect + "}";
}

}  // namespace

TEST(Cases, AllLoadWithUniqueIdsInTheirAreaFolders) {
  auto cases = conf::load_cases(kSrc + "/conformance/cases");
  ASSERT_TRUE(cases) << cases.error().message;
  EXPECT_GE(cases->size(), 100u);
  std::set<std::string> ids;
  for (const auto& c : *cases) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_EQ(c.id.rfind(c.area + "-", 0), 0u) << c.id;
    EXPECT_FALSE(c.hosts.empty()) << c.id;
  }
}

TEST(Cases, ContractSectionsMatchCaseAreas) {
  auto cases = conf::load_cases(kSrc + "/conformance/cases");
  ASSERT_TRUE(cases) << cases.error().message;
  auto contract = pinta::fs::read_file(kSrc + "/docs/contract.md");
  ASSERT_TRUE(contract);
  std::set<std::string> areas, sections;
  for (const auto& c : *cases) areas.insert(c.area);
  std::istringstream in(*contract);
  const std::regex heading(R"(^## ([A-Z]+)\b.*)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, heading)) sections.insert(m[1]);
  }
  for (const auto& a : areas)
    EXPECT_TRUE(sections.count(a)) << "docs/contract.md has no `## " << a << ":` section";
  for (const auto& s : sections)
    EXPECT_TRUE(areas.count(s)) << "docs/contract.md section " << s << " has no cases";
}

// --filter selects by id prefix, every --exclude prefix removes cases, an empty one removes none.
TEST(CaseSelection, FilterAndExcludePrefixes) {
  conf::Case perf1, perf2, guard;
  perf1.id = "PERF-0001";
  perf2.id = "PERF-0002";
  guard.id = "GUARD-0003";
  conf::RunOptions o;
  EXPECT_TRUE(conf::selected(perf1, o) && conf::selected(guard, o));
  o.exclude = {"PERF-0001"};
  EXPECT_FALSE(conf::selected(perf1, o));
  EXPECT_TRUE(conf::selected(perf2, o));
  o.exclude = {"PERF-", "GUARD"};
  EXPECT_FALSE(conf::selected(perf2, o) || conf::selected(guard, o));
  o.exclude = {""};
  EXPECT_TRUE(conf::selected(guard, o));
  o.filter = "GUARD";
  o.exclude = {};
  EXPECT_FALSE(conf::selected(perf1, o));
  EXPECT_TRUE(conf::selected(guard, o));
}

TEST(CaseParser, AcceptsAMinimalCase) {
  auto c = conf::parse_case(minimal(R"({"stdout":"one_json_line","exit_code":0})"), "x.case.json");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->id, "OUT-9999");
  EXPECT_TRUE(c->family.empty());
  // json-line: every host that reads one JSON line (contract OUT-1): not deel-1.17 (exit status)
  // nor claude-code-2.1 (silence or a JSON line), whose families have their own cases.
  std::vector<std::string> json_line;
  for (const auto& h : conf::all_hosts())
    if (pinta::hosts::descriptor(*pinta::hosts::family_by_name(conf::family_of(h))).reads == pinta::hosts::ReplyReading::kJsonStdout)
      json_line.push_back(h);
  EXPECT_EQ(c->hosts, json_line);
  EXPECT_EQ(std::count(c->hosts.begin(), c->hosts.end(), "deel-1.17"), 0);
  EXPECT_EQ(std::count(c->hosts.begin(), c->hosts.end(), "claude-code-2.1"), 0);
}

// "family": "gemini" is every Gemini CLI column: the 0.61 emulator and each version profile's host.
TEST(CaseParser, AFamilyCaseRunsUnderEveryHostOfItsFamily) {
  auto c =
      conf::parse_case(family_case("gemini", "BeforeTool", R"({"exit_code":0})"), "x.case.json");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->family, "gemini");
  // Every graded registry host named gemini-*, in report order (a new profile file with its own
  // hook rules adds one; one "graded_as" another host does not), and only those.
  std::vector<std::string> want;
  for (const auto& h : conf::all_hosts())
    if (h.rfind("gemini-", 0) == 0) want.push_back(h);
  EXPECT_EQ(c->hosts, want);
  for (const char* h : {"gemini-0.26", "gemini-0.35", "gemini-0.37", "gemini-0.61"})
    EXPECT_EQ(std::count(c->hosts.begin(), c->hosts.end(), h), 1) << h;
  EXPECT_FALSE(pinta::hosts::host_family("gemini-0.99"));  // no such profile column
}

// A family case may keep to some of its hosts (the campaign's reproducer of one host's finding).
TEST(CaseParser, AFamilyCaseMayKeepToSomeOfItsHosts) {
  auto c = conf::parse_case(family_case("antigravity", "PreToolUse", R"({"exit_code":0})",
                                        R"("hosts":["agy-1.2","agy-1.0"],)"),
                            "x.case.json");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->hosts, (std::vector<std::string>{"agy-1.0", "agy-1.2"}));
}

TEST(CaseParser, AcceptsHostParentAndAbsentAttributes) {
  auto c = conf::parse_case(
      family_case("antigravity", "PreToolUse",
                  R"({"collector":{"attributes_absent":["gen_ai.operation.name"]}})",
                  R"("host_parent":{"antigravity":["agy","-p"]},)"),
      "x.case.json");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->raw["host_parent"]["antigravity"][1], "-p");
}

TEST(CaseParser, RejectsWhatTheRunnerCouldNotCheck) {
  struct Bad {
    std::string text, mentions;
  };
  const Bad bad[] = {
      {"not json", "not a JSON object"},
      {minimal(R"({"stdot":"one_json_line"})"), "unknown expectation 'stdot'"},
      {minimal(R"({"stdout":"anything"})"), "expect.stdout"},
      {minimal(R"({"exit_code_in":[]})"), "expect.exit_code_in"},
      {minimal(R"({"exit_code_in":["2"]})"), "expect.exit_code_in"},
      {minimal(R"({"stdout_contains":""})"), "expect.stdout_contains"},
      {minimal(R"({"stderr":"whatever"})"), "expect.stderr"},
      {minimal(R"({"signaled":true})"), "expect.signaled"},
      {minimal(R"({"pipes_closed":false})"), "expect.pipes_closed"},
      {minimal(R"({"exit_code":"0"})"), "expect.exit_code"},
      {minimal(R"({"reply_within_ms":"fast"})"), "reply_within_ms"},
      {minimal(R"({"median_ms":{"metric":"closed"}})"), "median_ms"},
      {minimal(R"({"collector":{"spanz":{"min":1}}})"), "unknown collector expectation 'spanz'"},
      {minimal(R"({"stdout":{"gemini":"one_json_line","antigravity":"nope"}})"), "expect.stdout"},
      {minimal(R"({"collector":{"attributes_absent":[]}})"), "expect.collector.attributes_absent"},
      {minimal(R"({"collector":{"attributes_absent":"gen_ai.tool.name"}})"),
       "expect.collector.attributes_absent"},
      {minimal(R"({"collector":{"attributes_absent":{"gemini":[1]}}})"),
       "expect.collector.attributes_absent"},
      {minimal("{}"), "expect must be a non-empty object"},
      {R"({"id":"OUT-1","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["gate"],"event":"gate","expect":{"exit_code":0}})",
       "is not AREA-NNNN"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"may",)"
       R"("requires":["gate"],"event":"gate","expect":{"exit_code":0}})",
       "level must be"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["gate"],"event":"gate","steps":[{"expect":{"nope":1}}],"expect":{"exit_code":0}})",
       "OUT-0001: steps[0]: unknown expectation 'nope'"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["gaet"],"event":"gate","expect":{"exit_code":0}})",
       "unknown feature \"gaet\""},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("hosts":["all"],"event":"gate","expect":{"exit_code":0}})",
       "only a family case names hosts"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("event":"gate","expect":{"exit_code":0}})",
       "a shared case needs \"requires\""},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["gate"],"event":"BeforeTool","expect":{"exit_code":0}})",
       "event \"BeforeTool\" is not an event role"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":[],"event":"gate","expect":{"exit_code":0}})",
       "needs \"requires\" to hold \"gate\""},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["gate"],"event":"gate","steps":[{"event":"every-installed"}],)"
       R"("expect":{"exit_code":0}})",
       "steps[0].event \"every-installed\" is a sequence of events"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["gate"],"event":"gate","input":{"gemini":{"tool":"x"}},)"
       R"("expect":{"exit_code":0}})",
       "per-host value at input in a shared case"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("family":"no-such-host","event":"gate","expect":{"exit_code":0}})",
       "family must name a registered family"},
      // A family's own area (its folder in capitals) is its cases' only.
      {R"({"id":"CLAUDE-0001","area":"CLAUDE","title":"t","requirement":"r","source":"s",)"
       R"("level":"must","requires":["gate"],"event":"gate","expect":{"exit_code":0}})",
       "area CLAUDE is family claude-code's: a shared case belongs to a shared area"},
      {R"({"id":"CLAUDE-0001","area":"CLAUDE","title":"t","requirement":"r","source":"s",)"
       R"("level":"must","family":"deel","event":"PreToolUse","expect":{"exit_code":0}})",
       "area CLAUDE is family claude-code's: the case must say"},
      {R"({"id":"NOSUCH-0001","area":"NOSUCH","title":"t","requirement":"r","source":"s",)"
       R"("level":"must","requires":["gate"],"event":"gate","expect":{"exit_code":0}})",
       "unknown area 'NOSUCH'"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("family":"deel","requires":["json-line"],"event":"PreToolUse","expect":{"exit_code":0}})",
       "family deel lacks a feature the case requires"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["json-line","exit-status"],"event":"unknown-event","expect":{"exit_code":0}})",
       "no graded host has the features"},
      {family_case("gemini", "BeforeTool", R"({"exit_code":0})", R"("hosts":["agy-1.2"],)"),
       "unknown host \"agy-1.2\" of family gemini"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["gate"],"hosts":["agy-1.2"],"event":"gate","expect":{"exit_code":0}})",
       "only a family case names hosts"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["gate"],"event":"gate","expect":{"exit_code":0},"extra":1})",
       "unknown field \"extra\""},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["gate"],"event":"gate","expect":{"exit_code":0},"host_parent":[]})",
       "host_parent must be"},
      {R"({"id":"OUT-0001","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
       R"("requires":["gate"],"event":"gate","expect":{"exit_code":0},"host_parent":"agy -p"})",
       "host_parent must be"},
      {family_case("antigravity", "PreToolUse", R"({"exit_code":0})",
                   R"("host_parent":{"antigravity":["agy",""]},)"),
       "host_parent must be"},
  };
  for (const auto& b : bad) {
    auto c = conf::parse_case(b.text, "bad.case.json");
    ASSERT_FALSE(c) << b.text;
    const std::string& m = c.error().message;
    EXPECT_NE(m.find("bad.case.json: "), std::string::npos) << m;
    EXPECT_NE(m.find(b.mentions), std::string::npos) << m << "  (wanted: " << b.mentions << ")";
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  }
}

// Every expectation's value is validated when the case loads: a wrong type used to be accepted
// silently and then either never matched (a check that cannot pass or cannot fail) or threw in a
// runner thread.
TEST(CaseParser, RejectsWrongValuesOfEveryExpectation) {
  struct Bad {
    std::string expect, mentions;
  };
  const Bad bad[] = {
      {R"({"reply":"allow"})", "expect.reply"},
      {R"({"reply_has":[]})", "expect.reply_has"},
      {R"({"reply_lacks":[1]})", "expect.reply_lacks"},
      {R"({"reply_lacks":"decision"})", "expect.reply_lacks"},
      {R"({"effect":3})", "expect.effect"},
      {R"({"effect":[]})", "expect.effect"},
      {R"({"effect_message_contains":7})", "expect.effect_message_contains"},
      {R"({"guard_requests":"1"})", "expect.guard_requests"},
      {R"({"collector_requests":{"min":"1"}})", "expect.collector_requests"},
      {R"({"collector_requests":{"mni":1}})", "expect.collector_requests"},
      {R"({"guard_request":{"json_path":["input"]}})", "expect.guard_request"},
      {R"({"guard_request":{"header":{"x-a":1}}})", "expect.guard_request"},
      {R"({"absent":"secret"})", "expect.absent"},
      {R"({"token_only_in_header":{"tokn":"t"}})", "expect.token_only_in_header"},
      {R"({"token_only_in_header":{"token":5}})", "expect.token_only_in_header"},
      {R"({"data_files":{"${DATA_DIR}/x":"present"}})", "expect.data_files"},
      {R"({"data_files":{"${DATA_DIR}/x":{"mode":700}}})", "expect.data_files"},
      {R"({"no_files_under":"${HOME}"})", "expect.no_files_under"},
      {R"({"median_ms":{"max":50,"metric":"exit"}})", "expect.median_ms"},
      {R"({"reply_within_ms":-1})", "expect.reply_within_ms"},
      {R"({"collector":{"spans":"1"}})", "expect.collector.spans"},
      {R"({"collector":{"path":1}})", "expect.collector.path"},
      {R"({"collector":{"content_type":1}})", "expect.collector.content_type"},
      {R"({"collector":{"header":{"x-tenant":1}}})", "expect.collector.header"},
      {R"({"collector":{"names":"gemini.before_tool"}})", "expect.collector.names"},
      {R"({"collector":{"same_trace":"yes"}})", "expect.collector.same_trace"},
      {R"({"collector":{"valid_otlp":"yes"}})", "expect.collector.valid_otlp"},
      {R"({"collector":{"wait_requests":"2"}})", "expect.collector.wait_requests"},
      {R"({"collector":{"accepted_only":1}})", "expect.collector.accepted_only"},
      {R"({"collector":{"resource":[]}})", "expect.collector.resource"},
      {R"({"collector":{"attributes":"service.name"}})", "expect.collector.attributes"},
      {R"({"collector":{"distinct_span_ids":"true"}})", "expect.collector.distinct_span_ids"},
  };
  for (const auto& b : bad) {
    auto c = conf::parse_case(minimal(b.expect), "bad.case.json");
    EXPECT_FALSE(c) << b.expect << " was accepted";
    if (c) continue;
    const std::string& m = c.error().message;
    EXPECT_NE(m.find("bad.case.json: "), std::string::npos) << m;
    EXPECT_NE(m.find(b.mentions), std::string::npos) << m << "  (wanted: " << b.mentions << ")";
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  }
}

// A check over the whole case (the fakes' requests, files, the median) inside steps[].expect used
// to be accepted and never evaluated; it is rejected, naming the case, the step and the key.
TEST(CaseParser, RejectsWholeCaseChecksInsideASteps) {
  for (const char* key : {R"("guard_requests":1)", R"("absent":["s"])", R"("median_ms":{"max":5})",
                          R"("collector":{"spans":1})", R"("data_files":{"${HOME}/x":"exists"})"}) {
    std::string text = minimal(R"({"exit_code":0})");
    text.insert(text.size() - 1,
                std::string(R"(,"steps":[{},{"expect":{"exit_code":0,)") + key + "}}]");
    auto c = conf::parse_case(text, "bad.case.json");
    EXPECT_FALSE(c) << key << " in a step was accepted";
    if (c) continue;
    const std::string& m = c.error().message;
    std::string name = std::string(key).substr(1, std::string(key).find('"', 1) - 1);
    EXPECT_NE(m.find("bad.case.json: OUT-9999: steps[1].expect." + name), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  }
  // A per-run check in a step stays accepted.
  std::string ok = minimal(R"({"exit_code":0})");
  ok.insert(ok.size() - 1, R"(,"steps":[{"expect":{"stderr":"empty","reply_within_ms":300}}])");
  auto c = conf::parse_case(ok, "x.case.json");
  EXPECT_TRUE(c) << c.error().message;
}

// The matcher registry (pinta/conformance/matchers.h) is the one list of expectation kinds: each
// entry validates its value, has the evaluator of its scope, and is refused where it would not be
// evaluated.
TEST(MatcherRegistry, EveryKindValidatesAndIsEvaluatedWhereItIsAllowed) {
  std::set<std::string> names;
  ASSERT_FALSE(conf::matchers().empty());
  for (const auto& m : conf::matchers()) {
    SCOPED_TRACE(conf::check_name(m));
    EXPECT_TRUE(names.insert(conf::check_name(m)).second) << "registered twice";
    ASSERT_NE(m.validate, nullptr);
    EXPECT_EQ(conf::find_check(conf::check_name(m)), &m);
    const bool collector = m.scope == conf::MatcherScope::kCollector;
    EXPECT_EQ(conf::find_matcher(m.name, collector), &m);
    EXPECT_EQ(m.on_run != nullptr, !m.modifier && m.scope == conf::MatcherScope::kRun);
    EXPECT_EQ(m.on_unit != nullptr, !m.modifier && m.scope == conf::MatcherScope::kUnit);
    EXPECT_EQ(m.on_collector != nullptr, !m.modifier && collector);
    EXPECT_TRUE(!m.modifier || collector) << "only collector kinds shape the others";
    EXPECT_EQ(m.group, m.name == std::string("collector")) << "the one group is expect.collector";
    EXPECT_EQ(collector, m.places == conf::kInCollector);
    // Per-run kinds may be a step's; a check over the whole unit is evaluated once, after every
    // run, so only the case's expect may hold it.
    if (!collector) {
      EXPECT_EQ((m.places & conf::kInStepExpect) != 0, m.scope == conf::MatcherScope::kRun);
    }
    // No kind takes a fractional number: a value of the wrong type is refused when the case
    // loads, never silently accepted.
    const std::string wrong = "3.5";
    const std::string expect =
        collector ? std::string(R"({"collector":{")") + m.name + "\":" + wrong + "}}"
                  : std::string("{\"") + m.name + "\":" + wrong + "}";
    auto c = conf::parse_case(minimal(expect), "bad.case.json");
    EXPECT_FALSE(c) << expect << " was accepted";
    if (!c) {
      EXPECT_NE(c.error().message.find(conf::check_name(m)), std::string::npos)
          << c.error().message;
    }
  }
}

// Every kind a broken adapter can fail (all but the modifiers and the collector group) is used by a
// case that some zoo member names on its `# Catches:` line. The zoo test (conformance_zoo_test)
// then shows each one failing; this is the quick static half, so a new kind without a case and a
// member fails here.
TEST(MatcherRegistry, EveryKindIsExercisedByACaseAZooMemberCatches) {
  auto cases = conf::load_cases(kSrc + "/conformance/cases");
  ASSERT_TRUE(cases) << cases.error().message;
  std::set<std::string> caught_ids;
  for (const auto& e : std::filesystem::directory_iterator(kSrc + "/conformance/zoo")) {
    if (e.path().extension() != ".sh") continue;
    auto text = pinta::fs::read_file(e.path().string());
    ASSERT_TRUE(text);
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("# Catches:", 0) == 0) {
        std::istringstream w(line.substr(10));
        for (std::string id; w >> id;) caught_ids.insert(id);
      }
  }
  std::set<std::string> used;
  auto add = [&](const conf::json& expect) {
    if (!expect.is_object()) return;
    for (auto it = expect.begin(); it != expect.end(); ++it) {
      used.insert(it.key());
      if (it.key() != "collector") continue;
      std::vector<conf::json> groups;
      if (conf::is_per_host(it.value()))
        for (const auto& g : it.value()) groups.push_back(g);
      else
        groups.push_back(it.value());
      for (const auto& g : groups)
        for (auto k = g.begin(); k != g.end(); ++k) used.insert("collector." + k.key());
    }
  };
  for (const auto& c : *cases) {
    if (!caught_ids.count(c.id)) continue;
    add(c.raw.value("expect", conf::json::object()));
    for (const auto& st : c.raw.value("steps", conf::json::array()))
      if (st.is_object()) add(st.value("expect", conf::json::object()));
  }
  for (const auto& m : conf::matchers()) {
    if (m.modifier || m.group) continue;
    EXPECT_TRUE(used.count(conf::check_name(m)))
        << "no case a zoo member catches uses `" << conf::check_name(m)
        << "`: add one, and a conformance/zoo member whose flaw fails it";
  }
}

// ---- Selection by feature ---------------------------------------------------------------------

namespace {

// The graded hosts whose family has every feature in `required`, in report order.
std::vector<std::string> hosts_with(const std::vector<std::string>& required) {
  std::vector<std::string> out;
  for (const auto& h : conf::all_hosts())
    if (auto f = pinta::hosts::host_family(h);
        f && conf::has_features(pinta::hosts::descriptor(*f), required))
      out.push_back(h);
  return out;
}
size_t hosts_of_families(std::initializer_list<pinta::hosts::Family> fs) {
  size_t n = 0;
  for (auto f : fs) n += pinta::hosts::hosts_of(f).size();
  return n;
}

// A family as the next one would be registered: Gemini CLI's descriptor under another name and
// labels (a JSON-line host with a gate, tool events and a turn start). No case names it.
pinta::hosts::FamilyDescriptor synthetic_json_line_family() {
  pinta::hosts::FamilyDescriptor d = pinta::hosts::descriptor(pinta::hosts::Family::kGemini);
  d.name = "synthetic";
  d.display_name = "Synthetic CLI";
  d.agent_labels = {"synthetic", "", "", ""};
  return d;
}

// The shared cases a family with descriptor d inherits: those whose features it has and whose
// event roles all resolve to its events.
std::set<std::string> inherited(const std::vector<conf::Case>& cases,
                                const pinta::hosts::FamilyDescriptor& d) {
  std::set<std::string> out;
  for (const auto& c : cases) {
    if (!c.family.empty() || !conf::has_features(d, c.required)) continue;
    bool resolves = true;
    auto check = [&](const conf::json& ev) {
      const conf::EventRole* r =
          ev.is_string() ? conf::find_event_role(ev.get<std::string>()) : nullptr;
      if (!r || r->events(d).empty() || (!r->many && r->events(d).size() != 1)) resolves = false;
    };
    if (c.raw.contains("event")) check(c.raw["event"]);
    for (const auto& st : c.raw.value("steps", conf::json::array()))
      if (st.contains("event")) check(st["event"]);
    if (resolves) out.insert(c.id);
  }
  return out;
}

}  // namespace

// Each feature is computed from the descriptor; the hosts it selects today, by family.
TEST(Features, EachSelectsTheHostsOfTheFamiliesThatHaveIt) {
  using F = pinta::hosts::Family;
  std::set<std::string> names;
  for (const auto& f : conf::features()) {
    EXPECT_TRUE(names.insert(std::string(f.name)).second) << f.name;
    EXPECT_FALSE(f.meaning.empty()) << f.name;
    EXPECT_EQ(conf::find_feature(f.name), &f);
  }
  EXPECT_EQ(conf::find_feature("no-such-feature"), nullptr);
  const size_t every = conf::all_hosts().size();
  EXPECT_EQ(hosts_with({}).size(), every);
  for (const char* all : {"gate", "guard", "tool-after", "turn-start"})
    EXPECT_EQ(hosts_with({all}).size(), every) << all;
  // Each feature is the descriptor field it names, for whichever families are registered ...
  using R = pinta::hosts::ReplyReading;
  auto families_where = [](auto pred) {
    std::vector<F> out;
    for (const auto& d : pinta::hosts::families())
      if (pred(d)) out.push_back(d.id);
    return out;
  };
  using D = pinta::hosts::FamilyDescriptor;
  auto sizes_agree = [&](const char* feature, auto pred) {
    const std::vector<F> fams = families_where(pred);
    size_t n = 0;
    for (F f : fams) n += hosts_of_families({f});
    EXPECT_EQ(hosts_with({feature}).size(), n) << feature;
  };
  sizes_agree("json-line", [](const D& d) { return d.reads == R::kJsonStdout; });
  sizes_agree("json-reply", [](const D& d) { return d.reads != R::kExitStatus; });
  sizes_agree("exit-status", [](const D& d) { return d.reads != R::kJsonStdout; });
  sizes_agree("ask", [](const D& d) { return d.ask_on_gate; });
  sizes_agree("session-id", [](const D& d) { return !d.payload.session_id.empty(); });
  sizes_agree("tool-call-id", [](const D& d) { return !d.payload.tool_call_id.empty(); });
  // ... and for the first four families, the measured facts themselves.
  EXPECT_EQ(hosts_with({"json-line"}).size(), hosts_of_families({F::kGemini, F::kAntigravity}));
  for (F f : {F::kGemini, F::kAntigravity, F::kClaude}) {
    const size_t n = hosts_of_families({f});
    for (const char* feat : {"json-reply", "ask", "session-id"}) {
      const auto got = hosts_with({feat});
      size_t in = 0;
      for (const auto& h : got)
        if (pinta::hosts::family_by_name(conf::family_of(h)) == f) ++in;
      EXPECT_EQ(in, n) << feat;
    }
  }
  EXPECT_EQ(hosts_with({"json-line", "exit-status"}).size(), 0u);
  // Features compose by AND: json-reply with exit-status is the hosts that read both.
  size_t both = 0;
  for (F f : families_where([](const D& d) { return d.reads == R::kBoth; }))
    both += hosts_of_families({f});
  const auto reads_both = hosts_with({"json-reply", "exit-status"});
  EXPECT_EQ(reads_both.size(), both);
  // Every host that sends a tool call id reads both; not every host that reads both sends one.
  for (const auto& h : hosts_with({"tool-call-id"}))
    EXPECT_NE(std::find(reads_both.begin(), reads_both.end(), h), reads_both.end()) << h;
}

// Event roles resolve through each family's descriptor; a role names no host's event itself.
TEST(Features, EventRolesResolveThroughTheDescriptor) {
  for (const auto& d : pinta::hosts::families()) {
    SCOPED_TRACE(std::string(d.name));
    EXPECT_EQ(conf::find_event_role("gate")->events(d),
              std::vector<std::string>{std::string(d.gate_event)});
    EXPECT_EQ(conf::find_event_role("turn-start")->events(d),
              std::vector<std::string>{std::string(d.payload.turn_start_event)});
    const auto after = conf::find_event_role("tool-after")->events(d);
    ASSERT_EQ(after.size(), 1u);
    EXPECT_TRUE(pinta::hosts::is_tool_event(d.id, after[0]) && after[0] != d.gate_event);
    EXPECT_EQ(conf::find_event_role("unknown-event")->events(d),
              std::vector<std::string>{std::string(conf::kUnknownEvent)});
    EXPECT_EQ(conf::find_event_role("every-installed")->events(d).size(), d.installed.size());
    EXPECT_EQ(conf::find_event_role("every-non-gate")->events(d).size(), d.installed.size() - 1);
    for (const auto& r : conf::event_roles()) {
      EXPECT_FALSE(pinta::hosts::sends_event(d.id, r.name)) << r.name;
      if (!r.feature.empty()) EXPECT_NE(conf::find_feature(r.feature), nullptr) << r.name;
    }
  }
  // The runner's resolution, per host: the same events.
  for (const auto& h : conf::all_hosts()) {
    const auto& d = pinta::hosts::descriptor(*pinta::hosts::host_family(h));
    EXPECT_EQ(conf::detail::host_events("gate", h),
              std::vector<std::string>{std::string(d.gate_event)})
        << h;
    EXPECT_EQ(conf::detail::host_events("BeforeTool", h), std::vector<std::string>{"BeforeTool"})
        << h;
  }
}

// The suite's own cases: no shared case names a family or a host; each family case lives in its
// family's folder; and every family inherits the shared cases its features select.
TEST(Features, EveryFamilyInheritsTheSharedCasesItsFeaturesSelect) {
  auto cases = conf::load_cases(kSrc + "/conformance/cases");
  ASSERT_TRUE(cases) << cases.error().message;
  size_t shared = 0;
  for (const auto& c : *cases) {
    const std::string rel = c.file.substr(c.file.find("/conformance/cases/") + 19);
    if (c.family.empty()) {
      ++shared;
      EXPECT_EQ(rel, c.area + "/" + c.id + ".case.json");
      auto want = hosts_with(c.required);
      if (c.raw.value("one_host_per_family", false)) {  // the newest of each family
        std::vector<std::string> newest;
        for (const auto& h : want)
          if (!newest.empty() && conf::family_of(newest.back()) == conf::family_of(h))
            newest.back() = h;
          else
            newest.push_back(h);
        want = newest;
      }
      EXPECT_EQ(c.hosts, want) << c.id;
    } else {
      EXPECT_EQ(rel, c.family + "/" + c.area + "/" + c.id + ".case.json");
      for (const auto& h : c.hosts) EXPECT_EQ(conf::family_of(h), c.family) << c.id;
    }
  }
  EXPECT_GE(shared, 95u);
  // Each registered family inherits exactly the shared cases whose features it has, and they run
  // under every graded host of it.
  for (const auto& d : pinta::hosts::families()) {
    const auto mine = inherited(*cases, d);
    EXPECT_FALSE(mine.empty()) << d.name;
    for (const auto& c : *cases) {
      if (!c.family.empty()) continue;
      const bool runs = std::any_of(c.hosts.begin(), c.hosts.end(), [&](const std::string& h) {
        return conf::family_of(h) == d.name;
      });
      EXPECT_EQ(runs, mine.count(c.id) == 1) << c.id << " under " << d.name;
    }
  }
  // A family that is not registered yet, with Gemini CLI's features, inherits every shared case
  // Gemini CLI runs, with no edit to a case file.
  const auto gemini = inherited(*cases, pinta::hosts::descriptor(pinta::hosts::Family::kGemini));
  EXPECT_EQ(inherited(*cases, synthetic_json_line_family()), gemini);
  EXPECT_GE(gemini.size(), 90u);
  // The same family read by exit status (no JSON line) keeps the cases that need no JSON line.
  auto exit_only = synthetic_json_line_family();
  exit_only.reads = pinta::hosts::ReplyReading::kExitStatus;
  const auto kept = inherited(*cases, exit_only);
  EXPECT_LT(kept.size(), gemini.size());
  for (const auto& id : kept) EXPECT_TRUE(gemini.count(id)) << id;
  EXPECT_TRUE(kept.count("OTLP-0016") && kept.count("OTLP-0017"));
}

namespace {

void write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}
const char* kShared =
    R"({"id":"GUARD-9001","area":"GUARD","title":"t","requirement":"r","source":"s",)"
    R"("level":"must","requires":["json-line","gate"],"event":"gate",)"
    R"("expect":{"exit_code":0,"verdict":"allow","collector":{"attributes":{"a":"1"}}}})";

}  // namespace

// cases/<family>/shared-cases.json: a family's own values for shared cases, merged in for its
// hosts only; the shared value stays for every other family ("*").
TEST(FamilyValues, AreMergedForTheFamilyOnly) {
  pinta::testing::TempDir dir;
  write(dir.path() + "/GUARD/GUARD-9001.case.json", kShared);
  write(dir.path() + "/gemini/shared-cases.json",
        R"({"GUARD-9001":{"input":{"tool":"read_file"},"expect":{"reply":{},)"
        R"("collector":{"attributes":{"b":"2"}}}}})");
  auto cases = conf::load_cases(dir.path());
  ASSERT_TRUE(cases) << cases.error().message;
  const auto& c = cases->front();
  EXPECT_EQ(c.family_values, std::vector<std::string>{"gemini"});
  using conf::detail::pick;
  const auto& e = c.raw["expect"];
  EXPECT_EQ(pick(e["reply"], "gemini-0.61"), conf::json::object());
  EXPECT_TRUE(pick(e["reply"], "agy-1.2").is_null());
  EXPECT_EQ(pick(e["collector"]["attributes"], "gemini-0.61"),
            conf::json({{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(pick(e["collector"]["attributes"], "agy-1.2"), conf::json({{"a", "1"}}));
  EXPECT_EQ(pick(c.raw["input"], "gemini-0.61")["tool"], "read_file");
  EXPECT_EQ(pick(e["verdict"], "agy-1.2"), "allow");
}

TEST(FamilyValues, AndCaseFoldersAreCheckedWhenTheCasesLoad) {
  struct Bad {
    std::string file, text, mentions;
  };
  const std::string family_case_text = family_case("gemini", "BeforeTool", R"({"exit_code":0})");
  const Bad bad[] = {
      {"gemini/shared-cases.json", R"({"GUARD-9002":{"expect":{"reply":{}}}})",
       "no case \"GUARD-9002\""},
      {"deel/shared-cases.json", R"({"GUARD-9001":{"expect":{"exit_code":2}}})",
       "GUARD-9001 does not run under deel"},
      {"gemini/shared-cases.json", R"({"GUARD-9001":{"expect":{"verdict":"deny"}}})",
       "expect.verdict is stated by the shared case already"},
      {"gemini/shared-cases.json",
       R"({"GUARD-9001":{"expect":{"collector":{"attributes":{"a":"2"}}}}})",
       "attributes.a is stated by the shared case already"},
      {"gemini/shared-cases.json", R"({"GUARD-9001":{"event":"BeforeTool"}})",
       "unknown field \"event\""},
      {"gemini/shared-cases.json", R"({"GUARD-9001":{"expect":{"reply":"x"}}})", "expect.reply"},
      {"antigravity/OUT/OUT-9999.case.json", family_case_text,
       "a case in cases/antigravity/ must name \"family\": \"antigravity\""},
  };
  for (const auto& b : bad) {
    pinta::testing::TempDir dir;
    write(dir.path() + "/GUARD/GUARD-9001.case.json", kShared);
    write(dir.path() + "/" + b.file, b.text);
    auto cases = conf::load_cases(dir.path());
    ASSERT_FALSE(cases) << b.file << ": " << b.text;
    EXPECT_NE(cases.error().message.find(b.mentions), std::string::npos)
        << cases.error().message << "  (wanted: " << b.mentions << ")";
    EXPECT_EQ(cases.error().message.find('\n'), std::string::npos);
  }
}

// A shared case states what the tool call runs by meaning ("input": {"command": ...}); each host
// gets it as its family's first command argument (payload.command_args) under its default tool,
// unless the family gives its own payload in shared-cases.json.
TEST(SharedInput, ACommandByMeaningIsTheFamilysCommandArgument) {
  pinta::testing::TempDir dir;
  write(dir.path() + "/REDACT/REDACT-9001.case.json",
        R"({"id":"REDACT-9001","area":"REDACT","title":"t","requirement":"r","source":"s",)"
        R"("level":"must","requires":["gate"],"event":"gate",)"
        R"("input":{"default":true,"command":"echo by-meaning"},"expect":{"exit_code":0}})");
  write(
      dir.path() + "/claude-code/shared-cases.json",
      R"({"REDACT-9001":{"input":{"default":true,"tool":"Bash","tool_args":{"command":"echo own"}}}})");
  auto cases = conf::load_cases(dir.path());
  ASSERT_TRUE(cases) << cases.error().message;
  conf::RunOptions o;
  o.adapter = "cat #";  // echoes the payload; the appended --agent/--event become a comment
  o.hosts = {"gemini-0.61", "agy-1.2", "deel-1.17", "claude-code-2.1"};
  o.fixtures_dir = kSrc + "/fixtures";
  o.profiles_dir = kSrc + "/hosts/antigravity/profiles";
  auto s = conf::run_cases(*cases, o, nullptr);
  ASSERT_EQ(s.cases.size(), 1u);
  ASSERT_EQ(s.cases[0].hosts.size(), 4u);
  for (const auto& h : s.cases[0].hosts) {
    SCOPED_TRACE(h.host);
    ASSERT_EQ(h.runs.size(), 1u);
    bool cut = false;
    const auto payload =
        conf::json::parse(conf::unescape_shown(h.runs[0]["stdin"].get<std::string>(), &cut));
    ASSERT_FALSE(cut);
    if (h.host == "claude-code-2.1") {
      EXPECT_EQ(payload["tool_input"]["command"], "echo own");  // the family's own payload
    } else if (h.host == "agy-1.2") {
      EXPECT_EQ(payload["toolCall"]["args"]["CommandLine"], "echo by-meaning");
    } else if (h.host == "deel-1.17") {
      EXPECT_EQ(payload["command"], "echo by-meaning");
    } else {
      EXPECT_EQ(payload["tool_input"]["command"], "echo by-meaning");
    }
  }
}

// "bom": the host's default payload behind a byte order mark (OUT-0005 for a family that gives no
// fixture of its own).
TEST(SharedInput, ABomPrefixedPayloadByMeaning) {
  auto c = conf::parse_case(
      R"({"id":"OUT-9998","area":"OUT","title":"t","requirement":"r","source":"s","level":"must",)"
      R"("requires":["gate"],"event":"gate","input":{"default":true,"bom":true},)"
      R"("expect":{"exit_code":0}})",
      "x.case.json");
  ASSERT_TRUE(c) << c.error().message;
  const std::vector<conf::Case> cases = {*c};
  conf::RunOptions o;
  o.adapter = "cat #";
  o.hosts = {"gemini-0.61", "claude-code-2.1"};
  o.fixtures_dir = kSrc + "/fixtures";
  o.profiles_dir = kSrc + "/hosts/antigravity/profiles";
  auto s = conf::run_cases(cases, o, nullptr);
  ASSERT_EQ(s.cases.size(), 1u);
  ASSERT_EQ(s.cases[0].hosts.size(), 2u);
  for (const auto& h : s.cases[0].hosts) {
    SCOPED_TRACE(h.host);
    ASSERT_EQ(h.runs.size(), 1u);
    const std::string shown = h.runs[0]["stdin"].get<std::string>();
    EXPECT_EQ(shown.rfind("\\xef\\xbb\\xbf{", 0), 0u) << shown;
    // The host's own line end after the object, if it writes one (Claude Code does: the record
    // shows it escaped).
    std::string body = shown.substr(12);
    if (body.size() >= 2 && body.compare(body.size() - 2, 2, "\\n") == 0) body.resize(body.size() - 2);
    EXPECT_TRUE(conf::json::parse(body, nullptr, false).is_object()) << shown;
  }
}

// agy 1.2.1/1.2.2 on macOS arm64 load hooks but never run them (antigravity-cli#1008): under that
// host no case is graded, even one any adapter passes, and the matrix says so.
TEST(HooksNotRun, AHostThatNeverRunsHooksNeverPasses) {
  auto c = conf::parse_case(minimal(R"({"exit_code":0})"), "x.case.json");
  ASSERT_TRUE(c) << c.error().message;
  conf::RunOptions o;
  o.adapter = "/bin/true";
  o.hosts = {"agy-1.2.1-darwin-arm64", "agy-1.2"};
  o.fixtures_dir = kSrc + "/fixtures";
  o.profiles_dir = kSrc + "/hosts/antigravity/profiles";
  const std::vector<conf::Case> cases = {*c};  // outcomes point into it
  auto s = conf::run_cases(cases, o, nullptr);
  ASSERT_EQ(s.cases.size(), 1u);
  ASSERT_EQ(s.cases[0].hosts.size(), 2u);
  for (const auto& h : s.cases[0].hosts) {
    if (h.host == "agy-1.2.1-darwin-arm64") {
      EXPECT_EQ(h.state, "hooks_not_run");
    } else {
      EXPECT_EQ(h.state, "pass");  // the control: the same case under a host that runs hooks
    }
  }
  o.hosts = {"agy-1.2.1-darwin-arm64"};
  s = conf::run_cases(cases, o, nullptr);
  EXPECT_NE(s.cases[0].state, "PASS");
  pinta::testing::TempDir dir;
  ASSERT_TRUE(conf::write_reports(s, o, dir.path()));
  auto md = pinta::fs::read_file(dir.path() + "/matrix.md");
  ASSERT_TRUE(md);
  EXPECT_NE(md->find("hooks do not run"), std::string::npos);
}

// Report text quotes what an adapter wrote: valid UTF-8 (Korean input) as itself, only invalid
// bytes, controls and invisible code points escaped (before: "자" came out as \xec\x9e\x90).
TEST(ShowBytes, Utf8AsTextInvalidBytesEscaped) {
  using pinta::conformance::detail::show_bytes;
  EXPECT_EQ(show_bytes("자동 승인\n"), "자동 승인\\n");
  EXPECT_EQ(show_bytes("a\xec\x9e" "b"), "a\\xec\\x9eb");                   // cut sequence
  EXPECT_EQ(show_bytes("\xc0\xaf"), "\\xc0\\xaf");                          // overlong
  EXPECT_EQ(show_bytes("\xed\xa0\x80"), "\\xed\\xa0\\x80");                 // surrogate
  EXPECT_EQ(show_bytes("x\xe2\x80\xaey"), "x\\xe2\\x80\\xaey");             // bidi override
  EXPECT_EQ(show_bytes("\xf0\x9f\x98\x80\x01"), "\xf0\x9f\x98\x80\\x01");  // emoji, control
  EXPECT_EQ(show_bytes("a\xe2\x80\xa6(b"), "a\\xe2\\x80\\xa6(b");  // "…" is the cut marker's
  EXPECT_EQ(show_bytes(std::string(10, 'x'), 4), "xxxx\xe2\x80\xa6(10 bytes)");
}
