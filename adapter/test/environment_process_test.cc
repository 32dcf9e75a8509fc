// Process tests of the environments the adapter must answer in, and of the data dir it must not
// trust blindly (docs/contract.md ENV-8..ENV-11): the built pinta-gemini under an empty
// environment, a uid with no passwd entry, an nsswitch.conf naming missing or crashing NSS modules,
// a minimal root, and a victim uid against a data dir an attacker prepared with links.
//
// Changing uid, mount namespaces and chroot need root: those tests are skipped, with the reason,
// otherwise. The child is set up with raw syscalls between fork and exec (no setpriv / unshare
// binaries needed, and no libc call that could itself load an NSS module).
#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "fake_server_helpers.h"
#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"
#include "pinta/fakes/fake_server.h"

namespace pinta {
namespace {

using nlohmann::json;
namespace stdfs = std::filesystem;

constexpr uid_t kVictim = 54321;    // no passwd entry (checked)
constexpr uid_t kAttacker = 54322;  // no passwd entry (checked)

bool has_passwd_entry(uid_t uid) {
  auto text = fs::read_file("/etc/passwd");
  if (!text) return false;
  const std::string needle = ":" + std::to_string(uid) + ":";
  size_t pos = 0;
  while (pos < text->size()) {
    size_t nl = text->find('\n', pos);
    std::string line = text->substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? text->size() : nl + 1;
    // name:pw:UID:...
    size_t a = line.find(':');
    size_t b = a == std::string::npos ? a : line.find(':', a + 1);
    size_t c = b == std::string::npos ? b : line.find(':', b + 1);
    if (c != std::string::npos && line.substr(b + 1, c - b - 1) == std::to_string(uid)) return true;
  }
  (void)needle;
  return false;
}

struct Isolation {
  std::optional<uid_t> uid;                                // setgroups({}), setresgid, setresuid
  std::string chroot_dir;                                  // chroot + chdir("/")
  std::vector<std::pair<std::string, std::string>> binds;  // bind mounts in a new mount namespace
};

struct Ran {
  bool started = false;
  std::string setup_error;
  int exit_code = -1;
  int term_signal = 0;
  bool timed_out = false;
  std::string out;
  std::string err;
};

// fork, isolate, execve(argv[0], argv, env) with exactly `env`; stdin gets `in` then EOF.
Ran run_isolated(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                 const std::string& in, const Isolation& iso, int timeout_ms = 10000) {
  Ran r;
  int in_p[2], out_p[2], err_p[2], st_p[2];
  if (::pipe2(in_p, O_CLOEXEC) || ::pipe2(out_p, O_CLOEXEC) || ::pipe2(err_p, O_CLOEXEC) ||
      ::pipe2(st_p, O_CLOEXEC)) {
    r.setup_error = "pipe";
    return r;
  }
  std::vector<char*> av, ev;
  for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
  av.push_back(nullptr);
  for (const auto& e : env) ev.push_back(const_cast<char*>(e.c_str()));
  ev.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    r.setup_error = "fork";
    return r;
  }
  if (pid == 0) {
    // Only async-signal-safe calls from here on.
    auto fail = [&](int step) {
      int e[2] = {step, errno};
      (void)!::write(st_p[1], e, sizeof e);
      ::_exit(127);
    };
    ::dup2(in_p[0], 0);
    ::dup2(out_p[1], 1);
    ::dup2(err_p[1], 2);
    if (!iso.binds.empty()) {
      if (::unshare(CLONE_NEWNS) != 0) fail(1);
      if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) fail(2);
      for (const auto& [src, dst] : iso.binds)
        if (::mount(src.c_str(), dst.c_str(), nullptr, MS_BIND, nullptr) != 0) fail(3);
    }
    if (!iso.chroot_dir.empty()) {
      if (::chroot(iso.chroot_dir.c_str()) != 0) fail(4);
      if (::chdir("/") != 0) fail(5);
    }
    if (iso.uid) {
      if (::setgroups(0, nullptr) != 0) fail(6);
      if (::setresgid(*iso.uid, *iso.uid, *iso.uid) != 0) fail(7);
      if (::setresuid(*iso.uid, *iso.uid, *iso.uid) != 0) fail(8);
    }
    ::execve(av[0], av.data(), ev.data());
    fail(9);
  }
  ::close(in_p[0]);
  ::close(out_p[1]);
  ::close(err_p[1]);
  ::close(st_p[1]);
  int e[2] = {0, 0};
  ssize_t n;
  while ((n = ::read(st_p[0], e, sizeof e)) < 0 && errno == EINTR) {
  }
  ::close(st_p[0]);
  if (n == static_cast<ssize_t>(sizeof e)) {
    r.setup_error = "child set-up step " + std::to_string(e[0]) + ": " + std::strerror(e[1]);
  } else {
    r.started = true;
  }
  ::signal(SIGPIPE, SIG_IGN);
  (void)!::write(in_p[1], in.data(), in.size());
  ::close(in_p[1]);
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  struct pollfd pf[2] = {{out_p[0], POLLIN, 0}, {err_p[0], POLLIN, 0}};
  std::string* sink[2] = {&r.out, &r.err};
  int open = 2;
  while (open > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    if (::poll(pf, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      ssize_t k = ::read(pf[i].fd, buf, sizeof buf);
      if (k > 0) {
        sink[i]->append(buf, static_cast<size_t>(k));
      } else if (k == 0 || errno != EINTR) {
        ::close(pf[i].fd);
        pf[i].fd = -1;
        --open;
      }
    }
  }
  for (auto& p : pf)
    if (p.fd >= 0) ::close(p.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
  return r;
}

std::string adapter() { return stdfs::absolute(testing::bin_dir() + "/pinta-gemini").string(); }

// The hook contract for one run: started, exit 0, no signal, empty stderr, one JSON line. With
// `debug_line_ok`, stderr may hold the one line debug mode prints when the log cannot be written
// (EXIT-2), e.g. because the data dir was refused.
json expect_answer(const Ran& r, const std::string& what, bool debug_line_ok = false) {
  EXPECT_TRUE(r.started) << what << ": " << r.setup_error;
  EXPECT_FALSE(r.timed_out) << what;
  EXPECT_EQ(r.term_signal, 0) << what << " (killed by signal " << r.term_signal << ")";
  EXPECT_EQ(r.exit_code, 0) << what << " stderr: " << r.err;
  if (debug_line_ok && r.err.rfind("pinta-gemini: debug log: ", 0) == 0 &&
      r.err.find('\n') == r.err.size() - 1) {
    // the one allowed line
  } else {
    EXPECT_EQ(r.err, "") << what;
  }
  EXPECT_TRUE(!r.out.empty() && r.out.back() == '\n' && r.out.find('\n') == r.out.size() - 1)
      << what << " stdout: " << r.out;
  json j = json::parse(r.out, nullptr, false);
  EXPECT_TRUE(j.is_object()) << what << " stdout: " << r.out;
  return j;
}

struct Event {
  std::vector<std::string> args;
  std::string payload;
  json reply;
};

const std::vector<Event>& events() {
  static const std::vector<Event> kEvents = {
      {{"--agent", "gemini", "--event", "BeforeTool"},
       R"({"session_id":"s1","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}})",
       json::object()},
      {{"--agent", "gemini", "--event", "BeforeAgent"},
       R"({"session_id":"s1","prompt":"hi"})",
       json::object()},
      {{"--agent", "antigravity", "--event", "PreToolUse"},
       R"({"conversationId":"c1","toolCall":{"name":"run_command","args":{"CommandLine":"ls"}}})",
       json{{"decision", "allow"}}},
      {{"--agent", "antigravity", "--event", "Stop"}, "{}", json::object()},
  };
  return kEvents;
}

