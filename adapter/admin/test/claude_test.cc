// Claude Code installer and doctor (claude_code.h): the settings shape measured on Claude Code
// 2.1.332 (shared reference real-hosts.md "Claude Code"), merged among the user's own hooks by
// minimal edits, idempotent, uninstall takes back exactly ours (byte for byte when nothing else
// changed), nothing created outside ~/.claude and the state directory.
#include "pinta/admin/claude_code.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "admin_test_util.h"
#include "pinta/common/process.h"
#include "pinta/common/test_support.h"

using namespace pinta::admin;
using nlohmann::json;
using pinta::testing::TempDir;

namespace {

InstallOptions cc_options(const TempDir& t) { return family_options(t, Host::kClaude); }

const char* kUser =
    "{\n"
    "    \"model\": \"opus\",\n"
    "    \"hooks\": {\n"
    "        \"PreToolUse\": [\n"
    "            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./mine.sh\"}]}\n"
    "        ]\n"
    "    },\n"
    "    \"permissions\": {\"allow\": [\"Bash(ls:*)\"]}\n"
    "}\n";

}  // namespace

TEST(ClaudeCodeInstall, FreshHomeGetsEveryEventAndRoundTripsToNothing) {
  TempDir t;
  auto o = cc_options(t);
  auto before = snapshot(o.home);
  run(plan_install(o));
  std::string path = o.home + "/.claude/settings.json";
  EXPECT_EQ(claude_code_settings_path(o), path);
  json h = json::parse(read_text(path))["hooks"];
  ASSERT_EQ(h.size(), claude_code_events().size());
  for (const auto& e : claude_code_events()) {
    ASSERT_TRUE(h.contains(e)) << e;
    ASSERT_EQ(h[e].size(), 1u);
    EXPECT_EQ(h[e][0].contains("matcher"), claude_code_event_has_matcher(e)) << e;
    if (claude_code_event_has_matcher(e)) {
      EXPECT_EQ(h[e][0]["matcher"], "*");
    }
    const json& handler = h[e][0]["hooks"][0];
    EXPECT_EQ(handler["type"], "command");
    EXPECT_EQ(handler["command"], "'/opt/pinta/bin/pinta-gemini' --agent claude-code --event " + e);
    EXPECT_EQ(handler["timeout"], 10);  // seconds
    EXPECT_EQ(handler.size(), 3u);      // no field Claude Code's schema does not know
  }
  EXPECT_FALSE(std::filesystem::exists(o.home + "/.gemini"));  // no other host's directory
  auto again = plan_install(o);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->changes.empty());
  run(plan_uninstall(o));
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(ClaudeCodeInstall, MergesAmongUserHooksKeepingEveryByteOfTheirs) {
  TempDir t;
  auto o = cc_options(t);
  std::string path = o.home + "/.claude/settings.json";
  write_text(path, kUser);
  auto before = snapshot(o.home);
  run(plan_install(o));
  std::string installed = read_text(path);
  // The user's text up to the end of their PreToolUse group is unchanged; ours follows it.
  std::string head(kUser, std::string(kUser).find("./mine.sh\"}]}") + 13);
  EXPECT_EQ(installed.substr(0, head.size()), head);
  EXPECT_NE(installed.find("\n    \"permissions\": {\"allow\": [\"Bash(ls:*)\"]}\n}\n"),
            std::string::npos)
      << installed;
  auto j = nlohmann::ordered_json::parse(installed);
  EXPECT_EQ(j["model"], "opus");
  ASSERT_EQ(j["hooks"]["PreToolUse"].size(), 2u);
  EXPECT_EQ(j["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "./mine.sh");  // theirs first
  EXPECT_TRUE(claude_code_is_ours(j["hooks"]["PreToolUse"][1]["hooks"][0]["command"]));
  EXPECT_EQ(read_text(path + ".pinta-bak"), kUser);
  // The keys keep their order: model, hooks, permissions.
  std::vector<std::string> keys;
  for (auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"model", "hooks", "permissions"}));
  run(plan_uninstall(o));
  EXPECT_EQ(snapshot(o.home), before);  // byte for byte; the backup went with it
}

TEST(ClaudeCodeInstall, CompactFileStaysCompact) {
  TempDir t;
  auto o = cc_options(t);
  std::string path = o.home + "/.claude/settings.json";
  std::string user = R"({"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}})";
  write_text(path, user);
  run(plan_install(o));
  std::string installed = read_text(path);
  EXPECT_EQ(installed.find('\n'), std::string::npos) << installed;
  EXPECT_EQ(installed.rfind(R"({"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]},)", 0),
            0u)
      << installed;
  run(plan_uninstall(o));
  EXPECT_EQ(read_text(path), user);
}

