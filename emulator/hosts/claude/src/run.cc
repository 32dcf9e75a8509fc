// Claude Code 2.1.332 hook runner and outcome. Evidence per rule: "real:" names the scenario in
// test/scenarios/ (run on the real binary and on this emulator, no difference); "docs:" the public
// hooks reference (code.claude.com/docs/en/hooks).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <future>
#include <set>
#include <thread>

#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/emulator/claude/claude.h"
#include "pinta/common/sha256.h"
#include "pinta/common/text.h"
#include "pinta/hosts/node/js.h"

namespace pinta::emu::claude {

using json = nlohmann::json;
namespace cl = pinta::hosts::claude;

namespace {

// A hook's command as 2.1.332 quotes it in a decision:block's blocking error ("… from command:
// \"<shown>\": …"; its display sanitizer, measured by the generated lane: a newline shown as
// U+2424, a BOM as \u{FEFF}; an exit 2 quotes it as written, post-exit2-command-raw): each
// control or invisible code point made visible, the rest as is. Newline ␤, tab ␉, ESC ␛, another
// C0 control its control picture (U+2400 + c), DEL ␡; a C1 control, a format character, a
// default-ignorable one, U+2028 or U+2029 as \u{HEX}, except the variation selectors, zero-width
// joiner and tags inside an emoji sequence (kept after a pictographic).
bool pictographic(uint32_t c) {
  return c >= 0x1F000 || (c >= 0x2190 && c <= 0x2BFF) || c == 0x00A9 || c == 0x00AE ||
         c == 0x203C || c == 0x2049 || c == 0x2122 || c == 0x2139 || c == 0x3030 || c == 0x303D ||
         c == 0x3297 || c == 0x3299;
}
bool invisible(uint32_t c) {
  static constexpr std::pair<uint32_t, uint32_t> kRanges[] = {
      {0x80, 0x9F},       {0xAD, 0xAD},       {0x34F, 0x34F},     {0x600, 0x605},
      {0x61C, 0x61C},     {0x6DD, 0x6DD},     {0x70F, 0x70F},     {0x890, 0x891},
      {0x8E2, 0x8E2},     {0x115F, 0x1160},   {0x17B4, 0x17B5},   {0x180B, 0x180F},
      {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x206F},   {0x3164, 0x3164},
      {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},   {0xFFF0, 0xFFFB},
      {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3},
      {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF}};
  for (const auto& [lo, hi] : kRanges)
    if (c >= lo && c <= hi) return true;
  return false;
}
std::string shown_command(const std::string& s) {
  std::string out;
  uint32_t prev = 0;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const size_t n = b < 0x80          ? 1
                     : (b >> 5) == 6   ? 2
                     : (b >> 4) == 14  ? 3
                     : (b >> 3) == 30  ? 4
                                       : 0;
    if (n == 0 || i + n > s.size()) {  // not UTF-8: passed on as it is
      out += s[i++];
      prev = 0;
      continue;
    }
    uint32_t c = n == 1 ? b : b & (0xFF >> (n + 1));
    for (size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    const std::string raw = s.substr(i, n);
    i += n;
    auto picture = [&](uint32_t p) {  // U+2400..U+2424: three bytes
      out += static_cast<char>(0xE2);
      out += static_cast<char>(0x90 | (p >> 6 & 0x3));
      out += static_cast<char>(0x80 | (p & 0x3F));
    };
    const auto tag = [](uint32_t x) { return x >= 0xE0020 && x <= 0xE007F; };
    const bool in_emoji = (c == 0xFE0E || c == 0xFE0F || c == 0x200D || tag(c)) &&
                          (pictographic(prev) || prev == 0x200D || prev == 0xFE0F || tag(prev));
    if (c == '\n') picture(0x2424);
    else if (c == '\t') picture(0x2409);
    else if (c == 0x1B) picture(0x241B);
    else if (c < 0x20) picture(0x2400 + c);
    else if (c == 0x7F) picture(0x2421);
    else if (invisible(c) && !in_emoji) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "\\u{%X}", static_cast<unsigned>(c));
      out += hex;
    } else {
      out += raw;
    }
    prev = c;
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> hook_environment(const std::string& project,
                                                    const json& payload) {
  return hook_environment(project, payload, proc::current_environment());
}

std::map<std::string, std::string> hook_environment(const std::string& project, const json& payload,
                                                    std::map<std::string, std::string> env) {
  // real (env-vars, ss-env-file; shared/reference/real-hosts.md): the parent's environment plus
  // these.
  auto str = [&](const char* k) {
    return payload.is_object() && payload.contains(k) && payload[k].is_string()
               ? payload[k].get<std::string>()
               : std::string();
  };
  const std::string session = str("session_id");
  std::string key = project;  // the project as a directory name: each non-alphanumeric is "-"
  for (char& c : key)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
  const std::string run_dir = "/tmp/claude-" + std::to_string(::getuid()) + "/" + key + "/" + session;
  env["CLAUDE_PROJECT_DIR"] = project;
  env["CLAUDECODE"] = "1";
  env["CLAUDE_CODE_ENTRYPOINT"] = "sdk-cli";
  if (!session.empty()) env["CLAUDE_CODE_SESSION_ID"] = session;
  env["AI_AGENT"] = std::string("claude-code_") + [] {
    std::string v = cl::kVersion;
    std::replace(v.begin(), v.end(), '.', '-');
    return v;
  }() + "_harness";
  env["CLAUDE_CODE_CHILD_SESSION"] = "1";
  env["CLAUDE_CODE_SESSION_ATTENDED"] = "0";
  env["COREPACK_ENABLE_AUTO_PIN"] = "0";
  env["NoDefaultCurrentDirectoryInExePath"] = "1";
  env["CLAUDE_CODE_CHILD_NOTES_DIR"] = run_dir + "/started";
  env["CLAUDE_PID"] = std::to_string(::getpid());  // the host's own process
  // Set on the real CLI to its messaging endpoint; the values are not measured and nothing
  // listens here.
  env["CLAUDE_CODE_MESSAGING_SOCKET"] = run_dir + "/messaging.sock";
  env["CLAUDE_CODE_MESSAGING_TOKEN"] = "emulated";
  // CLAUDE_EFFORT: the payload's effort level, where the payload has one (not on SessionStart).
  if (payload.is_object() && payload.contains("effort") && payload["effort"].is_object() &&
      payload["effort"].contains("level") && payload["effort"]["level"].is_string())
    env["CLAUDE_EFFORT"] = payload["effort"]["level"].get<std::string>();
  else
    env.erase("CLAUDE_EFFORT");
  // SessionStart: CLAUDE_ENV_FILE, ~/.claude/session-env/<session>/sessionstart-hook-<n>.sh (n:
  // the hook's place in the plan, run_hooks sets it); what a hook writes there is sourced before
  // each later Bash tool call (not hooks). Home is where the payload's transcript lives.
  if (str("hook_event_name") == "SessionStart" && !session.empty()) {
    std::string home = str("transcript_path");
    const size_t at = home.rfind("/.claude/projects/");
    home = at == std::string::npos ? (env.count("HOME") ? env["HOME"] : "") : home.substr(0, at);
    env["CLAUDE_ENV_FILE"] = home + "/.claude/session-env/" + session + "/sessionstart-hook-0.sh";
  } else {
    env.erase("CLAUDE_ENV_FILE");
  }
  env["PWD"] = project;
  return env;
}

namespace {

// Hook output as the host reads it: UTF-8 decoded with each maximal invalid subpart replaced by
// U+FFFD (the WHATWG decoder, as TextDecoder/Buffer#toString do); invalid bytes never reach a JSON
// report.
std::string decode_utf8(const std::string& in) {
  std::string out;
  size_t i = 0;
  const size_t n = in.size();
  auto byte = [&](size_t k) { return static_cast<unsigned char>(in[k]); };
  while (i < n) {
    unsigned char b = byte(i);
    if (b < 0x80) {
      out += static_cast<char>(b);
      ++i;
      continue;
    }
    size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) need = 1;
    else if (b >= 0xE0 && b <= 0xEF) need = 2, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4) need = 3, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    if (need == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    size_t k = 1;
    for (; k <= need && i + k < n; ++k) {
      unsigned char c = byte(i + k);
      if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xBF)) break;
    }
    if (k == need + 1) {
      out.append(in, i, need + 1);
      i += need + 1;
    } else {
      out += "\xEF\xBF\xBD";
      i += k;
    }
  }
  return out;
}

}  // namespace

