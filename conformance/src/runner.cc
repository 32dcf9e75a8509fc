// Running cases: per case × host a temp HOME/workspace/data dir, optional fake guard/collector,
// the steps spawned through the host runner, then the case's expectations.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <span>
#include <sstream>
#include <thread>

#include "matcher_context.h"
#include "schedule.h"
#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/conformance/conformance.h"
#include "pinta/conformance/features.h"
#include "pinta/conformance/matchers.h"
#include "pinta/emulator/host_runner.h"
#include "pinta/hosts/reply_check.h"
#ifdef PINTA_CONFORMANCE_HAVE_FAKES
#include "pinta/fakes/fake_server.h"
#endif

namespace pinta::conformance {
namespace stdfs = std::filesystem;

namespace detail {

json pick(const json& v, const std::string& host) {
  if (!is_per_host(v)) return v;
  if (v.contains(host)) return v[host];
  auto f = family_of(host);
  if (v.contains(f)) return v[f];
  if (v.contains("*")) return v["*"];  // the shared value, where a family gave its own
  return json();  // not applicable to this host
}

std::vector<std::string> host_events(const json& ev, const std::string& host) {
  if (!ev.is_string()) return {};
  const std::string& name = ev.get_ref<const std::string&>();
  const EventRole* role = find_event_role(name);
  if (!role) return {name};
  const auto f = pinta::hosts::host_family(host);
  if (!f) return {};
  return role->events(pinta::hosts::descriptor(*f));
}

std::string subst(std::string s, const std::map<std::string, std::string>& vars) {
  for (const auto& [k, v] : vars) {
    std::string key = "${" + k + "}";
    for (size_t p; (p = s.find(key)) != std::string::npos;) s.replace(p, key.size(), v);
  }
  return s;
}

// Length of the valid UTF-8 sequence (2-4 bytes, shortest form, no surrogates) at s[i], else 0.
// Code points that change how text reads without being seen (bidi controls, zero-width, C1
// controls, line/paragraph separators, BOM), and "…" (the cut marker), count as invalid here, so
// they are escaped too.
static size_t visible_utf8(const std::string& s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (n == 0 || c >= 0xf5 || i + n > s.size()) return 0;
  char32_t cp = n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3f);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  if ((cp >= 0x80 && cp < 0xa0) || (cp >= 0x200b && cp <= 0x200f) ||
      (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff ||
      cp == 0x2028 || cp == 0x2029)
    return 0;
  if (cp == 0x2026) return 0;  // "…" marks a cut (html_report.cc unescape_shown): never content
  return n;
}

// The bytes as text: valid UTF-8 as itself (Korean stays readable), \n, \\, and \xNN for
// control bytes, invalid or invisible sequences; at most about `max` characters; a cut is marked
// with the total size, also when escapes (not the byte count) reached the cap.
std::string show_bytes(const std::string& s, size_t max) {
  std::string o;
  size_t i = 0;
  for (; i < s.size() && o.size() < max; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (size_t n = c >= 0x80 ? visible_utf8(s, i) : 0; n > 0) {
      o.append(s, i, n);
      i += n - 1;
    } else if (c == '\n')
      o += "\\n";
    else if (c == '\\')
      o += "\\\\";
    else if (c < 0x20 || c >= 0x7f) {
      char b[8];
      snprintf(b, sizeof b, "\\x%02x", c);
      o += b;
    } else
      o += static_cast<char>(c);
  }
  if (i < s.size()) o += "…(" + std::to_string(s.size()) + " bytes)";
  return o;
}

std::vector<std::pair<std::string, std::string>> walk_files(const std::string& root,
                                                            const std::string& skip) {
  std::vector<std::pair<std::string, std::string>> out;
  std::error_code ec;
  for (auto it = stdfs::recursive_directory_iterator(root, ec);
       it != stdfs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    if (it->path().string() == skip) continue;
    auto t = pinta::fs::read_file(it->path().string(), 16u << 20);
    out.emplace_back(it->path().string(), t ? *t : std::string());
  }
  return out;
}

std::string fmt_us(std::chrono::microseconds us) {
  char b[32];
  snprintf(b, sizeof b, "%.1f ms", static_cast<double>(us.count()) / 1000.0);
  return b;
}

// What the host made of a reply, for the report: as is, or (a flooding adapter's text can be
// megabytes, once per run) its first bytes as a string.
json bounded(const json& detail, size_t max = 4096) {
  std::string d = detail.dump();
  if (d.size() <= max) return detail;
  return json(show_bytes(d, max));
}

json run_record(const HookCall& call, const HookOutcome& out) {
  return {{"event", call.event},
          {"command", call.command},
          {"stdin", show_bytes(out.stdin_sent, 2048)},
          {"stdout", show_bytes(out.raw.out, 2048)},
          {"stderr", show_bytes(out.raw.err, 2048)},
          {"stdin_bytes", out.stdin_sent.size()},
          {"stdout_bytes", out.raw.out.size()},
          {"stderr_bytes", out.raw.err.size()},
          // The suite keeps at most 1 MiB per stream (host_runner): longer than its _bytes.
          {"stdout_capped", out.raw.out_truncated},
          {"stderr_capped", out.raw.err_truncated},
          {"exit", out.raw.exit_code ? json(*out.raw.exit_code) : json()},
          {"signal", out.raw.term_signal ? json(*out.raw.term_signal) : json()},
          {"timed_out", out.raw.timed_out || out.raw.hard_limited},
          {"first_stdout_ms", out.raw.first_stdout_after.count() / 1000.0},
          {"exited_ms", out.raw.exited_after.count() / 1000.0},
          {"closed_ms", out.raw.closed_after.count() / 1000.0},
          {"effect", out.effect},
          {"host", bounded(out.detail)}};
}


// The case has a time budget (median_ms, or a reply/exit/closed_within_ms) in its expect or a
// step's: its runs are each followed by a no-op calibration run (calibrated_budget), and a
// failure of it is worth running again alone.
bool has_time_budget(const json& raw) {
  static const char* const kKeys[] = {"median_ms", "reply_within_ms", "exit_within_ms",
                                      "closed_within_ms"};
  auto has = [](const json& e) {
    if (!e.is_object()) return false;
    for (const char* k : kKeys)
      if (e.contains(k)) return true;
    return false;
  };
  if (has(raw.value("expect", json()))) return true;
  for (const auto& st : raw.value("steps", json::array()))
    if (st.is_object() && has(st.value("expect", json()))) return true;
  return false;
}

}  // namespace detail

std::string Recorded::header(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    std::string lk = k;
    std::transform(lk.begin(), lk.end(), lk.begin(), ::tolower);
    if (lk == name) return v;
  }
  return "";
}

