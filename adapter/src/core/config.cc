#include "pinta/adapter/config.h"

#include <sys/stat.h>
#include <unistd.h>

extern char** environ;

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "pinta/common/fs.h"

namespace pinta::adapter {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool valid_key(std::string_view k) {
  if (k.empty()) return false;
  for (size_t i = 0; i < k.size(); ++i) {
    char c = k[i];
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

const char* env(const char* name) {
  return std::getenv(name);  // NOLINT(concurrency-mt-unsafe): the adapter is single-threaded here
}

}  // namespace

EnvFileParse parse_env_file(std::string_view content) {
  EnvFileParse out;
  size_t line_no = 0;
  while (!content.empty()) {
    size_t nl = content.find('\n');
    std::string_view line = content.substr(0, nl);
    content.remove_prefix(nl == std::string_view::npos ? content.size() : nl + 1);
    ++line_no;
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    if (line.substr(0, 7) == "export " || line.substr(0, 7) == "export\t") line = trim(line.substr(7));
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      out.bad_lines.push_back(line_no);
      continue;
    }
    std::string_view key = trim(line.substr(0, eq));
    std::string_view raw = trim(line.substr(eq + 1));
    if (!valid_key(key)) {
      out.bad_lines.push_back(line_no);
      continue;
    }
    std::string value;
    bool ok = true;
    if (!raw.empty() && (raw.front() == '"' || raw.front() == '\'')) {
      char q = raw.front();
      size_t i = 1;
      bool closed = false;
      for (; i < raw.size(); ++i) {
        char c = raw[i];
        if (c == q) {
          closed = true;
          break;
        }
        if (q == '"' && c == '\\' && i + 1 < raw.size()) {
          char n = raw[++i];
          switch (n) {
            case 'n': value += '\n'; break;
            case 't': value += '\t'; break;
            case 'r': value += '\r'; break;
            case '"': case '\\': case '$': value += n; break;
            default: value += '\\'; value += n;
          }
          continue;
        }
        value += c;
      }
      // Only whitespace or a comment may follow the closing quote.
      std::string_view rest = closed ? trim(raw.substr(i + 1)) : std::string_view("x");
      ok = closed && (rest.empty() || rest.front() == '#');
    } else {
      size_t hash = raw.find(" #");
      if (hash == std::string_view::npos) hash = raw.find("\t#");
      value = std::string(trim(raw.substr(0, hash)));
    }
    if (!ok) {
      out.bad_lines.push_back(line_no);
      continue;
    }
    out.entries.emplace_back(std::string(key), std::move(value));
  }
  return out;
}

std::string default_env_file_path() {
  std::string home = fs::home_dir();
  return home.empty() ? std::string() : home + "/.gemini/pinta-gemini.env";
}

namespace {

// The name part of an environment entry "NAME=value".
std::string_view entry_name(const char* entry) {
  const char* eq = std::strchr(entry, '=');
  return eq != nullptr ? std::string_view(entry, static_cast<size_t>(eq - entry)) : std::string_view(entry);
}

}  // namespace

EnvFileLoad load_env_file(const std::string& path) {
  EnvFileLoad r;
  r.path = path;
  if (path.empty()) return r;
  // One open that never blocks (a FIFO or device at the path is refused after fstat, never read),
  // following a symbolic link as before (dotfile managers link it); the checks are on what was
  // opened, not on a name that could change in between.
  struct stat st {};
  int fd = fs::open_regular(path, st);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return r;  // absent: nothing to do
    r.outcome = EnvFileOutcome::kUnreadable;
    r.detail = errno == EINVAL ? std::string("not a regular file") : std::string(std::strerror(errno));
    return r;
  }
  // The one trust rule (fs::untrusted_reason) the data dir and its files follow too.
  if (std::string why = fs::untrusted_reason(st, fs::TrustKind::kEnvFile); !why.empty()) {
    ::close(fd);
    r.outcome = EnvFileOutcome::kInsecure;
    r.detail = (st.st_mode & 022) != 0 && st.st_uid == ::geteuid() ? why + " (chmod 600 it)" : why;
    return r;
  }
  auto content = fs::read_all_and_close(fd, path, kMaxEnvFileBytes);
  if (!content) {
    r.outcome = EnvFileOutcome::kUnreadable;
    r.detail = content.error().message;
    return r;
  }
  EnvFileParse parsed = parse_env_file(*content);
  content->clear();

