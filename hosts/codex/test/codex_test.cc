// Codex CLI 0.171.0 host data: events, the config layers, trust keys and hashes, matchers and the
// planner. HL = measured on the 0.171.0 binary with its app-server's `hooks/list`
// (hosts/codex/test/probe_hooks_list.py): every hash below is the `currentHash` it reported for the
// same handler; CX = shared/reference/real-hosts.md; CXSRC = openai/codex codex-rs/hooks.
#include "pinta/hosts/codex/codex.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace cx = pinta::hosts::codex;
namespace sfs = std::filesystem;

namespace {

struct Dirs {
  sfs::path root;
  Dirs() {
    static int n = 0;
    root = sfs::temp_directory_path() /
           ("codex-hosts-test-" + std::to_string(::getpid()) + "-" + std::to_string(++n));
    sfs::remove_all(root);
    sfs::create_directories(root / "home");
    sfs::create_directories(root / "proj/.codex");
  }
  ~Dirs() {
    std::error_code ec;
    sfs::remove_all(root, ec);
  }
  void write(const std::string& rel, const std::string& text) const {
    sfs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel, std::ios::binary) << text;
  }
  std::string home() const { return (root / "home").string(); }
  cx::Sources sources() const {
    cx::Sources s;
    s.codex_home = home();
    s.project = (root / "proj").string();
    return s;
  }
};

std::string hooks_json(const std::string& events) { return "{\"hooks\":{" + events + "}}"; }

const cx::HookHandler* find(const cx::LoadedHooks& l, const std::string& command) {
  for (const auto& h : l.handlers)
    if (h.command == command) return &h;
  return nullptr;
}

