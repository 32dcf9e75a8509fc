// gemini-hookrunner-diff — differential fuzzing of the Gemini CLI 0.61.0 hook runner.
//
// Generates hook behaviours (what a command hook prints on stdout/stderr — bytes drawn from a
// grammar of JSON fragments, escapes, edge numbers, Unicode whitespace and separators, invalid
// UTF-8, BOMs — plus exit codes, signals, delays, background children holding the pipes, closed or
// read stdin, /dev/std* opens, timeouts), runs each one through the REAL HookRunner of
// @google/gemini-cli-core 0.61.0 (emulator/hosts/gemini/real/hook_driver.mjs, one Node process per
// batch) and through the emulator's run_hook() (the function behind `hostemu gemini run-hook`), and
// compares the host's reading {success, exitCode, outputFormat, output, error} as JSON.stringify
// text. Each difference is confirmed by a second run and minimized (steps dropped, bytes cut) into
// a reproducer in the format of emulator/hosts/gemini/test/cases/hookrunner_fuzz_regressions.json.
//
// usage: gemini-hookrunner-diff [--seed N] [--runs N] [--jobs N] [--out DIR] [--npm-prefix P]
//        gemini-hookrunner-diff --replay CASES.json [--jobs N] [--npm-prefix P]
// exit: 0 no difference, 1 differences, 2 usage/setup error, 77 real host unavailable (SKIPPED).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "pinta/common/process.h"
#include "pinta/common/version.h"
#include "pinta/emulator/gemini/gemini.h"

namespace g = pinta::emu::gemini;
using g::ojson;
namespace fs = std::filesystem;

namespace {

// ------------------------------------------------------------------------------------------------
// Deterministic generator (mt19937_64 is fully specified; no std distributions, whose output is
// implementation-defined).
struct Rng {
  std::mt19937_64 e;
  explicit Rng(uint64_t seed) : e(seed) {}
  uint64_t next() { return e(); }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }
  bool chance(unsigned pct) { return below(100) < pct; }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }
};

const std::vector<std::string> kJsonWs = {" ", "\n", "\t", "\r", "\r\n", "  "};
// Whitespace JS trim() removes but JSON.parse rejects, and look-alikes neither treats as space.
const std::vector<std::string> kOtherWs = {
    "\xEF\xBB\xBF", "\xC2\xA0",     "\xE2\x80\xA8", "\xE2\x80\xA9", "\v",
    "\f",           "\xE3\x80\x80", "\xE1\xA0\x8E", "\xE2\x80\x8B", "\xE1\x9A\x80",
    "\xE2\x80\xAF", "\xE2\x81\x9F", "\xC2\x85",     "\x1C",         "\x00"};
const std::vector<std::string> kNumbers = {
    "0", "-0", "0.0", "-0.0", "1.0", "1e400", "-1e400", "1e-400", "-1e-400", "9007199254740993",
    "9007199254740992", "-9007199254740993", "12345678901234567890", "18446744073709551616",
    "123456789012345678901234567890", "1.7976931348623157e308", "1.7976931348623159e308", "5e-324",
    "2e-324", "0.1", "1e21", "1e20", "123e-7", "1e-7", "1E+2", "1e+0", "-1.5e-10", "4.35",
    "0.000001", "100", "2", "3", "1.0000000000000002", "99999999999999999999e-5",
    // not JSON
    "01", "1.", ".5", "+1", "0x10", "NaN", "Infinity", "-Infinity", "1e", "--1", "1_0", "0b1"};
const std::vector<std::string> kEscapes = {
    "\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\u0000", "\\u001f", "\\u00e9",
    "\\u00E9", "\\ud800", "\\udc00", "\\udfff", "\\ud83d\\ude00", "\\ud83d", "\\uDBFF\\uDFFF",
    "\\ude00\\ud83d", "\\uFEFF", "\\u2028", "\\u2029", "\\u007f", "\\u0080", "\\uffff", "\\ufffe",
    "\\ud800\\u0041", "\\ud800\\\\",
    // not JSON
    "\\x41", "\\U0041", "\\u12", "\\u12G4", "\\a", "\\'", "\\0", "\\ "};
const std::vector<std::string> kRaw = {
    "\xC3\xA9", "\xF0\x9F\x98\x80", "\xE2\x80\xA8", "\xEF\xBB\xBF", "\xC2\xA0", "\x7F", "<b>",
    "&lt;", "'", "%s", "%%", "$HOME", "`x`",
    // invalid UTF-8 (decoded to U+FFFD by the host), raw controls (JSON.parse rejects)
    "\xFF", "\xC3", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xC0\xAF", "\xE0\x80\x80", "\x80",
    "\xF0\x9F\x98", "\x01", "\t", "\n", "\x1F"};
const std::vector<std::string> kWords = {"deny", "allow", "r",       "stop-r", "hello",
                                         "x",    "",      "Warning", "a b",    "ctx"};