bool is_root() { return ::geteuid() == 0; }

// Every event and --pinta-flush answers under `iso`; with `settings`, debug and telemetry are on
// (only where no home can be found, so nothing is written).
void expect_every_event_answers(const std::vector<std::string>& base_env, const Isolation& iso,
                                const std::string& binary, const std::string& what,
                                bool settings = true) {
  std::vector<std::string> env = base_env;
  if (settings) {
    env.push_back("PINTA_GEMINI_DEBUG=1");
    env.push_back("OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:9");
  }
  for (const Event& e : events()) {
    std::vector<std::string> argv = {binary};
    argv.insert(argv.end(), e.args.begin(), e.args.end());
    Ran r = run_isolated(argv, env, e.payload, iso);
    EXPECT_EQ(expect_answer(r, what + " " + e.args[1] + " " + e.args[3]), e.reply);
  }
  Ran f = run_isolated({binary, "--pinta-flush"}, env, "", iso);
  EXPECT_TRUE(f.started) << f.setup_error;
  EXPECT_EQ(f.term_signal, 0) << what << " --pinta-flush killed by signal " << f.term_signal;
  EXPECT_EQ(f.err, "") << what << " --pinta-flush";
  json j = json::parse(f.out, nullptr, false);
  EXPECT_TRUE(j.is_object()) << what << " --pinta-flush stdout: " << f.out;
}

