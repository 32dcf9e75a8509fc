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
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/conformance/conformance.h"
#include "pinta/emulator/host_runner.h"
#include "pinta/hosts/reply_check.h"
#ifdef PINTA_CONFORMANCE_HAVE_FAKES
#include "pinta/fakes/fake_server.h"
#endif

namespace pinta::conformance {
namespace {
namespace stdfs = std::filesystem;

// A value that may be given per family ({"gemini":…,"antigravity":…}) or per host name.
json pick(const json& v, const std::string& host) {
  if (!is_per_host(v)) return v;
  if (v.contains(host)) return v[host];
  auto f = family_of(host);
  if (v.contains(f)) return v[f];
  return json();  // not applicable to this host
}

std::string subst(std::string s, const std::map<std::string, std::string>& vars) {
  for (const auto& [k, v] : vars) {
    std::string key = "${" + k + "}";
    for (size_t p; (p = s.find(key)) != std::string::npos;) s.replace(p, key.size(), v);
  }
  return s;
}

std::string from_hex(const std::string& h) {
  std::string o;
  for (size_t i = 0; i + 1 < h.size(); i += 2)
    o += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
  return o;
}

// The bytes as printable ASCII (\n, \\, \xNN), at most about `max` characters; a cut is marked
// with the total size, also when escapes (not the byte count) reached the cap.
std::string show_bytes(const std::string& s, size_t max = 600) {
  std::string o;
  size_t i = 0;
  for (; i < s.size() && o.size() < max; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n')
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


// What the host made of a reply, for the report: as is, or (a flooding adapter's text can be
// megabytes, once per run) its first bytes as a string.
json bounded(const json& detail, size_t max = 4096) {
  std::string d = detail.dump();
  if (d.size() <= max) return detail;
  return json(show_bytes(d, max));
}

bool subset(const json& want, const json& got) {
  if (want.is_object()) {
    if (!got.is_object()) return false;
    for (auto it = want.begin(); it != want.end(); ++it)
      if (!got.contains(it.key()) || !subset(it.value(), got[it.key()])) return false;
    return true;
  }
  return want == got;
}

const json* at_path(const json& j, const std::string& dotted) {
  const json* cur = &j;
  std::istringstream in(dotted);
  for (std::string part; std::getline(in, part, '.');) {
    if (!cur->is_object() || !cur->contains(part)) return nullptr;
    cur = &(*cur)[part];
  }
  return cur;
}

bool count_ok(const json& spec, size_t n, std::string& want) {
  if (spec.is_number_integer()) {
    want = "exactly " + spec.dump();
    return n == spec.get<size_t>();
  }
  size_t lo = spec.value("min", 0), hi = spec.value("max", static_cast<size_t>(-1));
  want = "between " + std::to_string(lo) + " and " +
         (hi == static_cast<size_t>(-1) ? "∞" : std::to_string(hi));
  return n >= lo && n <= hi;
}

struct Recorded {
  std::string path, body;
  std::vector<std::pair<std::string, std::string>> headers;
  int answered_status = 0;
  std::string header(const std::string& name) const {
    for (const auto& [k, v] : headers) {
      std::string lk = k;
      std::transform(lk.begin(), lk.end(), lk.begin(), ::tolower);
      if (lk == name) return v;
    }
    return "";
  }
};

// OTLP/JSON attribute value → json scalar.
json otlp_value(const json& v) {
  if (!v.is_object()) return json();
  for (const char* k : {"stringValue", "boolValue", "doubleValue"})
    if (v.contains(k)) return v[k];
  if (v.contains("intValue")) {
    const auto& i = v["intValue"];
    if (i.is_string()) return json(std::stoll(i.get<std::string>()));
    return i;
  }
  if (v.contains("arrayValue") || v.contains("kvlistValue")) return v;
  return json();
}

struct Span {
  json span;
  std::map<std::string, json> attrs, resource;
};

bool is_hex(const std::string& s, size_t n) {
  if (s.size() != n) return false;
  bool nonzero = false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    if (c != '0') nonzero = true;
  }
  return nonzero;
}

// Parses OTLP/JSON export bodies (opentelemetry-proto ExportTraceServiceRequest, JSON mapping).
std::vector<Span> parse_spans(const std::vector<Recorded>& reqs, std::vector<std::string>* invalid,
                              bool only_accepted) {
  std::vector<Span> out;
  for (size_t i = 0; i < reqs.size(); ++i) {
    if (only_accepted && (reqs[i].answered_status < 200 || reqs[i].answered_status >= 300))
      continue;
    json b = json::parse(reqs[i].body, nullptr, false);
    auto inv = [&](const std::string& m) {
      if (invalid) invalid->push_back("request " + std::to_string(i) + ": " + m);
    };
    if (b.is_discarded()) {
      inv("body is not JSON");
      continue;
    }
    if (!b.contains("resourceSpans") || !b["resourceSpans"].is_array()) {
      inv("no resourceSpans array");
      continue;
    }
    for (const auto& rs : b["resourceSpans"]) {
      std::map<std::string, json> res;
      if (rs.contains("resource") && rs["resource"].contains("attributes"))
        for (const auto& a : rs["resource"]["attributes"])
          if (a.is_object() && a.contains("key"))
            res[a["key"].get<std::string>()] = otlp_value(a.value("value", json()));
      if (!rs.contains("scopeSpans") || !rs["scopeSpans"].is_array()) {
        inv("resourceSpans entry without scopeSpans");
        continue;
      }
      for (const auto& ss : rs["scopeSpans"]) {
        if (!ss.contains("spans") || !ss["spans"].is_array()) {
          inv("scopeSpans entry without spans");
          continue;
        }
        for (const auto& sp : ss["spans"]) {
          Span s;
          s.span = sp;
          s.resource = res;
          if (sp.contains("attributes") && sp["attributes"].is_array())
            for (const auto& a : sp["attributes"])
              if (a.is_object() && a.contains("key") && a["key"].is_string())
                s.attrs[a["key"].get<std::string>()] = otlp_value(a.value("value", json()));
          std::string tid = sp.value("traceId", std::string()),
                      sid = sp.value("spanId", std::string());
          if (!is_hex(tid, 32))
            inv("span traceId '" + tid + "' is not 32 lowercase hex digits (non-zero)");
          if (!is_hex(sid, 16))
            inv("span spanId '" + sid + "' is not 16 lowercase hex digits (non-zero)");
          if (!sp.contains("name") || !sp["name"].is_string() ||
              sp["name"].get<std::string>().empty())
            inv("span without a name");
          for (const char* k : {"startTimeUnixNano", "endTimeUnixNano"}) {
            const json v = sp.value(k, json());
            // get_ref, not get<std::string>(): two get<>() calls are two temporaries, and a
            // begin/end pair from different strings is undefined (it failed under ASan only).
            bool ok = v.is_number_unsigned();
            if (v.is_string()) {
              const std::string& digits = v.get_ref<const std::string&>();
              ok = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](unsigned char c) {
                     return c >= '0' && c <= '9';
                   });
            }
            if (!ok) inv(std::string("span ") + k + " missing or not a uint64 string");
          }
          out.push_back(std::move(s));
        }
      }
    }
  }
  return out;
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

std::string fmt_us(std::chrono::microseconds us) {
  char b[32];
  snprintf(b, sizeof b, "%.1f ms", static_cast<double>(us.count()) / 1000.0);
  return b;
}

using Clock = std::chrono::steady_clock;

// When a unit must stop: its own deadline (case) and the whole run's.
struct Deadlines {
  std::optional<Clock::time_point> unit, run;
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
    int repeat = r.value("repeat", 1);
    int timeout_ms = r.value("timeout_ms", 5000);
    const size_t total = static_cast<size_t>(std::max(repeat, 0)) * steps.size();
    size_t done = 0;
    for (int rep = 0; rep < repeat; ++rep) {
      for (const auto& st : steps) {
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
        json ev = pick(s.value("event", json()), host_);
        if (!ev.is_string()) {
          ho.state = "unsupported";
          ho.failures.push_back("no event for " + host_);
          return ho;
        }
        if (!run_step(s, ev.get<std::string>(), timeout_ms, ho)) return ho;
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
    size_t over = 0;
    for (const auto& o : outs_) {
      auto t = metric == "first_stdout" ? o.raw.first_stdout_after
               : metric == "exited"     ? o.raw.exited_after
                                        : o.raw.closed_after;
      if (t.count() / 1000.0 > v["max"].get<double>()) ++over;
    }
    return over * 2 > total && outs_.size() < total;
  }

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

  bool build_input(const json& s, const std::string& event, HookInput& in, HostOutcome& ho) {
    in.stdin_mode = s.value("stdin", std::string("host"));
    json spec = s.value("input", json::object({{"default", true}}));
    spec = pick(spec, host_);
    if (spec.is_null()) spec = json::object({{"default", true}});
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
      json m = json::parse(subst(spec["merge"].dump(), vars_));
      in.payload.merge_patch(m);
    }
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
        if (it.key() != "exit_code" && it.key() != "signaled" && it.key() != "exit_within_ms")
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
    if (!build_input(s, event, call.input, ho)) return false;
    auto out = runner_->run(call);
    if (!out.raw.started)
      return unresolved(ho, "adapter did not start: " + out.raw.spawn_error), false;
    json run = {{"event", event},
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
    ho.runs.push_back(run);
    ho.effect = out.effect;
    run_index_ = static_cast<int>(ho.runs.size()) - 1;
    check_run(s.value("expect", json::object()), out, ho);
    outs_.push_back(std::move(out));
    return true;
  }

  // Records one failed expectation; check_ names it ("stderr", "collector.spans", …) so the zoo
  // test can show that every kind of check in the case files fails on some broken adapter.
  void fail(HostOutcome& ho, const std::string& m) {
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

  void check_run(const json& expect, const HookOutcome& out, HostOutcome& ho) {
    const auto& raw = out.raw;
    json reply;
    // OUT-1 framing, by the one reply check (pinta/hosts/reply_check.h).
    const std::string why = pinta::hosts::check_json_line(raw.out, &reply);
    const bool one = why.empty();
    for (auto it = expect.begin(); it != expect.end(); ++it) {
      const std::string k = it.key();
      json v = pick(it.value(), host_);
      if (v.is_null()) continue;
      check_ = k;
      expected_ = v;
      if (k == "stdout" && v == "one_json_line") {
        if (!one) fail(ho, "OUT: " + why + "; stdout = \"" + show_bytes(raw.out, 200) + "\"");
      } else if (k == "stdout" && v == "empty") {
        if (!raw.out.empty())
          fail(ho, "stdout not empty (the host shows it to the user): \"" +
                       show_bytes(raw.out, 200) + "\"");
      } else if (k == "stdout_contains") {
        if (raw.out.find(v.get<std::string>()) == std::string::npos)
          fail(ho, "stdout lacks " + v.dump() + ": \"" + show_bytes(raw.out, 200) + "\"");
      } else if (k == "exit_code_in") {
        bool ok = raw.exit_code && std::find(v.begin(), v.end(), json(*raw.exit_code)) != v.end();
        if (!ok)
          fail(ho, "exit status " +
                       (raw.exit_code ? std::to_string(*raw.exit_code) : std::string("none")) +
                       (raw.term_signal ? " (signal " + std::to_string(*raw.term_signal) + ")" : "") +
                       ", expected one of " + v.dump());
      } else if (k == "stderr" && v == "empty") {
        if (!raw.err.empty()) fail(ho, "stderr not empty: \"" + show_bytes(raw.err, 200) + "\"");
      } else if (k == "exit_code") {
        if (!raw.exit_code || *raw.exit_code != v.get<int>())
          fail(ho,
               "exit status " +
                   (raw.exit_code ? std::to_string(*raw.exit_code) : std::string("none")) +
                   (raw.term_signal ? " (signal " + std::to_string(*raw.term_signal) + ")" : "") +
                   (raw.timed_out ? " (host timeout fired)" : "") + ", expected " + v.dump());
      } else if (k == "signaled" && v == false) {
        if (raw.term_signal) fail(ho, "killed by signal " + std::to_string(*raw.term_signal));
      } else if (k == "pipes_closed" && v == true) {
        if (raw.pipes_outlived_child || raw.hard_limited)
          fail(ho,
               "a process kept the host's stdout/stderr pipes open after the adapter exited "
               "(closed after " +
                   fmt_us(raw.closed_after) + ", exited after " + fmt_us(raw.exited_after) + ")");
      } else if (k == "reply") {
        if (!one)
          fail(ho, "reply: no single JSON object line (" + why + ")");
        else if (reply != v)
          fail(ho, "reply differs (canonical JSON):\n" + json_diff(v, reply));
      } else if (k == "reply_has") {
        if (!one || !subset(v, reply))
          fail(ho, "reply lacks " + canonical(v) + ": got " +
                       (one ? canonical(reply) : "\"" + show_bytes(raw.out, 200) + "\""));
      } else if (k == "reply_lacks") {
        if (one)
          for (const auto& key : v)
            if (reply.contains(key.get<std::string>()))
              fail(ho, "reply carries forbidden field '" + key.get<std::string>() +
                           "': " + canonical(reply));
      } else if (k == "effect") {
        bool ok = v.is_array() ? std::find(v.begin(), v.end(), json(out.effect)) != v.end()
                               : v == out.effect;
        if (!ok)
          fail(ho, "host effect '" + out.effect + "'" +
                       (out.effect_message.empty()
                            ? ""
                            : " (\"" + show_bytes(out.effect_message, 200) + "\")") +
                       ", expected " + v.dump());
      } else if (k == "effect_message_contains") {
        if (out.effect_message.find(v.get<std::string>()) == std::string::npos)
          fail(ho, "host message \"" + show_bytes(out.effect_message, 300) +
                       "\" does not contain " + v.dump());
      } else if (k == "reply_within_ms") {
        auto t = raw.first_stdout_after;
        if (t.count() < 0 || t > std::chrono::milliseconds(v.get<int>()))
          fail(ho, "first stdout byte after " + (t.count() < 0 ? std::string("never") : fmt_us(t)) +
                       ", budget " + v.dump() + " ms");
      } else if (k == "exit_within_ms") {
        if (!raw.exit_code || raw.exited_after > std::chrono::milliseconds(v.get<int>()))
          fail(ho,
               "adapter exited after " + fmt_us(raw.exited_after) + ", budget " + v.dump() + " ms");
      } else if (k == "closed_within_ms") {
        if (raw.closed_after > std::chrono::milliseconds(v.get<int>()))
          fail(ho,
               "pipes closed after " + fmt_us(raw.closed_after) + ", budget " + v.dump() + " ms");
      }
    }
  }

  void evaluate(HostOutcome& ho) {
    const json& expect = c_.raw["expect"];
    for (size_t i = 0; i < outs_.size(); ++i) {
      run_index_ = static_cast<int>(i);  // runs and outs_ are pushed together
      check_run(expect, outs_[i], ho);
    }
    run_index_ = -1;
    std::vector<Recorded> guard_reqs, coll_reqs;
#ifdef PINTA_CONFORMANCE_HAVE_FAKES
    if (collector_ && expect.contains("collector"))
      collector_->wait_for_requests(pick(expect["collector"], host_).value("wait_requests", 1),
                                    std::chrono::milliseconds(1000));
    guard_reqs = recorded(guard_.get(), guard_spec_);
    coll_reqs = recorded(collector_.get(), collector_spec_);
#endif
    for (auto it = expect.begin(); it != expect.end(); ++it) {
      const std::string k = it.key();
      json v = pick(it.value(), host_);
      if (v.is_null()) continue;
      check_ = k;
      expected_ = v;
      std::string want;
      if (k == "guard_requests") {
        if (!count_ok(v, guard_reqs.size(), want))
          fail(ho, "guard received " + std::to_string(guard_reqs.size()) +
                       " request(s), expected " + want);
      } else if (k == "collector_requests") {
        if (!count_ok(v, coll_reqs.size(), want))
          fail(ho, "collector received " + std::to_string(coll_reqs.size()) +
                       " request(s), expected " + want);
      } else if (k == "guard_request") {
        if (guard_reqs.empty()) {
          fail(ho, "guard_request: the guard was never called");
          continue;
        }
        const auto& rq = guard_reqs.front();
        json body = json::parse(rq.body, nullptr, false);
        if (v.contains("header"))
          for (auto h = v["header"].begin(); h != v["header"].end(); ++h)
            if (rq.header(h.key()) != subst(h.value().get<std::string>(), vars_))
              fail(ho, "guard request header " + h.key() + " = \"" + rq.header(h.key()) +
                           "\", expected " + h.value().dump());
        if (v.contains("json_paths"))
          for (const auto& p : v["json_paths"])
            if (body.is_discarded() || !at_path(body, p.get<std::string>()))
              fail(ho, "guard request body has no " + p.get<std::string>() + ": " +
                           show_bytes(rq.body, 300));
        if (v.contains("json_equals"))
          for (auto e = v["json_equals"].begin(); e != v["json_equals"].end(); ++e) {
            const json* got = body.is_discarded() ? nullptr : at_path(body, e.key());
            if (!got || *got != e.value())
              fail(ho, "guard request " + e.key() + " = " + (got ? got->dump() : "absent") +
                           ", expected " + e.value().dump());
          }
        if (v.contains("body_contains"))
          for (const auto& s : v["body_contains"])
            if (rq.body.find(s.get<std::string>()) == std::string::npos)
              fail(ho, "guard request body does not contain " + s.dump());
      } else if (k == "collector") {
        check_collector(v, coll_reqs, ho);
      } else if (k == "absent") {
        check_absent(v, guard_reqs, coll_reqs, ho, false, "");
      } else if (k == "token_only_in_header") {
        std::string tok = v["token"].get<std::string>();
        std::string hdr = v.value("header", std::string("x-pinta-relay-token"));
        check_absent(json::array({tok}), guard_reqs, coll_reqs, ho, true, "");
        for (const auto& rq : guard_reqs)
          if (rq.header(hdr) != tok)
            fail(ho, "guard request header " + hdr + " = \"" + rq.header(hdr) +
                         "\", expected the token");
        if (v.value("require_guard_call", false) && guard_reqs.empty())
          fail(ho, "the guard was never called");
      } else if (k == "data_files") {
        for (auto f = v.begin(); f != v.end(); ++f) {
          std::string p = subst(f.key(), vars_);
          std::error_code ec;
          bool ex = stdfs::exists(p, ec);
          const json& w = f.value();
          if (w == "exists" && !ex) fail(ho, "expected file " + f.key() + " to exist");
          if (w == "absent" && ex) fail(ho, "expected file " + f.key() + " not to exist");
          if (w.is_object() && w.contains("mode")) {
            struct stat st {};
            if (::stat(p.c_str(), &st) != 0)
              fail(ho, "expected file " + f.key() + " to exist");
            else {
              char b[8];
              snprintf(b, sizeof b, "%04o", st.st_mode & 07777);
              if (w["mode"] != b)
                fail(ho, f.key() + " has mode " + b + ", expected " + w["mode"].dump());
            }
          }
          if (w.is_object() && w.contains("contains")) {
            auto t = pinta::fs::read_file(p);
            if (!t || t->find(w["contains"].get<std::string>()) == std::string::npos)
              fail(ho, f.key() + " does not contain " + w["contains"].dump());
          }
          if (w.is_object() && w.contains("lines")) {
            auto t = pinta::fs::read_file(p);
            size_t n = t ? static_cast<size_t>(std::count(t->begin(), t->end(), '\n')) : 0;
            if (!count_ok(w["lines"], n, want))
              fail(ho, f.key() + " has " + std::to_string(n) + " line(s), expected " + want);
          }
        }
      } else if (k == "no_files_under") {
        for (const auto& d : v) {
          auto files = walk_files(subst(d.get<std::string>(), vars_), env_file_);
          if (!files.empty())
            fail(ho, "adapter created " + files.front().first + " (expected no files under " +
                         d.get<std::string>() + ")");
        }
      } else if (k == "median_ms") {
        std::string metric = v.value("metric", std::string("closed"));
        std::vector<double> xs;
        for (const auto& o : outs_) {
          auto t = metric == "first_stdout" ? o.raw.first_stdout_after
                   : metric == "exited"     ? o.raw.exited_after
                                            : o.raw.closed_after;
          xs.push_back(t.count() / 1000.0);
        }
        std::sort(xs.begin(), xs.end());
        double med = xs.empty() ? 0 : xs[xs.size() / 2];
        ho.runs.push_back({{"median_ms", med}, {"metric", metric}, {"samples", xs.size()}});
        if (med > v["max"].get<double>())
          fail(ho, "median " + metric + " time " + std::to_string(med) + " ms over " +
                       std::to_string(xs.size()) + " runs, budget " + v["max"].dump() + " ms");
      }
    }
  }

  void check_absent(const json& needles, const std::vector<Recorded>& guard_reqs,
                    const std::vector<Recorded>& coll_reqs, HostOutcome& ho,
                    bool include_guard_body, const std::string&) {
    auto files = walk_files(home_, env_file_);
    auto more = walk_files(data_, "");
    files.insert(files.end(), more.begin(), more.end());
    for (const auto& n : needles) {
      std::string s = n.get<std::string>();
      for (const auto& o : outs_) {
        if (o.raw.out.find(s) != std::string::npos) fail(ho, "secret " + s + " reached stdout");
        if (o.raw.err.find(s) != std::string::npos) fail(ho, "secret " + s + " reached stderr");
      }
      for (const auto& rq : coll_reqs) {
        if (rq.body.find(s) != std::string::npos)
          fail(ho, "secret " + s + " reached the collector (request body)");
      }
      if (include_guard_body)
        for (const auto& rq : guard_reqs)
          if (rq.body.find(s) != std::string::npos)
            fail(ho, "token " + s + " appears in the guard request body");
      for (const auto& [p, text] : files)
        if (text.find(s) != std::string::npos)
          fail(ho, "secret " + s + " written to " + p.substr(root_.path.size()));
    }
  }

  void check_collector(const json& v, const std::vector<Recorded>& reqs, HostOutcome& ho) {
    std::vector<std::string> invalid;
    bool accepted_only = v.value("accepted_only", false);
    auto spans = parse_spans(reqs, &invalid, accepted_only);
    std::string want;
    check_ = "collector.spans";
    if (v.contains("spans") && !count_ok(v["spans"], spans.size(), want))
      fail(ho, "collector got " + std::to_string(spans.size()) + " span(s)" +
                   (accepted_only ? " in accepted requests" : "") + ", expected " + want);
    check_ = "collector.valid_otlp";
    if (v.value("valid_otlp", false))
      for (const auto& m : invalid) fail(ho, "invalid OTLP/JSON: " + m);
    check_ = "collector.path";
    if (v.contains("path"))
      for (const auto& rq : reqs)
        if (rq.path != v["path"])
          fail(ho, "collector request path " + rq.path + ", expected " + v["path"].dump());
    check_ = "collector.content_type";
    if (v.contains("content_type"))
      for (const auto& rq : reqs)
        if (rq.header("content-type").find(v["content_type"].get<std::string>()) ==
            std::string::npos)
          fail(ho, "collector request content-type \"" + rq.header("content-type") +
                       "\", expected " + v["content_type"].dump());
    check_ = "collector.header";
    if (v.contains("header"))
      for (auto h = v["header"].begin(); h != v["header"].end(); ++h)
        for (const auto& rq : reqs)
          if (rq.header(h.key()) != h.value().get<std::string>())
            fail(ho, "collector request header " + h.key() + " = \"" + rq.header(h.key()) +
                         "\", expected " + h.value().dump());
    check_ = "collector.names";
    if (v.contains("names")) {
      for (const auto& n : pick(v["names"], host_)) {
        bool found = std::any_of(spans.begin(), spans.end(), [&](const Span& s) {
          return s.span.value("name", std::string()) == n;
        });
        if (!found) fail(ho, "no span named " + n.dump());
      }
    }
    auto attr_check = [&](const char* key, bool resource) {
      if (!v.contains(key)) return;
      check_ = std::string("collector.") + key;
      json want_attrs = pick(v[key], host_);
      for (auto a = want_attrs.begin(); a != want_attrs.end(); ++a) {
        for (const auto& s : spans) {
          const auto& m = resource ? s.resource : s.attrs;
          auto f = m.find(a.key());
          if (f == m.end())
            fail(ho, std::string(resource ? "resource" : "span") + " attribute " + a.key() +
                         " missing on span " + s.span.value("name", std::string("?")));
          else if (!a.value().is_null() && f->second != a.value())
            fail(ho, std::string(resource ? "resource" : "span") + " attribute " + a.key() + " = " +
                         f->second.dump() + ", expected " + a.value().dump());
        }
      }
    };
    attr_check("resource", true);
    attr_check("attributes", false);
    check_ = "collector.attributes_absent";
    if (v.contains("attributes_absent"))
      for (const auto& name : pick(v["attributes_absent"], host_))
        for (const auto& s : spans)
          if (auto f = s.attrs.find(name.get<std::string>()); f != s.attrs.end())
            fail(ho, "span attribute " + name.get<std::string>() + " = " + f->second.dump() +
                         " on span " + s.span.value("name", std::string("?")) +
                         ", expected absent");
    check_ = "collector.same_trace";
    if (v.contains("same_trace") && spans.size() > 1) {
      std::set<std::string> t;
      for (const auto& s : spans) t.insert(s.span.value("traceId", std::string()));
      if (v["same_trace"] == true && t.size() != 1)
        fail(ho, "spans carry " + std::to_string(t.size()) + " different traceIds, expected one");
      if (v["same_trace"] == false && t.size() != spans.size())
        fail(ho, "spans share a traceId, expected one trace each");
    }
    check_ = "collector.distinct_span_ids";
    if (v.value("distinct_span_ids", false)) {
      std::set<std::string> ids;
      for (const auto& s : spans) ids.insert(s.span.value("spanId", std::string()));
      if (ids.size() != spans.size()) fail(ho, "two spans share a spanId");
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
  std::string check_;  // the expectation being evaluated, for fail()
  json expected_;      // its expected value (this host's pick)
  int run_index_ = -1;  // the run being checked (index into HostOutcome::runs), -1: the unit
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

bool is_failure(const std::string& state) {
  return state == "FAIL" || state == "XPASS" || state == "UNRESOLVED" || state == "DEADLINE";
}

// Cases with a median latency budget, and cases with a fake guard (the adapter's guard budget is
// 50 ms end to end, and the fake answers from this process): run after the others, at most two at
// once, so that the suite's own concurrency does not eat their budget.
bool latency_sensitive(const Case& c) {
  if (c.raw.contains("guard")) return true;
  auto has = [](const json& e) { return e.is_object() && e.contains("median_ms"); };
  if (has(c.raw.value("expect", json()))) return true;
  for (const auto& st : c.raw.value("steps", json::array()))
    if (st.is_object() && has(st.value("expect", json()))) return true;
  return false;
}

}  // namespace

int default_jobs() {
  unsigned n = std::thread::hardware_concurrency();
  return static_cast<int>(std::max(8u, std::min(4 * n, 64u)));
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
    if (is_failure(co.state) || (o.verbose && co.state != "PASS")) *progress << failure_block(co);
    progress->flush();
  });
}

bool is_failure_state(const std::string& state) { return is_failure(state); }

// Reorders units grouped by case (ascending case_index) so that, per chunk of `chunk` cases, the
// k-th unit of each case comes before any case's (k+1)-th (see run_cases).
template <typename Unit>
std::vector<Unit> spread_units(const std::vector<Unit>& units, size_t chunk) {
  std::vector<std::vector<Unit>> by_case;
  for (const auto& u : units) {
    if (by_case.empty() || by_case.back().front().case_index != u.case_index) by_case.emplace_back();
    by_case.back().push_back(u);
  }
  std::vector<Unit> out;
  out.reserve(units.size());
  for (size_t c0 = 0; c0 < by_case.size(); c0 += std::max<size_t>(chunk, 1)) {
    const size_t c1 = std::min(by_case.size(), c0 + std::max<size_t>(chunk, 1));
    for (size_t k = 0;; ++k) {
      bool any = false;
      for (size_t c = c0; c < c1; ++c)
        if (k < by_case[c].size()) {
          out.push_back(by_case[c][k]);
          any = true;
        }
      if (!any) break;
    }
  }
  return out;
}

RunSummary run_cases(const std::vector<Case>& cases, const RunOptions& o, const CaseDone& on_case) {
  RunSummary s;
  std::vector<const Case*> sel;
  for (const auto& c : cases)
    if (selected(c, o)) sel.push_back(&c);
  s.cases.resize(sel.size());
  const auto t0 = Clock::now();
  auto secs = [](double x) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(x));
  };
  std::optional<Clock::time_point> run_end;
  if (o.run_deadline > 0) run_end = t0 + secs(o.run_deadline);

