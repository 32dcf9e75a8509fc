// fire under every profile with small sh hooks in a temp home (reference §5-§7): sh -c vs the
// whitespace-split exec, cwd, inherited environment, stdin closed vs left open, timeout kill,
// overwrite chaining between hooks, lifecycle events; and the `hostemu antigravity fire|payload|
// docs` command line.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/common/test_support.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace agy = pinta::emu::agy;
using nlohmann::json;

namespace {

const std::vector<agy::Profile>& all_profiles() {
  static auto p = agy::load_profiles(agy::default_profile_dir());
  return *p;
}
// The profiles that spawn hooks (the loops below); HooksThatNeverRun covers the others.
const std::vector<agy::Profile>& profiles() {
  static const std::vector<agy::Profile> live = [] {
    std::vector<agy::Profile> v;
    for (const auto& p : all_profiles())
      if (p.hooks_run) v.push_back(p);
    return v;
  }();
  return live;
}

struct Home {
  pinta::testing::TempDir dir;
  pinta::testing::TempDir launch;  // agy's launch dir (cwd=launch-dir profiles)
  Home() { EXPECT_TRUE(pinta::fs::make_dirs(dir.sub(".gemini/config")).ok()); }
  std::string config() const { return dir.sub(".gemini/config"); }
  void hooks(const std::string& text) const {
    ASSERT_TRUE(pinta::fs::atomic_write(dir.sub(".gemini/config/hooks.json"), text).ok());
  }
  // An executable script; referenced by absolute path so both exec modes can run it.
  std::string script(const std::string& name, const std::string& body) const {
    std::string p = dir.sub(name);
    EXPECT_TRUE(pinta::fs::atomic_write(p, "#!/bin/sh\n" + body + "\n").ok());
    ::chmod(p.c_str(), 0755);
    return p;
  }
  agy::FireResult fire(const agy::Profile& p, agy::Event ev,
                       const std::string& tool = "run_command", agy::ReplyContext ctx = {}) const {
    agy::FireRequest rq;
    rq.plan.home = dir.path();
    rq.plan.event = ev;
    rq.plan.tool = agy::is_tool_event(ev) ? tool : "";
    rq.plan.launch_dir = launch.path();
    agy::PayloadOptions po;
    po.home = dir.path();
    po.tool = tool;
    rq.payload = agy::make_payload(p, ev, po);
    ctx.tool = rq.plan.tool;
    rq.context = ctx;
    auto env = pinta::proc::current_environment();
    env["HOME"] = dir.path();
    env["PINTA_AGY_FIRE_VAR"] = "inherited-value";
    rq.env = env;
    auto spawner = pinta::proc::make_spawner();
    return agy::fire(p, rq, *spawner);
  }
};

std::string json_hook(const std::string& name, const std::string& event, const std::string& cmd,
                      int timeout = 10) {
  json h = {{"command", cmd}, {"timeout", timeout}};
  json spec;
  if (event == "PreToolUse" || event == "PostToolUse")
    spec[event] = json::array({{{"matcher", "*"}, {"hooks", json::array({h})}}});
  else
    spec[event] = json::array({h});
  return json{{name, spec}}.dump();
}

}  // namespace

TEST(AgyFire, DenyScriptUnderEveryProfile) {
  Home h;
  std::string s = h.script("deny.sh", "echo '{\"decision\":\"deny\",\"reason\":\"blocked\"}'");
  h.hooks(json_hook("gate", "PreToolUse", s));
  for (const auto& p : profiles()) {
    SCOPED_TRACE(p.name);
    auto r = h.fire(p, agy::Event::kPreToolUse);
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_TRUE(r.runs[0].started) << r.runs[0].spawn_error;
    EXPECT_EQ(r.effect.kind, "denied");
    EXPECT_EQ(r.effect.message, p.name == "agy-1.0" ? "tool call denied with reason: blocked"
                                                    : "tool call denied by pre-tool hook: blocked");
    EXPECT_EQ(r.effect.hook_id, "jsonhook__gate_PreToolUse_0_0");
  }
}