bool warned(const cx::LoadedHooks& l, const std::string& part) {
  for (const auto& w : l.warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

// HL: one file naming every event, listed in this order; "Foo" neither loaded nor warned about.
TEST(CodexEvents, TheFourteenOf0171InDiscoveryOrder) {
  const std::vector<std::string> want = {"PreModelRequest",
                                         "PostModelRequest",
                                         "PreToolUse",
                                         "PermissionRequest",
                                         "PostToolUse",
                                         "PreCompact",
                                         "PostCompact",
                                         "SessionStart",
                                         "SessionEnd",
                                         "UserPromptSubmit",
                                         "SubagentStart",
                                         "SubagentStop",
                                         "Stop",
                                         "Interrupt"};
  EXPECT_EQ(cx::events(), want);
  EXPECT_TRUE(cx::is_event("SessionEnd"));
  EXPECT_FALSE(cx::is_event("pre_tool_use"));
  EXPECT_FALSE(cx::is_event("BeforeTool"));
  EXPECT_EQ(cx::event_key_label("PreToolUse"), "pre_tool_use");
  EXPECT_EQ(cx::event_key_label("UserPromptSubmit"), "user_prompt_submit");
  EXPECT_EQ(cx::event_key_label("Nope"), "");
  // HL: an invalid matcher warned (so the matcher is read) on these; elsewhere it was dropped.
  for (const char* e :
       {"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
        "SessionStart", "SessionEnd", "SubagentStart", "SubagentStop"})
    EXPECT_TRUE(cx::event_uses_matcher(e)) << e;
  for (const char* e :
       {"PreModelRequest", "PostModelRequest", "UserPromptSubmit", "Stop", "Interrupt"})
    EXPECT_FALSE(cx::event_uses_matcher(e)) << e;
  EXPECT_EQ(cx::default_timeout_sec("PreToolUse"), 600);
  EXPECT_EQ(cx::default_timeout_sec("SessionEnd"), 1);  // HL timeoutSec 1
  EXPECT_EQ(cx::default_timeout_sec("Interrupt"), 1);
}

// CX + CXSRC events/common.rs; HL for the regex verdicts.
TEST(CodexMatcher, KindsAndMatching) {
  EXPECT_EQ(cx::matcher_kind(""), cx::MatcherKind::kAll);
  EXPECT_EQ(cx::matcher_kind("*"), cx::MatcherKind::kAll);
  EXPECT_EQ(cx::matcher_kind("Bash"), cx::MatcherKind::kNames);
  EXPECT_EQ(cx::matcher_kind("Edit|Write"), cx::MatcherKind::kNames);
  EXPECT_EQ(cx::matcher_kind("mcp__memory__create_entities"), cx::MatcherKind::kNames);
  EXPECT_EQ(cx::matcher_kind("^Bash"), cx::MatcherKind::kRegex);
  EXPECT_EQ(cx::matcher_kind("Bash*"), cx::MatcherKind::kRegex);
  EXPECT_EQ(cx::matcher_kind("Bäsh"), cx::MatcherKind::kRegex);  // non-ASCII: not a name list
  EXPECT_EQ(cx::matcher_kind("["), cx::MatcherKind::kInvalid);

  EXPECT_TRUE(cx::matcher_matches("*", "Anything"));
  EXPECT_TRUE(cx::matcher_matches("", "Bash"));
  EXPECT_TRUE(cx::matcher_matches("Edit|Write", "Write"));
  EXPECT_FALSE(cx::matcher_matches("Edit|Write", "Bash"));
  EXPECT_FALSE(cx::matcher_matches("Bash", "BashOutput"));  // a list: exact names
  EXPECT_FALSE(cx::matcher_matches("mcp__memory", "mcp__memory__create_entities"));
  EXPECT_TRUE(cx::matcher_matches("^Bash", "BashOutput"));  // CX: unanchored
  EXPECT_TRUE(cx::matcher_matches("^Bash$", "Bash"));
  EXPECT_FALSE(cx::matcher_matches("^Bash$", "BashOutput"));
  EXPECT_TRUE(cx::matcher_matches("mcp__.*__write.*", "mcp__filesystem__write_file"));
  EXPECT_FALSE(cx::matcher_matches("mcp__.*__write.*", "mcp__filesystem__read_file"));
  EXPECT_TRUE(cx::matcher_matches("(?i)bash", "Bash"));
  EXPECT_FALSE(cx::matcher_matches("[", "["));
  EXPECT_FALSE(cx::matcher_matches("Bash|", "Bash2"));
}

// HL, 0.171.0's verdicts on patterns where Rust's regex crate and RE2 spell things differently.
TEST(CodexMatcher, RustRegexDialect) {
  for (const char* ok : {"(?i)bash", "\\pL", "\\p{Greek}", "[[:alpha:]]+", "(?P<n>B)", "(?<n>B)",
                         "\\z", "B\\>", "\\<B", "Bash*"})
    EXPECT_EQ(cx::matcher_kind(ok), cx::MatcherKind::kRegex) << ok;
  for (const char* bad : {"(?=B)", "(a)\\1", "\\C", "a{2,1}", "\\Z", "["})
    EXPECT_EQ(cx::matcher_kind(bad), cx::MatcherKind::kInvalid) << bad;
  EXPECT_TRUE(cx::matcher_matches("(?<n>Ba)sh", "Bash"));
  EXPECT_TRUE(cx::matcher_matches("\\<Bash\\>", "Bash"));
  EXPECT_FALSE(cx::matcher_matches("\\<ash", "Bash"));
}

// CX: every shell tool is Bash; CXSRC HookToolName::apply_patch aliases; MCP names kept.
TEST(CodexMatcher, MatchNames) {
  EXPECT_EQ(cx::match_names("exec_command"), std::vector<std::string>{"Bash"});
  EXPECT_EQ(cx::match_names("shell"), std::vector<std::string>{"Bash"});
  EXPECT_EQ(cx::match_names("Bash"), std::vector<std::string>{"Bash"});
  EXPECT_EQ(cx::match_names("apply_patch"),
            (std::vector<std::string>{"apply_patch", "Write", "Edit"}));
  EXPECT_EQ(cx::match_names("mcp__fs__read_file"), std::vector<std::string>{"mcp__fs__read_file"});
}

TEST(CodexTrust, KeyUsesTheEventLabel) {
  EXPECT_EQ(cx::trust_key("/h/hooks.json", "PreToolUse", 0, 1), "/h/hooks.json:pre_tool_use:0:1");
  EXPECT_EQ(cx::trust_key("/h/config.toml", "session_end", 2, 0), "/h/config.toml:session_end:2:0");
}

// Every expected hash is the `currentHash` 0.171.0 reported for the same handler (HL).
TEST(CodexTrust, HashesMeasuredOnTheRealCli) {
  Dirs d;
  d.write("home/hooks.json", hooks_json(R"("PreToolUse":[
      {"matcher":"*","hooks":[{"type":"command","command":"echo hi","timeout":30}]},
      {"hooks":[{"type":"command","command":"nomatcher"}]},
      {"matcher":"","hooks":[{"type":"command","command":"empty"}]},
      {"matcher":"Bash","hooks":[
        {"type":"command","command":"t0","timeout":0},
        {"type":"command","command":"sm","statusMessage":"S"},
        {"type":"command","command":"as","async":true},
        {"type":"command","command":"unk","timeoutSec":5,"foo":1},
        {"type":"command","command":"cw","commandWindows":"w"},
        {"type":"command","command":"uni\u00e9\n\"q\"\\","timeout":7}]}],
    "PreModelRequest":[{"matcher":"[","hooks":[{"type":"command","command":"x"}]}])"));
  auto l = cx::load_hooks(d.sources());
  ASSERT_TRUE(l) << l.error().message;
  const std::map<std::string, std::string> want = {
      {"echo hi", "sha256:6e4e918f0015bc3f3fac7864fd00f035ac12d2ba415b6dcdc80415135dbf4c44"},
      {"nomatcher", "sha256:9eb31763c267972b7f48b0d4ce35c5cf20ff7fed72c2dd76bc93aa8340072dbb"},
      {"empty", "sha256:92d9f4de3e0069d4b2c7154f28adfcb991e9e416240c60eaa3ce62ec9576631d"},
      {"t0", "sha256:63abbff6dda6978b78aec682ad5697e37babefaf248146d8b4966aba617d818d"},
      {"sm", "sha256:5d12b23fae0da77f638a266019b48e3c00522bbf4ef118bf4c1315ed7acc7187"},
      {"as", "sha256:6402ed4fe35d20965eb409cb6663dfef612518e7a8b18610f650e01b6553ed3f"},
      {"unk", "sha256:31171ee8187f735de80b242d41330157e42b1ae0fbfe6753c0b563daa5cb6f31"},
      {"cw", "sha256:6b19a5e3adbea1c5f2379a92c825f13028c8ef7682e44ca3b8ef97339ebdd23a"},
      {"uni\xc3\xa9\n\"q\"\\",
       "sha256:d746e06167ae651078ebbf39671e7ae1df38842b212e87c115cadbfd9dadb5c4"},
      {"x", "sha256:35dd2ca3a881edba8c44fc55e54852b7c18f7bb9acc123ebd681ebf6a89d12c8"},
  };
  for (const auto& [command, hash] : want) {
    const cx::HookHandler* h = find(*l, command);
    ASSERT_NE(h, nullptr) << command;
    EXPECT_EQ(h->trust_hash, hash) << command;
    EXPECT_EQ(cx::trust_hash(*h), hash) << command;  // recomputed from the handler's fields
  }
  EXPECT_EQ(find(*l, "t0")->timeout_sec, 1);     // CXSRC `.max(1)`; HL timeoutSec 1
  EXPECT_EQ(find(*l, "unk")->timeout_sec, 600);  // CX: `timeoutSec` is not honoured
  EXPECT_FALSE(find(*l, "x")->has_matcher);      // PreModelRequest has no matcher: dropped
  EXPECT_FALSE(warned(*l, "invalid matcher"));   // … so never invalid (HL)
  EXPECT_EQ(find(*l, "echo hi")->trust_key, d.home() + "/hooks.json:pre_tool_use:0:0");
  EXPECT_EQ(find(*l, "cw")->pointer, "/hooks/PreToolUse/3/hooks/4");
}

// More measured hashes, each of one handler with command "a" (HL), and what the host did.
TEST(CodexTrust, HashesOfOneHandlerMeasured) {
  struct Case {
    std::string events, hash, warning;
  };
  const std::vector<Case> cases = {
      {R"("PreToolUse":[{"hooks":[{"type":"command","command":"a"}]}])",
       "sha256:f33622ba8381ebf002217985a3513a3f71de80b71e3ea667e18d0efec90f673c", ""},
      // `id` and `visibilityHint` are not 0.171.0 fields: ignored, hash unchanged.
      {R"("PreToolUse":[{"hooks":[{"type":"command","command":"a","id":"i","visibilityHint":"h"}]}])",
       "sha256:f33622ba8381ebf002217985a3513a3f71de80b71e3ea667e18d0efec90f673c", ""},
      {R"("PreToolUse":[{"matcher":"Bash","extra":1,"hooks":[{"type":"command","command":"a"}]}])",
       "sha256:feea2caddf1c2dce82a0a75b5c40eb8e23d140a3b32b447966d5fe32ff500ff7", ""},
      {R"("PreToolUse":[{"hooks":[{"type":"command","command":"a","additionalContextLimit":10}]}])",
       "sha256:4f6f2186ce1705db3ef8adbc10eb812051b082db8548bb58ab4b7abbc417fdba", ""},
      {R"("PreToolUse":[{"hooks":[{"type":"command","command":"a","additionalContextLimit":0}]}])",
       "sha256:ad5e3da39021541098cf1ff4b2342e21454919d76377362fe8f904b3bf9385dd", ""},
      // Stop cannot emit additionalContext: the limit is dropped, with a warning.
      {R"("Stop":[{"hooks":[{"type":"command","command":"a","additionalContextLimit":10}]}])",
       "sha256:c75a850480544f28d4a0e3e73be3b2659a93058c0746b3a82ad494187e86ecbc",
       "ignoring additionalContextLimit for Stop hook"},
      // SessionEnd: default 1 s, at most 3 s (clamped, with a warning; hashed clamped).
      {R"("SessionEnd":[{"hooks":[{"type":"command","command":"a"}]}])",
       "sha256:8b47c669efb678f9ecd382ad5ec1491f150fbdec99869d82d560722c28933c93", ""},
      {R"("SessionEnd":[{"hooks":[{"type":"command","command":"a","timeout":30}]}])",
       "sha256:42a5307396a3311376788cd874aae704206cb585b4da5dbcc11a59a23e824111",
       "clamping SessionEnd hook timeout to 3s"},
      {R"("PreToolUse":[{"hooks":[{"type":"command","command":"a","timeout":9223372036854775807}]}])",
       "sha256:4c04b7d2f801e1942d465594ca05d762831539c328319153f85983792deffdb4", ""},
  };
  for (const auto& c : cases) {
    Dirs d;
    d.write("home/hooks.json", hooks_json(c.events));
    auto l = cx::load_hooks(d.sources());
    ASSERT_TRUE(l) << c.events;
    ASSERT_EQ(l->handlers.size(), 1u) << c.events;
    EXPECT_EQ(l->handlers[0].trust_hash, c.hash) << c.events;
    EXPECT_EQ(cx::trust_hash(l->handlers[0]), c.hash) << c.events;
    if (c.warning.empty())
      EXPECT_TRUE(l->warnings.empty()) << c.events;
    else
      EXPECT_TRUE(warned(*l, c.warning)) << c.events;
  }
}

// HL "trust state": a matching trusted_hash trusts, another is "modified", enabled=false turns a
// hook off; keys are trimmed (CXSRC config_rules.rs). CX: untrusted hooks are skipped silently.
TEST(CodexTrust, StateTableInUserConfig) {
  Dirs d;
  d.write("home/hooks.json", hooks_json(R"("PreToolUse":[{"matcher":"*","hooks":[
      {"type":"command","command":"echo hi","timeout":30},
      {"type":"command","command":"two"},
      {"type":"command","command":"three"},
      {"type":"command","command":"four"}]}])"));
  std::string k = d.home() + "/hooks.json:pre_tool_use:0:";
  d.write("home/config.toml",
          "[hooks.state.\"  " + k +
              "0 \"]\ntrusted_hash = "
              "\"sha256:6e4e918f0015bc3f3fac7864fd00f035ac12d2ba415b6dcdc80415135dbf4c44\"\n"
              "[hooks.state.\"" +
              k +
              "1\"]\ntrusted_hash = \"sha256:00\"\n"
              "[hooks.state.\"" +
              k +
              "2\"]\nenabled = false\n"
              "[hooks.state.\"" +
              k + "3\"]\nenabled = \"no\"\n");  // malformed: ignored
  auto l = cx::load_hooks(d.sources());
  ASSERT_TRUE(l) << l.error().message;
  EXPECT_EQ(find(*l, "echo hi")->trust_status, cx::TrustStatus::kTrusted);
  EXPECT_TRUE(find(*l, "echo hi")->trusted);
  EXPECT_EQ(find(*l, "two")->trust_status, cx::TrustStatus::kModified);
  EXPECT_FALSE(find(*l, "two")->trusted);
  EXPECT_FALSE(find(*l, "three")->enabled);
  EXPECT_EQ(find(*l, "four")->trust_status, cx::TrustStatus::kUntrusted);
  EXPECT_TRUE(find(*l, "four")->enabled);

  auto p = cx::plan(*l, "PreToolUse", "exec_command", false);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].command, "echo hi");
  // --dangerously-bypass-hook-trust runs the untrusted and modified ones, never a disabled one
  // (CXSRC discovery.rs: `enabled && (bypass || trusted)`).
  p = cx::plan(*l, "PreToolUse", "Bash", true);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[1].command, "two");
  EXPECT_EQ(p[2].command, "four");
}

