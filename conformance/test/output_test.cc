// What `conformance run` writes besides the verdict: GitHub workflow commands (escaping, file= the
// case file), the Markdown job summary, the console style decision (TTY, NO_COLOR, --quiet), the
// HTML report's escaping of hostile adapter output, and where it points at a mismatch.
#include "pinta/conformance/output.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"
#include "pinta/conformance/conformance.h"

namespace conf = pinta::conformance;
using conf::json;

namespace {

const std::string kSrc = PINTA_SOURCE_DIR;

// A MUST case as the reports see it.
conf::Case must_case(const std::string& id, const std::string& title, const std::string& requirement,
                     const std::string& source, const std::string& file) {
  conf::Case c;
  c.id = id;
  c.area = id.substr(0, id.find('-'));
  c.title = title;
  c.requirement = requirement;
  c.source = source;
  c.level = "must";
  c.file = file;
  return c;
}

// One case failing under one host, with a failure line full of what GitHub and HTML must not see
// raw, and one passing case.
struct Fixture {
  conf::Case failing, passing;
  conf::RunSummary s;
  conf::RunOptions o;
  Fixture() {
    failing = must_case("OUT-0001", "One, line: 100%", "stdout holds one JSON object", "SPEC§5",
                        kSrc + "/conformance/cases/OUT/OUT-0001.case.json");
    passing = failing;
    passing.id = "OUT-0002";
    passing.file = kSrc + "/conformance/cases/OUT/OUT-0002.case.json";
    conf::HostOutcome bad{"gemini-0.61", "fail", "", {}, {}, "text_shown", json::array()};
    bad.failures = {"[gemini-0.61] line1\r\nline2 50% </script><b>x</b> a,b:c | `tick`"};
    bad.checks.push_back({"stdout", json("one_json_line"), bad.failures[0], 0});
    bad.runs.push_back({{"event", "BeforeTool"},
                        {"command", "adapter --agent gemini"},
                        {"stdin", "{}"},
                        {"stdout", "{}\\n</script><script>alert(1)</script>\\xff\\x1b[31m"},
                        {"stdout_bytes", 44},
                        {"stderr", ""},
                        {"stderr_bytes", 0},
                        {"exit", 0},
                        {"effect", "text_shown"},
                        {"host", {{"output", "</script>"}}}});
    conf::HostOutcome good{"gemini-0.61", "pass", "", {}, {}, "allow", json::array()};
    s.cases.push_back({&failing, "FAIL", {bad}, 0.1});
    s.cases.push_back({&passing, "PASS", {good}, 0.1});
    s.passed = 1;
    s.failed = 1;
    o.adapter = "my-adapter --flag 'x y'";
    o.hosts = {"gemini-0.61"};
    o.program = "/opt/bin/conformance";
  }
};

}  // namespace

TEST(GithubCommands, EscapeDataAndProperties) {
  EXPECT_EQ(conf::github_escape_data("50% a\r\nb:c,d"), "50%25 a%0D%0Ab:c,d");
  EXPECT_EQ(conf::github_escape_property("50% a\r\nb:c,d"), "50%25 a%0D%0Ab%3Ac%2Cd");
  // '%' first: an escape sequence in the text is not decoded into a newline by the runner.
  EXPECT_EQ(conf::github_escape_data("%0A"), "%250A");
}

TEST(GithubCommands, OneErrorPerFailingCaseNamingItsFileAndId) {
  Fixture f;
  std::string a = conf::github_annotations(f.s, f.o, kSrc);
  // Exactly one line: the passing case has none.
  ASSERT_EQ(std::count(a.begin(), a.end(), '\n'), 1) << a;
  EXPECT_EQ(a.rfind("::error file=conformance/cases/OUT/OUT-0001.case.json,title=OUT-0001::", 0),
            0u)
      << a;
  EXPECT_TRUE(std::filesystem::exists(kSrc + "/conformance/cases/OUT/OUT-0001.case.json"));
  // The message: the state, the title, the failure line with its \r\n escaped, the rerun command.
  EXPECT_NE(a.find("FAIL: One, line: 100%25 [must]%0A"), std::string::npos) << a;
  // Each failure line stays one line of the message (its CR/LF become spaces); '%' is escaped.
  EXPECT_NE(a.find("%0A[gemini-0.61] line1  line2 50%25 "), std::string::npos) << a;
  EXPECT_EQ(a.find('\r'), std::string::npos) << a;
  EXPECT_NE(a.find("Rerun: /opt/bin/conformance run --adapter 'my-adapter --flag '\\''x y'\\''' "
                   "--host gemini-0.61 --filter OUT-0001"),
            std::string::npos)
      << a;
  // Outside the workspace the path stays as it is (absolute).
  std::string b = conf::github_annotations(f.s, f.o, "/nonexistent-workspace");
  EXPECT_NE(b.find("file=" + conf::github_escape_property(f.failing.file) + ","), std::string::npos)
      << b;
}