  struct Unit {
    size_t case_index;
    std::string host;
  };
  std::vector<Unit> fast, slow;
  std::vector<size_t> remaining(sel.size(), 0);
  std::vector<Clock::time_point> first_start(sel.size(), Clock::time_point::max()),
      last_end(sel.size(), Clock::time_point::min());
  for (size_t i = 0; i < sel.size(); ++i) {
    s.cases[i].c = sel[i];
    bool lat = latency_sensitive(*sel[i]);
    for (const auto& h : sel[i]->hosts) {
      if (std::find(o.hosts.begin(), o.hosts.end(), h) == o.hosts.end()) continue;
      s.cases[i].hosts.push_back(HostOutcome{h, "", "", {}, {}, "", json::array()});
      (lat ? slow : fast).push_back({i, h});
      ++remaining[i];
    }
  }
  const int jobs = o.jobs > 0 ? o.jobs : default_jobs();
  // A case's units are spread out in the queue: within each chunk of 2 x jobs cases, the first
  // unit of every case, then the second, and so on. In case order, the units of a case that waits
  // (an adapter's 1 s stdin wait under a host that keeps stdin open, say) came back to back and
  // could occupy every worker at once, leaving the CPUs idle for that second; spread, no two units
  // of one case run at the same time and a chunk's cases still finish together (progress flows).
  fast = spread_units(fast, static_cast<size_t>(2 * jobs));
  std::mutex mu;
  size_t done = 0;
  int failed_cases = 0;
  std::atomic<bool> stop_new{false};
  auto finish_case = [&](size_t i) {  // under mu
    CaseOutcome& co = s.cases[i];
    co.state = case_state(*co.c, co.hosts, o.strict);
    if (first_start[i] != Clock::time_point::max())
      co.seconds = std::chrono::duration<double>(last_end[i] - first_start[i]).count();
    if (is_failure(co.state) && o.max_failures > 0 && ++failed_cases >= o.max_failures)
      stop_new = true;
    size_t n = ++done;
    if (on_case) on_case(co, n, sel.size());
  };
  for (size_t i = 0; i < sel.size(); ++i)
    if (remaining[i] == 0) {
      std::lock_guard<std::mutex> lock(mu);
      finish_case(i);
    }
  auto run_pool = [&](const std::vector<Unit>& units, int jobs) {
    std::atomic<size_t> next{0};
    auto worker = [&] {
      for (size_t k; (k = next++) < units.size();) {
        const Unit& u = units[k];
        const Case& c = *sel[u.case_index];
        HostOutcome ho;
        auto u0 = Clock::now();
        if (stop_new) {
          ho = HostOutcome{u.host, "not_run", "", {"not run: --max-failures reached"}, {}, "",
                           json::array()};
        } else if (run_end && u0 >= *run_end) {
          std::ostringstream m;
          m << "[" << u.host << "] not run: the run deadline (" << o.run_deadline
            << " s, --run-deadline) had passed";
          ho = HostOutcome{u.host, "deadline", "run", {m.str()}, {}, "", json::array()};
        } else {
          Deadlines d;
          d.run = run_end;
          if (o.case_deadline > 0) d.unit = u0 + secs(o.case_deadline);
          ho = UnitRun(c, u.host, o, d).run();
        }
        auto u1 = Clock::now();
        std::lock_guard<std::mutex> lock(mu);
        const bool ran = ho.state != "not_run";
        auto& co = s.cases[u.case_index];
        for (auto& h : co.hosts)
          if (h.host == u.host) h = std::move(ho);
        if (ran) {
          first_start[u.case_index] = std::min(first_start[u.case_index], u0);
          last_end[u.case_index] = std::max(last_end[u.case_index], u1);
        }
        if (--remaining[u.case_index] == 0) finish_case(u.case_index);
      }
    };
    std::vector<std::thread> ts;
    int n = std::max(1, std::min<int>(jobs, static_cast<int>(units.size())));
    for (int j = 0; j < n; ++j) ts.emplace_back(worker);
    for (auto& t : ts) t.join();
  };
  run_pool(fast, jobs);
  run_pool(slow, std::min(jobs, 2));
  for (const auto& co : s.cases) {
    for (const auto& h : co.hosts) {
      s.case_deadlines += h.deadline == "case";
      s.run_deadlines += h.deadline == "run";
    }
    if (co.state == "PASS" || co.state == "XFAIL" || co.state == "NON-STRICT")
      ++s.passed;
    else if (co.state == "UNSUPPORTED")
      ++s.skipped;
    else if (co.state == "NOT-RUN")
      ++s.not_run;
    else
      ++s.failed;
  }
  s.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return s;
}

std::string failure_block(const CaseOutcome& o) {
  std::ostringstream b;
  const Case& c = *o.c;
  b << "******************** TEST '" << c.id << "' " << o.state << " ********************\n";
  b << c.title << " [" << c.level << "]\n";
  b << "Requirement: " << c.requirement << "\nSource: " << c.source << "\nCase: " << c.file << "\n";
  for (const auto& h : o.hosts) {
    if (h.state == "pass") continue;
    b << "--- host " << h.host << ": " << h.state << "\n";
    for (const auto& f : h.failures) b << "  " << f << "\n";
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
  b << "********************\n";
  return b.str();
}

}  // namespace pinta::conformance
