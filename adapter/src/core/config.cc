#include "pinta/adapter/config.h"

#include <sys/stat.h>
#include <unistd.h>

extern char** environ;

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "pinta/common/fs.h"
#include "pinta/common/env.h"

namespace pinta::adapter {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A shell name: [A-Za-z_][A-Za-z0-9_]*. One table lookup per byte (a 1 MiB env file has 30,000
// keys).
bool valid_key(std::string_view k) {
  static constexpr auto kNameByte = [] {
    std::array<unsigned char, 256> t{};  // 1: may start a name, 2: may follow
    for (int c = 0; c < 256; ++c) {
      const bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
      t[static_cast<size_t>(c)] = static_cast<unsigned char>((alpha ? 3 : 0) | (c >= '0' && c <= '9' ? 2 : 0));
    }
    return t;
  }();
  if (k.empty() || (kNameByte[static_cast<unsigned char>(k[0])] & 1) == 0) return false;
  for (size_t i = 1; i < k.size(); ++i)
    if ((kNameByte[static_cast<unsigned char>(k[i])] & 2) == 0) return false;
  return true;
}

const char* env(const char* name) {
  return pinta::env::get(name);  // NOLINT(concurrency-mt-unsafe): the adapter is single-threaded here
}

}  // namespace

namespace {

// One entry of the env file, viewing the buffer it was parsed from.
struct EnvEntry {
  std::string_view key, value;
};

// U+FEFF as UTF-8: the byte order mark Notepad and PowerShell 5 (`Out-File -Encoding utf8`) put at
// the start of a file. Not skipped, it made the first line's key "\xEF\xBB\xBFPINTA_…", a
// malformed line: the first setting was dropped (with PINTA_GUARD_ENDPOINT first, no
// guard at all).
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Why a line was skipped (EnvFileBadLine::why).
constexpr std::string_view kNoEquals = "no '=' (not KEY=value)";
constexpr std::string_view kNotAName = "not a variable name";
constexpr std::string_view kQuoteNotClosed = "quote not closed (a value ends on its own line)";
constexpr std::string_view kTextAfterQuote = "text after the closing quote";

// The parser, in place: `buf` is the file's text, owned by the caller; each entry's key and value
// view it. A double-quoted value's escapes are resolved by writing the value over its own raw
// text (never longer than the raw text), so no entry allocates; a file of 100,000 keys is parsed
// with a few vector growths (docs/contract.md ENV-1, linear and cheap before the reply).
//
// `on_bad(line number, text before '=' or "", why)` is called for each skipped line; the text
// before '=' is what the line meant as its key (never its value).
template <class OnEntry, class OnBad>
void scan_env_file(std::string& buf, OnEntry&& on_entry, OnBad&& on_bad) {
  std::string_view content(buf);
  size_t line_no = 0;
  while (!content.empty()) {
    size_t nl = content.find('\n');
    std::string_view line = content.substr(0, nl);
    content.remove_prefix(nl == std::string_view::npos ? content.size() : nl + 1);
    ++line_no;
    // A byte order mark at a line start is not part of the line (the file's first line, or the
    // first line of a file appended to another).
    while (line.substr(0, 3) == kUtf8Bom) line.remove_prefix(3);
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    if (line.substr(0, 7) == "export " || line.substr(0, 7) == "export\t") line = trim(line.substr(7));
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      on_bad(line_no, std::string_view(), kNoEquals);
      continue;
    }
    std::string_view key = trim(line.substr(0, eq));
    std::string_view raw = trim(line.substr(eq + 1));
    if (!valid_key(key)) {
      on_bad(line_no, key, kNotAName);
      continue;
    }
    std::string_view value;
    if (!raw.empty() && (raw.front() == '"' || raw.front() == '\'')) {
      const char q = raw.front();
      // Written over the raw text from its first byte: out never passes the byte being read.
      char* const out0 = buf.data() + (raw.data() - buf.data());
      char* out = out0;
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
            case 'n': *out++ = '\n'; break;
            case 't': *out++ = '\t'; break;
            case 'r': *out++ = '\r'; break;
            case '"': case '\\': case '$': *out++ = n; break;
            default: *out++ = '\\'; *out++ = n;
          }
          continue;
        }
        *out++ = c;
      }
      // Only whitespace or a comment may follow the closing quote.
      std::string_view rest = closed ? trim(raw.substr(i + 1)) : std::string_view("x");
      if (!closed || !(rest.empty() || rest.front() == '#')) {
        on_bad(line_no, key, closed ? kTextAfterQuote : kQuoteNotClosed);
        continue;
      }
      value = std::string_view(out0, static_cast<size_t>(out - out0));
    } else {
      size_t hash = raw.find(" #");
      if (hash == std::string_view::npos) hash = raw.find("\t#");
      value = trim(raw.substr(0, hash));
    }
    on_entry(EnvEntry{key, value});
  }
}

}  // namespace