// §5.1: an inline quoted echo works only through a shell (AntigravityWorker); the split exec of
// early 1.0.x passes the quotes through, so the output is not JSON and the tool call fails.
TEST(AgyFire, ShellVersusSplitExec) {
  Home h;
  h.hooks(json_hook("inline", "PreToolUse", R"(echo '{"decision":"deny","reason":"quoted"}')"));
  for (const auto& p : profiles()) {
    SCOPED_TRACE(p.name);
    auto r = h.fire(p, agy::Event::kPreToolUse);
    if (p.shell == "split") {
      EXPECT_EQ(r.effect.kind, "tool_failed");
      EXPECT_NE(r.effect.message.find("via protojson"), std::string::npos) << r.effect.message;
      ASSERT_EQ(r.hooks.size(), 1u);
      EXPECT_EQ(r.hooks[0].planned.argv[0], "echo");
    } else {
      EXPECT_EQ(r.effect.kind, "denied");
      EXPECT_NE(r.effect.message.find("quoted"), std::string::npos);
    }
  }
}

// §5.2 cwd, §5.3 inherited env, §5.4 one JSON line on stdin (closed by the CLI).
TEST(AgyFire, CwdEnvAndStdin) {
  Home h;
  std::string s = h.script("probe.sh",
                           "pwd > \"$HOME/cwd.txt\"; echo \"$PINTA_AGY_FIRE_VAR\" > "
                           "\"$HOME/env.txt\"; cat > \"$HOME/stdin.txt\"");
  h.hooks(json_hook("probe", "PreToolUse", s, 5));
  for (const auto& p : profiles()) {
    if (p.stdin_mode == "open") continue;  // covered by StdinLeftOpenHangsUntilTimeout
    SCOPED_TRACE(p.name);
    auto r = h.fire(p, agy::Event::kPreToolUse);
    EXPECT_EQ(r.effect.kind, "no_opinion");  // empty stdout, exit 0
    auto cwd = pinta::fs::read_file(h.dir.sub("cwd.txt"));
    ASSERT_TRUE(cwd);
    std::string want = p.cwd == "hooks-dir" ? h.config() : h.launch.path();
    ASSERT_FALSE(cwd->empty());
    EXPECT_EQ(std::filesystem::canonical(cwd->substr(0, cwd->size() - 1)),
              std::filesystem::canonical(want));
    EXPECT_EQ(pinta::fs::read_file(h.dir.sub("env.txt")).value_or(""), "inherited-value\n");
    auto in = pinta::fs::read_file(h.dir.sub("stdin.txt"));
    ASSERT_TRUE(in);
    ASSERT_EQ(r.hooks.size(), 1u);
    EXPECT_EQ(*in, r.hooks[0].stdin_line);
    json j = json::parse(*in, nullptr, false);
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["toolCall"]["name"], "run_command");
  }
}

// §5.4: the app/IDE leaves stdin open, so a read-until-EOF hook hangs until its timeout
// (clawd-on-desk #568); the CLI profiles close it and the same hook returns at once.
TEST(AgyFire, StdinLeftOpenHangsUntilTimeout) {
  Home h;
  h.hooks(json_hook("reader", "PreToolUse", "cat > /dev/null", 1));
  for (const auto& p : profiles()) {
    if (p.shell == "split") continue;  // the redirect needs a shell
    SCOPED_TRACE(p.name);
    auto r = h.fire(p, agy::Event::kPreToolUse);
    ASSERT_EQ(r.runs.size(), 1u);
    if (p.stdin_mode == "open") {
      EXPECT_TRUE(r.runs[0].timed_out);
      EXPECT_EQ(r.effect.kind, "tool_failed");
      EXPECT_NE(r.effect.message.find("signal: killed"), std::string::npos);
    } else {
      EXPECT_FALSE(r.runs[0].timed_out);
      EXPECT_EQ(r.effect.kind, "no_opinion");
    }
  }
}

