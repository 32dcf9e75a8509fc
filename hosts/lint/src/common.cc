// Checks shared by every host's linter: the command's program, matcher shape, output formats.
#include "common.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

namespace pinta::hostlint {
namespace detail {

namespace sfs = std::filesystem;

const ojson* at_pointer(const ojson& root, const std::string& pointer) {
  const ojson* cur = &root;
  size_t i = 0;
  while (i < pointer.size()) {
    if (pointer[i] != '/') return nullptr;
    size_t j = pointer.find('/', i + 1);
    std::string tok = pointer.substr(i + 1, j == std::string::npos ? std::string::npos : j - i - 1);
    std::string key;
    for (size_t k = 0; k < tok.size(); ++k) {
      if (tok[k] == '~' && k + 1 < tok.size()) {
        key += tok[k + 1] == '1' ? '/' : '~';
        ++k;
      } else {
        key += tok[k];
      }
    }
    if (cur->is_object()) {
      auto it = cur->find(key);
      if (it == cur->end()) return nullptr;
      cur = &*it;
    } else if (cur->is_array()) {
      if (key.empty() || key.size() > 9 || !std::all_of(key.begin(), key.end(), ::isdigit))
        return nullptr;
      size_t n = std::stoul(key);
      if (n >= cur->size()) return nullptr;
      cur = &(*cur)[n];
    } else {
      return nullptr;
    }
    if (j == std::string::npos) break;
    i = j;
  }
  return cur;
}

std::string parent_pointer(const std::string& pointer) {
  auto p = pointer.rfind('/');
  return p == std::string::npos ? std::string() : pointer.substr(0, p);
}

std::string normalize(const std::string& path) {
  std::error_code ec;
  sfs::path p = sfs::absolute(path, ec);
  if (ec) p = path;
  return p.lexically_normal().string();
}

std::string dir_of(const std::string& path) { return sfs::path(path).parent_path().string(); }

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// ---- command ----------------------------------------------------------------------------------

namespace {

// Splits the start of a shell command into words (quotes removed); stops at an operator.
std::vector<std::string> leading_words(const std::string& cmd, size_t max_words) {
  std::vector<std::string> words;
  std::string cur;
  bool have = false;
  size_t i = 0;
  while (i < cmd.size() && words.size() < max_words) {
    char c = cmd[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (have) words.push_back(cur), cur.clear(), have = false;
      ++i;
    } else if (c == ';' || c == '|' || c == '&' || c == '(' || c == ')' || c == '<' || c == '>') {
      break;
    } else if (c == '\'') {
      size_t e = cmd.find('\'', i + 1);
      if (e == std::string::npos) return {};
      cur += cmd.substr(i + 1, e - i - 1);
      have = true;
      i = e + 1;
    } else if (c == '"') {
      size_t e = i + 1;
      std::string part;
      while (e < cmd.size() && cmd[e] != '"') {
        if (cmd[e] == '\\' && e + 1 < cmd.size()) ++e;
        part += cmd[e++];
      }
      if (e >= cmd.size()) return {};
      cur += part;
      have = true;
      i = e + 1;
    } else if (c == '\\' && i + 1 < cmd.size()) {
      cur += cmd[i + 1];
      have = true;
      i += 2;
    } else {
      cur += c;
      have = true;
      ++i;
    }
  }
  if (have && words.size() < max_words) words.push_back(cur);
  return words;
}

bool is_assignment(const std::string& w) {
  auto eq = w.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  for (size_t i = 0; i < eq; ++i)
    if (!(std::isalnum(static_cast<unsigned char>(w[i])) || w[i] == '_')) return false;
  return true;
}

// The program and its first argument, after VAR=x prefixes, `env`, `exec`, `command`.
std::vector<std::string> program_words(const std::string& command) {
  auto words = leading_words(command, 12);
  size_t i = 0;
  while (i < words.size()) {
    const auto& w = words[i];
    if (is_assignment(w) || w == "exec" || w == "command" || w == "nohup") {
      ++i;
      continue;
    }
    if (w == "env") {
      ++i;
      while (i < words.size() && (is_assignment(words[i]) || words[i].rfind('-', 0) == 0)) ++i;
      continue;
    }
    break;
  }
  return std::vector<std::string>(words.begin() + static_cast<long>(std::min(i, words.size())),
                                  words.end());
}

const std::vector<std::string>& shell_builtins() {
  static const std::vector<std::string> b = {
      "echo", "printf", "true",   "false", ":",     "test",  "[",      "exit", "cd",    "read",
      "set",  "export", "eval",   "exec",  "if",    "for",   "while",  "case", "{",     "!",
      "cat",  "trap",   "source", ".",     "shift", "local", "return", "wait", "sleep", "type"};
  return b;
}

bool is_interpreter(const std::string& prog) {
  static const std::vector<std::string> names = {"sh",     "bash",    "zsh",  "dash", "node",
                                                 "python", "python3", "ruby", "perl", "deno",
                                                 "bun",    "tsx",     "uv",   "npx"};
  std::string base = sfs::path(prog).filename().string();
  return std::find(names.begin(), names.end(), base) != names.end();
}

std::string expand(std::string w, const CommandContext& ctx) {
  if (w == "~" || w.rfind("~/", 0) == 0) w = ctx.home + w.substr(1);
  for (const auto& [k, v] : ctx.vars) {
    for (size_t p = w.find(k); p != std::string::npos; p = w.find(k, p + v.size()))
      w.replace(p, k.size(), v);
  }
  for (const char* h : {"${HOME}", "$HOME"}) {
    std::string hs = h;
    for (size_t p = w.find(hs); p != std::string::npos; p = w.find(hs, p + ctx.home.size()))
      w.replace(p, hs.size(), ctx.home);
  }
  return w;
}

bool is_regular(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::optional<std::string> search_path(const std::string& prog, const std::string& path_env) {
  std::stringstream ss(path_env);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) dir = ".";
    std::string c = dir + "/" + prog;
    if (is_regular(c) && ::access(c.c_str(), X_OK) == 0) return c;
  }
  return std::nullopt;
}

// `echo '{}'`, `printf "{}"`, `echo {}` as the whole reply.
// Line by line: std::regex recurses per character, so long inputs are not given to it whole.
bool prints_empty_object(const std::string& text) {
  static const std::regex re(
      R"((^|[;&|]|then|do|else)\s*(echo(\s+-[neE]+)?|printf)\s+(['"]?)\{\s*\}\4\s*($|[;&|>]|#))");
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) {
    if (line.size() > 2000 || line.find('{') == std::string::npos) continue;
    if (std::regex_search(line, re)) return true;
  }
  return false;
}

}  // namespace

