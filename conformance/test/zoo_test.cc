// The zoo test ("Every case can fail"): each conformance/zoo/<name>.sh is our adapter
// plus one deliberate flaw. For every member, the cases named on its `# Catches:` line must FAIL
// when the suite grades it (under --strict when the member says `# Strict: yes`), so the suite
// exits 1. And across all members, every kind of check in the matcher registry
// (pinta/conformance/matchers.h: `stderr`, `collector.spans`, `token_only_in_header`, …, all but
// the modifiers) must have failed at least once: a check no broken adapter can fail would be a
// check that cannot fail.
//
// Environment: PINTA_ZOO_ADAPTER (our adapter binary), PINTA_ZOO_MEMBERS (optional, space-separated
// member names to run; coverage is then not asserted).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "pinta/common/fs.h"
#include "pinta/conformance/conformance.h"
#include "pinta/conformance/matchers.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace conf = pinta::conformance;
namespace stdfs = std::filesystem;

namespace {

struct Member {
  std::string name, file;
  std::vector<std::string> catches;  // case IDs that must fail
  bool strict = false;
};

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<Member> load_members(const std::string& dir) {
  std::vector<Member> out;
  for (const auto& e : stdfs::directory_iterator(dir)) {
    if (e.path().extension() != ".sh" || e.path().stem() == "run-zoo") continue;
    Member m;
    m.name = e.path().stem().string();
    m.file = e.path().string();
    auto text = pinta::fs::read_file(m.file);
    if (!text) continue;
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("# Catches:", 0) == 0) {
        for (auto& w : words(line.substr(10))) m.catches.push_back(w);
      } else if (line.rfind("# Strict:", 0) == 0) {
        m.strict = words(line.substr(9)) == std::vector<std::string>{"yes"};
      }
    }
    out.push_back(std::move(m));
  }
  std::sort(out.begin(), out.end(),
            [](const Member& a, const Member& b) { return a.name < b.name; });
  return out;
}

// Check kinds (registry names: "stderr", "collector.spans") a case's `expect` (and its steps'
// `expect`) uses, for the messages. `collector` is a group of kinds; its modifiers
// (accepted_only, wait_requests) only shape how the others are evaluated.
void add_checks(const conf::json& expect, const std::string& id,
                std::map<std::string, std::set<std::string>>& used) {
  if (!expect.is_object()) return;
  for (auto it = expect.begin(); it != expect.end(); ++it) {
    const conf::Matcher* m = conf::find_matcher(it.key(), false);
    if (!m) continue;  // the loader rejects unknown kinds
    if (it.key() != "collector") {
      used[conf::check_name(*m)].insert(id);
      continue;
    }
    // Per-host values: {"gemini": {...}, "antigravity": {...}} or the object itself.
    std::vector<conf::json> groups;
    const auto& v = it.value();
    if (conf::is_per_host(v)) {
      for (auto g = v.begin(); g != v.end(); ++g) groups.push_back(g.value());
    } else {
      groups.push_back(v);
    }
    for (const auto& g : groups)
      if (g.is_object())
        for (auto s = g.begin(); s != g.end(); ++s)
          if (const conf::Matcher* c = conf::find_matcher(s.key(), true); c && !c->modifier)
            used[conf::check_name(*c)].insert(id);
  }
}

// Every kind of the matcher registry a broken adapter must be able to fail: all but the
// modifiers and the collector group (its kinds are listed one by one). A kind added to the registry
// without a case and a zoo member that fails it fails this test.
std::vector<std::string> registry_checks() {
  std::vector<std::string> out;
  for (const auto& m : conf::matchers())
    if (!m.modifier && !m.group) out.push_back(conf::check_name(m));
  return out;
}

}  // namespace