// §5.5: the timeout (int32 seconds) kills the hook; on agy 1.1.7 the call is then denied with an
// empty reason (manaflow-ai/cmux#8921; 1.0.5: cmux#5358).
TEST(AgyFire, TimeoutKills) {
  Home h;
  std::string s = h.script("slow.sh", "sleep 30");
  h.hooks(json_hook("slow", "PreToolUse", s, 1));
  const agy::Profile& p = *agy::find_profile(profiles(), "agy-1.1");
  auto r = h.fire(p, agy::Event::kPreToolUse);
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_TRUE(r.runs[0].timed_out);
  EXPECT_EQ(r.effect.kind, "denied");
  EXPECT_EQ(r.effect.message, "tool call denied by pre-tool hook: ");
  EXPECT_LT(r.runs[0].closed_after, std::chrono::seconds(20));  // group killed, no orphan pipes
}

// antigravity-cli#1008 (1.2.1/1.2.2, macOS arm64): the file loads and the hooks are registered,
// but no hook process is spawned and the event proceeds as if none were configured.
TEST(AgyFire, HooksThatNeverRun) {
  Home h;
  std::string s = h.script("mark.sh", "touch \"$HOME/ran\"; echo '{\"decision\":\"deny\"}'");
  h.hooks(json_hook("gate", "PreToolUse", s));
  size_t checked = 0;
  for (const auto& p : all_profiles()) {
    if (p.hooks_run) continue;
    SCOPED_TRACE(p.name);
    ++checked;
    for (auto ev : {agy::Event::kPreToolUse, agy::Event::kPreInvocation, agy::Event::kStop}) {
      if (ev != agy::Event::kPreToolUse) h.hooks(json_hook("gate", agy::event_name(ev), s));
      auto r = h.fire(p, ev);
      EXPECT_EQ(r.effect.kind, "hooks_not_run");
      EXPECT_NE(r.effect.message.find("hooks do not run"), std::string::npos);
      EXPECT_TRUE(r.runs.empty());
      EXPECT_TRUE(r.hooks.empty());
      ASSERT_EQ(r.plan.run.size(), 1u);  // registered (agy logs "loaded 1 named hooks")
      EXPECT_FALSE(r.plan.hooks_run);
      EXPECT_EQ(r.plan.files[0].status, "loaded");
      EXPECT_FALSE(pinta::fs::exists(h.dir.sub("ran")));
      json j = agy::fire_result_to_json(r);
      EXPECT_EQ(j["hooksRun"], false);
      EXPECT_EQ(j["effect"]["assumptions"], json::array({"hooks_run"}));
    }
  }
  EXPECT_EQ(checked, 1u);
  // The same file under agy-1.2 does run (uxnan PR #245, 1.2.7).
  h.hooks(json_hook("gate", "PreToolUse", s));
  auto r = h.fire(*agy::find_profile(all_profiles(), "agy-1.2"), agy::Event::kPreToolUse);
  EXPECT_EQ(r.effect.kind, "denied");
  EXPECT_TRUE(pinta::fs::exists(h.dir.sub("ran")));
}