std::string first_word(const std::string& command) {
  auto w = program_words(command);
  return w.empty() ? std::string() : w[0];
}

std::vector<std::string> command_words(const std::string& command) {
  return program_words(command);
}

void check_adapter(Sink& sink, const std::string& ptr, pinta::hosts::Family family,
                   const std::string& event, const std::string& command) {
  namespace hs = pinta::hosts;
  auto words = program_words(command);
  if (words.empty()) return;
  const auto slash = words[0].rfind('/');
  if (words[0].substr(slash == std::string::npos ? 0 : slash + 1) != "pinta-gemini") return;
  auto value = [&](const std::string& flag) -> std::optional<std::string> {
    for (size_t i = 1; i + 1 < words.size(); ++i)
      if (words[i] == flag) return words[i + 1];
    for (size_t i = 1; i < words.size(); ++i)
      if (words[i].rfind(flag + "=", 0) == 0) return words[i].substr(flag.size() + 1);
    return std::nullopt;
  };
  // The adapter answers by its --agent family (pinta/hosts/family.h: each family's ReplyReading);
  // an unknown or missing label has no family, so every event gets the fail-safe reply.
  const auto& d = hs::descriptor(family);
  const std::string host(d.display_name);
  auto agent = value("--agent");
  // No --agent: no label, no family (family_for_label never matches "").
  const auto fam = hs::family_for_label(agent ? std::string_view(*agent) : std::string_view());
  if (!fam || *fam != family)
    sink.add(Severity::kError, "adapter-agent", ptr,
             !agent ? "pinta-gemini without --agent: it answers every event with its fail-safe "
                      "reply and never asks the guard"
             : !fam ? "pinta-gemini --agent " + *agent +
                          ": no host family has this label, so it answers every event with its "
                          "fail-safe reply and never asks the guard"
                    : "pinta-gemini --agent " + *agent + " answers in " +
                          std::string(hs::descriptor(*fam).display_name) + "'s protocol, which " +
                          host + " does not read the same way: a guard deny may not block here",
             "write --agent " + std::string(d.agent_labels[0]) + " (pinta-gemini install --host " +
                 std::string(d.name) + " writes it)");
  // The adapter picks its reply by --event; the host reads it as the reply of `event`.
  const std::string registered(hs::canonical_event_name(family, event));
  auto ev = value("--event");
  if (ev && std::string(hs::canonical_event_name(family, *ev)) != registered)
    sink.add(Severity::kError, "adapter-event", ptr,
             "pinta-gemini --event " + *ev + " is registered under " + event +
                 ": it answers with the reply of " + *ev + ", which " + host +
                 " does not read for " + event,
             "write --event " + registered);
}

