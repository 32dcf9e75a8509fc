// pinta::hosts_copilot: event names in both spellings, the format each selects, the Claude tool
// names and the matchers of each format (CPDOC = github/docs
// content/copilot/reference/hooks-reference.md). The loader's tests come with the loader.
#include <gtest/gtest.h>

#include <algorithm>

#include "pinta/hosts/copilot/copilot.h"

namespace cp = pinta::hosts::copilot;
using cp::Format;
using cp::MatcherKind;

TEST(CopilotEvents, BothSpellingsAndTheFormatEachSelects) {
  EXPECT_EQ(cp::events().size(), 14u);
  EXPECT_EQ(cp::event_format("preToolUse"), Format::kNative);
  EXPECT_EQ(cp::event_format("PreToolUse"), Format::kClaudeStyle);
  EXPECT_EQ(cp::canonical_event("Stop"), "agentStop");
  EXPECT_EQ(cp::canonical_event("UserPromptSubmit"), "userPromptSubmitted");
  EXPECT_EQ(cp::canonical_event("agentStop"), "agentStop");
  // Case-sensitive: neither spelling's other case is an event.
  EXPECT_FALSE(cp::is_event("pretooluse"));
  EXPECT_FALSE(cp::is_event("PreTooluse"));
  EXPECT_EQ(cp::canonical_event("BeforeTool"), "");
  EXPECT_STREQ(cp::agent_label(Format::kNative), "copilot");
  EXPECT_STREQ(cp::agent_label(Format::kClaudeStyle), "copilot-claude");
}

TEST(CopilotMatchers, NativeIsAnAnchoredRegexOnTheRuntimeName) {
  EXPECT_TRUE(cp::matcher_matches(Format::kNative, "bash|edit", "bash"));
  EXPECT_FALSE(cp::matcher_matches(Format::kNative, "bash", "bash2"));  // anchored
  EXPECT_FALSE(cp::matcher_matches(Format::kNative, "ash", "bash"));
  EXPECT_FALSE(cp::matcher_matches(Format::kNative, "Bash", "bash"));  // runtime names only
  EXPECT_TRUE(cp::matcher_matches(Format::kNative, "b.*", "bash"));
  EXPECT_EQ(cp::matcher_kind(Format::kNative, "("), MatcherKind::kInvalid);
  EXPECT_FALSE(cp::matcher_matches(Format::kNative, "(", "bash"));  // the entry is skipped
}

TEST(CopilotMatchers, ClaudeStyleNamesListsAndRegexOnTheClaudeName) {
  for (const char* all : {"", "*", "**"}) {
    EXPECT_EQ(cp::matcher_kind(Format::kClaudeStyle, all), MatcherKind::kAll) << all;
    EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, all, "view")) << all;
  }
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "Bash", "bash"));
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "bash", "bash"));  // the runtime name too
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "Edit|Write", "create"));
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "Edit", "apply_patch"));
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "Task", "task"));
  EXPECT_FALSE(cp::matcher_matches(Format::kClaudeStyle, "Bash", "view"));
  EXPECT_EQ(cp::matcher_kind(Format::kClaudeStyle, "Ba.*"), MatcherKind::kRegex);
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "Ba.*", "powershell"));
  EXPECT_FALSE(cp::matcher_matches(Format::kClaudeStyle, "ba.*", "bash"));  // on the Claude name
  EXPECT_TRUE(cp::matcher_matches(Format::kClaudeStyle, "my_.*", "my_tool"));  // no Claude name
  EXPECT_EQ(cp::claude_tool_name("view"), "Read");
  EXPECT_EQ(cp::claude_tool_name("mcp_x"), "mcp_x");
}