namespace {
using detail::fmt_us;
using detail::pick;
using detail::show_bytes;
using detail::subst;
using detail::walk_files;

std::string from_hex(const std::string& h) {
  std::string o;
  for (size_t i = 0; i + 1 < h.size(); i += 2)
    o += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
  return o;
}


// Kills processes the adapter left running (a detached flusher, say) whose environment still points
// into a case's temp dir, so none can post into a later case's fake server on a reused port.
// Runs after every unit, so /proc/PID/environ is read with one open and a few reads into a reused
// buffer (istreambuf_iterator made this scan a visible part of a run's CPU time).
void kill_leftovers(const std::string& root) {
  if (root.empty()) return;
  const std::string needle = "=" + root;
  std::string env;
  std::error_code ec;
  for (const auto& e : stdfs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    pid_t pid = static_cast<pid_t>(std::stol(name));
    if (pid == ::getpid()) continue;
    int fd = ::open(("/proc/" + name + "/environ").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    env.clear();
    char buf[16384];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) env.append(buf, static_cast<size_t>(n));
    ::close(fd);
    if (env.find(needle) != std::string::npos) ::kill(pid, SIGKILL);
  }
}

// A URL nobody listens on, for as long as a unit runs: a loopback socket that is bound but never
// listens, so a connection is refused (RST) and no other server of this run can take its port.
// (A fake server started and stopped at once refused the same way, but cost a 32-thread pool per
// unit and freed the port for reuse.)
class DeadPort {
 public:
  DeadPort() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd_ >= 0 && ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0)
      port_ = ntohs(a.sin_port);
  }
  ~DeadPort() {
    if (fd_ >= 0) ::close(fd_);
  }
  DeadPort(const DeadPort&) = delete;
  DeadPort& operator=(const DeadPort&) = delete;
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// Where the units' temp roots go: the temp dir the user named (TMPDIR, TMP, TEMP, TEMPDIR), else
// /dev/shm when it is a writable, exec-allowed tmpfs with at least 1 GiB free, else /tmp. Every
// unit creates and removes a HOME, workspace and data dir and the adapter its files in them, ~5k
// inodes per run: on an ext4 without a journal (this project's CI machine) each new inode is
// found by scanning past every inode deleted in the last minutes, which `perf record` showed as
// ~15% of a run's CPU; in memory that cost is gone.
std::string temp_base() {
  static const std::string base = [] {
    for (const char* k : {"TMPDIR", "TMP", "TEMP", "TEMPDIR"})
      if (const char* v = ::getenv(k); v && *v)  // NOLINT(concurrency-mt-unsafe)
        return stdfs::temp_directory_path().string();
    struct statfs fs {};
    struct statvfs vfs {};
    constexpr unsigned long kTmpfsMagic = 0x01021994;
    if (::statfs("/dev/shm", &fs) == 0 && static_cast<unsigned long>(fs.f_type) == kTmpfsMagic &&
        ::statvfs("/dev/shm", &vfs) == 0 && (vfs.f_flag & (ST_RDONLY | ST_NOEXEC)) == 0 &&
        static_cast<unsigned long long>(vfs.f_bavail) * vfs.f_frsize >= (1ull << 30) &&
        ::access("/dev/shm", W_OK | X_OK) == 0)
      return std::string("/dev/shm");
    std::error_code ec;
    auto t = stdfs::temp_directory_path(ec);
    return ec ? std::string("/tmp") : t.string();
  }();
  return base;
}

struct TempRoot {
  std::string path;
  TempRoot() {
    std::string t = (stdfs::path(temp_base()) / "pinta-conf-XXXXXX").string();
    if (::mkdtemp(t.data())) path = t;
  }
  ~TempRoot() {
    std::error_code ec;
    kill_leftovers(path);
    if (!path.empty()) stdfs::remove_all(path, ec);
  }
};

using Clock = std::chrono::steady_clock;

// A reply-framing verdict of pinta::hosts::check_json_line in a reader's words (the verdict
// itself when it has none here).
std::string framing_cause(const std::string& why) {
  static const std::map<std::string, std::string> kWords = {
      {"stdout has more than one line", "a second line on stdout"},
      {"stdout is empty", "nothing on stdout"},
      {"stdout does not end with '\\n'", "no newline after the reply"},
      {"stdout starts with a BOM", "a byte order mark before the reply"},
      {"stdout line is not exactly one JSON object (bytes around it)",
       "bytes around the JSON reply"},
      {"stdout line is not valid JSON", "the reply is not valid JSON"},
      {"stdout JSON is not an object", "the reply is not a JSON object"}};
  auto it = kWords.find(why);
  return it == kWords.end() ? why : it->second;
}

// A failure line without its "[host] " prefix and its details (what follows ':', a quote, a
// bracket, ", expected"), decimal numbers as N: the same fault reads the same in every case.
std::string short_cause(std::string m) {
  if (!m.empty() && m[0] == '[')
    if (size_t e = m.find("] "); e != std::string::npos) m.erase(0, e + 2);
  size_t cut = m.find_first_of(":\"{[(\r\n");
  cut = std::min(cut, m.find(", expected"));
  if (cut != std::string::npos) m.resize(cut);
  while (!m.empty() && (m.back() == ' ' || m.back() == ',' || m.back() == ';')) m.pop_back();
  static const std::regex kDecimal("[0-9]+\\.[0-9]+");
  return std::regex_replace(m, kDecimal, "N");
}

// When a unit must stop: its own deadline (case) and the whole run's; and the run's stop, which
// ends a unit at once, mid-spawn (the unit is then not_run: the verdict no longer needs it).
struct Deadlines {
  std::optional<Clock::time_point> unit, run;
  const std::atomic<bool>* cancel = nullptr;
};

class UnitRun {
 public:
  UnitRun(const Case& c, const std::string& host, const RunOptions& o, Deadlines d = {})
      : c_(c), host_(host), o_(o), d_(d) {}

  HostOutcome run() {
    HostOutcome ho;
    ho.host = host_;
    const json& r = c_.raw;
#ifndef PINTA_CONFORMANCE_HAVE_FAKES
    if (c_.needs_fakes()) {
      ho.state = "unsupported";
      ho.failures.push_back("built without pinta::fakes (fake guard/collector)");
      return ho;
    }
#endif
    // Event for this host's family; a case without one for this family does not apply.
    std::string err;
    runner_ = pinta::emu::make_host_runner(host_, {o_.fixtures_dir, o_.profiles_dir}, err);
    if (!runner_) return unresolved(ho, err);
    if (auto why = runner_->hooks_not_run()) {
      ho.state = "hooks_not_run";
      ho.failures.push_back("[" + host_ + "] hooks do not run on this build: " + *why);
      return ho;
    }
    if (root_.path.empty()) return unresolved(ho, "cannot create a temp directory");
    home_ = root_.path + "/home";
    ws_ = root_.path + "/workspace";
    data_ = root_.path + "/data";
    for (const auto& d : {home_, ws_, data_}) stdfs::create_directories(d);
    vars_ = {{"HOME", home_}, {"WORKSPACE", ws_}, {"DATA_DIR", data_}, {"ROOT", root_.path}};
#ifdef PINTA_CONFORMANCE_HAVE_FAKES
    if (!start_fakes(ho)) return ho;
#endif
    json steps = r.contains("steps") ? r["steps"] : json::array({json::object()});
    // A case whose event is a sequence (every-installed): one run per event of this host's.
    if (!r.contains("steps"))
      if (const json ev = pick(r.value("event", json()), host_); ev.is_string())
        if (const EventRole* role = find_event_role(ev.get<std::string>()); role && role->many) {
          steps = json::array();
          for (const auto& e : detail::host_events(ev, host_)) steps.push_back({{"event", e}});
        }
    if (steps.empty()) {
      ho.state = "unsupported";
      ho.failures.push_back("no event for " + host_);
      return ho;
    }
    int repeat = r.value("repeat", 1);
    int timeout_ms = r.value("timeout_ms", 5000);
    const size_t total = static_cast<size_t>(std::max(repeat, 0)) * steps.size();
    size_t done = 0;
    for (int rep = 0; rep < repeat; ++rep) {
      for (const auto& st : steps) {
        if (d_.cancel && d_.cancel->load()) return stopped(ho);
        // Between runs: a deadline that has passed ends the unit, reported as such.
        const auto now = Clock::now();
        const char* hit = d_.run && now >= *d_.run     ? "run"
                          : d_.unit && now >= *d_.unit ? "case"
                                                       : nullptr;
        if (hit) {
          double secs = std::string(hit) == "run" ? o_.run_deadline : o_.case_deadline;
          std::ostringstream m;
          m << "[" << host_ << "] the " << hit << " deadline (" << secs << " s, --" << hit
            << "-deadline) passed after " << done << " of " << total << " run(s)";
          ho.state = "deadline";
          ho.deadline = hit;
          ho.failures.push_back(m.str());
          return ho;
        }
        // A failure recorded by an earlier run cannot be undone: the verdict is decided, so the
        // remaining runs are not worth waiting for (a broken adapter may make each one slow).
        if (!ho.failures.empty()) {
          ho.state = "fail";
          ho.failures.push_back("[" + host_ + "] stopped after " + std::to_string(done) + " of " +
                                std::to_string(total) +
                                " run(s): a run failed, so the verdict is decided");
          return ho;
        }
        ++done;
        json s = r;
        s.erase("steps");
        for (auto it = st.begin(); it != st.end(); ++it) s[it.key()] = it.value();
        // A literal event as given, a role (pinta/conformance/features.h) through this host's
        // family descriptor; a case without one for this family does not apply.
        const auto ev = detail::host_events(pick(s.value("event", json()), host_), host_);
        if (ev.size() != 1) {
          ho.state = "unsupported";
          ho.failures.push_back("no event for " + host_);
          return ho;
        }
        if (!run_step(s, ev.front(), timeout_ms, ho)) return ho;
        if (median_decided(total)) break;
      }
      if (median_decided(total)) break;
    }
    evaluate(ho);
    if (ho.state.empty()) ho.state = ho.failures.empty() ? "pass" : "fail";
    return ho;
  }

