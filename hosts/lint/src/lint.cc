// `hostemu lint`: each host's findings come from its emulator loader (gemini::load_hooks_file,
// agy::parse_hooks_json per profile, deel::unfold); the per-host lints turn them into positioned
// findings and add the checks loaders do not make (timeout units, matcher shape, commands, layers,
// trust): lint_gemini.cc, lint_antigravity.cc, lint_deel.cc, claude.cc. This file tells which host
// reads a file, runs its lint and holds the helpers the per-host lints share.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "common.h"
#include "pinta/common/fs.h"
#include "pinta/common/text.h"

namespace pinta::hostlint {
namespace detail {

using pinta::text::ascii_lower;

// Where nlohmann's parser stops on a syntax error (position only; the verdict is the loader's).
void syntax_error(const std::string& text, bool comments, Position& pos, std::string& detail) {
  try {
    auto j = nlohmann::json::parse(text, nullptr, true, comments);
    (void)j;
  } catch (const nlohmann::json::parse_error& e) {
    pos = position_of_offset(text, e.byte == 0 ? 0 : e.byte - 1);
    detail = e.what();
    if (auto q = detail.find("syntax error"); q != std::string::npos) detail = detail.substr(q);
  }
}

std::string env_or(const LintOptions& o, const char* k) {
  if (auto it = o.env.find(k); it != o.env.end()) return it->second;
  if (!o.env.empty()) return "";
  const char* v = std::getenv(k);
  return v ? v : "";
}

std::string home_of(const LintOptions& o) {
  return normalize(o.home.empty() ? env_or(o, "HOME") : o.home);
}

bool same_file(const std::string& a, const std::string& b) { return normalize(a) == normalize(b); }

// RFC 6901 token back to the key: "~1" → "/", "~0" → "~".
std::string unescape_token(const std::string& t) {
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '~' && i + 1 < t.size() && (t[i + 1] == '0' || t[i + 1] == '1')) {
      out += t[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      out += t[i];
    }
  }
  return out;
}

bool any_host_event(const std::string& k) {
  static const std::set<std::string> all = {
      "pretooluse",   "posttooluse", "preinvocation",    "postinvocation",     "stop",
      "sessionstart", "sessionend",  "userpromptsubmit", "notification",       "precompact",
      "subagentstop", "beforetool",  "aftertool",        "beforeagent",        "afteragent",
      "precompress",  "beforemodel", "aftermodel",       "beforetoolselection"};
  return all.count(ascii_lower(k)) > 0;
}

namespace {
std::vector<std::pair<Host, PathDetectorFn>>& detectors() {
  static std::vector<std::pair<Host, PathDetectorFn>> d;
  return d;
}
std::vector<ShapeDetectorEntry>& shapes() {
  static std::vector<ShapeDetectorEntry> d;
  return d;
}
}  // namespace

// Kept in families.def order (shapes: by rank first) whatever order the registering files'
// initializers run in.
const std::vector<std::pair<Host, PathDetectorFn>>& path_detectors() { return detectors(); }
PathDetector::PathDetector(Host host, PathDetectorFn fn) {
  auto& d = detectors();
  d.insert(std::upper_bound(d.begin(), d.end(), host,
                            [](Host h, const auto& e) { return h < e.first; }),
           {host, fn});
}
const std::vector<ShapeDetectorEntry>& shape_detectors() { return shapes(); }
ShapeDetector::ShapeDetector(Host host, int rank, ShapeDetectorFn fn) {
  auto& d = shapes();
  const ShapeDetectorEntry e{host, rank, fn};
  d.insert(std::upper_bound(d.begin(), d.end(), e,
                            [](const ShapeDetectorEntry& a, const ShapeDetectorEntry& b) {
                              return a.rank != b.rank ? a.rank < b.rank : a.host < b.host;
                            }),
           e);
}

}  // namespace detail

using namespace detail;  // NOLINT(google-build-using-namespace)
namespace sfs = std::filesystem;

// Which family reads a hook file: by its path, else by its root's shape, each family's rules in
// its lint_<folder>.cc (PathDetector, ShapeDetector).
Result<Host> detect_host(const std::string& path, const std::string& text) {
  std::string p = normalize(path);
  for (const auto& [host, known] : path_detectors())
    if (known(p)) return host;
  auto j = ojson::parse(text, nullptr, false, true);
  auto cannot = [&](const std::string& why) -> Result<Host> {
    return make_error(ErrorCode::kInvalidArgument,
                      path + ": cannot tell which host reads this file (" + why + "); pass --host " +
                          host_names());
  };
  if (j.is_discarded()) return cannot("not JSON, and not at a known hooks path");
  bool some = false;
  for (const auto& d : shape_detectors()) {
    const ShapeMatch m = d.fn(j);
    if (m == ShapeMatch::kYes) return d.host;
    some = some || m == ShapeMatch::kSome;
  }
  if (!j.is_object()) return cannot("not a JSON object");
  if (j.contains("hooks") && j["hooks"].is_object())
    return cannot("a {\"hooks\": {...}} root with " +
                  std::string(some ? "mixed" : "Claude-style") +
                  " event names is read by several hosts");
  return cannot("not at a known hooks path and no host's shape");
}

Result<std::vector<Finding>> lint_text(const std::string& path, const std::string& text,
                                       const LintOptions& options) {
  Host host;
  if (options.host) {
    host = *options.host;
  } else {
    auto h = detect_host(path, text);
    if (!h) return h.error();
    host = *h;
  }
  const PositionIndex index = PositionIndex::build(text);
  Sink sink{path, &index, {}};
  // Each family's lint_<folder> (families.def); one that can fail the whole file returns a Status.
  auto run = [&](auto&& lint) -> Status {
    if constexpr (std::is_void_v<decltype(lint())>) {
      lint();
      return {};
    } else {
      return lint();
    }
  };
  switch (host) {
#define PINTA_FAMILY(Id, folder, name)                                                   \
  case Host::k##Id:                                                                      \
    if (auto r = run([&] { return lint_##folder(path, text, options, sink); }); !r)      \
      return r.error();                                                                  \
    break;
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
  }
  std::stable_sort(sink.out.begin(), sink.out.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.pos.line, a.pos.col) < std::tie(b.pos.line, b.pos.col);
  });
  return sink.out;
}

Result<std::vector<Finding>> lint_paths(const std::vector<std::string>& paths,
                                        const LintOptions& options) {
  std::vector<Finding> all;
  for (const auto& p : paths) {
    std::error_code ec;
    if (sfs::is_directory(p, ec))
      return make_error(ErrorCode::kInvalidArgument, p + ": is a directory, not a hooks file");
    auto text = pinta::fs::read_file(p);
    if (!text) return make_error(text.error().code, p + ": " + text.error().message);
    auto f = lint_text(p, *text, options);
    if (!f) return f.error();
    all.insert(all.end(), f->begin(), f->end());
  }
  return all;
}

}  // namespace pinta::hostlint
