// Console style, GitHub workflow commands, the Markdown job summary and rerun commands.
#include "pinta/conformance/output.h"

#include <filesystem>
#include <map>
#include <sstream>

#include "pinta/common/text.h"

namespace pinta::conformance {
namespace {

// Valid UTF-8 kept; control bytes become a space, invalid bytes U+FFFD; at most `max` bytes
// (then "…").
std::string clean_line(const std::string& s, size_t max) {
  std::string o;
  size_t i = 0;
  while (i < s.size() && o.size() < max) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) {
      o += ' ';
      ++i;
      continue;
    }
    if (c < 0x80) {
      o += static_cast<char>(c);
      ++i;
      continue;
    }
    size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
    bool ok = n > 0 && i + n <= s.size();
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (ok) {
      o.append(s, i, n);
      i += n;
    } else {
      o += "\xEF\xBF\xBD";
      ++i;
    }
  }
  if (i < s.size()) o += "…";
  return o;
}

// Markdown text that renders as itself: HTML specials as entities, ASCII punctuation
// backslash-escaped (CommonMark allows that for every ASCII punctuation character).
std::string md_text(const std::string& s, size_t max = 300) {
  std::string o;
  for (char ch : clean_line(s, max)) {
    if (const char* e = pinta::text::markup_entity(ch)) {
      o += e;
    } else {
      if (std::string("\\`*_{}[]()#+-.!|~:").find(ch) != std::string::npos) o += '\\';
      o += ch;
    }
  }
  return o;
}

// Text inside an HTML block of the summary (CommonMark does not process Markdown there).
std::string html_text(const std::string& s, size_t max = 300) {
  return pinta::text::markup_escape(clean_line(s, max));
}

// A fenced code block whose fence is longer than any backtick run inside.
std::string md_code_block(const std::string& text) {
  size_t run = 0, longest = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  return fence + "sh\n" + text + "\n" + fence + "\n";
}

std::string relative_to(const std::string& file, const std::string& root) {
  if (root.empty()) return file;
  namespace stdfs = std::filesystem;
  std::error_code ec;
  stdfs::path f = stdfs::weakly_canonical(stdfs::absolute(file, ec), ec);
  stdfs::path r = stdfs::weakly_canonical(stdfs::absolute(root, ec), ec);
  if (ec) return file;
  stdfs::path rel = f.lexically_relative(r);
  if (rel.empty() || *rel.begin() == "..") return file;
  return rel.generic_string();
}

// The failing hosts of a case (host state not pass and not skipped).
std::vector<const HostOutcome*> failing_hosts(const CaseOutcome& co) {
  std::vector<const HostOutcome*> out;
  for (const auto& h : co.hosts) {
    std::string k = unit_kind(co.state, h.state);
    if (k == "fail" || k == "warn") out.push_back(&h);
  }
  return out;
}

}  // namespace

ConsoleStyle decide_console_style(bool stdout_tty, bool stderr_tty, const char* no_color,
                                  const char* term, bool quiet) {
  ConsoleStyle st;
  const bool dumb = term && std::string(term) == "dumb";
  st.quiet = quiet;
  st.colour = stdout_tty && !dumb && !(no_color && *no_color);
  st.progress_line = stderr_tty && !dumb && !quiet;
  return st;
}

std::string unit_kind(const std::string& case_state, const std::string& host_state) {
  if (host_state == "pass") return "pass";
  if (host_state == "fail" || host_state == "deadline" || host_state == "unresolved")
    return is_failure_state(case_state) ? "fail" : "warn";
  return "skip";  // unsupported, hooks_not_run, not_run
}

std::string case_label(const Case& c, const RunOptions& o) {
  return o.profile == "protocol" && !c.title.empty() ? c.id + " " + c.title : c.id;
}