proc::SpawnRequest spawn_request(const cl::HookCommand& h, const std::string& input,
                                 const std::string& cwd,
                                 const std::map<std::string, std::string>& env) {
  proc::SpawnRequest r;
  // real (shell scenario): the command runs under /bin/sh -c, $0 = /bin/sh, cwd = project.
  r.argv = {"/bin/sh", "-c", h.command};
  r.env = env;
  r.cwd = cwd;
  r.stdin_data = input;  // real (stdin-bytes): cl::stdin_bytes, one JSON line and "\n", then EOF
  r.stdin_mode = proc::StdinMode::kCloseAfterWrite;
  r.timeout = std::chrono::milliseconds(h.timeout_ms);
  r.timeout_signal = SIGTERM;
  r.kill_after = std::chrono::milliseconds(1000);
  r.signal_group = true;
  r.hard_limit = std::chrono::milliseconds(h.timeout_ms + 30000);
  r.pipe_grace = std::chrono::milliseconds(500);
  return r;
}

HookRun hook_run(const cl::HookCommand& h, const proc::SpawnResult& res) {
  HookRun out;
  out.command = h.command;
  out.stdout_text = decode_utf8(res.out);
  out.stderr_text = decode_utf8(res.err);
  out.timed_out = res.timed_out || res.hard_limited;
  out.finished_us = static_cast<long long>(res.exited_after.count());
  // real (timeout, exit-signal scenarios): a hook that timed out or was killed by a signal
  // is reported with exit code 1.
  if (!res.started)
    out.exit = 127;
  else if (res.exit_code && !out.timed_out)
    out.exit = *res.exit_code;
  else
    out.exit = 1;
  // real (exit-signal, timeout): a hook that did not exit on its own gives no verdict.
  out.no_verdict = !res.started || out.timed_out || !res.exit_code;
  return out;
}

