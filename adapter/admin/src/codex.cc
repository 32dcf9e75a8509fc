// Codex CLI 0.171's part of the admin tool (FamilyAdmin, admin_internal.h): the installer (our
// hooks in hooks.json or in the layer's config.toml, their trust in config.toml) and the doctor
// checks; the evidence is in pinta/admin/codex.h.
#include "pinta/admin/codex.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <filesystem>
#include <set>
#include <string_view>
#include <vector>

#include "admin_internal.h"
#include "pinta/admin/install.h"
#include "pinta/admin/json_edit.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/codex/codex.h"
#include "pinta/hosts/codex/family.h"

namespace pinta::admin {
namespace {

namespace cx = pinta::hosts::codex;
using jsonedit::Doc;
using jsonedit::Node;

constexpr const char* kArea = "codex";
constexpr const char* kAgent = "codex";
// Seconds (CX: Codex's `timeout` unit). The adapter answers within its own budget; this only
// bounds a hung process.
constexpr int kTimeoutSeconds = hosts::descriptor(hosts::Family::kCodex).install_timeout_ms / 1000;

// The largest file install reads (hooks.json, config.toml are a few KiB).
constexpr size_t kMaxFile = 4u << 20;

// ---- files ----------------------------------------------------------------------------------

// Existing regular file → its text; absent → nullopt; anything else (unreadable, a directory, a
// FIFO) → one line naming the file.
Result<std::optional<std::string>> read_user_file(const std::string& path) {
  if (::access(path.c_str(), F_OK) != 0) return std::optional<std::string>{};
  auto t = fs::read_regular_file(path, kMaxFile);
  if (!t) return make_error(ErrorCode::kIo, path + ": cannot be read (" + t.error().message + ")");
  return std::optional<std::string>{std::move(*t)};
}

// `p` with its longest existing prefix resolved (symbolic links, `..`), the rest appended.
std::string canonical_prefix(const std::string& p) {
  std::string head = p, tail;
  while (!head.empty() && head != "/") {
    char buf[PATH_MAX];
    if (::realpath(head.c_str(), buf)) return tail.empty() ? buf : fs::join(buf, tail);
    std::string base = head.substr(head.rfind('/') + 1);
    tail = tail.empty() ? base : fs::join(base, tail);
    head = fs::dirname(head);
  }
  return p;
}

// ---- hooks.json -----------------------------------------------------------------------------

bool handler_is_ours(const ojson& h) {
  if (!h.is_object()) return false;
  auto c = h.find("command");
  return c != h.end() && c->is_string() && codex_is_ours(c->get<std::string>());
}

// The timeout written for `event`: ours, or the event's ceiling where Codex clamps a larger one
// with a warning at every start (SessionEnd: 3 s, measured on 0.171.0 hooks/list by hosts/codex).
int timeout_for(const std::string& event) {
  return event == "SessionEnd" ? std::min(kTimeoutSeconds, 3) : kTimeoutSeconds;
}

ojson handler_for(const std::string& adapter_path, const std::string& event) {
  return {{"type", "command"},
          {"command", codex_command(adapter_path, event)},
          {"timeout", timeout_for(event)}};
}

ojson group_for(const std::string& adapter_path, const std::string& event) {
  return {{"matcher", "*"}, {"hooks", ojson::array({handler_for(adapter_path, event)})}};
}

Result<Doc> scan_hooks(const std::string& text) {
  auto d = Doc::scan(text);
  if (!d) return d.error();
  if (d->root().kind != Node::Kind::kObject)
    return make_error(ErrorCode::kParse, "1:1: the hooks file is not a JSON object");
  const Node* hooks = d->member(d->root(), "hooks");
  if (hooks && hooks->kind != Node::Kind::kObject)
    return make_error(ErrorCode::kParse,
                      jsonedit::line_col(d->text(), hooks->begin) + ": \"hooks\" is not an object");
  return d;
}

// One handler of ours out of event list `groups` (admin_internal.h, remove_one_nested).
std::optional<std::string> remove_one(const Doc& d, const Node& groups, const ojson* keep) {
  return remove_one_nested(d, groups, keep, handler_is_ours);
}

// Codex's hooks.json: Claude-style groups under each event.
constexpr HooksFile kHooksFile{scan_hooks, remove_one, handler_for, group_for, group_holds};

// ---- config.toml: a line scanner ------------------------------------------------------------
// Just enough TOML to edit config.toml in place: every line classified (blank, comment, table
// header, key = value with its continuation lines), keys decoded, string values decoded. What it
// cannot classify is an error, so a file it does not understand is refused, never rewritten.

struct TomlLine {
  enum class Kind { kBlank, kComment, kTable, kArrayTable, kKeyVal };
  Kind kind = Kind::kBlank;
  size_t begin = 0, end = 0;  // the line (a key = value: through its last continuation line)
  size_t next = 0;            // the start of the following line (after the line break)
  int line = 0;               // 1-based
  std::vector<std::string> path;   // a header's path; a key's full path (its table's + its own)
  size_t table = 0;                // a key: the number of leading path parts that are its table's
  size_t value_begin = 0, value_end = 0;
  std::string text;  // the comment: a comment line's, or the one after a header or value
};

class TomlScanner {
 public:
  explicit TomlScanner(const std::string& s) : s_(s) {}

  Result<std::vector<TomlLine>> scan() {
    std::vector<TomlLine> out;
    std::vector<std::string> table;
    if (s_.compare(0, 3, "\xEF\xBB\xBF") == 0) i_ = 3;
    while (i_ < s_.size()) {
      TomlLine l;
      l.begin = i_;
      l.line = line_;
      ws();
      if (eol()) {
        l.kind = TomlLine::Kind::kBlank;
      } else if (peek() == '#') {
        l.kind = TomlLine::Kind::kComment;
        size_t c = i_;
        comment();
        l.text = s_.substr(c, i_ - c);
      } else if (peek() == '[') {
        bool array = s_.compare(i_, 2, "[[") == 0;
        i_ += array ? 2 : 1;
        if (auto k = key(l.path); !k) return k.error();
        if (s_.compare(i_, array ? 2 : 1, array ? "]]" : "]") != 0) return fail("expected ]");
        i_ += array ? 2 : 1;
        l.kind = array ? TomlLine::Kind::kArrayTable : TomlLine::Kind::kTable;
        table = l.path;
      } else {
        std::vector<std::string> k;
        if (auto r = key(k); !r) return r.error();
        if (peek() != '=') return fail("expected = after a key");
        ++i_;
        ws();
        l.value_begin = i_;
        if (auto v = value(); !v) return v.error();
        l.value_end = i_;
        l.kind = TomlLine::Kind::kKeyVal;
        l.path = table;
        l.table = table.size();
        l.path.insert(l.path.end(), k.begin(), k.end());
      }
      ws();
      if (peek() == '#') {  // a comment after a header or value (a table of ours is marked so)
        size_t c = i_;
        comment();
        l.text = s_.substr(c, i_ - c);
      }
      l.end = i_;
      if (!eol()) return fail("unexpected text after the value");
      if (i_ < s_.size() && s_[i_] == '\r') ++i_;
      if (i_ < s_.size() && s_[i_] == '\n') {
        ++i_;
        ++line_;
      }
      l.next = i_;
      out.push_back(std::move(l));
    }
    return out;
  }

  // The string at `at` (basic or literal, one line), decoded; nullopt when it is something else.
  static std::optional<std::string> string_at(const std::string& s, size_t at) {
    TomlScanner t(s);
    t.i_ = at;
    std::string v;
    if (at >= s.size() || (s[at] != '"' && s[at] != '\'') || s.compare(at, 3, "\"\"\"") == 0 ||
        s.compare(at, 3, "'''") == 0)
      return std::nullopt;
    if (!t.quoted(v)) return std::nullopt;
    return v;
  }

 private:
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  bool eol() const { return i_ >= s_.size() || s_[i_] == '\n' || s_.compare(i_, 2, "\r\n") == 0; }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }
  void comment() {
    while (!eol()) ++i_;
  }
  Error fail(const std::string& what) const {
    return make_error(ErrorCode::kParse, std::to_string(line_) + ": " + what);
  }
  // ws, newlines and comments (inside an array).
  void ws_nl() {
    for (;;) {
      ws();
      if (peek() == '#') comment();
      if (i_ < s_.size() && (s_[i_] == '\n' || s_.compare(i_, 2, "\r\n") == 0)) {
        i_ += s_[i_] == '\r' ? 2 : 1;
        ++line_;
        continue;
      }
      return;
    }
  }