TEST(GithubCommands, NonStrictIsAWarningAndTheCountIsBounded) {
  Fixture f;
  f.s.cases[0].state = "NON-STRICT";
  std::string a = conf::github_annotations(f.s, f.o, kSrc);
  EXPECT_EQ(a.rfind("::warning file=", 0), 0u) << a;
  f.s.cases[0].state = "FAIL";
  f.s.cases[1] = f.s.cases[0];
  a = conf::github_annotations(f.s, f.o, kSrc, 1);
  // The common-cause notice (both failures read "line1"), one error, the "1 more" notice.
  EXPECT_EQ(std::count(a.begin(), a.end(), '\n'), 3) << a;
  EXPECT_EQ(a.rfind("::notice title=conformance%3A one cause::2 failures; 2 share: line1 — read "
                    "OUT-0001 first\n",
                    0),
            0u)
      << a;
  EXPECT_NE(a.find("::notice title=conformance::1 more failing case(s)"), std::string::npos) << a;
}

TEST(JobSummary, TotalsPerHostPerAreaAndEscapedFailures) {
  Fixture f;
  std::string md = conf::job_summary_markdown(f.s, f.o);
  EXPECT_NE(md.find("**1 passed, 1 failed, 0 skipped**"), std::string::npos) << md;
  EXPECT_NE(md.find("| gemini\\-0\\.61 | 1 | **1** | 0 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| OUT | 1 | **1** | 0 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("### Failures"), std::string::npos) << md;
  EXPECT_NE(md.find("<b>OUT-0001</b> FAIL"), std::string::npos) << md;
  // Hostile text: no raw tag, no raw pipe breaking a table, no raw CR/LF inside the item.
  EXPECT_EQ(md.find("</script>"), std::string::npos) << md;
  EXPECT_EQ(md.find("<b>x</b>"), std::string::npos) << md;
  EXPECT_NE(md.find("&lt;/script&gt;"), std::string::npos) << md;
  EXPECT_EQ(md.find('\r'), std::string::npos) << md;
  EXPECT_NE(md.find("\\| \\`tick\\`"), std::string::npos) << md;
  // The rerun command, in a fence longer than any backtick run inside it.
  EXPECT_NE(md.find("```sh\n/opt/bin/conformance run --adapter"), std::string::npos) << md;
  f.o.adapter = "a ``` b";
  md = conf::job_summary_markdown(f.s, f.o);
  EXPECT_NE(md.find("````sh\n"), std::string::npos) << md;
}

TEST(ConsoleStyle, ColourOnlyOnATerminalAndNeverWithNoColor) {
  // A pipe or a file: plain lines, no colour, no status line.
  auto st = conf::decide_console_style(false, false, nullptr, "xterm", false);
  EXPECT_FALSE(st.colour);
  EXPECT_FALSE(st.progress_line);
  // A terminal: colour and the updating line on stderr.
  st = conf::decide_console_style(true, true, nullptr, "xterm", false);
  EXPECT_TRUE(st.colour);
  EXPECT_TRUE(st.progress_line);
  // NO_COLOR set and non-empty: no colour, whatever its value; empty: as if unset.
  EXPECT_FALSE(conf::decide_console_style(true, true, "1", "xterm", false).colour);
  EXPECT_FALSE(conf::decide_console_style(true, true, "0", "xterm", false).colour);
  EXPECT_TRUE(conf::decide_console_style(true, true, "", "xterm", false).colour);
  // TERM=dumb: neither colour nor cursor movement.
  st = conf::decide_console_style(true, true, nullptr, "dumb", false);
  EXPECT_FALSE(st.colour);
  EXPECT_FALSE(st.progress_line);
  // stdout piped, stderr a terminal: the status line, but no colour in the piped text.
  st = conf::decide_console_style(false, true, nullptr, "xterm", false);
  EXPECT_FALSE(st.colour);
  EXPECT_TRUE(st.progress_line);
  // --quiet: no status line.
  st = conf::decide_console_style(true, true, nullptr, "xterm", true);
  EXPECT_TRUE(st.quiet);
  EXPECT_FALSE(st.progress_line);
}

TEST(HtmlReport, HostileOutputIsEscapedAndTheOnlyScriptIsOurs) {
  Fixture f;
  std::string h = conf::render_html_report(f.s, f.o);
  EXPECT_EQ(h.find("<script>alert"), std::string::npos);
  size_t closes = 0;
  for (size_t p = 0; (p = h.find("</script", p)) != std::string::npos; ++p) ++closes;
  EXPECT_EQ(closes, 1u);
  EXPECT_EQ(h.find("<b>x</b>"), std::string::npos);
  size_t scripts = 0;
  for (size_t p = 0; (p = h.find("<script", p)) != std::string::npos; ++p) ++scripts;
  EXPECT_EQ(scripts, 1u);
  // Nothing loads from elsewhere.
  for (const char* s : {" src=", "<link", "@import", "url(", "http://", "https://"})
    EXPECT_EQ(h.find(s), std::string::npos) << s;
  // Control bytes and invalid UTF-8 are shown as escapes, never written raw.
  for (unsigned char c : h) {
    EXPECT_TRUE(c >= 0x20 || c == '\n' || c == '\t') << static_cast<int>(c);
    EXPECT_NE(c, 0xff);
  }
  EXPECT_NE(h.find("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(h.find("<span class=\"e bad\" title=\"not UTF-8\">\\xff</span>"), std::string::npos);
  EXPECT_NE(h.find("<span class=e>\\x1b</span>[31m"), std::string::npos);
  // The failing case comes first, open, with its rerun command and the mismatch marked.
  size_t fail_at = h.find("id=\"case-OUT-0001\""), pass_at = h.find("id=\"case-OUT-0002\"");
  ASSERT_NE(fail_at, std::string::npos);
  ASSERT_NE(pass_at, std::string::npos);
  EXPECT_LT(fail_at, pass_at);
  EXPECT_NE(h.find("--host gemini-0.61 --filter OUT-0001</code>"), std::string::npos);
  EXPECT_NE(h.find("bytes after the first line"), std::string::npos);
  EXPECT_NE(h.find("<mark>&lt;/script&gt;"), std::string::npos);
}

TEST(HtmlReport, ShownBytesRoundTrip) {
  bool cut = true;
  EXPECT_EQ(conf::unescape_shown("a\\nb\\\\c\\x00\\xffd", &cut), std::string("a\nb\\c\0\xff"
                                                                             "d",
                                                                             8));
  EXPECT_FALSE(cut);
  EXPECT_EQ(conf::unescape_shown("abc…(5000 bytes)", &cut), "abc");
  EXPECT_TRUE(cut);
}

TEST(HtmlReport, LocatesTheMismatchLikeFileCheck) {
  auto m = conf::locate_mismatch("stdout", json("one_json_line"), "{}\n{}\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->begin, 3u);
  EXPECT_EQ(m->end, 6u);
  m = conf::locate_mismatch("stdout", json("one_json_line"), "{}");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->begin, 2u);  // a point: the missing newline at the end
  EXPECT_EQ(m->end, 2u);
  m = conf::locate_mismatch("stdout", json("one_json_line"), "\xEF\xBB\xBF{}\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->end, 3u);
  m = conf::locate_mismatch("stdout", json("one_json_line"), "{\"a\":tru}\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->note, "not valid JSON here");
  EXPECT_GE(m->begin, 5u);
  // A reply with the wrong value: the key is pointed at, and the note says expected and got.
  const std::string reply = "{\"decision\":\"deny\",\"reason\":\"r\"}\n";
  m = conf::locate_mismatch("reply_has", json{{"decision", "allow"}}, reply);
  ASSERT_TRUE(m);
  EXPECT_EQ(reply.substr(m->begin, m->end - m->begin), "\"decision\"");
  EXPECT_NE(m->note.find("expected \"allow\", got \"deny\""), std::string::npos) << m->note;
  // An exact reply: an extra key is the mismatch.
  m = conf::locate_mismatch("reply", json{{"decision", "deny"}}, reply);
  ASSERT_TRUE(m);
  EXPECT_EQ(reply.substr(m->begin, m->end - m->begin), "\"reason\"");
  m = conf::locate_mismatch("reply_lacks", json::array({"reason"}), reply);
  ASSERT_TRUE(m);
  EXPECT_EQ(reply.substr(m->begin, m->end - m->begin), "\"reason\"");
  // A reply that matches points at nothing.
  EXPECT_FALSE(conf::locate_mismatch("reply_has", json{{"decision", "deny"}}, reply));
  m = conf::locate_mismatch("stderr", json("empty"), "noise");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->end, 5u);
}

// The runner keeps a bounded, escaped copy of each stream and says when it cut: also when the
// escapes (4 characters per control byte), not the byte count, reach the cap. Before, 1000 NUL
// bytes were cut at 512 with no mark, so the report showed a short stream as if it were whole.
TEST(RunRecord, ACutStreamIsMarkedEvenWhenEscapesFillTheCap) {
  conf::Case c;
  auto parsed = conf::parse_case(
      R"({"id":"OUT-9999","area":"OUT","title":"t","requirement":"r","source":"s",)"
      R"("level":"must","family":"gemini","event":"BeforeTool","expect":{"stdout":"empty"}})",
      "x.case.json");
  ASSERT_TRUE(parsed) << parsed.error().message;
  const std::vector<conf::Case> cases = {*parsed};
  conf::RunOptions o;
  o.adapter = "head -c 1000 /dev/zero #";  // the appended --agent/--event become a comment
  o.hosts = {"gemini-0.61"};
  o.fixtures_dir = kSrc + "/fixtures";
  o.profiles_dir = kSrc + "/hosts/antigravity/profiles";
  auto s = conf::run_cases(cases, o, nullptr);
  ASSERT_EQ(s.cases.size(), 1u);
  ASSERT_EQ(s.cases[0].hosts.size(), 1u);
  const auto& h = s.cases[0].hosts[0];
  EXPECT_EQ(h.state, "fail");
  ASSERT_EQ(h.runs.size(), 1u);
  EXPECT_EQ(h.runs[0]["stdout_bytes"], 1000);
  bool cut = false;
  std::string shown = conf::unescape_shown(h.runs[0]["stdout"].get<std::string>(), &cut);
  EXPECT_TRUE(cut) << h.runs[0]["stdout"];
  EXPECT_LT(shown.size(), 1000u);
  // The failed expectation is structured: which key, what it expected, in which run.
  ASSERT_EQ(h.checks.size(), 1u);
  EXPECT_EQ(h.checks[0].check, "stdout");
  EXPECT_EQ(h.checks[0].expected, "empty");
  EXPECT_EQ(h.checks[0].run, 0);
}

// ---- The common cause and the framing stop --------------------------------------------------

namespace {

conf::Case make_case(const std::string& id, const std::string& expect_json) {
  const std::string area = id.substr(0, id.find('-'));
  auto c = conf::parse_case(R"({"id":")" + id + R"(","area":")" + area +
                                R"(","title":"t","requirement":"r","source":"s","level":"must",)"
                                R"("family":"gemini","event":"BeforeTool","expect":)" +
                                expect_json + "}",
                            id + ".case.json");
  EXPECT_TRUE(c) << c.error().message;
  return c ? *c : conf::Case{};
}

// A case with its own event and extra top-level keys ("timeout_ms", "repeat").
conf::Case make_case_on(const std::string& id, const std::string& event,
                        const std::string& expect_json, const std::string& extra = "") {
  const std::string area = id.substr(0, id.find('-'));
  auto c = conf::parse_case(R"({"id":")" + id + R"(","area":")" + area +
                                R"(","title":"t","requirement":"r","source":"s","level":"must",)"
                                R"("family":"gemini","event":")" + event + "\"," + extra +
                                R"("expect":)" + expect_json + "}",
                            id + ".case.json");
  EXPECT_TRUE(c) << c.error().message;
  return c ? *c : conf::Case{};
}