 private:
  // A median_ms budget is decided once more than half of all the runs the case will make are
  // over it: the median of the runs made so far is then over it too.
  bool median_decided(size_t total) const {
    const json e = c_.raw.value("expect", json());
    if (!e.is_object() || !e.contains("median_ms")) return false;
    json v = pick(e["median_ms"], host_);
    if (!v.is_object() || !v.contains("max") || !v["max"].is_number()) return false;
    std::string metric = v.value("metric", std::string("closed"));
    const double budget = calibrated_budget(v["max"].get<double>(), &baseline_ms_);
    size_t over = 0;
    for (const auto& o : outs_) {
      auto t = metric == "first_stdout" ? o.raw.first_stdout_after
               : metric == "exited"     ? o.raw.exited_after
                                        : o.raw.closed_after;
      if (t.count() / 1000.0 > budget) ++over;
    }
    return over * 2 > total && outs_.size() < total;
  }

  bool has_time_budget() const { return detail::has_time_budget(c_.raw); }

  HostOutcome& unresolved(HostOutcome& ho, const std::string& why) {
    ho.state = "unresolved";
    ho.failures.push_back(why);
    return ho;
  }

#ifdef PINTA_CONFORMANCE_HAVE_FAKES
  static bool make_script(const json& spec, std::vector<pinta::fakes::Reply>& script,
                          pinta::fakes::Reply& fallback, std::string& err) {
    if (spec.contains("script"))
      for (const auto& x : spec["script"]) {
        pinta::fakes::Reply rp;
        if (!pinta::fakes::reply_from_json(x, rp, err)) return false;
        script.push_back(rp);
      }
    if (spec.contains("fallback") &&
        !pinta::fakes::reply_from_json(spec["fallback"], fallback, err))
      return false;
    return true;
  }
  bool start_fakes(HostOutcome& ho) {
    for (const char* which : {"guard", "collector"}) {
      if (!c_.raw.contains(which)) continue;
      std::vector<pinta::fakes::Reply> script;
      pinta::fakes::Reply fallback;
      std::string err;
      if (!make_script(c_.raw[which], script, fallback, err)) {
        unresolved(ho, std::string(which) + " script: " + err);
        return false;
      }
      auto srv = std::make_unique<pinta::fakes::FakeServer>(script, fallback);
      std::string up = which == std::string("guard") ? "GUARD_URL" : "COLLECTOR_URL";
      vars_[up] = srv->url("");
      if (which == std::string("guard")) {
        guard_ = std::move(srv);
        guard_spec_ = c_.raw[which];
      } else {
        collector_ = std::move(srv);
        collector_spec_ = c_.raw[which];
      }
    }
    // A URL nobody listens on: connection refused.
    vars_["DEAD_URL"] = dead_.url();
    return true;
  }
  static int answered(const json& spec, size_t i) {
    if (spec.contains("script") && i < spec["script"].size())
      return spec["script"][i].value("status", 200);
    if (spec.contains("fallback")) return spec["fallback"].value("status", 200);
    return 200;
  }
  std::vector<Recorded> recorded(pinta::fakes::FakeServer* s, const json& spec) {
    std::vector<Recorded> out;
    if (!s) return out;
    auto reqs = s->requests();
    for (size_t i = 0; i < reqs.size(); ++i) {
      Recorded rc{reqs[i].path, reqs[i].body, reqs[i].headers, answered(spec, i)};
      out.push_back(std::move(rc));
    }
    return out;
  }
#endif

  bool build_input(const json& s, const std::string& event, HookInput& in,
                   std::map<std::string, std::string>& env, HostOutcome& ho) {
    in.stdin_mode = s.value("stdin", std::string("host"));
    json spec = s.value("input", json::object({{"default", true}}));
    spec = pick(spec, host_);
    if (spec.is_null()) spec = json::object({{"default", true}});
    // "command": the text of what the tool call runs, by meaning: it becomes the tool argument
    // that says what runs for this host's family (payload.command_args' first), under the
    // host's default tool.
    if (spec.is_object() && spec.contains("command")) {
      const auto f = pinta::hosts::host_family(host_);
      const auto& args = f ? pinta::hosts::descriptor(*f).payload.command_args
                           : std::span<const std::string_view>{};
      if (args.empty())
        return unresolved(ho, "input.command: " + host_ + " names no command argument"), false;
      if (!spec.contains("tool_args")) spec["tool_args"] = json::object();
      spec["tool_args"][std::string(args.front())] = spec["command"];
      spec.erase("command");
    }
    if (spec.contains("json")) {
      in.payload = spec["json"];
    } else if (spec.contains("text")) {
      in.raw = subst(spec["text"].get<std::string>(), vars_);
    } else if (spec.contains("hex")) {
      in.raw = from_hex(spec["hex"].get<std::string>());
    } else if (spec.contains("fixture")) {
      auto t = pinta::fs::read_file(o_.fixtures_dir + "/" + spec["fixture"].get<std::string>());
      if (!t) return unresolved(ho, "fixture: " + t.error().message), false;
      in.raw = *t;
    } else if (spec.contains("repeat")) {
      // {"repeat":{"prefix":"","unit":"x","times":N,"suffix":""}}: generated large/nested input.
      const auto& g = spec["repeat"];
      std::string unit = g.value("unit", std::string("x"));
      size_t n = g.value("times", 1);
      std::string b = g.value("prefix", std::string());
      b.reserve(b.size() + unit.size() * n + 64);
      for (size_t i = 0; i < n; ++i) b += unit;
      std::string tail_unit = g.value("suffix_unit", std::string());
      for (size_t i = 0; i < n && !tail_unit.empty(); ++i) b += tail_unit;
      b += g.value("suffix", std::string());
      in.raw = std::move(b);
    } else {
      in.payload = runner_->default_payload(event, spec, home_, ws_);
    }
    if (spec.contains("merge")) {
      in.payload.merge_patch(pinta::emu::payload_json::parse(subst(spec["merge"].dump(), vars_)));
    }
    // "trace_parent": a W3C traceparent handed over where this host's family hands its hooks one
    // (contract TRACE-4): its environment variable (payload.trace_parent_env), else the payload's
    // top-level member (payload.trace_parent_key).
    if (spec.is_object() && spec.contains("trace_parent")) {
      const auto f = pinta::hosts::host_family(host_);
      const auto* shape = f ? &pinta::hosts::descriptor(*f).payload : nullptr;
      if (!spec["trace_parent"].is_string())
        return unresolved(ho, "input.trace_parent must be a string"), false;
      const std::string tp = spec["trace_parent"].get<std::string>();
      if (shape && !shape->trace_parent_env.empty())
        env[std::string(shape->trace_parent_env)] = tp;
      else if (shape && !shape->trace_parent_key.empty() && in.payload.is_object())
        in.payload[std::string(shape->trace_parent_key)] = tp;
      else
        return unresolved(ho, "input.trace_parent: " + host_ + " hands its hooks no trace context"),
               false;
    }
    // "bom": the payload as the host would send it, behind a UTF-8 byte order mark.
    if (!in.raw && spec.value("bom", false)) in.bom = true;
    if (in.raw && spec.value("append_newline", false)) *in.raw += "\n";
    return true;
  }

