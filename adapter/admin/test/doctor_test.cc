// Doctor on healthy and broken setups: each broken one yields a "broken" finding with a fix.
#include "pinta/admin/doctor.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <optional>

#include "admin_test_util.h"
#include "pinta/admin/install.h"
#include "pinta/adapter/guard_keeper.h"
#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"
#include "pinta/fakes/fake_server.h"

using namespace pinta::admin;
using nlohmann::json;
using pinta::testing::TempDir;

namespace {

struct Home {
  TempDir t;
  std::string home, adapter, ws;
  Home() {
    home = t.sub("home");
    ws = t.sub("ws");
    std::filesystem::create_directories(home);
    std::filesystem::create_directories(ws);
    adapter = t.sub("bin/pinta-gemini");
    write_text(adapter, "#!/bin/sh\necho '{}'\n", 0755);
    ::setenv("GEMINI_PLUGIN_DATA", (home + "/.gemini/pinta-gemini-data").c_str(), 1);
    for (const char* n :
         {"PINTA_GUARD_ENDPOINT", "PINTA_GUARD_DISABLED", "PINTA_RELAY_TOKEN",
          "PINTA_GUARD_TIMEOUT_MS", "PINTA_GUARD_REVIEW", "GEMINI_PLUGIN_OPTION_ENDPOINT",
          "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
          "GEMINI_PLUGIN_OPTION_HEADERS", "OTEL_EXPORTER_OTLP_HEADERS",
          "GEMINI_PLUGIN_OPTION_API_KEY"})
      ::unsetenv(n);
  }
  InstallOptions install_options(Host h) const {
    InstallOptions o;
    o.host = h;
    o.home = home;
    o.adapter_path = adapter;
    o.profile_dir = pinta::testing::source_dir() + "/hosts/antigravity/profiles";
    return o;
  }
  void install(Host h) const {
    auto p = plan_install(install_options(h));
    ASSERT_TRUE(p) << p.error().message;
    ASSERT_TRUE(apply(*p));
  }
  // With the network probes on (fake servers on 127.0.0.1), a generous timeout. A loaded machine
  // can still take longer than the default 50 ms guard budget for a loopback probe, which doctor
  // reports as a warning of its own: unless a test sets PINTA_GUARD_TIMEOUT_MS, the probes run
  // with the largest budget, so no finding here depends on the machine's load.
  DoctorReport probe() const {
    DoctorOptions o;
    o.home = home;
    o.workspace = ws;
    o.profile_dir = pinta::testing::source_dir() + "/hosts/antigravity/profiles";
    o.probe_timeout_ms = 5000;
    const bool own_budget = std::getenv("PINTA_GUARD_TIMEOUT_MS") == nullptr;
    if (own_budget) ::setenv("PINTA_GUARD_TIMEOUT_MS", "10000", 1);
    DoctorReport r = run_doctor(o);
    if (own_budget) ::unsetenv("PINTA_GUARD_TIMEOUT_MS");
    return r;
  }
  DoctorReport doctor() const {
    DoctorOptions o;
    o.home = home;
    o.workspace = ws;
    o.profile_dir = pinta::testing::source_dir() + "/hosts/antigravity/profiles";
    o.probe_network = false;
    return run_doctor(o);
  }
};

// The broken findings of one area, as "message | fix" lines for failure output.
std::vector<Finding> broken(const DoctorReport& r, const std::string& area) {
  std::vector<Finding> out;
  for (const auto& f : r.findings)
    if (f.level == "broken" && f.area == area) out.push_back(f);
  return out;
}

}  // namespace

TEST(Doctor, HealthyInstallOfBothHostsIsNotBroken) {
  Home s;
  s.install(Host::kGemini);
  s.install(Host::kAntigravity);
  auto r = s.doctor();
  EXPECT_FALSE(r.broken()) << r.to_text();
  int ok = 0;
  for (const auto& f : r.findings) ok += f.level == "ok";
  EXPECT_GE(ok, 2) << r.to_text();
  // The events named come from the loader's plan per profile: agy 1.0 has no SessionStart hook
  // (profile agy-1.0, shared/reference/antigravity-hooks.md §8: dropped at parse on 1.0.5); later
  // profiles fire all six.
  std::string text = r.to_text();
  EXPECT_NE(text.find("[agy-1.0] pinta-gemini would fire on PostInvocation, PostToolUse, "
                      "PreInvocation, PreToolUse, Stop (not on SessionStart)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[agy-1.2] pinta-gemini would fire on PostInvocation, PostToolUse, "
                      "PreInvocation, PreToolUse, SessionStart, Stop"),
            std::string::npos)
      << text;
}

TEST(Doctor, NothingInstalledIsInfoNotBroken) {
  Home s;
  auto r = s.doctor();
  EXPECT_FALSE(r.broken()) << r.to_text();
}

TEST(Doctor, HooksDisabledInSettingsIsBroken) {
  Home s;
  s.install(Host::kGemini);
  write_text(s.home + "/.gemini/settings.json", R"({"hooksConfig":{"enabled":false}})");
  auto b = broken(s.doctor(), "gemini");
  ASSERT_FALSE(b.empty());
  EXPECT_NE(b[0].message.find("hooksConfig.enabled"), std::string::npos);
  EXPECT_FALSE(b[0].fix.empty());
}

TEST(Doctor, InvalidSettingsJsonIsBroken) {
  Home s;
  s.install(Host::kGemini);
  write_text(s.home + "/.gemini/settings.json", "{\"a\": ");
  EXPECT_FALSE(broken(s.doctor(), "gemini").empty());
}