  static void put_utf8(std::string& out, unsigned long cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  // A one-line basic ("…", escapes) or literal ('…') string at i_, decoded into `out`.
  bool quoted(std::string& out) {
    char q = s_[i_++];
    while (i_ < s_.size() && s_[i_] != q) {
      char c = s_[i_];
      if (c == '\n' || c == '\r') return false;
      if (q == '"' && c == '\\') {
        if (i_ + 1 >= s_.size()) return false;
        char e = s_[i_ + 1];
        i_ += 2;
        switch (e) {
          case 'b': out += '\b'; break;
          case 't': out += '\t'; break;
          case 'n': out += '\n'; break;
          case 'f': out += '\f'; break;
          case 'r': out += '\r'; break;
          case 'e': out += '\x1b'; break;
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case 'u':
          case 'U': {
            size_t n = e == 'u' ? 4 : 8;
            if (i_ + n > s_.size()) return false;
            unsigned long cp = 0;
            for (size_t k = 0; k < n; ++k) {
              char h = s_[i_ + k];
              if (!std::isxdigit(static_cast<unsigned char>(h))) return false;
              cp = cp * 16 + static_cast<unsigned long>(std::isdigit(static_cast<unsigned char>(h))
                                                            ? h - '0'
                                                            : (std::tolower(h) - 'a' + 10));
            }
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
            put_utf8(out, cp);
            i_ += n;
            break;
          }
          default: return false;
        }
        continue;
      }
      out += c;
      ++i_;
    }
    if (i_ >= s_.size()) return false;
    ++i_;
    return true;
  }

  // A dotted key at i_ (whitespace around its parts), then the whitespace after it.
  Status key(std::vector<std::string>& out) {
    for (;;) {
      ws();
      std::string part;
      if (peek() == '"' || peek() == '\'') {
        if (!quoted(part)) return fail("a quoted key is not closed on its line");
      } else {
        size_t b = i_;
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) ||
                                  s_[i_] == '_' || s_[i_] == '-'))
          ++i_;
        if (b == i_) return fail("expected a key");
        part = s_.substr(b, i_ - b);
      }
      out.push_back(std::move(part));
      ws();
      if (peek() != '.') return {};
      ++i_;
    }
  }

  // A multi-line string at i_ (its opening delimiter `d`, """ or '''), through its closing one.
  Status multiline(const char* d) {
    i_ += 3;
    for (;;) {
      if (i_ >= s_.size()) return fail("a multi-line string is not closed");
      if (s_[i_] == '\n') ++line_;
      if (d[0] == '"' && s_[i_] == '\\') {
        i_ += 2;
        continue;
      }
      if (s_.compare(i_, 3, d) == 0) {
        i_ += 3;
        for (int extra = 0; extra < 2 && i_ < s_.size() && s_[i_] == d[0]; ++extra) ++i_;
        return {};
      }
      ++i_;
    }
  }

  Status value(int depth = 0) {
    if (depth > 64) return fail("values nested too deeply");
    char c = peek();
    if (s_.compare(i_, 3, "\"\"\"") == 0) return multiline("\"\"\"");
    if (s_.compare(i_, 3, "'''") == 0) return multiline("'''");
    if (c == '"' || c == '\'') {
      std::string ignored;
      if (!quoted(ignored)) return fail("a string is not closed on its line");
      return {};
    }
    if (c == '[') {  // an array: values, commas, newlines and comments
      ++i_;
      for (;;) {
        ws_nl();
        if (peek() == ']') {
          ++i_;
          return {};
        }
        if (auto v = value(depth + 1); !v) return v;
        ws_nl();
        if (peek() == ',') {
          ++i_;
          continue;
        }
        if (peek() == ']') {
          ++i_;
          return {};
        }
        return fail("expected , or ] in an array");
      }
    }
    if (c == '{') {  // an inline table (newlines allowed: TOML 1.1)
      ++i_;
      ws_nl();
      if (peek() == '}') {
        ++i_;
        return {};
      }
      for (;;) {
        std::vector<std::string> k;
        ws_nl();
        if (auto r = key(k); !r) return r;
        if (peek() != '=') return fail("expected = in an inline table");
        ++i_;
        ws();
        if (auto v = value(depth + 1); !v) return v;
        ws_nl();
        if (peek() == ',') {
          ++i_;
          ws_nl();
          if (peek() == '}') {
            ++i_;
            return {};
          }
          continue;
        }
        if (peek() == '}') {
          ++i_;
          return {};
        }
        return fail("expected , or } in an inline table");
      }
    }
    // A bare scalar: a number, boolean, date or time (a date and a time may be space-separated).
    size_t b = i_;
    auto scalar_char = [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == ':' || ch == '.' ||
             ch == '+' || ch == '-';
    };
    while (i_ < s_.size()) {
      if (scalar_char(s_[i_])) {
        ++i_;
      } else if (s_[i_] == ' ' && i_ - b == 10 && i_ + 1 < s_.size() &&
                 std::isdigit(static_cast<unsigned char>(s_[i_ + 1]))) {
        ++i_;  // 1979-05-27 07:32:00
      } else {
        break;
      }
    }
    if (b == i_) return fail("expected a value");
    return {};
  }

  const std::string& s_;
  size_t i_ = 0;
  int line_ = 1;
};

// Our block in config.toml starts with one of these comment lines (the one that says what
// uninstall takes back with it), followed by our tables: trust, and our hook groups where the
// layer keeps its hooks in config.toml.
enum class Mark { kPlain, kBreak, kFile };
constexpr const char* kMarkHead = "# pinta-gemini: its Codex hooks or their trust";
constexpr const char* kMarkHeadTrustOnly = "# pinta-gemini: trust for its Codex hooks";  // earlier
constexpr const char* kMarkTail[] = {
    " (pinta-gemini uninstall --host codex removes this block)",
    " (pinta-gemini uninstall --host codex removes this block and the line break before it)",
    " (pinta-gemini uninstall --host codex removes this file when nothing else is in it)"};

std::string mark_line(Mark m) { return kMarkHead + std::string(kMarkTail[static_cast<int>(m)]); }

std::optional<Mark> mark_of(const std::string& c) {
  for (const char* head : {kMarkHead, kMarkHeadTrustOnly})
    for (int k = 0; k < 3; ++k)
      if (c == head + std::string(kMarkTail[k])) return static_cast<Mark>(k);
  return std::nullopt;
}

