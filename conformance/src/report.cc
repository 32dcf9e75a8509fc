// --report DIR: report.json (everything), junit.xml (CI), matrix.md / matrix.html (cases × hosts).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pinta/common/text.h"
#include "pinta/conformance/conformance.h"
#include "pinta/conformance/output.h"

namespace pinta::conformance {
namespace {

std::string xml_escape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    if (const char* e = pinta::text::markup_entity(static_cast<char>(c)))
      o += e;
    else if (c < 0x20 && c != '\n' && c != '\t')
      o += "?";
    else
      o += static_cast<char>(c);
  }
  return o;
}

std::string cell(const CaseOutcome& co, const std::string& host) {
  for (const auto& h : co.hosts) {
    if (h.host != host) continue;
    if (h.state == "hooks_not_run") return "hooks do not run";
    std::string s = h.state == "pass" ? "ok" : h.state;
    if (!h.effect.empty()) s += " (" + h.effect + ")";
    return s;
  }
  return "";
}

// Text in a Markdown table cell: '|' and newlines would end the cell or the row.
std::string md_cell(const std::string& s) {
  std::string o = pinta::text::replace_all(pinta::text::replace_all(s, "|", "\\|"), "`", "\\`");
  for (char& c : o)
    if (c == '\n' || c == '\r') c = ' ';
  return o;
}

json checks_json(const HostOutcome& h) {
  json a = json::array();
  for (const auto& c : h.checks)
    a.push_back({{"check", c.check},
                  {"expected", c.expected},
                  {"message", c.message},
                  {"run", c.run < 0 ? json() : json(c.run)}});
  return a;
}

Status write(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) return make_error(ErrorCode::kIo, "cannot write " + path);
  return {};
}

// report.json: the run, every case and every host's outcome.
json report_json(const RunSummary& s, const RunOptions& o) {
  json rep = {{"adapter", o.adapter},
              {"profile", o.profile},
              {"hosts", o.hosts},
              {"strict", o.strict},
              {"passed", s.passed},
              {"failed", s.failed},
              {"skipped", s.skipped},
              {"seconds", s.seconds},
              {"not_run", s.not_run},
              {"deadlines", {{"case", s.case_deadlines}, {"run", s.run_deadlines}}},
              {"stopped", s.stopped.empty() ? json() : json(s.stopped)},
              {"reran", {{"units", s.reran},
                         {"passed", s.reran_passed},
                         {"stopped", s.rerun_stopped.empty() ? json() : json(s.rerun_stopped)}}},
              {"common_cause", json()},
              {"cases", json::array()}};
  if (auto cc = common_failure_cause(s))
    rep["common_cause"] = {{"cause", cc->cause},
                           {"cases", cc->cases},
                           {"failed", cc->failed},
                           {"read_first", cc->read_first},
                           {"line", common_cause_line(*cc)}};
  for (const auto& co : s.cases) {
    json c = {{"id", co.c->id},
              {"area", co.c->area},
              {"level", co.c->level},
              {"title", co.c->title},
              {"requirement", co.c->requirement},
              {"source", co.c->source},
              {"file", co.c->file},
              {"line", co.c->line > 0 ? json(co.c->line) : json()},
              {"state", co.state},
              {"cause", is_failure_state(co.state) ? json(failure_cause(co)) : json()},
              {"seconds", co.seconds},
              {"hosts", json::array()}};
    for (const auto& h : co.hosts)
      c["hosts"].push_back({{"host", h.host},
                            {"state", h.state},
                            {"deadline", h.deadline.empty() ? json() : json(h.deadline)},
                            {"effect", h.effect},
                            {"cause", h.cause.empty() ? json() : json(h.cause)},
                            {"rerun_after", h.rerun_after.empty() ? json() : json(h.rerun_after)},
                            {"failures", h.failures},
                            {"failed_checks", h.failed_checks},
                            {"notes", h.notes},
                            {"checks", checks_json(h)},
                            {"runs", h.runs}});
    rep["cases"].push_back(std::move(c));
  }
  if (!s.cross_host_rows.is_null()) rep["cross_host_matrix"] = s.cross_host_rows;
  return rep;
}