TEST(EnvironmentProcess, EmptyEnvironmentAnswers) {
  // env -i: no HOME, no PATH, nothing, as the current user: home comes from its /etc/passwd line.
  // No settings are passed, so nothing is written to that (real) home.
  expect_every_event_answers({}, {}, adapter(), "env -i", /*settings=*/false);
}

TEST(EnvironmentProcess, UidWithoutPasswdEntryAnswers) {
  if (!is_root()) GTEST_SKIP() << "needs root to run as a uid without a passwd entry (setresuid)";
  if (has_passwd_entry(kVictim)) GTEST_SKIP() << "uid " << kVictim << " has a passwd entry here";
  Isolation iso;
  iso.uid = kVictim;
  // A container run with --user <uid>, or systemd DynamicUser: HOME unset, or set but empty.
  expect_every_event_answers({}, iso, adapter(), "uid without passwd entry, HOME unset");
  expect_every_event_answers({"HOME="}, iso, adapter(), "uid without passwd entry, HOME empty");
}

class NssTripwire : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!is_root())
      GTEST_SKIP() << "needs root for a private mount namespace over /etc/nsswitch.conf";
    if (has_passwd_entry(kVictim)) GTEST_SKIP() << "uid " << kVictim << " has a passwd entry here";
    ASSERT_TRUE(dir_.ok());
    ::chmod(dir_.path().c_str(), 0755);
    lib_dir_ = testing::bin_dir() + "/../tests";
    ASSERT_TRUE(fs::exists(lib_dir_ + "/libnss_pintatrip.so.2"))
        << "the tripwire module was not built";
    lib_dir_ = stdfs::canonical(lib_dir_).string();
  }

  std::string conf(const std::string& name, const std::string& text) {
    std::string p = dir_.sub(name);
    EXPECT_TRUE(fs::atomic_write(p, text, 0644).ok());
    return p;
  }

  testing::TempDir dir_;
  std::string lib_dir_;
};

TEST_F(NssTripwire, CrashingOrMissingModulesAreNeverLoaded) {
  // Every database the adapter could touch names the tripwire module first (it ends the process
  // when loaded), or a module that does not exist. Before the fix: exit 86 on the first
  // getpwuid_r (HOME unset) or getaddrinfo (a guard named by host name).
  const std::string trip =
      conf("nsswitch-trip.conf",
           "passwd: pintatrip files\ngroup: pintatrip files\nshadow: pintatrip\n"
           "hosts: pintatrip files dns\nservices: pintatrip files\n");
  const std::string missing = conf("nsswitch-missing.conf",
                                   "passwd: nosuchmodule systemd\ngroup: nosuchmodule\n"
                                   "hosts: nosuchmodule dns\nservices: nosuchmodule\n");
  for (const std::string& nss : {trip, missing}) {
    Isolation iso;
    iso.uid = kVictim;
    iso.binds = {{nss, "/etc/nsswitch.conf"}};
    expect_every_event_answers({"LD_LIBRARY_PATH=" + lib_dir_}, iso, adapter(), nss);
  }
}