bool starts_with(const std::vector<std::string>& path, const std::vector<std::string>& prefix) {
  return path.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

// A basic string for TOML: quotes, backslashes and control characters escaped.
std::string toml_quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// Each table of ours carries this comment on its header line, so it stays ours wherever it is
// and whatever is written next to it (Codex's /hooks writes tables of its own to this file).
constexpr const char* kOwn = "# pinta-gemini";

// The scanned lines, our mark lines and our tables (a header marked kOwn and the keys under it):
// trust tables `[hooks.state."<key>"]` (key: the trust key) and hook groups `[[hooks.<Event>]]`
// (key: the event).
struct TomlDoc {
  std::vector<TomlLine> lines;
  std::vector<size_t> marks;  // line indices
  struct Table {
    size_t first = 0, last = 0;  // line indices, inclusive
    std::string key;
    bool group = false;  // a hook group of ours
  };
  std::vector<Table> owned;
  bool is_owned(size_t line) const {
    return std::any_of(owned.begin(), owned.end(),
                       [&](const Table& t) { return line >= t.first && line <= t.last; });
  }
};

Result<TomlDoc> scan_toml(const std::string& text) {
  static const std::vector<std::string> kState = {"hooks", "state"};
  TomlDoc d;
  auto lines = TomlScanner(text).scan();
  if (!lines) return lines.error();
  d.lines = std::move(*lines);
  for (size_t i = 0; i < d.lines.size(); ++i) {
    const TomlLine& l = d.lines[i];
    if (l.kind == TomlLine::Kind::kComment && l.begin == text.find('#', l.begin) &&
        mark_of(l.text))
      d.marks.push_back(i);
    const bool trust = l.kind == TomlLine::Kind::kTable && l.path.size() == 3 &&
                       starts_with(l.path, kState);
    const bool group = l.kind == TomlLine::Kind::kArrayTable && l.path.size() == 2 &&
                       l.path[0] == "hooks" && cx::is_event(l.path[1]);
    if (!(trust || group) || l.text != kOwn) continue;
    TomlDoc::Table t{i, i, l.path.back(), group};
    while (t.last + 1 < d.lines.size()) {
      const TomlLine& k = d.lines[t.last + 1];
      if (k.kind != TomlLine::Kind::kKeyVal || k.table != l.path.size() ||
          !starts_with(k.path, l.path))
        break;
      ++t.last;
    }
    d.owned.push_back(t);
    i = t.last;
  }
  return d;
}

// Where `hooks` / `hooks.state` cannot take a table of ours: written as a value (an inline table,
// an array) or as an array of tables. "" when they can.
std::string toml_refusal(const TomlDoc& d) {
  const std::vector<std::string> hooks = {"hooks"}, state = {"hooks", "state"};
  for (const auto& l : d.lines) {
    bool value = l.kind == TomlLine::Kind::kKeyVal && (l.path == hooks || l.path == state);
    bool array = l.kind == TomlLine::Kind::kArrayTable && (l.path == hooks || l.path == state);
    if (value || array)
      return std::to_string(l.line) + ": " + (l.path.size() == 1 ? "hooks" : "hooks.state") +
             (value ? " is written as an inline value" : " is an array of tables") +
             "; Codex's hook trust cannot be added without rewriting it (write it as "
             "[hooks.state.\"…\"] tables, then re-run)";
  }
  return "";
}

std::string eol_of(const std::string& text) {
  size_t n = text.find('\n');
  return n != std::string::npos && n > 0 && text[n - 1] == '\r' ? "\r\n" : "\n";
}

struct Splice {
  size_t begin, end;
  std::string with;
};

std::string apply_splices(std::string text, std::vector<Splice> s) {
  std::sort(s.begin(), s.end(), [](const Splice& a, const Splice& b) { return a.begin > b.begin; });
  for (const auto& x : s) text.replace(x.begin, x.end - x.begin, x.with);
  return text;
}

// ---- doctor helpers -------------------------------------------------------------------------

struct OurHook {
  std::string file, event;
};

// The first executable `codex` on PATH ("" when none).
std::string codex_on_path() {
  const char* path = std::getenv("PATH");  // NOLINT(concurrency-mt-unsafe): single-threaded CLI
  std::string rest = path ? path : "";
  while (true) {
    const size_t colon = rest.find(':');
    const std::string dir = rest.substr(0, colon);
    if (!dir.empty()) {
      const std::string p = fs::join(dir, "codex");
      struct stat st {};
      if (::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0)
        return p;
    }
    if (colon == std::string::npos) return "";
    rest = rest.substr(colon + 1);
  }
}

// The release `program --version` names: "codex-cli 0.171.0" on every probed release (CX:
// 0.124.0, 0.145.0, 0.171.0). stdin and stderr are /dev/null; past `timeout_ms` the program is
// killed. "" when it does not start, answer in time or say that. It runs with CODEX_HOME set to an
// empty temporary folder, removed afterwards: any run of codex, --version too, writes its helper
// links under $CODEX_HOME/tmp (measured on 0.171.0), and doctor leaves the user's files as they are.
std::string codex_release(const std::string& program, int timeout_ms) {
  std::string scratch = fs::join(std::filesystem::temp_directory_path().string(), "pinta-codex-XXXXXX");
  if (!::mkdtemp(scratch.data())) return "";
  struct Remove {
    std::string dir;
    ~Remove() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } remove{scratch};
  std::vector<std::string> env_text = {"CODEX_HOME=" + scratch};
  for (char** e = environ; *e; ++e)
    if (std::string_view(*e).rfind("CODEX_HOME=", 0) != 0) env_text.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return "";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::string arg0 = program, arg1 = "--version";
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, program.c_str(), &fa, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&fa);
  ::close(fds[1]);
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (rc == 0 && out.size() < 4096) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    struct pollfd pfd = {fds[0], POLLIN, 0};
    if (left.count() <= 0 || ::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) break;
    char buf[512];
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (rc != 0) return "";
  ::kill(pid, SIGKILL);  // exited already, or out of time
  ::waitpid(pid, nullptr, 0);
  const std::string prefix = "codex-cli ";
  if (out.rfind(prefix, 0) != 0) return "";
  std::string v = out.substr(prefix.size());
  v = v.substr(0, v.find_first_of(" \r\n"));
  const bool release = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.';
  });
  return release ? v : "";
}

// What the installed release (`codex --version`) does with our hooks, by its version profile
// (hosts/codex/profiles; docs/hosts/codex-0.171.md "Releases"): a release that ran no hook in the
// bisection, and the deny race (Rules::deny_race: on 0.124.0 .. 0.145.x a PreToolUse deny beside
// another PreToolUse hook was lost in some runs, the call ran; 0.145.0: 3 of 7 runs). Nothing when
// no `codex` is on PATH: the rules of the release that runs the hooks are not known then.
void check_codex_release(const cx::LoadedHooks& loaded, const std::map<std::string, int>& fires,
                         int timeout_ms, DoctorReport& r) {
  auto add = [&](std::string level, std::string message, std::string fix,
                 nlohmann::json detail) {
    r.findings.push_back(Finding{kArea, std::move(level), std::move(message), std::move(fix),
                                 std::move(detail)});
  };
  const std::string program = codex_on_path();
  if (program.empty()) return;
  const std::string v = codex_release(program, timeout_ms);
  nlohmann::json detail = {{"codex", program}, {"release", v}};
  if (v.empty()) {
    add("info", program + " --version named no release: its hook rules are not checked", "",
        detail);
    return;
  }
  auto prof = cx::profile_for_version(cx::default_profile_dir(), v);
  if (!prof) {
    add("info", "Codex " + v + " (" + program + "): " + prof.error().message +
                    "; its hooks are assumed to run as on the newest profiled release",
        "", detail);
    return;
  }
  detail["profile"] = prof->name;
  if (!prof->rules.hooks_run) {
    add("warn", "Codex " + v + " (profile " + prof->name +
                    "): no hook ran on these releases when they were measured (hooks.json, "
                    "trusted or bypassed), so the guard may never run",
        "upgrade Codex to 0.141.0 or later", detail);
    return;
  }
  if (!prof->rules.deny_race || !fires.count("PreToolUse")) {
    add("info", "Codex " + v + " (profile " + prof->name + ")", "", detail);
    return;
  }
  // The other PreToolUse hooks this release runs beside ours: enabled, synchronous, and trusted
  // where the release has hook trust (0.124.0 .. 0.128.x run every hook).
  std::vector<std::string> others;
  for (const auto& h : loaded.handlers)
    if (h.event == "PreToolUse" && !codex_is_ours(h.command) && h.enabled && !h.is_async &&
        (!prof->rules.hook_trust || h.trust_status == cx::TrustStatus::kTrusted ||
         h.trust_status == cx::TrustStatus::kManaged))
      others.push_back(h.command + (h.has_matcher ? " (matcher " + h.matcher + ")" : ""));
  if (others.empty()) {
    add("info", "Codex " + v + " (profile " + prof->name + ")", "", detail);
    return;
  }
  detail["others"] = others;
  add("warn",
      "Codex " + v + " (profile " + prof->name + ") can lose a PreToolUse deny when another "
          "PreToolUse hook runs beside it, and " + std::to_string(others.size()) +
          " other PreToolUse hook(s) run beside ours (" + others.front() +
          (others.size() > 1 ? ", …" : "") +
          "): a guard DENY may not keep the call from running (measured on 0.145.0: the call ran "
          "in 3 of 7 runs; none lost from 0.146.0 on)",
      "upgrade Codex to 0.146.0 or later, or remove the other PreToolUse hooks", detail);
}