const std::vector<std::string> kKeys = {"decision",
                                        "reason",
                                        "systemMessage",
                                        "continue",
                                        "stopReason",
                                        "suppressOutput",
                                        "hookSpecificOutput",
                                        "additionalContext",
                                        "tool_input",
                                        "__proto__",
                                        "constructor",
                                        "toString",
                                        "0",
                                        "1",
                                        "10",
                                        "4294967294",
                                        "4294967295",
                                        "-1",
                                        "01",
                                        "a",
                                        "",
                                        "decision"};
const std::vector<std::string> kDecisions = {"deny",    "allow", "block", "ask",
                                             "approve", "DENY",  ""};

struct Gen {
  Rng& r;
  std::string ws() {
    if (r.chance(4)) return r.pick(kOtherWs);
    if (r.chance(60)) return "";
    return r.pick(kJsonWs);
  }
  std::string number() {
    if (r.chance(70)) return r.pick(kNumbers);
    std::string s = r.chance(30) ? "-" : "";
    size_t n = 1 + r.below(25);
    s += static_cast<char>('1' + r.below(9));
    for (size_t i = 1; i < n; ++i) s += static_cast<char>('0' + r.below(10));
    if (r.chance(40)) {
      s += ".";
      for (size_t i = 0, m = 1 + r.below(20); i < m; ++i) s += static_cast<char>('0' + r.below(10));
    }
    if (r.chance(40)) {
      s += r.chance(50) ? "e" : "E";
      if (r.chance(50)) s += r.chance(50) ? "-" : "+";
      s += std::to_string(r.below(r.chance(20) ? 400 : 30));
    }
    return s;
  }
  std::string string_body() {
    std::string s;
    for (size_t i = 0, n = r.below(5); i < n; ++i) {
      switch (r.below(4)) {
        case 0:
          s += r.pick(kEscapes);
          break;
        case 1:
          s += r.pick(kRaw);
          break;
        default:
          s += r.pick(kWords);
          break;
      }
    }
    return s;
  }
  std::string string() { return "\"" + string_body() + "\""; }
  std::string key() {
    if (r.chance(70)) return "\"" + r.pick(kKeys) + "\"";
    return string();
  }
  std::string value(int depth) {
    size_t k = depth > 3 ? 2 + r.below(4) : r.below(6);
    switch (k) {
      case 0:
        return object(depth + 1);
      case 1:
        return array(depth + 1);
      case 2:
        return string();
      case 3:
        return number();
      case 4:
        return r.pick(
            std::vector<std::string>{"true", "false", "null", "True", "nul", "undefined"});
      default:
        return r.chance(50) ? "\"" + r.pick(kDecisions) + "\"" : number();
    }
  }
  std::string object(int depth) {
    std::string s = "{" + ws();
    for (size_t i = 0, n = r.below(5); i < n; ++i) {
      if (i) s += "," + ws();
      s += key() + ws() + ":" + ws() + value(depth) + ws();
    }
    if (r.chance(3)) s += ",";  // trailing comma: not JSON
    return s + "}";
  }
  std::string array(int depth) {
    std::string s = "[" + ws();
    for (size_t i = 0, n = r.below(4); i < n; ++i) {
      if (i) s += "," + ws();
      s += value(depth) + ws();
    }
    return s + "]";
  }
  // An object shaped like a hook reply.
  std::string hook_object() {
    std::string s = "{" + ws();
    std::vector<std::string> parts;
    if (r.chance(80)) parts.push_back("\"decision\":" + ws() + "\"" + r.pick(kDecisions) + "\"");
    if (r.chance(50)) parts.push_back("\"reason\":" + ws() + string());
    if (r.chance(30)) parts.push_back("\"systemMessage\":" + ws() + string());
    if (r.chance(20)) parts.push_back("\"continue\":" + ws() + (r.chance(50) ? "false" : value(2)));
    if (r.chance(15)) parts.push_back("\"timeout\":" + number());
    if (r.chance(15)) parts.push_back(key() + ":" + value(1));
    if (r.chance(15))
      parts.push_back("\"hookSpecificOutput\":{\"additionalContext\":" + string() +
                      ",\"tool_input\":" + object(2) + "}");
    if (r.chance(10) && !parts.empty()) parts.push_back(parts[r.below(parts.size())]);  // dup key
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? "," + ws() : "") + parts[i];
    return s + ws() + "}";
  }
  static std::string json_quote(const std::string& inner) {
    // JSON.stringify of a string (the text is valid UTF-8 only in spirit: bytes pass through).
    std::string s = "\"";
    for (unsigned char c : inner) {
      if (c == '"' || c == '\\') {
        s += '\\';
        s += static_cast<char>(c);
      } else if (c == '\n') {
        s += "\\n";
      } else if (c < 0x20) {
        char b[8];
        std::snprintf(b, sizeof b, "\\u%04x", c);
        s += b;
      } else {
        s += static_cast<char>(c);
      }
    }
    return s + "\"";
  }
  std::string deep() {
    size_t n = 1 + r.below(r.chance(20) ? 1500 : 60);
    std::string s;
    bool obj = r.chance(50);
    for (size_t i = 0; i < n; ++i) s += obj ? "{\"a\":" : "[";
    s += r.chance(50) ? number() : string();
    for (size_t i = 0; i < n; ++i) s += obj ? "}" : "]";
    if (r.chance(10)) s.pop_back();  // unbalanced
    return s;
  }
  std::string doc() {
    std::string d;
    switch (r.below(12)) {
      case 0:
      case 1:
      case 2:
      case 3:
        d = hook_object();
        break;
      case 4:
        d = value(0);
        break;
      case 5:
        d = json_quote(r.chance(70) ? hook_object() : value(1));
        break;  // double-encoded
      case 6:
        d = deep();
        break;
      case 7:
        d = string_body() + (r.chance(50) ? "\n" + string_body() : "");
        break;  // text
      case 8:
        d = hook_object() + ws() + "\n" + hook_object();
        break;  // two documents
      case 9:
        d = hook_object() + r.pick(std::vector<std::string>{"x", "}", "\xFF", "\x00", ";"});
        break;
      case 10:
        d = r.chance(50) ? "" : ws() + ws();
        break;
      default:
        d = number();
        break;
    }
    std::string lead, trail;
    for (size_t i = 0, n = r.below(3); i < n; ++i)
      lead += r.chance(50) ? r.pick(kOtherWs) : r.pick(kJsonWs);
    for (size_t i = 0, n = r.below(3); i < n; ++i)
      trail += r.chance(50) ? r.pick(kOtherWs) : r.pick(kJsonWs);
    d = lead + d + trail;
    if (r.chance(8) && !d.empty()) {  // byte-level mutation
      size_t at = r.below(d.size());
      switch (r.below(3)) {
        case 0:
          d.erase(at, 1);
          break;
        case 1:
          d.insert(at, 1, static_cast<char>(r.below(256)));
          break;
        default:
          d[at] = static_cast<char>(r.below(256));
          break;
      }
    }
    return d;
  }
};

