// PINTA-PLACEHOLDER: replaced by the hosts helper.
#include "common.h"

namespace pinta::hostlint::detail {
Status lint_codex(const std::string&, const std::string&, const LintOptions&, Sink&) { return {}; }
Result<std::vector<ExplainSection>> explain_codex(const ExplainRequest&, const LintOptions&,
                                                  Locator&) {
  return bad_request("codex: explain not built yet");
}
}  // namespace pinta::hostlint::detail