// Whether our hooks file is a layer's config.toml ([hooks] there) rather than its hooks.json.
bool is_config_toml(const std::string& path) {
  const std::string name = "/config.toml";
  return path.size() >= name.size() && path.compare(path.size() - name.size(), name.size(), name) == 0;
}

// config.toml's [hooks] event lists as JSON, read by the hosts/codex loader's reader (null when it
// has none or does not parse).
ojson toml_hooks_of(const std::string& text, const std::string& path) {
  auto t = cx::read_toml_hooks(text, path);
  if (!t || !t->hooks.is_object()) return nullptr;
  ojson out = ojson::parse(t->hooks.dump());
  out.erase("state");
  return out;
}

// Whether hooks.json text defines a hook (a non-empty event list).
bool json_has_hooks(const std::optional<std::string>& text) {
  if (!text) return false;
  ojson v = ojson::parse(*text, nullptr, false);
  if (v.is_discarded() || !v.is_object() || !v.contains("hooks") || !v["hooks"].is_object())
    return false;
  return std::any_of(v["hooks"].begin(), v["hooks"].end(),
                     [](const ojson& g) { return g.is_array() && !g.empty(); });
}

}  // namespace

// ---- public ---------------------------------------------------------------------------------

std::string codex_home_dir(const std::string& home) {
  const char* v = std::getenv("CODEX_HOME");  // NOLINT(concurrency-mt-unsafe): single-threaded CLI
  if (!v || !*v) return fs::join(home, ".codex");
  std::string p = v;
  if (p[0] != '/') {
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof cwd)) p = fs::join(cwd, p);
  }
  return canonical_prefix(p);  // CXSRC: a set CODEX_HOME is canonicalised
}

std::string codex_hooks_path(const InstallOptions& o) {
  if (!o.workspace.empty()) return fs::join(canonical_prefix(o.workspace), ".codex/hooks.json");
  return fs::join(codex_home_dir(o.home), "hooks.json");
}

std::string codex_config_path(const InstallOptions& o) {
  return fs::join(codex_home_dir(o.home), "config.toml");
}

std::string codex_command(const std::string& adapter_path, const std::string& event) {
  return shell_quote(adapter_path) + " --agent " + kAgent + " --event " + event;
}

bool codex_is_ours(const std::string& command) {
  return is_ours(command, kAgent) && [&] {
    auto [prog, rest] = split_command_program(command);
    const std::string want = std::string(" --agent ") + kAgent + " --event ";
    if (rest.rfind(want, 0) != 0) return false;
    std::string ev = rest.substr(want.size());
    return !ev.empty() && std::all_of(ev.begin(), ev.end(), [](char c) {
      return std::isalpha(static_cast<unsigned char>(c));
    });
  }();
}

Result<std::string> codex_add_ours(const std::string& original, const std::string& adapter_path) {
  return add_ours(kHooksFile, original, adapter_path, installed_events(Host::kCodex));
}

Result<std::string> codex_remove_ours(const std::string& original, bool* only_ours_left) {
  auto text = remove_all_ours(kHooksFile, original);
  if (!text) return text.error();
  if (only_ours_left) {
    auto d = scan_hooks(*text);
    *only_ours_left = d && d->root().members.empty();
  }
  return text;
}

Result<std::vector<CodexTrust>> codex_trust_entries(const std::string& hooks_path,
                                                    const std::string& hooks_text) {
  const bool toml = is_config_toml(hooks_path);
  if (!toml)
    if (auto d = scan_hooks(hooks_text); !d) return d.error();
  // The hash is the loader's (hosts/codex, which computes it as 0.171.0 does: the matcher only
  // where the event reads one, the timeout clamped, …), over the text as Codex will read it: a
  // private copy in a temp directory, since nothing is written before the plan is applied.
  std::error_code ec;
  std::string tmpl = (std::filesystem::temp_directory_path(ec) / "pinta-codex-XXXXXX").string();
  if (!::mkdtemp(tmpl.data()))
    return make_error(ErrorCode::kIo, " cannot make a temp directory to check the hooks file");
  const std::string copy = fs::join(tmpl, toml ? "config.toml" : "hooks.json");
  auto written = fs::atomic_write(copy, hooks_text, 0600);
  cx::Sources src;
  src.codex_home = tmpl;
  auto loaded = written ? cx::load_hooks(src) : Result<cx::LoadedHooks>(written.error());
  ::unlink(copy.c_str());
  ::rmdir(tmpl.c_str());
  if (!loaded) return make_error(loaded.error().code, " " + loaded.error().message);
  std::vector<CodexTrust> out;
  for (const auto& h : loaded->handlers) {
    if (h.file != copy || !codex_is_ours(h.command)) continue;
    out.push_back({cx::trust_key(hooks_path, h.event, h.group_index, h.handler_index),
                   h.trust_hash, h.event});
  }
  // Every hook of ours in the text must be one Codex loads: else it would never run.
  size_t written_ours = 0;
  ojson v = toml ? ojson{{"hooks", toml_hooks_of(hooks_text, hooks_path)}}
                 : ojson::parse(hooks_text, nullptr, false);
  if (!v.is_discarded() && v.contains("hooks") && v["hooks"].is_object())
    for (auto& [event, groups] : v["hooks"].items())
      if (groups.is_array())
        for (const auto& g : groups)
          if (g.is_object() && g.contains("hooks") && g["hooks"].is_array())
            for (const auto& hh : g["hooks"])
              if (handler_is_ours(hh)) ++written_ours;
  if (out.size() != written_ours) {
    std::string why = loaded->warnings.empty() ? "" : ": " + loaded->warnings.front();
    for (size_t at; (at = why.find(copy)) != std::string::npos;) why.replace(at, copy.size(), hooks_path);
    for (auto& c : why)
      if (c == '\n') c = ' ';
    return make_error(ErrorCode::kParse, " Codex would not load " +
                                             std::to_string(written_ours - out.size()) +
                                             " of our hooks from it" + why);
  }
  return out;
}