// synara PR #1096: under `agy --print` an ask fails the tool call where that was observed; allow
// is the no-op. view_file keeps the run_command headless auto-deny (#1053) out of the picture.
TEST(AgyFire, AskInPrintMode) {
  Home h;
  std::string ask = h.script("ask.sh", "echo '{\"decision\":\"ask\",\"reason\":\"r\"}'");
  std::string allow = h.script("allow.sh", "echo '{\"decision\":\"allow\"}'");
  agy::ReplyContext headless;
  headless.headless = true;
  for (const auto& p : profiles()) {
    SCOPED_TRACE(p.name);
    h.hooks(json_hook("q", "PreToolUse", ask));
    auto r = h.fire(p, agy::Event::kPreToolUse, "view_file", headless);
    EXPECT_EQ(r.effect.kind, p.headless_ask == "tool-failed" ? "tool_failed" : "asked");
    EXPECT_EQ(h.fire(p, agy::Event::kPreToolUse, "view_file").effect.kind, "asked");
    h.hooks(json_hook("q", "PreToolUse", allow));
    EXPECT_EQ(h.fire(p, agy::Event::kPreToolUse, "view_file", headless).effect.kind, "allowed");
  }
}

// clawd-on-desk PR #433 / synara PR #1143: a PreInvocation hook that exits 1 before writing
// anything makes agy 1.0.x retry without end and agy 1.2.1 abort the invocation (exit 1).
TEST(AgyFire, FailingPreInvocation) {
  Home h;
  h.hooks(json_hook("launcher", "PreInvocation", h.script("fail.sh", "exit 1")));
  for (const auto& p : profiles()) {
    SCOPED_TRACE(p.name);
    auto r = h.fire(p, agy::Event::kPreInvocation);
    ASSERT_EQ(r.runs.size(), 1u);
    const std::string want = p.preinvocation_failure == "retry-loop" ? "retry_loop"
                             : p.preinvocation_failure == "cli-exit" ? "cli_exited"
                                                                     : "hook_failed";
    EXPECT_EQ(r.effect.kind, want);
    EXPECT_NE(r.effect.message.find("exit status 1"), std::string::npos) << r.effect.message;
  }
}

// §7.1/§7.2: hook "a-rewrite" overwrites CommandLine; hook "b-see" (runs second: names sorted)
// receives the merged call under overwrite_chaining=accumulate.
TEST(AgyFire, OverwriteChainsIntoTheNextHook) {
  Home h;
  std::string a =
      h.script("a.sh", "echo '{\"decision\":\"allow\",\"overwrite\":{\"CommandLine\":\"ls\"}}'");
  std::string b = h.script("b.sh", "cat > \"$HOME/b-stdin.txt\"; echo '{\"decision\":\"allow\"}'");
  json hooks = json::parse(json_hook("a-rewrite", "PreToolUse", a));
  hooks.update(json::parse(json_hook("b-see", "PreToolUse", b)));
  h.hooks(hooks.dump());
  const agy::Profile& p = *agy::find_profile(profiles(), "agy-1.1");
  auto r = h.fire(p, agy::Event::kPreToolUse);
  ASSERT_EQ(r.runs.size(), 2u);
  EXPECT_EQ(r.effect.kind, "allowed");
  EXPECT_EQ(r.effect.args_after["CommandLine"], "ls");
  json seen =
      json::parse(pinta::fs::read_file(h.dir.sub("b-stdin.txt")).value_or(""), nullptr, false);
  ASSERT_TRUE(seen.is_object());
  EXPECT_EQ(seen["toolCall"]["args"]["CommandLine"], "ls");

  // First deny wins: a denying first hook stops the chain.
  std::string d = h.script("d.sh", "echo '{\"decision\":\"deny\",\"reason\":\"first\"}'");
  hooks = json::parse(json_hook("a-deny", "PreToolUse", d));
  hooks.update(json::parse(json_hook("b-see", "PreToolUse", b)));
  h.hooks(hooks.dump());
  r = h.fire(p, agy::Event::kPreToolUse);
  EXPECT_EQ(r.runs.size(), 1u);
  EXPECT_EQ(r.effect.kind, "denied");
}

