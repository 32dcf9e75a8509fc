// PINTA-PLACEHOLDER: replaced by the admin helper (install, uninstall and doctor for Copilot CLI
// 1.0: our hooks in ~/.copilot/hooks/, labelled by the format written).
#include "admin_internal.h"

namespace pinta::admin {
namespace {
Result<Plan> install_plan(const InstallOptions&) {
  return make_error(ErrorCode::kInvalidArgument, "copilot: install not built yet");
}
Status uninstall_plan(const InstallOptions&, const State&, Plan&) { return {}; }
void check_copilot(const DoctorOptions&, DoctorReport&) {}
std::vector<LintFile> lint_files(const DoctorOptions&) { return {}; }
}  // namespace
namespace copilot {
extern const FamilyAdmin kAdmin{.plan_install = install_plan,
                                .plan_uninstall = uninstall_plan,
                                .check = check_copilot,
                                .lint_files = lint_files,
                                .workspace_refused = "",
                                .state_under_dot_gemini = false};
}  // namespace copilot
}  // namespace pinta::admin