  bool run_step(const json& s, const std::string& event, int timeout_ms, HostOutcome& ho) {
    HookCall call;
    call.host = host_;
    call.event = event;
    call.cwd = ws_;
    call.timeout_ms = s.value("timeout_ms", timeout_ms);
    // A step that expects the pipes closed has failed once the adapter has exited and something
    // still holds them >100 ms later; waiting on until the host's timeout decides nothing more.
    // So has a step whose checks are all settled when the adapter exits (its exit status).
    // Both the step's expectations and the case's (evaluated over every run) count.
    // A closed_within_ms budget is waited out first, so that it is decided too.
    bool pipes_expected = false, exit_only = true;
    int grace_ms = 250;
    const json step_expect = s.value("expect", json()),
               case_expect = c_.raw.value("expect", json());
    for (const json* e : {&step_expect, &case_expect}) {
      if (!e->is_object()) continue;
      if (pick(e->value("pipes_closed", json()), host_) == true) pipes_expected = true;
      json budget = pick(e->value("closed_within_ms", json()), host_);
      if (budget.is_number_integer()) grace_ms = std::max(grace_ms, budget.get<int>() + 50);
      for (auto it = e->begin(); it != e->end(); ++it)
        if (const Matcher* m = find_matcher(it.key(), false); !m || !m->decided_at_exit)
          exit_only = false;
    }
    if (pipes_expected || exit_only) call.pipe_grace_ms = grace_ms;
    // Agent label: the family's by default; a case may pick another label or drop the flag.
    std::string cmd = absolute_command(o_.adapter);
    json agent = s.contains("agent") ? pick(s["agent"], host_) : json(family_of(host_));
    if (s.contains("agent") && s["agent"].is_null()) agent = json();
    if (agent.is_string()) cmd += " --agent " + agent.get<std::string>();
    if (!s.value("omit_event", false)) cmd += " --event " + event;
    if (s.contains("extra_args")) cmd += " " + subst(s["extra_args"].get<std::string>(), vars_);
    call.command = cmd;
    if (s.contains("host_parent"))
      for (const auto& a : pick(s["host_parent"], host_))
        call.host_parent.push_back(subst(a.get<std::string>(), vars_));
    // Environment: a small clean base (the hosts pass theirs through; the suite makes it hermetic),
    // HOME per case, then the case's variables.
    for (const char* k : {"PATH", "LANG", "LC_ALL", "TMPDIR"})
      if (const char* v = ::getenv(k)) call.env[k] = v;  // NOLINT(concurrency-mt-unsafe)
    call.env["HOME"] = home_;
    if (s.contains("env"))
      for (auto it = s["env"].begin(); it != s["env"].end(); ++it) {
        if (it.value().is_null())
          call.env.erase(it.key());
        else
          call.env[it.key()] = subst(it.value().get<std::string>(), vars_);
      }
    if (s.contains("env_file")) {
      env_file_ = home_ + "/.gemini/pinta-gemini.env";
      stdfs::create_directories(home_ + "/.gemini");
      std::ofstream(env_file_, std::ios::binary) << subst(s["env_file"].get<std::string>(), vars_);
      ::chmod(env_file_.c_str(), static_cast<mode_t>(std::stoi(
                                     s.value("env_file_mode", std::string("0600")), nullptr, 8)));
    }
    if (!build_input(s, event, call.input, call.env, ho)) return false;
    call.cancel = d_.cancel;
    auto out = runner_->run(call);
    if (out.raw.cancelled) return stopped(ho), false;
    if (!out.raw.started)
      return unresolved(ho, "adapter did not start: " + out.raw.spawn_error), false;
    if (has_time_budget()) {
      // The calibration run: a no-op hook, spawned the same way right after, whose time is what
      // any process costs now (the budget grows with it; see calibrated_budget).
      HookCall noop = call;
      noop.command = "/bin/true";
      noop.pipe_grace_ms = 250;
      auto b = runner_->run(noop);
      if (b.raw.started) baseline_ms_.push_back(b.raw.closed_after.count() / 1000.0);
    }
    json run = detail::run_record(call, out);
    ho.runs.push_back(run);
    ho.effect = out.effect;
    run_index_ = static_cast<int>(ho.runs.size()) - 1;
    check_run(s.value("expect", json::object()), out, event, ho);
    outs_.push_back(std::move(out));
    events_.push_back(event);
    return true;
  }

  // Records one failed expectation; check_ names it ("stderr", "collector.spans", …) so the zoo
  // test can show that every kind of check in the case files fails on some broken adapter.
  void fail(HostOutcome& ho, const std::string& m) {
    // The cause, by what explains the rest: a failed exit status (an adapter that died prints
    // nothing: "exit status 127", not "nothing on stdout"), else a framing verdict a failure
    // names (the host effect of a two-line reply fails as a consequence of it), else the first
    // failure.
    const int rank = check_ == "exit_code" || check_ == "signaled"                       ? 3
                     : !framing_why_.empty() && m.find(framing_why_) != std::string::npos ? 2
                                                                                         : 1;
    if (rank > cause_rank_) {
      ho.cause = rank == 2 ? framing_cause(framing_why_) : short_cause(m);
      cause_rank_ = rank;
    }
    std::string line = "[" + host_ + "] " + m;
    const bool fresh =
        std::find(ho.failures.begin(), ho.failures.end(), line) == ho.failures.end();
    if (fresh) ho.failures.push_back(line);
    if (!check_.empty() &&
        std::find(ho.failed_checks.begin(), ho.failed_checks.end(), check_) ==
            ho.failed_checks.end())
      ho.failed_checks.push_back(check_);
    if (fresh && ho.checks.size() < 64) ho.checks.push_back({check_, expected_, line, run_index_});
  }

  // The per-run kinds of `expect` (a step's, or the case's on every run) against one run.
  void check_run(const json& expect, const HookOutcome& out, const std::string& event,
                 HostOutcome& ho) {
    json reply;
    // OUT-1 framing, by the one reply check (pinta/hosts/reply_check.h).
    const std::string why = pinta::hosts::check_json_line(out.raw.out, &reply);
    framing_why_ = why;
    RunContext ctx{host_,
                   event,
                   out,
                   reply,
                   why.empty(),
                   why,
                   [&](const std::string& m) { fail(ho, m); },
                   &baseline_ms_};
    for (auto it = expect.begin(); it != expect.end(); ++it) {
      const Matcher* m = find_matcher(it.key(), false);
      json v = pick(it.value(), host_);
      if (!m || m->scope != MatcherScope::kRun || v.is_null()) continue;
      check_ = it.key();
      expected_ = v;
      m->on_run(v, ctx);
    }
    framing_why_.clear();
  }