// A name near `file` in its directory, for "did you mean" on a path that does not exist.
static std::string nearby_file(const std::string& abs) {
  std::error_code ec;
  sfs::path p(abs);
  std::vector<std::string> names;
  for (auto it = sfs::directory_iterator(p.parent_path(), ec);
       !ec && it != sfs::directory_iterator() && names.size() < 1000; it.increment(ec))
    names.push_back(it->path().filename().string());
  auto c = closest_name(p.filename().string(), names);
  return c ? (p.parent_path() / *c).string() : std::string();
}

void check_command(Sink& sink, const std::string& pointer, const std::string& command,
                   const CommandContext& ctx, bool empty_object_denies,
                   const std::string& empty_object_why, const std::string& blocks_why,
                   std::string* script) {
  const Severity missing = blocks_why.empty() ? Severity::kWarning : Severity::kError;
  const std::string blocks = blocks_why.empty() ? "" : ": " + blocks_why;
  auto words = program_words(command);
  std::string script_text;  // the resolved script, for the {} check
  if (!words.empty()) {
    std::string prog = expand(words[0], ctx);
    bool resolvable = prog.find('$') == std::string::npos && prog.find('`') == std::string::npos &&
                      prog.find('*') == std::string::npos;
    const auto& bi = shell_builtins();
    if (resolvable && std::find(bi.begin(), bi.end(), prog) == bi.end()) {
      std::optional<std::string> resolved;
      if (prog.find('/') != std::string::npos) {
        std::string abs = prog[0] == '/' ? prog : ctx.cwd + "/" + prog;
        std::error_code ec;
        if (!sfs::exists(abs, ec)) {
          std::string near = nearby_file(abs);
          std::string hint =
              !near.empty() ? "did you mean " + near + "?"
              : prog[0] == '/'
                  ? "check the path: nothing exists at " + abs
                  : "write its absolute path (the host runs the command from " + ctx.cwd + ")";
          sink.add(missing, "command-not-found", pointer,
                   "'" + words[0] + "' does not exist" +
                       (prog[0] == '/' ? std::string() : " (relative to " + ctx.cwd + ")") + blocks,
                   hint);
        } else if (!is_regular(abs)) {
          sink.add(missing, "command-not-executable", pointer,
                   "'" + words[0] + "' is not a regular file" + blocks,
                   "point the command at a program");
        } else if (::access(abs.c_str(), X_OK) != 0) {
          sink.add(missing, "command-not-executable", pointer,
                   "'" + words[0] + "' is not executable" + blocks,
                   "chmod +x " + abs + " (or run it through its interpreter, e.g. sh " + abs + ")");
        } else {
          resolved = abs;
        }
      } else if (auto found = search_path(prog, ctx.path_env)) {
        resolved = found;
      } else {
        sink.add(missing, "command-not-found", pointer, "'" + prog + "' is not on PATH" + blocks,
                 "install it, or write its absolute path (hooks may get a smaller PATH than your "
                 "shell)");
      }
      // `sh script.sh`, `node hook.js`: the script must exist.
      if (resolved && is_interpreter(prog) && words.size() > 1 && words[1][0] != '-') {
        std::string arg = expand(words[1], ctx);
        if (arg.find('$') == std::string::npos && arg.find('.') != std::string::npos) {
          std::string abs = arg[0] == '/' ? arg : ctx.cwd + "/" + arg;
          std::error_code ec;
          if (!sfs::exists(abs, ec))
            sink.add(Severity::kWarning, "command-not-found", pointer,
                     "script '" + words[1] + "' does not exist" +
                         (arg[0] == '/' ? std::string() : " (relative to " + ctx.cwd + ")"),
                     "use an absolute path to the script");
          else if (is_regular(abs))
            resolved = abs;
        }
      }
      if (resolved && (prog.find('/') != std::string::npos || is_interpreter(prog))) {
        std::ifstream in(*resolved, std::ios::binary);
        std::string buf(64 * 1024, '\0');
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        buf.resize(static_cast<size_t>(in.gcount()));
        if (buf.find('\0') == std::string::npos) script_text = buf;
      }
    }
  }
  if (script != nullptr) *script = script_text;
  if (!empty_object_denies) return;
  if (prints_empty_object(command)) {
    sink.add(Severity::kError, "empty-object-deny", pointer,
             "the hook prints {}: " + empty_object_why,
             "print nothing (exit 0) for \"no opinion\", or {\"decision\":\"allow\"}");
  } else if (!script_text.empty() && prints_empty_object(script_text)) {
    sink.add(Severity::kWarning, "empty-object-deny", pointer,
             "the hook's script prints {} on some path: " + empty_object_why,
             "print nothing (exit 0) for \"no opinion\", or {\"decision\":\"allow\"}");
  }
}

