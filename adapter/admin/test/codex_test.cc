// Codex CLI 0.171 installer and doctor (codex.h): our hooks in hooks.json merged among the user's
// by minimal edits, their trust recorded in config.toml by minimal edits (CX: an untrusted hook is
// skipped without a word), or where the layer keeps its hooks in config.toml, our groups there
// beside the user's; idempotent, uninstall takes back exactly ours (byte for byte), a file
// install cannot edit safely refused in one line with nothing written. Hermetic: HOME and
// CODEX_HOME under a temp dir.
#include "pinta/admin/codex.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "../src/admin_internal.h"  // the family's FamilyAdmin entry (lint_files)
#include "admin_test_util.h"
#include "pinta/common/test_support.h"
#include "pinta/hosts/codex/codex.h"

using namespace pinta::admin;
using nlohmann::json;
using pinta::testing::TempDir;
namespace cx = pinta::hosts::codex;

namespace {

// HOME under `t`, CODEX_HOME unset (~/.codex), the install state under HOME.
InstallOptions cx_options(const TempDir& t) {
  InstallOptions o = family_options(t, Host::kCodex);
  ::unsetenv("CODEX_HOME");
  return o;
}

std::string hooks_of(const InstallOptions& o) { return o.home + "/.codex/hooks.json"; }
std::string config_of(const InstallOptions& o) { return o.home + "/.codex/config.toml"; }

// What Codex's own loader (hosts/codex) makes of the files: our handler per event, trusted.
std::map<std::string, cx::HookHandler> loaded_ours(const std::string& codex_home,
                                                   const std::string& project = "",
                                                   bool project_trusted = false) {
  cx::Sources s;
  s.codex_home = codex_home;
  s.project = project;
  s.project_trusted = project_trusted;
  auto l = cx::load_hooks(s);
  std::map<std::string, cx::HookHandler> out;
  if (!l) return out;
  for (const auto& h : l->handlers)
    if (codex_is_ours(h.command)) out[h.event] = h;
  return out;
}

const std::vector<std::string>& events() { return installed_events(Host::kCodex); }

const char* kUserHooks =
    "{\n"
    "    \"hooks\": {\n"
    "        \"PreToolUse\": [\n"
    "            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./mine.sh\", \"timeout\": 5}]}\n"
    "        ]\n"
    "    }\n"
    "}\n";

const char* kUserToml =
    "# my Codex settings\n"
    "model = \"o4\"   # trailing comment\n"
    "notes = \"\"\"\n"
    "[hooks.state.\"not a table\"]\n"
    "\"\"\"\n"
    "args = [\n"
    "  \"a\", # comment in an array\n"
    "  'b',\n"
    "]\n"
    "when = 1979-05-27 07:32:00Z\n"
    "\n"
    "[projects.\"/work/p\"]\n"
    "trust_level = \"trusted\"\n"
    "\n"
    "[hooks.state.\"/elsewhere/hooks.json:stop:0:0\"]\n"
    "trusted_hash = \"sha256:0000\"\n";

int count(const std::string& hay, const std::string& needle) {
  int n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

// ---- install ------------------------------------------------------------------------------------

TEST(CodexInstall, FreshHomeGetsEveryEventTrustedAndRoundTripsToNothing) {
  TempDir t;
  auto o = cx_options(t);
  auto before = snapshot(o.home);
  auto p = plan_install(o);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(codex_hooks_path(o), hooks_of(o));
  EXPECT_EQ(codex_config_path(o), config_of(o));
  bool said = std::any_of(p->warnings.begin(), p->warnings.end(), [&](const std::string& w) {
    return w.rfind("trusted " + std::to_string(events().size()) + " hooks in " + config_of(o), 0) == 0;
  });
  EXPECT_TRUE(said) << "install says it recorded the trust";
  run(p);
  json h = json::parse(read_text(hooks_of(o)))["hooks"];
  ASSERT_EQ(h.size(), events().size());
  const std::string toml = read_text(config_of(o));
  for (const auto& e : events()) {
    ASSERT_TRUE(h.contains(e)) << e;
    ASSERT_EQ(h[e].size(), 1u);
    EXPECT_EQ(h[e][0]["matcher"], "*") << e;
    const json& handler = h[e][0]["hooks"][0];
    EXPECT_EQ(handler, json({{"type", "command"},
                             {"command", "'/opt/pinta/bin/pinta-gemini' --agent codex --event " + e},
                             {"timeout", e == "SessionEnd" ? 3 : 10}}))  // seconds (CX), under
        << e;  // SessionEnd's 3 s ceiling (above it Codex clamps with a warning at every start)
    // The trust table Codex looks up: the key names hooks.json, the event's label, 0:0.
    std::string key = cx::trust_key(hooks_of(o), e, 0, 0);
    EXPECT_NE(key.find(":" + cx::event_key_label(e) + ":0:0"), std::string::npos) << key;
    EXPECT_EQ(count(toml, "[hooks.state.\"" + key + "\"] # pinta-gemini\ntrusted_hash = \"sha256:"), 1) << toml;
  }
  // Codex's loader finds every one of ours trusted with the current hash.
  auto loaded = loaded_ours(o.home + "/.codex");
  for (const auto& e : events()) {
    ASSERT_TRUE(loaded.count(e)) << e;
    EXPECT_EQ(loaded[e].trust_status, cx::TrustStatus::kTrusted) << e;
  }
  auto again = plan_install(o);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->changes.empty()) << render_diff(*again);
  run(plan_uninstall(o));
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(CodexInstall, MergesAmongUserFilesKeepingEveryByteOfTheirs) {
  TempDir t;
  auto o = cx_options(t);
  write_text(hooks_of(o), kUserHooks);
  write_text(config_of(o), kUserToml);
  auto before = snapshot(o.home);
  run(plan_install(o));
  std::string installed = read_text(hooks_of(o));
  std::string head(kUserHooks, std::string(kUserHooks).find("\"timeout\": 5}]}") + 15);
  EXPECT_EQ(installed.substr(0, head.size()), head) << installed;
  auto j = nlohmann::ordered_json::parse(installed);
  ASSERT_EQ(j["hooks"]["PreToolUse"].size(), 2u);
  EXPECT_EQ(j["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "./mine.sh");  // theirs first
  // Ours is group 1 there: its trust key says so.
  std::string toml = read_text(config_of(o));
  EXPECT_EQ(toml.rfind(kUserToml, 0), 0u) << "the user's config.toml is a prefix, untouched";
  EXPECT_NE(toml.find("[hooks.state.\"" + cx::trust_key(hooks_of(o), "PreToolUse", 1, 0) + "\"]"),
            std::string::npos)
      << toml;
  EXPECT_NE(toml.find("sha256:0000"), std::string::npos);  // another hook's trust stays
  auto loaded = loaded_ours(o.home + "/.codex");
  ASSERT_TRUE(loaded.count("PreToolUse"));
  EXPECT_EQ(loaded["PreToolUse"].group_index, 1);
  EXPECT_EQ(loaded["PreToolUse"].trust_status, cx::TrustStatus::kTrusted);
  auto again = plan_install(o);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->changes.empty()) << render_diff(*again);
  run(plan_uninstall(o));
  EXPECT_EQ(snapshot(o.home), before);  // byte for byte; the backup went with it
}

// Both files of the layer define hooks: install writes hooks.json, and says that Codex will warn
// on every start (scenario layers-json-and-toml); config.toml with trust only: no such warning.
TEST(CodexInstall, HooksInBothFilesOfTheLayerAreSaid) {
  TempDir t;
  auto o = cx_options(t);
  auto said = [&] {
    auto p = plan_install(o);
    EXPECT_TRUE(p) << p.error().message;
    return p && std::any_of(p->warnings.begin(), p->warnings.end(), [](const std::string& w) {
             return w.find("defines hooks too") != std::string::npos;
           });
  };
  write_text(hooks_of(o), kUserHooks);
  write_text(config_of(o), kUserToml);  // [hooks.state] only: trust, no hooks
  EXPECT_FALSE(said());
  write_text(config_of(o), std::string(kUserToml) +
                               "\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\n"
                               "command = \"./stop.sh\"\n");
  EXPECT_TRUE(said());
  run(plan_install(o));
  EXPECT_EQ(count(read_text(hooks_of(o)), "--agent codex"), static_cast<int>(events().size()));
  EXPECT_EQ(count(read_text(config_of(o)), "[[hooks."), 2) << "only the user's group";
}

// ---- the config.toml form -----------------------------------------------------------------------

namespace {

DoctorReport doctor(const InstallOptions& o);
bool has(const DoctorReport& r, const std::string& level, const std::string& text);

// A user who keeps their hooks in config.toml: comments, odd spacing, other tables, a group of
// theirs on PreToolUse (so ours is group 1 there), CRLF line ends, no line break at the end.
const char* kUserTomlHooks =
    "# my Codex settings\r\n"
    "model   =   \"o4\"   # trailing comment\r\n"
    "notes = '''\r\n[[hooks.PreToolUse]] # pinta-gemini\r\n'''\r\n"
    "\r\n"
    "[ projects . \"/work/p\" ]\r\n"
    "trust_level = \"trusted\"\r\n"
    "\r\n"
    "[[ hooks . PreToolUse ]]   # mine\r\n"
    "matcher = \"Bash\"\r\n"
    "  [[hooks.PreToolUse.hooks]]\r\n"
    "  type = \"command\"\r\n"
    "  command = \"./mine.sh\"\r\n"
    "\r\n"
    "[hooks.state.\"/elsewhere/hooks.json:stop:0:0\"]\r\n"
    "trusted_hash = \"sha256:0000\"\r\n"
    "[tui]\r\n"
    "notifications = true";

}  // namespace

TEST(CodexInstall, HooksKeptInConfigTomlGetOursThereEveryOtherByteKept) {
  TempDir t;
  auto o = cx_options(t);
  o.adapter_path = t.sub("bin/pinta-gemini");
  write_text(o.adapter_path, "#!/bin/sh\n", 0755);
  write_text(config_of(o), kUserTomlHooks);
  auto before = snapshot(o.home);
  auto p = plan_install(o);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_FALSE(std::any_of(p->warnings.begin(), p->warnings.end(), [](const std::string& w) {
    return w.find("defines hooks too") != std::string::npos;
  }));
  run(p);
  EXPECT_FALSE(std::filesystem::exists(hooks_of(o))) << "no hooks.json beside the TOML form";
  const std::string toml = read_text(config_of(o));
  const size_t user = std::string(kUserTomlHooks).size();
  EXPECT_EQ(toml.rfind(kUserTomlHooks, 0), 0u) << "the user's bytes are a prefix, untouched\n"
                                               << toml;
  EXPECT_EQ(toml.compare(user, 4, "\r\n# "), 0) << "a line break, then our mark";
  EXPECT_EQ(count(toml, "\n"), count(toml, "\r\n")) << "our lines end as the file's do";
  // Codex's loader reads ours from config.toml, trusted there (the key names config.toml).
  auto loaded = loaded_ours(o.home + "/.codex");
  for (const auto& e : events()) {
    ASSERT_TRUE(loaded.count(e)) << e;
    EXPECT_EQ(loaded[e].source, "user-toml") << e;
    EXPECT_EQ(loaded[e].trust_status, cx::TrustStatus::kTrusted) << e;
    EXPECT_EQ(loaded[e].timeout_sec, e == "SessionEnd" ? 3 : 10) << e;
    EXPECT_EQ(loaded[e].matcher, cx::event_uses_matcher(e) ? "*" : "") << e;
  }
  EXPECT_EQ(loaded["PreToolUse"].group_index, 1) << "after the user's group";
  EXPECT_EQ(loaded["PreToolUse"].trust_key, cx::trust_key(config_of(o), "PreToolUse", 1, 0));
  EXPECT_EQ(count(toml, "\"] # pinta-gemini\r\ntrusted_hash = \"sha256:"),
            static_cast<int>(events().size()));
  EXPECT_EQ(count(toml, "# pinta-gemini: "), 1) << "one block";
  // The user's own group is read where it was (untrusted as before: not ours to trust).
  cx::Sources s;
  s.codex_home = o.home + "/.codex";
  auto all = cx::load_hooks(s);
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_EQ(all->handlers.front().command, "./mine.sh");
  EXPECT_EQ(all->handlers.front().trust_status, cx::TrustStatus::kUntrusted);
  // Doctor sees the TOML install.
  auto ok = doctor(o);
  EXPECT_TRUE(has(ok, "ok", "registered and trusted for every Codex event")) << ok.to_text();
  EXPECT_FALSE(ok.broken()) << ok.to_text();
  EXPECT_FALSE(has(ok, "info", "also defines hooks")) << ok.to_text();
  // Its trust taken out: doctor says the guard never runs.
  auto untrusted = codex_remove_trust(toml, config_of(o));
  ASSERT_TRUE(untrusted && untrusted->has_value());
  EXPECT_EQ(count(**untrusted, "[[hooks."), 2 + static_cast<int>(events().size()));
  write_text(config_of(o), **untrusted);
  auto r = doctor(o);
  EXPECT_TRUE(has(r, "broken", "is not trusted for PreToolUse")) << r.to_text();
  EXPECT_TRUE(has(r, "broken", "does not run for Codex's")) << r.to_text();
  // Install again: trusted as before, and a further install changes nothing.
  run(plan_install(o));
  EXPECT_EQ(read_text(config_of(o)), toml);
  auto again = plan_install(o);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->changes.empty()) << render_diff(*again);
  EXPECT_FALSE(std::filesystem::exists(hooks_of(o)));
  // Uninstall: the original bytes, nothing left behind.
  run(plan_uninstall(o));
  std::filesystem::remove_all(t.sub("bin"));
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(CodexInstall, TomlFormReinstallRewritesOursInPlaceAndKeepsGroupsAddedAfter) {
  TempDir t;
  auto o = cx_options(t);
  const std::string mine = "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"s\" }]\n";
  write_text(config_of(o), mine);
  run(plan_install(o));
  // The user adds a Stop group after ours.
  const std::string added = "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"t\" }]\n";
  write_text(config_of(o), read_text(config_of(o)) + added);
  o.adapter_path = "/usr/local/bin/pinta-gemini";
  run(plan_install(o));
  const std::string toml = read_text(config_of(o));
  EXPECT_EQ(toml.find("/opt/pinta"), std::string::npos) << toml;
  EXPECT_EQ(count(toml, "'/usr/local/bin/pinta-gemini' --agent codex"),
            static_cast<int>(events().size()));
  auto loaded = loaded_ours(o.home + "/.codex");
  EXPECT_EQ(loaded["Stop"].group_index, 1) << "ours kept its place (and so its key)";
  for (const auto& e : events())
    EXPECT_EQ(loaded[e].trust_status, cx::TrustStatus::kTrusted) << e;
  run(plan_uninstall(o));
  EXPECT_EQ(read_text(config_of(o)), mine + added);
}

// Ours in config.toml stays there when hooks.json gains hooks of the user's: said, not moved.
TEST(CodexInstall, TomlFormStaysWhenHooksJsonGainsHooksAndBothAreSaid) {
  TempDir t;
  auto o = cx_options(t);
  write_text(config_of(o), "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"s\" }]\n");
  run(plan_install(o));
  write_text(hooks_of(o), kUserHooks);
  auto p = plan_install(o);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_TRUE(p->changes.empty()) << render_diff(*p);
  EXPECT_TRUE(std::any_of(p->warnings.begin(), p->warnings.end(), [&](const std::string& w) {
    return w.rfind(hooks_of(o) + " defines hooks too: install writes [hooks] in", 0) == 0;
  }));
  EXPECT_EQ(read_text(hooks_of(o)), kUserHooks);
}

TEST(CodexInstall, TomlFormAnEventListWrittenInlineIsRefusedWithNothingWritten) {
  TempDir t;
  auto o = cx_options(t);
  for (const std::string text :
       {"[hooks]\nPreToolUse = [{ hooks = [{ type = \"command\", command = \"x\" }] }]\n",
        "hooks.Stop = []\n[[hooks.SessionStart]]\n"}) {
    write_text(config_of(o), text);
    auto before = snapshot(o.home);
    auto p = plan_install(o);
    ASSERT_FALSE(p) << text;
    EXPECT_NE(p.error().message.find("is written as an inline value"), std::string::npos)
        << p.error().message;
    EXPECT_EQ(p.error().message.find('\n'), std::string::npos) << p.error().message;
    EXPECT_EQ(snapshot(o.home), before);
  }
}

TEST(CodexInstall, WorkspaceKeepingHooksInItsConfigTomlGetsOursThere) {
  TempDir t;
  auto o = cx_options(t);
  InstallOptions w = o;
  w.workspace = t.sub("proj");
  const std::string project_text =
      "sandbox_mode = \"read-only\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n"
      "hooks = [{ type = \"command\", command = \"./p.sh\" }]\n";
  write_text(w.workspace + "/.codex/config.toml", project_text);
  char real[PATH_MAX];
  ASSERT_TRUE(::realpath(w.workspace.c_str(), real));
  const std::string user_text =
      "[projects.\"" + std::string(real) + "\"]\ntrust_level = \"trusted\"\n";
  write_text(config_of(o), user_text);
  auto before = snapshot(t.path());
  run(plan_install(w));
  const std::string project_toml = std::string(real) + "/.codex/config.toml";
  EXPECT_FALSE(std::filesystem::exists(std::string(real) + "/.codex/hooks.json"));
  EXPECT_EQ(read_text(project_toml).rfind(project_text, 0), 0u);
  EXPECT_EQ(read_text(project_toml).find("hooks.state"), std::string::npos)
      << "a project cannot trust its own hooks (CXSRC config_rules.rs)";
  const std::string toml = read_text(config_of(o));
  EXPECT_EQ(toml.rfind(user_text, 0), 0u);
  EXPECT_EQ(count(toml, "[hooks.state.\"" + project_toml + ":"), static_cast<int>(events().size()));
  auto loaded = loaded_ours(o.home + "/.codex", real, true);
  for (const auto& e : events()) {
    EXPECT_EQ(loaded[e].source, "project-toml") << e;
    EXPECT_EQ(loaded[e].trust_status, cx::TrustStatus::kTrusted) << e;
  }
  DoctorOptions d;
  d.home = o.home;
  d.workspace = w.workspace;
  DoctorReport r;
  check_codex(d, r);
  EXPECT_TRUE(has(r, "ok", "registered and trusted for every Codex event")) << r.to_text();
  auto again = plan_install(w);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->changes.empty()) << render_diff(*again);
  run(plan_uninstall(w));
  EXPECT_EQ(snapshot(t.path()), before);
}

TEST(CodexInstall, ReinstallWithAnotherAdapterPathUpdatesHookAndHash) {
  TempDir t;
  auto o = cx_options(t);
  write_text(config_of(o), kUserToml);
  auto before = snapshot(o.home);
  run(plan_install(o));
  const std::string first = read_text(config_of(o));
  o.adapter_path = "/usr/local/bin/pinta-gemini";
  run(plan_install(o));
  const std::string second = read_text(config_of(o));
  EXPECT_NE(first, second);
  EXPECT_EQ(count(second, "# pinta-gemini: "), 1) << second;  // one block, rewritten in place
  EXPECT_EQ(count(second, "trusted_hash = "), static_cast<int>(events().size()) + 1);
  std::string hooks = read_text(hooks_of(o));
  EXPECT_EQ(hooks.find("/opt/pinta"), std::string::npos);
  EXPECT_EQ(count(hooks, "'/usr/local/bin/pinta-gemini' --agent codex"),
            static_cast<int>(events().size()));
  auto loaded = loaded_ours(o.home + "/.codex");
  for (const auto& e : events())
    EXPECT_EQ(loaded[e].trust_status, cx::TrustStatus::kTrusted) << e;
  run(plan_uninstall(o));
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(CodexInstall, CodexHomeFromTheEnvironmentIsCanonicalInTheTrustKey) {
  TempDir t;
  auto o = cx_options(t);
  std::filesystem::create_directories(t.sub("real-codex"));
  std::filesystem::create_symlink(t.sub("real-codex"), t.sub("link-codex"));
  ::setenv("CODEX_HOME", t.sub("link-codex").c_str(), 1);
  auto p = plan_install(o);
  ::unsetenv("CODEX_HOME");
  ASSERT_TRUE(p) << p.error().message;
  run(p);
  char real[PATH_MAX];
  ASSERT_TRUE(::realpath(t.sub("real-codex").c_str(), real));
  std::string toml = read_text(std::string(real) + "/config.toml");
  EXPECT_NE(toml.find("[hooks.state.\"" + std::string(real) + "/hooks.json:pre_tool_use:0:0\"] # pinta-gemini"),
            std::string::npos)
      << toml;
  EXPECT_FALSE(std::filesystem::exists(o.home + "/.codex"));
}

// ---- config.toml edits --------------------------------------------------------------------------

TEST(CodexTrustToml, EveryShapeRoundTripsByteForByte) {
  const std::vector<CodexTrust> ours = {{"/h/.codex/hooks.json:pre_tool_use:0:0", "sha256:aa", "PreToolUse"},
                                        {"/h/.codex/hooks.json:stop:0:0", "sha256:bb", "Stop"}};
  const std::string hooks = "/h/.codex/hooks.json";
  const std::vector<std::string> shapes = {
      "",                                     // empty file
      "model = \"o4\"\n",                     // no [hooks.state]
      "model = \"o4\"",                       // no line break at the end
      "model = \"o4\"\r\n[tui]\r\nx = 1\r\n",  // CRLF
      "model = \"o4\"\r\n[tui]\r\nx = 1",      // CRLF, no break at the end
      kUserToml,                               // other hooks' trust, strings, arrays, dates
      "[hooks.state]\n\"/x/hooks.json:stop:0:0\" = { trusted_hash = \"sha256:1\" }\n",
      "\xEF\xBB\xBFmodel = 'o4'\n",  // a byte order mark
  };
  for (const auto& s : shapes) {
    auto set = codex_set_trust(s, hooks, ours);
    ASSERT_TRUE(set) << s << ": " << set.error().message;
    EXPECT_EQ(set->rfind(s, 0), 0u) << "the user's bytes come first, unchanged: " << *set;
    EXPECT_EQ(count(*set, "trusted_hash = \"sha256:aa\""), 1) << *set;
    EXPECT_EQ(count(*set, "[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"] # pinta-gemini"), 1) << *set;
    if (s.find("\r\n") != std::string::npos) {
      EXPECT_EQ(count(*set, "\n"), count(*set, "\r\n")) << "CRLF kept: " << *set;
    }
    auto again = codex_set_trust(*set, hooks, ours);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *set) << "idempotent";
    auto removed = codex_remove_trust(*set, hooks);
    ASSERT_TRUE(removed) << removed.error().message;
    ASSERT_TRUE(removed->has_value());
    EXPECT_EQ(**removed, s);
  }
  // No file: created, and removed again when nothing else is in it.
  auto created = codex_set_trust(std::nullopt, hooks, ours);
  ASSERT_TRUE(created);
  auto gone = codex_remove_trust(*created, hooks);
  ASSERT_TRUE(gone);
  EXPECT_FALSE(gone->has_value());
  // ... but kept when the user wrote to it since.
  auto kept = codex_remove_trust("model = \"o4\"\n" + *created, hooks);
  ASSERT_TRUE(kept && kept->has_value());
  EXPECT_EQ(**kept, "model = \"o4\"\n");
}

TEST(CodexTrustToml, AUsersOwnTableForOurKeyIsUpdatedInPlace) {
  const std::string hooks = "/h/.codex/hooks.json";
  const std::string user =
      "[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:0:0\"]\n"
      "trusted_hash = \"sha256:old\"  # trusted in /hooks\n"
      "\n"
      "[tui]\n";
  auto set = codex_set_trust(user, hooks, {{hooks + ":pre_tool_use:0:0", "sha256:new", "PreToolUse"}});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(*set,
            "[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:0:0\"]\n"
            "trusted_hash = \"sha256:new\"  # trusted in /hooks\n"
            "\n"
            "[tui]\n");
}

TEST(CodexTrustToml, TheOtherHooksFilesTrustStaysInOurBlock) {
  // User and project installs share one block in $CODEX_HOME/config.toml.
  const std::string user = "/h/.codex/hooks.json", project = "/p/.codex/hooks.json";
  auto a = codex_set_trust(std::string("x = 1\n"), user, {{user + ":stop:0:0", "sha256:u", "Stop"}});
  ASSERT_TRUE(a);
  auto b = codex_set_trust(*a, project, {{project + ":stop:0:0", "sha256:p", "Stop"}});
  ASSERT_TRUE(b);
  EXPECT_EQ(count(*b, "# pinta-gemini: "), 1) << *b;
  EXPECT_EQ(count(*b, "sha256:u"), 1);
  EXPECT_EQ(count(*b, "sha256:p"), 1);
  auto c = codex_remove_trust(*b, project);
  ASSERT_TRUE(c && c->has_value());
  EXPECT_EQ(**c, *a);
  auto d = codex_remove_trust(**c, user);
  ASSERT_TRUE(d && d->has_value());
  EXPECT_EQ(**d, "x = 1\n");
}

TEST(CodexTrustToml, TablesCodexWritesBesideOursAreNeverTakenForOurs) {
  // Codex's /hooks appends the trust of the user's own hooks (same hooks.json) after ours.
  const std::string hooks = "/h/.codex/hooks.json";
  auto a = codex_set_trust(std::string("x = 1"), hooks,
                           {{hooks + ":stop:1:0", "sha256:ours", "Stop"}});
  ASSERT_TRUE(a);
  const std::string theirs = "[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:theirs\"\n";
  auto b = codex_set_trust(*a + theirs, hooks, {{hooks + ":stop:1:0", "sha256:new", "Stop"}});
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(count(*b, "sha256:theirs"), 1) << *b;
  EXPECT_EQ(count(*b, "sha256:new"), 1) << *b;
  EXPECT_EQ(count(*b, "sha256:ours"), 0) << *b;
  auto c = codex_remove_trust(*b, hooks);
  ASSERT_TRUE(c && c->has_value());
  EXPECT_EQ(**c, "x = 1\n" + theirs) << "theirs stays; only the break ours needed is left";
}

TEST(CodexTrustToml, ShapesThatCannotTakeOurTableAreRefusedInOneLine) {
  const std::string hooks = "/h/.codex/hooks.json";
  const std::vector<CodexTrust> ours = {{hooks + ":stop:0:0", "sha256:aa", "Stop"}};
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"[hooks]\nstate = { \"k\" = { trusted_hash = \"sha256:1\" } }\n", "2: hooks.state is written as an inline value"},
      {"hooks = { state = {} }\n", "1: hooks is written as an inline value"},
      {"hooks.state = {}\n", "1: hooks.state is written as an inline value"},
      {"[[hooks.state]]\n", "1: hooks.state is an array of tables"},
      {"[hooks.state]\n\"/h/.codex/hooks.json:stop:0:0\".trusted_hash = \"sha256:1\"\n",
       "2: the trust of our hook"},
      {"model = \"unterminated\n", "1: a string is not closed"},
      {"[tui\n", "1: expected ]"},
      {"just words\n", "1: expected = after a key"},
      {"a = [1,\n2\n", "3: expected , or ] in an array"},
      {"s = \"\"\"never closed\n", "a multi-line string is not closed"},
  };
  for (const auto& [text, why] : refused) {
    auto r = codex_set_trust(text, hooks, ours);
    ASSERT_FALSE(r) << text;
    EXPECT_NE(r.error().message.find(why), std::string::npos) << text << ": " << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
  }
}

// ---- refusals through install -------------------------------------------------------------------

TEST(CodexInstall, FilesItCannotEditAreRefusedWithOneLineAndNothingWritten) {
  struct Case {
    std::string name;
    std::function<void(const InstallOptions&)> make;
    std::string names;  // the file the message names
    std::string says;
  };
  const std::vector<Case> cases = {
      {"invalid JSON", [](const InstallOptions& o) { write_text(hooks_of(o), "{\"hooks\": {,}}\n"); },
       "hooks.json:1:", "nothing written"},
      {"hooks not an object",
       [](const InstallOptions& o) { write_text(hooks_of(o), "{\"hooks\": []}\n"); }, "hooks.json:1:",
       "\"hooks\" is not an object"},
      {"a hooks.json Codex refuses whole",
       [](const InstallOptions& o) {
         write_text(hooks_of(o), R"({"hooks":{"Stop":[{"hooks":[{"type":"command","command":5}]}]}})");
       },
       "hooks.json: Codex would not load 11 of our hooks from it: failed to parse hooks config " ,
       "nothing written"},
      {"invalid TOML",
       [](const InstallOptions& o) { write_text(config_of(o), "model = \n"); }, "config.toml:1:",
       "expected a value"},
      {"a table defined twice (Codex's parser refuses the file)",
       [](const InstallOptions& o) { write_text(config_of(o), "[tui]\nx = 1\n[tui]\ny = 2\n"); },
       "config.toml:3:", "nothing written"},
      {"inline hooks.state",
       [](const InstallOptions& o) { write_text(config_of(o), "hooks = { state = {} }\n"); },
       "config.toml:1:", "inline value"},
      {"a directory for hooks.json",
       [](const InstallOptions& o) { std::filesystem::create_directories(hooks_of(o)); },
       "hooks.json: cannot be read", "nothing written"},
      {"a directory for config.toml",
       [](const InstallOptions& o) { std::filesystem::create_directories(config_of(o)); },
       "config.toml: cannot be read", "nothing written"},
      {"a FIFO for config.toml",
       [](const InstallOptions& o) {
         std::filesystem::create_directories(o.home + "/.codex");
         ::mkfifo(config_of(o).c_str(), 0644);
       },
       "config.toml: cannot be read", "nothing written"},
  };
  for (const auto& c : cases) {
    TempDir t;
    auto o = cx_options(t);
    c.make(o);
    // A FIFO is never opened here (that would block): its tree is compared by names.
    auto names = [&] {
      std::vector<std::string> v;
      for (auto& e : std::filesystem::recursive_directory_iterator(o.home))
        v.push_back(e.path().string());
      std::sort(v.begin(), v.end());
      return v;
    };
    const bool fifo = c.name.find("FIFO") != std::string::npos;
    auto before = fifo ? decltype(snapshot(o.home)){} : snapshot(o.home);
    auto before_names = names();
    auto p = plan_install(o);
    ASSERT_FALSE(p) << c.name;
    const std::string& m = p.error().message;
    EXPECT_NE(m.find(c.names), std::string::npos) << c.name << ": " << m;
    EXPECT_NE(m.find(c.says), std::string::npos) << c.name << ": " << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << c.name << ": " << m;
    EXPECT_EQ(names(), before_names) << c.name;
    if (!fifo) {
      EXPECT_EQ(snapshot(o.home), before) << c.name;
    }
  }
}

TEST(CodexInstall, UninstallRefusesAConfigItCannotReadAndChangesNothing) {
  TempDir t;
  auto o = cx_options(t);
  run(plan_install(o));
  write_text(config_of(o), read_text(config_of(o)) + "broken = \n");
  auto before = snapshot(o.home);
  auto p = plan_uninstall(o);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("config.toml:"), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("nothing written"), std::string::npos) << p.error().message;
  EXPECT_EQ(p.error().message.find('\n'), std::string::npos);
  EXPECT_EQ(snapshot(o.home), before);
}