TEST_F(NssTripwire, GuardNamedInHostsFileIsResolvedWithoutNss) {
  // The guard is named by a host name that only a private /etc/hosts knows; nsswitch.conf sends
  // hosts lookups to the tripwire. The DENY proves the name was resolved (by the adapter's own
  // hosts-file reader) and the guard consulted; exit 0 proves no NSS module was loaded.
  fakes::FakeServer guard({testing_fakes::body_reply(200, R"({"decision":"DENY","reason":"no"})")},
                          testing_fakes::body_reply(200, R"({"decision":"DENY","reason":"no"})"));
  const std::string nss =
      conf("nsswitch.conf", "passwd: pintatrip\nhosts: pintatrip\nservices: pintatrip\n");
  const std::string hosts =
      conf("hosts", "# test\n127.0.0.1\tlocalhost\n127.0.0.1 pinta-guard.test guard-alias\n");
  // DNS goes to 127.0.0.1:53, where nothing answers in the test: a name missing from the hosts
  // file is looked up there (not through NSS) and fails open.
  const std::string resolv =
      conf("resolv.conf", "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n");
  Isolation iso;
  iso.uid = kVictim;
  iso.binds = {{nss, "/etc/nsswitch.conf"}, {hosts, "/etc/hosts"}, {resolv, "/etc/resolv.conf"}};
  {
    std::vector<std::string> env = {"LD_LIBRARY_PATH=" + lib_dir_,
                                    "PINTA_GUARD_ENDPOINT=http://not-in-hosts.test:9/",
                                    "PINTA_GUARD_TIMEOUT_MS=300"};
    Ran r = run_isolated({adapter(), "--agent", "antigravity", "--event", "PreToolUse"}, env,
                         events()[2].payload, iso);
    EXPECT_EQ(expect_answer(r, "name only DNS knows"), (json{{"decision", "allow"}}));
  }
  for (const char* name : {"pinta-guard.test", "GUARD-ALIAS"}) {
    std::vector<std::string> env = {"LD_LIBRARY_PATH=" + lib_dir_,
                                    std::string("PINTA_GUARD_ENDPOINT=http://") + name + ":" +
                                        std::to_string(guard.port()) + "/check",
                                    "PINTA_GUARD_TIMEOUT_MS=5000"};
    Ran r = run_isolated({adapter(), "--agent", "antigravity", "--event", "PreToolUse"}, env,
                         events()[2].payload, iso);
    EXPECT_EQ(expect_answer(r, name), (json{{"decision", "deny"}, {"reason", "no"}}));
  }
  EXPECT_EQ(guard.request_count(), 2u);
}

TEST(EnvironmentProcess, MinimalRootAnswers) {
  if (!is_root()) GTEST_SKIP() << "needs root to chroot";
  testing::TempDir root;
  ASSERT_TRUE(root.ok());
  ::chmod(root.path().c_str(), 0755);
  // Only the (static) binary: no /etc, /dev, /proc, /tmp. Dynamic builds cannot run here.
  std::string bin = root.sub("pinta-gemini");
  ASSERT_TRUE(stdfs::copy_file(adapter(), bin));
  ::chmod(bin.c_str(), 0755);
  auto probe = run_isolated({"/pinta-gemini", "--agent", "gemini", "--event", "Stop"}, {}, "{}",
                            Isolation{std::nullopt, root.path(), {}});
  if (probe.setup_error.find("step 9") != std::string::npos)
    GTEST_SKIP() << "the adapter is not a static executable (cannot run in an empty root): "
                 << probe.setup_error;
  for (std::optional<uid_t> uid : {std::optional<uid_t>(), std::optional<uid_t>(kVictim)}) {
    Isolation iso{uid, root.path(), {}};
    const std::string what = uid ? "empty root, uid without entry" : "empty root, root";
    expect_every_event_answers({}, iso, "/pinta-gemini", what);
    // A guard named by a host name: no hosts file, no resolv.conf (the stub asks 127.0.0.1,
    // where nothing answers): unavailable within the budget, so allow.
    Ran r =
        run_isolated({"/pinta-gemini", "--agent", "antigravity", "--event", "PreToolUse"},
                     {"PINTA_GUARD_ENDPOINT=http://guard.invalid:1/", "PINTA_GUARD_TIMEOUT_MS=200"},
                     events()[2].payload, iso);
    EXPECT_EQ(expect_answer(r, what + " guard by name"), (json{{"decision", "allow"}}));
  }
}