  // The run stopped (Deadlines::cancel) before this unit was decided: what it found so far is
  // dropped; run_cases says why the run stopped.
  HostOutcome& stopped(HostOutcome& ho) const {
    ho = HostOutcome{host_, "not_run", "", {}, {}, "", json::array()};
    return ho;
  }

  // The case's expect: its per-run kinds on every run, then the kinds over the whole unit.
  void evaluate(HostOutcome& ho) {
    const json& expect = c_.raw["expect"];
    for (size_t i = 0; i < outs_.size(); ++i) {
      run_index_ = static_cast<int>(i);  // runs and outs_ are pushed together
      check_run(expect, outs_[i], events_[i], ho);
    }
    run_index_ = -1;
    std::vector<Recorded> guard_reqs, coll_reqs;
#ifdef PINTA_CONFORMANCE_HAVE_FAKES
    // expect.collector.wait_requests: how many requests to wait for before judging them.
    if (collector_ && expect.contains("collector")) {
      // "each_run": one request per run of this unit.
      const json w = pick(expect["collector"], host_).value("wait_requests", json(1));
      collector_->wait_for_requests(w == "each_run" ? outs_.size() : w.get<size_t>(),
                                    std::chrono::milliseconds(1000));
    }
    guard_reqs = recorded(guard_.get(), guard_spec_);
    coll_reqs = recorded(collector_.get(), collector_spec_);
#endif
    UnitContext ctx{host_,
                    outs_,
                    guard_reqs,
                    coll_reqs,
                    vars_,
                    root_.path,
                    home_,
                    data_,
                    env_file_,
                    ho.runs,
                    [&](const std::string& m) { fail(ho, m); },
                    [&](const std::string& check) { check_ = check; },
                    &baseline_ms_};
    for (auto it = expect.begin(); it != expect.end(); ++it) {
      const Matcher* m = find_matcher(it.key(), false);
      json v = pick(it.value(), host_);
      if (!m || m->scope != MatcherScope::kUnit || v.is_null()) continue;
      check_ = it.key();
      expected_ = v;
      m->on_unit(v, ctx);
    }
  }

  const Case& c_;
  std::string host_;
  const RunOptions& o_;
  Deadlines d_;
  std::unique_ptr<HostRunner> runner_;
  TempRoot root_;
  std::string home_, ws_, data_, env_file_;
  std::map<std::string, std::string> vars_;
  std::vector<HookOutcome> outs_;
  std::vector<std::string> events_;  // each run's event (outs_ and events_ are pushed together)
  std::vector<double> baseline_ms_;  // timed cases: a no-op hook's closed time after each run
  std::string check_;  // the expectation being evaluated, for fail()
  json expected_;      // its expected value (this host's pick)
  int run_index_ = -1;  // the run being checked (index into HostOutcome::runs), -1: the unit
  std::string framing_why_;  // the run being checked: check_json_line's verdict on its stdout
  int cause_rank_ = 0;       // what HostOutcome::cause was taken from (see fail())
#ifdef PINTA_CONFORMANCE_HAVE_FAKES
  std::unique_ptr<pinta::fakes::FakeServer> guard_, collector_;
  json guard_spec_, collector_spec_;
  DeadPort dead_;
#endif
};

std::string case_state(const Case& c, const std::vector<HostOutcome>& hs, bool strict) {
  bool any_fail = false, any_unres = false, any_run = false, any_deadline = false,
       any_not_run = false;
  for (const auto& h : hs) {
    if (h.state == "fail") any_fail = true;
    if (h.state == "unresolved") any_unres = true;
    if (h.state == "deadline") any_deadline = true;
    if (h.state == "not_run") any_not_run = true;
    if (h.state == "pass" || h.state == "fail") any_run = true;
  }
  if (any_deadline) return "DEADLINE";
  if (any_unres) return "UNRESOLVED";
  if (any_not_run && !any_fail) return "NOT-RUN";
  if (!any_run) return "UNSUPPORTED";
  if (c.xfail) return any_fail ? "XFAIL" : "XPASS";
  if (!any_fail) return "PASS";
  return (c.level == "must" || strict) ? "FAIL" : "NON-STRICT";
}

// A failure of these may be the machine's, not the adapter's: the latency-sensitive cases and
// every case with a time budget (a *_within_ms bound: INPUT-0007 and the like, which stay in the
// main pool, where their waits overlap). Such a failed unit is run again alone before it counts.
bool verdict_rests_on_time(const Case& c) {
  return detail::latency_sensitive(c) || detail::has_time_budget(c.raw);
}

}  // namespace

bool is_failure_state(const std::string& state) {
  return state == "FAIL" || state == "XPASS" || state == "UNRESOLVED" || state == "DEADLINE";
}

bool is_framing_area(const std::string& area) {
  return area == "OUT" || area == "EXIT" || area == "FMT";
}

bool runs_before(const Case& a, const Case& b) {
  auto rank = [](const std::string& area) {
    return area == "OUT" ? 0 : area == "EXIT" ? 1 : area == "FMT" ? 2 : 3;
  };
  const int ra = rank(a.area), rb = rank(b.area);
  return ra != rb ? ra < rb : a.id < b.id;
}

// A failed unit's cause. Deadlines and units that could not run record no expectation: their
// first line says why.
static std::string unit_cause(const HostOutcome& h) {
  if (h.state == "deadline")
    return "the " + h.deadline + " deadline (--" + h.deadline + "-deadline) passed";
  return !h.cause.empty()     ? h.cause
         : h.failures.empty() ? h.state
                              : short_cause(h.failures.front());
}

std::string failure_cause(const CaseOutcome& co) {
  if (!is_failure_state(co.state)) return "";
  for (const auto& h : co.hosts) {
    if (h.state != "fail" && h.state != "deadline" && h.state != "unresolved") continue;
    return unit_cause(h);
  }
  return co.state;  // XPASS: no host failed
}

std::optional<CommonCause> common_failure_cause(const RunSummary& s) {
  std::vector<const CaseOutcome*> failed;
  for (const auto& co : s.cases)
    if (is_failure_state(co.state)) failed.push_back(&co);
  std::stable_sort(failed.begin(), failed.end(), [](const CaseOutcome* a, const CaseOutcome* b) {
    return runs_before(*a->c, *b->c);
  });
  std::map<std::string, int> count;
  std::map<std::string, std::string> first;
  for (const auto* co : failed) {
    const std::string c = failure_cause(*co);
    if (++count[c] == 1) first[c] = co->c->id;
  }
  const int n = static_cast<int>(failed.size());
  for (const auto& [cause, k] : count)
    if (k >= 2 && 2 * k > n) return CommonCause{cause, k, n, first[cause]};
  return std::nullopt;
}

std::string common_cause_line(const CommonCause& c) {
  return std::to_string(c.failed) + " failures; " + std::to_string(c.cases) +
         " share: " + c.cause + " — read " + c.read_first + " first";
}

int default_jobs() {
  unsigned n = std::thread::hardware_concurrency();
  return static_cast<int>(std::max(8u, std::min(4 * n, 64u)));
}

