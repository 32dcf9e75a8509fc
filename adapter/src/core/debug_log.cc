#include "pinta/adapter/debug_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "pinta/adapter/identifiers.h"
#include "pinta/adapter/redact.h"
#include "pinta/common/fs.h"

namespace pinta::adapter {

// Secrets in argv, payload, normalized event, note and reply are masked (seed SPEC §11) before
// the record exists, so nothing unredacted can reach the file. Identifier fields (never masked
// for their name, redacted like every value) are those of the event's own family for the
// payload (identifiers.h; none when the payload did not parse into an event), and the canonical
// event's own for the normalized copy.
nlohmann::json debug_record(const EnvFileLoad& env_file, int argc, const char* const* argv,
                            const Outcome& outcome, std::chrono::microseconds duration) {
  IdentifierKeys payload_ids;
  if (outcome.event)
    payload_ids = payload_identifier_keys(outcome.event->family, outcome.event->agent);
  RedactOptions payload_options;
  payload_options.skip_top_level_keys = payload_ids.span();
  RedactOptions normalized_options;
  normalized_options.skip_top_level_keys = kCanonicalIdentifierKeys;
  nlohmann::json args = nlohmann::json::array();
  for (int i = 0; i < argc; ++i) args.push_back(redact_string(argv[i] ? argv[i] : ""));
  const char* env_outcomes[] = {"loaded", "absent", "insecure", "unreadable"};
  return {{"time_unix_ms", system_clock().unix_nanos() / 1000000},
          {"pid", static_cast<int64_t>(::getpid())},
          {"argv", args},
          {"env_file", {{"path", env_file.path},
                        {"outcome", env_outcomes[static_cast<int>(env_file.outcome)]},
                        {"applied", env_file.applied},
                        {"detail", env_file.detail}}},
          {"input", std::string(input_status_name(outcome.input))},
          {"note", redact_string(outcome.note)},
          {"payload", redact_json(outcome.payload, payload_options)},
          {"normalized", redact_json(outcome.normalized, normalized_options)},
          {"guard", outcome.guard_decision},
          {"guard_error", redact_string(outcome.guard_error)},
          {"span_id", outcome.span_id},
          {"reply", redact_string(outcome.reply)},
          {"duration_us", duration.count()}};
}

namespace {

// invocations.skipped: one fixed-width line ("<unix ms, 13 digits>\n") per record skipped
// because another process held the log's lock past kDebugLogLockWaitMs; its size / 14 is the
// count, written into the next record that is logged (log_skipped_total).
constexpr size_t kSkipLineBytes = 14;
constexpr off_t kMaxSkipFileBytes = 1 << 20;  // the count saturates near 75,000

int64_t skipped_total(const std::string& skip_path) {
  struct stat st {};
  if (::lstat(skip_path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<int64_t>(st.st_size) / static_cast<int64_t>(kSkipLineBytes);
}

void count_skipped(const std::string& skip_path) noexcept {
  int fd = fs::open_private(skip_path, O_WRONLY | O_APPEND | O_CREAT, 0600);
  if (fd < 0) return;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size < kMaxSkipFileBytes) {
    char line[32];
    int n = std::snprintf(line, sizeof line, "%013lld\n",
                          static_cast<long long>(system_clock().unix_nanos() / 1000000));
    if (n == static_cast<int>(kSkipLineBytes)) (void)!::write(fd, line, kSkipLineBytes);  // O_APPEND: one write
  }
  ::close(fd);
}

}  // namespace

void rotate_debug_log_if_needed(const std::string& path, uint64_t max_bytes,
                                size_t incoming) noexcept {
  try {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || static_cast<uint64_t>(st.st_size) + incoming <= max_bytes)
      return;
    // Under a lock beside the log, re-checked: of several adapters that saw it full, only the
    // first rotates (a second rename would replace the rotated log with a fresh, small one).
    auto lock = fs::FileLock::acquire(path + ".lock", kDebugLogLockWaitMs);
    if (!lock) return;  // busy: someone else rotates; the log may pass the cap by a few lines
    if (::stat(path.c_str(), &st) != 0 || static_cast<uint64_t>(st.st_size) + incoming <= max_bytes)
      return;
    (void)::rename(path.c_str(), (path + ".1").c_str());  // one generation kept
  } catch (...) {
  }
}

void write_debug_record(const AdapterConfig& config, const EnvFileLoad& env_file, int argc,
                        const char* const* argv, const Outcome& outcome,
                        std::chrono::microseconds duration) noexcept {
  try {
    if (config.data_dir.empty() && !config.data_dir_refused.empty()) {
      // A refused data dir (ENV-9) is a debug log that cannot be written: say why, as for any
      // other failure to log (EXIT-2).
      std::string msg = "pinta-gemini: debug log: data dir refused: " + config.data_dir_refused + "\n";
      (void)!::write(STDERR_FILENO, msg.data(), msg.size());
      return;
    }
    if (config.data_dir.empty()) return;
    Status dirs = fs::make_private_dir(config.data_dir);
    std::string line;
    if (dirs.ok()) {
      const std::string path = config.data_dir + "/invocations.jsonl";
      const std::string skip_path = config.data_dir + "/invocations.skipped";
      nlohmann::json record = debug_record(env_file, argc, argv, outcome, duration);
      if (const int64_t skipped = skipped_total(skip_path); skipped > 0) record["log_skipped_total"] = skipped;
      line = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      line.push_back('\n');
      const int64_t cap =
          env_int("PINTA_DEBUG_LOG_MAX_BYTES", int64_t{16} << 20, 4096, int64_t{1} << 40);
      rotate_debug_log_if_needed(path, static_cast<uint64_t>(cap), line.size());
      // Bounded: a log whose lock another process holds (a stuck writer, `flock` from a shell)
      // costs this hook at most kDebugLogLockWaitMs; the record is then skipped and counted.
      dirs = fs::append_private(path, line, 0600, kDebugLogLockWaitMs);
      if (!dirs.ok() && dirs.error().code == ErrorCode::kTimeout) {
        count_skipped(skip_path);
        return;
      }
    }
    if (!dirs.ok()) {
      std::string msg = "pinta-gemini: debug log: " + dirs.error().message + "\n";
      (void)!::write(STDERR_FILENO, msg.data(), msg.size());
    }
  } catch (...) {
    // Debug logging must never change the outcome.
  }
}

}  // namespace pinta::adapter