std::string seconds_text(double seconds) {
  char b[32];
  if (seconds < 0.9995)
    snprintf(b, sizeof b, "%.0f ms", seconds * 1000);
  else if (seconds < 59.95)
    snprintf(b, sizeof b, "%.1f s", seconds);
  else
    snprintf(b, sizeof b, "%.0f s", seconds);
  return b;
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-./=:,+@%") == std::string::npos)
    return s;
  std::string o = "'";
  for (char c : s) {
    if (c == '\'')
      o += "'\\''";
    else
      o += c;
  }
  return o + "'";
}

std::string rerun_command(const RunOptions& o, const std::string& host, const std::string& id) {
  std::string cmd = shell_quote(o.program) + " run";
  if (o.profile == "protocol") {
    cmd += " --profile protocol";
    if (!o.config.empty()) cmd += " --config " + shell_quote(o.config);
    if (!o.hook.empty()) cmd += " --hook " + shell_quote(o.hook);
  } else {
    if (!o.cases_dir.empty()) cmd += " --cases " + shell_quote(o.cases_dir);
    cmd += " --adapter " + shell_quote(absolute_command(o.adapter));
  }
  if (!host.empty()) cmd += " --host " + shell_quote(host);
  cmd += " --filter " + shell_quote(id);
  if (o.strict) cmd += " --strict";
  return cmd;
}

std::string github_annotations(const RunSummary& s, const RunOptions& o,
                               const std::string& workspace, size_t max_per_kind) {
  std::ostringstream out;
  // First, when most failures share one cause: the one line that says where to start.
  if (auto cc = common_failure_cause(s))
    out << "::notice title=" << github_escape_property("conformance: one cause") << "::"
        << github_escape_data(common_cause_line(*cc)) << "\n";
  size_t errors = 0, warnings = 0, left = 0;
  for (const auto& co : s.cases) {
    const bool error = is_failure_state(co.state);
    if (!error && co.state != "NON-STRICT") continue;
    size_t& printed = error ? errors : warnings;
    if (printed >= max_per_kind) {
      ++left;
      continue;
    }
    ++printed;
    const auto fh = failing_hosts(co);
    std::string msg = co.state + ": " + co.c->title + " [" + co.c->level + "]\n" +
                      co.c->requirement + " (" + co.c->source + ")\n";
    size_t lines = 0;
    for (const auto* h : fh)
      for (const auto& f : h->failures) {
        if (lines++ < 8) msg += clean_line(f, 400) + "\n";
      }
    if (lines > 8)
      msg += "… " + std::to_string(lines - 8) + " more failure line(s) in the report\n";
    msg += "Rerun: " + rerun_command(o, fh.size() == 1 ? fh[0]->host : "", co.c->id);
    out << (error ? "::error " : "::warning ")
        << "file=" << github_escape_property(relative_to(co.c->file, workspace));
    if (co.c->line > 0) out << ",line=" << co.c->line;
    out << ",title=" << github_escape_property(clean_line(case_label(*co.c, o), 200))
        << "::" << github_escape_data(msg) << "\n";
  }
  if (left)
    out << "::notice title=conformance::"
        << github_escape_data(std::to_string(left) +
                              " more failing case(s) not annotated (GitHub shows 10 errors and 10 "
                              "warnings per step); see the job summary or the report")
        << "\n";
  return out.str();
}