// junit.xml: a test suite per area, a test case per case.
std::string junit_xml(const RunSummary& s) {
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"conformance\">\n";
  std::map<std::string, std::vector<const CaseOutcome*>> by_area;
  for (const auto& co : s.cases) by_area[co.c->area].push_back(&co);
  for (const auto& [area, list] : by_area) {
    int f = 0, sk = 0;
    for (auto* co : list) {
      if (is_failure_state(co->state)) ++f;
      if (co->state == "UNSUPPORTED" || co->state == "NOT-RUN") ++sk;
    }
    x << " <testsuite name=\"" << area << "\" tests=\"" << list.size() << "\" failures=\"" << f
      << "\" skipped=\"" << sk << "\">\n";
    for (auto* co : list) {
      x << "  <testcase classname=\"conformance." << area << "\" name=\"" << co->c->id
        << "\" time=\"" << co->seconds << "\">";
      if (is_failure_state(co->state))
        x << "<failure message=\"" << co->state << "\">" << xml_escape(failure_block(*co))
          << "</failure>";
      else if (co->state == "UNSUPPORTED" || co->state == "NOT-RUN")
        x << "<skipped/>";
      x << "</testcase>\n";
    }
    x << " </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

// matrix.md: one row per case, one column per host/profile; the cell shows the host's effect. The
// protocol profile's rows are the author's hooks: a Hook column names each, and the file graded
// is "Hooks", not an adapter.
std::string matrix_md(const RunSummary& s, const RunOptions& o) {
  const bool hooks = o.profile == "protocol";
  std::ostringstream md;
  md << "# Conformance matrix\n\n" << (hooks ? "Hooks" : "Adapter") << ": `" << o.adapter
     << "` — " << s.passed << " passed, " << s.failed << " failed";
  if (!hooks) md << ", " << s.skipped << " skipped";
  md << (o.strict ? " (--strict)" : "")
     << ". Cells: `ok` or the failure state, with what the host did with the reply.\n\n| Case | "
     << (hooks ? "Hook | " : "") << "Level | State |";
  for (const auto& h : o.hosts) md << " " << h << " |";
  md << "\n|---|---|---|" << (hooks ? "---|" : "");
  for (size_t i = 0; i < o.hosts.size(); ++i) md << "---|";
  md << "\n";
  for (const auto& co : s.cases) {
    md << "| " << co.c->id << " | ";
    if (hooks) md << md_cell(co.c->title) << " | ";
    md << co.c->level << " | " << co.state << " |";
    for (const auto& h : o.hosts) md << " " << cell(co, h) << " |";
    md << "\n";
  }
  // --matrix: what each host does with the call after each hook's reply (render_matrix's table).
  if (!s.cross_host_text.empty())
    md << "\n## Cross-host matrix\n\n```\n" << s.cross_host_text << "```\n";
  return md.str();
}

}  // namespace

Status write_reports(const RunSummary& s, const RunOptions& o, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return make_error(ErrorCode::kIo,
                      "cannot create report directory " + dir + ": " + ec.message());
  // Adapter output is escaped by the runner, but the command line and case text need not be
  // UTF-8: replaced, never thrown.
  if (auto st = write(dir + "/report.json",
                      report_json(s, o).dump(2, ' ', false, json::error_handler_t::replace) + "\n");
      !st)
    return st;
  if (auto st = write(dir + "/junit.xml", junit_xml(s)); !st) return st;
  if (auto st = write(dir + "/matrix.md", matrix_md(s, o)); !st) return st;
  return write(dir + "/matrix.html", render_html_report(s, o));
}

}  // namespace pinta::conformance