TEST(CodexInstall, UnreadableFileIsRefused) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads a 000 file; the FIFO and directory cases cover it";
  TempDir t;
  auto o = cx_options(t);
  write_text(config_of(o), "model = \"o4\"\n", 0000);
  auto p = plan_install(o);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("config.toml: cannot be read"), std::string::npos);
}

namespace {
bool has(const DoctorReport& r, const std::string& level, const std::string& text);
}  // namespace

// ---- workspace ----------------------------------------------------------------------------------

TEST(CodexInstall, WorkspaceWritesTheProjectFileAndTrustsItInTheUserConfig) {
  TempDir t;
  auto o = cx_options(t);
  run(plan_install(o));  // the user install first
  const std::string user_toml = read_text(config_of(o));
  InstallOptions w = o;
  w.workspace = t.sub("proj");
  std::filesystem::create_directories(w.workspace);
  auto p = plan_install(w);
  ASSERT_TRUE(p) << p.error().message;
  bool said = std::any_of(p->warnings.begin(), p->warnings.end(), [](const std::string& s) {
    return s.find("only when the project is trusted") != std::string::npos;
  });
  EXPECT_TRUE(said);
  run(p);
  char real[PATH_MAX];
  ASSERT_TRUE(::realpath(w.workspace.c_str(), real));
  const std::string project_hooks = std::string(real) + "/.codex/hooks.json";
  EXPECT_TRUE(std::filesystem::exists(project_hooks));
  std::string toml = read_text(config_of(o));
  EXPECT_EQ(count(toml, "[hooks.state.\"" + project_hooks + ":"), static_cast<int>(events().size()));
  EXPECT_EQ(count(toml, "[hooks.state.\"" + hooks_of(o) + ":"), static_cast<int>(events().size()));
  EXPECT_FALSE(std::filesystem::exists(std::string(real) + "/.codex/config.toml"))
      << "a project cannot trust its own hooks (CXSRC config_rules.rs)";
  // Doctor: the project is not trusted, so its copy does not run; both layers hold ours.
  DoctorOptions d;
  d.home = o.home;
  d.workspace = w.workspace;
  DoctorReport r;
  check_codex(d, r);
  bool untrusted_project = std::any_of(r.findings.begin(), r.findings.end(), [](const Finding& f) {
    return f.level == "broken" && f.message.find("is not trusted in") != std::string::npos;
  });
  EXPECT_TRUE(untrusted_project) << r.to_text();
  EXPECT_FALSE(has(r, "warn", "more than once")) << "the untrusted project's copy does not run";
  // Trusted, the project's copy runs too: twice per event.
  const std::string installed = read_text(config_of(o));
  write_text(config_of(o), installed + "[projects.\"" + std::string(real) + "\"]\ntrust_level = \"trusted\"\n");
  DoctorReport twice;
  check_codex(d, twice);
  EXPECT_TRUE(has(twice, "warn", "runs more than once")) << twice.to_text();
  EXPECT_FALSE(has(twice, "broken", "trust")) << twice.to_text();
  write_text(config_of(o), installed);
  run(plan_uninstall(w));
  EXPECT_EQ(read_text(config_of(o)), user_toml);
  EXPECT_FALSE(std::filesystem::exists(project_hooks));
}