TEST(CopilotPlan, EitherSpellingSelectsBothFormatsHandlersByTheirOwnMatcher) {
  cp::LoadedHooks hooks;
  cp::HookHandler native{.event = "preToolUse", .canonical = "preToolUse", .format = Format::kNative};
  native.matcher = "bash";
  native.has_matcher = true;
  cp::HookHandler claude{.event = "PreToolUse", .canonical = "preToolUse",
                         .format = Format::kClaudeStyle};
  claude.matcher = "Bash";
  claude.has_matcher = true;
  cp::HookHandler post{.event = "postToolUse", .canonical = "postToolUse"};
  hooks.handlers = {native, claude, post};
  EXPECT_EQ(cp::plan(hooks, "preToolUse", "bash").size(), 2u);
  EXPECT_EQ(cp::plan(hooks, "PreToolUse", "bash").size(), 2u);
  EXPECT_EQ(cp::plan(hooks, "preToolUse", "view").size(), 0u);
  EXPECT_EQ(cp::plan(hooks, "postToolUse", "view").size(), 1u);
}

// ---- The loader and the planner (CPM = emulator/hosts/copilot/test/scenarios/<name>.json). ----
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;

struct TempTree {
  fs::path root;
  TempTree() {
    root = fs::temp_directory_path() /
           ("copilot-loader-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    fs::create_directories(root / "home/.copilot/hooks");
    fs::create_directories(root / "proj");
  }
  ~TempTree() { fs::remove_all(root); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
  cp::Sources sources(bool trusted) const {
    cp::Sources s;
    s.copilot_home = (root / "home/.copilot").string();
    s.repo = (root / "proj").string();
    s.repo_trusted = trusted;
    return s;
  }
};

std::string native_hook(const std::string& mark) {
  return R"({"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"echo )" + mark +
         R"("}]}})";
}

std::vector<std::string> commands(const std::vector<cp::HookHandler>& hs) {
  std::vector<std::string> out;
  for (const auto& h : hs) out.push_back(h.bash.empty() ? h.command : h.bash);
  return out;
}

}  // namespace

TEST(CopilotLoader, EverySourceInTheClisOrder) {
  TempTree t;
  // CPM src-order.
  t.write("home/.copilot/hooks/main.json", native_hook("user-main"));
  t.write("home/.copilot/settings.json",
          R"({"hooks":{"preToolUse":[{"type":"command","bash":"echo user-settings"}]}})");
  t.write("proj/.github/hooks/r.json", native_hook("repo-hooks"));
  t.write("proj/.claude/settings.json",
          R"({"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"echo claude-settings"}]}]}})");
  t.write("proj/.claude/settings.local.json",
          R"({"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"echo claude-local"}]}]}})");
  t.write("proj/.github/copilot/settings.json",
          R"({"hooks":{"preToolUse":[{"type":"command","bash":"echo repo-settings"}]}})");
  t.write("policy/p.json", native_hook("policy"));
  auto s = t.sources(true);
  s.policy_dir = (t.root / "policy").string();
  auto loaded = cp::load_hooks(s);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(commands(cp::plan(*loaded, "preToolUse", "bash")),
            (std::vector<std::string>{"echo policy", "echo user-main", "echo user-settings",
                                      "echo repo-hooks", "echo claude-settings", "echo claude-local",
                                      "echo repo-settings"}));
  // The Claude-style ones are registered in that format (their payload and matcher rule).
  auto all = cp::plan(*loaded, "PreToolUse", "bash");
  EXPECT_EQ(all[4].format, Format::kClaudeStyle);
  EXPECT_EQ(all[4].source, "repo-claude");
  EXPECT_EQ(all[0].source, "policy");
  // CPM src-repo-untrusted, src-claude-untrusted: none of the repo's sources when untrusted.
  auto untrusted = cp::load_hooks(t.sources(false));
  ASSERT_TRUE(untrusted);
  EXPECT_EQ(commands(cp::plan(*untrusted, "preToolUse", "bash")),
            (std::vector<std::string>{"echo user-main", "echo user-settings"}));
}