// ------------------------------------------------------------------------------------------------
// Behaviours

struct Step {
  enum Kind { kWrite, kSleep, kBg, kCloseStdin, kReadStdin } kind = kWrite;
  int fd = 1;             // write: 1 or 2; bg: which pipes the child holds (0 none, 1, 2, 3 both)
  bool dev_path = false;  // write through /dev/stdout, /dev/stderr (ENXIO under Node's sockets)
  std::string bytes;      // write / bg: printed (bg: after its sleep)
  int ms = 0;             // sleep / bg delay
  int read_n = -1;        // read stdin: -1 all (cat), >0 head -c N; -2 cat /dev/stdin
};

struct Behaviour {
  std::vector<Step> steps;
  int end_kind = 0;  // 0 none (last command's status), 1 exit, 2 kill self
  int end_code = 0;
  std::string end_signal;
  std::optional<int> timeout;  // hook.timeout (ms); nullopt = the host default 60000
};

std::string printf_arg(const std::string& bytes) {
  std::string s = "'";
  for (unsigned char c : bytes) {
    bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                 c == ' ' || c == '_' || c == '.' || c == ',' || c == ':' || c == '{' || c == '}' ||
                 c == '[' || c == ']' || c == '"' || c == '-' || c == '+';
    if (plain) {
      s += static_cast<char>(c);
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\%03o", c);
      s += b;
    }
  }
  return s + "'";
}

std::string seconds(int ms) {
  char b[32];
  std::snprintf(b, sizeof b, "%d.%03d", ms / 1000, ms % 1000);
  return b;
}

std::string render(const Behaviour& b) {
  std::vector<std::string> parts;
  for (const auto& s : b.steps) {
    switch (s.kind) {
      case Step::kWrite:
        parts.push_back("printf " + printf_arg(s.bytes) +
                        (s.dev_path ? (s.fd == 2 ? " > /dev/stderr" : " > /dev/stdout")
                                    : (s.fd == 2 ? " >&2" : "")));
        break;
      case Step::kSleep:
        parts.push_back("sleep " + seconds(s.ms));
        break;
      case Step::kBg: {
        std::string redir = s.fd == 0   ? " >/dev/null 2>&1"
                            : s.fd == 1 ? " 2>/dev/null"
                            : s.fd == 2 ? " >/dev/null"
                                        : "";
        if (s.bytes.empty())
          parts.push_back("sleep " + seconds(s.ms) + redir + " &");
        else
          parts.push_back("(sleep " + seconds(s.ms) + "; printf " + printf_arg(s.bytes) + ")" +
                          redir + " &");
        break;
      }
      case Step::kCloseStdin:
        parts.push_back("exec 0<&-");
        break;
      case Step::kReadStdin:
        parts.push_back(s.read_n == -1   ? "cat >/dev/null"
                        : s.read_n == -2 ? "cat /dev/stdin >/dev/null"
                                         : "head -c " + std::to_string(s.read_n) + " >/dev/null");
        break;
    }
  }
  if (b.end_kind == 1) parts.push_back("exit " + std::to_string(b.end_code));
  if (b.end_kind == 2) parts.push_back("kill -" + b.end_signal + " $$");
  std::string cmd;
  for (size_t i = 0; i < parts.size(); ++i) {
    // "a &; b" is a syntax error: a background job is already terminated by its '&'.
    if (i) cmd += parts[i - 1].back() == '&' ? " " : "; ";
    cmd += parts[i];
  }
  if (cmd.empty()) cmd = "true";
  return cmd;
}