std::string adapter_problem(const std::string& command) {
  const size_t b = command.find_first_not_of(" \t\n");
  if (b == std::string::npos) return "--adapter is empty";
  const size_t e = command.find_first_of(" \t\n", b);
  const std::string first = command.substr(b, e == std::string::npos ? std::string::npos : e - b);
  // The shell decides what these mean; the first run will tell.
  if (first.find_first_of("'\"\\$`=(){};&|<>*?[~") != std::string::npos) return "";
  auto judge = [&](const std::string& path) -> std::string {
    std::error_code ec;
    const auto st = stdfs::status(path, ec);
    if (ec || !stdfs::exists(st)) return "not found";
    if (stdfs::is_directory(st)) return "a directory, not a program";
    if (::access(path.c_str(), X_OK) != 0) return "not executable";
    return "";
  };
  const std::string lead = "--adapter '" + command + "': ";
  if (first.find('/') != std::string::npos) {
    std::string why = judge(first);
    if (why.empty()) return "";
    if (why == "not executable") why += " (chmod +x it, or run it as `bash " + first + " …`)";
    return lead + first + " is " + why;
  }
  // Words sh runs without a file on $PATH (POSIX special and regular builtins a command line
  // could start with).
  static const std::set<std::string> kBuiltins = {
      ".",    "command", "eval", "exec", "time", "nice", "env",  "exit",  "true",
      "false", "builtin", "source", "set", "export", "cd", "unset", "ulimit", "umask"};
  if (kBuiltins.count(first)) return "";
  const char* path_env = ::getenv("PATH");  // NOLINT(concurrency-mt-unsafe)
  const std::string path = path_env ? path_env : "/usr/bin:/bin";
  for (size_t p = 0; p <= path.size();) {
    size_t q = path.find(':', p);
    if (q == std::string::npos) q = path.size();
    std::string dir = path.substr(p, q - p);
    if (dir.empty()) dir = ".";
    if (judge(dir + "/" + first).empty()) return "";
    p = q + 1;
  }
  return lead + first + " is not found on $PATH";
}

bool selected(const Case& c, const RunOptions& o) {
  if (c.id.rfind(o.filter, 0) != 0) return false;
  for (const auto& x : o.exclude)
    if (!x.empty() && c.id.rfind(x, 0) == 0) return false;
  return true;
}

// Every selected case × host is one unit; units run on a pool of workers (they mostly wait on the
// adapter), the latency-sensitive ones afterwards on at most two. A case is reported (progress
// line, failure block) when its last unit ends.
RunSummary run_cases(const std::vector<Case>& cases, const RunOptions& o, std::ostream* progress) {
  return run_cases(cases, o, [&](const CaseOutcome& co, size_t n, size_t total) {
    if (!progress) return;
    *progress << co.state << ": " << co.c->id << " (" << n << " of " << total << ")\n";
    if (is_failure_state(co.state) || (o.verbose && co.state != "PASS")) *progress << failure_block(co);
    progress->flush();
  });
}


namespace {

Clock::duration secs(double x) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(x));
}

bool is_failed(const HostOutcome& h) {
  return h.state == "fail" || h.state == "deadline" || h.state == "unresolved";
}

// A unit's outcome, and whether its failure, if any, stands.
struct Judged {
  HostOutcome ho;
  bool standing = false;
};

// One run_cases: the selected cases' units through the pools, the late units, the verdict and
// the stops. Members marked "under mu_" are read and written with mu_ held.
class CaseRun {
 public:
  CaseRun(const std::vector<Case>& cases, const RunOptions& o, const CaseDone& on_case)
      : o_(o), on_case_(on_case) {
    for (const auto& c : cases)
      if (selected(c, o)) sel_.push_back(&c);
    s_.cases.resize(sel_.size());
    if (o.run_deadline > 0) run_end_ = t0_ + secs(o.run_deadline);
    remaining_.assign(sel_.size(), 0);
    first_start_.assign(sel_.size(), Clock::time_point::max());
    last_end_.assign(sel_.size(), Clock::time_point::min());
    // The report keeps the cases in id order, each with its selected hosts.
    for (size_t i = 0; i < sel_.size(); ++i) {
      s_.cases[i].c = sel_[i];
      for (const auto& h : sel_[i]->hosts) {
        if (std::find(o.hosts.begin(), o.hosts.end(), h) == o.hosts.end()) continue;
        s_.cases[i].hosts.push_back(HostOutcome{h, "", "", {}, {}, "", json::array()});
        ++remaining_[i];
      }
    }
  }

  RunSummary run() {
    const int jobs = o_.jobs > 0 ? o_.jobs : default_jobs();
    // The run order (schedule.h): framing cases first, then the timed ones tightest first, then
    // the rest; the latency cases in their own pool after them.
    const detail::UnitQueue queue = detail::plan_units(sel_, o_.hosts, jobs);
    for (size_t i = 0; i < sel_.size(); ++i)
      if (remaining_[i] == 0) {
        std::lock_guard<std::mutex> lock(mu_);
        finish_case(i);
      }
    // "Alone" is enforced by a gate every unit passes: a rerun holds new units back, and stops
    // the units in flight that have run for a second or more (a broken adapter's unit may wait
    // out a 5 s host timeout; they are run again after it) while it waits for the younger ones to
    // end. Every unit has its own cancel flag (Deadlines::cancel, polled by its spawns); the
    // run's stop sets them all.
    stop_units_ = [this] { gate_.stop_all(); };
    run_pool(queue.fast, jobs, false);
    {
      // The latency cases run last, two at a time, because they are slow to grade; a FAIL
      // verdict they cannot change.
      std::lock_guard<std::mutex> lock(mu_);
      if (verdict_failed_ && !o_.complete && !queue.slow.empty())
        stop("the verdict was settled (" + settled_by_ +
             ") before the latency cases, which run last and cannot change it" + kCompleteHint);
    }
    run_pool(queue.slow, std::min(jobs, 2), true);
    if (!stop_new_ && o_.rerun_alone && !unstarted_.empty()) run_late(jobs);
    finish_deferred();
    count_states();
    s_.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
    return std::move(s_);
  }

 private:
  static constexpr const char* kCompleteHint = "; --complete grades every case";

  // Set once the run stops (s_.stopped says why): no unit starts, and units in flight end at
  // once (Deadlines::cancel reaches their spawns), reported NOT-RUN. Under mu_.
  void stop(const std::string& why) {
    if (stop_new_) return;
    s_.stopped = why;
    stop_new_ = true;
    if (stop_units_) stop_units_();
  }

  // Under mu_: case i's last unit ended.
  void finish_case(size_t i) {
    CaseOutcome& co = s_.cases[i];
    co.state = case_state(*co.c, co.hosts, o_.strict);
    if (first_start_[i] != Clock::time_point::max())
      co.seconds = std::chrono::duration<double>(last_end_[i] - first_start_[i]).count();
    const bool failed = is_failure_state(co.state);
    if (failed && o_.max_failures > 0 && ++failed_cases_ >= o_.max_failures)
      stop("--max-failures " + std::to_string(o_.max_failures) + " reached");
    size_t n = ++done_;
    if (on_case_) on_case_(co, n, sel_.size());
  }

  // A unit worth running again alone: cut by a deadline, or failed in a case whose verdict rests
  // on time (a fake guard answering within the adapter's budget, a *_within_ms or median_ms
  // budget). The rerun's verdict is the unit's.
  bool wants_rerun(size_t i, const HostOutcome& h) const {
    return o_.rerun_alone &&
           ((h.state == "deadline" && (h.deadline != "run" || !o_.run_deadline_given)) ||
            (h.state == "fail" && verdict_rests_on_time(*sel_[i])));
  }