std::vector<HookRun> run_hooks(const std::vector<cl::HookCommand>& plan, const std::string& input,
                               const std::string& cwd,
                               const std::map<std::string, std::string>& env) {
  // real (parallel scenario): every matching command starts at once; the event waits for all.
  std::vector<std::future<HookRun>> futures;
  for (size_t i = 0; i < plan.size(); ++i) {
    const auto& h = plan[i];
    // real (ss-env-file, env-vars): each SessionStart hook has its own env file, numbered by its
    // place; the host creates the directory.
    auto own_env = env;
    if (auto it = own_env.find("CLAUDE_ENV_FILE"); it != own_env.end()) {
      const auto dir = std::filesystem::path(it->second).parent_path();
      it->second = (dir / ("sessionstart-hook-" + std::to_string(i) + ".sh")).string();
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
    }
    futures.push_back(std::async(std::launch::async, [&h, &input, &cwd, env = std::move(own_env)] {
      if (h.command.empty()) {
        // real (settings-empty-command): an empty command starts nothing; Node's spawn refuses
        // it and the hook is reported failed (a non-blocking error).
        HookRun none;
        none.exit = 1;
        none.no_verdict = true;
        none.stderr_text = "Failed to run: The argument 'file' cannot be empty. Received ''";
        return none;
      }
      auto spawner = proc::make_spawner();
      return hook_run(h, spawner->run(spawn_request(h, input, cwd, env)));
    }));
  }
  std::vector<HookRun> runs;
  for (auto& f : futures) runs.push_back(f.get());
  return runs;
}

namespace {

std::string hook_name(const std::string& event, const json& payload) {
  // real: "PreToolUse:Bash", "SessionStart:startup", "SubagentStart:general-purpose"; events
  // without a target: "Stop". SubagentStop matches on agent_type but is named bare
  // (subagent-stop-exit2, subagent-stop-block: hook_name "SubagentStop", its texts to the
  // subagent "SubagentStop hook …").
  std::string t = cl::has_matcher_target(event) && event != "SubagentStop"
                      ? cl::match_target(event, payload)
                      : "";
  return t.empty() ? event : event + ":" + t;
}

using pinta::text::trim;

// The reply text as the host reads it: String.prototype.trim, which also removes a UTF-8 BOM
// (U+FEFF is JavaScript white space; real: pre-bom-deny honours a deny printed after a BOM).
std::string reply_text(const std::string& out) { return pinta::hosts::node::js_trim(out); }

// real (pre-json-ws, pre-json-trailing, pre-badjson, pre-bom-deny): stdout that is a JSON object
// after trimming is a JSON reply; anything else is plain text.
std::optional<json> json_reply(const std::string& out) {
  std::string t = reply_text(out);
  if (t.empty() || t.front() != '{') return std::nullopt;
  json j = json::parse(t, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

std::string str_field(const json& j, const char* k) {
  return j.is_object() && j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : "";
}

// real (post-block-noreason, stop-block-noreason, ups-block-noreason, pre-legacy-block-noreason):
// a block without a reason reads this.
const char* const kDefaultReason = "Blocked by hook";

std::string or_default(const std::string& reason) {
  return reason.empty() ? kDefaultReason : reason;
}

// JavaScript string length (UTF-16 code units) of UTF-8 text, and the first `units` of them.
size_t js_length(const std::string& s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) != 0x80) n += c >= 0xF0 ? 2 : 1;
  }
  return n;
}

std::string js_prefix(const std::string& s, size_t units) {
  size_t n = 0, i = 0;
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) == 0x80) continue;
    const size_t w = c >= 0xF0 ? 2 : 1;
    if (n + w > units) break;
    n += w;
  }
  return s.substr(0, i);
}

// real (post-ctx-large, ups-ctx-large, post-ctx-threshold): additionalContext longer than 10,000
// characters (JavaScript length, not bytes: 6,000 "ü" are kept) is saved to a file and the model
// gets a notice with its size in KB (length / 1024, one decimal) and the first 2,000 characters.
// The file is <transcript dir>/tool-results/hook-<id>-<Event>-<32 hex>-additionalContext.txt; the
// real id (the tool_use_id; another UUID on UserPromptSubmit) and hex are not reproducible (not a
// hash of the text or command), so the emulator names it by the text's SHA-256 and writes no file.
std::string persisted_context(const std::string& ctx, const std::string& event, const json& payload) {
  const size_t len = js_length(ctx);
  if (len <= 10000) return ctx;
  auto str = [&](const char* k) {
    return payload.is_object() && payload.contains(k) && payload[k].is_string()
               ? payload[k].get<std::string>()
               : std::string();
  };
  std::string dir = str("transcript_path");
  if (dir.size() > 6 && dir.compare(dir.size() - 6, 6, ".jsonl") == 0) dir.resize(dir.size() - 6);
  const std::string id = !str("tool_use_id").empty() ? str("tool_use_id") : str("prompt_id");
  char kb[32];
  std::snprintf(kb, sizeof kb, "%.1f", static_cast<double>(len) / 1024.0);
  return "<persisted-output>\nOutput too large (" + std::string(kb) +
         "KB). Full output saved to: " + dir + "/tool-results/hook-" + id + "-" + event + "-" +
         pinta::sha256_hex(ctx).substr(0, 32) + "-additionalContext.txt\n\nPreview (first 2KB):\n" +
         js_prefix(ctx, 2000) + "\n...\n</persisted-output>";
}

// PreToolUse's permission decision of one reply: permissionDecision, where the legacy
// `decision:"block"` beats it and `decision:"approve"` stands in when it is absent
// (pre-block-beats-allow, pre-decision-block, pre-decision-approve).
std::string pre_decision(const json& reply, std::string& reason) {
  json hso = reply.contains("hookSpecificOutput") && reply["hookSpecificOutput"].is_object()
                 ? reply["hookSpecificOutput"]
                 : json::object();
  std::string pd = str_field(hso, "permissionDecision");
  reason = str_field(hso, "permissionDecisionReason");
  const std::string decision = str_field(reply, "decision");
  if (decision == "block") pd = "deny", reason = str_field(reply, "reason");
  if (pd.empty() && decision == "approve") pd = "allow", reason = str_field(reply, "reason");
  return pd;
}

