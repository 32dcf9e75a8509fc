// `hostemu explain`: the hooks that fire for one event, in run order, from the emulators' own
// selection functions (each family's explain_<folder> in lint_<folder>.cc), so explain cannot
// disagree with `run`/`fire`/`session`; and how a report is printed.
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "common.h"
#include "pinta/common/fs.h"
#include "pinta/common/text.h"

namespace pinta::hostlint {

using namespace detail;  // NOLINT(google-build-using-namespace)


Result<std::vector<ExplainSection>> explain(const ExplainRequest& rq, const LintOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_directory(rq.home, ec))
    return bad_request("--home " + rq.home + " is not a directory");
  if (!rq.workspace.empty() && !std::filesystem::is_directory(rq.workspace, ec))
    return bad_request("--workspace " + rq.workspace + " is not a directory");
  if (!rq.host) return bad_request("no host to explain");
  Locator loc;
  // Each family's explain_<folder> (families.def): no family falls through to another's.
  switch (*rq.host) {
#define PINTA_FAMILY(Id, folder, name) \
  case Host::k##Id:                    \
    return explain_##folder(rq, options, loc);
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
  }
  return bad_request("unknown host");
}

std::string format_explain(const std::vector<ExplainSection>& sections, const std::string& format) {
  if (format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& s : sections) {
      nlohmann::json sj{{"host", s.host},
                        {"notes", s.notes},
                        {"dropped", s.dropped},
                        {"hooks", nlohmann::json::array()}};
      for (const auto& h : s.hooks)
        sj["hooks"].push_back({{"order", h.order},
                               {"layer", h.layer},
                               {"file", h.file},
                               {"line", h.pos.line},
                               {"col", h.pos.col},
                               {"command", h.command},
                               {"name", h.name},
                               {"matcher", h.matcher},
                               {"timeout", h.timeout},
                               {"onFailure", h.on_failure}});
      j.push_back(sj);
    }
    return j.dump(2) + "\n";
  }
  // Sections with the same body (everything but the host line) print once: "antigravity agy-1.0.5,
  // agy-1.1: …" rather than six identical blocks.
  auto body = [](const ExplainSection& s) {
    nlohmann::json j{{"notes", s.notes}, {"dropped", s.dropped}};
    for (const auto& h : s.hooks)
      j["hooks"].push_back({h.order, h.layer, h.file, h.pos.line, h.pos.col, h.command, h.name,
                            h.matcher, h.timeout, h.on_failure});
    return j.dump();
  };
  std::vector<std::pair<std::string, const ExplainSection*>> groups;  // label, first section
  std::vector<std::string> keys;
  for (const auto& s : sections) {
    std::string k = body(s);
    auto it = std::find(keys.begin(), keys.end(), k);
    if (it == keys.end()) {
      keys.push_back(k);
      groups.push_back({s.host, &s});
      continue;
    }
    auto& label = groups[static_cast<size_t>(it - keys.begin())].first;
    // "antigravity agy-1.1" + "antigravity agy-1.2" → "antigravity agy-1.1, agy-1.2"
    const std::string prefix = s.host.substr(0, s.host.find(' ') + 1);
    label += ", " + (label.rfind(prefix, 0) == 0 ? s.host.substr(prefix.size()) : s.host);
  }
  std::ostringstream o;
  for (const auto& [label, sp] : groups) {
    const ExplainSection& s = *sp;
    o << label << ": " << s.hooks.size() << (s.hooks.size() == 1 ? " hook" : " hooks") << "\n";
    for (const auto& n : s.notes) o << "  note: " << n << "\n";
    for (const auto& d : s.dropped) o << "  dropped: " << d << "\n";
    for (const auto& h : s.hooks) {
      o << "  " << h.order << ". [" << h.layer << "] " << h.file << ":" << h.pos.line << ":"
        << h.pos.col << "\n";
      o << "     command: " << h.command << "\n";
      if (!h.name.empty()) o << "     name: " << h.name << "\n";
      o << "     matcher: " << (h.matcher.empty() ? "(all)" : "\"" + h.matcher + "\"")
        << "  timeout: " << h.timeout << "\n";
      o << "     on failure: " << h.on_failure << "\n";
    }
  }
  return o.str();
}

}  // namespace pinta::hostlint