// An adapter command line that acts by event: `sh -c SCRIPT x --agent A --event E`.
std::string by_event(const std::string& script) { return "sh -c '" + script + "' x"; }

conf::RunOptions run_options(const std::string& adapter) {
  conf::RunOptions o;
  o.adapter = adapter;
  o.hosts = {"gemini-0.61"};
  o.fixtures_dir = kSrc + "/fixtures";
  o.profiles_dir = kSrc + "/hosts/antigravity/profiles";
  o.jobs = 1;
  return o;
}

}  // namespace

// The cause of a failed unit, from a real run: the framing verdict in words when the failed
// expectation names it, else the failure line without host and details.
TEST(CommonCause, AUnitsCauseIsTheFramingVerdictOrTheShortFailure) {
  // In id order, as load_cases gives them.
  const std::vector<conf::Case> cases = {
      make_case("ENV-9001", R"({"stderr":"empty"})"),
      make_case("OUT-9001", R"({"stdout":"one_json_line","exit_code":0})")};
  auto s = conf::run_cases(cases, run_options("printf '{}\\n{}\\n' >&1; echo noise >&2 #"),
                           nullptr);
  ASSERT_EQ(s.cases.size(), 2u);
  // Reported in the order given (the report's), although OUT-9001 ran first.
  EXPECT_EQ(s.cases[0].c->id, "ENV-9001");
  EXPECT_EQ(s.cases[0].state, "FAIL");
  EXPECT_EQ(s.cases[0].hosts.at(0).cause, "stderr not empty");
  EXPECT_EQ(s.cases[1].state, "FAIL");
  EXPECT_EQ(s.cases[1].hosts.at(0).cause, "a second line on stdout");
  EXPECT_EQ(conf::failure_cause(s.cases[1]), "a second line on stdout");
  // Two failures, two causes: no majority, no line.
  EXPECT_FALSE(conf::common_failure_cause(s));
}