// ---- matchers ---------------------------------------------------------------------------------

bool catastrophic_pattern(const std::string& p) {
  // For each open group: whether a quantifier occurred inside it.
  std::vector<bool> inner;
  bool last_group_quantified = false;  // the group just closed contained a quantifier
  bool after_group = false;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    bool quant =
        c == '*' || c == '+' ||
        (c == '{' && i + 1 < p.size() && std::isdigit(static_cast<unsigned char>(p[i + 1])));
    if (quant) {
      bool unbounded = c != '{';
      if (c == '{') {  // {n}, {n,}, {n,m}: unbounded when open or m > 10; anything else literal
        size_t j = i + 1;
        while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
        if (j < p.size() && p[j] == ',') {
          size_t k = j + 1;
          unsigned long hi = 0;
          bool digits = false;
          while (k < p.size() && std::isdigit(static_cast<unsigned char>(p[k]))) {
            if (hi < 1000) hi = hi * 10 + static_cast<unsigned long>(p[k] - '0');
            digits = true;
            ++k;
          }
          if (k >= p.size() || p[k] != '}') continue;
          unbounded = !digits || hi > 10;
          i = k;
        } else if (j < p.size() && p[j] == '}') {
          i = j;
        } else {
          continue;
        }
      }
      if (after_group && last_group_quantified && unbounded) return true;
      if (!inner.empty()) inner.back() = true;
      after_group = false;
      continue;
    }
    after_group = false;
    if (c == '\\') {
      ++i;
    } else if (c == '[') {
      size_t j = i + 1;
      if (j < p.size() && p[j] == '^') ++j;
      if (j < p.size() && p[j] == ']') ++j;
      while (j < p.size() && p[j] != ']') {
        if (p[j] == '\\') ++j;
        ++j;
      }
      i = j;
    } else if (c == '(') {
      inner.push_back(false);
    } else if (c == ')') {
      if (inner.empty()) continue;
      last_group_quantified = inner.back();
      inner.pop_back();
      if (!inner.empty() && last_group_quantified) inner.back() = true;
      after_group = true;
    }
  }
  return false;
}