TEST(CopilotLoader, TrustFromConfigJsonOrTheEnvironment) {
  TempTree t;
  const std::string home = (t.root / "home/.copilot").string();
  const std::string proj = (t.root / "proj").string();
  EXPECT_FALSE(cp::repo_trusted(home, proj, {}));
  // CPM src-repo-trusted-settings: settings.json's trustedFolders is not read.
  t.write("home/.copilot/settings.json", R"({"trustedFolders":[")" + proj + R"("]})");
  EXPECT_FALSE(cp::repo_trusted(home, proj, {}));
  // CPM src-repo-env-optin, src-repo-allow-all-env.
  EXPECT_TRUE(cp::repo_trusted(home, proj, {{"GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true"}}));
  EXPECT_TRUE(cp::repo_trusted(home, proj, {{"COPILOT_ALLOW_ALL", "true"}}));
  EXPECT_FALSE(cp::repo_trusted(home, proj, {{"COPILOT_ALLOW_ALL", "1"}}));
  // CPM src-repo-trusted-config; a trusted parent covers the folder, a sibling does not.
  t.write("home/.copilot/config.json", R"({"trustedFolders":[")" + t.root.string() + R"("]})");
  EXPECT_TRUE(cp::repo_trusted(home, proj, {}));
  t.write("home/.copilot/config.json", R"({"trustedFolders":[")" + proj + R"(x"]})");
  EXPECT_FALSE(cp::repo_trusted(home, proj, {}));
  EXPECT_EQ(cp::default_copilot_home({{"COPILOT_HOME", "/c"}}, "/h"), "/c");
  EXPECT_EQ(cp::default_copilot_home({}, "/h"), "/h/.copilot");
  EXPECT_EQ(cp::default_policy_dir({}), "/etc/github-copilot/policy.d");
}

TEST(CopilotLoader, FilesAndEntriesTheCliSkips) {
  TempTree t;
  t.write("home/.copilot/hooks/broken.json", "{not json");           // CPM src-broken-file
  t.write("home/.copilot/hooks/v2.json",                              // CPM src-version-2
          R"({"version":2,"hooks":{"preToolUse":[{"bash":"echo v2"}]}})");
  t.write("home/.copilot/hooks/nov.json",                             // CPM src-no-version
          R"({"hooks":{"preToolUse":[{"bash":"echo nov"}]},"disableAllHooks":false})");
  t.write("home/.copilot/hooks/main.json", R"({"version":1,"hooks":{
    "preToolUse":[{"type":"command","timeoutSec":5},{"command":"echo cmdkey","timeout":2}],
    "notAnEvent":[{"bash":"echo bad"}],
    "postToolUse":[{"type":"command","exec":"/bin/echo","args":["a","b"],"cwd":"sub","env":{"K":"V"}}]}})");
  t.write("home/.copilot/config.json",                                // CPM src-user-config-hooks
          R"({"hooks":{"preToolUse":[{"bash":"echo userconfig"}]}})");
  auto loaded = cp::load_hooks(t.sources(false));
  ASSERT_TRUE(loaded);
  auto pre = cp::plan(*loaded, "preToolUse", "bash");
  std::vector<std::string> got = commands(pre);
  std::sort(got.begin(), got.end());  // files come in directory order
  EXPECT_EQ(got, (std::vector<std::string>{"echo cmdkey", "echo nov"}));
  for (const auto& h : pre)
    if (h.command == "echo cmdkey") EXPECT_EQ(h.timeout_sec, 2);  // CPM c-pre-timeout-alias
    else EXPECT_EQ(h.timeout_sec, 30);                            // CPM c-pre-timeout-default
  auto post = cp::plan(*loaded, "postToolUse", "bash");
  ASSERT_EQ(post.size(), 1u);
  EXPECT_EQ(post[0].exec, "/bin/echo");
  EXPECT_EQ(post[0].args, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(post[0].cwd, "sub");
  EXPECT_EQ(post[0].env.at("K"), "V");
  EXPECT_FALSE(loaded->warnings.empty());
}