TEST(Doctor, DisabledByEnablementFileIsBroken) {
  Home s;
  s.install(Host::kGemini);
  write_text(s.home + "/.gemini/extensions/extension-enablement.json",
             R"({"pinta-gemini":{"overrides":["!)" + s.t.path() + "/*\"]}}");
  auto b = broken(s.doctor(), "gemini");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_NE(b[0].message.find("disabled"), std::string::npos);
}

// Registers our BeforeTool hook in the user's settings.json as well (matcher "").
static void write_settings_hook(const Home& s) {
  json settings = {
      {"hooks",
       {{"BeforeTool",
         {{{"matcher", ""},
           {"hooks",
            {{{"type", "command"}, {"command", gemini_command(s.adapter, "BeforeTool")}}}}}}}}}};
  write_text(s.home + "/.gemini/settings.json", settings.dump());
}

TEST(Doctor, SameHookInSettingsAndExtensionFiresTwice) {
  Home s;
  s.install(Host::kGemini);
  write_settings_hook(s);
  auto b = broken(s.doctor(), "gemini");
  ASSERT_FALSE(b.empty());
  EXPECT_NE(b[0].message.find("fires 2 times on BeforeTool"), std::string::npos) << b[0].message;
}

TEST(Doctor, MissingAdapterIsBroken) {
  Home s;
  s.install(Host::kGemini);
  std::filesystem::remove(s.adapter);
  EXPECT_FALSE(broken(s.doctor(), "gemini").empty());
}

TEST(Doctor, WrappedLifecycleEventDropsTheFileUnderSomeProfile) {
  Home s;
  // A lifecycle event in grouped form: rejected as a whole by strict builds (reference §2.3).
  json bad = {{"pinta-gemini",
               {{"Stop",
                 {{{"matcher", ""},
                   {"hooks",
                    {{{"type", "command"},
                      {"command", s.adapter + " --agent antigravity --event Stop"}}}}}}}}}};
  write_text(s.home + "/.gemini/config/hooks.json", bad.dump());
  auto b = broken(s.doctor(), "antigravity");
  ASSERT_FALSE(b.empty());
  EXPECT_FALSE(b[0].fix.empty());
}

TEST(Doctor, ReportsLintErrorsInTheFilesItReads) {
  Home s;
  // A user's own Gemini hook written flat: Gemini CLI discards it (docs/lint.md event-shape).
  write_text(s.home + "/.gemini/settings.json",
             "{\n  \"hooks\": {\"BeforeTool\": [\n    {\"type\": \"command\", \"command\": "
             "\"echo hi\"}]}\n}\n");
  std::vector<Finding> lint;
  for (const auto& f : s.doctor().findings)
    if (f.area == "lint") lint.push_back(f);
  ASSERT_EQ(lint.size(), 1u);
  EXPECT_EQ(lint[0].level, "warn");
  EXPECT_NE(lint[0].message.find("settings.json:3:5: event-shape: "), std::string::npos)
      << lint[0].message;
  EXPECT_EQ(lint[0].detail["rule"], "event-shape");
  EXPECT_FALSE(lint[0].fix.empty());
  // Fixed: nothing from lint.
  write_text(
      s.home + "/.gemini/settings.json",
      R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}})");
  for (const auto& f : s.doctor().findings) EXPECT_NE(f.area, "lint") << f.message;
}

// Claude Code's settings files are linted too: a hook without "type" rejects the file's hooks.
TEST(Doctor, ReportsLintErrorsInClaudeCodeSettings) {
  Home s;
  write_text(s.home + "/.claude/settings.json",
             "{\"hooks\": {\"Stop\": [{\"hooks\": [\n  {\"command\": \"echo hi\"}]}]}}\n");
  std::vector<Finding> lint;
  for (const auto& f : s.doctor().findings)
    if (f.area == "lint") lint.push_back(f);
  ASSERT_EQ(lint.size(), 1u);
  EXPECT_EQ(lint[0].detail["rule"], "file-rejected");
  EXPECT_NE(lint[0].message.find(".claude/settings.json:2:3: file-rejected: "), std::string::npos)
      << lint[0].message;
  write_text(s.home + "/.claude/settings.json",
             R"({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}})");
  for (const auto& f : s.doctor().findings) EXPECT_NE(f.area, "lint") << f.message;
}

TEST(Doctor, RegisteredInGlobalAndWorkspaceFiresTwice) {
  Home s;
  s.install(Host::kAntigravity);
  auto o = s.install_options(Host::kAntigravity);
  o.workspace = s.ws;
  auto p = plan_install(o);
  ASSERT_TRUE(p);
  ASSERT_TRUE(apply(*p));
  bool twice = false;
  for (const auto& f : broken(s.doctor(), "antigravity"))
    twice |= f.message.find("more than once") != std::string::npos;
  EXPECT_TRUE(twice) << s.doctor().to_text();
}

TEST(Doctor, WorldWritableEnvFileIsBroken) {
  Home s;
  write_text(s.home + "/.gemini/pinta-gemini.env", "PINTA_GUARD_ENDPOINT=http://127.0.0.1:1/\n",
             0666);
  auto b = broken(s.doctor(), "env");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].fix, "chmod 600 " + s.home + "/.gemini/pinta-gemini.env");
}

// ---- The env file: what the adapter skips is not ok ------------------------

namespace {
std::vector<Finding> env_findings(const DoctorReport& r, const std::string& level) {
  std::vector<Finding> out;
  for (const auto& f : r.findings)
    if (f.area == "env" && f.level == level) out.push_back(f);
  return out;
}
}  // namespace

// A file saved with a UTF-8 byte order mark and CRLF (Notepad, PowerShell 5 `Out-File -Encoding
// utf8`) sets its first line, the guard endpoint. Failed before: "[ok] env file loaded" while the
// endpoint was not set (the BOM made line 1 a skipped line).
TEST(Doctor, EnvFileWithAByteOrderMarkSetsItsFirstLine) {
  Home s;
  write_text(s.home + "/.gemini/pinta-gemini.env",
             "\xEF\xBB\xBFPINTA_GUARD_ENDPOINT=http://127.0.0.1:1/guard\r\nPINTA_RELAY_TOKEN=t\r\n",
             0600);
  const DoctorReport r = s.doctor();
  const char* endpoint = std::getenv("PINTA_GUARD_ENDPOINT");
  EXPECT_STREQ(endpoint, "http://127.0.0.1:1/guard");
  EXPECT_TRUE(env_findings(r, "warn").empty()) << r.to_text();
  EXPECT_TRUE(env_findings(r, "broken").empty()) << r.to_text();
  auto ok = env_findings(r, "ok");
  ASSERT_EQ(ok.size(), 1u) << r.to_text();
  EXPECT_NE(ok[0].message.find("byte order mark"), std::string::npos) << ok[0].message;
  ::unsetenv("PINTA_GUARD_ENDPOINT");
  ::unsetenv("PINTA_RELAY_TOKEN");
}

// Every skipped line is a finding that names its line and, where it can be told, its variable,
// never its value: broken when it is one of the adapter's own (a dropped setting), a warning
// otherwise; the file's own finding is not ok either. Failed before: "[ok] env file ... loaded".
TEST(Doctor, SkippedEnvLinesAreNotOkAndNamedWithoutTheirValues) {
  Home s;
  write_text(s.home + "/.gemini/pinta-gemini.env",
             "PINTA_GUARD_ENDPOINT=\"http://127.0.0.1:1/secret-path\n"  // 1: quote not closed
             "sk_live_secret_token\n"                                  // 2: no '='
             "\xE2\x80\x8BPINTA_RELAY_TOKEN=secret-token\n"             // 3: zero-width space
             "MY_TOOL_SETTING='secret-x' y\n"                          // 4: text after the quote
             "PINTA_GUARD_TIMEOUT_MS=300\n",
             0600);
  const DoctorReport r = s.doctor();
  EXPECT_TRUE(r.broken());
  const std::string text = r.to_text(), json_text = r.to_json().dump();
  EXPECT_EQ(text.find("secret"), std::string::npos) << text;
  EXPECT_EQ(json_text.find("secret"), std::string::npos) << json_text;
  EXPECT_TRUE(env_findings(r, "ok").empty()) << text;
  auto b = env_findings(r, "broken");
  ASSERT_EQ(b.size(), 3u) << text;  // the file, line 1, line 3
  EXPECT_NE(b[0].message.find("4 malformed line(s)"), std::string::npos) << b[0].message;
  EXPECT_NE(b[0].message.find("line 1, 2, 3, 4"), std::string::npos) << b[0].message;
  EXPECT_EQ(b[1].message, "env file line 1 (PINTA_GUARD_ENDPOINT) is skipped: quote not closed (a value ends on its own line)");
  EXPECT_EQ(b[1].detail["line"], 1);
  EXPECT_EQ(b[1].detail["key"], "PINTA_GUARD_ENDPOINT");
  EXPECT_EQ(b[2].message, "env file line 3 (<U+200B>PINTA_RELAY_TOKEN) is skipped: not a variable name");
  EXPECT_FALSE(b[2].fix.empty());
  auto w = env_findings(r, "warn");
  ASSERT_EQ(w.size(), 2u) << text;
  EXPECT_EQ(w[0].message, "env file line 2 is skipped: no '=' (not KEY=value)");
  EXPECT_EQ(w[1].message, "env file line 4 (MY_TOOL_SETTING) is skipped: text after the closing quote");
  EXPECT_STREQ(std::getenv("PINTA_GUARD_TIMEOUT_MS"), "300");
  for (const char* n : {"PINTA_GUARD_TIMEOUT_MS", "PINTA_GUARD_ENDPOINT", "PINTA_RELAY_TOKEN"})
    ::unsetenv(n);
}

// A UTF-16 file is broken, with a one-line fix. Failed before: "[ok] env file ... loaded" (every
// line skipped).
TEST(Doctor, Utf16EnvFileIsBrokenWithTheFix) {
  Home s;
  std::string u16 = "\xFF\xFE";
  for (char c : std::string("PINTA_GUARD_ENDPOINT=http://127.0.0.1:1/guard\r\n")) {
    u16.push_back(c);
    u16.push_back('\0');
  }
  const std::string path = s.home + "/.gemini/pinta-gemini.env";
  write_text(path, u16, 0600);
  const DoctorReport r = s.doctor();
  EXPECT_EQ(std::getenv("PINTA_GUARD_ENDPOINT"), nullptr);
  auto b = env_findings(r, "broken");
  ASSERT_EQ(b.size(), 1u) << r.to_text();
  EXPECT_NE(b[0].message.find("UTF-16"), std::string::npos) << b[0].message;
  EXPECT_NE(b[0].fix.find("UTF-8"), std::string::npos) << b[0].fix;
  EXPECT_NE(b[0].fix.find("iconv -f UTF-16 -t UTF-8 " + path), std::string::npos) << b[0].fix;
  EXPECT_EQ(b[0].fix.find('\n'), std::string::npos);
}

TEST(Doctor, RetryQueueLengthAndLastError) {
  Home s;
  write_text(s.home + "/.gemini/pinta-gemini-data/failed-spans.jsonl",
             "{\"span\":1}\n{\"span\":2,\"error\":\"connect refused\"}\n");
  auto r = s.doctor();
  bool seen = false;
  for (const auto& f : r.findings)
    if (f.area == "data") {
      EXPECT_EQ(f.detail["queue_length"], 2);
      EXPECT_EQ(f.detail["last_error"], "connect refused");
      seen = true;
    }
  EXPECT_TRUE(seen);
}

// Spans in the overflow slots (appends that found the queue busy) are waiting too.
TEST(Doctor, RetryQueueLengthCountsTheOverflowSlots) {
  Home s;
  const std::string dir = s.home + "/.gemini/pinta-gemini-data/";
  write_text(dir + "failed-spans.jsonl", "{\"span\":1}\n");
  write_text(dir + "failed-spans.slot.0", "{\"span\":2}\n", 0600);
  write_text(dir + "failed-spans.slot.5", "{\"span\":3}\n{\"span\":4}\n", 0600);
  bool seen = false;
  for (const auto& f : s.doctor().findings)
    if (f.area == "data") {
      EXPECT_EQ(f.detail["queue_length"], 4) << f.message;
      EXPECT_EQ(f.detail["in_overflow_slots"], 3);
      EXPECT_NE(f.message.find("4 span(s) waiting"), std::string::npos) << f.message;
      seen = true;
    }
  EXPECT_TRUE(seen);
}

// An https guard: doctor says whether its keeper runs (GUARD-13); a listener of ours at the
// keeper's socket is reported with its pid.
TEST(Doctor, ReportsTheGuardKeeper) {
  Home s;
  const std::string dir = s.home + "/.gemini/pinta-gemini-data";
  std::filesystem::create_directories(dir);
  ::chmod(dir.c_str(), 0700);
  ::setenv("PINTA_GUARD_ENDPOINT", "https://127.0.0.1:1/guard", 1);
  auto keeper_finding = [&]() -> std::optional<Finding> {
    for (const auto& f : s.doctor().findings)
      if (f.area == "guard") return f;
    return std::nullopt;
  };
  auto none = keeper_finding();
  ASSERT_TRUE(none.has_value());
  EXPECT_NE(none->message.find("no guard keeper running"), std::string::npos) << none->message;

  const auto place = pinta::adapter::keeper_place(dir, "https://127.0.0.1:1/guard");
  ASSERT_FALSE(place.socket_path.empty());
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof a.sun_path, "%s", place.socket_path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  auto running = keeper_finding();
  ::close(fd);
  ASSERT_TRUE(running.has_value());
  EXPECT_EQ(running->level, "ok");
  EXPECT_NE(running->message.find("pid " + std::to_string(::getpid())), std::string::npos) << running->message;

  ::setenv("PINTA_GUARD_KEEPER", "off", 1);
  auto off = keeper_finding();
  ::unsetenv("PINTA_GUARD_KEEPER");
  ASSERT_TRUE(off.has_value());
  EXPECT_NE(off->message.find("guard keeper off"), std::string::npos) << off->message;
  ::unsetenv("PINTA_GUARD_ENDPOINT");
}

TEST(Doctor, SharedDataDirIsBrokenAndSaysWhy) {
  // The adapter refuses a data dir writable by group or others (ENV-9); doctor says so.
  Home s;
  const std::string dir = s.home + "/.gemini/pinta-gemini-data";
  std::filesystem::create_directories(dir);
  ::chmod(dir.c_str(), 0777);
  auto b = broken(s.doctor(), "data");
  ASSERT_EQ(b.size(), 1u) << s.doctor().to_text();
  EXPECT_NE(b[0].message.find("writable by group or others"), std::string::npos) << b[0].message;
  EXPECT_EQ(b[0].fix, "chmod 700 " + dir + " (owner: the user running the hosts)");
  ::chmod(dir.c_str(), 0700);
  EXPECT_TRUE(broken(s.doctor(), "data").empty());
}

TEST(Doctor, GuardUnreachableIsBrokenWithTiming) {
  Home s;
  ::setenv("PINTA_GUARD_ENDPOINT", "http://127.0.0.1:1/guard", 1);
  DoctorOptions o;
  o.home = s.home;
  o.workspace = s.ws;
  o.probe_timeout_ms = 500;
  auto b = broken(run_doctor(o), "endpoint");
  ::unsetenv("PINTA_GUARD_ENDPOINT");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_TRUE(b[0].detail.contains("ms"));
}

// Reachability goes through the adapter's own HTTP client (pinta::http): a live guard answers.
TEST(Doctor, GuardReachableIsOkWithStatusAndTiming) {
  Home s;
  pinta::fakes::FakeServer guard({}, pinta::fakes::Reply{200, R"({"decision":"ALLOW"})"});
  ::setenv("PINTA_GUARD_ENDPOINT", guard.url("/guard").c_str(), 1);
  DoctorOptions o;
  o.home = s.home;
  o.workspace = s.ws;
  o.probe_timeout_ms = 2000;
  auto r = run_doctor(o);
  ::unsetenv("PINTA_GUARD_ENDPOINT");
  bool seen = false;
  for (const auto& f : r.findings)
    if (f.area == "endpoint" && f.detail.contains("status")) {
      EXPECT_EQ(f.detail["status"], 200) << r.to_text();
      EXPECT_TRUE(f.detail.contains("ms"));
      EXPECT_NE(f.level, "broken") << r.to_text();
      seen = true;
    }
  EXPECT_TRUE(seen) << r.to_text();
  ASSERT_EQ(guard.request_count(), 2u);  // the probe and the body-limit probe
  EXPECT_EQ(guard.requests()[0].path, "/guard");
}

// "Would it fire" is the Gemini CLI 0.61 emulator's planner: a matcher that excludes write_file
// leaves BeforeTool/AfterTool silent even though the entries are there.
TEST(Doctor, MatcherThatNeverMatchesWouldNotFire) {
  Home s;
  s.install(Host::kGemini);
  std::string hp = s.home + "/.gemini/extensions/pinta-gemini/hooks/hooks.json";
  auto text = pinta::fs::read_file(hp);
  ASSERT_TRUE(text);
  json j = json::parse(*text);
  for (const char* e : {"BeforeTool", "AfterTool"})
    for (auto& def : j["hooks"][e]) def["matcher"] = "^read_file$";
  write_text(hp, j.dump());
  auto b = broken(s.doctor(), "gemini");
  ASSERT_EQ(b.size(), 1u) << s.doctor().to_text();
  EXPECT_NE(b[0].message.find("would not fire on: BeforeTool, AfterTool"), std::string::npos)
      << b[0].message;
  EXPECT_EQ(b[0].detail["fires"]["BeforeTool"], 0);
  EXPECT_EQ(b[0].detail["fires"]["SessionStart"], 1);
}

TEST(Doctor, OurHookInHooksConfigDisabledIsBroken) {
  Home s;
  s.install(Host::kGemini);
  write_text(s.home + "/.gemini/settings.json",
             R"({"hooksConfig":{"enabled":true,"disabled":["pinta-gemini"]}})");
  auto b = broken(s.doctor(), "gemini");
  ASSERT_FALSE(b.empty()) << s.doctor().to_text();
  EXPECT_NE(b[0].message.find("hooksConfig.disabled"), std::string::npos) << b[0].message;
}

TEST(Doctor, SettingsHookInUntrustedFolderWarns) {
  Home s;
  write_settings_hook(s);
  auto r = s.doctor();
  bool warned = false;
  for (const auto& f : r.findings)
    warned |= f.level == "warn" && f.message.find("not a trusted folder") != std::string::npos;
  EXPECT_TRUE(warned) << r.to_text();
}

// Our hook in settings.json where Gemini CLI drops it (lint says why): under an event name it does
// not know, or written flat (no "hooks" array). The user did register pinta-gemini, so doctor says
// it would not fire instead of "not installed".
TEST(Doctor, OurSettingsHookTheCliDropsIsBrokenNotAbsent) {
  Home s;
  const json handler = {{"type", "command"}, {"command", gemini_command(s.adapter, "BeforeTool")}};
  const json unknown_event = {{"hooks", {{"BeforeToolUse", {{{"hooks", {handler}}}}}}}};
  const json flat = {{"hooks", {{"BeforeTool", {handler}}}}};
  for (const json& settings : {unknown_event, flat}) {
    write_text(s.home + "/.gemini/settings.json", settings.dump());
    auto r = s.doctor();
    for (const auto& f : r.findings)
      EXPECT_EQ(f.message.find("not installed for Gemini CLI"), std::string::npos)
          << settings.dump() << "\n"
          << f.message;
    bool would_not_fire = false;
    for (const auto& f : broken(r, "gemini"))
      would_not_fire |= f.message.find("would not fire on: ") != std::string::npos;
    EXPECT_TRUE(would_not_fire) << settings.dump() << "\n" << r.to_text();
  }
}

// Our extension's hooks/hooks.json as Gemini CLI 0.61.0 loads it (§1.6): invalid JSON or a
// "hooks" that is not an object skips the whole file.
TEST(Doctor, UnloadableExtensionHooksFileIsBroken) {
  for (const char* text : {"{\"hooks\": ", "{\"hooks\": []}", "[]"}) {
    Home s;
    s.install(Host::kGemini);
    write_text(s.home + "/.gemini/extensions/pinta-gemini/hooks/hooks.json", text);
    bool unloadable = false;
    for (const auto& f : broken(s.doctor(), "gemini"))
      unloadable |= f.message.find("hooks.json is not loadable") != std::string::npos;
    EXPECT_TRUE(unloadable) << text << "\n" << s.doctor().to_text();
  }
}

// A settings.json hook of ours whose program is gone is reported like an extension's.
TEST(Doctor, SettingsHookWithMissingProgramIsBroken) {
  Home s;
  write_settings_hook(s);
  std::filesystem::remove(s.adapter);
  bool reported = false;
  for (const auto& f : broken(s.doctor(), "gemini"))
    reported |= f.message.find("which is not an executable") != std::string::npos &&
                f.message.find("/.gemini/settings.json") != std::string::npos;
  EXPECT_TRUE(reported) << s.doctor().to_text();
}

TEST(GeminiEnablement, LastMatchingRuleWins) {
  json en = {{"x", {{"overrides", {"!/a/*", "/a/b/*"}}}}};
  EXPECT_FALSE(gemini_extension_enabled(en, "x", "/a"));
  EXPECT_FALSE(gemini_extension_enabled(en, "x", "/a/c"));
  EXPECT_TRUE(gemini_extension_enabled(en, "x", "/a/b"));
  EXPECT_TRUE(gemini_extension_enabled(en, "x", "/a/b/c"));
  EXPECT_TRUE(gemini_extension_enabled(en, "y", "/a"));
  json exact = {{"x", {{"overrides", {"!/a/"}}}}};  // no '*': that directory only
  EXPECT_FALSE(gemini_extension_enabled(exact, "x", "/a"));
  EXPECT_TRUE(gemini_extension_enabled(exact, "x", "/a/b"));
}

// ---- deel-local-cli 1.17: the emulator's loader (seed 004 hooks.js 훅읽기) on the real files ----

namespace {
std::vector<Finding> of_area(const DoctorReport& r, const std::string& area,
                             const std::string& level) {
  std::vector<Finding> out;
  for (const auto& f : r.findings)
    if (f.area == area && f.level == level) out.push_back(f);
  return out;
}
}  // namespace

TEST(DoctorDeel, InstalledFiresOnAllFourEvents) {
  Home s;
  ::unsetenv("DEEL_HOME");
  ::unsetenv("DEEL_HOOKS");
  s.install(Host::kDeel);
  auto r = s.doctor();
  EXPECT_TRUE(broken(r, "deel").empty());
  auto ok = of_area(r, "deel", "ok");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].detail["fires"], (json{{"도구전", 1}, {"도구후", 1}, {"말전", 1}, {"턴끝", 1}}));
  EXPECT_TRUE(of_area(r, "deel", "warn").empty());
}

TEST(DoctorDeel, NotInstalledIsInfoOnly) {
  Home s;
  ::unsetenv("DEEL_HOME");
  auto r = s.doctor();
  EXPECT_TRUE(broken(r, "deel").empty());
  ASSERT_EQ(of_area(r, "deel", "info").size(), 1u);
}

TEST(DoctorDeel, DisabledByEnvironmentIsBroken) {
  Home s;
  ::unsetenv("DEEL_HOME");
  s.install(Host::kDeel);
  ::setenv("DEEL_HOOKS", "off", 1);
  auto r = s.doctor();
  ::unsetenv("DEEL_HOOKS");
  auto b = broken(r, "deel");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_NE(b[0].message.find("DEEL_HOOKS=off"), std::string::npos);
}

TEST(DoctorDeel, HostsReasonsUnreadableFileAndMissingPassOnFailureAreReported) {
  Home s;
  ::unsetenv("DEEL_HOME");
  ::unsetenv("DEEL_HOOKS");
  const std::string cmd = s.adapter + " --agent deel --event PreToolUse";
  // A handler without onError (fails closed), an unknown event and an invalid matcher.
  write_text(s.home + "/.deel/hooks.json",
             R"({"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"command":")" + cmd +
                 R"("}]}],"BeforeLunch":[{"command":"x"}],"PostToolUse":[{"matcher":"(","hooks":[{"command":"y"}]}]}})");
  auto r = s.doctor();
  auto warns = of_area(r, "deel", "warn");
  std::string all;
  for (const auto& w : warns) all += w.message + "\n";
  EXPECT_NE(all.find("모르는 자리: BeforeLunch"), std::string::npos) << all;  // the host's words
  EXPECT_NE(all.find("명령이나 무늬가 잘못 적혀 있습니다"), std::string::npos) << all;
  EXPECT_NE(all.find("onError"), std::string::npos) << all;
  auto ok = of_area(r, "deel", "ok");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].detail["fires"]["도구전"], 1);
  EXPECT_EQ(ok[0].detail["fires"]["도구후"], 0);
  // A file deel cannot parse that mentions us: broken.
  write_text(s.home + "/.deel/hooks.json", "{ \"hooks\": [ \"" + cmd + "\" ");
  r = s.doctor();
  EXPECT_FALSE(broken(r, "deel").empty());
}

TEST(DoctorDeel, ProjectFileIsReportedAsReadOnlyInATrustedFolder) {
  Home s;
  ::unsetenv("DEEL_HOME");
  auto o = s.install_options(Host::kDeel);
  o.workspace = s.ws;
  auto p = plan_install(o);
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_TRUE(apply(*p));
  auto r = s.doctor();
  std::string all;
  for (const auto& w : of_area(r, "deel", "warn")) all += w.message + "\n";
  EXPECT_NE(all.find("trusts the folder"), std::string::npos) << all;
  EXPECT_EQ(of_area(r, "deel", "ok").size(), 1u);
}

// agy 1.2.1/1.2.2 on macOS arm64 load hooks but never run them (profile agy-1.2.1-darwin-arm64,
// antigravity-cli#1008): doctor must not say "would fire" there.
TEST(Doctor, AgyBuildThatNeverRunsHooksIsAWarningNotWouldFire) {
  Home s;
  s.install(Host::kAntigravity);
  auto r = s.doctor();
  bool warned = false;
  for (const auto& f : r.findings) {
    if (f.area != "antigravity" || f.message.find("[agy-1.2.1-darwin-arm64]") == std::string::npos)
      continue;
    EXPECT_EQ(f.level, "warn") << f.message;
    EXPECT_EQ(f.message.find("would fire"), std::string::npos) << f.message;
    warned = warned || f.message.find("never run") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

// The flusher's record (failed-spans.state, failed-spans.unwritten) reaches the user: a redirect
// keeps spans queued, refused spans, spans that could not be queued, spans dropped at the cap,
// spans set aside as a poison batch.
TEST(Doctor, DeliveryStateFromTheFlusher) {
  Home s;
  const std::string dir = s.home + "/.gemini/pinta-gemini-data";
  write_text(dir + "/failed-spans.state",
             R"({"appended":9,"delivered":3,"dropped_cap":2,"dropped_http":1,"redirects":4,)"
             R"("last_status":308,"unwritten":0,"lines":0,"corrupt":0,"rejected":0,"retries":5,"poisoned":6})");
  write_text(dir + "/failed-spans.unwritten", "xxx");
  auto r = s.doctor();
  std::string text;
  int warns = 0;
  for (const auto& f : r.findings)
    if (f.area == "telemetry") {
      text += f.message + "\n";
      warns += f.level == "warn";
      EXPECT_EQ(f.detail["redirects"], 4);
      EXPECT_EQ(f.detail["unwritten"], 3);
    }
  EXPECT_EQ(warns, 5) << text;
  EXPECT_NE(text.find("redirect 4 time(s) (last status: HTTP 308)"), std::string::npos) << text;
  EXPECT_NE(text.find("1 span(s) refused by the collector"), std::string::npos) << text;
  EXPECT_NE(text.find("3 span(s) could not be queued"), std::string::npos) << text;
  EXPECT_NE(text.find("2 oldest span(s) dropped"), std::string::npos) << text;
  EXPECT_NE(text.find("6 span(s) set aside as a poison batch"), std::string::npos) << text;
  EXPECT_NE(text.find("failed-spans.poison.jsonl"), std::string::npos) << text;

  // A healthy record is one ok line; doctor created nothing.
  write_text(dir + "/failed-spans.state", R"({"delivered":12,"last_status":200})");
  std::filesystem::remove(dir + "/failed-spans.unwritten");
  text.clear();
  for (const auto& f : s.doctor().findings)
    if (f.area == "telemetry") text += f.level + ": " + f.message + "\n";
  EXPECT_EQ(text, "ok: 12 span(s) delivered; last collector status: HTTP 200\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "/failed-spans.unwritten"));
}

// ---- Guard and collector: as the adapter resolves, sends and judges them ----------------------

namespace {

// Sets an environment variable for one scope (the doctor reads the merged environment).
struct ScopedEnv {
  std::string name;
  ScopedEnv(std::string n, const std::string& value) : name(std::move(n)) {
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

std::vector<Finding> endpoint_findings(const DoctorReport& r, const std::string& level) {
  return of_area(r, "endpoint", level);
}

std::string all_text(const DoctorReport& r) { return r.to_text(); }

}  // namespace

// The collector is where the adapter exports: GEMINI_PLUGIN_OPTION_ENDPOINT first (it used to be
// ignored: doctor said "spans are not exported" while the adapter exported to it), then
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, then OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces; the probe
// carries the headers the adapter sends (it used to send none).
TEST(DoctorEndpoints, CollectorIsResolvedAsTheAdapterResolvesIt) {
  Home s;
  pinta::fakes::FakeServer plugin, traces, base;
  {
    ScopedEnv a("GEMINI_PLUGIN_OPTION_ENDPOINT", plugin.url("/plugin/v1/traces"));
    auto r = s.probe();
    auto ok = endpoint_findings(r, "ok");
    ASSERT_EQ(ok.size(), 1u) << all_text(r);
    EXPECT_EQ(ok[0].detail["status"], 200);
    EXPECT_EQ(ok[0].detail["from"], "GEMINI_PLUGIN_OPTION_ENDPOINT");
    ASSERT_EQ(plugin.request_count(), 1u);
    EXPECT_EQ(plugin.requests()[0].path, "/plugin/v1/traces");
  }
  {
    ScopedEnv a("GEMINI_PLUGIN_OPTION_ENDPOINT", plugin.url("/plugin/v1/traces"));
    ScopedEnv b("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", traces.url("/t"));
    ScopedEnv c("OTEL_EXPORTER_OTLP_ENDPOINT", base.url("/base/"));
    ScopedEnv h("GEMINI_PLUGIN_OPTION_HEADERS", "authorization=Bearer%20abc,x-team=red");
    ScopedEnv k("GEMINI_PLUGIN_OPTION_API_KEY", "key-1");
    auto r = s.probe();
    std::string text = all_text(r);
    EXPECT_NE(text.find("from GEMINI_PLUGIN_OPTION_ENDPOINT) (it wins over "
                        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and OTEL_EXPORTER_OTLP_ENDPOINT)"),
              std::string::npos)
        << text;
    ASSERT_EQ(plugin.request_count(), 2u);
    EXPECT_EQ(traces.request_count() + base.request_count(), 0u);
    auto req = plugin.requests()[1];
    EXPECT_EQ(req.header("authorization"), "Bearer abc");
    EXPECT_EQ(req.header("x-team"), "red");
    EXPECT_EQ(req.header("x-pinta-relay-token"), "key-1");
  }
  {
    ScopedEnv b("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", traces.url("/t"));
    ScopedEnv c("OTEL_EXPORTER_OTLP_ENDPOINT", base.url("/base/"));
    (void)s.probe();
    ASSERT_EQ(traces.request_count(), 1u);
    EXPECT_EQ(traces.requests()[0].path, "/t");
  }
  {
    ScopedEnv c("OTEL_EXPORTER_OTLP_ENDPOINT", base.url("/base/"));
    (void)s.probe();
    ASSERT_EQ(base.request_count(), 1u);
    EXPECT_EQ(base.requests()[0].path, "/base/v1/traces");
  }
  // The first non-empty variable decides, even when it is not a URL: telemetry is then off (the
  // adapter does not fall back to the next one), and doctor says so.
  {
    ScopedEnv a("GEMINI_PLUGIN_OPTION_ENDPOINT", "collector.internal:4318");
    ScopedEnv c("OTEL_EXPORTER_OTLP_ENDPOINT", base.url("/base/"));
    auto r = s.probe();
    auto b = broken(r, "endpoint");
    ASSERT_EQ(b.size(), 1u) << all_text(r);
    EXPECT_NE(b[0].message.find("GEMINI_PLUGIN_OPTION_ENDPOINT is set but is not an http(s) URL"),
              std::string::npos)
        << b[0].message;
    EXPECT_EQ(base.request_count(), 1u);  // not probed
  }
  // None set: not exported, not broken.
  auto r = s.probe();
  EXPECT_TRUE(broken(r, "endpoint").empty()) << all_text(r);
  EXPECT_NE(all_text(r).find("spans are not exported"), std::string::npos);
}

// The guard is asked exactly as a gate event asks it: the relay token in x-pinta-relay-token, the
// event's request body (guard_request_body) for a harmless read_file call. The old probe sent
// neither the token nor the event's body shape.
TEST(DoctorEndpoints, GuardIsAskedAsAGateEventAsksIt) {
  Home s;
  pinta::fakes::FakeServer guard({}, pinta::fakes::Reply{200, R"({"decision":"DENY"})"});
  ScopedEnv e("PINTA_GUARD_ENDPOINT", guard.url("/guard"));
  ScopedEnv t("PINTA_RELAY_TOKEN", "relay-123");
  auto r = s.probe();
  auto ok = endpoint_findings(r, "ok");
  ASSERT_EQ(ok.size(), 2u) << all_text(r);
  EXPECT_EQ(ok[0].detail["decision"], "DENY");  // any verdict means the guard works
  // The probe, then the body-limit probe (a request near the bound).
  ASSERT_EQ(guard.request_count(), 2u);
  EXPECT_GT(guard.requests()[1].body.size(), 60000u);
  EXPECT_LE(guard.requests()[1].body.size(), 65536u);
  const auto req = guard.requests()[0];
  EXPECT_EQ(req.header("x-pinta-relay-token"), "relay-123");
  EXPECT_EQ(req.header("content-type"), "application/json");
  json body = json::parse(req.body, nullptr, false);
  ASSERT_TRUE(body.is_object()) << req.body;
  const json& in = body["input"];
  EXPECT_EQ(in["toolName"], "read_file");
  EXPECT_EQ(in["hook"], "BeforeTool");
  EXPECT_EQ(in["agent"], "gemini");
  EXPECT_EQ(in["toolInput"], (json{{"file_path", "pinta-doctor-probe"}}));
  EXPECT_EQ(in["rawTextFields"]["toolInput"], R"({"file_path":"pinta-doctor-probe"})");
  EXPECT_EQ(in["spanId"].get<std::string>().size(), 16u);
}

// 401/403 mean the guard refuses the token: every real check fails open. They used to be rated
// ok (any status under 500 was). Other non-200 answers and a 200 that is no verdict fail open too.
TEST(DoctorEndpoints, GuardRefusalsAndNonVerdictsAreBrokenWithTheFix) {
  Home s;
  struct Case {
    pinta::fakes::Reply reply;
    bool token;
    std::string message, fix;
  };
  const std::vector<Case> cases = {
      {{401, "{}"}, true, "refused the request (HTTP 401, x-pinta-relay-token sent)",
       "check PINTA_RELAY_TOKEN: this guard does not accept it"},
      {{403, "{}"}, false, "refused the request (HTTP 403, no x-pinta-relay-token sent)",
       "check PINTA_RELAY_TOKEN: it is not set"},
      {{404, "{}"}, true, "answered HTTP 404 (only 2xx carries a verdict", "URL path"},
      {{500, "{}"}, true, "answered HTTP 500", "logs"},
      {{200, R"({"verdict":"ok"})"}, true, "answered 200 but not with a verdict (reply has no decision)",
       "GUARD-6"},
  };
  for (const auto& c : cases) {
    pinta::fakes::FakeServer guard({}, c.reply);
    ScopedEnv e("PINTA_GUARD_ENDPOINT", guard.url("/guard"));
    std::optional<ScopedEnv> t;
    if (c.token) t.emplace("PINTA_RELAY_TOKEN", "tok");
    auto r = s.probe();
    auto b = broken(r, "endpoint");
    ASSERT_EQ(b.size(), 1u) << c.message << "\n" << all_text(r);
    EXPECT_NE(b[0].message.find(c.message), std::string::npos) << b[0].message;
    EXPECT_NE(b[0].fix.find(c.fix), std::string::npos) << b[0].fix;
    EXPECT_EQ(guard.request_count(), 1u);
    EXPECT_EQ(guard.requests()[0].header("x-pinta-relay-token"), c.token ? "tok" : "");
  }
}

// A relay token that cannot go into a header (CR, LF, NUL, another control character) makes the
// adapter's client refuse every guard call (fail-open): doctor says so, without printing the
// value, with or without the network; nothing is sent. It used to report the guard as fine.
// Non-ASCII bytes and whitespace at the ends are sent, but warned about.
TEST(DoctorEndpoints, RelayTokenThatCannotBeAHeaderIsBroken) {
  Home s;
  pinta::fakes::FakeServer guard({}, pinta::fakes::Reply{200, R"({"decision":"ALLOW"})"});
  ScopedEnv e("PINTA_GUARD_ENDPOINT", guard.url("/guard"));
  for (const std::string& token :
       {std::string("secret\r"), std::string("secret\nX-Injected: 1"), std::string("sec\x01ret"),
        std::string("secret\x7f")}) {
    ScopedEnv t("PINTA_RELAY_TOKEN", token);
    for (auto r : {s.probe(), s.doctor()}) {
      auto b = broken(r, "endpoint");
      ASSERT_EQ(b.size(), 1u) << all_text(r);
      EXPECT_NE(b[0].message.find("PINTA_RELAY_TOKEN holds"), std::string::npos) << b[0].message;
      EXPECT_EQ(b[0].message.find("secret"), std::string::npos) << b[0].message;
      EXPECT_EQ(b[0].message.find("sec"), std::string::npos) << b[0].message;
      EXPECT_EQ(b[0].detail["variable"], "PINTA_RELAY_TOKEN");
    }
  }
  EXPECT_EQ(guard.request_count(), 0u);
  for (const std::string& token : {std::string("caf\xc3\xa9"), std::string("secret ")}) {
    ScopedEnv t("PINTA_RELAY_TOKEN", token);
    auto r = s.probe();
    EXPECT_TRUE(broken(r, "endpoint").empty()) << all_text(r);
    bool warned = false;
    for (const auto& f : endpoint_findings(r, "warn"))
      warned |= f.message.find("PINTA_RELAY_TOKEN ") == 0;
    EXPECT_TRUE(warned) << all_text(r);
  }
  EXPECT_EQ(guard.request_count(), 4u);  // each probe, then its body-limit probe
}

// Collector headers the client refuses (a control character in the API key or a decoded header
// value) fail every export: broken, nothing sent. Entries the list parser drops (an encoded line
// break) are named: that header is silently missing.
TEST(DoctorEndpoints, CollectorHeadersThatCannotBeSentAreReported) {
  Home s;
  pinta::fakes::FakeServer collector;
  ScopedEnv a("GEMINI_PLUGIN_OPTION_ENDPOINT", collector.url("/v1/traces"));
  {
    ScopedEnv k("GEMINI_PLUGIN_OPTION_API_KEY", "key\x01");
    auto b = broken(s.probe(), "endpoint");
    ASSERT_EQ(b.size(), 1u);
    EXPECT_NE(b[0].message.find("x-pinta-relay-token from GEMINI_PLUGIN_OPTION_API_KEY holds a control character"),
              std::string::npos)
        << b[0].message;
  }
  {
    ScopedEnv h("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%1Babc");
    auto b = broken(s.probe(), "endpoint");
    ASSERT_EQ(b.size(), 1u);
    EXPECT_NE(b[0].message.find("authorization from OTEL_EXPORTER_OTLP_HEADERS"), std::string::npos)
        << b[0].message;
  }
  EXPECT_EQ(collector.request_count(), 0u);
  {
    ScopedEnv h("GEMINI_PLUGIN_OPTION_HEADERS", "authorization=a%0D%0AX-Evil:%201,x-ok=1");
    auto r = s.probe();
    EXPECT_TRUE(broken(r, "endpoint").empty()) << all_text(r);
    EXPECT_NE(all_text(r).find("1 entry of GEMINI_PLUGIN_OPTION_HEADERS ignored"), std::string::npos)
        << all_text(r);
    ASSERT_EQ(collector.request_count(), 1u);
    EXPECT_EQ(collector.requests()[0].header("x-ok"), "1");
    EXPECT_EQ(collector.requests()[0].header("x-evil"), "");
  }
}

// A collector that refuses the credentials drops every span: broken, with the header variables
// as the fix (it used to be "ok": any status under 500 was).
TEST(DoctorEndpoints, CollectorRefusingTheCredentialsIsBroken) {
  Home s;
  pinta::fakes::FakeServer collector({}, pinta::fakes::Reply{401, ""});
  ScopedEnv a("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", collector.url("/v1/traces"));
  auto b = broken(s.probe(), "endpoint");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_NE(b[0].message.find("answered 401"), std::string::npos) << b[0].message;
  EXPECT_NE(b[0].fix.find("OTEL_EXPORTER_OTLP_HEADERS"), std::string::npos) << b[0].fix;
}

// A guard behind a body limit smaller than the request bound: every large tool call is judged on
// the minimal request only (GUARD-16). Doctor says so, with the fix; a roomy proxy is ok.
TEST(DoctorEndpoints, AGuardBehindASmallBodyLimitIsAWarning) {
  Home s;
  pinta::fakes::Reply capped{200, R"({"decision":"ALLOW"})"};
  capped.max_request_body = 16u << 10;
  pinta::fakes::FakeServer guard({}, capped);
  ScopedEnv e("PINTA_GUARD_ENDPOINT", guard.url("/guard"));
  auto r = s.probe();
  auto w = endpoint_findings(r, "warn");
  ASSERT_EQ(w.size(), 1u) << all_text(r);
  EXPECT_NE(w[0].message.find("refused a request of 65536 bytes (full request: status 413"), std::string::npos)
      << w[0].message;
  EXPECT_NE(w[0].fix.find("PINTA_GUARD_MAX_REQUEST_BYTES"), std::string::npos) << w[0].fix;
  EXPECT_TRUE(broken(r, "endpoint").empty()) << all_text(r);
  ScopedEnv m("PINTA_GUARD_MAX_REQUEST_BYTES", "16000");
  auto r2 = s.probe();
  EXPECT_TRUE(endpoint_findings(r2, "warn").empty()) << all_text(r2);
}