Behaviour generate(Rng& r) {
  Gen gen{r};
  Behaviour b;
  // Timing classes: most hooks are instant under the default timeout; some run against a 1000 ms
  // timeout with delays kept >= 400 ms away from it (so both hosts agree on which side they fall).
  bool timed = r.chance(12);
  // (Zero or negative timeouts are left to the fixed cases of test/cases/hook_cases.json: Node's
  // 1 ms timer races a fast hook's 'close' when its event loop is busy, so the real host itself
  // answers either way — seen in the first 10 000 campaign.)
  if (timed) b.timeout = 1000;
  bool printing_bg = false;
  size_t n = 1 + r.below(3);
  for (size_t i = 0; i < n; ++i) {
    Step s;
    unsigned k = static_cast<unsigned>(r.below(100));
    if (k < 62) {
      s.kind = Step::kWrite;
      s.fd = r.chance(72) ? 1 : 2;
      s.dev_path = r.chance(6);
      std::string d = gen.doc();
      if (r.chance(8) && d.size() > 1) {  // the same document split over two writes with a pause
        size_t cut = 1 + r.below(d.size() - 1);
        Step a = s;
        a.bytes = d.substr(0, cut);
        b.steps.push_back(a);
        // >= 250 ms: with shorter pauses a busy Node loop was seen reading both writes at once.
        b.steps.push_back(
            Step{Step::kSleep, 1, false, "", 250 + static_cast<int>(r.below(100)), -1});
        s.bytes = d.substr(cut);
      } else {
        s.bytes = d;
      }
    } else if (k < 72) {
      s.kind = Step::kSleep;
      s.ms = 5 + static_cast<int>(r.below(60));
    } else if (k < 84) {
      s.kind = Step::kBg;
      s.fd = static_cast<int>(r.below(4));
      s.ms = timed && r.chance(60) ? 1400 + static_cast<int>(r.below(300))
                                   : 100 + static_cast<int>(r.below(200));
      // At most one background child prints, well after the foreground's writes (their order in
      // one stream must not depend on scheduling).
      if (!printing_bg && r.chance(40)) {
        printing_bg = true;
        s.bytes = gen.doc();
        if (s.ms < 1000) s.ms = 450 + static_cast<int>(r.below(150));
      }
    } else if (k < 90) {
      s.kind = Step::kCloseStdin;
    } else {
      s.kind = Step::kReadStdin;
      s.read_n = r.chance(20) ? -2 : r.chance(50) ? -1 : 1 + static_cast<int>(r.below(40));
    }
    b.steps.push_back(s);
  }
  if (timed && r.chance(35))
    b.steps.push_back(Step{Step::kSleep, 1, false, "", 1400 + static_cast<int>(r.below(300)), -1});
  unsigned e = static_cast<unsigned>(r.below(100));
  if (e < 45) {
    b.end_kind = 0;
  } else if (e < 88) {
    b.end_kind = 1;
    static const std::vector<int> codes = {0, 0, 0, 1, 1, 2, 2, 3, 126, 127, 130, 139, 255, 64};
    b.end_code = r.pick(codes);
  } else {
    b.end_kind = 2;
    static const std::vector<std::string> sigs = {"TERM", "KILL", "HUP", "USR1",
                                                  "SEGV", "PIPE", "ALRM"};
    b.end_signal = r.pick(sigs);
  }
  return b;
}

// ------------------------------------------------------------------------------------------------
// Running both sides

struct Case {
  std::string id;
  std::string behaviour;  // description
  std::string command;
  std::optional<int> timeout;
  std::string event = "BeforeTool";
};

struct Env {
  std::string src, prefix, work, ws, plans;
  std::map<std::string, std::string> env;
  ojson input;
  int jobs = 2;
};

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const char* kFields[] = {"success", "exitCode", "outputFormat", "output", "error"};