// decide()'s reading of the replies, in the order the hooks finished: what the host makes of
// them so far.
struct Reading {
  const std::string& event;
  const json& payload;
  const std::string name;
  Outcome o;
  std::vector<std::string> messages;
  std::optional<std::string> deny_text, ask_text;
  std::vector<std::string> joined_ctx;

  // real (fuzz lane): a JSON reply's systemMessage, additionalContext and continue/stopReason are
  // read whatever the exit code.
  bool read_common(const json& reply) {
    if (reply.contains("continue") && reply["continue"].is_boolean() && !reply["continue"]) {
      o.continue_ = false;  // real (pre-continue-false): the session ends after this step
      if (!o.stop_reason && reply.contains("stopReason") && reply["stopReason"].is_string())
        o.stop_reason = reply["stopReason"].get<std::string>();
    }
    if (reply.contains("systemMessage") && reply["systemMessage"].is_string())
      messages.push_back(reply["systemMessage"].get<std::string>());
    json hso = reply.contains("hookSpecificOutput") && reply["hookSpecificOutput"].is_object()
                   ? reply["hookSpecificOutput"]
                   : json::object();
    const std::string raw_ctx = str_field(hso, "additionalContext");
    if (raw_ctx.empty()) return false;
    o.additional_context.push_back(raw_ctx);
    const std::string ctx = persisted_context(raw_ctx, event, payload);
    if (event == "SessionStart" || event == "SubagentStart" || event == "PreToolUse") {
      // real (ss-ctx, fuzz lane; subagent-start; pre-two-ctx): these events' contexts are joined
      // under one label in finish order (SessionStart's and SubagentStart's bare-event,
      // PreToolUse's the hook name; SubagentStart's reach the subagent only).
      joined_ctx.push_back(ctx);
    } else {
      // real (post-two-ctx): one labelled text per hook.
      o.model_context.push_back(name + " hook additional context: " + ctx);
    }
    // real (stop-ctx, fuzz lane; subagent-stop-ctx): Stop/SubagentStop context sends the model
    // (the subagent) back to work.
    if (event == "Stop" || event == "SubagentStop") o.blocked = true;
    return true;
  }

  // Exit 2 of the hook that ran `cmd`.
  void exit2(const HookRun& r, const std::string& cmd, const std::optional<json>& any_json) {
    const std::string err = r.stderr_text.empty() ? "No stderr output" : r.stderr_text;
    // real/docs: exit 2 is a blocking error carrying stderr; a JSON allow on stdout does not
    // lift it (pre-exit2-json), a JSON deny gives its own reason (pre-exit2-deny-json).
    const std::string detail = "[" + cmd + "]: " + err;
    if (event == "PreToolUse") {
      o.blocked = true;
      o.permission_decision = "deny";
      std::string reason;
      if (any_json && pre_decision(*any_json, reason) == "deny")
        deny_text = name + " hook error: " + or_default(reason);
      else
        deny_text = name + " hook error: " + detail;
    } else if (event == "PostToolUse" || event == "PostToolUseFailure") {
      // real (post-exit2-command-raw): here the command is quoted as written, not as shown;
      // a JSON block on stdout gives decision:block's text instead (post-exit2-json-block).
      o.blocked = true;
      if (any_json && str_field(*any_json, "decision") == "block")
        o.model_context.push_back(name + " hook blocking error from command: \"" +
                                  shown_command(cmd) + "\": " +
                                  or_default(str_field(*any_json, "reason")));
      else
        o.model_context.push_back(name + " hook blocking error from command: \"" + cmd +
                                  "\": " + detail);
    } else if (event == "UserPromptSubmit") {
      o.blocked = true;  // real (ups-exit2): the prompt is dropped, no model request
    } else if (event == "Stop" || event == "SubagentStop") {
      // real (stop-exit2, subagent-stop-exit2): the model (the subagent) gets the feedback and
      // another turn; SubagentStop's feedback is labelled "Stop" too.
      o.blocked = true;
      o.model_context.push_back("Stop hook feedback:\n" + detail);
    }
    // real (ss-exit2, se-exit2): SessionStart/SessionEnd and the rest show stderr to the user
    // only.
    if (any_json) read_common(*any_json);
  }