TEST(AgyFire, LifecycleEvents) {
  Home h;
  std::string s = h.script("stop.sh", "echo '{\"decision\":\"continue\",\"reason\":\"more\"}'");
  h.hooks(json_hook("st", "Stop", s));
  std::string pre = h.script("pre.sh", "echo '{\"injectSteps\":[{\"ephemeralMessage\":\"m\"}]}'");
  for (const auto& p : profiles()) {
    SCOPED_TRACE(p.name);
    h.hooks(json_hook("st", "Stop", s));
    auto r = h.fire(p, agy::Event::kStop);
    EXPECT_EQ(r.effect.kind, "continued");
    EXPECT_EQ(r.effect.message, "more");
    agy::ReplyContext capped;
    capped.stop_continuations = p.stop_continuation_cap;
    EXPECT_EQ(h.fire(p, agy::Event::kStop, "", capped).effect.kind, "stopped");
    h.hooks(json_hook("pre", "PreInvocation", pre));
    r = h.fire(p, agy::Event::kPreInvocation);
    EXPECT_EQ(r.effect.kind, "injected");
    EXPECT_EQ(r.effect.injected_steps, json::parse(R"([{"ephemeralMessage":"m"}])"));
  }
}

// §6.3: a lifecycle hook that fails (unquoted echo → not JSON; non-zero exit) is logged, no effect.
TEST(AgyFire, LifecycleFailureIsLoggedOnly) {
  Home h;
  h.hooks(json_hook("st", "Stop", "echo {\"decision\":\"continue\"}"));
  const agy::Profile& p = *agy::find_profile(profiles(), "agy-1.2");
  auto r = h.fire(p, agy::Event::kStop);
  EXPECT_EQ(r.effect.kind, "hook_failed");
  EXPECT_NE(r.effect.message.find("failed to call custom stop hook jsonhook__st_Stop_0_0"),
            std::string::npos)
      << r.effect.message;
  h.hooks(json_hook("post", "PostToolUse", "exit 3"));
  r = h.fire(p, agy::Event::kPostToolUse);
  EXPECT_EQ(r.effect.kind, "hook_failed");
  EXPECT_NE(r.effect.message.find("exit status 3"), std::string::npos);
}

TEST(AgyFire, HeadlessAllowExitsWhereObserved) {
  Home h;
  std::string s = h.script("allow.sh", "echo '{\"decision\":\"allow\"}'");
  h.hooks(json_hook("al", "PreToolUse", s));
  agy::ReplyContext ctx;
  ctx.headless = true;
  for (const auto& p : profiles()) {
    SCOPED_TRACE(p.name);
    auto r = h.fire(p, agy::Event::kPreToolUse, "run_command", ctx);
    EXPECT_EQ(r.effect.kind, p.headless_allow == "cli-exit" ? "cli_exited" : "allowed");
  }
}

// ---- the command line ----

namespace {
pinta::proc::SpawnResult hostemu(std::vector<std::string> args) {
  args.insert(args.begin(), pinta::testing::bin_dir() + "/hostemu");
  pinta::proc::SpawnRequest rq;
  rq.argv = std::move(args);
  rq.timeout = std::chrono::milliseconds(60000);
  return pinta::proc::make_spawner()->run(rq);
}
}  // namespace

TEST(AgyFireCli, AllProfilesWithPayloadFile) {
  Home h;
  std::string s = h.script("deny.sh", "echo '{\"decision\":\"deny\",\"reason\":\"r\"}'");
  h.hooks(json_hook("gate", "PreToolUse", s));
  auto pl = hostemu({"antigravity", "payload", "--profile", "agy-1.1", "--event", "PreToolUse",
                     "--tool", "run_command", "--home", h.dir.path()});
  ASSERT_EQ(pl.exit_code.value_or(-1), 0) << pl.err;
  ASSERT_TRUE(pinta::fs::atomic_write(h.dir.sub("payload.json"), pl.out).ok());
  auto r = hostemu({"antigravity", "fire", "--all-profiles", "--home", h.dir.path(), "--event",
                    "PreToolUse", "--payload", h.dir.sub("payload.json")});
  ASSERT_EQ(r.exit_code.value_or(-1), 0) << r.err;
  json j = json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  ASSERT_EQ(j["results"].size(), all_profiles().size());
  for (const auto& res : j["results"]) {
    const auto* p = agy::find_profile(all_profiles(), res["profile"].get<std::string>());
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(res["hooksRun"], p->hooks_run);
    if (!p->hooks_run) {
      EXPECT_EQ(res["effect"]["kind"], "hooks_not_run");
      EXPECT_TRUE(res["hooks"].empty());
      continue;
    }
    EXPECT_EQ(res["effect"]["kind"], "denied") << res["profile"];
    EXPECT_EQ(res["hooks"][0]["exitCode"], 0);
    EXPECT_EQ(json::parse(res["hooks"][0]["stdin"].get<std::string>())["toolCall"]["name"],
              "run_command");
  }
}