TEST(CopilotLoader, MatchersPerFormatAndTheEmptyGroupMatcher) {
  TempTree t;
  t.write("home/.copilot/hooks/main.json", R"({"version":1,"hooks":{
    "preToolUse":[{"bash":"echo n-bash","matcher":"bash"},{"bash":"echo n-Bash","matcher":"Bash"},
                  {"bash":"echo n-star","matcher":"*"},{"bash":"echo n-empty","matcher":""},
                  {"matcher":"bash","hooks":[{"bash":"echo nested-bash"}]},
                  {"matcher":"Bash","hooks":[{"bash":"echo nested-Bash"}]}],
    "PreToolUse":[{"matcher":"Bash","hooks":[{"command":"echo c-Bash"}]},
                  {"matcher":"*","hooks":[{"command":"echo c-star"}]},
                  {"hooks":[{"command":"echo c-none"}]},
                  {"matcher":"Ba","hooks":[{"command":"echo c-Ba"}]}]}})");
  t.write("home/.copilot/hooks/post.json", R"({"hooks":{"PostToolUse":[
    {"matcher":"","hooks":[{"command":"echo skipped"}]},{"hooks":[{"command":"echo kept"}]}]}})");
  t.write("home/.copilot/settings.json", R"({"hooks":{"PostToolUse":[{"hooks":[{"command":"echo ok"}]}],
    "SessionEnd":[{"matcher":"","hooks":[{"command":"echo dropped"}]}]}})");
  auto loaded = cp::load_hooks(t.sources(false));
  ASSERT_TRUE(loaded);
  // CPM c-matcher-*, c-matcher-nested, p-matcher-*.
  EXPECT_EQ(commands(cp::plan(*loaded, "preToolUse", "bash")),
            (std::vector<std::string>{"echo n-bash", "echo nested-bash", "echo c-Bash",
                                      "echo c-star", "echo c-none"}));
  // CPM p-matcher-empty: in a hook file a group matcher "" skips that group alone;
  // src-claude-empty-matcher: in a settings file it drops the whole file.
  EXPECT_EQ(commands(cp::plan(*loaded, "postToolUse", "bash")), (std::vector<std::string>{"echo kept"}));
  EXPECT_EQ(cp::runtime_tool_name("Bash"), "bash");
  EXPECT_EQ(cp::runtime_tool_name("Read"), "view");
  EXPECT_EQ(cp::runtime_tool_name("mcp_tool"), "mcp_tool");
}

// ---- The payload shape of each `--agent` label against the captured payloads (fixtures/). ----
#include <nlohmann/json.hpp>

#include "pinta/hosts/copilot/family.h"

// The arguments the guard's bounded view keeps first (PayloadShape::command_args) must be the
// names the CLI sends under each label: every captured preToolUse payload of either format names
// at least one of them in its tool input (a Claude-style `Write` sends Copilot's `file_text` and
// `path`, not Claude Code's `content` and `file_path`).
TEST(CopilotPayloadShape, CommandArgsAreTheCapturedArgumentNames) {
  const char* src = std::getenv("PINTA_SOURCE_DIR");
  ASSERT_NE(src, nullptr) << "ctest sets PINTA_SOURCE_DIR";
  namespace ph = pinta::hosts;
  const auto& d = ph::copilot::kDescriptor;
  struct Label {
    const char* folder;
    const ph::PayloadShape* shape;
  };
  const Label labels[] = {{"preToolUse", &d.payload}, {"PreToolUse", d.label_payloads[1]}};
  for (const Label& l : labels) {
    ASSERT_NE(l.shape, nullptr) << l.folder;
    fs::path dir = fs::path(src) / "fixtures/copilot/1.0.102" / l.folder;
    int seen = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().filename().string().rfind("y_captured_", 0) != 0) continue;
      std::ifstream in(e.path());
      auto p = nlohmann::json::parse(in, nullptr, false);
      ASSERT_TRUE(p.is_object()) << e.path();
      auto args = p[std::string(l.shape->tool_input)];
      // The native format sends toolArgs as an object (1.0.102); a string is an older release's.
      ASSERT_TRUE(args.is_object()) << e.path();
      bool named = false;
      for (std::string_view a : l.shape->command_args)
        named = named || args.contains(std::string(a));
      EXPECT_TRUE(named) << e.path()
                         << " names none of the label's command arguments: " << args.dump();
      ++seen;
    }
    EXPECT_GE(seen, 3) << dir;
  }
}