// FIFOs where the adapter reads files before its reply: /etc/passwd (HOME unset: the home comes
// from it, ENV-8), /etc/hosts and /etc/resolv.conf (a guard named by host), the env file. Nobody
// writes to them, so a blocking open would wait forever; each is refused after a non-blocking
// open and fstat (ENV-12), and every event answers. Failed before the fix: the adapter hung in
// open("/etc/passwd") (every run timed out).
TEST(EnvironmentProcess, FifosWhereFilesAreReadDoNotHang) {
  if (!is_root()) GTEST_SKIP() << "needs root to chroot";
  testing::TempDir root;
  ASSERT_TRUE(root.ok());
  ::chmod(root.path().c_str(), 0755);
  std::string bin = root.sub("pinta-gemini");
  ASSERT_TRUE(stdfs::copy_file(adapter(), bin));
  ::chmod(bin.c_str(), 0755);
  ASSERT_EQ(::mkdir(root.sub("etc").c_str(), 0755), 0);
  for (const char* f : {"etc/passwd", "etc/hosts", "etc/resolv.conf"})
    ASSERT_EQ(::mkfifo(root.sub(f).c_str(), 0644), 0) << f;
  auto probe = run_isolated({"/pinta-gemini", "--version"}, {}, "", Isolation{std::nullopt, root.path(), {}});
  if (probe.setup_error.find("step 9") != std::string::npos)
    GTEST_SKIP() << "the adapter is not a static executable (cannot run in a minimal root): " << probe.setup_error;
  Isolation iso{std::nullopt, root.path(), {}};
  expect_every_event_answers({}, iso, "/pinta-gemini", "FIFO /etc/passwd, HOME unset");
  Ran r = run_isolated({"/pinta-gemini", "--agent", "antigravity", "--event", "PreToolUse"},
                       {"PINTA_GUARD_ENDPOINT=http://guard.invalid:1/", "PINTA_GUARD_TIMEOUT_MS=200"},
                       events()[2].payload, iso);
  EXPECT_EQ(expect_answer(r, "FIFO /etc/hosts and /etc/resolv.conf, guard by name"), (json{{"decision", "allow"}}));
  // The env file as a FIFO (HOME set).
  ASSERT_EQ(::mkdir(root.sub("home").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir(root.sub("home/.gemini").c_str(), 0700), 0);
  ASSERT_EQ(::mkfifo(root.sub("home/.gemini/pinta-gemini.env").c_str(), 0600), 0);
  expect_every_event_answers({"HOME=/home"}, iso, "/pinta-gemini", "FIFO env file", /*settings=*/false);
}

// ---- the data dir ----------------------------------------------------------------------------

struct Stamp {
  bool exists = false;
  std::string content;
  mode_t mode = 0;
  uid_t uid = 0;
  bool operator==(const Stamp& o) const {
    return exists == o.exists && content == o.content && mode == o.mode && uid == o.uid;
  }
};

Stamp stamp(const std::string& path) {
  Stamp s;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return s;
  s.exists = true;
  s.mode = st.st_mode;
  s.uid = st.st_uid;
  if (auto t = fs::read_file(path)) s.content = *t;
  return s;
}

class DataDirTrust : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!is_root()) GTEST_SKIP() << "needs root to play a victim and an attacker uid";
    if (has_passwd_entry(kVictim) || has_passwd_entry(kAttacker))
      GTEST_SKIP() << "uid " << kVictim << " or " << kAttacker << " has a passwd entry here";
    ASSERT_TRUE(root_.ok());
    ::chmod(root_.path().c_str(), 0755);
    home_ = root_.sub("victim");
    ASSERT_EQ(::mkdir(home_.c_str(), 0700), 0);
    ASSERT_EQ(::mkdir((home_ + "/.gemini").c_str(), 0700), 0);
    for (const char* f : {".bashrc", ".profile", ".gemini/settings.json", "notes.txt"}) {
      std::string p = home_ + "/" + f;
      ASSERT_TRUE(fs::atomic_write(p, std::string("victim's ") + f + "\n", 0600).ok());
      decoys_.push_back(p);
    }
    // A world-writable scratch dir (sticky, like /tmp) where the attacker prepares the data dir.
    shared_ = root_.sub("shared");
    ASSERT_EQ(::mkdir(shared_.c_str(), 0777), 0);
    ::chmod(shared_.c_str(), 01777);
    chown_tree(home_, kVictim);
  }

  static void chown_tree(const std::string& path, uid_t uid) {
    ::lchown(path.c_str(), uid, uid);
    std::error_code ec;
    for (auto& e : stdfs::recursive_directory_iterator(path, ec))
      ::lchown(e.path().c_str(), uid, uid);
  }

  // Every file the adapter ever opens in its data dir, as a link to one of the victim's files.
  void plant_links(const std::string& dir, bool hard) {
    const char* names[] = {"invocations.jsonl",     "trace.json",          "trace.json.lock",
                           "failed-spans.jsonl",    "failed-spans.state",  "flusher.lock",
                           "failed-spans.appended", "failed-spans.slot.0", "failed-spans.slot.7"};
    size_t i = 0;
    for (const char* n : names) {
      std::string target = decoys_[i++ % decoys_.size()];
      std::string link = dir + "/" + n;
      int rc =
          hard ? ::link(target.c_str(), link.c_str()) : ::symlink(target.c_str(), link.c_str());
      ASSERT_EQ(rc, 0) << link << ": " << std::strerror(errno);
    }
    // Predictable temp names (the pids the next runs are likely to get).
    for (int pid = 2; pid < 200 && !hard; ++pid) {
      std::string link = dir + "/trace.json.tmp." + std::to_string(pid);
      (void)::symlink(decoys_[0].c_str(), link.c_str());
    }
  }

  std::map<std::string, Stamp> stamps() const {
    std::map<std::string, Stamp> m;
    for (const auto& d : decoys_) m[d] = stamp(d);
    return m;
  }

  // The victim runs every event (debug log and telemetry on) and a foreground flush against `data`.
  void run_victim(const std::string& data, const std::string& collector_url,
                  const std::string& what) {
    Isolation iso;
    iso.uid = kVictim;
    std::vector<std::string> env = {"HOME=" + home_,
                                    "GEMINI_PLUGIN_DATA=" + data,
                                    "PINTA_GEMINI_DEBUG=1",
                                    "GEMINI_PLUGIN_OPTION_ENDPOINT=" + collector_url,
                                    "GEMINI_PLUGIN_OPTION_API_KEY=victim-secret-key",
                                    "PINTA_OTLP_BACKOFF_MAX_MS=0"};
    for (const Event& e : events()) {
      std::vector<std::string> argv = {adapter()};
      argv.insert(argv.end(), e.args.begin(), e.args.end());
      Ran r = run_isolated(argv, env, e.payload, iso);
      EXPECT_EQ(expect_answer(r, what + " " + e.args[3], /*debug_line_ok=*/true), e.reply);
      debug_lines_ += r.err;
    }
    Ran f = run_isolated({adapter(), "--pinta-flush"}, env, "", iso);
    EXPECT_EQ(f.term_signal, 0);
    EXPECT_EQ(f.err, "") << what;
    // Let any detached flusher finish before the files are compared.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }

  testing::TempDir root_;
  std::string home_, shared_;
  std::vector<std::string> decoys_;
  std::string debug_lines_;  // what debug mode said on stderr, across runs
};

