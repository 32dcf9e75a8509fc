// File: pinta/conformance/output.h
// How `conformance run` talks to people and to CI besides the report files: the console style
// (progress line, colour, quiet), GitHub Actions workflow commands and the Markdown job summary,
// and the one command line that reruns a case.
#pragma once

#include "pinta/common/text.h"
#include <optional>
#include <string>

#include "pinta/conformance/conformance.h"

namespace pinta::conformance {

// What the console gets. Decided once from the terminal and the environment, so it can be tested
// without one.
struct ConsoleStyle {
  bool progress_line = false;  // one updating status line on stderr instead of a line per case
  bool colour = false;         // ANSI colour on stdout
  bool quiet = false;          // only failures and the final summary
};
// stdout_tty / stderr_tty: isatty of each; no_color: $NO_COLOR (any non-empty value turns colour
// off, https://no-color.org); term: $TERM ("dumb": neither colour nor cursor movement).
ConsoleStyle decide_console_style(bool stdout_tty, bool stderr_tty, const char* no_color,
                                  const char* term, bool quiet);

// How one case × host unit counts in the summaries: "pass", "fail" (the run fails on it), "warn"
// (a failure that does not fail the run: XFAIL, NON-STRICT) or "skip" (unsupported, hooks do not
// run, not run).
std::string unit_kind(const std::string& case_state, const std::string& host_state);

// How a case is named to a person: its id, and under the protocol profile the hook too
// ("HOOK-0002 BeforeTool [run_shell_command]: python3 hooks/policy.py"), the id alone meaning
// nothing to the hook's author.
std::string case_label(const Case& c, const RunOptions& o);
// A duration for people: "34 ms" under a second, "1.7 s" under a minute, else whole seconds.
std::string seconds_text(double seconds);

// The command that reruns one case under one host (shell-quoted, ready to paste).
std::string rerun_command(const RunOptions& o, const std::string& host, const std::string& id);
std::string shell_quote(const std::string& s);

// GitHub workflow-command escaping (actions/toolkit, core/src/command.ts): the message escapes
// %, \r and \n; a property value also ':' and ','.
using pinta::text::github_escape_data;
using pinta::text::github_escape_property;

// One `::error` (a failure of the run) or `::warning` (a SHOULD case failing without --strict)
// line per case, file= the case file relative to `workspace` (when under it), line= where in it
// when known (a protocol hook's registration in its config), title= case_label;
// at most `max_per_kind` of each, then one `::notice` saying how many were left out. GitHub shows
// 10 error, 10 warning and 10 notice annotations per step and drops the rest silently
// (actions/toolkit docs/problem-matchers.md, "Limitations").
std::string github_annotations(const RunSummary& s, const RunOptions& o,
                               const std::string& workspace, size_t max_per_kind = 10);

// The Markdown job summary: totals, per host and per area, then each failure with its rerun
// command. Adapter output in it is escaped and bounded.
std::string job_summary_markdown(const RunSummary& s, const RunOptions& o);

// matrix.html: one self-contained page (inline CSS and JS, no network; works from file://):
// summary per host and per area, the matrix with failures first, and per case its requirement,
// what was sent, what the adapter printed, what each host did with it, each failed expectation
// FileCheck-style (expected pattern, actual text with the mismatch marked) and its rerun command.
// Everything from the adapter is escaped and bounded.
std::string render_html_report(const RunSummary& s, const RunOptions& o);

// The inverse of the runner's printable escaping of adapter bytes (\n, \\, \xNN, then
// "…(N bytes)" when cut): the bytes shown, and whether they were cut.
std::string unescape_shown(const std::string& shown, bool* cut = nullptr);

// Where in `text` (the adapter's stdout or stderr) a failed expectation went wrong: [begin, end)
// (begin == end: a point, e.g. the end of the output) and what is wrong there.
struct Mismatch {
  size_t begin = 0, end = 0;
  std::string note;
};
std::optional<Mismatch> locate_mismatch(const std::string& check, const json& expected,
                                        const std::string& text);

}  // namespace pinta::conformance