// Runs `cases` through the real HookRunner (one Node process); returns id → result object.
std::optional<std::vector<ojson>> run_real(const Env& e, const std::vector<Case>& cases,
                                           std::string& err) {
  std::string jsonl;
  for (const auto& c : cases) {
    ojson l = ojson::object();
    l["id"] = c.id;
    l["event"] = c.event;
    l["command"] = c.command;
    if (c.timeout) l["timeout"] = *c.timeout;
    l["plans_dir"] = e.plans;
    l["input"] = e.input;
    jsonl += g::js_stringify(l) + "\n";
  }
  std::string in = e.work + "/cases.jsonl", out = e.work + "/real.jsonl";
  {
    std::ofstream f(in, std::ios::binary);
    f << jsonl;
  }
  auto sp = pinta::proc::make_spawner();
  pinta::proc::SpawnRequest rq;
  rq.argv = {"node",   e.src + "/emulator/hosts/gemini/real/hook_driver.mjs",
             e.prefix, in,
             out,      std::to_string(std::max(4, e.jobs * 6))};
  rq.env = e.env;
  rq.cwd = e.work;
  rq.timeout = std::chrono::milliseconds(3600000);
  rq.hard_limit = std::chrono::milliseconds(3600000);
  auto r = sp->run(rq);
  if (r.exit_code.value_or(-1) != 0) {
    err = "hook_driver.mjs failed (exit " + std::to_string(r.exit_code.value_or(-1)) +
          "): " + r.err.substr(0, 2000);
    return std::nullopt;
  }
  std::map<std::string, ojson> by_id;
  std::istringstream lines(slurp(out));
  for (std::string l; std::getline(lines, l);) {
    if (l.empty()) continue;
    auto j = g::js_parse(l);  // JS semantics: outputs may hold lone surrogates
    if (!j) {
      err = "unreadable driver result line: " + l.substr(0, 200);
      return std::nullopt;
    }
    by_id[(*j)["id"].get<std::string>()] = *j;
  }
  std::vector<ojson> res;
  for (const auto& c : cases) {
    if (!by_id.count(c.id)) {
      err = "no real result for " + c.id;
      return std::nullopt;
    }
    res.push_back(by_id[c.id]);
  }
  return res;
}

std::vector<ojson> run_emulator(const Env& e, const std::vector<Case>& cases) {
  std::vector<ojson> res(cases.size());
  std::atomic<size_t> next{0};
  std::mutex warm;
  auto worker = [&] {
    auto sp = pinta::proc::make_spawner();
    {
      // First uses of fresh spawners run one at a time (see real_hook_diff_test.cc).
      std::lock_guard<std::mutex> lk(warm);
      pinta::proc::SpawnRequest w;
      w.argv = {"true"};
      (void)sp->run(w);
    }
    for (size_t i; (i = next++) < cases.size();) {
      const auto& c = cases[i];
      g::HookSpec h;
      h.command = c.command;
      if (c.timeout) h.timeout_ms = *c.timeout;
      g::RunContext ctx;
      ctx.plans_dir = e.plans;
      std::vector<std::pair<std::string, std::string>> env(e.env.begin(), e.env.end());
      ctx.env = env;
      ctx.spawner = sp.get();
      res[i] = g::run_result_json(g::run_hook(h, c.event, e.input, ctx));
    }
  };
  std::vector<std::thread> th;
  // Most hooks wait (pauses, background children, timeouts), so like the Node side this runs
  // 6 hooks per job at a time; the CPU work stays at about `jobs` cores.
  for (int k = 0; k < std::max(4, e.jobs * 6); ++k) th.emplace_back(worker);
  for (auto& t : th) t.join();
  return res;
}

std::vector<std::string> differences(const ojson& real, const ojson& emu) {
  std::vector<std::string> d;
  for (const char* f : kFields) {
    std::string a = g::js_stringify(real.contains(f) ? real[f] : ojson(nullptr));
    std::string b = g::js_stringify(emu.contains(f) ? emu[f] : ojson(nullptr));
    if (a != b)
      d.push_back(std::string(f) + ": real " + a.substr(0, 300) + " emulator " + b.substr(0, 300));
  }
  return d;
}

struct Outcome {
  std::vector<ojson> real, emu;
  std::vector<std::vector<std::string>> diffs;
};

std::optional<Outcome> run_both(const Env& e, const std::vector<Case>& cases, std::string& err) {
  Outcome o;
  // The two sides run one after the other, so neither's timing is skewed by the other's load.
  auto real = run_real(e, cases, err);
  if (!real) return std::nullopt;
  o.real = std::move(*real);
  o.emu = run_emulator(e, cases);
  for (size_t i = 0; i < cases.size(); ++i) o.diffs.push_back(differences(o.real[i], o.emu[i]));
  return o;
}

// ------------------------------------------------------------------------------------------------
// Minimization: greedy, each round one batch of candidate reductions through both sides.

