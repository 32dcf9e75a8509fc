// PINTA-PLACEHOLDER: replaced by the admin helper.
#include "admin_internal.h"

namespace pinta::admin {
namespace {
Result<Plan> install_plan(const InstallOptions&) {
  return make_error(ErrorCode::kInvalidArgument, "codex: install not built yet");
}
Status uninstall_plan(const InstallOptions&, const State&, Plan&) { return {}; }
void check_codex(const DoctorOptions&, DoctorReport&) {}
std::vector<LintFile> lint_files(const DoctorOptions&) { return {}; }
}  // namespace
namespace codex {
extern const FamilyAdmin kAdmin{.plan_install = install_plan,
                                .plan_uninstall = uninstall_plan,
                                .check = check_codex,
                                .lint_files = lint_files,
                                .workspace_refused = "",
                                .state_under_dot_gemini = false};
}  // namespace codex
}  // namespace pinta::admin