void check_matcher_shape(Sink& sink, const std::string& pointer, const std::string& matcher_raw,
                         const MatcherContext& ctx) {
  std::string m = matcher_raw;
  while (!m.empty() && std::isspace(static_cast<unsigned char>(m.back()))) m.pop_back();
  while (!m.empty() && std::isspace(static_cast<unsigned char>(m.front()))) m.erase(0, 1);
  if (m.empty() || m == "*") return;
  if (ctx.backtracking && catastrophic_pattern(m))
    sink.add(Severity::kWarning, "matcher-catastrophic", pointer,
             "matcher '" + m + "' nests quantifiers: " + ctx.host +
                 " matches with a backtracking engine, so a long tool name can hang it",
             "drop the inner or outer quantifier (e.g. (a+)+ → a+)");
  bool literal = std::all_of(m.begin(), m.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '|';
  });
  if (!literal) return;
  // Each alternative: case mismatch and Claude Code names.
  std::stringstream ss(m);
  std::string alt;
  bool never = false;  // an alternative can never match: anchoring is then beside the point
  while (std::getline(ss, alt, '|')) {
    if (alt.empty()) continue;
    if (std::find(ctx.tools.begin(), ctx.tools.end(), alt) != ctx.tools.end()) continue;
    if (auto c = ctx.claude_names.find(alt); c != ctx.claude_names.end()) {
      sink.add(Severity::kWarning, "matcher-case", pointer,
               "'" + alt + "' is a Claude Code tool name; " + ctx.host + " calls it '" + c->second +
                   "', so this matcher never matches it",
               "write '" + c->second + "'");
      never = true;
      continue;
    }
    const std::string low = text::ascii_lower(alt);
    for (const auto& t : ctx.tools) {
      if (text::ascii_lower(t) == low) {
        sink.add(Severity::kWarning, "matcher-case", pointer,
                 "'" + alt + "' differs from the tool name '" + t + "' only in case; " + ctx.host +
                     " matches case-sensitively",
                 "write '" + t + "'");
        never = true;
        break;
      }
    }
  }
  if (ctx.searched && !never)
    sink.add(Severity::kWarning, "matcher-unanchored", pointer,
             "matcher '" + m + "' is searched, not anchored: " + ctx.host +
                 " also runs this hook for any tool whose name merely contains it",
             "anchor it: ^(" + m + ")$");
}

std::optional<std::string> closest_name(const std::string& written,
                                        const std::vector<std::string>& candidates) {
  auto low = [](const std::string& s) { return text::ascii_lower(s); };
  const std::string a = low(written);
  if (a.empty() || a.size() > 200) return std::nullopt;
  std::optional<std::string> best;
  size_t best_d = std::string::npos;
  for (const auto& c : candidates) {
    const std::string b = low(c);
    if (b == a) return c;
    if (b.size() > 200) continue;
    // Optimal string alignment distance (Damerau-Levenshtein without repeated edits).
    const size_t n = a.size(), m = b.size();
    std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
    for (size_t i = 0; i <= n; ++i) d[i][0] = i;
    for (size_t j = 0; j <= m; ++j) d[0][j] = j;
    for (size_t i = 1; i <= n; ++i)
      for (size_t j = 1; j <= m; ++j) {
        size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    if (d[n][m] < best_d) {
      best_d = d[n][m];
      best = c;
    }
  }
  // Near enough: a third of the longer name (bytes; a Hangul syllable is 3), at least 1 edit.
  if (!best) return std::nullopt;
  size_t longer = std::max(a.size(), best->size());
  size_t limit = std::max<size_t>(1, longer / 3);
  return best_d <= limit ? best : std::nullopt;
}

std::string did_you_mean(const std::string& written, const std::vector<std::string>& candidates) {
  auto c = closest_name(written, candidates);
  return c && *c != written ? " (did you mean '" + *c + "'?)" : "";
}

std::string suggest_event(const std::string& written, const std::vector<std::string>& valid,
                          const std::map<std::string, std::string>& foreign) {
  auto low = [](const std::string& s) { return text::ascii_lower(s); };
  for (const auto& v : valid)
    if (low(v) == low(written)) return "event names are case-sensitive: write '" + v + "'";
  if (auto f = foreign.find(written); f != foreign.end())
    return f->second.empty() ? "this host has no such event"
                             : "this host calls it '" + f->second + "'";
  if (auto c = closest_name(written, valid)) return "did you mean '" + *c + "'?";
  std::string list;
  for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
  return "use one of: " + list;
}

std::string human_duration_ms(double ms) {
  std::ostringstream o;
  if (ms < 1000)
    o << ms << " ms";
  else if (ms < 120000)
    o << ms / 1000 << " s";
  else if (ms < 2 * 3600 * 1000.0)
    o << std::round(ms / 60000) << " min";
  else
    o << std::round(ms / 3600000) << " h";
  return o.str();
}

std::string fmt_ms(double ms) {
  std::ostringstream o;
  o << ms << " ms";
  return o.str();
}

Result<std::vector<ExplainSection>> bad_request(const std::string& m) {
  return make_error(ErrorCode::kInvalidArgument, m);
}

}  // namespace detail