std::vector<Behaviour> reductions(const Behaviour& b) {
  std::vector<Behaviour> out;
  for (size_t i = 0; i < b.steps.size(); ++i) {
    Behaviour c = b;
    c.steps.erase(c.steps.begin() + static_cast<long>(i));
    out.push_back(c);
  }
  if (b.end_kind != 0) {
    Behaviour c = b;
    c.end_kind = 0;
    out.push_back(c);
    if (b.end_kind == 1 && b.end_code > 2) {
      c = b;
      c.end_code = 2;
      out.push_back(c);
    }
  }
  if (b.timeout && *b.timeout != 1000) {
    Behaviour c = b;
    c.timeout = 1000;
    out.push_back(c);
  }
  for (size_t i = 0; i < b.steps.size(); ++i) {
    const std::string& s = b.steps[i].bytes;
    if (s.empty()) continue;
    for (size_t chunk = std::max<size_t>(1, s.size() / 2);; chunk /= 2) {
      for (size_t at = 0; at < s.size() && out.size() < 160; at += chunk) {
        Behaviour c = b;
        c.steps[i].bytes.erase(at, chunk);
        out.push_back(c);
      }
      if (chunk == 1 || out.size() >= 160) break;
    }
  }
  return out;
}

std::string describe(const ojson& real, const std::vector<std::string>& diffs) {
  std::string s;
  for (const auto& d : diffs) s += (s.empty() ? "" : "; ") + d;
  (void)real;
  return s;
}

Case to_case(const std::string& id, const Behaviour& b) {
  Case c;
  c.id = id;
  c.command = render(b);
  c.timeout = b.timeout;
  return c;
}

ojson case_json(const Case& c, const std::string& behaviour) {
  ojson j = ojson::object();
  j["id"] = c.id;
  j["behaviour"] = behaviour;
  j["command"] = c.command;
  if (c.timeout) j["timeout"] = *c.timeout;
  return j;
}

int usage(const std::string& msg) {
  std::cerr << "gemini-hookrunner-diff: " << msg << "\n";
  return 2;
}

// The command line.
struct Options {
  uint64_t seed =
      static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) %
      1000000007ull;
  long runs = 1000;
  int jobs = 2;
  std::string out_dir, prefix, replay;
  int min_rounds = 12;
};

// "" or what is wrong with the options.
std::string parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&]() -> std::optional<std::string> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string(argv[++i]);
    };
    std::optional<std::string> v;
    try {
      if (a == "--seed" && (v = val()))
        o.seed = std::stoull(*v);
      else if (a == "--runs" && (v = val()))
        o.runs = std::stol(*v);
      else if (a == "--jobs" && (v = val()))
        o.jobs = std::stoi(*v);
      else if (a == "--out" && (v = val()))
        o.out_dir = *v;
      else if (a == "--npm-prefix" && (v = val()))
        o.prefix = *v;
      else if (a == "--replay" && (v = val()))
        o.replay = *v;
      else if (a == "--minimize-rounds" && (v = val()))
        o.min_rounds = std::stoi(*v);
      else
        return "unknown or incomplete option: " + a;
    } catch (const std::exception&) {
      return "bad number for " + a;
    }
  }
  if (o.runs < 0 || o.jobs < 1 || o.jobs > 64) return "--runs must be >= 0 and --jobs in 1..64";
  return "";
}

// The real Gemini CLI through ci/npm-hosts.sh: e.prefix is its npm prefix. 0, or the exit status
// (77: unavailable, skipped; 2: the script failed).
int install_real_cli(Env& e) {
  auto sp = pinta::proc::make_spawner();
  pinta::proc::SpawnRequest rq;
  rq.argv = {"bash", e.src + "/ci/npm-hosts.sh"};
  rq.timeout = std::chrono::milliseconds(600000);
  rq.hard_limit = std::chrono::milliseconds(610000);
  auto r = sp->run(rq);
  int rc = r.exit_code.value_or(-1);
  if (rc == 3 || rc == 4) {
    std::cout << "SKIPPED: real Gemini CLI unavailable (ci/npm-hosts.sh exit " << rc
              << "): " << r.err;
    return 77;
  }
  if (rc != 0) return usage("ci/npm-hosts.sh failed (exit " + std::to_string(rc) + "): " + r.err);
  e.prefix = r.out;
  while (!e.prefix.empty() && (e.prefix.back() == '\n' || e.prefix.back() == '\r'))
    e.prefix.pop_back();
  return 0;
}

// --replay: the cases of a file through both sides; every difference printed.
template <typename Secs>
int replay_cases(const Env& e, const std::string& replay, const Secs& secs) {
  auto text = slurp(replay);
  auto j = g::js_parse(text);
  if (!j || !j->is_array()) return usage("cannot read " + replay + " (a JSON array of cases)");
  std::vector<Case> cases;
  for (const auto& c : *j) {
    Case k;
    k.id = c.value("id", "");
    k.behaviour = c.value("behaviour", "");
    k.command = c.value("command", "");
    if (c.contains("timeout")) k.timeout = c["timeout"].get<int>();
    cases.push_back(k);
  }
  std::string err;
  auto o = run_both(e, cases, err);
  if (!o) return usage(err);
  int bad = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (o->diffs[i].empty()) continue;
    ++bad;
    std::cout << "DIFF [" << cases[i].id << "] " << cases[i].behaviour
              << "\n  command: " << cases[i].command << "\n  "
              << describe(o->real[i], o->diffs[i]) << "\n";
  }
  std::printf("replay %s: %zu cases, %d differences, %.1f s\n", replay.c_str(), cases.size(), bad,
              secs());
  return bad ? 1 : 0;
}

