// Reply interpretation as data: every case in reply_cases.json (one per row of
// shared/reference/antigravity-hooks.md §6.2, plus §6.3/§7.3/§7.4) names its evidence and the
// effect expected under each profile; this test runs interpret_reply for every (case, profile).
#include <gtest/gtest.h>

#include "pinta/common/fs.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace agy = pinta::emu::agy;
using nlohmann::json;

namespace {

json load_cases() {
  auto text = pinta::fs::read_file(std::string(PINTA_AGY_TEST_DIR) + "/reply_cases.json");
  if (!text) return json();
  return json::parse(*text, nullptr, false);
}

agy::HookReply reply_of(const json& c) {
  agy::HookReply r;
  r.stdout_text = c.value("stdout", "");
  r.stderr_text = c.value("stderr", "");
  if (c.contains("exit") && c["exit"].is_number_integer()) r.exit_code = c["exit"].get<int>();
  r.timed_out = c.value("timed_out", false);
  r.term_signal = c.value("term_signal", 0);
  r.spawn_failed = c.value("spawn_failed", false);
  r.spawn_error = c.value("spawn_error", "");
  return r;
}

}  // namespace

TEST(AgyReplyCases, EveryCaseUnderEveryProfile) {
  json doc = load_cases();
  ASSERT_TRUE(doc.is_object() && doc["cases"].is_array()) << "reply_cases.json unreadable";
  auto profs = agy::load_profiles(agy::default_profile_dir());
  ASSERT_TRUE(profs) << profs.error().message;
  ASSERT_GE(doc["cases"].size(), 40u);
  std::set<std::string> ids;
  size_t checked = 0;
  for (const auto& c : doc["cases"]) {
    const std::string id = c.value("id", "");
    SCOPED_TRACE(id);
    ASSERT_FALSE(id.empty());
    EXPECT_TRUE(ids.insert(id).second) << "duplicate case id";
    ASSERT_FALSE(c.value("evidence", "").empty()) << "case without evidence";
    auto ev = agy::parse_event(c.value("event", ""));
    ASSERT_TRUE(ev.has_value());
    json args = c.contains("args") ? c["args"] : json{{"CommandLine", "echo hi"}, {"Cwd", "/tmp"}};
    agy::ReplyContext ctx;
    ctx.hook_id = std::string("jsonhook__h_") + agy::event_name(*ev) + "_0_0";
    if (c.contains("ctx")) {
      ctx.headless = c["ctx"].value("headless", false);
      ctx.tool = c["ctx"].value("tool", "");
      ctx.prior_grant = c["ctx"].value("prior_grant", false);
      ctx.stop_continuations = c["ctx"].value("stop_continuations", 0);
      ctx.permission_review = c["ctx"].value("permission_review", false);
    }
    for (const auto& p : *profs) {
      SCOPED_TRACE(p.name);
      const json& ex = c["expect"].contains(p.name) ? c["expect"][p.name] : c["expect"]["*"];
      ASSERT_TRUE(ex.is_object()) << "no expectation for this profile";
      agy::Effect e = agy::interpret_reply(p, *ev, reply_of(c), args, ctx);
      EXPECT_EQ(e.kind, ex.value("kind", "?")) << e.message;
      // Optional expectations; a deny/failure must name the switches it relied on.
      if (ex.contains("message")) {
        EXPECT_EQ(e.message, ex["message"].get<std::string>());
      }
      if (ex.contains("message_contains")) {
        EXPECT_NE(e.message.find(ex["message_contains"].get<std::string>()), std::string::npos)
            << e.message;
      }
      if (ex.contains("args_after")) {
        for (auto it = ex["args_after"].begin(); it != ex["args_after"].end(); ++it) {
          EXPECT_EQ(e.args_after.value(it.key(), json()), it.value()) << it.key();
        }
      }
      if (ex.contains("steps")) {
        EXPECT_EQ(e.injected_steps, ex["steps"]);
      }
      if (ex.contains("permission_overrides")) {
        EXPECT_EQ(e.permission_overrides, ex["permission_overrides"]);
      }
      if (e.kind == "denied" || e.kind == "tool_failed" || e.kind == "cli_exited") {
        EXPECT_FALSE(e.assumptions.empty());
      }
      for (const auto& a : e.assumptions) {
        EXPECT_TRUE(p.switches.contains(a)) << a;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, doc["cases"].size() * profs->size());
}

// The deny/failure readings must differ where the profiles' evidence differs (else the switches
// would be dead data).
TEST(AgyReplyCases, ProfilesDisagreeWhereEvidenceDoes) {
  auto profs = agy::load_profiles(agy::default_profile_dir());
  ASSERT_TRUE(profs);
  agy::HookReply r;
  r.exit_code = 0;
  r.stdout_text = R"({"decision":"deny","reason":"x"})";
  std::set<std::string> messages;
  for (const auto& p : *profs)
    messages.insert(agy::interpret_reply(p, agy::Event::kPreToolUse, r, json::object()).message);
  EXPECT_EQ(messages.size(), 2u);  // 1.0.x "denied with reason" vs "denied by pre-tool hook"
}

TEST(AgyReplyCases, AggregateFirstDenyWinsAndAccumulates) {
  auto profs = agy::load_profiles(agy::default_profile_dir());
  ASSERT_TRUE(profs);
  const agy::Profile* p = agy::find_profile(*profs, "agy-1.1");
  ASSERT_NE(p, nullptr);
  json args = {{"CommandLine", "a"}};
  agy::Effect allow1;
  allow1.kind = "allowed";
  allow1.args_after = {{"CommandLine", "b"}};
  agy::Effect ask;
  ask.kind = "asked";
  ask.args_after = {{"CommandLine", "b"}, {"Cwd", "/x"}};
  agy::Effect deny;
  deny.kind = "denied";
  deny.message = "no";
  auto a = agy::aggregate(*p, agy::Event::kPreToolUse, {allow1, ask}, args);
  EXPECT_EQ(a.kind, "asked");
  EXPECT_EQ(a.args_after, (json{{"CommandLine", "b"}, {"Cwd", "/x"}}));
  auto d = agy::aggregate(*p, agy::Event::kPreToolUse, {allow1, deny, ask}, args);
  EXPECT_EQ(d.kind, "denied");
  EXPECT_EQ(d.message, "no");
  EXPECT_NE(std::find(d.assumptions.begin(), d.assumptions.end(), "aggregation"),
            d.assumptions.end());
  EXPECT_EQ(agy::aggregate(*p, agy::Event::kPreToolUse, {}, args).kind, "no_opinion");
  EXPECT_EQ(agy::aggregate(*p, agy::Event::kStop, {}, json()).kind, "stopped");
}