// HL "json + toml in one layer": hooks.json, then config.toml [hooks], with a warning; the same
// handler hashes alike in both (also as an inline TOML array, HL).
TEST(CodexLayers, JsonThenTomlInOneLayer) {
  Dirs d;
  d.write("home/hooks.json", hooks_json(R"("PreToolUse":[{"matcher":"*","hooks":[
      {"type":"command","command":"json","timeout":30}]}])"));
  d.write("home/config.toml",
          "model = \"x\"\n[hooks]\nFoo = 1\n"  // unknown keys in TOML: ignored (HL)
          "PreToolUse = [{ matcher = \"*\", extra = 2, hooks = [{ type = \"command\", "
          "command = \"echo hi\", timeout = 30, timeoutSec = 5 }] }]\n");
  auto l = cx::load_hooks(d.sources());
  ASSERT_TRUE(l) << l.error().message;
  ASSERT_EQ(l->handlers.size(), 2u);
  EXPECT_EQ(l->handlers[0].command, "json");
  EXPECT_EQ(l->handlers[0].source, "user-json");
  EXPECT_EQ(l->handlers[1].source, "user-toml");
  EXPECT_EQ(l->handlers[1].trust_key, d.home() + "/config.toml:pre_tool_use:0:0");
  EXPECT_EQ(l->handlers[1].trust_hash,
            "sha256:6e4e918f0015bc3f3fac7864fd00f035ac12d2ba415b6dcdc80415135dbf4c44");
  EXPECT_TRUE(warned(*l, "loading hooks from both"));
}