namespace {

// `text` with `edits` applied and our block finished: `tables` (new tables of ours) placed after
// the mark and the tables of ours that follow it, or appended with a mark; a second mark, or the
// mark of nothing (`any_ours` false), goes, and with the last of ours the line break a kBreak mark
// added at the end.
std::string finish_block(const std::string& text, const TomlDoc& d, bool file_exists,
                         std::vector<Splice> edits, const std::string& tables, bool any_ours) {
  const std::string nl = eol_of(text);
  if (!tables.empty()) {
    if (!d.marks.empty()) {  // after the mark and the tables of ours that follow it
      size_t i = d.marks.front() + 1;
      while (i < d.lines.size() && d.is_owned(i)) ++i;
      size_t at = d.lines[i - 1].next;
      std::string lead = at == d.lines[i - 1].end ? nl : "";  // the last line had no break
      edits.push_back({at, at, lead + tables});
    } else if (!file_exists) {
      edits.push_back({0, 0, mark_line(Mark::kFile) + nl + tables});
    } else if (text.empty() || text.back() == '\n') {
      edits.push_back({text.size(), text.size(), mark_line(Mark::kPlain) + nl + tables});
    } else {
      edits.push_back({text.size(), text.size(), nl + mark_line(Mark::kBreak) + nl + tables});
    }
  }
  for (size_t m = 0; m < d.marks.size(); ++m) {
    if (m == 0 && any_ours) continue;
    const TomlLine& l = d.lines[d.marks[m]];
    edits.push_back({l.begin, l.next, ""});
  }
  std::string out = apply_splices(text, std::move(edits));
  if (!any_ours && !d.marks.empty() && mark_of(d.lines[d.marks.front()].text) == Mark::kBreak &&
      out.size() + 1 <= text.size() && text.compare(0, out.size(), out) == 0 && !out.empty() &&
      out.back() == '\n') {
    // The block that added a line break at the end is gone and nothing followed it: so is the
    // break (only when the text is now a prefix of what it was, i.e. nothing else moved).
    out.pop_back();
    if (!out.empty() && out.back() == '\r') out.pop_back();
  }
  return out;
}

// `text` with our trust for `hooks_path` set to `entries` (none: taken out). Our other hooks file's
// tables, our hook groups and everything of the user's stay where they are; the mark goes with our
// last table.
Result<std::string> edit_trust(const std::string& text, bool file_exists,
                               const std::string& hooks_path,
                               const std::vector<CodexTrust>& entries) {
  for (const auto& e : entries)
    if (e.key.empty() || e.hash.rfind("sha256:", 0) != 0)
      return make_error(ErrorCode::kInternal, " no trust hash for our " + e.event + " hook");
  auto d = scan_toml(text);
  if (!d) return d.error();
  if (!entries.empty())
    if (std::string why = toml_refusal(*d); !why.empty()) return make_error(ErrorCode::kParse, why);
  const std::string nl = eol_of(text);
  std::vector<Splice> edits;
  std::set<std::string> in_user_tables;  // keys whose table (ours or the user's) is edited in place
  for (const auto& e : entries) {
    const std::vector<std::string> mine = {"hooks", "state", e.key};
    for (size_t i = 0; i < d->lines.size(); ++i) {
      const TomlLine& l = d->lines[i];
      if (!starts_with(l.path, mine)) continue;
      if (l.kind == TomlLine::Kind::kTable && l.path == mine) {
        // The table for this key, ours or the user's (say, trusted in /hooks): its trusted_hash is
        // set in place, or added under the header; what else is in it (`enabled = false` from
        // /hooks) stays.
        in_user_tables.insert(e.key);
        size_t k = i + 1;
        for (; k < d->lines.size() && d->lines[k].kind != TomlLine::Kind::kTable &&
               d->lines[k].kind != TomlLine::Kind::kArrayTable;
             ++k) {
          const TomlLine& kv = d->lines[k];
          if (kv.kind == TomlLine::Kind::kKeyVal && kv.path.size() == 4 &&
              kv.path[3] == "trusted_hash")
            break;
        }
        if (k < d->lines.size() && d->lines[k].kind == TomlLine::Kind::kKeyVal)
          edits.push_back({d->lines[k].value_begin, d->lines[k].value_end, toml_quote(e.hash)});
        else
          edits.push_back({l.next, l.next,
                           (l.next == l.end ? nl : "") + "trusted_hash = " + toml_quote(e.hash) + nl});
      } else if (l.kind == TomlLine::Kind::kKeyVal && l.table == 3) {
        continue;  // a key of that table
      } else {
        return make_error(ErrorCode::kParse,
                          std::to_string(l.line) + ": the trust of our hook " + e.key +
                              " is written in a form install does not edit; remove that entry, "
                              "then re-run");
      }
    }
  }
  std::string tables;
  for (const auto& e : entries) {
    if (in_user_tables.count(e.key)) continue;
    tables += "[hooks.state." + toml_quote(e.key) + "] " + kOwn + nl;
    tables += "trusted_hash = " + toml_quote(e.hash) + nl;
  }
  // Our tables for this hooks file that no entry keeps (a former place of our hook): the first is
  // replaced by the new ones, the rest go.
  const std::string prefix = hooks_path + ":";
  size_t others = 0;
  bool placed = false;
  for (const auto& t : d->owned) {
    if (t.group || t.key.rfind(prefix, 0) != 0 || in_user_tables.count(t.key)) {
      ++others;
      continue;
    }
    std::string with = placed ? "" : tables;
    edits.push_back({d->lines[t.first].begin, d->lines[t.last].next, with});
    placed = true;
  }
  std::string out = finish_block(text, *d, file_exists, std::move(edits), placed ? "" : tables,
                                 others > 0 || !tables.empty());
  if (auto check = scan_toml(out); !check)
    return make_error(ErrorCode::kInternal, " the edited file would not scan as TOML");
  return out;
}

// Our hook group for `event` as config.toml tables: one array-table element of [hooks.<Event>],
// the handler an inline table (the same fields and hash as in hooks.json; CX, the loader's test
// JsonThenTomlInOneLayer).
std::string toml_group_for(const std::string& adapter_path, const std::string& event,
                           const std::string& nl) {
  return "[[hooks." + event + "]] " + kOwn + nl + "matcher = \"*\"" + nl +
         "hooks = [{ type = \"command\", command = " +
         toml_quote(codex_command(adapter_path, event)) +
         ", timeout = " + std::to_string(timeout_for(event)) + " }]" + nl;
}

// `text` (a config.toml) with our hook group for every installed event (`adapter_path` empty:
// none). A group of ours already there is rewritten in place, keeping its place in the event's
// list (its trust key names that place); new ones go to our block, after every group of the
// user's. Error kParse "<line>: what" when an event's hooks, or [hooks] itself, are written in a
// form no [[hooks.<Event>]] element can be added to (an inline value, a plain table).
Result<std::string> edit_hooks(const std::string& text, bool file_exists,
                               const std::string& adapter_path) {
  auto d = scan_toml(text);
  if (!d) return d.error();
  const std::string nl = eol_of(text);
  std::set<std::string> wanted;
  if (!adapter_path.empty())
    for (const auto& e : installed_events(Host::kCodex)) wanted.insert(e);
  if (!wanted.empty()) {
    if (std::string why = toml_refusal(*d); !why.empty()) return make_error(ErrorCode::kParse, why);
    for (const auto& l : d->lines) {
      const bool event_value = l.kind == TomlLine::Kind::kKeyVal && l.path.size() == 2 &&
                               l.path[0] == "hooks" && wanted.count(l.path[1]);
      const bool event_table = l.kind == TomlLine::Kind::kTable && l.path.size() == 2 &&
                               l.path[0] == "hooks" && wanted.count(l.path[1]);
      if (event_value || event_table)
        return make_error(ErrorCode::kParse,
                          std::to_string(l.line) + ": hooks." + l.path[1] +
                              (event_value ? " is written as an inline value" : " is a plain table") +
                              "; our hook group cannot be added without rewriting it (write its "
                              "groups as [[hooks." + l.path[1] + "]] tables, then re-run)");
    }
  }
  std::vector<Splice> edits;
  std::set<std::string> placed;
  size_t kept = 0;
  for (const auto& t : d->owned) {
    if (!t.group) {
      ++kept;
      continue;
    }
    const bool first = wanted.count(t.key) && placed.insert(t.key).second;
    edits.push_back({d->lines[t.first].begin, d->lines[t.last].next,
                     first ? toml_group_for(adapter_path, t.key, nl) : ""});
    if (first) ++kept;
  }
  std::string tables;
  for (const auto& e : installed_events(Host::kCodex))
    if (wanted.count(e) && !placed.count(e)) tables += toml_group_for(adapter_path, e, nl);
  std::string out =
      finish_block(text, *d, file_exists, std::move(edits), tables, kept > 0 || !tables.empty());
  if (auto check = scan_toml(out); !check)
    return make_error(ErrorCode::kInternal, " the edited file would not scan as TOML");
  return out;
}

// config.toml without what install added there: our hook groups (`groups`) and our trust for each
// of `trust_for`; nullopt when install created the file and nothing else is left.
Result<std::optional<std::string>> strip_toml(const std::string& text, bool groups,
                                              const std::vector<std::string>& trust_for) {
  auto d = scan_toml(text);
  if (!d) return d.error();
  const bool created = !d->marks.empty() && mark_of(d->lines[d->marks.front()].text) == Mark::kFile;
  std::string out = text;
  if (groups) {
    auto r = edit_hooks(out, true, "");
    if (!r) return r.error();
    out = std::move(*r);
  }
  for (const auto& p : trust_for) {
    auto r = edit_trust(out, true, p, {});
    if (!r) return r.error();
    out = std::move(*r);
  }
  if (created && out.empty()) return std::optional<std::string>{};
  return std::optional<std::string>{out};
}

}  // namespace

Result<std::string> codex_set_trust(const std::optional<std::string>& toml,
                                    const std::string& hooks_path,
                                    const std::vector<CodexTrust>& entries) {
  return edit_trust(toml.value_or(""), toml.has_value(), hooks_path, entries);
}

Result<std::optional<std::string>> codex_remove_trust(const std::string& text,
                                                      const std::string& hooks_path) {
  return strip_toml(text, false, {hooks_path});
}

Result<std::string> codex_add_toml_hooks(const std::optional<std::string>& toml,
                                         const std::string& adapter_path) {
  return edit_hooks(toml.value_or(""), toml.has_value(), adapter_path);
}

// ---- doctor ---------------------------------------------------------------------------------

