// File: pinta/adapter/config.h
// Configuration (seed SPEC §12, DG9). Real hosts do not pass our variables to hook processes, so
// the env file ~/.gemini/pinta-gemini.env is the way users configure the adapter. It is merged into
// the environment for keys that are not already set. A file writable by group or others, or owned
// by another user, is ignored: whoever can write it could point the guard elsewhere.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pinta::adapter {

struct EnvFileParse {
  std::vector<std::pair<std::string, std::string>> entries;  // in file order; later duplicates win
  std::vector<size_t> bad_lines;                             // 1-based numbers of skipped lines
};

// Pure parser: `KEY=value`, optional `export `, blank lines and `#` comments, values unquoted
// (trailing ` #comment` stripped, trimmed), '…' (literal) or "…" (\n \t \" \\ \$ escapes).
// A UTF-8 byte order mark (U+FEFF) at the start of a line is skipped (editors on Windows write one
// at the start of the file; `cat a.env b.env` puts the second one at a line start), CR before LF
// too. Encodings other than UTF-8 are load_env_file's concern (this parser sees bytes).
EnvFileParse parse_env_file(std::string_view content);

// A line the parser skipped and why, for doctor (docs/contract.md ENV-2). It never holds a value
// (values can be secrets): `key` is the variable the line meant to set, shown only when it can be
// told (a name, perhaps with invisible or non-ASCII characters in it, written as <U+XXXX> or
// <0xHH>); "" when it cannot (no '=', or the text before '=' is not name-like: that text could be
// a pasted token).
struct EnvFileBadLine {
  size_t line = 0;         // 1-based
  std::string key;         // as described above; "" when not told
  std::string_view why;    // static text: "no '='", "not a variable name", ...
  bool ours = false;       // the name (invisible characters left out) is one the adapter reads
                           // (PINTA_*, GEMINI_PLUGIN_*, OTEL_*, SSL_CERT_*): a setting was dropped
};

enum class EnvFileOutcome { kLoaded, kAbsent, kInsecure, kUnreadable };
struct EnvFileLoad {
  EnvFileOutcome outcome = EnvFileOutcome::kAbsent;
  std::string path;
  // Keys set from the file: views of the names in the process environment, which is never freed.
  std::vector<std::string_view> applied;
  std::string detail;                // why ignored, for the debug log / doctor
  // kLoaded: the lines skipped (malformed), in file order. Only a file with such lines pays for
  // this (the common path allocates nothing here).
  std::vector<EnvFileBadLine> bad_lines;
  bool utf8_bom = false;  // kLoaded: a UTF-8 byte order mark at the start was skipped
  // kUnreadable because the file is UTF-16 text (a UTF-16 byte order mark, or a NUL byte among
  // its first two bytes): nothing in it applies; `detail` says to save it as UTF-8.
  bool utf16 = false;
};

// Default path: $HOME/.gemini/pinta-gemini.env ("" when there is no home).
std::string default_env_file_path();
// The env file's size cap: a bigger file is kUnreadable, nothing of it applied.
inline constexpr size_t kMaxEnvFileBytes = 1u << 20;
// Loads `path` into the process environment, for unset keys only (docs/contract.md ENV-1): opened
// without blocking and refused unless a regular file (fs::open_regular), then parsed and merged in
// time linear in its size (one new environ array; no setenv loop). Single-threaded callers only.
EnvFileLoad load_env_file(const std::string& path);

struct AdapterConfig {
  std::string data_dir;  // GEMINI_PLUGIN_DATA or ~/.gemini/pinta-gemini-data ("" if no home or refused)
  // Why an existing data dir was refused (owned by another user, writable by group or others,
  // not a directory); data_dir is then "". Empty when the dir is usable or does not exist yet.
  std::string data_dir_refused;
  bool debug = false;    // PINTA_GEMINI_DEBUG=1|true
  std::chrono::milliseconds stdin_timeout{1000};  // PINTA_STDIN_TIMEOUT_MS (1..30000)
  size_t max_input_bytes = 32u << 20;             // PINTA_MAX_INPUT_BYTES (1 KiB .. 256 MiB)
};

// Reads the configuration from the (already env-file-merged) environment.
AdapterConfig config_from_environment();

// An integer setting from the environment: decimal digits with an optional sign, nothing else
// (no spaces, no suffix), within [lo, hi]; unset, empty or anything else gives `fallback`.
// Every numeric PINTA_* variable is read through this one function.
int64_t env_int(const char* name, int64_t fallback, int64_t lo, int64_t hi);

}  // namespace pinta::adapter