// CX/HL: the project's .codex/ only when the project is trusted, after the user layer; the
// project's own [hooks.state] trusts nothing (HL; CXSRC config_rules.rs reads user layers only).
TEST(CodexLayers, ProjectOnlyWhenTrusted) {
  Dirs d;
  d.write("home/hooks.json",
          hooks_json(R"("Stop":[{"hooks":[{"type":"command","command":"user"}]}])"));
  d.write("proj/.codex/hooks.json",
          hooks_json(R"("PreToolUse":[{"hooks":[{"type":"command","command":"p"}]}])"));
  std::string key = (d.root / "proj/.codex/hooks.json").string() + ":pre_tool_use:0:0";
  d.write("proj/.codex/config.toml",
          "[hooks.state.\"" + key +
              "\"]\ntrusted_hash = "
              "\"sha256:c2b4911f38d579d9292ebea8a48f07d0fa27c9d67a81d83c14513d45eadd25ff\"\n"
              "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n"
              "type = \"command\"\ncommand = \"ptoml\"\n");
  cx::Sources s = d.sources();
  auto l = cx::load_hooks(s);
  ASSERT_TRUE(l);
  ASSERT_EQ(l->handlers.size(), 1u);  // untrusted project: its layer is not read
  s.project_trusted = true;
  l = cx::load_hooks(s);
  ASSERT_TRUE(l);
  ASSERT_EQ(l->handlers.size(), 3u);
  EXPECT_EQ(l->handlers[0].command, "user");
  EXPECT_EQ(l->handlers[1].source, "project-json");
  EXPECT_EQ(l->handlers[1].trust_key, key);
  EXPECT_EQ(l->handlers[1].trust_hash,
            "sha256:c2b4911f38d579d9292ebea8a48f07d0fa27c9d67a81d83c14513d45eadd25ff");
  EXPECT_EQ(l->handlers[1].trust_status, cx::TrustStatus::kUntrusted);
  EXPECT_EQ(l->handlers[2].source, "project-toml");
  // The same entry in the user's config.toml trusts it (HL).
  d.write("home/config.toml",
          "[hooks.state.\"" + key +
              "\"]\ntrusted_hash = "
              "\"sha256:c2b4911f38d579d9292ebea8a48f07d0fa27c9d67a81d83c14513d45eadd25ff\"\n");
  l = cx::load_hooks(s);
  ASSERT_TRUE(l);
  EXPECT_TRUE(find(*l, "p")->trusted);
}