namespace {

// What check_codex gathers from Codex's layers (config.toml, hooks.json, user and project) before
// it judges our hooks, and where its findings go.
struct CodexScan {
  DoctorReport& r;
  std::string home, config, project;
  bool has_project = false;
  bool project_trusted = false;
  std::vector<std::string> toml_hook_files;
  std::vector<OurHook> ours;
  std::map<std::string, int> others;  // event -> other hooks that run beside ours
  std::vector<std::string> programs;
  bool mentions_any = false, project_skipped = false;

  void add(std::string level, std::string message, std::string fix = "",
           nlohmann::json detail = nlohmann::json::object()) {
    r.findings.push_back(Finding{kArea, std::move(level), std::move(message), std::move(fix),
                                 std::move(detail)});
  }
};

struct CodexLayer {
  std::string path, scope;
};

// One config.toml: the project's trust level (in the user's), whether hooks are written there.
void read_codex_toml(CodexScan& s, const std::string& path, bool user) {
  auto t = read_user_file(path);
  if (!t) {
    s.add("broken", t.error().message + ": Codex cannot load its configuration",
          "check its permissions");
    return;
  }
  if (!t->has_value()) return;
  auto d = scan_toml(**t);
  if (!d) {
    s.add("broken", path + ":" + d.error().message + " (not TOML this check can read)",
          "fix the line; `codex` reports its own parse error on start");
    return;
  }
  bool hooks_here = false;
  for (const auto& l : d->lines) {
    if (l.path.size() >= 2 && l.path[0] == "hooks" && cx::is_event(l.path[1])) hooks_here = true;
    if (user && l.kind == TomlLine::Kind::kKeyVal && s.has_project && l.path.size() == 3 &&
        l.path[0] == "projects" && l.path[2] == "trust_level" &&
        canonical_prefix(l.path[1]) == s.project)
      s.project_trusted = TomlScanner::string_at(**t, l.value_begin) == std::string("trusted");
  }
  if (hooks_here) s.toml_hook_files.push_back(path);
}

// One file's hooks (its event lists as JSON, the trust entries of ours): ours, the others that
// run beside them, the programs ours name.
void collect_codex_hooks(CodexScan& s, const std::string& path, const ojson& hooks,
                         const std::vector<CodexTrust>& entries) {
  if (!hooks.is_object()) return;
  for (auto& [event, groups] : hooks.items()) {
    if (!groups.is_array()) continue;
    for (const auto& g : groups) {
      if (!g.is_object() || !g.contains("hooks") || !g["hooks"].is_array()) continue;
      for (const auto& h : g["hooks"]) {
        if (!handler_is_ours(h)) {
          s.others[event] += 1;
          continue;
        }
        std::string cmd = h["command"].get<std::string>();
        std::string prog = split_command_program(cmd).first;
        if (std::find(s.programs.begin(), s.programs.end(), prog) == s.programs.end())
          s.programs.push_back(prog);
        std::string named = cmd.substr(cmd.rfind(' ') + 1);
        if (named != event)
          s.add("broken", path + ": a pinta-gemini hook under " + event + " says --event " + named,
                "run: pinta-gemini install --host codex");
      }
    }
  }
  for (const auto& e : entries) s.ours.push_back(OurHook{path, e.event});
}

// The hooks.json form, user layer then project layer.
void scan_codex_json_layers(CodexScan& s, const std::vector<CodexLayer>& layers) {
  for (const auto& layer : layers) {
    auto t = read_user_file(layer.path);
    if (!t) {
      s.add("warn", t.error().message + ": Codex skips its hooks", "check its permissions");
      continue;
    }
    if (!t->has_value()) continue;
    const bool mentions = (*t)->find(std::string("--agent ") + kAgent) != std::string::npos;
    s.mentions_any = s.mentions_any || mentions;
    auto entries = codex_trust_entries(layer.path, **t);
    ojson v = ojson::parse(**t, nullptr, false);
    if (auto scanned = scan_hooks(**t); !scanned || v.is_discarded()) {
      s.add(mentions ? "broken" : "warn",
            layer.path + ":" +
                (scanned ? std::string(" not valid JSON") : scanned.error().message) +
                ": Codex skips this file, none of its hooks run",
            "fix the JSON at that position");
      continue;
    }
    if (!entries) {  // valid JSON that Codex's loader does not take (whole or for ours)
      s.add("broken", layer.path + ":" + entries.error().message + ": those hooks never run",
            "fix the file (hostemu lint --host codex " + layer.path +
                " names each problem), then run: pinta-gemini install --host codex");
      continue;
    }
    if (layer.scope == "project" && !s.project_trusted && (mentions || v.contains("hooks")))
      s.add(mentions ? "broken" : "info",
            layer.path +
                ": Codex reads a project's .codex/ only when the project is trusted, and " +
                s.project + " is not trusted in " + s.config + ": its hooks do not run",
            "trust the project when Codex asks on start (or install without --workspace)");
    // A project Codex does not trust has its .codex/ skipped whole: nothing there runs.
    if (layer.scope == "project" && !s.project_trusted) {
      s.project_skipped = s.project_skipped || mentions;
      continue;
    }
    collect_codex_hooks(s, layer.path, v["hooks"], *entries);
  }
}

// The TOML form: [hooks] in the layer's config.toml (the project's only when it is trusted).
void scan_codex_toml_layers(CodexScan& s) {
  std::vector<std::string> toml_layers = {s.config};
  if (s.has_project) toml_layers.push_back(fs::join(s.project, ".codex/config.toml"));
  for (const auto& path : toml_layers) {
    auto t = read_user_file(path);
    if (!t || !t->has_value()) continue;  // said above
    const bool mentions = (*t)->find(std::string("--agent ") + kAgent) != std::string::npos;
    s.mentions_any = s.mentions_any || mentions;
    if (!mentions) continue;
    if (path != s.config && !s.project_trusted) {
      s.add("broken",
            path + ": Codex reads a project's .codex/ only when the project is trusted, and " +
                s.project + " is not trusted in " + s.config + ": its hooks do not run",
            "trust the project when Codex asks on start (or install without --workspace)");
      s.project_skipped = true;
      continue;
    }
    auto entries = codex_trust_entries(path, **t);
    if (!entries) {
      s.add("broken", path + ":" + entries.error().message + ": those hooks never run",
            "fix the file (hostemu lint --host codex " + path +
                " names each problem), then run: pinta-gemini install --host codex");
      continue;
    }
    collect_codex_hooks(s, path, toml_hooks_of(**t, path), *entries);
  }
  for (const auto& f : s.toml_hook_files)
    if (json_has_hooks(read_user_file(fs::join(fs::dirname(f), "hooks.json")).value_or(std::nullopt)))
      s.add("info",
            f + " also defines hooks ([hooks.<Event>]): Codex runs them beside hooks.json's", "",
            {{"file", f}});
}

// Ours as the loader sees them: how often each event fires, and the events where one is skipped.
struct CodexFiring {
  std::string untrusted, stale, disabled;
  std::map<std::string, int> fires;
};

// Trust as Codex decides it: untrusted and stale hooks are skipped without a word (CX), and
// `enabled = false` turns one off.
CodexFiring report_codex_trust(CodexScan& s, const cx::LoadedHooks& loaded) {
  CodexFiring f;
  for (const auto& h : loaded.handlers) {
    if (!codex_is_ours(h.command)) continue;
    std::string where = h.event + (h.source.rfind("project", 0) == 0 ? " (project)" : "");
    if (!h.enabled) {
      f.disabled += (f.disabled.empty() ? "" : ", ") + where;
    } else if (h.trust_status == cx::TrustStatus::kTrusted ||
               h.trust_status == cx::TrustStatus::kManaged) {
      f.fires[h.event] += 1;
    } else if (h.trust_status == cx::TrustStatus::kModified) {
      f.stale += (f.stale.empty() ? "" : ", ") + where;
    } else {
      f.untrusted += (f.untrusted.empty() ? "" : ", ") + where;
    }
  }
  nlohmann::json detail = {{"config", s.config}};
  if (!f.untrusted.empty())
    s.add("broken",
          "pinta-gemini's Codex hook is not trusted for " + f.untrusted +
              ": Codex skips an untrusted hook without a word, so the guard never runs there",
          "run: pinta-gemini install --host codex (records the trust in " + s.config +
              "), or trust it in Codex's /hooks",
          detail);
  if (!f.stale.empty())
    s.add("broken",
          "pinta-gemini's Codex hook trust is stale for " + f.stale +
              " (the hook or its place changed since it was trusted): Codex skips it without a "
              "word, so the guard never runs there",
          "run: pinta-gemini install --host codex, or trust it again in Codex's /hooks", detail);
  if (!f.disabled.empty())
    s.add("broken",
          "pinta-gemini's Codex hook is disabled (enabled = false in " + s.config + ") for " +
              f.disabled + ": the guard never runs there",
          "enable it in Codex's /hooks", detail);
  return f;
}

// Each event ours should run on: missing, twice, the other hooks beside ours, the Codex release.
void report_codex_coverage(CodexScan& s, const cx::LoadedHooks& loaded, CodexFiring& f,
                           int probe_timeout_ms) {
  std::string missing, twice;
  for (const auto& e : installed_events(Host::kCodex)) {
    int n = f.fires.count(e) ? f.fires[e] : 0;
    if (n == 0) missing += (missing.empty() ? "" : ", ") + e;
    if (n > 1) twice += (twice.empty() ? "" : ", ") + e;
  }
  nlohmann::json d2 = {{"fires", f.fires}, {"others", s.others}};
  if (!twice.empty())
    s.add("warn",
          "pinta-gemini runs more than once for " + twice +
              " (more than one of Codex's hooks files holds it)",
          "keep one registration: uninstall --host codex [--workspace DIR]", d2);
  for (const auto& [event, n] : s.others)
    if (n > 0 && std::any_of(s.ours.begin(), s.ours.end(),
                             [&ev = event](const OurHook& h) { return h.event == ev; }))
      s.add("info",
            std::to_string(n) + " other hook(s) on " + event +
                " run beside ours (Codex runs matching hooks concurrently; any one's deny blocks" +
                (event == "PreToolUse" ? " from 0.146.0 on, earlier releases can lose it)" : ")"),
            "", {{"event", event}, {"count", n}});
  check_codex_release(loaded, f.fires, std::max(probe_timeout_ms, 3000), s.r);
  if (!missing.empty())
    s.add(f.untrusted.empty() && f.stale.empty() && f.disabled.empty() ? "warn" : "broken",
          "pinta-gemini does not run for Codex's " + missing,
          "run: pinta-gemini install --host codex", d2);
  else
    s.add("ok", "pinta-gemini is registered and trusted for every Codex event", "", d2);
}

}  // namespace