  // Linear in the file, whatever it holds (docs/contract.md ENV-1): later duplicates win inside
  // the file (a hash map from key to its slot), the real environment always wins over the file
  // (a hash set of the names in environ, built once), and the new entries are added by building
  // one new environ array, never by setenv in a loop (glibc's setenv scans and copies environ on
  // every call: 100,000 keys cost 84 s). getenv reads environ as usual afterwards.
  std::unordered_map<std::string_view, size_t> slot;
  slot.reserve(parsed.entries.size());
  std::vector<size_t> order;  // the first place of each key, holding its last value
  order.reserve(parsed.entries.size());
  for (size_t i = 0; i < parsed.entries.size(); ++i) {
    auto [it, fresh] = slot.emplace(parsed.entries[i].first, order.size());
    if (fresh) {
      order.push_back(i);
    } else {
      order[it->second] = i;
    }
  }
  size_t existing = 0;
  std::unordered_set<std::string_view> present;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) ++existing;
  present.reserve(existing);
  for (size_t i = 0; i < existing; ++i) present.insert(entry_name(environ[i]));

  size_t bytes = 0;
  std::vector<size_t> add;
  add.reserve(order.size());
  for (size_t i : order) {
    const auto& [k, v] = parsed.entries[i];
    if (present.count(k) != 0) continue;
    add.push_back(i);
    bytes += k.size() + 1 + v.size() + 1;
  }
  if (!add.empty()) {
    // Never freed: environ points into both for the life of the process (as setenv's copies).
    char* text = new char[bytes];
    char** array = new char*[existing + add.size() + 1];
    for (size_t i = 0; i < existing; ++i) array[i] = environ[i];
    size_t n = existing;
    char* at = text;
    r.applied.reserve(add.size());
    for (size_t i : add) {
      const auto& [k, v] = parsed.entries[i];
      array[n++] = at;
      std::memcpy(at, k.data(), k.size());
      at += k.size();
      *at++ = '=';
      std::memcpy(at, v.data(), v.size());
      at += v.size();
      *at++ = '\0';
      r.applied.push_back(k);
    }
    array[n] = nullptr;
    environ = array;  // NOLINT(concurrency-mt-unsafe): single-threaded, before any thread starts
  }
  r.outcome = EnvFileOutcome::kLoaded;
  if (!parsed.bad_lines.empty()) r.detail = std::to_string(parsed.bad_lines.size()) + " malformed line(s) skipped";
  return r;
}

int64_t env_int(const char* name, int64_t fallback, int64_t lo, int64_t hi) {
  const char* v = env(name);
  if (v == nullptr || *v == '\0') return fallback;
  // from_chars, not strtoll: no locale, and no libc code pages to fault in on the hot path.
  const char* end = v + std::strlen(v);
  int64_t n = 0;
  const char* digits = *v == '+' ? v + 1 : v;
  if (digits != v && *digits == '-') return fallback;  // from_chars would take the "-5" of "+-5"
  auto [ptr, ec] = std::from_chars(digits, end, n);
  if (ec != std::errc() || ptr != end || n < lo || n > hi) return fallback;
  return n;
}

AdapterConfig config_from_environment() {
  AdapterConfig c;
  const char* data = env("GEMINI_PLUGIN_DATA");
  if (data != nullptr && *data != '\0') {
    c.data_dir = data;
  } else {
    std::string home = fs::home_dir();
    if (!home.empty()) c.data_dir = home + "/.gemini/pinta-gemini-data";
  }
  // A relative data dir (GEMINI_PLUGIN_DATA or HOME relative) is made absolute against this
  // process's cwd now: the detached flusher and keeper run in "/" (ENV-13), where the same
  // relative name would be another directory. Without a cwd there is no data dir.
  if (!c.data_dir.empty() && c.data_dir.front() != '/') {
    char cwd[4096];
    if (::getcwd(cwd, sizeof cwd) != nullptr) {
      c.data_dir = std::string(cwd) + "/" + c.data_dir;
    } else {
      c.data_dir.clear();
    }
  }
  // The data dir is ours or unused (ENV-9): an existing one owned by someone else or writable by
  // group/others is not used at all (no debug log, no telemetry). One stat per process; a dir
  // that does not exist yet is created 0700 by the first writer, which checks it again.
  if (!c.data_dir.empty()) {
    Status trust = fs::check_private_dir(c.data_dir);
    if (!trust.ok() && trust.error().code != ErrorCode::kNotFound) {
      c.data_dir_refused = trust.error().message;
      c.data_dir.clear();
    }
  }
  const char* dbg = env("PINTA_GEMINI_DEBUG");
  c.debug = dbg != nullptr && (std::string_view(dbg) == "1" || std::string_view(dbg) == "true");
  c.stdin_timeout = std::chrono::milliseconds(env_int("PINTA_STDIN_TIMEOUT_MS", 1000, 1, 30000));
  c.max_input_bytes = static_cast<size_t>(env_int("PINTA_MAX_INPUT_BYTES", 32L << 20, 1024, 256L << 20));
  return c;
}

}  // namespace pinta::adapter