TEST(ClaudeCodeInstall, UserEditsAfterInstallAreKeptAndBackupStays) {
  TempDir t;
  auto o = cc_options(t);
  std::string path = o.home + "/.claude/settings.json";
  write_text(path, kUser);
  run(plan_install(o));
  std::string installed = read_text(path);
  std::string edited = installed;
  edited.replace(edited.find("\"opus\""), 6, "\"sonnet\"");
  write_text(path, edited);
  run(plan_uninstall(o));
  std::string want = kUser;
  want.replace(want.find("\"opus\""), 6, "\"sonnet\"");
  EXPECT_EQ(read_text(path), want);  // ours spliced out, their edit kept
  EXPECT_EQ(read_text(path + ".pinta-bak"), kUser);  // differs from the file: kept
}

TEST(ClaudeCodeInstall, StaleHandlerOfOursIsReplacedNotDuplicated) {
  TempDir t;
  auto o = cc_options(t);
  std::string path = o.home + "/.claude/settings.json";
  write_text(path,
             R"({"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"'/old/pinta-gemini' --agent claude-code --event PreToolUse","timeout":10},{"type":"command","command":"./keep.sh"}]}],"Notification":[{"hooks":[{"type":"command","command":"/old/pinta-gemini --agent claude-code --event Notification"}]}]}})");
  run(plan_install(o));
  json h = json::parse(read_text(path))["hooks"];
  int ours = 0;
  for (const auto& g : h["PreToolUse"])
    for (const auto& x : g["hooks"]) ours += claude_code_is_ours(x["command"]) ? 1 : 0;
  EXPECT_EQ(ours, 1);
  EXPECT_EQ(h["PreToolUse"][0]["hooks"][0]["command"], "./keep.sh");  // the user's stays
  EXPECT_FALSE(h.contains("Notification"));  // an event we no longer register: ours removed
}

TEST(ClaudeCodeInstall, InvalidJsonNamesLineAndColumnAndWritesNothing) {
  TempDir t;
  auto o = cc_options(t);
  std::string path = o.home + "/.claude/settings.json";
  for (const std::string& bad : {std::string("{\n  \"model\": \"x\",\n}\n"),
                                std::string("{\"hooks\": []}"), std::string("[1]")}) {
    write_text(path, bad);
    auto p = plan_install(o);
    ASSERT_FALSE(p) << bad;
    EXPECT_EQ(p.error().code, pinta::ErrorCode::kParse);
    EXPECT_EQ(read_text(path), bad);
    EXPECT_FALSE(std::filesystem::exists(path + ".pinta-bak"));
  }
  write_text(path, "{\n  \"model\": \"x\",\n}\n");
  EXPECT_EQ(plan_install(o).error().message.rfind(path + ":3:1: ", 0), 0u)
      << plan_install(o).error().message;
}

TEST(ClaudeCodeInstall, ProjectFile) {
  TempDir t;
  auto o = cc_options(t);
  o.workspace = t.sub("proj");
  std::filesystem::create_directories(o.workspace);
  run(plan_install(o));
  EXPECT_TRUE(std::filesystem::exists(t.sub("proj/.claude/settings.json")));
  EXPECT_FALSE(std::filesystem::exists(o.home + "/.claude"));
  run(plan_uninstall(o));
  EXPECT_FALSE(std::filesystem::exists(t.sub("proj/.claude")));
}

TEST(ClaudeCodeInstall, RecognisesOnlyOurCommands) {
  EXPECT_TRUE(claude_code_is_ours("'/a b/pinta-gemini' --agent claude-code --event Stop"));
  EXPECT_TRUE(claude_code_is_ours("/usr/bin/pinta-gemini --agent claude-code --event PreToolUse"));
  EXPECT_TRUE(claude_code_is_ours("pinta-gemini --agent claude-code --event Stop"));
  EXPECT_FALSE(claude_code_is_ours("/usr/bin/pinta-gemini --agent gemini --event Stop"));
  EXPECT_FALSE(claude_code_is_ours("/x/not-pinta-gemini --agent claude-code --event Stop"));
  EXPECT_FALSE(claude_code_is_ours("/usr/bin/pinta-gemini --agent claude-code --event Stop; rm -rf ~"));
  EXPECT_FALSE(claude_code_is_ours("echo pinta-gemini --agent claude-code --event Stop"));
}

// ---- doctor -------------------------------------------------------------------------------------