void check_codex(const DoctorOptions& o, DoctorReport& r) {
  CodexScan s{.r = r};
  s.home = codex_home_dir(o.home);
  s.config = fs::join(s.home, "config.toml");
  s.has_project = !o.workspace.empty() && canonical_prefix(o.workspace) != s.home &&
                  fs::join(canonical_prefix(o.workspace), ".codex") != s.home;
  s.project = s.has_project ? canonical_prefix(o.workspace) : "";

  // The user's config.toml: the project's trust level, hooks written there.
  read_codex_toml(s, s.config, true);
  if (s.has_project) read_codex_toml(s, fs::join(s.project, ".codex/config.toml"), false);

  std::vector<CodexLayer> layers = {{fs::join(s.home, "hooks.json"), "user"}};
  if (s.has_project) layers.push_back({fs::join(s.project, ".codex/hooks.json"), "project"});
  {  // where Codex reads hooks: every layer's hooks all run (CX)
    std::string where = layers[0].path + " and [hooks] in " + s.config + " (user)";
    if (s.has_project)
      where += "; " + layers[1].path + " and [hooks] in " + s.project +
               "/.codex/config.toml (project, read only when the project is trusted: " +
               (s.project_trusted ? "it is" : "it is not") + ")";
    s.add("info", "Codex reads hooks from " + where + "; trust from " + s.config, "",
          {{"codex_home", s.home}, {"project_trusted", s.project_trusted}});
  }
  scan_codex_json_layers(s, layers);
  scan_codex_toml_layers(s);

  if (s.ours.empty()) {
    if (s.project_skipped) return;  // said above: the untrusted project's copy is all there is
    if (!s.mentions_any)
      s.add("info", "pinta-gemini is not installed for Codex", "", {{"installed", false}});
    else
      s.add("broken", "pinta-gemini is named in a Codex hooks file but registers no hook",
            "run: pinta-gemini install --host codex");
    return;
  }
  for (const auto& p : s.programs)
    if (p.empty() || p[0] != '/' || ::access(p.c_str(), X_OK) != 0)
      s.add("broken", "the hook program " + p + " is missing or not executable: every hook fails",
            "reinstall pinta-gemini, then run: pinta-gemini install --host codex");

  // Trust as Codex decides it: the hosts/codex loader over the same layers (CX: an untrusted or
  // stale hook is skipped without a word; `enabled = false` turns one off).
  cx::Sources src;
  src.codex_home = s.home;
  if (s.has_project) {
    src.project = s.project;
    src.project_trusted = s.project_trusted;
  }
  auto loaded = cx::load_hooks(src);
  if (!loaded) {
    s.add("broken", "Codex cannot load its hooks: " + loaded.error().message,
          "fix that file, then run: pinta-gemini install --host codex");
    return;
  }
  CodexFiring f = report_codex_trust(s, *loaded);
  report_codex_coverage(s, *loaded, f, o.probe_timeout_ms);
}