// ---- output -----------------------------------------------------------------------------------

std::string host_name(Host h) { return std::string(pinta::hosts::descriptor(h).name); }

std::optional<Host> parse_host(const std::string& name) {
  return pinta::hosts::family_by_name(name);
}

std::string host_names() { return pinta::hosts::family_names("|"); }

const char* severity_name(Severity s) { return s == Severity::kError ? "error" : "warning"; }

const std::vector<std::string>& rule_ids() {
  static const std::vector<std::string> ids = {
      "json-syntax",          "file-rejected",          "foreign-root",
      "event-shape",          "unknown-event",          "unknown-key",
      "invalid-handler",      "hook-disabled",          "timeout-unit",
      "matcher-invalid",      "matcher-unanchored",     "matcher-case",
      "matcher-catastrophic", "command-not-found",      "command-not-executable",
      "empty-object-deny",    "duplicate-registration", "file-not-read",
      "unknown-value",        "matcher-ignored",        "matcher-never-matches",
      "adapter-agent",        "adapter-event"};
  return ids;
}

bool any_error(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::kError; });
}

std::string format_findings(const std::vector<Finding>& findings, const std::string& format) {
  std::ostringstream o;
  if (format == "json") {
    nlohmann::ordered_json j;
    j["findings"] = nlohmann::ordered_json::array();
    size_t errors = 0;
    for (const auto& f : findings) {
      if (f.severity == Severity::kError) ++errors;
      j["findings"].push_back({{"file", f.file},
                               {"line", f.pos.line},
                               {"col", f.pos.col},
                               {"severity", severity_name(f.severity)},
                               {"rule", f.rule},
                               {"message", f.message},
                               {"hint", f.hint}});
    }
    j["errors"] = errors;
    j["warnings"] = findings.size() - errors;
    o << j.dump(2) << "\n";
    return o.str();
  }
  for (const auto& f : findings) {
    if (format == "github") {
      o << "::" << severity_name(f.severity) << " file=" << github_escape_property(f.file)
        << ",line=" << f.pos.line << ",col=" << f.pos.col
        << ",title=" << github_escape_property(f.rule)
        << "::" << github_escape_data(f.message + (f.hint.empty() ? "" : " (fix: " + f.hint + ")"))
        << "\n";
    } else if (format == "text-color") {
      const char* sev = f.severity == Severity::kError ? "\033[1;31m" : "\033[1;33m";
      o << "\033[1m" << f.file << ":" << f.pos.line << ":" << f.pos.col << ":\033[0m " << sev
        << severity_name(f.severity) << ":\033[0m \033[2m" << f.rule << ":\033[0m " << f.message
        << "\n";
      if (!f.hint.empty()) o << "  \033[32mfix:\033[0m " << f.hint << "\n";
    } else {
      o << f.file << ":" << f.pos.line << ":" << f.pos.col << ": " << severity_name(f.severity)
        << ": " << f.rule << ": " << f.message << "\n";
      if (!f.hint.empty()) o << "  fix: " << f.hint << "\n";
    }
  }
  return o.str();
}

}  // namespace pinta::hostlint