TEST_F(DataDirTrust, AttackerDirFullOfLinksIsRefused) {
  // The attacker's own data dir, writable by everyone, with a symlink per data file to a victim
  // file and a forged queue line. Before the fix the victim's dotfiles were appended to,
  // truncated or replaced, and the forged span went out with the victim's API key.
  fakes::FakeServer collector;
  for (mode_t mode : {0777, 0755}) {
    std::string dir = shared_ + "/attacker-" + std::to_string(mode);
    ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
    plant_links(dir, /*hard=*/false);
    ASSERT_TRUE(
        fs::atomic_write(dir + "/failed-spans.jsonl.forged",
                         R"({"spanId":"00000000000000aa","resource":[],"span":{"name":"forged"}})"
                         "\n",
                         0666)
            .ok());
    ::rename((dir + "/failed-spans.jsonl.forged").c_str(), (dir + "/failed-spans.jsonl").c_str());
    chown_tree(dir, kAttacker);
    ::chmod(dir.c_str(), mode);
    auto before = stamps();
    run_victim(dir, collector.url("/v1/traces"), "attacker dir " + std::to_string(mode));
    EXPECT_EQ(stamps(), before) << "a file outside the data dir changed";
    // Nothing was created in the attacker's dir as the victim.
    std::error_code ec;
    for (auto& e : stdfs::directory_iterator(dir, ec)) {
      struct stat st {};
      ::lstat(e.path().c_str(), &st);
      EXPECT_NE(st.st_uid, kVictim) << e.path();
    }
  }
  EXPECT_EQ(collector.request_count(), 0u) << "the forged queue was delivered";
  EXPECT_NE(debug_lines_.find("data dir refused: "), std::string::npos) << debug_lines_;
}