namespace {

// The planned files as Codex will read them, checked with the hosts/codex loader before anything is
// written: config.toml must load (toml++, as strict as Codex's parser: a table defined twice, say)
// and every hook of ours must come out trusted with its current hash. The copies go to a temp
// directory (the hooks file as the user layer's hooks.json, as the user config.toml itself, or as
// a trusted project's config.toml), our keys renamed to the copy's path. Returns how many of ours
// the user keeps disabled (`enabled = false`: their choice, said, not undone).
Result<int> verify_planned(const std::string& hooks_path, const std::string& hooks_text,
                           const std::string& config_path, const std::string& config_text) {
  std::error_code ec;
  std::string dir = (std::filesystem::temp_directory_path(ec) / "pinta-codex-XXXXXX").string();
  if (!::mkdtemp(dir.data()))
    return make_error(ErrorCode::kIo, " cannot make a temp directory to check the plan");
  struct Remove {
    std::string dir;
    ~Remove() {
      std::error_code e;
      std::filesystem::remove_all(dir, e);
    }
  } remove{dir};
  const bool same = hooks_path == config_path, project = !same && is_config_toml(hooks_path);
  cx::Sources src;
  src.codex_home = fs::join(dir, "home");
  const std::string config_copy = fs::join(src.codex_home, "config.toml");
  const std::string hooks_copy = same      ? config_copy
                                 : project ? fs::join(dir, "project/.codex/config.toml")
                                           : fs::join(src.codex_home, "hooks.json");
  if (project) {
    src.project = fs::join(dir, "project");
    src.project_trusted = true;
  }
  auto quoted = [](const std::string& p) {
    std::string q = toml_quote(p + ":");
    return q.substr(0, q.size() - 1);  // without the closing quote: a key's start
  };
  std::string config = config_text;
  const std::string from = quoted(hooks_path), to = quoted(hooks_copy);
  for (size_t at = 0; (at = config.find(from, at)) != std::string::npos; at += to.size())
    config.replace(at, from.size(), to);
  Result<cx::LoadedHooks> loaded = make_error(ErrorCode::kIo, " cannot write the temp copies");
  std::filesystem::create_directories(fs::dirname(hooks_copy), ec);
  std::filesystem::create_directories(src.codex_home, ec);
  if ((same || fs::atomic_write(hooks_copy, hooks_text, 0600)) &&
      fs::atomic_write(config_copy, config, 0600))
    loaded = cx::load_hooks(src);
  auto real_paths = [&](std::string m) {
    for (const auto& [a, b] : {std::pair{hooks_copy, hooks_path}, std::pair{config_copy, config_path}})
      for (size_t at; (at = m.find(a)) != std::string::npos;) m.replace(at, a.size(), b);
    for (auto& c : m)
      if (c == '\n') c = ' ';
    return m;
  };
  if (!loaded) return make_error(loaded.error().code, " " + real_paths(loaded.error().message));
  int disabled = 0, skipped = 0;
  for (const auto& h : loaded->handlers) {
    if (!codex_is_ours(h.command)) continue;
    if (!h.enabled) ++disabled;
    else if (h.trust_status != cx::TrustStatus::kTrusted) ++skipped;
  }
  if (skipped > 0)
    return make_error(ErrorCode::kInternal, " " + std::to_string(skipped) +
                                                " of our hooks would still be untrusted after "
                                                "install; nothing written");
  return disabled;
}

// Whether config.toml text defines hooks ([hooks.<Event>] tables or keys).
bool toml_has_hooks(const std::optional<std::string>& text) {
  if (!text) return false;
  auto d = scan_toml(*text);
  return d && std::any_of(d->lines.begin(), d->lines.end(), [](const TomlLine& l) {
           return l.path.size() >= 2 && l.path[0] == "hooks" && cx::is_event(l.path[1]);
         });
}

// Whether config.toml text holds a hook group of ours.
bool toml_has_ours(const std::optional<std::string>& text) {
  if (!text) return false;
  auto d = scan_toml(*text);
  return d && std::any_of(d->owned.begin(), d->owned.end(),
                          [](const TomlDoc::Table& t) { return t.group; });
}

Result<Plan> install_plan(const InstallOptions& o) {
  const std::string json_path = codex_hooks_path(o), config = codex_config_path(o);
  const std::string layer_toml = fs::join(fs::dirname(json_path), "config.toml");
  const auto nothing = [](const Error& e, const std::string& path) {
    return make_error(e.code, path + ":" + e.message + "; nothing written");
  };
  auto json_before = read_user_file(json_path);
  if (!json_before) return make_error(ErrorCode::kIo, json_before.error().message + "; nothing written");
  auto toml = read_user_file(config);
  if (!toml) return make_error(ErrorCode::kIo, toml.error().message + "; nothing written");
  auto layer_before = layer_toml == config ? toml : read_user_file(layer_toml);
  if (!layer_before)
    return make_error(ErrorCode::kIo, layer_before.error().message + "; nothing written");
  // The layer's form (CX: hooks.json and [hooks] in config.toml both load): where ours already is,
  // else config.toml when the user keeps their hooks there and hooks.json has none, else hooks.json.
  const bool ours_in_json =
      json_before->has_value() && (*json_before)->find(std::string("--agent ") + kAgent) !=
                                      std::string::npos;
  const bool in_toml =
      toml_has_ours(*layer_before) ||
      (!ours_in_json && toml_has_hooks(*layer_before) && !json_has_hooks(*json_before));
  const std::string hooks = in_toml ? layer_toml : json_path;
  const std::optional<std::string>& before = in_toml ? *layer_before : *json_before;
  auto after = in_toml ? codex_add_toml_hooks(before, o.adapter_path)
                       : codex_add_ours(before.value_or(jsonedit::kFreshFile), o.adapter_path);
  if (!after) return nothing(after.error(), hooks);
  auto entries = codex_trust_entries(hooks, *after);
  if (!entries) return nothing(entries.error(), hooks);
  // The user layer's config.toml in TOML form holds our groups and their trust.
  const std::optional<std::string> trust_base =
      hooks == config ? std::optional<std::string>{*after} : *toml;
  auto trusted = codex_set_trust(trust_base, hooks, *entries);
  if (!trusted) return nothing(trusted.error(), config);
  auto disabled = verify_planned(hooks, *after, config, *trusted);
  if (!disabled) return nothing(disabled.error(), config);
  Plan plan;
  if (hooks != config) {
    // The user's original hooks.json is kept once (apply never overwrites a backup); a file that
    // already holds ours is install's own (created by it, or backed up by the install that first
    // edited it). A config.toml is edited inside our marked block only.
    const bool original = !in_toml && before.has_value() && !ours_in_json;
    add_change(plan, hooks, before, *after, original);
  }
  add_change(plan, config, *toml, *trusted, false);
  if (!o.workspace.empty())
    plan.warnings.push_back(hooks +
                            " is a project file: Codex reads it only when the project is trusted, "
                            "and everyone who opens the project runs it");
  if (!in_toml && toml_has_hooks(*layer_before))
    plan.warnings.push_back(
        layer_toml + " defines hooks too ([hooks.<Event>]): install writes " + json_path +
        " only, and Codex runs both files' hooks but warns on every start that it loads hooks "
        "from both (docs/hosts/codex-0.171.md, scenario layers-json-and-toml)");
  if (in_toml && json_has_hooks(*json_before))
    plan.warnings.push_back(
        json_path + " defines hooks too: install writes [hooks] in " + layer_toml +
        " only, and Codex runs both files' hooks but warns on every start that it loads hooks "
        "from both (docs/hosts/codex-0.171.md, scenario layers-json-and-toml)");
  plan.warnings.push_back("trusted " + std::to_string(entries->size()) + " hooks in " + config +
                          " (Codex runs an untrusted hook never; install is your consent, "
                          "uninstall takes the trust back)");
  if (*disabled > 0)
    plan.warnings.push_back(std::to_string(*disabled) + " of our hooks stay disabled (enabled = "
                            "false in " + config + ", set in Codex's /hooks): the guard does not "
                            "run there until you enable them");
  add_state(o, plan, {fs::dirname(hooks), fs::dirname(config)},
            !in_toml && !json_before->has_value(), in_toml ? "" : json_path);
  return plan;
}

Status uninstall_plan(const InstallOptions& o, const State& s, Plan& plan) {
  const std::string hooks = codex_hooks_path(o), config = codex_config_path(o);
  const std::string layer_toml = fs::join(fs::dirname(hooks), "config.toml");
  const auto nothing = [](ErrorCode code, const std::string& message) {
    return make_error(code, message + "; nothing written");
  };
  auto before = read_user_file(hooks);
  if (!before) return nothing(ErrorCode::kIo, before.error().message);
  auto toml = read_user_file(config);
  if (!toml) return nothing(ErrorCode::kIo, toml.error().message);
  if (before->has_value()) {
    bool only_ours = false;
    auto after = codex_remove_ours(**before, &only_ours);
    if (!after) return nothing(ErrorCode::kParse, hooks + ":" + after.error().message);
    if (*after != **before) add_uninstall_change(plan, s, hooks, **before, *after, only_ours);
  }
  // Our groups in the layer's config.toml (the TOML form), and the trust of either form.
  if (layer_toml != config) {
    auto layer = read_user_file(layer_toml);
    if (!layer) return nothing(ErrorCode::kIo, layer.error().message);
    if (layer->has_value() && (*layer)->find(kOwn) != std::string::npos) {  // none of ours: as is
      auto after = strip_toml(**layer, true, {});
      if (!after) return nothing(ErrorCode::kParse, layer_toml + ":" + after.error().message);
      add_change(plan, layer_toml, *layer, *after, false);
    }
  }
  if (toml->has_value()) {
    auto after = strip_toml(**toml, layer_toml == config, {hooks, layer_toml});
    if (!after) return nothing(ErrorCode::kParse, config + ":" + after.error().message);
    add_change(plan, config, *toml, *after, false);
  }
  return {};
}

// `hostemu lint` on the files Codex reads hooks from: hooks.json and config.toml, user then
// project.
std::vector<LintFile> lint_files(const DoctorOptions& o) {
  const std::string home = codex_home_dir(o.home);
  std::vector<LintFile> out = {{fs::join(home, "hooks.json"), o.home},
                               {fs::join(home, "config.toml"), o.home}};
  if (!o.workspace.empty()) {
    out.push_back({fs::join(o.workspace, ".codex/hooks.json"), o.home});
    out.push_back({fs::join(o.workspace, ".codex/config.toml"), o.home});
  }
  return out;
}

}  // namespace

namespace codex {
extern const FamilyAdmin kAdmin{.plan_install = install_plan,
                                .plan_uninstall = uninstall_plan,
                                .check = check_codex,
                                .lint_files = lint_files,
                                .workspace_refused = "",
                                .state_under_dot_gemini = false};
}  // namespace codex

}  // namespace pinta::admin
