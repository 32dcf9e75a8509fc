// pinta-fuzz-campaign: process-level fuzzing of the adapter binary, run the way hosts run it.
//   pinta-fuzz-campaign --adapter "<cmd>" --host gemini|antigravity [--runs N] [--seed S]
//                       [--jobs J] [--out DIR] [--fixtures DIR] [--budget-ms B] [--no-misbehave]
// The same engine is `conformance fuzz`. Exit: 0 no finding, 1 findings, 2 usage error.
#include "campaign.h"

int main(int argc, char** argv) { return pinta::fuzz::campaign::cli_main(argc, argv); }