  // real (pre-deny-exit1, pre-deny-exit3, pre-deny-exit127, pre-ask-exit1,
  // pre-legacy-block-exit1, post-block-exit1, ups-block-exit1): a JSON reply is read whole at
  // any exit code but 2, its decisions too (the run is still reported as an error).
  void read_reply(const json& reply, const std::string& cmd) {
    const bool has_ctx = read_common(reply);
    json hso = reply.contains("hookSpecificOutput") && reply["hookSpecificOutput"].is_object()
                   ? reply["hookSpecificOutput"]
                   : json::object();
    const std::string decision = str_field(reply, "decision");
    const std::string reason = str_field(reply, "reason");
    if (event == "PreToolUse") {
      std::string pr;
      const std::string pd = pre_decision(reply, pr);
      if (pd == "deny") {
        o.blocked = true;
        deny_text = name + " hook error: " + or_default(pr);
      } else if (pd == "ask") {
        // real (pre-ask-noreason): without a reason the text names the hook.
        ask_text = pr.empty() ? "Hook " + name + " asked for confirmation for this tool" : pr;
      }
      if (!pd.empty()) {
        // docs: with several hooks the strictest decision wins: deny > ask > allow. Where defer
        // ranks is not measured (placed between ask and allow).
        auto rank = [](const std::string& d) {
          return d == "deny" ? 4 : d == "ask" ? 3 : d == "defer" ? 2 : d == "allow" ? 1 : 0;
        };
        if (!o.permission_decision || rank(pd) > rank(*o.permission_decision))
          o.permission_decision = pd;
      }
      // real (pre-allow-upd, pre-upd-no-decision, pre-two-upd-last-wins): updatedInput applies
      // with allow or with no decision at all; the last hook to finish wins.
      if ((pd.empty() || pd == "allow") && hso.contains("updatedInput") &&
          hso["updatedInput"].is_object())
        o.updated_input = hso["updatedInput"];
    } else if (decision == "block") {
      if (event == "PostToolUse" || event == "PostToolUseFailure") {
        o.blocked = true;  // real (post-block): the reason goes to the model beside the result
        o.model_context.insert(o.model_context.end() - (has_ctx ? 1 : 0),
                               name + " hook blocking error from command: \"" +
                                   shown_command(cmd) + "\": " + or_default(reason));
      } else if (event == "UserPromptSubmit") {
        o.blocked = true;  // real (ups-block-json)
      } else if (event == "Stop" || event == "SubagentStop") {
        // real (stop-block-json, subagent-stop-block): the reason twice, as feedback (labelled
        // "Stop" for SubagentStop too) and as a blocking error under the hook's own name.
        o.blocked = true;
        o.model_context.push_back("Stop hook feedback:\n" + or_default(reason) + "\n");
        o.model_context.push_back(name + " hook blocking error from command: \"" +
                                  shown_command(cmd) + "\": " + or_default(reason));
      }
    }
  }

  // After the last reply: PreToolUse's decision, the joined contexts, the system message.
  void settle() {
    if (event == "PreToolUse") {
      if (o.permission_decision == "deny") {
        o.tool_result = deny_text.value_or(name + " hook error: " + kDefaultReason);
        o.blocked = true;
        o.updated_input.reset();
      } else if (o.permission_decision == "ask") {
        // real (pre-ask-json): print mode cannot ask; the call is denied with the reason as the
        // tool_result text.
        o.blocked = true;
        o.tool_result = ask_text.value_or("");
        o.updated_input.reset();
      } else if (o.permission_decision == "defer") {
        // real (pre-defer): the tool does not run and the session ends there (result
        // terminal_reason "tool_deferred"; no tool_result, no Stop hooks).
        o.blocked = true;
        o.continue_ = false;
        o.updated_input.reset();
      }
      if (o.tool_result) o.model_context.insert(o.model_context.begin(), *o.tool_result);
    }
    if (!joined_ctx.empty()) {
      std::string joined;
      for (size_t i = 0; i < joined_ctx.size(); ++i) joined += (i ? "\n" : "") + joined_ctx[i];
      o.model_context.push_back((event == "PreToolUse" ? name : event) +
                                " hook additional context: " + joined);
    }
    // real (ups-continue-false-sm): a prompt stopped by continue:false shows only the stop text,
    // not the systemMessage.
    if (!messages.empty() && !(event == "UserPromptSubmit" && !o.continue_)) {
      std::string m;
      for (size_t i = 0; i < messages.size(); ++i) m += (i ? "\n" : "") + messages[i];
      o.system_message = m;
    }
  }
};

}  // namespace

bool is_json_reply(const std::string& stdout_text) { return json_reply(stdout_text).has_value(); }

Outcome decide(const std::string& event, const json& payload,
               const std::vector<cl::HookCommand>& plan, const std::vector<HookRun>& runs) {
  Reading rd{event, payload, hook_name(event, payload)};
  Outcome& o = rd.o;
  // real (fuzz lane; pre-two-deny-last-wins, pre-two-deny-last-wins-rev, pre-two-upd-last-wins):
  // replies are read in the order the hooks finish, and where one value replaces another (the
  // deny reason, updatedInput) the hook that finishes last wins. A race is decided by timing: the
  // emulator measures when each hook exited, so scenarios declare their order with sleeps.
  std::vector<size_t> order;
  for (size_t i = 0; i < runs.size() && i < plan.size(); ++i) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return runs[a].finished_us < runs[b].finished_us; });
  for (size_t i : order) {
    const HookRun& r = runs[i];
    const std::string& cmd = plan[i].command;
    // real (async key): an "async" hook runs in the background; nothing it answers is applied.
    if (plan[i].async) continue;
    auto any_json = r.timed_out || r.reply_rejected ? std::nullopt : json_reply(r.stdout_text);
    // real (reply-invalid-*, pre-json-wrong-event, timeout, exit-signal, settings-empty-command,
    // pre-exit127-cmd, pre-exit126): on PreToolUse each hook that gave no verdict is a warning:
    // not started, killed, timed out, its reply rejected, or exit 126/127 (not executable, not
    // found) without a JSON reply; a hook's own exit 1 or 3 is not.
    // real (timeout, timeout-per-hook-parallel): a timeout has its own text.
    if (event == "PreToolUse" && r.timed_out) {
      o.warnings.push_back("A hook didn't answer in time, so it didn't check this action.");
      o.warned_commands.push_back(cmd);
    } else if (event == "PreToolUse" &&
               (r.no_verdict || ((r.exit == 126 || r.exit == 127) && !any_json))) {
      o.warnings.push_back("A hook gave no usable answer, so it didn't check this action.");
      o.warned_commands.push_back(cmd);
    }
    if (r.timed_out) continue;  // real (timeout): no verdict; stdout and stderr are not read
    // real (reply-invalid-*): a JSON reply outside the host's schema is not read at all.
    if (r.reply_rejected) continue;
    if (r.exit == 2) {
      rd.exit2(r, cmd, any_json);
      continue;
    }
    if (!any_json) {
      // real (ups-ctx, ss-stdout): plain stdout at exit 0 becomes context only for these two
      // events; at another exit it is not used (post-exit1, ups-exit1).
      std::string t = reply_text(r.stdout_text);
      if (r.exit == 0 && !t.empty() && (event == "UserPromptSubmit" || event == "SessionStart"))
        o.model_context.push_back(rd.name + " hook success: " + t);
      continue;
    }
    rd.read_reply(*any_json, cmd);
  }
  rd.settle();
  return std::move(rd.o);
}

