// Installer: what each host gets (seed SPEC §3.3), merging into user files, backup once,
// idempotence, dry-run, invalid JSON left alone, uninstall takes back exactly what install added.
#include "pinta/admin/install.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "admin_test_util.h"
#include "pinta/common/process.h"
#include "pinta/common/test_support.h"
#include "pinta/common/version.h"
#include "pinta/hosts/antigravity/antigravity.h"

using namespace pinta::admin;
using nlohmann::json;
using pinta::testing::TempDir;

namespace {

InstallOptions options(const TempDir& t, Host host) {
  InstallOptions o;
  o.host = host;
  o.home = t.sub("home");
  o.gemini_home = o.home;
  o.adapter_path = "/opt/pinta/bin/pinta-gemini";
  o.profile_dir = pinta::testing::source_dir() + "/hosts/antigravity/profiles";
  std::filesystem::create_directories(o.home);
  ::setenv("GEMINI_PLUGIN_DATA", (t.path() + "/home/.gemini/pinta-gemini-data").c_str(), 1);
  return o;
}

void install(const InstallOptions& o) {
  auto p = plan_install(o);
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_TRUE(apply(*p));
}
void uninstall(const InstallOptions& o) {
  auto p = plan_uninstall(o);
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_TRUE(apply(*p));
}

}  // namespace

TEST(GeminiInstall, WritesExtensionWithEightEventsAndMsTimeouts) {
  TempDir t;
  auto o = options(t, Host::kGemini);
  install(o);
  std::string dir = o.home + "/.gemini/extensions/pinta-gemini";
  json m = json::parse(read_text(dir + "/gemini-extension.json"));
  EXPECT_EQ(m["name"], "pinta-gemini");
  EXPECT_TRUE(m["version"].is_string());
  json h = json::parse(read_text(dir + "/hooks/hooks.json"))["hooks"];
  ASSERT_EQ(h.size(), 8u);
  for (const auto& e : installed_events(Host::kGemini)) {
    ASSERT_TRUE(h.contains(e)) << e;
    const json& def = h[e][0];
    EXPECT_EQ(def.contains("matcher"), e == "BeforeTool" || e == "AfterTool") << e;
    if (def.contains("matcher")) {
      EXPECT_EQ(def["matcher"], "");
    }
    const json& hook = def["hooks"][0];
    EXPECT_EQ(hook["type"], "command");
    EXPECT_EQ(hook["command"], "'/opt/pinta/bin/pinta-gemini' --agent gemini --event " + e);
    EXPECT_EQ(hook["timeout"], 10000);
  }
}

TEST(GeminiInstall, HonoursGeminiCliHome) {
  TempDir t;
  auto o = options(t, Host::kGemini);
  o.gemini_home = t.sub("gh");
  install(o);
  EXPECT_TRUE(
      std::filesystem::exists(t.sub("gh/.gemini/extensions/pinta-gemini/hooks/hooks.json")));
  EXPECT_FALSE(std::filesystem::exists(o.home + "/.gemini/extensions"));
}