  // Runs unit (i, host) within `run_end`; a failure that a rerun may undo is run again at once,
  // alone, before it stands (at most kRerunConfirmations of them fail again: after that the
  // failures are the adapter's, not the load's, and stand as they are).
  Judged run_unit(size_t i, const std::string& host, std::optional<Clock::time_point> run_end) {
    HostOutcome ho;
    for (;;) {
      std::atomic<bool> cancel{false};
      Deadlines d;
      d.run = run_end;
      d.cancel = &cancel;
      const int id = gate_.enter(cancel);
      if (o_.case_deadline > 0) d.unit = Clock::now() + secs(o_.case_deadline);
      ho = UnitRun(*sel_[i], host, o_, d).run();
      gate_.leave(id);
      // Stopped by a rerun alone (not by the run's stop): run it again once the gate opens.
      if (ho.state != "not_run" || stop_new_) break;
    }
    if (!is_failed(ho)) return {std::move(ho), false};
    if (!wants_rerun(i, ho)) return {std::move(ho), true};
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stop_new_) {
        // Its failure may be the load's and will not be checked: the verdict needs it no more.
        HostOutcome nr{host, "not_run", "", {"not run again alone: " + s_.stopped}, {}, "",
                       json::array()};
        nr.rerun_after = ho.failures.empty() ? ho.state : ho.failures.front();
        return {std::move(nr), false};
      }
      if (confirmed_ >= RunOptions::kRerunConfirmations) {
        if (s_.rerun_stopped.empty())
          s_.rerun_stopped = std::to_string(RunOptions::kRerunConfirmations) + " reruns failed again";
        return {std::move(ho), true};
      }
    }
    return run_alone(i, host, ho);
  }

  // Unit (i, host) again, alone: its outcome is the unit's.
  Judged run_alone(size_t i, const std::string& host, const HostOutcome& ho) {
    gate_.enter_alone();
    Deadlines d2;
    d2.cancel = &stop_new_;
    if (o_.case_deadline > 0) d2.unit = Clock::now() + secs(o_.case_deadline);
    HostOutcome again = UnitRun(*sel_[i], host, o_, d2).run();
    gate_.leave_alone();
    again.rerun_after = ho.failures.empty() ? ho.state : ho.failures.front();
    std::lock_guard<std::mutex> lock(mu_);
    if (again.state == "not_run") return {std::move(again), false};  // the run stopped meanwhile
    ++s_.reran;
    const bool failed = is_failed(again);
    if (failed)
      ++confirmed_;
    else
      ++s_.reran_passed;
    return {std::move(again), failed};
  }

  // Under mu_, after unit (i, h) ended: the framing stop, and the verdict. `settles`: a failure
  // that stands here ends the run (the latency cases, the late units, a failure confirmed alone).
  void judge(size_t i, const HostOutcome& h, bool standing, bool settles) {
    if (!standing) return;
    const Case& c = *sel_[i];
    const std::string cause = unit_cause(h);
    if (o_.max_framing_failures > 0 && is_framing_area(c.area) &&
        ++framing_failures_[cause] >= o_.max_framing_failures)
      stop(std::to_string(o_.max_framing_failures) +
           (o_.max_framing_failures == 1 ? " framing unit" : " framing units") +
           " (case x host; OUT, EXIT, FMT run first) failed with one cause (" +
           cause + "); --max-framing-failures 0 or --complete runs every case");
    if (c.xfail || !(c.level == "must" || o_.strict)) return;
    if (!o_.complete && ++cause_failures_[cause] == RunOptions::kOneCauseStop)
      stop(std::to_string(RunOptions::kOneCauseStop) + " units (case x host) failed with one cause (" +
           cause + ")" + kCompleteHint);
    if (!verdict_failed_) {
      verdict_failed_ = true;
      settled_by_ = c.id + " under " + h.host + " (" + cause + ")";
    }
    if (settles && !o_.complete)
      stop("the verdict was settled: " + settled_by_ + (h.rerun_after.empty() ? "" : ", again when run alone") +
           kCompleteHint);
  }

  // The units of one pool on `jobs` workers. `slow`: the latency-sensitive pool, which runs only
  // while the verdict is open.
  void run_pool(const std::vector<detail::Unit>& units, int jobs, bool slow) {
    std::atomic<size_t> next{0};
    auto worker = [&] {
      for (size_t k; (k = next++) < units.size();) pool_unit(units[k], slow);
    };
    std::vector<std::thread> ts;
    int n = std::max(1, std::min<int>(jobs, static_cast<int>(units.size())));
    for (int j = 0; j < n; ++j) ts.emplace_back(worker);
    for (auto& t : ts) t.join();
  }

  // One unit of a pool: run (or not run: the run stopped, or its deadline passed), judged and
  // recorded; its case finished when it was the last.
  void pool_unit(const detail::Unit& u, bool slow) {
    Judged j;
    auto u0 = Clock::now();
    if (stop_new_) {
      std::string why;
      {
        std::lock_guard<std::mutex> lock(mu_);
        why = s_.stopped;
      }
      j.ho = HostOutcome{u.host, "not_run", "", {"not run: " + why}, {}, "", json::array()};
    } else if (run_end_ && u0 >= *run_end_) {
      std::ostringstream m;
      m << "[" << u.host << "] not run: the run deadline (" << o_.run_deadline
        << " s, --run-deadline) had passed";
      j.ho = HostOutcome{u.host, "deadline", "run", {m.str()}, {}, "", json::array()};
      std::lock_guard<std::mutex> lock(mu_);
      unstarted_.insert({u.case_index, u.host});
    } else {
      j = run_unit(u.case_index, u.host, run_end_);
    }
    auto u1 = Clock::now();
    std::lock_guard<std::mutex> lock(mu_);
    if (j.ho.state == "not_run" && j.ho.failures.empty())
      j.ho.failures.push_back("not run: stopped mid-run: " + s_.stopped);
    const bool ran = j.ho.state != "not_run" || !j.ho.rerun_after.empty();
    judge(u.case_index, j.ho, j.standing, slow || !j.ho.rerun_after.empty());
    auto& co = s_.cases[u.case_index];
    for (auto& h : co.hosts)
      if (h.host == u.host) h = std::move(j.ho);
    if (ran) {
      first_start_[u.case_index] = std::min(first_start_[u.case_index], u0);
      last_end_[u.case_index] = std::max(last_end_[u.case_index], u1);
    }
    if (--remaining_[u.case_index] == 0) {
      const auto& hs = co.hosts;
      if (std::any_of(hs.begin(), hs.end(), [&](const HostOutcome& h) {
            return unstarted_.count({u.case_index, h.host}) && wants_rerun(u.case_index, h);
          }))
        deferred_.push_back(u.case_index);
      else
        finish_case(u.case_index);
    }
  }

  // The units the (default) run deadline kept from starting, as the pools would have run them
  // (two at a time), within 4 run deadlines (200 s by default: a loaded machine, load 30 on 2
  // cores, needed more than one); an adapter that fails or hangs settles the verdict first.
  void run_late(int jobs) {
    std::vector<std::pair<size_t, HostOutcome*>> late;
    for (size_t i : deferred_)
      for (auto& h : s_.cases[i].hosts)
        if (unstarted_.count({i, h.host}) && wants_rerun(i, h)) late.push_back({i, &h});
    std::optional<Clock::time_point> late_end;
    if (o_.run_deadline > 0) late_end = Clock::now() + secs(4 * o_.run_deadline);
    std::atomic<size_t> next{0};
    auto worker = [&] {
      for (size_t k; (k = next++) < late.size();) {
        auto [i, h] = late[k];
        {
          std::lock_guard<std::mutex> lock(mu_);
          if (stop_new_) return;
          if (late_end && Clock::now() >= *late_end) {
            if (s_.rerun_stopped.empty())
              s_.rerun_stopped = "the late units' window (" +
                                 std::to_string(static_cast<int>(4 * o_.run_deadline)) + " s) ran out";
            return;
          }
        }
        const std::string before = h->failures.empty() ? h->state : h->failures.front();
        const auto u0 = Clock::now();
        Judged j = run_unit(i, h->host, late_end);
        std::lock_guard<std::mutex> lock(mu_);
        if (j.ho.rerun_after.empty()) {  // else run_unit ran it a second time and counted that
          j.ho.rerun_after = before;
          ++s_.reran;
          if (j.ho.state == "pass") ++s_.reran_passed;
        }
        judge(i, j.ho, j.standing, true);
        *h = std::move(j.ho);
        first_start_[i] = std::min(first_start_[i], u0);
        last_end_[i] = std::max(last_end_[i], Clock::now());
      }
    };
    std::vector<std::thread> ts;
    const int n = std::max(1, std::min<int>(std::min(jobs, 2), static_cast<int>(late.size())));
    for (int t = 0; t < n; ++t) ts.emplace_back(worker);
    for (auto& t : ts) t.join();
  }

  // The cases that waited for their late units.
  void finish_deferred() {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i : deferred_) {
      // Late units that did not run (the run stopped): not a failure of the adapter's.
      if (stop_new_)
        for (auto& h : s_.cases[i].hosts)
          if (unstarted_.count({i, h.host}) && h.state == "deadline" && h.rerun_after.empty())
            h = HostOutcome{h.host, "not_run", "", {"not run: " + s_.stopped}, {}, "",
                            json::array()};
      finish_case(i);
    }
  }

  void count_states() {
    for (const auto& co : s_.cases) {
      for (const auto& h : co.hosts) {
        s_.case_deadlines += h.deadline == "case";
        s_.run_deadlines += h.deadline == "run";
      }
      if (co.state == "PASS" || co.state == "XFAIL" || co.state == "NON-STRICT")
        ++s_.passed;
      else if (co.state == "UNSUPPORTED")
        ++s_.skipped;
      else if (co.state == "NOT-RUN")
        ++s_.not_run;
      else
        ++s_.failed;
    }
  }

  const RunOptions& o_;
  const CaseDone& on_case_;
  RunSummary s_;
  std::vector<const Case*> sel_;
  const Clock::time_point t0_ = Clock::now();
  std::optional<Clock::time_point> run_end_;
  std::vector<size_t> remaining_;
  std::vector<Clock::time_point> first_start_, last_end_;
  std::mutex mu_;
  size_t done_ = 0;
  int failed_cases_ = 0;
  std::map<std::string, int> framing_failures_;  // framing units whose failure stands, by cause
  std::map<std::string, int> cause_failures_;    // every unit whose failure stands, by cause
  std::atomic<bool> stop_new_{false};
  std::function<void()> stop_units_;  // the gate's: ends the units in flight
  // The verdict is FAIL once a failure stands (no rerun can undo it) in a case that counts
  // (must, or any level under --strict; not xfail). Settled, the run stops before work that can
  // no longer change it (RunOptions::complete).
  bool verdict_failed_ = false;  // under mu_
  std::string settled_by_;       // "CASE under HOST (cause)"
  detail::AloneGate gate_;
  int confirmed_ = 0;  // reruns that failed again (under mu_)
  std::vector<size_t> deferred_;  // cases waiting for their late units, in the order they ended
  std::set<std::pair<size_t, std::string>> unstarted_;  // units the run deadline kept from starting
};

}  // namespace

