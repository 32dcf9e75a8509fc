// Running: 셸로, 훅돌리기, 자리돌리기, 막힘말 of deel-local-cli 1.17.1 package/src/safety/hooks.js
// ("seed Lnnn" = line of shared/seeds/004_10d55d7627512262.txt).
//
// ASSUMPTIONS for the three modules the seed does not include:
//  - tools/shell.js 셸고르기(): bash on Linux, argv {"bash", "-c", CMD}.
//  - tools/spawn.js 돌려보기(): every byte of stdout and stderr is kept (its maxBuffer is not a
//    cap); it resolves when the child has exited and both pipes have closed; at the timeout the
//    child's process group gets SIGKILL and the result carries error "timed out after <ms> ms";
//    a child killed by a signal gives status null and no error; a spawn failure gives Node's
//    error (node_spawn.h: `spawn bash ENOENT` from the 'error' event, `spawn ENOTDIR` thrown).
//    The timer is cleared when the child has exited AND both pipes have closed (Node's execFile
//    clears its timeout in the 'close' handler): a background child still holding stdout at the
//    timeout makes the hook time out, as under Gemini CLI.
//  - The hook's environment is process.env as spawn passes it (node_spawn.h): the parent's order.
//  - safety/trust.js 믿나(): the --trusted input (loader.cc).
#include <cerrno>
#include <cmath>
#include <string>

#include "pinta/emulator/deel/deel.h"
#include "pinta/hosts/node/js.h"
#include "pinta/hosts/node/node_spawn.h"

namespace pinta::emu::deel {
namespace {

namespace node = pinta::hosts::node;

// Length in UTF-16 code units of valid UTF-8, and the byte offset after `units` code units. A cut
// inside a surrogate pair keeps the high surrogate as WTF-8 (what String.prototype.slice leaves).
size_t utf16_length(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) == 0x80) continue;
    n += c >= 0xF0 ? 2 : 1;
  }
  return n;
}

std::string utf16_slice(const std::string& s, size_t units) {
  std::string out;
  size_t n = 0, i = 0;
  while (i < s.size() && n < units) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (len == 4 && n + 1 == units) {
      // Only the high surrogate fits.
      unsigned long cp = ((c & 0x07UL) << 18) |
                         ((static_cast<unsigned char>(s[i + 1]) & 0x3FUL) << 12) |
                         ((static_cast<unsigned char>(s[i + 2]) & 0x3FUL) << 6) |
                         (static_cast<unsigned char>(s[i + 3]) & 0x3FUL);
      unsigned long hi = 0xD800 + ((cp - 0x10000) >> 10);
      out += static_cast<char>(0xE0 | (hi >> 12));
      out += static_cast<char>(0x80 | ((hi >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (hi & 0x3F));
      return out;
    }
    out.append(s, i, len);
    i += len;
    n += len == 4 ? 2 : 1;
  }
  return out;
}

}  // namespace

// seed L426: JSON.stringify({ 자리: 훅.자리, ...({ 도구, ...넣을것 }) }) + '\n' — 자리돌리기 passes
// { 도구, ...넣을것 } (seed L481). A spread keeps a key's first position and takes its last value;
// JSON.stringify then puts array-index keys first (js_stringify does).
std::string stdin_line(const std::string& event, const std::optional<std::string>& tool,
                       const ojson& payload) {
  ojson inner = ojson::object();
  inner["도구"] = tool ? ojson(*tool) : ojson(nullptr);
  if (payload.is_object()) {
    for (auto it = payload.begin(); it != payload.end(); ++it) inner[it.key()] = it.value();
  } else if (payload.is_array()) {
    for (size_t i = 0; i < payload.size(); ++i) inner[std::to_string(i)] = payload[i];
  } else if (payload.is_string()) {
    // A string spreads into one property per UTF-16 code unit; only BMP text is handled here.
    const std::string& s = payload.get_ref<const std::string&>();
    size_t k = 0;
    for (size_t i = 0; i < s.size();) {
      auto c = static_cast<unsigned char>(s[i]);
      size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      inner[std::to_string(k++)] = s.substr(i, len);
      i += len;
    }
  }  // null, numbers and booleans spread nothing
  ojson outer = ojson::object();
  outer["자리"] = event;
  for (auto it = inner.begin(); it != inner.end(); ++it) outer[it.key()] = it.value();
  return node::js_stringify(outer) + "\n";
}

