// pinta-redact-bench: redacts its whole stdin once (redact_string, no length cap, no deadline)
// and writes the result's length to stdout. ci/bench.sh runs it under its timing helper on 1 MB
// of prose and of adversarial repeats, so a row's ratio to prose is the redactor's own cost
// (start-up and the read are the same for every input) and wait4 gives the peak RSS.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "pinta/adapter/redact.h"

int main() {
  std::string in;
  char buf[1 << 16];
  for (ssize_t n; (n = ::read(0, buf, sizeof buf)) > 0;) in.append(buf, static_cast<std::size_t>(n));
  pinta::adapter::WorkBudget unlimited = pinta::adapter::WorkBudget::unlimited();
  const std::string out = pinta::adapter::redact_string(in, 0, &unlimited);
  std::printf("%zu\n", out.size());
  return out.empty() && !in.empty() ? 1 : 0;
}
