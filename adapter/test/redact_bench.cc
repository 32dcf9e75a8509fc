// pinta-redact-bench: redacts its whole stdin once (redact_string, no length cap, no deadline)
// and writes "<bytes out> <peak RSS KiB>" to stdout. ci/bench.sh runs it under its timing helper
// on 1 MB of prose and of adversarial repeats, so a row's ratio to prose is the redactor's own
// cost (start-up and the read are the same for every input). The peak RSS is this process's own
// (VmHWM): wait4's ru_maxrss of a posix_spawn'ed child starts at its parent's, the timer's, which
// holds every payload.
// With --false-positives FIXTURES it prints the false-positive budget's two rates instead
// (benign::false_positives, the corpus of RedactBenign.FalsePositiveRateOnOrdinaryTraffic…):
// "<altered> <ordinary strings over 16 characters> <altered> <SHAs, UUIDs, paths, blobs>".
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "benign_corpus.h"
#include "pinta/adapter/redact.h"
#include "pinta/common/version.h"

int main(int argc, char** argv) {
  if (int rc = pinta::answer_version_or_help(
          argc, argv, "pinta-redact-bench",
          "usage: pinta-redact-bench < INPUT\n"
          "       pinta-redact-bench --false-positives FIXTURES_DIR\n"
          "Redacts all of stdin once (no length cap, no deadline) and prints\n"
          "\"<bytes out> <peak RSS KiB>\"; ci/bench.sh times it for the redaction-cost rows.\n"
          "--false-positives: redacts the ordinary strings (the fixtures' and the benign corpora)\n"
          "and prints \"<altered> <strings over 16 characters> <altered> <SHAs, UUIDs, paths>\".\n");
      rc >= 0)
    return rc;
  if (argc == 3 && std::strcmp(argv[1], "--false-positives") == 0) {
    const auto r = pinta::adapter::benign::false_positives(
        argv[2], [](const std::string& s) { return pinta::adapter::redact_string(s, 0); },
        [](const std::string&, const std::string&) {});
    std::printf("%zu %zu %zu %zu\n", r.ordinary_altered, r.ordinary, r.shapes_altered, r.shapes);
    return r.ordinary < 1000 ? 1 : 0;  // fixtures/ not found
  }
  if (argc > 1) {
    std::fprintf(stderr, "pinta-redact-bench: unexpected argument %s (it reads stdin; --help)\n",
                 argv[1]);
    return 2;
  }
  std::string in;
  char buf[1 << 16];
  for (ssize_t n; (n = ::read(0, buf, sizeof buf)) > 0;) in.append(buf, static_cast<std::size_t>(n));
  pinta::adapter::WorkBudget unlimited = pinta::adapter::WorkBudget::unlimited();
  const std::string out = pinta::adapter::redact_string(in, 0, &unlimited);
  long hwm = -1;
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f))
      if (std::strncmp(line, "VmHWM:", 6) == 0) hwm = std::strtol(line + 6, nullptr, 10);
    std::fclose(f);
  }
  std::printf("%zu %ld\n", out.size(), hwm);
  return out.empty() && !in.empty() ? 1 : 0;
}