// --permission-review (toolPermission=request-review): agy 1.0.2 reviewed the original call and
// discarded the {name,args} overwrite (discuss.ai.google.dev thread); without it the args merge.
TEST(AgyFireCli, PermissionReviewDiscardsTheOverwriteOn10) {
  Home h;
  std::string s =
      h.script("rw.sh",
               "echo '{\"decision\":\"allow\",\"overwrite\":{\"name\":\"run_command\",\"args\":"
               "{\"CommandLine\":\"rtk git status\"}}}'");
  h.hooks(json_hook("rw", "PreToolUse", s));
  for (bool review : {false, true}) {
    std::vector<std::string> args = {"antigravity", "fire",       "--profile", "agy-1.0",
                                     "--home",      h.dir.path(), "--event",   "PreToolUse"};
    if (review) args.push_back("--permission-review");
    auto r = hostemu(args);
    ASSERT_EQ(r.exit_code.value_or(-1), 0) << r.err;
    json j = json::parse(r.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << r.out;
    const json& eff = j["results"][0]["effect"];
    EXPECT_EQ(eff["kind"], "allowed");
    EXPECT_EQ(eff["argsAfter"]["CommandLine"], review ? "echo hi" : "rtk git status");
  }
}

TEST(AgyFireCli, DocsCheckAndBadArguments) {
  Home h;
  auto docs = hostemu({"antigravity", "docs"});
  ASSERT_EQ(docs.exit_code.value_or(-1), 0);
  ASSERT_TRUE(pinta::fs::atomic_write(h.dir.sub("fresh.md"), docs.out).ok());
  EXPECT_EQ(hostemu({"antigravity", "docs", "--check", h.dir.sub("fresh.md")}).exit_code, 0);
  ASSERT_TRUE(pinta::fs::atomic_write(h.dir.sub("stale.md"), docs.out + "x").ok());
  auto stale = hostemu({"antigravity", "docs", "--check", h.dir.sub("stale.md")});
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_NE(stale.err.find("stale"), std::string::npos);
  for (auto args : std::vector<std::vector<std::string>>{
           {"antigravity", "fire", "--home", h.dir.path(), "--event", "Stop"},
           {"antigravity", "fire", "--profile", "agy-9", "--home", h.dir.path(), "--event", "Stop"},
           {"antigravity", "fire", "--profile", "agy-1.1", "--home", h.dir.path(), "--event", "X"},
           {"antigravity", "fire", "--profile", "agy-1.1", "--home", h.dir.path(), "--event",
            "Stop", "--payload", "/nonexistent"},
           {"antigravity", "fire", "--profile", "agy-1.1", "--all-profiles", "--home", h.dir.path(),
            "--event", "Stop"},
           {"antigravity", "payload", "--profile", "agy-1.1", "--event", "Stop", "--tool", "x"}}) {
    auto r = hostemu(args);
    EXPECT_EQ(r.exit_code.value_or(-1), 2) << args[1];
    EXPECT_NE(r.err.find("hostemu:"), std::string::npos);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}