// The system layer is managed: trusted without a state entry, `enabled = false` ignored (CXSRC
// discovery.rs hook_enabled / hook_trust_status).
TEST(CodexLayers, SystemLayerIsManaged) {
  Dirs d;
  d.write("etc/hooks.json",
          hooks_json(R"("PreToolUse":[{"hooks":[{"type":"command","command":"sys"}]}])"));
  d.write("home/hooks.json",
          hooks_json(R"("PreToolUse":[{"hooks":[{"type":"command","command":"usr"}]}])"));
  d.write("home/config.toml", "[hooks.state.\"" + (d.root / "etc/hooks.json").string() +
                                  ":pre_tool_use:0:0\"]\nenabled = false\n");
  cx::Sources s = d.sources();
  s.system_dir = (d.root / "etc").string();
  auto l = cx::load_hooks(s);
  ASSERT_TRUE(l);
  ASSERT_EQ(l->handlers.size(), 2u);
  EXPECT_EQ(l->handlers[0].command, "sys");
  EXPECT_EQ(l->handlers[0].trust_status, cx::TrustStatus::kManaged);
  EXPECT_TRUE(l->handlers[0].enabled);
  auto p = cx::plan(*l, "PreToolUse", "Bash", false);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].command, "sys");
}

// CXSRC discovery.rs append_plugin_hook_sources / declarations.rs plugin_hook_key_source: keys
// "<plugin id>:hooks/hooks.json:…", ${PLUGIN_ROOT} substituted after hashing.
TEST(CodexLayers, Plugins) {
  Dirs d;
  d.write("plug/hooks/hooks.json",
          hooks_json(
              R"("PreToolUse":[{"hooks":[{"type":"command","command":"${PLUGIN_ROOT}/run"}]}])"));
  cx::Sources s = d.sources();
  s.plugin_dirs = {(d.root / "plug").string()};
  s.plugin_ids = {"demo@market"};
  auto l = cx::load_hooks(s);
  ASSERT_TRUE(l);
  ASSERT_EQ(l->handlers.size(), 1u);
  const auto& h = l->handlers[0];
  EXPECT_EQ(h.source, "plugin");
  EXPECT_EQ(h.command, (d.root / "plug").string() + "/run");
  EXPECT_EQ(h.trust_key, "demo@market:hooks/hooks.json:pre_tool_use:0:0");
  cx::HookHandler raw = h;
  raw.command = "${PLUGIN_ROOT}/run";
  EXPECT_EQ(h.trust_hash, cx::trust_hash(raw));
}