// When most failures share a cause, one line names it and the first case of them in run order
// (OUT, EXIT, FMT, then by id): EXIT-0001 sorts before OUT-0003 by id but runs after it.
TEST(CommonCause, NamedWithTheCaseToReadFirstInTextGithubAndJson) {
  Fixture f;
  std::vector<conf::Case> defs;
  for (const char* id : {"EXIT-0001", "OUT-0003", "DEEL-0002", "FMT-0002"}) {
    conf::Case c = f.failing;
    c.id = id;
    c.area = std::string(id).substr(0, std::string(id).find('-'));
    defs.push_back(c);
  }
  conf::RunSummary s;
  for (const auto& c : defs) {
    conf::HostOutcome h{"gemini-0.61", "fail", "", {"[gemini-0.61] x"}, {}, "", json::array()};
    h.cause = c.id == "FMT-0002" ? "stderr not empty" : "a second line on stdout";
    s.cases.push_back({&c, "FAIL", {h}, 0.1});
  }
  s.failed = 4;
  auto cc = conf::common_failure_cause(s);
  ASSERT_TRUE(cc);
  EXPECT_EQ(cc->cause, "a second line on stdout");
  EXPECT_EQ(cc->cases, 3);
  EXPECT_EQ(cc->failed, 4);
  EXPECT_EQ(cc->read_first, "OUT-0003");
  EXPECT_EQ(conf::common_cause_line(*cc),
            "4 failures; 3 share: a second line on stdout — read OUT-0003 first");
  const std::string a = conf::github_annotations(s, f.o, kSrc);
  EXPECT_EQ(a.rfind("::notice title=conformance%3A one cause::4 failures; 3 share: a second line "
                    "on stdout — read OUT-0003 first\n",
                    0),
            0u)
      << a;
  const std::string md = conf::job_summary_markdown(s, f.o);
  EXPECT_NE(md.find("**4 failures; 3 share"), std::string::npos) << md;
  pinta::testing::TempDir dir;
  ASSERT_TRUE(conf::write_reports(s, f.o, dir.path()));
  auto rep = json::parse(*pinta::fs::read_file(dir.path() + "/report.json"));
  EXPECT_EQ(rep["common_cause"]["read_first"], "OUT-0003");
  EXPECT_EQ(rep["common_cause"]["cases"], 3);
  EXPECT_EQ(rep["cases"][3]["cause"], "stderr not empty");
  // A unit cut short by a deadline has that as its cause (its first line would read "not run").
  conf::CaseOutcome late = s.cases[0];
  late.state = "DEADLINE";
  late.hosts[0] = conf::HostOutcome{"gemini-0.61", "deadline", "run",
                                    {"[gemini-0.61] not run: the run deadline (50 s) had passed"},
                                    {}, "", json::array()};
  EXPECT_EQ(conf::failure_cause(late), "the run deadline (--run-deadline) passed");
  // Half is not most: two of four share a cause, no line.
  s.cases[0].hosts[0].cause = "exit status 1";
  EXPECT_FALSE(conf::common_failure_cause(s));
  EXPECT_EQ(conf::github_annotations(s, f.o, kSrc).find("one cause"), std::string::npos);
}