// 훅돌리기 (seed L413-463).
static RunResult run_one(const Hook& h, const std::optional<std::string>& tool,
                         const ojson& payload, pinta::proc::Spawner& spawner,
                         const std::optional<EnvPairs>& env) {
  pinta::proc::SpawnRequest rq;
  // 셸로 (seed L400-403), shell.js assumed: bash -c CMD. Node's spawn gives bash argv[0] "bash";
  // the spawner passes the resolved path instead, so $0 (which bash names itself by in its error
  // messages) is set back to "bash" with the extra operand.
  rq.argv = {"bash", "-c", h.command, "bash"};
  if (env) rq.env_list = pinta::hosts::node::process_env(*env);
  else rq.env_list = pinta::hosts::node::current_process_env();
  rq.stdin_data = stdin_line(h.event, tool, payload);
  rq.stdin_mode = pinta::proc::StdinMode::kCloseAfterWrite;
  // Node's setTimeout: a delay below 1 ms is 1 ms.
  const double ms = std::max(1.0, std::ceil(h.timeout_ms));
  rq.timeout = std::chrono::milliseconds(static_cast<long long>(ms));
  rq.timeout_signal = SIGKILL;
  // ASSUMPTION (tools/spawn.js is not in the seed; docs/hosts/deel-local-cli-1.17.md "runner"): the
  // child is spawned detached, as Node code that kills a timed-out hook's process group must:
  // a new session, which it leads, and its group gets the SIGKILL.
  rq.new_session = true;
  rq.signal_group = true;
  rq.timeout_until_close = true;
  rq.hard_limit = rq.timeout + std::chrono::seconds(30);
  auto r = spawner.run(rq);

  RunResult out;
  out.hook = &h;
  // seed L434-436: stdout then stderr, trimmed, cut at 글최대 code units with the host's note.
  std::string raw =
      node::js_trim(node::node_utf8_decode(r.out) + node::node_utf8_decode(r.err));
  out.truncated = utf16_length(raw) > kMaxMessageUnits;
  out.message = out.truncated ? utf16_slice(raw, kMaxMessageUnits) +
                                    "\n…(훅이 뱉은 글이 길어서 여기까지만 옮겼습니다)"
                              : raw;
  const bool blocking = is_blocking_event(h.event);
  std::optional<std::string> error;
  if (!r.started)
    error = pinta::hosts::node::spawn_failure("bash", r.spawn_errno ? r.spawn_errno : ENOENT).message;
  else if (r.timed_out || r.hard_limited)
    error = "timed out after " + js_number_text(h.timeout_ms) + " ms";
  if (error) {  // seed L439-445: could not run / timed out: "never measured" → blocks
    out.blocked = blocking && !h.pass_on_failure;
    out.why = "훅을 못 돌렸습니다 — " + *error;
    return out;
  }
  out.code = r.exit_code;                            // null when a signal killed it
  if (r.exit_code && *r.exit_code == 0) return out;  // seed L446
  if (r.exit_code && *r.exit_code == 2) {            // seed L453: 2 blocks at blocking points
    out.blocked = blocking;
    return out;
  }
  // seed L454-458: any other end is "broken": blocks unless pass-on-failure.
  out.blocked = blocking && !h.pass_on_failure;
  out.why = "훅이 " + (r.exit_code ? std::to_string(*r.exit_code) : std::string("null")) +
            " 로 끝났습니다";
  return out;
}

// 자리돌리기 (seed L472-495): in order; the first block stops the rest.
Outcome run_event(const std::vector<Hook>& hooks, const std::string& event,
                  const std::optional<std::string>& tool, const ojson& payload,
                  pinta::proc::Spawner& spawner, const std::optional<EnvPairs>& env) {
  Outcome o;
  for (const Hook* h : select(hooks, event, tool)) {
    o.results.push_back(run_one(*h, tool, payload, spawner, env));
    if (o.results.back().blocked) {
      o.blocked_index = o.results.size() - 1;
      break;
    }
  }
  return o;
}

// 막힘말 (seed L504-511).
std::string block_message(const RunResult& r) {
  const Hook& h = *r.hook;
  std::string s =
      h.event + " 훅이 막았습니다 (" + h.source + ": " + h.name.value_or(h.command) + ").";
  if (r.why) s += "\n  " + *r.why + " — 문지기가 쓰러져 있으면 통과시키지 않습니다.";
  if (!r.message.empty()) s += "\n\n" + r.message;
  s += "\n\n같은 것을 다시 부르지 마세요. 다른 길을 찾거나, 왜 필요한지 사용자에게 말하세요.";
  return s;
}

static std::string num(double d) { return js_number_text(d); }

std::string report_json(const Loaded& l, const Outcome* o) {
  auto q = json_quote_wtf8;
  auto opt = [&](const std::optional<std::string>& s) { return s ? q(*s) : std::string("null"); };
  auto b = [](bool v) { return std::string(v ? "true" : "false"); };
  std::string s = "{\"enabled\":" + b(l.enabled) + ",\"disabledBy\":" + opt(l.disabled_by);
  s += ",\"loaded\":[";
  for (size_t i = 0; i < l.hooks.size(); ++i) {
    const Hook& h = l.hooks[i];
    s += std::string(i ? "," : "") + "{\"event\":" + q(h.event) + ",\"matcher\":" + q(h.matcher) +
         ",\"command\":" + q(h.command) + ",\"timeoutMs\":" + num(h.timeout_ms) +
         ",\"passOnFailure\":" + b(h.pass_on_failure) + ",\"source\":" + q(h.source) +
         ",\"name\":" + opt(h.name) + "}";
  }
  s += "],\"dropped\":[";
  bool first = true;
  for (const FileRead* f : {&l.pc, &l.project})
    for (const auto& d : f->dropped) s += (first ? "" : ",") + q(d), first = false;
  s += "],\"fileErrors\":{\"pc\":" + b(l.pc.error.has_value()) +
       ",\"project\":" + b(l.project.error.has_value()) + "}";
  s += ",\"untrustedProject\":" + b(l.untrusted_project) + ",\"overflow\":" + b(l.overflow);
  s += ",\"results\":[";
  if (o) {
    for (size_t i = 0; i < o->results.size(); ++i) {
      const RunResult& r = o->results[i];
      s += std::string(i ? "," : "") + "{\"command\":" + q(r.hook->command) +
           ",\"code\":" + (r.code ? std::to_string(*r.code) : std::string("null")) +
           ",\"blocked\":" + b(r.blocked) + ",\"why\":" + opt(r.why) +
           ",\"message\":" + q(r.message) + ",\"truncated\":" + b(r.truncated) + "}";
    }
  }
  const bool blocked = o && o->blocked_index;
  s += "],\"blocked\":" + b(blocked) + ",\"blockMessage\":" +
       (blocked ? q(block_message(o->results[*o->blocked_index])) : std::string("null")) + "}";
  return s;
}

}  // namespace pinta::emu::deel