// HL: what 0.171.0 does with each broken hooks.json: the file is skipped with a warning, the
// other layers still load.
TEST(CodexErrors, BrokenHooksJsonSkippedWithWarning) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{not json", "bad JSON"},
      {"", "empty file"},
      {hooks_json(R"("Stop":[{"hooks":[{"type":"command","command":"a","async":null}]}])"),
       "async null"},
      {R"({"hooks":null})", "hooks null"},
      {R"({"description":5,"hooks":{}})", "description number"},
      {hooks_json(R"("PreToolUse":[{"hooks":[{"type":"command","command":"a","timeout":"30"}]}])"),
       "timeout string"},
      {hooks_json(R"("PreToolUse":[{"hooks":[{"type":"command","command":"a","timeout":-1}]}])"),
       "negative timeout"},
      {hooks_json(R"("PreToolUse":[{"hooks":[{"type":"command","command":"a","timeout":1.5}]}])"),
       "float timeout"},
      {hooks_json(R"("PreToolUse":[{"hooks":[{"command":"a"}]}])"), "missing type"},
      {hooks_json(R"("PreToolUse":[{"hooks":[{"type":"http","url":"u"}]}])"), "unknown type"},
      {hooks_json(R"("PreToolUse":[{"hooks":[{"type":"mcpTool"}]}])"), "camelCase mcp type"},
      {hooks_json(R"("PreToolUse":[{"hooks":[{"type":"mcp_tool"}]}])"), "mcp_tool without server"},
      {hooks_json(R"("PreToolUse":[{"hooks":[{"type":"command"}]}])"), "missing command"},
      {R"({"version":1,"hooks":{}})", "unknown top-level key"},
      {hooks_json(R"("PreToolUse":{"hooks":[]})"), "event not an array"},
      {hooks_json(R"("PreToolUse":[{"matcher":5,"hooks":[]}])"), "matcher number"},
      {R"({"hooks":{"Stop":[],"Stop":[]}})", "duplicate key"},
  };
  for (const auto& [text, what] : cases) {
    Dirs d;
    d.write("home/hooks.json", text);
    d.write("home/config.toml",
            "[hooks]\nStop = [{ hooks = [{ type = \"command\", command = \"s\" }] }]\n");
    auto l = cx::load_hooks(d.sources());
    ASSERT_TRUE(l) << what;
    EXPECT_TRUE(warned(*l, "failed to parse hooks config")) << what;
    ASSERT_EQ(l->handlers.size(), 1u) << what;
    EXPECT_EQ(l->handlers[0].command, "s") << what;
  }
}

// HL: accepted shapes: `{}`, `[]` and `{"hooks": []}` are empty; repeated unknown keys load;
// unknown keys inside groups and handlers are ignored; prompt/agent hooks and blank commands are
// skipped with a warning; mcp_tool hooks load without a warning (they call an MCP tool: not in
// `handlers`).
TEST(CodexErrors, AcceptedOddShapes) {
  for (const char* text : {"{}", "[]", R"({"hooks":[]})", R"({"description":"d"})",
                           R"({"hooks":{"Foo":1,"Foo":2}})"}) {
    Dirs d;
    d.write("home/hooks.json", text);
    auto l = cx::load_hooks(d.sources());
    ASSERT_TRUE(l) << text;
    EXPECT_TRUE(l->handlers.empty()) << text;
    EXPECT_TRUE(l->warnings.empty()) << text;
  }
  Dirs d;
  d.write("home/hooks.json", hooks_json(R"("PreToolUse":[{"matcher":"Bash","extra":1,"hooks":[
      {"type":"prompt","prompt":"p"},{"type":"agent"},{"type":"command","command":"   "},
      {"type":"mcp_tool","server":"s","tool":"t"},{"type":"command","command":"ok"}]}],
      "Foo":[{"hooks":[{"type":"command","command":"foo"}]}])"));
  auto l = cx::load_hooks(d.sources());
  ASSERT_TRUE(l);
  ASSERT_EQ(l->handlers.size(), 1u);
  EXPECT_EQ(l->handlers[0].handler_index, 4);  // positions count every handler
  EXPECT_TRUE(warned(*l, "skipping prompt hook"));
  EXPECT_TRUE(warned(*l, "skipping agent hook"));
  EXPECT_TRUE(warned(*l, "skipping empty hook command"));
  EXPECT_EQ(l->warnings.size(), 3u);
}

// HL: an invalid regex skips its group with a warning; the file's other groups load.
TEST(CodexErrors, InvalidRegexSkipsTheGroup) {
  Dirs d;
  d.write("home/hooks.json", hooks_json(R"("PreToolUse":[
      {"matcher":"[","hooks":[{"type":"command","command":"x"}]},
      {"matcher":"Bash","hooks":[{"type":"command","command":"y"}]}])"));
  auto l = cx::load_hooks(d.sources());
  ASSERT_TRUE(l);
  ASSERT_EQ(l->handlers.size(), 1u);
  EXPECT_EQ(l->handlers[0].command, "y");
  EXPECT_EQ(l->handlers[0].group_index, 1);
  EXPECT_EQ(l->handlers[0].trust_hash,
            "sha256:da4037ef00ebe13bbbc3c7d23e241c2fec3761f6a11074cec464843fb234072c");
  EXPECT_TRUE(warned(*l, "invalid matcher \"[\""));
}