TEST_F(DataDirTrust, AttackerLinkToAVictimDirIsRefused) {
  // The data dir path is a symlink the attacker planted in a shared dir, pointing at one of the
  // victim's own private directories (which holds a file named like ours): the link's owner
  // decides, not the target's.
  fakes::FakeServer collector;
  const std::string target = home_ + "/.gemini";
  const std::string decoy = target + "/trace.json";
  ASSERT_TRUE(fs::atomic_write(decoy, "victim's own trace.json\n", 0600).ok());
  chown_tree(target, kVictim);
  decoys_.push_back(decoy);
  const std::string link = shared_ + "/pinta-data";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  ASSERT_EQ(::lchown(link.c_str(), kAttacker, kAttacker), 0);
  auto before = stamps();
  run_victim(link, collector.url("/v1/traces"), "attacker's link to a victim dir");
  EXPECT_EQ(stamps(), before) << "a file outside the data dir changed";
  EXPECT_FALSE(fs::exists(target + "/invocations.jsonl"));
  EXPECT_NE(debug_lines_.find("symbolic link owned by another user"), std::string::npos)
      << debug_lines_;
}

TEST_F(DataDirTrust, OwnDirWithPlantedLinksNeverFollowsThem) {
  // The victim's own private data dir, with links planted in it (e.g. while it was shared):
  // each file is opened without following links and checked on its descriptor.
  fakes::FakeServer collector;
  for (bool hard : {false, true}) {
    std::string dir = home_ + (hard ? "/data-hard" : "/data-sym");
    ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
    plant_links(dir, hard);
    ::lchown(dir.c_str(), kVictim, kVictim);
    auto before = stamps();
    run_victim(dir, collector.url("/v1/traces"),
               hard ? "own dir, hard links" : "own dir, symlinks");
    EXPECT_EQ(stamps(), before) << "a file outside the data dir changed";
  }
}

TEST_F(DataDirTrust, GroupWritableOwnDirIsRefused) {
  fakes::FakeServer collector;
  std::string dir = home_ + "/data-shared";
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  ::chmod(dir.c_str(), 0770);
  ::lchown(dir.c_str(), kVictim, kVictim);
  run_victim(dir, collector.url("/v1/traces"), "group-writable dir");
  std::error_code ec;
  EXPECT_TRUE(stdfs::is_empty(dir, ec)) << "the adapter wrote into a group-writable data dir";
  EXPECT_EQ(collector.request_count(), 0u);
  EXPECT_NE(debug_lines_.find("writable by group or others"), std::string::npos) << debug_lines_;
}

TEST_F(DataDirTrust, PrivateDirStillWorks) {
  // The control: the same runs against a fresh private data dir do log, queue and deliver.
  fakes::FakeServer collector;
  std::string dir = home_ + "/.gemini/pinta-gemini-data";
  auto before = stamps();
  run_victim(dir, collector.url("/v1/traces"), "private dir");
  EXPECT_EQ(debug_lines_, "");
  EXPECT_EQ(stamps(), before);
  EXPECT_TRUE(fs::exists(dir + "/invocations.jsonl"));
  EXPECT_TRUE(collector.wait_for_requests(1, std::chrono::milliseconds(5000)));
  struct stat st {};
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, kVictim);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

}  // namespace
}  // namespace pinta