namespace {

using ojson = nlohmann::ordered_json;

// The schema text 2.1.332 appends to every validation failure, byte for byte (reply-invalid-*).
const char* const kExpectedSchema = R"schema({
  "continue": "boolean (optional)",
  "suppressOutput": "boolean (optional)",
  "stopReason": "string (optional)",
  "decision": "\"approve\" | \"block\" (optional)",
  "reason": "string (optional)",
  "systemMessage": "string (optional)",
  "terminalSequence": "string (optional)",
  "hookSpecificOutput": {
    "for PreToolUse": {
      "hookEventName": "\"PreToolUse\"",
      "permissionDecision": "\"allow\" | \"deny\" | \"ask\" | \"defer\" (optional)",
      "permissionDecisionReason": "string (optional)",
      "updatedInput": "object (optional) - Modified tool input to use"
    },
    "for PermissionRequest": {
      "hookEventName": "\"PermissionRequest\"",
      "decision": {
        "to allow": {
          "behavior": "\"allow\"",
          "updatedInput": "object (optional) - Modified tool input to use",
          "updatedPermissions": "array (optional) - Permission updates"
        },
        "to deny": {
          "behavior": "\"deny\"",
          "message": "string (optional)",
          "interrupt": "boolean (optional)"
        }
      }
    },
    "for UserPromptSubmit": {
      "hookEventName": "\"UserPromptSubmit\"",
      "additionalContext": "string (optional)"
    },
    "for PostToolUse": {
      "hookEventName": "\"PostToolUse\"",
      "additionalContext": "string (optional)"
    },
    "for PostToolBatch": {
      "hookEventName": "\"PostToolBatch\"",
      "additionalContext": "string (optional)"
    },
    "for Stop / SubagentStop": {
      "hookEventName": "\"Stop\" | \"SubagentStop\"",
      "additionalContext": "string (optional) - Feedback for the model; the conversation continues so the model can act on it"
    }
  }
})schema";

// The JavaScript type name the host's messages use ("received array", "received undefined").
std::string js_type(const ojson* v) {
  if (!v) return "undefined";
  if (v->is_null()) return "null";
  if (v->is_array()) return "array";
  if (v->is_object()) return "object";
  if (v->is_boolean()) return "boolean";
  if (v->is_number()) return "number";
  return "string";
}

const ojson* field(const ojson& j, const char* k) {
  auto it = j.find(k);
  return it == j.end() ? nullptr : &*it;
}