// HL: a config.toml that does not parse, or whose [hooks] has the wrong types, stops Codex from
// loading its configuration (an error, not a warning); so does a timeout that cannot be a TOML
// integer (HL: discovery panics).
TEST(CodexErrors, FatalConfigs) {
  {
    Dirs d;
    d.write("home/config.toml", "[hooks\nx=");
    auto l = cx::load_hooks(d.sources());
    ASSERT_FALSE(l);
    EXPECT_EQ(l.error().code, pinta::ErrorCode::kParse);
  }
  {
    Dirs d;
    d.write("home/config.toml",
            "[[hooks.PreToolUse]]\nmatcher='Bash'\n[[hooks.PreToolUse.hooks]]\ntype='command'\n"
            "command=5\n");
    auto l = cx::load_hooks(d.sources());
    ASSERT_FALSE(l);
    EXPECT_EQ(l.error().code, pinta::ErrorCode::kParse);
  }
  {
    Dirs d;
    d.write("home/hooks.json", hooks_json(R"("PreToolUse":[{"hooks":[
        {"type":"command","command":"a","timeout":9223372036854775808}]}])"));
    auto l = cx::load_hooks(d.sources());
    ASSERT_FALSE(l);
    EXPECT_EQ(l.error().code, pinta::ErrorCode::kInvalidArgument);
  }
}

TEST(CodexErrors, UnreadableHooksJsonWarns) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file";
  Dirs d;
  d.write("home/hooks.json",
          hooks_json(R"("Stop":[{"hooks":[{"type":"command","command":"a"}]}])"));
  ::chmod((d.root / "home/hooks.json").c_str(), 0);
  auto l = cx::load_hooks(d.sources());
  ASSERT_TRUE(l);
  EXPECT_TRUE(l->handlers.empty());
  EXPECT_TRUE(warned(*l, "failed to read hooks config"));
}

// HL: a hooks.json that is not UTF-8 cannot be read ("stream did not contain valid UTF-8"); one
// starting with a byte-order mark does not parse; a config.toml that is not UTF-8 is fatal.
TEST(CodexErrors, EncodingProblems) {
  {
    Dirs d;
    d.write("home/hooks.json",
            hooks_json("\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"a\xff\"}]}]"));
    auto l = cx::load_hooks(d.sources());
    ASSERT_TRUE(l);
    EXPECT_TRUE(l->handlers.empty());
    EXPECT_TRUE(warned(*l, "stream did not contain valid UTF-8"));
  }
  {
    Dirs d;
    d.write(
        "home/hooks.json",
        "\xEF\xBB\xBF" + hooks_json(R"("Stop":[{"hooks":[{"type":"command","command":"a"}]}])"));
    auto l = cx::load_hooks(d.sources());
    ASSERT_TRUE(l);
    EXPECT_TRUE(l->handlers.empty());
    EXPECT_TRUE(warned(*l, "failed to parse hooks config"));
  }
  {
    Dirs d;
    d.write("home/config.toml", "model = \"a\xff\"\n");
    EXPECT_FALSE(cx::load_hooks(d.sources()));
  }
}

TEST(CodexErrors, MissingFilesAreNoError) {
  cx::Sources s;
  s.codex_home = "/nonexistent/codex-home";
  s.project = "/nonexistent/proj";
  s.project_trusted = true;
  s.plugin_dirs = {"/nonexistent/plugin"};
  auto l = cx::load_hooks(s);
  ASSERT_TRUE(l);
  EXPECT_TRUE(l->handlers.empty());
  EXPECT_TRUE(l->warnings.empty());
}

// The planner: tool events match the tool and its aliases; SessionStart matches its source;
// events without matchers run every group (CXSRC matcher_pattern_for_event; HL).
TEST(CodexPlan, MatchersPerEvent) {
  Dirs d;
  d.write("home/hooks.json", hooks_json(R"(
    "PreToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"edit"}]},
                  {"matcher":"Bash","hooks":[{"type":"command","command":"bash"}]},
                  {"matcher":"^mcp__fs__","hooks":[{"type":"command","command":"mcp"}]},
                  {"hooks":[{"type":"command","command":"all"}]}],
    "SessionStart":[{"matcher":"startup|resume","hooks":[{"type":"command","command":"start"}]}],
    "UserPromptSubmit":[{"matcher":"never","hooks":[{"type":"command","command":"ups"}]}],
    "Stop":[{"matcher":"[","hooks":[{"type":"command","command":"stop"}]}])"));
  auto l = cx::load_hooks(d.sources());
  ASSERT_TRUE(l);
  auto cmds = [&](const std::string& ev, const std::string& tool) {
    std::vector<std::string> v;
    for (const auto& h : cx::plan(*l, ev, tool, true)) v.push_back(h.command);
    return v;
  };
  EXPECT_EQ(cmds("PreToolUse", "apply_patch"), (std::vector<std::string>{"edit", "all"}));
  EXPECT_EQ(cmds("PreToolUse", "exec_command"), (std::vector<std::string>{"bash", "all"}));
  EXPECT_EQ(cmds("PreToolUse", "mcp__fs__read"), (std::vector<std::string>{"mcp", "all"}));
  EXPECT_EQ(cmds("SessionStart", "resume"), std::vector<std::string>{"start"});
  EXPECT_TRUE(cmds("SessionStart", "clear").empty());
  EXPECT_EQ(cmds("UserPromptSubmit", ""), std::vector<std::string>{"ups"});
  EXPECT_EQ(cmds("Stop", ""), std::vector<std::string>{"stop"});
  EXPECT_TRUE(cmds("PostToolUse", "Bash").empty());
  EXPECT_TRUE(cmds("NoSuchEvent", "Bash").empty());
  // Without bypass and without trust nothing runs (CX: skipped without a word).
  EXPECT_TRUE(cx::plan(*l, "PreToolUse", "Bash", false).empty());
}