TEST(Zoo, EveryMemberIsCaughtAndEveryCheckFailsOnSomeMember) {
  const char* adapter = std::getenv("PINTA_ZOO_ADAPTER");
  ASSERT_NE(adapter, nullptr) << "set PINTA_ZOO_ADAPTER to the adapter binary";
  const std::string src = PINTA_SOURCE_DIR;
  auto cases = conf::load_cases(src + "/conformance/cases");
  ASSERT_TRUE(cases) << cases.error().message;
  std::map<std::string, const conf::Case*> by_id;
  std::map<std::string, std::set<std::string>> used;
  for (const auto& c : *cases) {
    by_id[c.id] = &c;
    add_checks(c.raw.value("expect", conf::json::object()), c.id, used);
    for (const auto& s : c.raw.value("steps", conf::json::array()))
      if (s.is_object()) add_checks(s.value("expect", conf::json::object()), c.id, used);
  }

  auto members = load_members(src + "/conformance/zoo");
  ASSERT_GE(members.size(), 15u);
  std::set<std::string> only;
  if (const char* m = std::getenv("PINTA_ZOO_MEMBERS"))
    for (auto& w : words(m)) only.insert(w);

  // Members run a few at a time: most of a broken adapter's time is spent waiting (on a hung
  // child, a held pipe, a silent guard), and each member's cases already run in parallel.
  std::vector<const Member*> run;
  std::vector<std::vector<conf::Case>> subsets;
  for (const auto& m : members) {
    if (!only.empty() && !only.count(m.name)) continue;
    SCOPED_TRACE("zoo member " + m.name);
    ASSERT_FALSE(m.catches.empty()) << m.file << " has no `# Catches: CASE-ID…` line";
    std::vector<conf::Case> subset;
    for (const auto& id : m.catches) {
      auto f = by_id.find(id);
      ASSERT_NE(f, by_id.end()) << m.file << " names unknown case " << id;
      subset.push_back(*f->second);
    }
    run.push_back(&m);
    subsets.push_back(std::move(subset));
  }
  std::vector<conf::RunSummary> summaries(run.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < run.size();) {
      conf::RunOptions o;
      o.adapter = "bash " + run[i]->file + " " + adapter;
      o.hosts = conf::all_hosts();
      o.strict = run[i]->strict;
      o.jobs = 0;  // the runner's default: units mostly wait on the adapter
      // Each named case must FAIL, not run out of time: three members at once, each with its
      // parallel units, under a sanitizer and 11 host columns took longer than the 50 s default
      // run deadline (a member then showed DEADLINE). Grading speed is the bench's business.
      o.run_deadline = 400;  // inside the test TIMEOUT (600 s)
      // Every named case must run to its verdict: no stop once the run's verdict is settled.
      o.complete = true;
      o.max_framing_failures = 0;
      o.fixtures_dir = src + "/fixtures";
      o.profiles_dir = pinta::emu::agy::default_profile_dir();
      summaries[i] = conf::run_cases(subsets[i], o, nullptr);
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < 3; ++j) pool.emplace_back(worker);
  for (auto& t : pool) t.join();

  std::map<std::string, std::set<std::string>> caught_by;  // check -> members
  for (size_t i = 0; i < run.size(); ++i) {
    const Member& m = *run[i];
    const auto& summary = summaries[i];
    SCOPED_TRACE("zoo member " + m.name);
    std::cout << "zoo " << m.name << ": " << summary.seconds << " s\n";
    EXPECT_EQ(summary.exit_code(), 1) << "the suite did not fail " << m.name;
    std::ostringstream caught;
    for (const auto& co : summary.cases) {
      EXPECT_EQ(co.state, "FAIL") << co.c->id << " no longer catches " << m.name << " (state "
                                  << co.state << ")";
      for (const auto& h : co.hosts)
        for (const auto& k : h.failed_checks) caught_by[k].insert(m.name);
      if (co.state == "FAIL") caught << " " << co.c->id;
    }
    std::cout << "zoo " << m.name << ": caught by" << caught.str() << "\n";
  }
  if (!only.empty()) return;

  // Informational: cases that no member names on its `# Catches:` line (their check kinds are
  // covered below, but the case itself has not been shown to fail on a broken adapter).
  std::set<std::string> named;
  for (const auto& m : members) named.insert(m.catches.begin(), m.catches.end());
  std::vector<std::string> unnamed;
  for (const auto& [id, c] : by_id)
    if (!named.count(id)) unnamed.push_back(id);
  std::cout << "cases no zoo member names: " << unnamed.size() << " of " << by_id.size() << "\n";

  for (const auto& check : registry_checks()) {
    auto f = caught_by.find(check);
    if (f == caught_by.end()) {
      const auto u = used.find(check);
      if (u == used.end())
        ADD_FAILURE() << "the registered check `" << check
                      << "` is used by no case: add a case that uses it and a zoo member whose "
                         "flaw breaks it";
      else
        ADD_FAILURE() << "no zoo member fails the check `" << check << "` (used by "
                      << *u->second.begin() << (u->second.size() > 1 ? " and others" : "")
                      << "): add a member whose flaw breaks it";
      continue;
    }
    std::cout << "check " << check << ": broken by";
    for (const auto& m : f->second) std::cout << " " << m;
    std::cout << "\n";
  }
}