std::string job_summary_markdown(const RunSummary& s, const RunOptions& o) {
  std::ostringstream md;
  const bool hooks = o.profile == "protocol";
  if (hooks)
    md << "## Hook protocol: " << md_text(o.adapter, 200) << " as " << md_text(o.hosts.empty() ? "" : o.hosts.front())
       << "\n\n";
  else
    md << "## Conformance: " << md_text(o.adapter, 200) << "\n\n";
  md << (s.failed ? "❌ " : "✅ ") << "**" << s.passed << (hooks ? " hook(s) passed, " : " passed, ")
     << s.failed << " failed";
  if (!hooks) md << ", " << s.skipped << " skipped";
  md << "**";
  if (s.not_run) md << ", " << s.not_run << " not run";
  md << (o.strict ? (hooks ? " (`--strict`: SHOULD checks count)" : " (`--strict`: SHOULD cases count)") : "")
     << " in " << md_text(seconds_text(s.seconds)) << ".\n\n";
  if (auto cc = common_failure_cause(s))
    md << "**" << md_text(common_cause_line(*cc), 400) << "**\n\n";
  if (s.not_run)
    md << md_text(std::to_string(s.not_run) + " case(s) not run: " + s.stopped, 400) << "\n\n";

  struct Count {
    int pass = 0, fail = 0, warn = 0, skip = 0;
  };
  std::map<std::string, Count> by_host, by_area;
  for (const auto& co : s.cases) {
    Count& a = by_area[co.c->area];
    if (co.state == "PASS")
      ++a.pass;
    else if (is_failure_state(co.state))
      ++a.fail;
    else if (co.state == "XFAIL" || co.state == "NON-STRICT")
      ++a.warn;
    else
      ++a.skip;
    for (const auto& h : co.hosts) {
      Count& c = by_host[h.host];
      std::string k = unit_kind(co.state, h.state);
      if (k == "pass")
        ++c.pass;
      else if (k == "fail")
        ++c.fail;
      else if (k == "warn")
        ++c.warn;
      else
        ++c.skip;
    }
  }
  if (hooks) {
    // One row a hook, named as its author wrote it, where it is registered, and its verdict.
    md << "| Hook | Registered at | Result |\n|---|---|---|\n";
    for (const auto& co : s.cases) {
      const std::string at = std::filesystem::path(co.c->file).filename().string() +
                             (co.c->line > 0 ? ":" + std::to_string(co.c->line) : "");
      const bool bad = is_failure_state(co.state);
      md << "| " << md_text(case_label(*co.c, o), 200) << " | " << md_text(at) << " | "
         << (bad ? "**" : "") << md_text(co.state) << (bad ? "**" : "") << " |\n";
    }
  } else {
    md << "| Host | pass | fail | xfail / non-strict | skipped |\n|---|---:|---:|---:|---:|\n";
    for (const auto& h : o.hosts) {
      const Count& c = by_host[h];
      md << "| " << md_text(h) << " | " << c.pass << " | " << (c.fail ? "**" : "") << c.fail
         << (c.fail ? "**" : "") << " | " << c.warn << " | " << c.skip << " |\n";
    }
    md << "\n| Area | pass | fail | xfail / non-strict | skipped |\n|---|---:|---:|---:|---:|\n";
    for (const auto& [area, c] : by_area)
      md << "| " << md_text(area) << " | " << c.pass << " | " << (c.fail ? "**" : "") << c.fail
         << (c.fail ? "**" : "") << " | " << c.warn << " | " << c.skip << " |\n";
  }

  size_t nfail = 0;
  for (const auto& co : s.cases) nfail += is_failure_state(co.state);
  if (nfail) {
    md << "\n### Failures\n\n";
    size_t shown = 0;
    for (const auto& co : s.cases) {
      if (!is_failure_state(co.state)) continue;
      if (shown++ >= 30) break;
      const auto fh = failing_hosts(co);
      md << "<details><summary><b>" << html_text(case_label(*co.c, o), 160) << "</b> " << html_text(co.state)
         << " — " << html_text(co.c->title, 120) << " (";
      for (size_t i = 0; i < fh.size(); ++i) md << (i ? ", " : "") << html_text(fh[i]->host);
      md << ")</summary>\n\n";
      md << md_text(co.c->requirement, 400) << " — " << md_text(co.c->source, 200) << "\n\n";
      size_t lines = 0;
      for (const auto* h : fh)
        for (const auto& f : h->failures)
          if (lines++ < 6) md << "- " << md_text(f, 300) << "\n";
      if (lines > 6) md << "- … " << (lines - 6) << " more in the report\n";
      md << "\n" << md_code_block(rerun_command(o, fh.size() == 1 ? fh[0]->host : "", co.c->id));
      md << "\n</details>\n\n";
    }
    if (nfail > 30) md << "… and " << (nfail - 30) << " more failing case(s): see the report.\n";
  }
  return md.str();
}

}  // namespace pinta::conformance
