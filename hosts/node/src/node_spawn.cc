// Node.js 20 child_process.spawn: environment and cwd failures (node_spawn.h).
#include "pinta/hosts/node/node_spawn.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <set>

#include "pinta/hosts/node/js_regex.h"
#include "pinta/common/text.h"

extern char** environ;  // NOLINT

namespace pinta::hosts::node {
namespace {

// UTF-8 → string as Node decodes it (WHATWG decoder: each maximal invalid subpart is one U+FFFD),
// written back as UTF-8.
std::string node_decode(const std::string& s) {
  std::string out;
  size_t i = 0;
  auto put = [&](char32_t c) {
    pinta::text::append_utf8(out, c);
  };
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    int need = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    char32_t cp = 0;
    if (b < 0x80) {
      put(b);
      ++i;
      continue;
    }
    if (b >= 0xC2 && b <= 0xDF) need = 1, cp = b & 0x1F;
    else if (b >= 0xE0 && b <= 0xEF) need = 2, cp = b & 0x0F, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4) need = 3, cp = b & 0x07, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    else {
      put(0xFFFD);
      ++i;
      continue;
    }
    size_t j = i + 1;
    int got = 0;
    while (got < need && j < s.size()) {
      const auto c = static_cast<unsigned char>(s[j]);
      if (c < lo || c > hi) break;
      cp = (cp << 6) | (c & 0x3F);
      lo = 0x80, hi = 0xBF;
      ++j, ++got;
    }
    if (got == need) put(cp);
    else put(0xFFFD);
    i = j;
  }
  return out;
}

}  // namespace

bool is_array_index(const std::string& name) {
  if (name.empty() || name.size() > 10) return false;
  if (name.size() > 1 && name[0] == '0') return false;
  unsigned long long v = 0;
  for (char c : name) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v <= 4294967294ULL;
}

EnvPairs process_env(const EnvPairs& environ_entries) {
  EnvPairs out;
  std::set<std::string> seen;
  for (const auto& [k0, v0] : environ_entries) {
    if (k0.empty()) continue;
    std::string k = node_decode(k0);
    if (is_array_index(k) || !seen.insert(k).second) continue;
    out.emplace_back(std::move(k), node_decode(v0));
  }
  return out;
}

EnvPairs current_process_env() {
  EnvPairs raw;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string kv(*e);
    auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    raw.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return process_env(raw);
}

EnvPairs spread_env(const EnvPairs& base,
                    const std::vector<std::pair<std::string, std::optional<std::string>>>& props) {
  std::vector<std::pair<std::string, std::optional<std::string>>> obj;
  for (const auto& [k, v] : base) obj.emplace_back(k, v);
  for (const auto& prop : props) {
    auto it = std::find_if(obj.begin(), obj.end(),
                           [&](const auto& p) { return p.first == prop.first; });
    if (it != obj.end())
      it->second = prop.second;
    else
      obj.emplace_back(prop.first, prop.second);
  }
  // Ordinary object key order: array indices ascending, then strings in insertion order.
  std::stable_sort(obj.begin(), obj.end(), [](const auto& a, const auto& b) {
    const bool ia = is_array_index(a.first), ib = is_array_index(b.first);
    if (ia != ib) return ia;
    if (ia) return std::stoull(a.first) < std::stoull(b.first);
    return false;
  });
  EnvPairs out;
  for (auto& [k, v] : obj)
    if (v) out.emplace_back(k, *v);
  return out;
}

SpawnFailure spawn_failure(const std::string& file, int err) {
  const char* name = strerrorname_np(err);
  const std::string code = name ? name : ("Unknown system error " + std::to_string(-err));
  SpawnFailure f;
  switch (err) {
    case EACCES:
    case EAGAIN:
    case EMFILE:
    case ENFILE:
    case ENOENT:
      f.message = "spawn " + file + " " + code;
      break;
    default:
      f.thrown = true;
      f.message = "spawn " + code;
  }
  return f;
}

std::optional<SpawnFailure> cwd_failure(const std::string& file, const std::string& cwd) {
  if (cwd.empty()) return std::nullopt;
  if (cwd.find('\0') != std::string::npos) {
    // util.inspect of the string, for the characters a JSON cwd can bring.
    std::string shown = "'";
    for (char c : cwd) {
      switch (c) {
        case '\0': shown += "\\x00"; break;
        case '\'': shown += "\\'"; break;
        case '\\': shown += "\\\\"; break;
        case '\n': shown += "\\n"; break;
        case '\t': shown += "\\t"; break;
        case '\r': shown += "\\r"; break;
        default: shown += c;
      }
    }
    shown += "'";
    return SpawnFailure{true,
                        "The property 'options.cwd' must be a string, Uint8Array, or URL without "
                        "null bytes. Received " + shown};
  }
  // The child's chdir(cwd): the path must resolve to a directory (ENOENT, ENOTDIR, ELOOP,
  // ENAMETOOLONG, EACCES on a component) that it may search (EACCES).
  int fd = ::open(cwd.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return spawn_failure(file, errno);
  ::close(fd);
  const int ok = ::access(cwd.c_str(), X_OK);
  const int e = errno;
  if (ok != 0 && e == EACCES) return spawn_failure(file, EACCES);
  return std::nullopt;
}

}  // namespace pinta::hosts::node