// The first problem the host's reply schema finds, as it words it ("<path>: <message>"), or
// nothing. Fields are checked in the schema's order (reply-invalid-types: with `decision` and
// `continue` both wrong, `continue` is named); only the first problem is reported.
std::optional<std::string> schema_problem(const ojson& j) {
  auto want = [&](const ojson& obj, const char* k, const char* type,
                  const std::string& prefix) -> std::optional<std::string> {
    const ojson* v = field(obj, k);
    if (!v) return std::nullopt;  // every top-level field is optional
    const bool ok = std::string(type) == "boolean"  ? v->is_boolean()
                    : std::string(type) == "string" ? v->is_string()
                                                    : v->is_object();  // "record"
    if (ok) return std::nullopt;
    return prefix + k + ": expected " + type + ", received " + js_type(v);
  };
  for (const char* k : {"continue", "suppressOutput"})
    if (auto p = want(j, k, "boolean", "")) return p;
  if (auto p = want(j, "stopReason", "string", "")) return p;
  if (const ojson* d = field(j, "decision")) {
    if (!(d->is_string() && (*d == "approve" || *d == "block"))) {
      // real (reply-invalid-decision, reply-invalid-types): a permission word gets a hint.
      std::string m = "decision: Invalid option: expected one of \"approve\"|\"block\"";
      const std::string v = d->is_string() ? d->get<std::string>() : "";
      if (v == "allow" || v == "deny" || v == "ask")
        m += " (top-level decision is the legacy approve|block field; for \"" + v +
             "\" use hookSpecificOutput.permissionDecision in a PreToolUse hook" +
             (v == "ask" ? std::string()
                         : ", or hookSpecificOutput.decision: {\"behavior\": \"" + v +
                               "\"} in a PermissionRequest hook") +
             ")";
      return m;
    }
  }
  for (const char* k : {"reason", "systemMessage", "terminalSequence"})
    if (auto p = want(j, k, "string", "")) return p;
  const ojson* hso = field(j, "hookSpecificOutput");
  if (!hso) return std::nullopt;
  if (!hso->is_object())
    return "hookSpecificOutput: expected object, received " + js_type(hso);
  const ojson* name = field(*hso, "hookEventName");
  if (!name) return std::string("hookSpecificOutput is missing required field \"hookEventName\"");
  // real (reply-invalid-event-names): the events whose hookSpecificOutput 2.1.332 knows; any
  // other name (PreCompact, SessionEnd, a number, …) fails validation. A known name of another
  // event passes here and is rejected by reject_wrong_event.
  static const std::set<std::string> kNamed = {
      "PreToolUse",       "PostToolUse",      "PostToolUseFailure", "PostToolBatch",
      "Notification",     "UserPromptSubmit", "UserPromptExpansion", "SessionStart",
      "Stop",             "SubagentStart",    "SubagentStop",       "PreModelSwitch",
      "PostModelSwitch",  "PermissionRequest", "PermissionDenied",  "Setup",
      "Elicitation",      "ElicitationResult", "CwdChanged",        "FileChanged",
      "MessageDisplay",   "PreSkillShellCommand", "WorktreeCreate"};
  if (!name->is_string() || !kNamed.count(name->get<std::string>()))
    return std::string(
        "hookSpecificOutput.hookEventName: expected one of \"PreToolUse\" | \"UserPromptSubmit\" | "
        "\"UserPromptExpansion\" | \"SessionStart\" | \"Setup\" | \"PreModelSwitch\" | …");
  const std::string ev = name->get<std::string>();
  const std::string at = "hookSpecificOutput.";
  if (ev == "PreToolUse") {
    if (const ojson* pd = field(*hso, "permissionDecision")) {
      if (!(pd->is_string() &&
            (*pd == "allow" || *pd == "deny" || *pd == "ask" || *pd == "defer")))
        return at + "permissionDecision: Invalid option: expected one of "
                    "\"allow\"|\"deny\"|\"ask\"|\"defer\"";
    }
    if (auto p = want(*hso, "permissionDecisionReason", "string", at)) return p;
    if (auto p = want(*hso, "updatedInput", "record", at)) return p;
  } else if (ev == "PermissionRequest") {
    const ojson* d = field(*hso, "decision");
    if (!d || !d->is_object())
      return at + "decision: expected object, received " + js_type(d) +
             " (PermissionRequest decision must be {\"behavior\": \"allow\"} or {\"behavior\": "
             "\"deny\", \"message\": \"...\"})";
  } else if (ev == "WorktreeCreate") {
    const ojson* w = field(*hso, "worktreePath");
    if (!w || !w->is_string())
      return at + "worktreePath: expected string, received " + js_type(w);
  }
  // real (reply-invalid-types): additionalContext where the named event's schema has it.
  static const std::set<std::string> kContext = {
      "PreToolUse", "PostToolUse",  "PostToolUseFailure", "PostToolBatch", "UserPromptSubmit",
      "SessionStart", "Stop", "SubagentStop", "SubagentStart"};
  if (kContext.count(ev))
    if (auto p = want(*hso, "additionalContext", "string", at)) return p;
  return std::nullopt;
}

}  // namespace

