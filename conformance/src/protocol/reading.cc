// The families' protocol readings (reading.h): the table protocol.cc asks, and what they share.
#include "reading.h"

#include <iterator>
#include <regex>

#include "pinta/common/fs.h"
#include "pinta/conformance/conformance.h"
#include "pinta/hosts/family.h"
#include "workspace.h"

namespace pinta::conformance::protocol {

// One per registered family, in the registry's order (hosts/families.def); each is defined in
// protocol/<folder>.cc as readings::<folder>::kReading.
#define PINTA_FAMILY(Id, folder, name) \
  namespace readings::folder {         \
  extern const FamilyReading kReading; \
  }
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY

namespace {
const FamilyReading* const kReadings[] = {
#define PINTA_FAMILY(Id, folder, name) &readings::folder::kReading,
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
};
static_assert(std::size(kReadings) == pinta::hosts::kFamilyCount,
              "every registered family needs a protocol reading (conformance/src/protocol/)");
}  // namespace

const FamilyReading& family_reading(pinta::hosts::Family f) {
  return *kReadings[static_cast<std::size_t>(f)];
}

size_t session_rank(pinta::hosts::Family f, const std::string& event) {
  const auto order = family_reading(f).session_order;
  const auto ev = pinta::hosts::canonical_event_name(f, event);
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] == ev || order[i] == event) return 2 * i;
  return order.size() < 2 ? 0 : 2 * order.size() - 3;  // between the last two listed
}

json sample_args(ToolArgs a, const std::string& ws) {
  switch (a) {
    case ToolArgs::kWriteFile:
      return {{"file_path", ws + "/notes.txt"}, {"content", "hello\n"}};
    case ToolArgs::kShell:
      return {{"command", "ls -la"}};
    case ToolArgs::kEdit:
      return {{"file_path", ws + "/notes.txt"}, {"old_string", "hello"}, {"new_string", "bye"}};
    case ToolArgs::kMcpWrite:
      return {{"path", ws + "/notes.txt"}, {"content", "hello\n"}};
    case ToolArgs::kPath:
      break;
  }
  return {{"file_path", ws + "/notes.txt"}};
}

std::string sample_output(const json& args) {
  return args.is_object() && args.value("command", std::string()) == "ls -la" ? "notes.txt\n" : "";
}

bool nonblank(const std::string& s) { return s.find_first_not_of(" \t\r\n") != std::string::npos; }

bool has_json_line(const std::string& out) {
  size_t at = 0;
  while (at <= out.size()) {
    const size_t nl = std::min(out.find('\n', at), out.size());
    if (json::parse(out.substr(at, nl - at), nullptr, false).is_object()) return true;
    at = nl + 1;
  }
  return false;
}

std::string exit_text(const pinta::proc::SpawnResult& r) {
  if (r.exit_code) return "exit " + std::to_string(*r.exit_code);
  if (r.term_signal) return "killed by signal " + std::to_string(*r.term_signal);
  return "no exit status";
}

std::string read_text(const std::string& path, std::string& err) {
  auto t = pinta::fs::read_file(path, 4u << 20);
  if (!t) {
    err = "cannot read " + path + ": " + t.error().message;
    return "";
  }
  return *t;
}