// ---- doctor -------------------------------------------------------------------------------------

namespace {

DoctorReport doctor(const InstallOptions& o) {
  DoctorOptions d;
  d.home = o.home;
  d.workspace = o.home;
  DoctorReport r;
  check_codex(d, r);
  return r;
}

bool has(const DoctorReport& r, const std::string& level, const std::string& text) {
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding& f) {
    return f.area == "codex" && f.level == level && f.message.find(text) != std::string::npos;
  });
}

}  // namespace

TEST(CodexDoctor, InstalledUntrustedStaleAndMissing) {
  TempDir t;
  auto o = cx_options(t);
  // Missing: not installed.
  EXPECT_TRUE(has(doctor(o), "info", "not installed for Codex")) << doctor(o).to_text();

  // Installed, with a real (executable) adapter path: ok.
  o.adapter_path = t.sub("bin/pinta-gemini");
  write_text(o.adapter_path, "#!/bin/sh\n", 0755);
  run(plan_install(o));
  auto ok = doctor(o);
  EXPECT_TRUE(has(ok, "ok", "registered and trusted for every Codex event")) << ok.to_text();
  EXPECT_FALSE(ok.broken()) << ok.to_text();

  // Stale: the hook changed since it was trusted (here its timeout), the hash no longer matches.
  const std::string hooks = read_text(hooks_of(o));
  std::string changed = hooks;
  size_t at = changed.find("\"timeout\": 10");
  ASSERT_NE(at, std::string::npos) << changed;
  changed.replace(at, 13, "\"timeout\": 11");
  write_text(hooks_of(o), changed);
  auto stale = doctor(o);
  EXPECT_TRUE(has(stale, "broken", "trust is stale")) << stale.to_text();
  EXPECT_TRUE(stale.broken());
  write_text(hooks_of(o), hooks);

  // A group the user put before ours moves our key: untrusted at the new place.
  std::string moved = hooks;
  at = moved.find("\"Stop\": [");
  ASSERT_NE(at, std::string::npos);
  moved.insert(at + 9, "{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}, ");
  write_text(hooks_of(o), moved);
  auto shifted = doctor(o);
  EXPECT_TRUE(has(shifted, "broken", "not trusted for Stop")) << shifted.to_text();
  EXPECT_TRUE(has(shifted, "info", "other hook(s) on Stop run beside ours")) << shifted.to_text();
  // Re-running install repairs it (the user's group stays first).
  run(plan_install(o));
  EXPECT_FALSE(doctor(o).broken()) << doctor(o).to_text();
  EXPECT_NE(read_text(hooks_of(o)).find("\"command\": \"true\""), std::string::npos);

  // Untrusted: the trust was taken out of config.toml.
  const std::string toml = read_text(config_of(o));
  write_text(config_of(o), "model = \"o4\"\n");
  auto untrusted = doctor(o);
  EXPECT_TRUE(has(untrusted, "broken", "the guard never runs")) << untrusted.to_text();
  EXPECT_NE(untrusted.to_text().find("/hooks"), std::string::npos) << "the fix names /hooks";
  write_text(config_of(o), toml);

  // Disabled in /hooks.
  const std::string header = "[hooks.state.\"" + cx::trust_key(hooks_of(o), "PreToolUse", 0, 0) +
                             "\"] # pinta-gemini\n";
  ASSERT_NE(toml.find(header), std::string::npos) << toml;
  std::string off = toml;
  off.insert(off.find(header) + header.size(), "enabled = false\n");  // as /hooks writes it
  write_text(config_of(o), off);
  EXPECT_TRUE(has(doctor(o), "broken", "disabled")) << doctor(o).to_text();
  // Re-running install keeps the user's choice and says so.
  auto keep = plan_install(o);
  ASSERT_TRUE(keep) << keep.error().message;
  EXPECT_TRUE(keep->changes.empty()) << render_diff(*keep);
  EXPECT_TRUE(std::any_of(keep->warnings.begin(), keep->warnings.end(), [](const std::string& w) {
    return w.rfind("1 of our hooks stay disabled", 0) == 0;
  }));
  write_text(config_of(o), toml);

  // Invalid JSON: Codex skips the file.
  write_text(hooks_of(o), hooks.substr(0, hooks.size() - 3));
  EXPECT_TRUE(has(doctor(o), "broken", "Codex skips this file")) << doctor(o).to_text();
}

