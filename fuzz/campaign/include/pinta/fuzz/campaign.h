// File: pinta/fuzz/campaign.h (fuzz/campaign/include)
// The process-level fuzz campaign as a library, so both `pinta-fuzz-campaign` and
// `conformance fuzz` run the same engine. See campaign.cc for what a run does and checks, and for
// the units it is split into (generate, execute, judge, report).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pinta::fuzz::campaign {

struct Options {
  std::vector<std::string> adapter;  // argv words of the adapter command (no shell)
  std::string host;                  // gemini | antigravity | agy | a conformance host name
  long runs = 1000;
  uint64_t seed = 1;
  int jobs = 2;
  std::string out = "fuzz-campaign-out";
  std::string fixtures;
  long budget_ms = 3000;
  bool misbehave = true;  // fake guard / collector servers with scripted misbehaviour
  // GUARD-14: every run is the host's gate event with a generated adversarial tool input (deep,
  // huge, odd encodings, over the input cap) against a guard that denies everything; any reply
  // but the deny is a finding ("allow-under-deny-guard", "guard-not-asked").
  bool adversarial = false;
  bool quiet = false;     // no progress on stderr (findings and the summary still print)
  // How often progress is reported when stderr is not a TTY (a plain line each time); on a TTY
  // one line is redrawn in place at most every 200 ms.
  long progress_interval_ms = 10000;
  std::string program = "pinta-fuzz-campaign";  // prefix of setup error messages
};

// Splits a command line into words (whitespace; '…' and "…" group, \ escapes; no expansion)
// and makes argv[0] usable from any working directory: a relative path with a '/' becomes
// absolute against the current directory (each run's cwd is a scratch home), a bare name is
// looked up in $PATH. "" + *error on failure.
std::vector<std::string> adapter_argv(const std::string& command, std::string* error);

// Runs the campaign; prints progress on stderr unless quiet (on a TTY one line redrawn in place,
// otherwise a plain line every progress_interval_ms), findings on stderr, and one JSON summary
// line on stdout. Returns 0 (no finding), 1 (findings) or 2 (usage / setup error).
int run(const Options& options);

// `pinta-fuzz-campaign` argument parsing (argv[0] is the program name).
int cli_main(int argc, char** argv);

}  // namespace pinta::fuzz::campaign
