// GitHub Copilot CLI 1.0 installer and doctor (copilot.h): our hooks in a native-format hook file
// of our own (user: ~/.copilot/hooks/, project: .github/hooks/), spliced so anything else in it
// stays, idempotent, uninstall takes back exactly ours (byte for byte); doctor reports what would
// keep the guard from running (a file Copilot drops, an untrusted repository, a label that does not
// match the format, a missing program) and the Claude Code registration Copilot also runs.
// Hermetic: HOME under a temp dir, COPILOT_HOME unset or set there.
#include "pinta/admin/copilot.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "../src/admin_internal.h"  // the family's FamilyAdmin entry (check, lint_files)
#include "admin_test_util.h"
#include "pinta/admin/claude_code.h"
#include "pinta/common/test_support.h"
#include "pinta/hosts/copilot/copilot.h"

using namespace pinta::admin;
using nlohmann::json;
using pinta::testing::TempDir;
namespace cp = pinta::hosts::copilot;

namespace {

const char* kAdapter = "/opt/pinta/bin/pinta-gemini";

InstallOptions cp_options(const TempDir& t) {
  InstallOptions o = family_options(t, Host::kCopilot);
  ::unsetenv("COPILOT_HOME");
  ::unsetenv("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS");
  ::unsetenv("COPILOT_ALLOW_ALL");
  return o;
}

std::string hooks_of(const InstallOptions& o) {
  return o.home + "/.copilot/hooks/pinta-gemini.json";
}

const std::vector<std::string>& events() { return installed_events(Host::kCopilot); }

DoctorReport doctor(const std::string& home, const std::string& workspace = "") {
  DoctorOptions d;
  d.home = home;
  d.workspace = workspace.empty() ? home : workspace;
  DoctorReport r;
  family_admin(Host::kCopilot).check.value(d, r);
  return r;
}

bool has(const DoctorReport& r, const std::string& level, const std::string& text) {
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding& f) {
    return f.area == "copilot" && f.level == level && f.message.find(text) != std::string::npos;
  });
}