TEST(CodexDoctor, LintFilesAreEveryFileCodexReadsHooksFrom) {
  TempDir t;
  auto o = cx_options(t);
  DoctorOptions d;
  d.home = o.home;
  d.workspace = t.sub("proj");
  std::vector<std::string> paths;
  for (const auto& f : family_admin(Host::kCodex).lint_files.value(d)) paths.push_back(f.path);
  EXPECT_EQ(paths, (std::vector<std::string>{o.home + "/.codex/hooks.json", o.home + "/.codex/config.toml",
                                             d.workspace + "/.codex/hooks.json",
                                             d.workspace + "/.codex/config.toml"}));
}

// The installed release (`codex --version` of the `codex` on PATH, here a stand-in that prints
// what the real one does: "codex-cli 0.145.0") is looked up in the version profiles: on a release
// with the deny race (0.124.0 .. 0.145.x; docs/hosts/codex-0.171.md "Releases") doctor warns
// when another PreToolUse hook runs beside ours, trusted where the release has hook trust.
TEST(CodexDoctor, TheDenyRaceOfTheInstalledReleaseIsSaidWhereAnotherPreToolUseHookRuns) {
  TempDir t;
  auto o = cx_options(t);
  o.adapter_path = t.sub("bin/pinta-gemini");
  write_text(o.adapter_path, "#!/bin/sh\n", 0755);
  write_text(hooks_of(o), kUserHooks);  // the user's own PreToolUse hook, ./mine.sh
  run(plan_install(o));
  struct Env {  // PATH with t/bin first and CODEX_HOME set, put back however the test ends
    std::string old = std::getenv("PATH") ? std::getenv("PATH") : "";
    ~Env() {
      ::setenv("PATH", old.c_str(), 1);
      ::unsetenv("CODEX_HOME");
    }
  } env;
  ::setenv("PATH", (t.sub("bin") + ":/usr/bin:/bin").c_str(), 1);
  ::setenv("CODEX_HOME", (o.home + "/.codex").c_str(), 1);
  auto codex = [&](const std::string& says) {
    // As the real one does on every run, it writes under $CODEX_HOME (its helper links).
    write_text(t.sub("bin/codex"),
               "#!/bin/sh\nmkdir -p \"$CODEX_HOME/tmp\"\nprintf '%s\\n' '" + says + "'\n", 0755);
    return doctor(o);
  };
  const std::string race = "can lose a PreToolUse deny";

  // ./mine.sh is not trusted: 0.145.0 skips it, nothing runs beside ours.
  auto alone = codex("codex-cli 0.145.0");
  EXPECT_TRUE(has(alone, "info", "Codex 0.145.0 (profile codex-0.145)")) << alone.to_text();
  EXPECT_FALSE(has(alone, "warn", race)) << alone.to_text();
  // 0.124.0 has no hook trust: it runs ./mine.sh beside ours.
  auto old = codex("codex-cli 0.124.0");
  EXPECT_TRUE(has(old, "warn", race)) << old.to_text();
  EXPECT_TRUE(has(old, "warn", "./mine.sh (matcher Bash)")) << old.to_text();

  // Trusted, as /hooks records it: 0.145.0 runs it beside ours.
  cx::Sources src;
  src.codex_home = o.home + "/.codex";
  auto loaded = cx::load_hooks(src);
  ASSERT_TRUE(loaded) << loaded.error().message;
  for (const auto& h : loaded->handlers)
    if (h.command == "./mine.sh")
      write_text(config_of(o), read_text(config_of(o)) + "\n[hooks.state.\"" + h.trust_key +
                                   "\"]\ntrusted_hash = \"" + h.trust_hash + "\"\n");
  auto racy = codex("codex-cli 0.145.0");
  EXPECT_TRUE(has(racy, "warn", race)) << racy.to_text();
  EXPECT_FALSE(racy.broken()) << racy.to_text();
  auto fixed = codex("codex-cli 0.146.0");
  EXPECT_FALSE(has(fixed, "warn", race)) << fixed.to_text();
  EXPECT_TRUE(has(fixed, "info", "Codex 0.146.0 (profile codex-0.171)")) << fixed.to_text();

  // Doctor ran it with a CODEX_HOME of its own: the user's is left as it was.
  EXPECT_FALSE(std::filesystem::exists(o.home + "/.codex/tmp"));
  // A release that ran no hook when measured; one past the profiles; an answer that is no release.
  EXPECT_TRUE(has(codex("codex-cli 0.135.0"), "warn", "no hook ran")) << codex("codex-cli 0.135.0").to_text();
  EXPECT_TRUE(has(codex("codex-cli 9.9.9"), "info", "no Codex profile covers 9.9.9"));
  EXPECT_TRUE(has(codex("Usage: codex"), "info", "named no release"));
  // No codex on PATH: no release finding at all.
  ::unlink(t.sub("bin/codex").c_str());
  auto none = doctor(o);
  EXPECT_FALSE(std::any_of(none.findings.begin(), none.findings.end(), [](const Finding& f) {
    return f.detail.contains("release");
  })) << none.to_text();
}