namespace {
std::vector<Finding> doctor(const InstallOptions& o) {
  DoctorOptions d;
  d.home = o.home;
  d.workspace = o.workspace.empty() ? o.home : o.workspace;
  d.host = "claude-code";
  d.probe_network = false;
  d.env_file = o.home + "/none.env";
  d.data_dir = o.home + "/data";
  std::vector<Finding> out;
  for (auto& f : run_doctor(d).findings)
    if (f.area == "claude-code") out.push_back(f);
  return out;
}
bool has(const std::vector<Finding>& fs, const std::string& level, const std::string& text) {
  for (const auto& f : fs)
    if (f.level == level && f.message.find(text) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST(ClaudeCodeDoctor, NotInstalledInstalledAndBroken) {
  TempDir t;
  auto o = cc_options(t);
  EXPECT_TRUE(has(doctor(o), "info", "not installed"));
  // Installed with a program that exists: ok.
  write_text(t.sub("bin/pinta-gemini"), "#!/bin/sh\n", 0755);
  o.adapter_path = t.sub("bin/pinta-gemini");
  run(plan_install(o));
  auto f = doctor(o);
  EXPECT_TRUE(has(f, "ok", "every Claude Code event")) << (f.empty() ? "" : f[0].message);
  EXPECT_FALSE(has(f, "broken", ""));
  // The program gone: broken.
  std::filesystem::remove(t.sub("bin/pinta-gemini"));
  EXPECT_TRUE(has(doctor(o), "broken", "missing or not executable"));
  write_text(t.sub("bin/pinta-gemini"), "#!/bin/sh\n", 0755);
  // Hooks switched off: broken.
  std::string path = o.home + "/.claude/settings.json";
  std::string text = read_text(path);
  write_text(path, "{\"disableAllHooks\": true," + text.substr(1));
  EXPECT_TRUE(has(doctor(o), "broken", "disableAllHooks"));
  // Invalid JSON: broken, with line:col.
  write_text(path, "{\n \"hooks\": {\"Stop\": [{\"hooks\": [{\"command\": \"" + o.adapter_path +
                       " --agent claude-code --event Stop\"}]}]},\n}\n");
  EXPECT_TRUE(has(doctor(o), "broken", "settings.json:3:1:"));
  // A hook of the user's without "type" in the same file: Claude Code runs none of its hooks.
  write_text(path, "{}");
  run(plan_install(o));
  auto withbad = nlohmann::ordered_json::parse(read_text(path));
  withbad["hooks"]["Stop"].push_back({{"hooks", {{{"command", "./mine.sh"}}}}});
  write_text(path, withbad.dump());
  EXPECT_TRUE(has(doctor(o), "broken", "rejects this file's hooks"));
  // One event missing: warned by name.
  write_text(path, "{}");
  o.adapter_path = t.sub("bin/pinta-gemini");
  run(plan_install(o));
  std::string s = read_text(path);
  auto j = nlohmann::ordered_json::parse(s);
  j["hooks"].erase("SessionEnd");
  write_text(path, j.dump());
  EXPECT_TRUE(has(doctor(o), "warn", "not registered for SessionEnd"));
}

// ---- through the binary -------------------------------------------------------------------------

TEST(ClaudeCodeBinary, InstallDoctorUninstallCreateNothingElse) {
  TempDir t;
  std::filesystem::create_directories(t.sub("home"));
  auto env = pinta::proc::current_environment();
  env["HOME"] = t.sub("home");
  env.erase("GEMINI_CLI_HOME");
  env.erase("GEMINI_PLUGIN_DATA");
  env.erase("XDG_STATE_HOME");
  auto sp = pinta::proc::make_spawner();
  pinta::proc::SpawnRequest req;
  req.env = env;
  req.timeout = std::chrono::milliseconds(20000);
  const std::string admin = pinta::testing::bin_dir() + "/pinta-gemini-admin";
  req.argv = {admin, "install", "--host", "claude-code"};
  auto r = sp->run(req);
  ASSERT_EQ(r.exit_code.value_or(-1), 0) << r.err;
  EXPECT_NE(r.out.find("created " + t.sub("home") + "/.claude/settings.json"), std::string::npos)
      << r.out;
  req.argv = {admin, "doctor", "--host", "claude-code", "--no-network", "--json"};
  r = sp->run(req);
  json rep = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(rep.is_discarded()) << r.out;
  bool ok = false;
  for (const auto& f : rep["findings"]) {
    EXPECT_NE(f["area"], "gemini");  // --host limits the checks
    ok |= f["area"] == "claude-code" && f["level"] == "ok";
  }
  EXPECT_TRUE(ok) << r.out;
  req.argv = {admin, "uninstall", "--host", "claude-code"};
  r = sp->run(req);
  ASSERT_EQ(r.exit_code.value_or(-1), 0) << r.err;
  EXPECT_TRUE(snapshot(t.sub("home")).empty()) << [&] {
    std::string s;
    for (auto& [k, v] : snapshot(t.sub("home"))) s += k + " ";
    return s;
  }();
}