RunSummary run_cases(const std::vector<Case>& cases, const RunOptions& o, const CaseDone& on_case) {
  return CaseRun(cases, o, on_case).run();
}

std::string failure_block(const CaseOutcome& o) {
  std::ostringstream b;
  const Case& c = *o.c;
  b << "******************** TEST '" << c.id << "' " << o.state << " ********************\n";
  b << c.title << " [" << c.level << "]\n";
  b << "Requirement: " << c.requirement << "\nSource: " << c.source << "\nCase: " << c.file << "\n";
  // Hosts the run stopped before: one line per reason, not a block each.
  std::vector<std::pair<std::string, std::string>> not_run;  // reason, hosts
  for (const auto& h : o.hosts) {
    if (h.state != "not_run" || !h.rerun_after.empty()) continue;
    const std::string why = h.failures.empty() ? "not run" : h.failures.front();
    auto it = std::find_if(not_run.begin(), not_run.end(),
                           [&](const auto& p) { return p.first == why; });
    if (it == not_run.end())
      not_run.push_back({why, h.host});
    else
      it->second += ", " + h.host;
  }
  // Hosts that failed alike (the same state and failure lines but for the "[host] " tag) are one
  // block: the lines and the first host's runs once, with the hosts and their count. An adapter
  // that cannot start fails every host with one cause; it is printed once.
  auto untagged = [](const HostOutcome& h) {
    std::string key = h.state + "\n" + h.rerun_after + "\n";
    const std::string tag = "[" + h.host + "] ";
    for (const auto& f : h.failures) key += (f.rfind(tag, 0) == 0 ? f.substr(tag.size()) : f) + "\n";
    return key;
  };
  std::vector<std::pair<std::string, std::vector<const HostOutcome*>>> alike;
  for (const auto& h : o.hosts) {
    if (h.state == "pass" || (h.state == "not_run" && h.rerun_after.empty())) continue;
    const std::string key = untagged(h);
    auto it = std::find_if(alike.begin(), alike.end(), [&](const auto& g) { return g.first == key; });
    if (it == alike.end())
      alike.push_back({key, {&h}});
    else
      it->second.push_back(&h);
  }
  for (const auto& [key, hs] : alike) {
    const HostOutcome& h = *hs.front();
    if (hs.size() == 1) {
      b << "--- host " << h.host << ": " << h.state << "\n";
    } else {
      b << "--- " << hs.size() << " hosts alike: ";
      for (size_t i = 0; i < hs.size(); ++i) b << (i ? ", " : "") << hs[i]->host;
      b << ": " << h.state << " (the runs shown are " << h.host << "'s)\n";
    }
    if (!h.rerun_after.empty())
      b << "  (run again alone; in the full run: " << h.rerun_after << ")\n";
    const std::string tag = "[" + h.host + "] ";
    for (const auto& f : h.failures)
      b << "  " << (hs.size() > 1 && f.rfind(tag, 0) == 0 ? f.substr(tag.size()) : f) << "\n";
    for (const auto& r : h.runs) {
      if (!r.contains("command")) continue;
      b << "  $ " << r["command"].get<std::string>() << "  (event " << r["event"].get<std::string>()
        << ")\n";
      // The record keeps 2 KiB of each stream for the reports; a terminal gets about 600 chars.
      auto clip = [&](const char* k) {
        std::string t = r[k].get<std::string>();
        if (t.size() <= 640) return t;
        size_t cut = t.rfind('\\', 600);  // not inside an escape
        if (cut == std::string::npos || cut < 590) cut = 600;
        return t.substr(0, cut) + "…(" + r.value(std::string(k) + "_bytes", json()).dump() +
               (r.value(std::string(k) + "_capped", false) ? "+" : "") + " bytes)";
      };
      b << "    stdin : " << clip("stdin") << "\n";
      b << "    stdout: " << clip("stdout") << "\n";
      b << "    stderr: " << clip("stderr") << "\n";
      b << "    exit " << r["exit"].dump() << ", signal " << r["signal"].dump() << ", timed out "
        << r["timed_out"].dump() << "; first stdout " << r["first_stdout_ms"].dump()
        << " ms, exited " << r["exited_ms"].dump() << " ms, pipes closed " << r["closed_ms"].dump()
        << " ms; host effect " << r["effect"].dump() << "\n";
    }
  }
  for (const auto& [why, hosts] : not_run) b << "--- hosts " << hosts << ": " << why << "\n";
  b << "********************\n";
  return b.str();
}

}  // namespace pinta::conformance