// real (reply-invalid-decision, reply-invalid-types, reply-invalid-event-names): a JSON reply
// (whatever the exit code but 2) is checked against the host's schema before anything in it is
// read; one that fails is not read at all (no decision, no systemMessage, no context), keeps its
// exit code and stdout, and is reported with stderr
// "Hook JSON output validation failed — <problem>\n\nThe hook's output was: <the reply,
// JSON.stringify(…, null, 2)>\n\nExpected schema:\n<schema>" (outcome "error"; on PreToolUse the
// CLI also warns "A hook gave no usable answer, so it didn't check this action." and the tool
// runs). At exit 0 the hook's own stderr is dropped; at another exit it follows.
void reject_invalid_reply(HookRun& r) {
  if (r.exit == 2 || r.timed_out) return;
  std::string t = reply_text(r.stdout_text);
  if (t.empty() || t.front() != '{') return;
  auto j = ojson::parse(t, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return;
  auto problem = schema_problem(j);
  if (!problem) return;
  const std::string own = trim(r.stderr_text);
  r.reply_rejected = true;
  r.no_verdict = true;
  r.stderr_text = "Hook JSON output validation failed \xE2\x80\x94 " + *problem +
                  "\n\nThe hook's output was: " + j.dump(2, ' ', false, ojson::error_handler_t::replace) +
                  "\n\nExpected schema:\n" + kExpectedSchema;
  // real (reply-invalid-types): at another exit the hook's own stderr follows, trimmed.
  if (r.exit != 0 && !own.empty())
    r.stderr_text += "\n\nHook exited " + std::to_string(r.exit) + " with stderr:\n" + own;
}

// real (pre-json-wrong-event): a JSON reply whose hookSpecificOutput.hookEventName names another
// event is rejected before it is read: the host reports the hook as exit 1 with empty stdout and
// stderr "Failed to run: Hook returned incorrect event name: expected 'E' but got 'G'. Full stdout:
// <the reply as the host parsed it, JSON.stringify(…, null, 2)>". Its parse keeps, inside
// hookSpecificOutput, only the fields the named event's schema has (the rest is dropped).
void reject_wrong_event(const std::string& event, HookRun& r) {
  if (r.exit != 0 || r.timed_out) return;
  std::string t = reply_text(r.stdout_text);
  if (t.empty() || t.front() != '{') return;
  auto j = nlohmann::ordered_json::parse(t, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("hookSpecificOutput") ||
      !j["hookSpecificOutput"].is_object())
    return;
  auto& hso = j["hookSpecificOutput"];
  if (!hso.contains("hookEventName") || !hso["hookEventName"].is_string()) return;
  const std::string got = hso["hookEventName"];
  if (got == event) return;
  static const std::map<std::string, std::set<std::string>> kFields = {
      {"PreToolUse", {"permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"}},
      {"PostToolUse", {"additionalContext", "updatedMCPToolOutput"}},
      {"PostToolUseFailure", {"additionalContext"}},
      {"UserPromptSubmit", {"additionalContext"}},
      {"SessionStart", {"additionalContext"}}};
  nlohmann::ordered_json kept = nlohmann::ordered_json::object();
  auto it = kFields.find(got);
  for (const auto& [k, v] : hso.items())
    if (k == "hookEventName" || (it != kFields.end() && it->second.count(k))) kept[k] = v;
  hso = kept;
  r.exit = 1;
  r.no_verdict = true;
  r.stdout_text.clear();
  r.stderr_text = "Failed to run: Hook returned incorrect event name: expected '" + event +
                  "' but got '" + got + "'. Full stdout: " + j.dump(2);
}

void reject_unreadable(const std::string& event, HookRun& r) {
  reject_invalid_reply(r);
  if (!r.reply_rejected) reject_wrong_event(event, r);
}

PlanRun run_plan(const std::vector<cl::HookCommand>& plan, const std::string& event,
                 const json& payload, const std::string& cwd,
                 const std::map<std::string, std::string>& env) {
  return run_plan(plan, event, payload, cl::stdin_bytes(payload), cwd, env);
}

PlanRun run_plan(const std::vector<cl::HookCommand>& plan, const std::string& event,
                 const json& payload, const std::string& input, const std::string& cwd,
                 const std::map<std::string, std::string>& env) {
  PlanRun pr;
  pr.runs = run_hooks(plan, input, cwd, env);
  for (auto& r : pr.runs) reject_unreadable(event, r);
  pr.outcome = decide(event, payload, plan, pr.runs);
  return pr;
}

void warn_once_per_session(Outcome& o, const std::string& project, const json& payload) {
  if (o.warned_commands.empty()) return;
  const std::string session = payload.is_object() && payload.contains("session_id") &&
                                      payload["session_id"].is_string()
                                  ? payload["session_id"].get<std::string>()
                                  : "";
  if (session.empty()) return;
  std::string key = project;
  for (char& c : key)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
  const std::filesystem::path dir =
      std::filesystem::path("/tmp/claude-" + std::to_string(::getuid())) / key / session;
  const auto file = dir / "pinta-hostemu-warned.json";
  json warned = json::array();
  if (auto text = pinta::fs::read_file(file.string())) {
    auto j = json::parse(*text, nullptr, false);
    if (j.is_array()) warned = j;
  }
  std::vector<std::string> keep_w, keep_c;
  for (size_t i = 0; i < o.warnings.size(); ++i) {
    const std::string& c = o.warned_commands[i];
    if (std::find(warned.begin(), warned.end(), json(c)) != warned.end()) continue;
    warned.push_back(c);
    keep_w.push_back(o.warnings[i]);
    keep_c.push_back(c);
  }
  o.warnings = std::move(keep_w);
  o.warned_commands = std::move(keep_c);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  (void)pinta::fs::atomic_write(file.string(), warned.dump());
}

std::string hook_outcome(const HookRun& r) {
  // real (every scenario: --include-hook-events' hook_response "outcome"): exit 0 with a reply
  // the host could read is a success; a hook past its timeout is cancelled (timeout,
  // timeout-per-hook-parallel); any other exit (a signal's too) or a rejected reply is an error.
  if (r.timed_out) return "cancelled";
  return r.exit == 0 && !r.reply_rejected ? "success" : "error";
}

json report_json(const std::vector<cl::HookCommand>& plan, const PlanRun& run) {
  json loaded = json::array();
  for (const auto& h : plan)
    loaded.push_back({{"event", h.event}, {"matcher", h.matcher}, {"command", h.command},
                      {"timeoutMs", h.timeout_ms}, {"source", h.source}});
  json results = json::array();
  for (const auto& r : run.runs)
    results.push_back({{"command", r.command}, {"exit", r.exit}, {"stdout", r.stdout_text},
                       {"stderr", r.stderr_text}, {"timedOut", r.timed_out},
                       {"replyRejected", r.reply_rejected}, {"outcome", hook_outcome(r)}});
  const Outcome& o = run.outcome;
  auto opt = [](const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); };
  json out = {{"blocked", o.blocked},
              {"toolResult", opt(o.tool_result)},
              {"permissionDecision", opt(o.permission_decision)},
              {"continue", o.continue_},
              {"stopReason", opt(o.stop_reason)},
              {"systemMessage", opt(o.system_message)},
              {"additionalContext", o.additional_context},
              {"updatedInput", o.updated_input ? *o.updated_input : json(nullptr)},
              {"modelContext", o.model_context}};
  // Only when there are any: the replay goldens (fixtures/golden/deny/claude/) hold no such key.
  if (!o.warnings.empty()) out["warnings"] = o.warnings;
  return {{"loaded", loaded}, {"results", results}, {"outcome", out}};
}

}  // namespace pinta::emu::claude