bool warned(const Plan& p, const std::string& text) {
  return std::any_of(p.warnings.begin(), p.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

int count(const std::string& hay, const std::string& needle) {
  int n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

// ---- install ------------------------------------------------------------------------------------

TEST(CopilotInstall, FreshHomeGetsEveryEventInTheNativeFormatAndRoundTripsToNothing) {
  TempDir t;
  auto o = cp_options(t);
  auto before = snapshot(o.home);
  auto p = plan_install(o);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(copilot_hooks_path(o), hooks_of(o));
  run(p);
  json f = json::parse(read_text(hooks_of(o)));
  EXPECT_EQ(f["version"], 1) << "CPM src-version-2: another version drops the file";
  json h = f["hooks"];
  ASSERT_EQ(h.size(), events().size());
  for (const auto& e : events()) {
    // camelCase events: the native payload, so the native label (the format written).
    EXPECT_EQ(cp::event_format(e), cp::Format::kNative) << e;
    ASSERT_TRUE(h.contains(e)) << e;
    ASSERT_EQ(h[e].size(), 1u) << e;
    EXPECT_EQ(h[e][0], json({{"type", "command"},
                             {"bash", "'/opt/pinta/bin/pinta-gemini' --agent copilot --event " + e},
                             {"timeoutSec", 10}}))
        << e;
    EXPECT_FALSE(h[e][0].contains("matcher")) << "CPM c-matcher-star: `*` matches nothing";
  }
  auto again = plan_install(o);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->changes.empty()) << render_diff(*again);
  run(plan_uninstall(o));
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(CopilotInstall, OtherHookFilesAreNeverTouchedAndWhatAUserAddsToOursStays) {
  TempDir t;
  auto o = cp_options(t);
  const std::string theirs =
      "{\n  \"version\": 1,\n  \"hooks\": {\"preToolUse\": [{\"type\":\"command\",\"bash\":\"./mine.sh\"}]}\n}\n";
  write_text(o.home + "/.copilot/hooks/mine.json", theirs);
  write_text(o.home + "/.claude/settings.json", "{\"model\": \"x\"}\n");
  auto before = snapshot(o.home);
  run(plan_install(o));
  EXPECT_EQ(read_text(o.home + "/.copilot/hooks/mine.json"), theirs);
  // A user's entry added to our file, between installs, stays through reinstall and uninstall.
  std::string ours = read_text(hooks_of(o));
  size_t at = ours.find("\"preToolUse\": [");
  ASSERT_NE(at, std::string::npos) << ours;
  ours.insert(at + 15, "{\"type\": \"command\", \"bash\": \"./audit.sh\"}, ");
  write_text(hooks_of(o), ours);
  o.adapter_path = "/usr/local/bin/pinta-gemini";  // and a new adapter path replaces ours
  run(plan_install(o));
  std::string now = read_text(hooks_of(o));
  EXPECT_EQ(count(now, "/opt/pinta"), 0) << now;
  EXPECT_EQ(count(now, "'/usr/local/bin/pinta-gemini' --agent copilot --event "),
            static_cast<int>(events().size()));
  EXPECT_EQ(count(now, "./audit.sh"), 1);
  run(plan_uninstall(o));
  std::string left = read_text(hooks_of(o));
  EXPECT_EQ(count(left, "pinta-gemini"), 0) << left;
  EXPECT_EQ(json::parse(left)["hooks"]["preToolUse"],
            json::parse("[{\"type\":\"command\",\"bash\":\"./audit.sh\"}]"));
  // Everything else is as it was.
  auto after = snapshot(o.home);
  after.erase(".copilot/hooks/pinta-gemini.json");
  for (auto& [k, v] : before)
    if (k != ".copilot/hooks/pinta-gemini.json") EXPECT_EQ(after[k], v) << k;
}

TEST(CopilotInstall, StaleEntriesOfOursUnderEventsWeNoLongerInstallGo) {
  const std::string stale =
      "{\n  \"version\": 1,\n  \"hooks\": {\n    \"notification\": [\n      {\"type\": \"command\", "
      "\"bash\": \"/old/pinta-gemini --agent copilot --event notification\"}\n    ],\n"
      "    \"sessionEnd\": [\n      {\"type\": \"command\", \"bash\": \"/old/pinta-gemini --agent "
      "copilot --event sessionEnd\", \"timeoutSec\": 99}\n    ]\n  }\n}\n";
  auto a = copilot_add_ours(stale, kAdapter);
  ASSERT_TRUE(a) << a.error().message;
  json j = json::parse(*a);
  EXPECT_FALSE(j["hooks"].contains("notification")) << *a;
  EXPECT_EQ(j["hooks"]["sessionEnd"].size(), 1u);
  EXPECT_EQ(count(*a, "/old/"), 0);
  bool only = false;
  auto r = copilot_remove_ours(*a, &only);
  ASSERT_TRUE(r);
  EXPECT_TRUE(only) << *r;
}

TEST(CopilotInstall, FilesItCannotEditAreRefusedWithOneLineAndNothingWritten) {
  for (const char* bad : {"[1]", "{\"hooks\": []}", "{\"hooks\": {\"preToolUse\": 3}}", "{", "{} x"}) {
    TempDir t;
    auto o = cp_options(t);
    write_text(hooks_of(o), bad);
    auto before = snapshot(o.home);
    auto p = plan_install(o);
    ASSERT_FALSE(p) << bad;
    EXPECT_NE(p.error().message.find(hooks_of(o)), std::string::npos) << p.error().message;
    EXPECT_NE(p.error().message.find("nothing written"), std::string::npos) << p.error().message;
    EXPECT_EQ(p.error().message.find('\n'), std::string::npos);
    EXPECT_EQ(snapshot(o.home), before);
  }
}

TEST(CopilotInstall, CopilotHomeFromTheEnvironment) {
  TempDir t;
  auto o = cp_options(t);
  ::setenv("COPILOT_HOME", t.sub("cph").c_str(), 1);
  auto p = plan_install(o);
  ASSERT_TRUE(p) << p.error().message;
  run(p);
  EXPECT_TRUE(std::filesystem::exists(t.sub("cph") + "/hooks/pinta-gemini.json"));
  EXPECT_FALSE(std::filesystem::exists(o.home + "/.copilot"));
  // Doctor reads the same folder.
  EXPECT_TRUE(has(doctor(o.home), "ok", "registered for every")) << doctor(o.home).to_text();
  run(plan_uninstall(o));
  EXPECT_FALSE(std::filesystem::exists(t.sub("cph") + "/hooks/pinta-gemini.json"));
  ::unsetenv("COPILOT_HOME");
}

// ---- project scope and trust --------------------------------------------------------------------

TEST(CopilotInstall, WorkspaceWritesTheRepositoryFileWhichRunsOnlyInATrustedFolder) {
  TempDir t;
  auto o = cp_options(t);
  o.adapter_path = t.sub("bin/pinta-gemini");
  write_text(o.adapter_path, "#!/bin/sh\n", 0755);
  InstallOptions w = o;
  w.workspace = t.sub("proj");
  std::filesystem::create_directories(w.workspace);
  auto before = snapshot(t.sub(""));
  auto p = plan_install(w);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_TRUE(warned(*p, "only in a trusted folder"));
  run(p);
  const std::string repo_file = w.workspace + "/.github/hooks/pinta-gemini.json";
  ASSERT_TRUE(std::filesystem::exists(repo_file));
  EXPECT_FALSE(std::filesystem::exists(hooks_of(o)));
  // CPM src-repo-untrusted: not loaded in a folder that is not trusted.
  auto untrusted = doctor(o.home, w.workspace);
  EXPECT_TRUE(has(untrusted, "broken", "not trusted")) << untrusted.to_text();
  EXPECT_TRUE(has(untrusted, "info", "not installed")) << "none of ours loads";
  // CPM src-repo-trusted-settings: trustedFolders in settings.json is not honoured.
  write_text(o.home + "/.copilot/settings.json", json({{"trustedFolders", {w.workspace}}}).dump());
  EXPECT_TRUE(has(doctor(o.home, w.workspace), "broken", "not trusted"));
  // CPM src-repo-trusted-config: config.json's trustedFolders is (the file as Copilot 1.0.102
  // writes it, `//` comment lines first: seen by the real-install lane).
  write_text(o.home + "/.copilot/config.json",
             "// User settings belong in settings.json.\n// This file is managed automatically.\n" +
                 json({{"trustedFolders", {w.workspace}}}).dump(2) + "\n");
  auto trusted = doctor(o.home, w.workspace);
  EXPECT_FALSE(trusted.broken()) << trusted.to_text();
  EXPECT_TRUE(has(trusted, "ok", "registered for every")) << trusted.to_text();
  // The user install as well: every event registered twice.
  run(plan_install(o));
  EXPECT_TRUE(has(doctor(o.home, w.workspace), "warn", "more than once"));
  run(plan_uninstall(o));
  run(plan_uninstall(w));
  std::filesystem::remove(o.home + "/.copilot/config.json");
  std::filesystem::remove(o.home + "/.copilot/settings.json");
  std::filesystem::remove(o.home + "/.copilot");
  EXPECT_EQ(snapshot(t.sub("")), before);
}

// ---- the Claude Code registration Copilot also runs ---------------------------------------------

TEST(CopilotOverlap, AClaudeCodeInstallInTheRepositoryIsNotedByInstallAndWarnedByDoctor) {
  TempDir t;
  auto o = cp_options(t);
  o.adapter_path = t.sub("bin/pinta-gemini");
  write_text(o.adapter_path, "#!/bin/sh\n", 0755);
  const std::string ws = t.sub("proj");
  std::filesystem::create_directories(ws);
  // Installed for Claude Code in the repository (the project's .claude/settings.json).
  InstallOptions c = o;
  c.host = Host::kClaude;
  c.workspace = ws;
  run(plan_install(c));
  ASSERT_NE(read_text(ws + "/.claude/settings.json").find("--agent claude-code"), std::string::npos);
  // Untrusted folder: Copilot does not run it (CPM src-claude-untrusted).
  auto untrusted = doctor(o.home, ws);
  EXPECT_TRUE(has(untrusted, "info", "once this folder is trusted")) << untrusted.to_text();
  // Trusted, and Copilot not installed: it runs through the Claude registration only.
  write_text(o.home + "/.copilot/config.json", json({{"trustedFolders", {ws}}}).dump());
  auto only_claude = doctor(o.home, ws);
  EXPECT_TRUE(has(only_claude, "info", "spans name Claude Code")) << only_claude.to_text();
  EXPECT_TRUE(has(only_claude, "info", "only through the Claude Code settings"));
  EXPECT_FALSE(only_claude.broken());
  // install --host copilot with that workspace says so; after it, doctor warns: judged twice.
  InstallOptions w = o;
  w.workspace = ws;
  auto p = plan_install(w);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_TRUE(warned(*p, ws + "/.claude/settings.json registers pinta-gemini for Claude Code"));
  run(plan_install(o));  // the user install: runs without trust
  auto both = doctor(o.home, ws);
  EXPECT_TRUE(has(both, "warn", "judged twice")) << both.to_text();
  EXPECT_FALSE(both.broken()) << "both deny correctly: a warning, not broken";
  // The same registration in .claude/settings.local.json (CPM src-claude-local-trusted).
  run(plan_uninstall(c));
  write_text(ws + "/.claude/settings.local.json",
             *claude_code_add_ours(pinta::admin::jsonedit::kFreshFile, o.adapter_path));
  EXPECT_TRUE(has(doctor(o.home, ws), "warn", "settings.local.json registers pinta-gemini"));
  std::filesystem::remove(ws + "/.claude/settings.local.json");
  EXPECT_FALSE(has(doctor(o.home, ws), "warn", "judged twice"));
}

// ---- doctor -------------------------------------------------------------------------------------

TEST(CopilotDoctor, WhatKeepsTheGuardFromRunning) {
  TempDir t;
  auto o = cp_options(t);
  EXPECT_TRUE(has(doctor(o.home), "info", "not installed for Copilot CLI"));
  o.adapter_path = t.sub("bin/pinta-gemini");
  write_text(o.adapter_path, "#!/bin/sh\n", 0755);
  run(plan_install(o));
  auto ok = doctor(o.home);
  EXPECT_TRUE(has(ok, "ok", "registered for every Copilot CLI event")) << ok.to_text();
  EXPECT_FALSE(ok.broken()) << ok.to_text();
  const std::string good = read_text(hooks_of(o));

  // The program is gone: preToolUse fails closed, every call is denied.
  ::chmod(o.adapter_path.c_str(), 0644);
  EXPECT_TRUE(has(doctor(o.home), "broken", "fails closed")) << doctor(o.home).to_text();
  ::chmod(o.adapter_path.c_str(), 0755);

  // CPM src-broken-file, src-version-2: the file is dropped without a word.
  write_text(hooks_of(o), good.substr(0, good.size() - 3));
  EXPECT_TRUE(has(doctor(o.home), "broken", "skips the whole file")) << doctor(o.home).to_text();
  std::string v2 = good;
  v2.replace(v2.find("\"version\": 1"), 12, "\"version\": 2");
  write_text(hooks_of(o), v2);
  EXPECT_TRUE(has(doctor(o.home), "broken", "drop the whole file")) << doctor(o.home).to_text();

  // The label does not match the format: a PascalCase key gets the Claude-style payload.
  std::string pascal = good;
  pascal.replace(pascal.find("\"preToolUse\""), 12, "\"PreToolUse\"");
  write_text(hooks_of(o), pascal);
  auto mislabelled = doctor(o.home);
  EXPECT_TRUE(has(mislabelled, "broken", "says --agent copilot, but a PascalCase event"))
      << mislabelled.to_text();

  // An event missing, and a duplicate in a second file.
  json j = json::parse(good);
  j["hooks"].erase("sessionEnd");
  write_text(hooks_of(o), j.dump(2));
  EXPECT_TRUE(has(doctor(o.home), "warn", "not registered for sessionEnd"));
  write_text(hooks_of(o), good);
  write_text(o.home + "/.copilot/hooks/copy.json", good);
  EXPECT_TRUE(has(doctor(o.home), "warn", "more than once")) << doctor(o.home).to_text();
  std::filesystem::remove(o.home + "/.copilot/hooks/copy.json");
  EXPECT_FALSE(doctor(o.home).broken());
}

TEST(CopilotDoctor, LintFilesAreTheHookFilesCopilotReads) {
  TempDir t;
  auto o = cp_options(t);
  DoctorOptions d;
  d.home = o.home;
  d.workspace = t.sub("proj");
  auto none = family_admin(Host::kCopilot).lint_files.value(d);
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].path, hooks_of(o));
  write_text(o.home + "/.copilot/hooks/a.json", "{}");
  write_text(d.workspace + "/.github/hooks/b.json", "{}");
  write_text(d.workspace + "/.github/hooks/notes.txt", "");
  std::vector<std::string> paths;
  for (const auto& f : family_admin(Host::kCopilot).lint_files.value(d)) paths.push_back(f.path);
  EXPECT_EQ(paths, (std::vector<std::string>{o.home + "/.copilot/hooks/a.json",
                                             d.workspace + "/.github/hooks/b.json"}));
}
