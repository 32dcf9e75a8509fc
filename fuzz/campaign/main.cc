// pinta-fuzz-campaign: process-level fuzzing of the adapter binary, run the way hosts run it.
//   pinta-fuzz-campaign --adapter "<cmd>" --host <family>|<host> [--runs N] [--seed S]
//                       [--jobs J] [--out DIR] [--fixtures DIR] [--budget-ms B] [--no-misbehave]
//                       [--quiet] [--progress-interval-ms MS]
//   pinta-fuzz-campaign --version
// The same engine is `conformance fuzz`. Exit: 0 no finding, 1 findings, 2 usage error.
#include <cstdio>
#include <string_view>

#include "pinta/fuzz/campaign.h"
#include "pinta/common/version.h"

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::fputs(pinta::version_line("pinta-fuzz-campaign").c_str(), stdout);
    return 0;
  }
  return pinta::fuzz::campaign::cli_main(argc, argv);
}