// A fresh work dir for both sides (removed by main): the workspace, the home, the environment
// and the BeforeTool payload every hook gets. false when no temp dir can be made.
bool make_workspace(Env& e) {
  char tmpl[] = "/tmp/gemini-hookrunner-diff-XXXXXX";
  if (!::mkdtemp(tmpl)) return false;
  e.work = tmpl;
  e.ws = e.work + "/ws";
  e.plans = e.ws + "/.gemini/plans";
  fs::create_directories(e.ws);
  fs::create_directories(e.work + "/home");
  e.env = {
      {"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", e.work + "/home"}, {"LANG", "C.UTF-8"}};
  g::PayloadOptions po;
  po.session_id = "1d28880c-2f0e-4b55-9a57-4b7e2b5a0c11";
  po.cwd = e.ws;
  po.timestamp = "2026-12-02T10:10:11.342Z";
  po.transcript_path = e.work + "/home/.gemini/tmp/ws/chats/session.jsonl";
  po.tool_input = ojson::object({{"file_path", "test.txt"}, {"content", "x"}});
  e.input = g::make_payload("BeforeTool", po);
  return true;
}

// Every case through both sides in batches (they keep the Node process's memory and the temp
// files small): the indices that differ, with their first difference. false (err set) when a
// batch cannot run.
template <typename Secs>
bool run_batches(const Env& e, const std::vector<Case>& cases, std::vector<size_t>& differing,
                 std::map<size_t, std::string>& first_diff, const Secs& secs, std::string& err) {
  const size_t kBatch = 2000;
  for (size_t b0 = 0; b0 < cases.size(); b0 += kBatch) {
    std::vector<Case> batch(cases.begin() + static_cast<long>(b0),
                            cases.begin() + static_cast<long>(std::min(cases.size(), b0 + kBatch)));
    auto o = run_both(e, batch, err);
    if (!o) return false;
    for (size_t i = 0; i < batch.size(); ++i)
      if (!o->diffs[i].empty()) {
        differing.push_back(b0 + i);
        first_diff[b0 + i] = describe(o->real[i], o->diffs[i]) + " (real stderr: " +
                             g::js_stringify(o->real[i].value("stderr", ojson())).substr(0, 300) +
                             ")";
      }
    std::printf("  %zu/%zu behaviours, %zu differ so far, %.1f s\n",
                std::min(cases.size(), b0 + kBatch), cases.size(), differing.size(), secs());
    std::fflush(stdout);
  }
  return true;
}

// Greedy minimization of a differing behaviour: up to `rounds` rounds, each keeping the shortest
// reduction that still differs. false (err set) when a run fails.
bool minimize(const Env& e, int rounds, Behaviour& best, std::vector<std::string>& best_diff,
              std::string& err) {
  for (int round = 0; round < rounds; ++round) {
    auto cands = reductions(best);
    if (cands.empty()) break;
    std::vector<Case> cc;
    for (size_t c = 0; c < cands.size(); ++c)
      cc.push_back(to_case("m" + std::to_string(c), cands[c]));
    auto mo = run_both(e, cc, err);
    if (!mo) return false;
    long pick = -1;
    for (size_t c = 0; c < cands.size(); ++c)
      if (!mo->diffs[c].empty() &&
          (pick < 0 || cc[c].command.size() < cc[static_cast<size_t>(pick)].command.size()))
        pick = static_cast<long>(c);
    if (pick < 0) break;
    best = cands[static_cast<size_t>(pick)];
    best_diff = mo->diffs[static_cast<size_t>(pick)];
  }
  return true;
}

