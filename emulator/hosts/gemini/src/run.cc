// Running one command hook the way core hooks/hookRunner.js HookRunner.executeCommandHook
// (@google/gemini-cli-core 0.61.0, lines ~200-390) does: §4 of
// shared/reference/gemini-cli-0.61-hooks.md.
#include <cerrno>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "pinta/emulator/gemini/gemini.h"
#include "pinta/hosts/node/node_spawn.h"

namespace pinta::emu::gemini {

namespace {

bool is_quote_special(char c) {
  // shell-quote@1.8.3 quote.js: /([A-Za-z]:)?([#!"$&'()*,:;<=>?@[\\\]^`{|}])/g
  static const std::string_view kSpecial = "#!\"$&'()*,:;<=>?@[\\]^`{|}";
  return kSpecial.find(c) != std::string_view::npos;
}

bool has_js_space(const std::string& s) {
  // /\s/ in JS: the same whitespace set as trim().
  std::string d = node_utf8_decode(s);
  for (size_t i = 0; i < d.size();) {
    auto b = static_cast<unsigned char>(d[i]);
    size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    unsigned long cp = len == 1 ? b : (b & (0xFF >> (len + 1)));
    for (size_t k = 1; k < len && i + k < d.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(d[i + k]) & 0x3F);
    if (js_is_space_cp(cp)) return true;
    i += len;
  }
  return false;
}

}  // namespace

std::string escape_shell_arg(const std::string& s) {
  // core utils/shell-utils.js escapeShellArg: `if (!arg) return ''`, then quote([arg]) (bash).
  if (s.empty()) return "";
  bool dq = s.find('"') != std::string::npos, sq = s.find('\'') != std::string::npos;
  bool bs = s.find('\\') != std::string::npos, ws = has_js_space(s);
  if ((dq || ws || bs) && !sq) return "'" + s + "'";
  if (dq || sq || ws) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\' || c == '$' || c == '`' || c == '!') out += '\\';
      out += c;
    }
    return out + "\"";
  }
  std::string out;
  for (size_t i = 0; i < s.size();) {
    bool letter = (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z');
    if (letter && i + 2 < s.size() && s[i + 1] == ':' && is_quote_special(s[i + 2])) {
      out += s.substr(i, 2);
      out += '\\';
      out += s[i + 2];
      i += 3;
    } else if (is_quote_special(s[i])) {
      out += '\\';
      out += s[i];
      ++i;
    } else {
      out += s[i];
      ++i;
    }
  }
  return out;
}

namespace {

std::string expand_vars(const std::string& command, const std::string& cwd,
                        const std::string& plans_dir, const std::string& session_id,
                        bool session_vars) {
  // core hookRunner.js expandCommand: five global literal replacements, in this order (§4.3);
  // before 0.40 only $GEMINI_PROJECT_DIR and $CLAUDE_PROJECT_DIR (0.35.3 hookRunner.js:377-378,
  // 0.26.0 hookRunner.js:298-299).
  const std::string ecwd = escape_shell_arg(cwd), eplans = escape_shell_arg(plans_dir),
                    esid = escape_shell_arg(session_id);
  const std::pair<std::string_view, const std::string*> reps[] = {
      {"$GEMINI_PROJECT_DIR", &ecwd}, {"$GEMINI_CWD", &ecwd},
      {"$GEMINI_PLANS_DIR", &eplans}, {"$GEMINI_SESSION_ID", &esid},
      {"$CLAUDE_PROJECT_DIR", &ecwd},
  };
  std::string cur = command;
  for (const auto& [pat, val] : reps) {
    if (!session_vars && pat != "$GEMINI_PROJECT_DIR" && pat != "$CLAUDE_PROJECT_DIR") continue;
    std::string next;
    size_t pos = 0;
    while (true) {
      size_t f = cur.find(pat, pos);
      if (f == std::string::npos) break;
      next.append(cur, pos, f - pos);
      next += *val;
      pos = f + pat.size();
    }
    next.append(cur, pos, std::string::npos);
    cur = std::move(next);
  }
  return cur;
}

}  // namespace

std::string expand_command(const std::string& command, const std::string& cwd,
                           const std::string& plans_dir, const std::string& session_id) {
  return expand_vars(command, cwd, plans_dir, session_id, true);
}

HookRules hook_rules_from_switches(const ojson& sw) {
  HookRules r;
  if (!sw.is_object()) return r;
  auto str = [&](const char* k, const char* dflt) {
    return sw.contains(k) && sw[k].is_string() ? sw[k].get<std::string>() : std::string(dflt);
  };
  r.legacy_output_reading = str("hook_output_reading", "any_exit") == "exit0_json";
  r.output_format_field = str("hook_output_format", "field") == "field";
  const std::string env = str("hook_env", "full");
  r.session_env_vars = env == "full";
  r.hook_env_field = env != "project_dir_only";
  return r;
}

Interpretation interpret_output(const std::string& out, const std::string& err, int code) {
  // §4.5 / executeCommandHook 'close' handler.
  Interpretation r;
  std::string text = js_trim(out);
  if (text.empty()) text = js_trim(err);
  if (text.empty()) return r;
  auto parsed = js_parse(text);
  bool ok = parsed.has_value();
  if (ok && parsed->is_string()) {
    // A JSON string is parsed a second time; if that throws, the plain-text path is taken.
    parsed = js_parse(parsed->get_ref<const std::string&>());
    ok = parsed.has_value();
  }
  if (ok) {
    if (parsed->is_object() || parsed->is_array()) {
      r.output = std::move(*parsed);
      r.output_format = "json";
    }
    return r;  // number / boolean / null: no output, no text fallback
  }
  // convertPlainTextToHookOutput(text, exitCode || 0)
  ojson o = ojson::object();
  if (code == 0) {
    o["decision"] = "allow";
    o["systemMessage"] = text;
  } else if (code == 1) {
    o["decision"] = "allow";
    o["systemMessage"] = "Warning: " + text;
  } else {
    o["decision"] = "deny";
    o["reason"] = text;
  }
  r.output = std::move(o);
  r.output_format = "text";
  r.plain_text = true;
  return r;
}

Interpretation interpret_output_legacy(const std::string& out, const std::string& err,
                                       std::optional<int> code) {
  // gemini-cli-core 0.26.0 hooks/hookRunner.js:241-263 (the 'close' handler) and 304-326
  // (convertPlainTextToHookOutput: 0 = allow + systemMessage, 2 = deny + reason, any other code =
  // allow + "Warning: " systemMessage). No outputFormat in this version.
  Interpretation r;
  auto convert = [&](const std::string& text, int c) {
    ojson o = ojson::object();
    if (c == 0) {
      o["decision"] = "allow";
      o["systemMessage"] = text;
    } else if (c == 2) {
      o["decision"] = "deny";
      o["reason"] = text;
    } else {
      o["decision"] = "allow";
      o["systemMessage"] = "Warning: " + text;
    }
    r.output = std::move(o);
    r.plain_text = true;
  };
  if (code && *code == 0) {
    const std::string text = js_trim(out);
    if (text.empty()) return r;
    auto parsed = js_parse(text);
    if (parsed && parsed->is_string()) parsed = js_parse(parsed->get_ref<const std::string&>());
    if (!parsed) {
      convert(text, 0);
      return r;
    }
    // `if (parsed) output = parsed`: any truthy JSON value is the output (even 5 or "x").
    const ojson& p = *parsed;
    const bool truthy = !(p.is_null() || (p.is_boolean() && !p.get<bool>()) ||
                          (p.is_number() && p.get<double>() == 0) ||
                          (p.is_string() && p.get_ref<const std::string&>().empty()));
    if (truthy) r.output = p;
    return r;
  }
  const std::string text = js_trim(err);
  if (!text.empty()) convert(text, code ? *code : 1);  // exitCode || EXIT_CODE_NON_BLOCKING_ERROR
  return r;
}

namespace {

// §4.2: {...process.env, GEMINI_PROJECT_DIR, GEMINI_PLANS_DIR, GEMINI_CWD, GEMINI_SESSION_ID,
// CLAUDE_PROJECT_DIR, ...hook.env}: the CLI's environment in its own order (as process.env reads
// it), each of these replacing an inherited value in place or appended in this order; an
// undefined value is not passed (pinta::hosts::node, node_spawn.h).
pinta::hosts::node::EnvPairs hook_env(const HookSpec& hook, const ojson& input,
                                      const RunContext& ctx, const std::string& cwd,
                                      const std::string& plans_dir, const std::string& session_id) {
  namespace node = pinta::hosts::node;
  const node::EnvPairs base =
      ctx.env ? node::process_env(*ctx.env) : node::current_process_env();
  std::vector<std::pair<std::string, std::optional<std::string>>> props;
  const bool has_cwd = !cwd.empty();
  auto opt = [](bool defined, const std::string& v) {
    return defined ? std::optional<std::string>(v) : std::nullopt;
  };
  props.emplace_back("GEMINI_PROJECT_DIR", opt(has_cwd, cwd));
  // Before 0.40 the CLI sets only GEMINI_PROJECT_DIR and CLAUDE_PROJECT_DIR (0.35.3
  // hookRunner.js:233-237), and 0.26 does not spread hook.env (0.26.0 hookRunner.js:174-178): a
  // variable of those names inherited from the CLI's environment then passes through unchanged.
  if (ctx.rules.session_env_vars) {
    props.emplace_back("GEMINI_PLANS_DIR", plans_dir);
    props.emplace_back("GEMINI_CWD", opt(has_cwd, cwd));
    props.emplace_back("GEMINI_SESSION_ID",
                       opt(input.is_object() && input.contains("session_id"), session_id));
  }
  props.emplace_back("CLAUDE_PROJECT_DIR", opt(has_cwd, cwd));
  if (ctx.rules.hook_env_field)
    for (const auto& [k, v] : hook.env) props.emplace_back(k, v);
  return node::spread_env(base, props);
}

// The spawn of the hook's command as Node's spawn("bash", ["-c", cmd]) under the CLI does it.
pinta::proc::SpawnRequest spawn_request(const HookSpec& hook, const ojson& input,
                                        const RunContext& ctx, const std::string& command,
                                        const std::string& cwd,
                                        pinta::hosts::node::EnvPairs env) {
  pinta::proc::SpawnRequest req;
  // Node looks "bash" up in PATH and passes it as given, argv[0] = "bash" (bash's own messages
  // then start `bash: `, and /proc/PID/cmdline reads `bash -c CMD`): one bash, as under the CLI.
  req.argv = {"bash", "-c", command};
  req.argv0 = "bash";
  req.env_list = std::move(env);
  req.cwd = cwd;
  req.stdin_data = stdin_bytes(input);  // compact, no newline, then closed (§4.1)
  req.stdin_mode = ctx.stdin_mode;
  // §4.4: SIGTERM to bash only (no group), no effective SIGKILL; wait for the pipes to close.
  // 0 / negative / non-numeric timeouts fire after ~1 ms (Node setTimeout clamps to 1).
  req.timeout = std::chrono::milliseconds(hook.timeout_ms >= 1 ? hook.timeout_ms : 1);
  req.timeout_signal = SIGTERM;
  req.kill_after = std::chrono::milliseconds(0);
  req.new_process_group = false;
  req.signal_group = false;
  // Node's child_process gives the child AF_UNIX socketpairs, not pipes (libuv): opening
  // /dev/stdout, /dev/stderr or /dev/stdin then fails with ENXIO.
  req.socket_stdio = true;
  return req;
}

// executeCommandHook: `stdout += data.toString()` per 'data' event — each read is decoded on its
// own, so a UTF-8 sequence split across two reads becomes replacement characters (fuzz finding).
std::string decode_chunks(const std::string& bytes, const std::vector<size_t>& chunks) {
  std::string text;
  size_t at = 0;
  for (size_t n : chunks) {
    if (at >= bytes.size()) break;
    text += node_utf8_decode(std::string_view(bytes).substr(at, n));
    at += n;
  }
  if (at < bytes.size()) text += node_utf8_decode(std::string_view(bytes).substr(at));
  return text;
}

}  // namespace

HookRunResult run_hook(const HookSpec& hook, std::string_view event_name, const ojson& input,
                       const RunContext& ctx) {
  (void)event_name;
  HookRunResult r;
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  // executeHook: project hooks refused in an untrusted folder (§1.2 step 7).
  if (hook.source == "project" && !ctx.trusted_folder) {
    r.error = "Security: Blocked execution of project hook in untrusted folder";
    return r;
  }
  if (hook.command.empty()) {
    r.error = "Command hook missing command";
    r.duration_ms = elapsed();
    return r;
  }
  auto str_field = [&](const char* k) -> std::string {
    if (input.is_object() && input.contains(k) && input[k].is_string())
      return input[k].get<std::string>();
    return "";
  };
  const std::string cwd = !ctx.cwd.empty() ? ctx.cwd : str_field("cwd");
  const std::string session_id = str_field("session_id");
  const std::string plans_dir = ctx.plans_dir;
  std::string command =
      expand_vars(hook.command, cwd, plans_dir, session_id, ctx.rules.session_env_vars);

  namespace node = pinta::hosts::node;
  node::EnvPairs env = hook_env(hook, input, ctx, cwd, plans_dir, session_id);

  // Node spawns ("bash", ["-c", cmd]) with cwd. A cwd the child cannot enter fails uv_spawn:
  // ENOENT (and EACCES) as the 'error' event `spawn bash ENOENT` (exp: differential case
  // cwd-missing), anything else (ENOTDIR, ENAMETOOLONG, ELOOP) thrown from spawn() as
  // `spawn ENOTDIR`, which executeHook's catch returns as the error (node v20.20, node_spawn.h).
  if (auto failure = node::cwd_failure("bash", cwd)) {
    r.error = failure->message;
    r.duration_ms = elapsed();
    return r;
  }
  pinta::proc::SpawnRequest req =
      spawn_request(hook, input, ctx, command, cwd, std::move(env));

  std::unique_ptr<pinta::proc::Spawner> owned;
  pinta::proc::Spawner* sp = ctx.spawner;
  if (!sp) {
    owned = pinta::proc::make_spawner();
    sp = owned.get();
  }
  r.raw = sp->run(req);
  r.duration_ms = std::chrono::duration<double, std::milli>(r.raw.closed_after).count();
  r.stdout_text = decode_chunks(r.raw.out, r.raw.out_chunks);
  r.stderr_text = decode_chunks(r.raw.err, r.raw.err_chunks);
  if (!r.raw.started) {
    // uv_spawn failed after all (node_spawn.h: the 'error' event or spawn()'s throw).
    r.error = pinta::hosts::node::spawn_failure("bash", r.raw.spawn_errno ? r.raw.spawn_errno : ENOENT)
                  .message;
    return r;
  }
  // Node's timer is cleared only on 'close' (all stdout/stderr holders gone), not on exit: a hook
  // whose shell exits in time but leaves a background child holding its stdout past the timeout
  // has timed out too (the late SIGTERM reaches nobody: Node's kill() is a no-op after exit).
  const bool late_close =
      r.raw.closed_after >= std::chrono::milliseconds(hook.timeout_ms >= 1 ? hook.timeout_ms : 1);
  if (r.raw.timed_out || late_close) {
    r.error = "Hook timed out after " +
              (hook.timeout_text.empty() ? std::to_string(hook.timeout_ms) : hook.timeout_text) +
              "ms";
    return r;
  }
  int code = r.raw.exit_code.value_or(0);  // signal death: Node exitCode null → `|| 0`
  auto in = ctx.rules.legacy_output_reading
                ? interpret_output_legacy(r.stdout_text, r.stderr_text, r.raw.exit_code)
                : interpret_output(r.stdout_text, r.stderr_text, code);
  r.output = std::move(in.output);
  r.output_format = in.output_format;
  r.output_format_field = ctx.rules.output_format_field;
  r.plain_text = in.plain_text;
  r.exit_code = code;
  r.success = r.raw.exit_code.has_value() && *r.raw.exit_code == 0;
  return r;
}

ojson run_result_json(const HookRunResult& r) {
  ojson j = ojson::object();
  j["success"] = r.success;
  j["exitCode"] = r.exit_code ? ojson(*r.exit_code) : ojson(nullptr);
  j["outputFormat"] = r.output_format.empty() || !r.output_format_field
                          ? ojson(nullptr)
                          : ojson(r.output_format);
  j["output"] = r.output ? *r.output : ojson(nullptr);
  j["error"] = r.error ? ojson(*r.error) : ojson(nullptr);
  return j;
}

}  // namespace pinta::emu::gemini