EnvFileParse parse_env_file(std::string_view content) {
  EnvFileParse out;
  std::string buf(content);
  scan_env_file(
      buf, [&](const EnvEntry& e) { out.entries.emplace_back(std::string(e.key), std::string(e.value)); },
      [&](size_t line, std::string_view, std::string_view) { out.bad_lines.push_back(line); });
  return out;
}

namespace {

// Whether the adapter reads variables of this name (a dropped line of one is a dropped setting).
bool our_variable(std::string_view name) {
  for (std::string_view prefix : {"PINTA_", "GEMINI_PLUGIN_", "OTEL_", "SSL_CERT_"})
    if (name.substr(0, prefix.size()) == prefix) return true;
  return false;
}

// The text before '=' of a malformed line as doctor may show it: a name with invisible or
// non-ASCII characters in it (a zero-width space, a BOM, a look-alike letter, a control byte),
// each written as <U+XXXX> (valid UTF-8) or <0xHH>. "" when the text is not such a name (spaces,
// punctuation, too long): then it may be something else than a key, e.g. a pasted token, and is
// not shown. `plain` gets the name without the odd characters.
std::string shown_key(std::string_view raw, std::string& plain) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string shown;
  plain.clear();
  if (raw.size() > 128) return {};
  for (size_t i = 0; i < raw.size();) {
    const auto c = static_cast<unsigned char>(raw[i]);
    const bool name_byte = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (name_byte) {
      shown.push_back(static_cast<char>(c));
      plain.push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    if (c >= 0x20 && c < 0x7F) return {};  // space or punctuation: not a name with odd bytes
    // A whole UTF-8 sequence as its code point, anything else byte by byte.
    size_t len = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 1;
    uint32_t cp = len == 4 ? c & 0x07u : len == 3 ? c & 0x0Fu : c & 0x1Fu;
    bool valid = len > 1 && i + len <= raw.size() && c < 0xF5;
    for (size_t k = 1; valid && k < len; ++k) {
      const auto cc = static_cast<unsigned char>(raw[i + k]);
      valid = (cc & 0xC0) == 0x80;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    valid = valid && !(len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) &&
            !(len == 4 && (cp < 0x10000 || cp > 0x10FFFF));
    if (valid) {
      shown += "<U+";
      for (int shift = cp > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4) shown.push_back(kHex[(cp >> shift) & 0xF]);
      shown += ">";
      i += len;
    } else {
      shown += "<0x";
      shown.push_back(kHex[c >> 4]);
      shown.push_back(kHex[c & 0xF]);
      shown += ">";
      ++i;
    }
  }
  if (!valid_key(plain)) return {};
  return shown;
}

// The file is UTF-16 (or UTF-32) text: a UTF-16 byte order mark, or a NUL byte among its first
// two bytes (no BOM: "P\0I\0…" little-endian, "\0P\0I…" big-endian). Never text an env file holds.
bool looks_utf16(std::string_view t) {
  if (t.size() < 2) return false;
  const auto b0 = static_cast<unsigned char>(t[0]), b1 = static_cast<unsigned char>(t[1]);
  return (b0 == 0xFF && b1 == 0xFE) || (b0 == 0xFE && b1 == 0xFF) || b0 == 0 || b1 == 0;
}

}  // namespace

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

// Adds the file's entries to the environment (their names to r.applied).
// Linear in the file, whatever it holds (docs/contract.md ENV-1): later duplicates win inside
// the file, the real environment always wins over the file, and the new entries are added by
// building one new environ array, never by setenv in a loop (glibc's setenv scans and copies
// environ on every call: 100,000 keys cost 84 s). Both lookups are one open-addressing table of
// entry indices (no node per key: the allocations were half the cost of a 1 MiB file).
// getenv reads environ as usual afterwards.
void apply_entries(const std::vector<EnvEntry>& entries, EnvFileLoad& r) {
  size_t existing = 0;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) ++existing;
  size_t cap = 16;
  while (cap < 2 * (entries.size() + existing)) cap <<= 1;
  constexpr uint32_t kEmpty = UINT32_MAX;
  // Slots hold an index: below entries.size() an entry of the file, above it environ[i - n].
  std::vector<uint32_t> table(cap, kEmpty);
  const size_t n = entries.size();
  auto name_of = [&](uint32_t v) -> std::string_view {
    return v < n ? entries[v].key : entry_name(environ[v - n]);
  };
  const std::hash<std::string_view> hasher;
  // The slot of `name`: the one holding it, or the empty one where it would go.
  auto find = [&](std::string_view name) -> uint32_t& {
    size_t at = hasher(name) & (cap - 1);
    while (table[at] != kEmpty && name_of(table[at]) != name) at = (at + 1) & (cap - 1);
    return table[at];
  };
  for (size_t i = 0; i < existing; ++i) {
    uint32_t& slot = find(entry_name(environ[i]));
    if (slot == kEmpty) slot = static_cast<uint32_t>(n + i);
  }
  std::vector<uint32_t> winner(n, kEmpty);  // per entry: the index of its key's last value
  std::vector<uint32_t> add;                // first places of keys the environment lacks
  add.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t& slot = find(entries[i].key);
    if (slot == kEmpty) {
      slot = static_cast<uint32_t>(i);
      add.push_back(static_cast<uint32_t>(i));
      winner[i] = static_cast<uint32_t>(i);
    } else if (slot < n) {
      winner[slot] = static_cast<uint32_t>(i);  // a later duplicate in the file wins
    }  // else: already in the real environment, which wins
  }
  size_t bytes = 0;
  for (uint32_t i : add) bytes += entries[i].key.size() + 1 + entries[winner[i]].value.size() + 1;
  if (!add.empty()) {
    // Never freed: environ points into both for the life of the process (as setenv's copies),
    // and so do the names in r.applied.
    char* text = new char[bytes];
    char** array = new char*[existing + add.size() + 1];
    // Kept reachable, so a leak checker does not report them once environ moves on (a caller
    // that restores an older environ, as the tests do).
    static std::vector<void*>* const kept = new std::vector<void*>;
    kept->push_back(text);
    kept->push_back(array);
    for (size_t i = 0; i < existing; ++i) array[i] = environ[i];
    size_t at_entry = existing;
    char* at = text;
    r.applied.reserve(add.size());
    for (uint32_t i : add) {
      const std::string_view k = entries[i].key, v = entries[winner[i]].value;
      array[at_entry++] = at;
      std::memcpy(at, k.data(), k.size());
      r.applied.emplace_back(at, k.size());
      at += k.size();
      *at++ = '=';
      std::memcpy(at, v.data(), v.size());
      at += v.size();
      *at++ = '\0';
    }
    array[at_entry] = nullptr;
    environ = array;  // NOLINT(concurrency-mt-unsafe): single-threaded, before any thread starts
  }
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
  // Not UTF-8: a UTF-16 file parses as one NUL-ridden line per line, every one dropped (the
  // guard endpoint with them). Refused whole, with a detail that says what to do (doctor shows it;
  // the adapter itself stays silent).
  if (looks_utf16(*content)) {
    r.outcome = EnvFileOutcome::kUnreadable;
    r.utf16 = true;
    r.detail = "UTF-16 text, not UTF-8: nothing in it applies (save it as UTF-8)";
    return r;
  }
  r.utf8_bom = std::string_view(*content).substr(0, 3) == kUtf8Bom;
  std::vector<EnvEntry> entries;
  scan_env_file(
      *content, [&](const EnvEntry& e) { entries.push_back(e); },
      [&](size_t line, std::string_view key_text, std::string_view why) {
        EnvFileBadLine bad;
        bad.line = line;
        bad.why = why;
        std::string plain;
        bad.key = shown_key(key_text, plain);
        bad.ours = !bad.key.empty() && our_variable(plain);
        r.bad_lines.push_back(std::move(bad));
      });

  apply_entries(entries, r);
  content->clear();
  r.outcome = EnvFileOutcome::kLoaded;
  if (!r.bad_lines.empty()) {
    r.detail = std::to_string(r.bad_lines.size()) + " malformed line(s) skipped (line";
    r.detail += r.bad_lines.size() > 1 ? "s " : " ";
    for (size_t i = 0; i < r.bad_lines.size() && i < 10; ++i)
      r.detail += (i > 0 ? ", " : "") + std::to_string(r.bad_lines[i].line);
    r.detail += r.bad_lines.size() > 10 ? ", …)" : ")";
  }
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