TEST(GeminiInstall, SecondInstallChangesNothingAndUninstallRestoresHome) {
  TempDir t;
  auto o = options(t, Host::kGemini);
  write_text(o.home + "/.gemini/settings.json", "{\"model\":{\"name\":\"x\"}}\n");
  auto before = snapshot(o.home);
  install(o);
  auto installed = snapshot(o.home);
  auto again = plan_install(o);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->changes.empty());
  EXPECT_EQ(snapshot(o.home), installed);
  uninstall(o);
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(GeminiInstall, EnablementRuleThatDisablesUsIsRemovedWithBackup) {
  TempDir t;
  auto o = options(t, Host::kGemini);
  std::string en = o.home + "/.gemini/extensions/extension-enablement.json";
  std::string original =
      R"({"other":{"overrides":["!/x/*"]},"pinta-gemini":{"overrides":["!/home/*"]}})";
  write_text(en, original);
  install(o);
  json j = json::parse(read_text(en));
  EXPECT_FALSE(j.contains("pinta-gemini"));
  EXPECT_EQ(j["other"]["overrides"][0], "!/x/*");
  EXPECT_EQ(read_text(en + ".pinta-bak"), original);
}

TEST(GeminiInstall, WarnsWhenHooksDisabled) {
  TempDir t;
  auto o = options(t, Host::kGemini);
  write_text(o.home + "/.gemini/settings.json", R"({"hooksConfig":{"enabled":false}})");
  auto p = plan_install(o);
  ASSERT_TRUE(p);
  bool warned = false;
  for (const auto& w : p->warnings)
    warned |= w.find("hooksConfig.enabled is false") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(GeminiInstall, InvalidExistingFileIsReportedNotOverwritten) {
  TempDir t;
  auto o = options(t, Host::kGemini);
  std::string path = o.home + "/.gemini/extensions/pinta-gemini/hooks/hooks.json";
  write_text(path, "{not json");
  auto p = plan_install(o);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code, pinta::ErrorCode::kParse);
  EXPECT_EQ(read_text(path), "{not json");
}

TEST(AntigravityInstall, MergesNamedHookKeepsUserKeysAndLoadsUnderEveryProfile) {
  TempDir t;
  auto o = options(t, Host::kAntigravity);
  std::string path = o.home + "/.gemini/config/hooks.json";
  std::string user =
      R"({"zeta":{"PreToolUse":[{"matcher":"run_command","hooks":[{"type":"command","command":"./z.sh","timeout":5}]}]},"alpha":{"Stop":[{"type":"command","command":"a"}]}})";
  write_text(path, user);
  install(o);
  std::string text = read_text(path);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(text);
  // User keys preserved, in their order, with identical values.
  auto it = j.begin();
  EXPECT_EQ(it.key(), "zeta");
  EXPECT_EQ((++it).key(), "alpha");
  EXPECT_EQ(j["zeta"], nlohmann::ordered_json::parse(user)["zeta"]);
  const auto& ours = j["pinta-gemini"];
  EXPECT_EQ(ours["PreToolUse"][0]["matcher"], "");
  EXPECT_EQ(ours["PreToolUse"][0]["hooks"][0]["command"],
            "/opt/pinta/bin/pinta-gemini --agent antigravity --event PreToolUse");
  EXPECT_EQ(ours["PreToolUse"][0]["hooks"][0]["timeout"], 30);
  EXPECT_EQ(ours["PreInvocation"][0]["type"], "command");  // flat lifecycle handler
  EXPECT_FALSE(ours["Stop"][0].contains("hooks"));
  EXPECT_EQ(read_text(path + ".pinta-bak"), user);
  auto profiles = pinta::hosts::agy::load_profiles(o.profile_dir);
  ASSERT_TRUE(profiles);
  ASSERT_FALSE(profiles->empty());
  for (const auto& p : *profiles) {
    auto r = pinta::hosts::agy::parse_hooks_json(text, p, path);
    ASSERT_TRUE(r) << p.name << ": " << r.error().message;
    bool found = false;
    for (const auto& h : r->hooks) found |= h.name == "pinta-gemini";
    EXPECT_TRUE(found) << p.name;
  }
}

TEST(AntigravityInstall, BackupIsTakenOnceAndSecondInstallIsNoOp) {
  TempDir t;
  auto o = options(t, Host::kAntigravity);
  std::string path = o.home + "/.gemini/config/hooks.json";
  write_text(path, R"({"u":{"Stop":[{"type":"command","command":"u"}]}})");
  install(o);
  std::string first = read_text(path);
  o.adapter_path = "/other/pinta-gemini";  // a re-install that does change our key
  install(o);
  EXPECT_NE(read_text(path), first);
  EXPECT_EQ(read_text(path + ".pinta-bak"), R"({"u":{"Stop":[{"type":"command","command":"u"}]}})");
  auto again = plan_install(o);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->changes.empty());
}

TEST(AntigravityInstall, UninstallRemovesExactlyWhatInstallAdded) {
  TempDir t;
  auto o = options(t, Host::kAntigravity);
  std::string path = o.home + "/.gemini/config/hooks.json";
  write_text(path,
             "{\n  \"u\": {\n    \"Stop\": [\n      {\n        \"type\": \"command\",\n        "
             "\"command\": \"u\"\n      }\n    ]\n  }\n}\n");
  auto before = snapshot(o.home);
  install(o);
  uninstall(o);
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(AntigravityInstall, FreshHomeRoundTripLeavesNothing) {
  TempDir t;
  auto o = options(t, Host::kAntigravity);
  auto before = snapshot(o.home);
  install(o);
  EXPECT_TRUE(std::filesystem::exists(o.home + "/.gemini/config/hooks.json"));
  uninstall(o);
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(AntigravityInstall, WorkspaceFile) {
  TempDir t;
  auto o = options(t, Host::kAntigravity);
  o.workspace = t.sub("ws");
  std::filesystem::create_directories(o.workspace);
  install(o);
  EXPECT_TRUE(std::filesystem::exists(t.sub("ws/.agents/hooks.json")));
  EXPECT_FALSE(std::filesystem::exists(o.home + "/.gemini/config/hooks.json"));
  uninstall(o);
  EXPECT_FALSE(std::filesystem::exists(t.sub("ws/.agents")));
}

TEST(AntigravityInstall, InvalidJsonIsReportedNeverOverwritten) {
  TempDir t;
  auto o = options(t, Host::kAntigravity);
  std::string path = o.home + "/.gemini/config/hooks.json";
  write_text(path, "{\"a\": {}, }");
  auto p = plan_install(o);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code, pinta::ErrorCode::kParse);
  EXPECT_EQ(read_text(path), "{\"a\": {}, }");
  EXPECT_FALSE(std::filesystem::exists(path + ".pinta-bak"));
}

TEST(AntigravityInstall, PathWithSpaceIsQuotedAndWarned) {
  TempDir t;
  auto o = options(t, Host::kAntigravity);
  o.adapter_path = "/opt/my tools/pinta-gemini";
  auto p = plan_install(o);
  ASSERT_TRUE(p);
  ASSERT_FALSE(p->warnings.empty());
  EXPECT_NE(p->warnings[0].find("whitespace"), std::string::npos);
  EXPECT_EQ(antigravity_command(o.adapter_path, "Stop"),
            "'/opt/my tools/pinta-gemini' --agent antigravity --event Stop");
}

TEST(DryRun, PrintsDiffAndWritesNothing) {
  TempDir t;
  auto o = options(t, Host::kAntigravity);
  std::string path = o.home + "/.gemini/config/hooks.json";
  write_text(path, "{\n  \"u\": {}\n}\n");
  auto p = plan_install(o);
  ASSERT_TRUE(p);
  std::string diff = render_diff(*p);
  EXPECT_NE(diff.find("--- " + path), std::string::npos);
  EXPECT_NE(diff.find("+  \"pinta-gemini\": {"), std::string::npos);
  EXPECT_NE(diff.find("-  \"u\": {}"), std::string::npos);  // gains a trailing comma
  EXPECT_EQ(read_text(path), "{\n  \"u\": {}\n}\n");
}

// Through the real binaries: `pinta-gemini install` execs pinta-gemini-admin next to it.
TEST(AdminBinary, AdapterExecsAdminForInstallDryRunAndRejectsBadHost) {
  TempDir t;
  std::filesystem::create_directories(t.sub("home"));
  auto env = pinta::proc::current_environment();
  env["HOME"] = t.sub("home");
  env.erase("GEMINI_CLI_HOME");
  auto sp = pinta::proc::make_spawner();
  pinta::proc::SpawnRequest req;
  req.argv = {pinta::testing::bin_dir() + "/pinta-gemini", "install", "--host", "gemini",
              "--dry-run"};
  req.env = env;
  req.timeout = std::chrono::milliseconds(20000);
  auto r = sp->run(req);
  ASSERT_TRUE(r.exit_code.has_value()) << r.spawn_error;
  EXPECT_EQ(*r.exit_code, 0) << r.err;
  EXPECT_NE(
      r.out.find("+++ " + t.sub("home") + "/.gemini/extensions/pinta-gemini/hooks/hooks.json"),
      std::string::npos)
      << r.out;
  EXPECT_FALSE(std::filesystem::exists(t.sub("home/.gemini")));
  req.argv = {pinta::testing::bin_dir() + "/pinta-gemini", "install", "--host", "claude"};
  r = sp->run(req);
  ASSERT_TRUE(r.exit_code.has_value());
  EXPECT_EQ(*r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown host"), std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

// `install|uninstall|doctor --help` print that command's usage on stdout and exit 0 (through
// pinta-gemini's exec too); before, --help was "unknown option --help for install", exit 2. An
// unknown subcommand is one line naming it, exit 2 (before: the options were judged first).
TEST(AdminBinary, HelpForEachCommandAndUnknownSubcommand) {
  TempDir t;
  std::filesystem::create_directories(t.sub("home"));
  auto env = pinta::proc::current_environment();
  env["HOME"] = t.sub("home");
  auto sp = pinta::proc::make_spawner();
  pinta::proc::SpawnRequest req;
  req.env = env;
  req.timeout = std::chrono::milliseconds(20000);
  for (const std::string prog : {"pinta-gemini", "pinta-gemini-admin"})
    for (const std::string cmd : {"install", "uninstall", "doctor"})
      for (const std::string flag : {"--help", "-h"}) {
        SCOPED_TRACE(prog + " " + cmd + " " + flag);
        req.argv = {pinta::testing::bin_dir() + "/" + prog, cmd, flag};
        auto r = sp->run(req);
        ASSERT_TRUE(r.exit_code.has_value()) << r.spawn_error;
        EXPECT_EQ(*r.exit_code, 0) << r.err;
        EXPECT_EQ(r.err, "");
        EXPECT_EQ(r.out.rfind("usage: pinta-gemini " + cmd + " ", 0), 0u) << r.out;
        // After other options too, and nothing was installed.
        req.argv = {pinta::testing::bin_dir() + "/" + prog, cmd, "--host", "gemini", flag};
        r = sp->run(req);
        EXPECT_EQ(r.exit_code.value_or(-1), 0) << r.err;
        EXPECT_EQ(r.out.rfind("usage: pinta-gemini " + cmd + " ", 0), 0u) << r.out;
      }
  EXPECT_FALSE(std::filesystem::exists(t.sub("home/.gemini")));
  req.argv = {pinta::testing::bin_dir() + "/pinta-gemini-admin", "frob", "--x"};
  auto r = sp->run(req);
  EXPECT_EQ(r.exit_code.value_or(-1), 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("pinta-gemini: unknown subcommand frob", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // A value that looks like --help is still the option's value.
  req.argv = {pinta::testing::bin_dir() + "/pinta-gemini-admin", "install", "--host", "--help"};
  r = sp->run(req);
  EXPECT_EQ(r.exit_code.value_or(-1), 2);
  EXPECT_NE(r.err.find("unknown host"), std::string::npos) << r.err;
}

// ---- deel-local-cli 1.17 (seed 004 hooks.js 훅펴기 l.299-329, 한훅 l.271-290) ---------------------

namespace {
InstallOptions deel_options(const TempDir& t) {
  InstallOptions o = options(t, Host::kDeel);
  o.profile_dir.clear();
  return o;
}
}  // namespace

TEST(DeelInstall, FreshHomeGetsClaudeShapeWithPassOnFailureAndRoundTripsToNothing) {
  TempDir t;
  auto o = deel_options(t);
  auto before = snapshot(o.home);
  install(o);
  std::string path = o.home + "/.deel/hooks.json";
  EXPECT_EQ(deel_hooks_path(o), path);
  json h = json::parse(read_text(path))["hooks"];
  ASSERT_EQ(h.size(), 4u);
  for (const auto& e : installed_events(Host::kDeel)) {
    ASSERT_TRUE(h.contains(e)) << e;
    ASSERT_EQ(h[e].size(), 1u) << e;
    EXPECT_EQ(h[e][0]["matcher"], "*") << e;
    const json& handler = h[e][0]["hooks"][0];
    EXPECT_EQ(handler["type"], "command");
    EXPECT_EQ(handler["command"], "'/opt/pinta/bin/pinta-gemini' --agent deel --event " + e);
    EXPECT_EQ(handler["timeout"], 10);  // seconds (한훅 l.279-284)
    EXPECT_EQ(handler["onError"], "pass");
    EXPECT_EQ(handler["name"], "pinta-gemini");
  }
  auto again = plan_install(o);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->changes.empty());
  uninstall(o);
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(DeelInstall, MergesIntoClaudeShapeKeepingUserHooksAndUninstallRestoresThem) {
  TempDir t;
  auto o = deel_options(t);
  std::string path = o.home + "/.deel/hooks.json";
  // A bare group as an event value (l.317), a group that is itself the handler (l.320), an
  // event written in Korean, and a key we do not know: all the user's, all kept as written.
  std::string user =
      "{\n  \"hooks\": {\n    \"PreToolUse\": {\n      \"matcher\": \"Bash\",\n      \"hooks\": [\n"
      "        {\n          \"command\": \"./check.sh\"\n        }\n      ]\n    },\n"
      "    \"턴끝\": [\n      {\n        \"command\": \"notify\"\n      }\n    ]\n  },\n"
      "  \"note\": \"mine\"\n}\n";
  write_text(path, user);
  auto before = snapshot(o.home);
  install(o);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(read_text(path));
  EXPECT_EQ(j["note"], "mine");
  auto& pre = j["hooks"]["PreToolUse"];
  ASSERT_TRUE(pre.is_array());
  ASSERT_EQ(pre.size(), 2u);
  EXPECT_EQ(pre[0]["hooks"][0]["command"], "./check.sh");  // the user's hook still runs first
  EXPECT_EQ(pre[1]["hooks"][0]["name"], "pinta-gemini");
  EXPECT_EQ(j["hooks"]["턴끝"][0]["command"], "notify");
  EXPECT_EQ(read_text(path + ".pinta-bak"), user);
  o.adapter_path = "/elsewhere/pinta-gemini";  // re-install moves our handlers, adds no second set
  install(o);
  j = nlohmann::ordered_json::parse(read_text(path));
  ASSERT_EQ(j["hooks"]["PreToolUse"].size(), 2u);
  EXPECT_EQ(j["hooks"]["PreToolUse"][1]["hooks"][0]["command"],
            "'/elsewhere/pinta-gemini' --agent deel --event PreToolUse");
  EXPECT_EQ(read_text(path + ".pinta-bak"), user);  // the backup is the user's original
  uninstall(o);
  // The bare group comes back as a one-element array: same hooks for the host (l.317).
  json restored = json::parse(read_text(path));
  json original = json::parse(user);
  original["hooks"]["PreToolUse"] = json::array({original["hooks"]["PreToolUse"]});
  EXPECT_EQ(restored, original);
}

TEST(DeelInstall, FlatFileGetsFlatEntriesAndUninstallTakesThemBack) {
  TempDir t;
  auto o = deel_options(t);
  std::string path = o.home + "/.deel/hooks.json";
  std::string user = "{\n  \"hooks\": [\n    {\n      \"때\": \"도구전\",\n      \"도구\": \"Bash\",\n"
                     "      \"명령\": \"./guard.sh\"\n    }\n  ]\n}\n";
  write_text(path, user);
  auto before = snapshot(o.home);
  install(o);
  json j = json::parse(read_text(path));
  ASSERT_TRUE(j["hooks"].is_array());
  ASSERT_EQ(j["hooks"].size(), 5u);
  EXPECT_EQ(j["hooks"][0]["명령"], "./guard.sh");
  EXPECT_EQ(j["hooks"][1]["event"], "PreToolUse");
  EXPECT_EQ(j["hooks"][1]["matcher"], "*");
  EXPECT_EQ(j["hooks"][1]["onError"], "pass");
  EXPECT_EQ(j["hooks"][1]["name"], "pinta-gemini");
  uninstall(o);
  EXPECT_EQ(json::parse(read_text(path)), json::parse(user));
}

TEST(DeelInstall, ProjectFileAndDeelHomeAreWhereTheHostLooks) {
  TempDir t;
  auto o = deel_options(t);
  o.deel_home = t.sub("portable");
  EXPECT_EQ(deel_hooks_path(o), t.sub("portable") + "/hooks.json");
  o.workspace = t.sub("ws");
  std::filesystem::create_directories(o.workspace);
  EXPECT_EQ(deel_hooks_path(o), t.sub("ws") + "/.deel/hooks.json");
  auto p = plan_install(o);
  ASSERT_TRUE(p) << p.error().message;
  bool warned = false;
  for (const auto& w : p->warnings) warned |= w.find("trusts") != std::string::npos;
  EXPECT_TRUE(warned);  // a project file is read only in a trusted folder (l.352-365)
}

TEST(DeelInstall, FilesWeCannotMergeAreLeftAlone) {
  TempDir t;
  auto o = deel_options(t);
  std::string path = o.home + "/.deel/hooks.json";
  for (const std::string bad : {"{not json", "\"text\"", R"({"hooks":"nope"})", "42"}) {
    write_text(path, bad);
    auto p = plan_install(o);
    ASSERT_FALSE(p) << bad;
    EXPECT_EQ(p.error().code, pinta::ErrorCode::kParse) << bad;
    EXPECT_NE(p.error().message.find(path), std::string::npos);
    EXPECT_EQ(read_text(path), bad);
  }
}

// ---- the user's file kept byte for byte ------------------------------------------------------

// Before: a compact file came back pretty-printed and the backup was deleted after uninstall.
TEST(MinimalEdits, CompactAntigravityFileStaysCompactAndRoundTrips) {
  TempDir t;
  auto o = options(t, Host::kAntigravity);
  std::string path = o.home + "/.gemini/config/hooks.json";
  std::string user = R"({"u":{"Stop":[{"type":"command","command":"u"}]},"v":{"enabled":false}})";
  write_text(path, user);
  auto before = snapshot(o.home);
  install(o);
  std::string installed = read_text(path);
  EXPECT_EQ(installed.find('\n'), std::string::npos) << installed;
  EXPECT_EQ(installed.substr(0, user.size() - 1), user.substr(0, user.size() - 1));
  EXPECT_EQ(installed.substr(user.size() - 1, 17), ",\"pinta-gemini\":{") << installed;
  uninstall(o);
  EXPECT_EQ(snapshot(o.home), before);  // the file's bytes, and no backup left behind
}

TEST(MinimalEdits, DeelFileKeepsItsLayoutAndUninstallRestoresItsBytes) {
  TempDir t;
  auto o = options(t, Host::kDeel);
  std::string path = o.home + "/.deel/hooks.json";
  std::string user = "{\n    \"hooks\" : {\n        \"Stop\" : [ { \"command\" : \"notify\" } ]\n"
                     "    },\n    \"z\" : 1\n}";
  write_text(path, user);
  auto before = snapshot(o.home);
  install(o);
  std::string installed = read_text(path);
  EXPECT_EQ(installed.rfind("{\n    \"hooks\" : {\n        \"Stop\" : [ { \"command\" : \"notify\" }", 0),
            0u)
      << installed;
  EXPECT_NE(installed.find("\n    \"z\" : 1\n}"), std::string::npos) << installed;
  EXPECT_NE(installed.find("\n        \"PreToolUse\" : [\n"), std::string::npos) << installed;
  uninstall(o);
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(MinimalEdits, UserEditAfterInstallSurvivesUninstallAndBackupStays) {
  TempDir t;
  auto o = options(t, Host::kAntigravity);
  std::string path = o.home + "/.gemini/config/hooks.json";
  std::string user = "{\n  \"u\": {\"Stop\": [{\"command\": \"u\"}]}\n}\n";
  write_text(path, user);
  install(o);
  std::string edited = read_text(path);
  edited.replace(edited.find("\"u\"}"), 4, "\"u2\"}");
  write_text(path, edited);
  uninstall(o);
  EXPECT_EQ(read_text(path), "{\n  \"u\": {\"Stop\": [{\"command\": \"u2\"}]}\n}\n");
  EXPECT_EQ(read_text(path + ".pinta-bak"), user);
}

TEST(MinimalEdits, InvalidJsonIsReportedWithLineAndColumn) {
  TempDir t;
  for (Host h : {Host::kAntigravity, Host::kDeel}) {
    auto o = options(t, h);
    std::string path = h == Host::kDeel ? o.home + "/.deel/hooks.json"
                                        : o.home + "/.gemini/config/hooks.json";
    write_text(path, "{\n  \"a\": {},\n  \"b\": tru\n}\n");
    auto p = plan_install(o);
    ASSERT_FALSE(p);
    EXPECT_EQ(p.error().message.rfind(path + ":3:8: ", 0), 0u) << p.error().message;
  }
}

// Before: the manifest said 0.1.0 whatever the binary's version.
TEST(GeminiInstall, ManifestVersionIsThisBuilds) {
  TempDir t;
  auto o = options(t, Host::kGemini);
  install(o);
  json m = json::parse(read_text(o.home + "/.gemini/extensions/pinta-gemini/gemini-extension.json"));
  EXPECT_EQ(m["version"], std::string(pinta::version()));
}

// Before: `install --host deel` created ~/.gemini/ (the install state lived there).
TEST(DeelInstall, CreatesNothingForOtherHosts) {
  TempDir t;
  auto o = options(t, Host::kDeel);
  ::unsetenv("GEMINI_PLUGIN_DATA");
  ::unsetenv("XDG_STATE_HOME");
  install(o);
  EXPECT_FALSE(std::filesystem::exists(o.home + "/.gemini"));
  EXPECT_FALSE(std::filesystem::exists(o.home + "/.claude"));
  EXPECT_TRUE(std::filesystem::exists(o.home + "/.local/state/pinta-gemini/install-deel.json"));
  uninstall(o);
  EXPECT_TRUE(snapshot(o.home).empty());
}
