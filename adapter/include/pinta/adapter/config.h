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
EnvFileParse parse_env_file(std::string_view content);

enum class EnvFileOutcome { kLoaded, kAbsent, kInsecure, kUnreadable };
struct EnvFileLoad {
  EnvFileOutcome outcome = EnvFileOutcome::kAbsent;
  std::string path;
  // Keys set from the file: views of the names in the process environment, which is never freed.
  std::vector<std::string_view> applied;
  std::string detail;                // why ignored, for the debug log / doctor
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
