// --report DIR: report.json (everything), junit.xml (CI), matrix.md / matrix.html (cases × hosts).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pinta/conformance/conformance.h"

namespace pinta::conformance {
namespace {

std::string xml_escape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    switch (c) {
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '&':
        o += "&amp;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        if (c < 0x20 && c != '\n' && c != '\t')
          o += "?";
        else
          o += static_cast<char>(c);
    }
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

Status write(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) return make_error(ErrorCode::kIo, "cannot write " + path);
  return {};
}

}  // namespace

Status write_reports(const RunSummary& s, const RunOptions& o, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return make_error(ErrorCode::kIo,
                      "cannot create report directory " + dir + ": " + ec.message());
  json rep = {{"adapter", o.adapter},
              {"hosts", o.hosts},
              {"strict", o.strict},
              {"passed", s.passed},
              {"failed", s.failed},
              {"skipped", s.skipped},
              {"seconds", s.seconds},
              {"not_run", s.not_run},
              {"deadlines", {{"case", s.case_deadlines}, {"run", s.run_deadlines}}},
              {"cases", json::array()}};
  for (const auto& co : s.cases) {
    json c = {{"id", co.c->id},
              {"area", co.c->area},
              {"level", co.c->level},
              {"title", co.c->title},
              {"requirement", co.c->requirement},
              {"source", co.c->source},
              {"state", co.state},
              {"seconds", co.seconds},
              {"hosts", json::array()}};
    for (const auto& h : co.hosts)
      c["hosts"].push_back({{"host", h.host},
                            {"state", h.state},
                            {"deadline", h.deadline.empty() ? json() : json(h.deadline)},
                            {"effect", h.effect},
                            {"failures", h.failures},
                            {"failed_checks", h.failed_checks},
                            {"runs", h.runs}});
    rep["cases"].push_back(std::move(c));
  }
  if (auto st = write(dir + "/report.json", rep.dump(2) + "\n"); !st) return st;

  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"conformance\">\n";
  std::map<std::string, std::vector<const CaseOutcome*>> by_area;
  for (const auto& co : s.cases) by_area[co.c->area].push_back(&co);
  for (const auto& [area, list] : by_area) {
    int f = 0, sk = 0;
    for (auto* co : list) {
      if (co->state == "FAIL" || co->state == "XPASS" || co->state == "UNRESOLVED" ||
          co->state == "DEADLINE")
        ++f;
      if (co->state == "UNSUPPORTED" || co->state == "NOT-RUN") ++sk;
    }
    x << " <testsuite name=\"" << area << "\" tests=\"" << list.size() << "\" failures=\"" << f
      << "\" skipped=\"" << sk << "\">\n";
    for (auto* co : list) {
      x << "  <testcase classname=\"conformance." << area << "\" name=\"" << co->c->id
        << "\" time=\"" << co->seconds << "\">";
      if (co->state == "FAIL" || co->state == "XPASS" || co->state == "UNRESOLVED" ||
          co->state == "DEADLINE")
        x << "<failure message=\"" << co->state << "\">" << xml_escape(failure_block(*co))
          << "</failure>";
      else if (co->state == "UNSUPPORTED" || co->state == "NOT-RUN")
        x << "<skipped/>";
      x << "</testcase>\n";
    }
    x << " </testsuite>\n";
  }
  x << "</testsuites>\n";
  if (auto st = write(dir + "/junit.xml", x.str()); !st) return st;

  // Matrix: one row per case, one column per host/profile; the cell shows the host's effect.
  std::ostringstream md, html;
  md << "# Conformance matrix\n\nAdapter: `" << o.adapter << "` — " << s.passed << " passed, "
     << s.failed << " failed, " << s.skipped << " skipped" << (o.strict ? " (--strict)" : "")
     << ". Cells: `ok` or the failure state, with what the host did with the reply.\n\n| Case | "
        "Level | State |";
  for (const auto& h : o.hosts) md << " " << h << " |";
  md << "\n|---|---|---|";
  for (size_t i = 0; i < o.hosts.size(); ++i) md << "---|";
  md << "\n";
  html << "<!doctype html><meta charset=utf-8><title>Conformance "
          "matrix</title><style>td,th{border:1px solid #ccc;"
          "padding:2px 6px;font:12px "
          "monospace}.fail{background:#fbb}.ok{background:#cfc}.skip{color:#999}</style>"
       << "<h1>Conformance matrix</h1><p>" << xml_escape(o.adapter) << ": " << s.passed
       << " passed, " << s.failed << " failed, " << s.skipped
       << " skipped</p><table><tr><th>Case</th><th>Level</th><th>State</th>";
  for (const auto& h : o.hosts) html << "<th>" << h << "</th>";
  html << "</tr>";
  for (const auto& co : s.cases) {
    md << "| " << co.c->id << " | " << co.c->level << " | " << co.state << " |";
    html << "<tr><td title=\"" << xml_escape(co.c->requirement) << "\">" << co.c->id << "</td><td>"
         << co.c->level << "</td><td>" << co.state << "</td>";
    for (const auto& h : o.hosts) {
      std::string c = cell(co, h);
      md << " " << c << " |";
      std::string cls = c.rfind("ok", 0) == 0                         ? "ok"
                        : c.empty() || c.rfind("unsupported", 0) == 0 ||
                                  c == "hooks do not run"
                            ? "skip"
                                                                      : "fail";
      html << "<td class=" << cls << ">" << xml_escape(c) << "</td>";
    }
    md << "\n";
    html << "</tr>";
  }
  html << "</table>\n";
  if (auto st = write(dir + "/matrix.md", md.str()); !st) return st;
  return write(dir + "/matrix.html", html.str());
}

}  // namespace pinta::conformance