// What lint positions: the failing value's pointer (HL verdicts), [hooks] positions in TOML.
TEST(CodexLintSupport, ProblemsAndPositions) {
  EXPECT_FALSE(cx::hooks_json_problem(hooks_json(R"("Stop":[])")));
  auto p = cx::hooks_json_problem(
      hooks_json(R"("PreToolUse":[{"hooks":[{"type":"command","command":"a","timeout":"30"}]}])"));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->pointer, "/hooks/PreToolUse/0/hooks/0/timeout");
  p = cx::hooks_json_problem(R"({"version":1,"hooks":{}})");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->pointer, "/version");
  p = cx::hooks_json_problem(
      "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"\xff\"}]}]}}");
  ASSERT_TRUE(p);
  EXPECT_NE(p->message.find("UTF-8"), std::string::npos);

  auto t =
      cx::read_toml_hooks("model = \"m\"\n\n[[hooks.PreToolUse]]\nmatcher = 5\n", "/x/config.toml");
  ASSERT_TRUE(t);
  ASSERT_TRUE(t->problem);
  EXPECT_EQ(t->problem->pointer, "/hooks/PreToolUse/0/matcher");
  EXPECT_EQ(t->positions.at("/hooks/PreToolUse/0/matcher"), (std::pair<int, int>{4, 11}));
  auto bad = cx::read_toml_hooks("[hooks\n", "/x/config.toml");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, pinta::ErrorCode::kParse);
}

TEST(CodexLintSupport, ProjectTrustLevel) {
  Dirs d;
  std::string proj = (d.root / "proj").string();
  EXPECT_FALSE(cx::project_trusted(d.home(), proj));
  d.write("home/config.toml", "[projects.\"" + proj + "\"]\ntrust_level = \"untrusted\"\n");
  EXPECT_FALSE(cx::project_trusted(d.home(), proj));
  d.write("home/config.toml", "[projects.\"" + proj + "\"]\ntrust_level = \"trusted\"\n");
  EXPECT_TRUE(cx::project_trusted(d.home(), proj));
  EXPECT_FALSE(cx::project_trusted(d.home(), proj + "/sub"));
}

// Folders are used normalised: a trailing slash or "." does not change the trust key.
TEST(CodexLayers, FoldersNormalised) {
  Dirs d;
  d.write("home/hooks.json",
          hooks_json(R"("Stop":[{"hooks":[{"type":"command","command":"a"}]}])"));
  cx::Sources s = d.sources();
  s.codex_home = d.home() + "/./";
  auto l = cx::load_hooks(s);
  ASSERT_TRUE(l);
  ASSERT_EQ(l->handlers.size(), 1u);
  EXPECT_EQ(l->handlers[0].trust_key, d.home() + "/hooks.json:stop:0:0");
  EXPECT_EQ(l->handlers[0].file, d.home() + "/hooks.json");
}

TEST(CodexTrust, NoHashForTextCodexCannotLoad) {
  cx::HookHandler h;
  h.event = "PreToolUse";
  h.command = "a\xff";
  EXPECT_EQ(cx::trust_hash(h), "");
  h.event = "NoSuchEvent";
  h.command = "a";
  EXPECT_EQ(cx::trust_hash(h), "");
}

// HL: with CODEX_HOME=<link>/./ 0.171.0 keyed the hook under the link's target.
TEST(CodexLayers, CodexHomeThroughASymlink) {
  Dirs d;
  d.write("home/hooks.json",
          hooks_json(R"("Stop":[{"hooks":[{"type":"command","command":"a"}]}])"));
  sfs::create_directory_symlink(d.root / "home", d.root / "link");
  cx::Sources s;
  s.codex_home = (d.root / "link").string() + "/./";
  auto l = cx::load_hooks(s);
  ASSERT_TRUE(l);
  ASSERT_EQ(l->handlers.size(), 1u);
  EXPECT_EQ(l->handlers[0].trust_key,
            sfs::weakly_canonical(d.root / "home").string() + "/hooks.json:stop:0:0");
}
