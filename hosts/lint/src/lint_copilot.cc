// PINTA-PLACEHOLDER: replaced by the hosts helper (lint and explain for Copilot CLI 1.0's hook
// files; no path is detected as Copilot's until then).
#include "common.h"

namespace pinta::hostlint::detail {
Status lint_copilot(const std::string&, const std::string&, const LintOptions&, Sink&) {
  return {};
}
Result<std::vector<ExplainSection>> explain_copilot(const ExplainRequest&, const LintOptions&,
                                                    Locator&) {
  return bad_request("copilot: explain not built yet");
}
}  // namespace pinta::hostlint::detail