namespace {

// Variables a host sets only for a plugin's or an extension's own hooks: the fix is to grade the
// folder. Claude Code: ${CLAUDE_PLUGIN_ROOT} in a plugin's hook commands and environment
// (https://code.claude.com/docs/en/plugins-reference, "Environment variables"); Codex: PLUGIN_ROOT
// and CLAUDE_PLUGIN_ROOT in a plugin's commands (pinta::hosts::codex, plugin_dirs); Gemini CLI:
// ${extensionPath} and ${workspacePath} in an extension's hooks/hooks.json only (GEM §1.6).
constexpr std::string_view kPackageVars[] = {"CLAUDE_PLUGIN_ROOT", "PLUGIN_ROOT", "extensionPath",
                                             "workspacePath"};

bool package_var(const std::string& v) {
  return std::find(std::begin(kPackageVars), std::end(kPackageVars), v) != std::end(kPackageVars);
}

// Whether `v` is a variable some host sets for its hooks.
bool host_var(const std::string& v) {
  if (package_var(v)) return true;
  for (const auto& d : pinta::hosts::families())
    for (auto n : family_reading(d.id).hook_vars)
      if (n == v) return true;
  return false;
}

// The first of the evidence lines an interpreter or shell prints when the hook's own program
// cannot start, with what is missing: the program (not found), a script or module (cannot open,
// not found), or the permission (not executable). Lines of a script that ran carry the script's
// name and a line number first, so a hook's own "command not found" is not read as this.
struct Evidence {
  std::string line, missing;
  enum Kind { kProgram, kFile, kModule, kExec } kind;
};
std::optional<Evidence> start_failure(const pinta::proc::SpawnResult& r) {
  static const std::regex kShell(
      R"(^(?:\S*/)?(?:sh|bash|dash|zsh|ksh)(?:: line \d+|: \d+)?: (.+): )"
      R"((not found|command not found|No such file or directory|Permission denied|)"
      R"(cannot execute.*)$)");
  static const std::regex kShellOpen(
      R"(^(?:\S*/)?(?:sh|bash|dash|zsh|ksh)(?:: \d+)?: )"
      R"((?:cannot open|Can't open) (.+?)(?:: .*)?$)");
  static const std::regex kPython(R"(^\S*python[0-9.]*: can't open file '([^']*)')");
  static const std::regex kPerl(R"re(^Can't open perl script "([^"]*)")re");
  static const std::regex kRuby(R"(^\S*ruby: No such file or directory -- (\S+))");
  static const std::regex kNode(R"(^Error: Cannot find module '([^']*)')");
  const bool any_exit = r.exit_code && *r.exit_code != 0;
  if (!any_exit || r.timed_out || r.hard_limited) return std::nullopt;
  const bool node_missing = r.err.find("MODULE_NOT_FOUND") != std::string::npos;
  size_t at = 0;
  for (int n = 0; n < 40 && at < r.err.size() && at < (8u << 10); ++n) {
    const size_t nl = std::min(r.err.find('\n', at), r.err.size());
    const std::string line = r.err.substr(at, std::min<size_t>(nl - at, 600));
    at = nl + 1;
    std::smatch m;
    if ((*r.exit_code == 127 || *r.exit_code == 126) && std::regex_match(line, m, kShell)) {
      const std::string what = m[1].str(), why = m[2].str();
      const bool exec = why.starts_with("Permission") || why.starts_with("cannot execute");
      const bool program = !exec && what.find('/') == std::string::npos;
      return Evidence{line, what,
                      exec      ? Evidence::kExec
                      : program ? Evidence::kProgram
                                : Evidence::kFile};
    }
    if (std::regex_search(line, m, kShellOpen) || std::regex_search(line, m, kPython) ||
        std::regex_search(line, m, kPerl) || std::regex_search(line, m, kRuby))
      return Evidence{line, m[1].str(), Evidence::kFile};
    if (node_missing && std::regex_search(line, m, kNode)) {
      const std::string mod = m[1].str();
      const bool path = mod.find('/') != std::string::npos || mod.starts_with(".");
      return Evidence{line, mod, path ? Evidence::kFile : Evidence::kModule};
    }
  }
  if (*r.exit_code == 127 || *r.exit_code == 126) {
    const std::string first = r.err.substr(0, std::min(r.err.find('\n'), size_t{300}));
    return Evidence{first, "", *r.exit_code == 126 ? Evidence::kExec : Evidence::kProgram};
  }
  return std::nullopt;
}

// The host's variable naming the project folder ("" when it has none).
std::string project_var(const FamilyReading& fr) {
  for (auto v : fr.hook_vars)
    if (v.ends_with("_PROJECT_DIR")) return std::string(v);
  return "";
}

}  // namespace

std::optional<Finding> never_ran(pinta::hosts::Family f, const ProtocolHook& h,
                                 const std::map<std::string, std::string>& env,
                                 const HookOutcome& o) {
  const auto& fr = family_reading(f);
  const std::string host(pinta::hosts::descriptor(f).display_name);
  std::string what, fix;
  for (const auto& v : shell_variables(h.command)) {
    if (!host_var(v) || env.count(v) ||
        std::find(fr.hook_vars.begin(), fr.hook_vars.end(), v) != fr.hook_vars.end())
      continue;
    what = "the command names $" + v + ", which " + host + " does not set for this hook: it runs " +
           "with it empty";
    fix = package_var(v) ? "$" + v + " is set only for the hooks of a plugin or extension that " +
                               "the host installed: grade that folder (--config <its folder>)"
                         : "name the path without it (relative to the project folder, or through " +
                               (project_var(fr).empty() ? std::string("an absolute path")
                                                        : "$" + project_var(fr)) +
                               ")";
    break;
  }
  const auto ev = start_failure(o.raw);
  if (what.empty() && !ev) return std::nullopt;
  if (ev) {
    const std::string seen = "`" + ev->line + "` (" + exit_text(o.raw) + ")";
    if (what.empty()) {
      switch (ev->kind) {
        case Evidence::kProgram:
          what = "its program was not found: " + seen;
          fix = (ev->missing.empty() ? std::string("the program") : "`" + ev->missing + "`") +
                " must be on the PATH the host gives hooks, or named by its path";
          break;
        case Evidence::kFile:
          what = "its interpreter could not open `" + ev->missing + "`: " + seen;
          fix =
              "the host runs the command in the project folder: name the script relative to it "
              "or by an absolute path" +
              (project_var(fr).empty() ? std::string() : " ($" + project_var(fr) + "/…)");
          break;
        case Evidence::kModule:
          what = "a module it needs is missing: " + seen;
          fix = "install its dependencies (npm install) in the folder it runs from";
          break;
        case Evidence::kExec:
          what = "it could not be executed: " + seen;
          fix = "make the file executable (chmod +x) or run it through its interpreter";
          break;
      }
    } else {
      what += "; then " + seen;
    }
  }
  // What the host does with a hook that never runs, on every call.
  std::string reaction;
  if (pinta::hosts::is_gate_event(f, h.event) && fr.gate_call) {
    const std::string call = fr.gate_call(o);
    reaction = call == "blocks" ? host + " blocks every tool call this hook sees (" + o.effect + ")"
               : call == "asks"
                   ? host + " asks a person on every tool call this hook sees (" + o.effect + ")"
                   : host + " counts a broken hook and runs every tool call (" + o.effect + ")";
  } else {
    reaction = host + " reads every run of it as " + o.effect;
  }
  return Finding{"PROTO-0", "never ran: " + what + ". " + reaction + ". Fix: " + fix};
}

}  // namespace pinta::conformance::protocol
