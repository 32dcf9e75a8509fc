// The families' protocol readings (reading.h): the table protocol.cc asks, and what they share.
#include "reading.h"

#include <iterator>

#include "pinta/common/fs.h"
#include "pinta/conformance/conformance.h"

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

}  // namespace pinta::conformance::protocol