// `--profile protocol --matrix`: the cross-host matrix goes into the report files too (report.json
// rows, matrix.md and matrix.html its table, escaped), and not when it was not asked for.
TEST(Reports, TheCrossHostMatrixWhenAskedFor) {
  Fixture f;
  pinta::testing::TempDir plain;
  ASSERT_TRUE(conf::write_reports(f.s, f.o, plain.path()));
  EXPECT_FALSE(json::parse(*pinta::fs::read_file(plain.path() + "/report.json"))
                   .contains("cross_host_matrix"));
  EXPECT_EQ(pinta::fs::read_file(plain.path() + "/matrix.md")->find("Cross-host"),
            std::string::npos);
  f.s.cross_host_text = "hook  host-a  host-b\n<b>x</b>  blocks  runs\n";
  f.s.cross_host_rows =
      json::array({{{"command", "<b>x</b>"},
                    {"cells", json::array({{{"host", "host-a"}, {"verdict", "blocks"}}})}}});
  pinta::testing::TempDir dir;
  ASSERT_TRUE(conf::write_reports(f.s, f.o, dir.path()));
  auto rep = json::parse(*pinta::fs::read_file(dir.path() + "/report.json"));
  EXPECT_EQ(rep["cross_host_matrix"][0]["cells"][0]["verdict"], "blocks");
  const std::string md = *pinta::fs::read_file(dir.path() + "/matrix.md");
  EXPECT_NE(md.find("## Cross-host matrix\n\n```\nhook  host-a  host-b\n"), std::string::npos)
      << md;
  const std::string html = *pinta::fs::read_file(dir.path() + "/matrix.html");
  EXPECT_NE(html.find("<section id=cross-host>"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;x&lt;/b&gt;  blocks  runs"), std::string::npos);
  EXPECT_EQ(html.find("<b>x</b>  blocks"), std::string::npos);
}

// After N framing cases failed with one cause no new case starts (the rest are NOT-RUN and the
// summary says why); failures outside the framing areas do not count; 0 turns the stop off.
TEST(FramingStop, NFramingFailuresOfOneCauseLeaveTheRestNotRun) {
  std::vector<conf::Case> cases;
  for (const char* id : {"ENV-9001", "OUT-9001", "OUT-9002", "EXIT-9001", "FMT-9001"})
    cases.push_back(make_case(id, R"({"stdout":"one_json_line"})"));
  auto o = run_options("printf '{}\\n{}\\n' #");
  o.max_framing_failures = 2;
  auto s = conf::run_cases(cases, o, nullptr);
  std::map<std::string, std::string> state;
  for (const auto& co : s.cases) state[co.c->id] = co.state;
  // Run order OUT-9001, OUT-9002 (the stop), then EXIT, FMT and ENV are left out.
  EXPECT_EQ(state["OUT-9001"], "FAIL");
  EXPECT_EQ(state["OUT-9002"], "FAIL");
  EXPECT_EQ(state["EXIT-9001"], "NOT-RUN");
  EXPECT_EQ(state["FMT-9001"], "NOT-RUN");
  EXPECT_EQ(state["ENV-9001"], "NOT-RUN");
  EXPECT_EQ(s.not_run, 3);
  EXPECT_EQ(s.exit_code(), 1);
  EXPECT_EQ(s.stopped,
            "2 framing units (case x host; OUT, EXIT, FMT run first) failed with one cause (a "
            "second line on stdout); --max-framing-failures 0 or --complete runs every case");
  o.max_framing_failures = 0;
  s = conf::run_cases(cases, o, nullptr);
  EXPECT_EQ(s.not_run, 0);
  EXPECT_EQ(s.failed, 5);
  EXPECT_EQ(s.stopped, "");
}

// The stop ends the units in flight at once (their spawns are cancelled) instead of waiting out
// their host timeouts: a hanging unit beside the one that stops the run is NOT-RUN, in seconds.
TEST(FramingStop, UnitsInFlightEndAtTheStop) {
  const std::vector<conf::Case> cases = {
      make_case_on("OUT-9001", "BeforeTool", R"({"exit_code":0})"),
      make_case_on("OUT-9002", "AfterTool", R"({"exit_code":0})", R"("timeout_ms":30000,)")};
  auto o = run_options(by_event("case \"$*\" in *AfterTool*) sleep 60;; esac; sleep 0.5; exit 3"));
  o.jobs = 2;
  o.max_framing_failures = 1;
  auto s = conf::run_cases(cases, o, nullptr);
  ASSERT_EQ(s.cases.size(), 2u);
  EXPECT_EQ(s.cases[0].state, "FAIL");
  EXPECT_EQ(s.cases[1].state, "NOT-RUN");
  ASSERT_FALSE(s.cases[1].hosts.at(0).failures.empty());
  EXPECT_EQ(s.cases[1].hosts.at(0).failures.front().rfind("not run: stopped mid-run: 1 framing unit ", 0), 0u)
      << s.cases[1].hosts.at(0).failures.front();
  EXPECT_LT(s.seconds, 20.0) << "the hanging unit was waited for (its host timeout is 30 s)";
  EXPECT_EQ(s.exit_code(), 1);
}

// A failure that stands settles the verdict: the latency cases (run last, slow to grade) are not
// started, and the summary says so; --complete (RunOptions::complete) runs them.
TEST(SettledVerdict, LatencyCasesAreLeftOutOnceAFailureStands) {
  const std::vector<conf::Case> cases = {
      make_case_on("ENV-9001", "BeforeTool", R"({"exit_code":0})"),
      make_case_on("PERF-9001", "AfterTool", R"({"exit_code":0,"median_ms":{"metric":"closed","max":5000}})",
                   R"("repeat":3,)")};
  auto o = run_options(by_event("case \"$*\" in *BeforeTool*) exit 3;; esac; exit 0"));
  auto s = conf::run_cases(cases, o, nullptr);
  ASSERT_EQ(s.cases.size(), 2u);
  EXPECT_EQ(s.cases[0].state, "FAIL");
  EXPECT_EQ(s.cases[1].state, "NOT-RUN");
  EXPECT_EQ(s.stopped,
            "the verdict was settled (ENV-9001 under gemini-0.61 (exit status 3)) before the "
            "latency cases, which run last and cannot change it; --complete grades every case");
  o.complete = true;
  s = conf::run_cases(cases, o, nullptr);
  EXPECT_EQ(s.cases[0].state, "FAIL");
  EXPECT_EQ(s.cases[1].state, "PASS");
  EXPECT_EQ(s.stopped, "");
  // A run with no failure runs the latency cases whatever the option.
  o = run_options("exit 0 #");
  s = conf::run_cases(cases, o, nullptr);
  EXPECT_EQ(s.cases[0].state, "PASS");
  EXPECT_EQ(s.cases[1].state, "PASS");
}

// A failure on time is run again at once, alone: the units in flight are stopped and run again
// after it (not waited for); failing alone too, it settles the verdict and ends the run. With
// --complete the stopped unit is run again and passes.
TEST(SettledVerdict, AFailureOnTimeIsConfirmedAloneAtOnce) {
  auto cases = [] {
    return std::vector<conf::Case>{
        make_case_on("INPUT-9001", "BeforeTool", R"({"exit_code":0,"exit_within_ms":300})"),
        make_case_on("INPUT-9002", "AfterTool", R"({"exit_code":0})", R"("timeout_ms":30000,)")};
  };
  const std::string script = "case \"$*\" in *BeforeTool*) sleep 1;; *) sleep SECS;; esac";
  auto with_secs = [&](const std::string& secs) {
    std::string t = script;
    t.replace(t.find("SECS"), 4, secs);
    return by_event(t);
  };
  auto o = run_options(with_secs("60"));
  o.jobs = 2;
  auto s = conf::run_cases(cases(), o, nullptr);
  ASSERT_EQ(s.cases.size(), 2u);
  EXPECT_EQ(s.cases[0].state, "FAIL");
  EXPECT_FALSE(s.cases[0].hosts.at(0).rerun_after.empty()) << "not confirmed alone";
  EXPECT_EQ(s.reran, 1);
  EXPECT_EQ(s.reran_passed, 0);
  EXPECT_EQ(s.cases[1].state, "NOT-RUN");
  EXPECT_EQ(s.stopped.rfind("the verdict was settled: INPUT-9001 under gemini-0.61 (", 0), 0u)
      << s.stopped;
  EXPECT_NE(s.stopped.find(", again when run alone; --complete grades every case"),
            std::string::npos)
      << s.stopped;
  EXPECT_LT(s.seconds, 25.0) << "the unit in flight was waited for (it sleeps 60 s)";

  o = run_options(with_secs("2"));
  o.jobs = 2;
  o.complete = true;
  s = conf::run_cases(cases(), o, nullptr);
  EXPECT_EQ(s.cases[0].state, "FAIL");
  EXPECT_EQ(s.cases[1].state, "PASS") << (s.cases[1].hosts.at(0).failures.empty() ? "" : s.cases[1].hosts.at(0).failures.front());
  EXPECT_EQ(s.reran, 1);
  EXPECT_EQ(s.stopped, "");
}

// Outside the framing areas too: once kOneCauseStop units failed with one cause, the run stops
// (the verdict and its cause are clear); --complete runs every case.
TEST(SettledVerdict, OneCauseInManyUnitsStopsTheRun) {
  std::vector<conf::Case> cases;
  for (int i = 1; i <= conf::RunOptions::kOneCauseStop + 6; ++i) {
    char id[16];
    std::snprintf(id, sizeof id, "ENV-%04d", 9000 + i);
    cases.push_back(make_case(id, R"({"stderr":"empty"})"));
  }
  auto o = run_options("echo noise >&2; echo {} #");
  auto s = conf::run_cases(cases, o, nullptr);
  EXPECT_EQ(s.failed, conf::RunOptions::kOneCauseStop);
  EXPECT_EQ(s.not_run, 6);
  EXPECT_EQ(s.stopped, std::to_string(conf::RunOptions::kOneCauseStop) +
                           " units (case x host) failed with one cause (stderr not empty); "
                           "--complete grades every case");
  o.complete = true;
  s = conf::run_cases(cases, o, nullptr);
  EXPECT_EQ(s.failed, conf::RunOptions::kOneCauseStop + 6);
  EXPECT_EQ(s.not_run, 0);
}

// ---- the protocol profile's words: hooks named, lines in the config, nothing of case files ----

namespace {

// Two hooks of a settings file graded as one host: one fails, one passes.
struct HookRun {
  conf::Case bad, good;
  conf::RunSummary s;
  conf::RunOptions o;
  HookRun() {
    const std::string file = kSrc + "/conformance/examples/hooks/claude-settings.json";
    bad = must_case("HOOK-0001", "PreToolUse [Bash]: python3 hooks/policy.py",
                    "The host reads every run of this hook as the hook means it",
                    file + "#/hooks/PreToolUse/0", file);
    bad.line = 7;
    good = bad;
    good.id = "HOOK-0002";
    good.title = "Stop: 차단 로그 🚫 ./log_stop.sh";
    good.line = 0;
    conf::HostOutcome f{"claude-code-2.1", "fail", "", {}, {}, "blocking_error", json::array()};
    f.failures = {"[claude-code-2.1] PROTO-6 A block says why: exit 2 without a message"};
    conf::HostOutcome p{"claude-code-2.1", "pass", "", {}, {}, "no_opinion", json::array()};
    s.cases.push_back({&bad, "FAIL", {f}, 0.0344516});
    s.cases.push_back({&good, "PASS", {p}, 0.02});
    s.passed = 1;
    s.failed = 1;
    s.seconds = 0.0344516;
    o.profile = "protocol";
    o.config = bad.file;
    o.adapter = bad.file;
    o.hosts = {"claude-code-2.1"};
  }
};

}  // namespace

TEST(ProtocolWords, AHookIsNamedByItsCommandNotOnlyItsId) {
  HookRun r;
  EXPECT_EQ(conf::case_label(r.bad, r.o), "HOOK-0001 PreToolUse [Bash]: python3 hooks/policy.py");
  conf::RunOptions contract;
  EXPECT_EQ(conf::case_label(r.bad, contract), "HOOK-0001");
}

TEST(ProtocolWords, TimesAreRounded) {
  EXPECT_EQ(conf::seconds_text(0.0344516), "34 ms");
  EXPECT_EQ(conf::seconds_text(1.65753), "1.7 s");
  EXPECT_EQ(conf::seconds_text(12.94), "12.9 s");
  EXPECT_EQ(conf::seconds_text(75.4), "75 s");
}

// GitHub annotations point at the registration: the config file and its line; the title names
// the hook.
TEST(ProtocolWords, AnnotationsCarryTheRegistrationsFileAndLine) {
  HookRun r;
  const std::string a = conf::github_annotations(r.s, r.o, kSrc);
  EXPECT_NE(a.find("::error file=conformance/examples/hooks/claude-settings.json,line=7,title="
                   "HOOK-0001 PreToolUse [Bash]%3A python3 hooks/policy.py::"),
            std::string::npos)
      << a;
}

TEST(ProtocolWords, JobSummaryListsEveryHookInTheProfilesWords) {
  HookRun r;
  const std::string md = conf::job_summary_markdown(r.s, r.o);
  EXPECT_NE(md.find("## Hook protocol:"), std::string::npos) << md;
  EXPECT_NE(md.find("| Hook | Registered at | Result |"), std::string::npos) << md;
  EXPECT_NE(md.find("claude\\-settings\\.json\\:7"), std::string::npos) << md;
  EXPECT_NE(md.find("차단 로그 🚫"), std::string::npos) << md;  // the passing hook is listed too
  EXPECT_EQ(md.find("xfail"), std::string::npos) << md;
  EXPECT_EQ(md.find("| Area |"), std::string::npos) << md;
  EXPECT_NE(md.find("in 34 ms"), std::string::npos) << md;
}

TEST(ProtocolWords, ReportMatricesHaveAHookColumnAndNoAdapter) {
  HookRun r;
  pinta::testing::TempDir dir;
  ASSERT_TRUE(conf::write_reports(r.s, r.o, dir.path()));
  auto md = pinta::fs::read_file(dir.path() + "/matrix.md");
  ASSERT_TRUE(md);
  EXPECT_EQ(md->find("Adapter"), std::string::npos) << *md;
  EXPECT_NE(md->find("| Case | Hook | Level | State | claude-code-2.1 |"), std::string::npos) << *md;
  EXPECT_NE(md->find("| HOOK-0001 | PreToolUse [Bash]: python3 hooks/policy.py | must | FAIL |"),
            std::string::npos)
      << *md;
  auto html = pinta::fs::read_file(dir.path() + "/matrix.html");
  ASSERT_TRUE(html);
  EXPECT_EQ(html->find(">Adapter <code>"), std::string::npos);
  EXPECT_NE(html->find("<th class=hook>Registered as</th>"), std::string::npos);
  EXPECT_NE(html->find("hooks/<wbr>policy.py"), std::string::npos);
  EXPECT_EQ(html->find("xfail / non-strict"), std::string::npos);
  auto rep = pinta::fs::read_file(dir.path() + "/report.json");
  ASSERT_TRUE(rep);
  const json j = json::parse(*rep);
  EXPECT_EQ(j["profile"], "protocol");
  EXPECT_EQ(j["cases"][0]["line"], 7);
}

// Many host columns stand upright (a host's name never wraps); a cell breaks only between the
// words of a snake_case effect.
TEST(HtmlReport, HostNamesNeverBreakAndCellsBreakBetweenWords) {
  Fixture f;
  f.o.hosts = {"gemini-0.26", "gemini-0.27", "gemini-0.29", "gemini-0.35", "gemini-0.61"};
  const std::string html = conf::render_html_report(f.s, f.o);
  EXPECT_NE(html.find("<section id=matrix class=many>"), std::string::npos);
  EXPECT_NE(html.find("#matrix.many th[data-host]{writing-mode:vertical-rl"), std::string::npos);
  EXPECT_EQ(html.find("overflow-wrap:anywhere;word-break:break-word"), std::string::npos);
  EXPECT_NE(html.find("fail (text_<wbr>shown)"), std::string::npos);
}

// One cause, many hosts (an adapter that exits 1 everywhere): its lines are printed once, with
// the hosts that share them and their count.
TEST(FailureBlock, HostsThatFailedAlikeArePrintedOnce) {
  conf::Case c;
  c.id = "OUT-0001";
  c.title = "One JSON line";
  c.level = "must";
  conf::CaseOutcome co{&c, "FAIL", {}, 0.1};
  for (const char* h : {"gemini-0.26", "gemini-0.61", "agy-1.0"}) {
    conf::HostOutcome u{h, "fail", "", {}, {}, "hook_failed", json::array()};
    u.failures = {std::string("[") + h + "] exit status 1, expected 0",
                  std::string("[") + h + "] OUT: stdout is empty; stdout = \"\""};
    co.hosts.push_back(u);
  }
  conf::HostOutcome other{"agy-1.1", "fail", "", {}, {}, "tool_failed", json::array()};
  other.failures = {"[agy-1.1] exit status 3, expected 0"};
  co.hosts.push_back(other);
  const std::string b = conf::failure_block(co);
  auto count = [&](const std::string& s) {
    size_t n = 0;
    for (size_t at = b.find(s); at != std::string::npos; at = b.find(s, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("exit status 1, expected 0"), 1u) << b;
  EXPECT_EQ(count("stdout is empty"), 1u) << b;
  EXPECT_NE(b.find("--- 3 hosts alike: gemini-0.26, gemini-0.61, agy-1.0: fail"), std::string::npos)
      << b;
  EXPECT_NE(b.find("--- host agy-1.1: fail\n  [agy-1.1] exit status 3"), std::string::npos) << b;
}