// Confirms the differing behaviours (a second run of each), then minimizes the stable ones: the
// findings, flaky ones marked. false (err set) when a run fails.
bool confirm(const Env& e, const std::vector<Case>& cases, const std::vector<Behaviour>& behaviours,
             const std::vector<size_t>& differing, std::map<size_t, std::string>& first_diff,
             uint64_t seed, int min_rounds, ojson& findings, int& stable, int& flaky,
             std::string& err) {
  std::vector<Case> again;
  for (size_t i : differing) again.push_back(cases[i]);
  auto o = run_both(e, again, err);
  if (!o) return false;
  for (size_t k = 0; k < differing.size(); ++k) {
    size_t i = differing[k];
    if (o->diffs[k].empty()) {
      ++flaky;
      std::cout << "FLAKY [" << cases[i].id
                << "] differed once, agreed on the re-run\n  command: " << cases[i].command
                << "\n  first run: " << first_diff[i] << "\n";
      ojson f = case_json(cases[i], "flaky, first run: " + first_diff[i]);
      f["flaky"] = true;
      findings.push_back(f);
      continue;
    }
    ++stable;
    Behaviour best = behaviours[i];
    std::vector<std::string> best_diff = o->diffs[k];
    if (!minimize(e, min_rounds, best, best_diff, err)) return false;
    Case m = to_case(cases[i].id, best);
    std::string d = describe(ojson(), best_diff);
    std::cout << "DIFF [" << cases[i].id << "]\n  original: " << cases[i].command
              << "\n  minimized: " << m.command << "\n  " << d << "\n";
    findings.push_back(case_json(m, "fuzz finding (seed " + std::to_string(seed) + "): " + d));
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (int rc = pinta::answer_version_or_help(
          argc, argv, "gemini-hookrunner-diff",
          "usage: gemini-hookrunner-diff [--seed N] [--runs N] [--jobs N] [--out DIR] "
          "[--npm-prefix P]\n"
          "       gemini-hookrunner-diff --replay CASES.json [--jobs N] [--npm-prefix P]\n"
          "Runs generated hooks through the real Gemini CLI 0.61.0 HookRunner (npm) and the\n"
          "emulator's run_hook() and compares the host's reading; each difference is confirmed,\n"
          "minimized and written as a reproducer under --out.\n"
          "Exit status: 0 no difference, 1 differences, 2 usage or setup error, 77 the real host\n"
          "is unavailable (skipped).\n");
      rc >= 0)
    return rc;
  Options opt;
  if (std::string bad = parse_options(argc, argv, opt); !bad.empty()) return usage(bad);
  const uint64_t seed = opt.seed;
  const long runs = opt.runs;
  const int jobs = opt.jobs;
  const std::string& out_dir = opt.out_dir;
  const std::string& replay = opt.replay;
  const int min_rounds = opt.min_rounds;

  Env e;
  e.jobs = jobs;
  const char* sd = std::getenv("PINTA_SOURCE_DIR");  // NOLINT(concurrency-mt-unsafe)
  e.src = sd ? sd : fs::current_path().string();
  if (!fs::exists(e.src + "/emulator/hosts/gemini/real/hook_driver.mjs"))
    return usage("cannot find emulator/hosts/gemini/real/hook_driver.mjs (set PINTA_SOURCE_DIR)");
  e.prefix = opt.prefix;
  if (e.prefix.empty())
    if (int rc = install_real_cli(e); rc != 0) return rc;
  if (!make_workspace(e)) return usage("cannot create a temp dir");
  struct Cleanup {
    std::string p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{e.work};

  auto t0 = std::chrono::steady_clock::now();
  auto secs = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  std::string err;

  if (!replay.empty()) return replay_cases(e, replay, secs);

  std::printf("gemini-hookrunner-diff: seed %llu, runs %ld, jobs %d\n",
              static_cast<unsigned long long>(seed), runs, jobs);
  std::fflush(stdout);
  Rng rng(seed);
  std::vector<Behaviour> behaviours;
  std::vector<Case> cases;
  for (long i = 0; i < runs; ++i) {
    behaviours.push_back(generate(rng));
    cases.push_back(
        to_case("s" + std::to_string(seed) + "-" + std::to_string(i), behaviours.back()));
  }
  std::vector<size_t> differing;
  std::map<size_t, std::string> first_diff;
  if (!run_batches(e, cases, differing, first_diff, secs, err)) return usage(err);
  std::printf("ran %zu behaviours in %.1f s: %zu differ\n", cases.size(), secs(), differing.size());

  // Confirm (a second run of every differing behaviour), then minimize the stable ones.
  ojson findings = ojson::array();
  int stable = 0, flaky = 0;
  if (!differing.empty() && !confirm(e, cases, behaviours, differing, first_diff, seed, min_rounds,
                                     findings, stable, flaky, err))
    return usage(err);
  if (!out_dir.empty()) {
    fs::create_directories(out_dir);
    // js_stringify: descriptions may quote outputs holding lone surrogates (not UTF-8).
    std::ofstream(out_dir + "/findings.json") << g::js_stringify(findings) << "\n";
    ojson summary = {{"seed", seed},          {"runs", runs},   {"jobs", jobs},
                     {"differences", stable}, {"flaky", flaky}, {"seconds", secs()}};
    std::ofstream(out_dir + "/summary.json") << summary.dump(1) << "\n";
  }
  std::printf("seed %llu: %ld behaviours, %d differences, %d flaky, %.1f s\n",
              static_cast<unsigned long long>(seed), runs, stable, flaky, secs());
  return stable || flaky ? 1 : 0;
}
