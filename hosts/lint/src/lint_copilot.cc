// `hostemu lint` and `hostemu explain` for GitHub Copilot CLI 1.0.102 hook files:
// ~/.copilot/hooks/*.json ($COPILOT_HOME/hooks) and <repo>/.github/hooks/*.json, in either format
// (native camelCase events with flat entries, or Claude-style PascalCase events with
// {"matcher","hooks":[…]} groups; one file may hold both). The event names, formats and matcher
// semantics come from hosts/copilot (the code the emulator runs); this file walks the file to
// position what Copilot drops, ignores or reads differently, and adds the checks a loader has no
// reason to make (timeout bounds, matcher shapes, commands that make the fail-closed gate deny,
// our adapter's --agent per format). Evidence, one per rule: CPM = docs/hosts/copilot-1.0.md
// "Measured on 1.0.102" (the scenario named, run on the real binary); CPDOC = github/docs
// content/copilot/reference/hooks-reference.md.
#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "common.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/copilot/copilot.h"
#include "pinta/hosts/family.h"

namespace pinta::hostlint::detail {
namespace {

namespace cp = pinta::hosts::copilot;

// Every event key Copilot reads, in both spellings (for "did you mean").
std::vector<std::string> all_event_keys() {
  std::vector<std::string> out(cp::events().begin(), cp::events().end());
  for (const auto& a : pinta::hosts::descriptor(pinta::hosts::Family::kCopilot).aliases)
    out.emplace_back(a.alias);
  return out;
}

// Where a file sits: a repository's .github/hooks (read only in a trusted folder) or the user's.
struct Place {
  std::string repo;  // the repository root; "" for the user's hook folder
  bool read = true;  // Copilot loads it (a repository's: trusted or opted in)
  std::string copilot_home;
};

std::string copilot_home_of(const LintOptions& o) {
  std::string ch = env_or(o, "COPILOT_HOME");
  return normalize(!ch.empty() ? ch : home_of(o) + "/.copilot");
}

// CPM src-repo-trusted-config (`trustedFolders` in config.json; settings.json's is not honoured,
// src-repo-trusted-settings), src-repo-env-optin, src-repo-allow-all-env. A listed ancestor counts
// (GitHub's "Configure GitHub Copilot CLI": trust covers the files in and below a folder; not
// measured here).
bool trusted(const std::string& copilot_home, const std::string& repo, const LintOptions& o) {
  if (env_or(o, "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS") == "true" ||
      env_or(o, "COPILOT_ALLOW_ALL") == "true")
    return true;
  auto t = pinta::fs::read_file(copilot_home + "/config.json");
  if (!t) return false;
  auto j = nlohmann::json::parse(*t, nullptr, false, true);
  if (!j.is_object() || !j.contains("trustedFolders") || !j["trustedFolders"].is_array())
    return false;
  for (const auto& f : j["trustedFolders"]) {
    if (!f.is_string()) continue;
    std::string p = normalize(f.get<std::string>());
    if (repo == p || repo.rfind(p + "/", 0) == 0) return true;
  }
  return false;
}

Place place_of(const std::string& path, const LintOptions& o) {
  Place pl;
  pl.copilot_home = copilot_home_of(o);
  const std::string p = normalize(path);
  const std::string mark = "/.github/hooks/";
  auto at = p.rfind(mark);
  if (at != std::string::npos && p.find('/', at + mark.size()) == std::string::npos) {
    pl.repo = p.substr(0, at);
    pl.read = trusted(pl.copilot_home, pl.repo, o);
  }
  return pl;
}

// A handler's command: `bash`, else `command` (CPM c-pre-command-key), else `exec` with its args.
std::string command_of(const ojson& h, std::string* key) {
  for (const char* k : {"bash", "command", "exec"}) {
    auto c = h.find(k);
    if (c != h.end() && c->is_string() && !c->get<std::string>().empty()) {
      if (key) *key = k;
      return c->get<std::string>();
    }
  }
  return "";
}

bool is_adapter(const std::string& command) {
  auto words = command_words(command);
  if (words.empty()) return false;
  auto s = words[0].rfind('/');
  return words[0].substr(s == std::string::npos ? 0 : s + 1) == "pinta-gemini";
}

std::string agent_of(const std::string& command) {
  auto words = command_words(command);
  for (size_t i = 1; i + 1 < words.size(); ++i)
    if (words[i] == "--agent") return words[i + 1];
  return "";
}

void check_timeout(Sink& sink, const std::string& ptr, const ojson& h) {
  for (const char* k : {"timeoutSec", "timeout"}) {
    auto t = h.find(k);
    if (t == h.end()) continue;
    const std::string tp = ptr + "/" + k;
    if (!t->is_number()) {
      sink.add(Severity::kWarning, "unknown-value", tp,
               std::string(k) + " is not a number: Copilot uses its 30 s default",
               "write a number of seconds, e.g. \"timeoutSec\": 10");
    } else if (t->get<double>() <= 0) {
      sink.add(Severity::kWarning, "timeout-unit", tp,
               std::string(k) + " " + t->dump() + " leaves the hook no time to answer",
               "write a number of seconds above 0 (Copilot's default is 30)");
    } else if (t->get<double>() >= 1000) {
      // CPM c-pre-timeout, c-pre-timeout-alias: seconds; a timeout fails open (the call runs).
      sink.add(Severity::kWarning, "timeout-unit", tp,
               std::string(k) + " " + t->dump() + " is seconds in Copilot (" +
                   human_duration_ms(t->get<double>() * 1000) +
                   "), not milliseconds: a hung hook holds the session that long",
               "write " + std::to_string(static_cast<long>(t->get<double>() / 1000)) + " for " +
                   t->dump() + " ms");
    }
    return;  // `timeoutSec` wins over `timeout`
  }
}

// Why a preToolUse command may exit non-zero on a path its author did not mean as a deny, or "":
// errexit (`set -e`, `set -o errexit`, a `-e` shebang) turns any failing step into an exit 1; an
// explicit `exit N` / `sys.exit(N)` / `process.exit(N)` with N other than 0 and 2 (2 is the
// documented deny, CPDOC); a Python hook with no `try:` exits 1 on an uncaught exception (bad
// input, a missing key). Read from the command and the script it runs; comments skipped.
std::string nonzero_exit_path(const std::string& command, const std::string& script) {
  static const std::regex errexit(R"((^|[;&|(\s])set\s+(-[a-zA-Z]*e[a-zA-Z]*\b|-o\s+errexit\b))");
  static const std::regex shebang_e(R"(^#!\S*(\s+\S+)*\s+-[a-zA-Z]*e[a-zA-Z]*\s*$)");
  static const std::regex exit_n(
      R"((^|[;&|(\s{])(exit|sys\.exit\(|process\.exit\(|os\._exit\()\s*([0-9]+))");
  const auto words = command_words(command);
  auto base = [](const std::string& w) {
    const auto slash = w.rfind('/');
    return slash == std::string::npos ? w : w.substr(slash + 1);
  };
  bool python = !words.empty() && base(words[0]).rfind("python", 0) == 0;
  std::string first_line = script.substr(0, script.find('\n'));
  if (first_line.rfind("#!", 0) == 0 && first_line.find("python") != std::string::npos)
    python = true;
  if (first_line.size() < 200 && std::regex_search(first_line, shebang_e))
    return "its script's shebang sets -e";
  bool has_try = false;
  for (const std::string* text : {&command, &script}) {
    std::stringstream ss(*text);
    for (std::string line; std::getline(ss, line);) {
      const auto lead = line.find_first_not_of(" \t");
      if (lead == std::string::npos || line[lead] == '#' || line.size() > 2000) continue;
      if (std::regex_search(line, errexit))
        return "it runs under `set -e`: any failing step exits 1";
      std::smatch m;
      std::string rest = line;
      while (std::regex_search(rest, m, exit_n)) {
        const std::string n = m[3].str();
        if (n != "0" && n != "2") return "it can exit with status " + n;
        rest = m.suffix();
      }
      if (line.find("try:") != std::string::npos) has_try = true;
    }
  }
  if (python && !script.empty() && !has_try)
    return "a Python hook without `try:` exits 1 on any uncaught exception (bad input)";
  return "";
}

void check_handler(Sink& sink, const std::string& ptr, const ojson& h, const std::string& key,
                   cp::Format format, const CommandContext& ctx, std::set<std::string>& seen) {
  if (!h.is_object()) {
    sink.add(Severity::kWarning, "invalid-handler", ptr,
             "an entry that is not an object: Copilot drops it, the others still run",
             "write {\"type\": \"command\", \"bash\": \"...\"}");
    return;
  }
  auto type = h.find("type");
  if (type != h.end() && type->is_string() && *type != "command") {
    // CPM c-http-hook, p-http-hook, c-prompt-type: 1.0.102 never runs these entries (an http
    // entry sent no request to a live loopback server, online or offline; the call ran).
    sink.add(Severity::kWarning, "unsupported-type", ptr + "/type",
             "a \"" + type->get<std::string>() +
                 "\" entry: Copilot CLI 1.0.102 never runs it (no request, no verdict), so it "
                 "guards nothing",
             "use a command entry ({\"type\": \"command\", \"bash\": \"...\"})");
    return;
  }
  std::string ckey;
  const std::string cmd = command_of(h, &ckey);
  if (cmd.empty()) {
    // CPM src-malformed-entry: an entry without a command is dropped.
    sink.add(Severity::kWarning, "invalid-handler", ptr,
             "an entry without a command (bash, command or exec): Copilot drops it",
             format == cp::Format::kNative ? "add \"bash\": \"...\""
                                           : "add \"command\": \"...\"");
    return;
  }
  const std::string cptr = ptr + "/" + ckey;
  const std::string canonical = cp::canonical_event(key);
  if (!seen.insert(canonical + "\n" + cmd).second)
    sink.add(Severity::kWarning, "duplicate-registration", cptr,
             "the same command is registered twice for " + canonical + ": Copilot runs it twice",
             "keep one");
  check_timeout(sink, ptr, h);
  // CPM c-pre-exit1, c-pre-exit126, c-pre-exit127: preToolUse fails closed, so a command that
  // cannot start denies every call it matches.
  const bool gate = canonical == "preToolUse";
  std::string script;
  if (ckey != "exec")
    check_command(sink, cptr, cmd, ctx, false, "",
                  gate ? "Copilot's preToolUse fails closed: a hook that cannot start denies "
                         "every tool call it matches"
                       : "",
                  &script);
  // CPM c-pre-exit1, c-pre-exit1-allow, c-pre-exit3: any exit other than 0 denies the call, even
  // with an allow on stdout (fail-closed since 1.0.57, CPLOG); exit 2 is the deliberate deny.
  if (gate && !is_adapter(cmd)) {
    const std::string why = nonzero_exit_path(cmd, script);
    if (!why.empty())
      sink.add(Severity::kWarning, "fail-closed-exit", cptr,
               "this preToolUse hook may exit non-zero (" + why +
                   "): Copilot then denies the tool call, even when the hook meant to allow it",
               "end every path with exit 0 (catch failures; print {\"permissionDecision\": "
               "\"deny\", ...} or exit 2 to block on purpose)");
  }
  if (is_adapter(cmd)) {
    const std::string agent = agent_of(cmd);
    const std::string want = cp::agent_label(format);
    // Another family's label whose deny is a permissionDecision (Claude Code's hookSpecificOutput
    // form): Copilot reads it under a PascalCase event (CPM p-pre-hso-deny, p-pre-toplevel-deny).
    const auto fam = pinta::hosts::family_for_label(agent);
    const bool foreign_decision =
        fam && *fam != pinta::hosts::Family::kCopilot &&
        pinta::hosts::descriptor(*fam).forms.deny.value.find(
            "\"permissionDecision\":\"deny\"") != std::string_view::npos;
    if (foreign_decision && format == cp::Format::kClaudeStyle) {
      // CPM p-pre-hso-deny: hookSpecificOutput denies under a PascalCase event; the payload is
      // Claude's shape with Copilot's argument names (p-edit-tools).
      sink.add(Severity::kWarning, "adapter-agent", cptr,
               "pinta-gemini --agent " + agent + " under " + key +
                   ": its deny blocks here, but its spans name " +
                   std::string(pinta::hosts::descriptor(*fam).display_name) + ", not Copilot",
               "write --agent " + want + " (pinta-gemini install --host copilot writes a native "
               "file with --agent copilot)");
    } else {
      check_adapter(sink, cptr, pinta::hosts::Family::kCopilot, key, cmd);
      if ((agent == "copilot" || agent == "copilot-claude") && agent != want)
        sink.add(Severity::kError, "adapter-agent", cptr,
                 "pinta-gemini --agent " + agent + " reads the " +
                     (agent == "copilot" ? "native" : "Claude-style") + " payload, but " + key +
                     " (" + (format == cp::Format::kNative ? "camelCase" : "PascalCase") +
                     ") sends the " +
                     (format == cp::Format::kNative ? "native" : "Claude-style") +
                     " one: the guard does not see the tool call",
                 "write --agent " + want);
    }
  }
  if (gate && format == cp::Format::kNative && !is_adapter(cmd) &&
      cmd.find("hookSpecificOutput") != std::string::npos) {
    // CPM c-pre-hso-deny, c-pre-hso-deny-extra-key: ignored under a camelCase event, the call runs.
    sink.add(Severity::kWarning, "unknown-value", cptr,
             "this hook answers with hookSpecificOutput, which Copilot ignores under a camelCase "
             "event: its deny does not block, the call runs",
             "print the top-level {\"permissionDecision\": \"deny\", \"permissionDecisionReason\": "
             "\"...\"}, or register it under \"PreToolUse\" (the Claude-style format)");
  }
}

void check_matcher(Sink& sink, const std::string& ptr, const ojson& g, cp::Format format,
                   const std::string& key) {
  auto m = g.find("matcher");
  if (m == g.end()) return;
  const std::string mp = ptr + "/matcher";
  if (!m->is_string()) {
    sink.add(Severity::kWarning, "matcher-invalid", mp, "matcher is not a string",
             "write a tool name or a regular expression");
    return;
  }
  const std::string s = m->get<std::string>();
  if (format == cp::Format::kClaudeStyle && s.empty()) {
    // CPM p-matcher-empty: "matcher cannot be empty" drops the event's whole list.
    sink.add(Severity::kError, "matcher-invalid", mp,
             "an empty matcher makes Copilot drop every hook of " + key + " in this file",
             "write \"*\" for every tool, or leave matcher out");
    return;
  }
  if (format == cp::Format::kNative && (s.empty() || s == "*")) {
    // CPM c-matcher-star, c-matcher-empty: a native matcher is an anchored regex.
    sink.add(Severity::kWarning, "matcher-never-matches", mp,
             "matcher \"" + s + "\" matches no tool in Copilot's native format (an anchored "
             "regular expression on the tool name): this hook never runs",
             "leave matcher out to match every tool, or write \".*\"");
    return;
  }
  switch (cp::matcher_kind(format, s)) {
    case cp::MatcherKind::kInvalid:
      sink.add(Severity::kWarning, "matcher-invalid", mp,
               "matcher \"" + s + "\" is not a valid regular expression: Copilot skips this entry",
               "fix the pattern");
      return;
    default:
      break;
  }
  if (format == cp::Format::kNative) {
    // CPM c-matcher-Bash: native payloads carry runtime names (`bash`), so a Claude name never
    // matches.
    for (const char* claude : {"Bash", "Read", "Write", "Edit"})
      if (s == claude) {
        sink.add(Severity::kWarning, "matcher-case", mp,
                 "\"" + s + "\" is Claude's tool name; a camelCase event matches Copilot's own "
                 "names (bash, view, create, edit): this hook never runs",
                 "write the runtime name, e.g. \"bash\", or register under the PascalCase event");
        return;
      }
  }
}

void lint_json(const std::string& path, const std::string& text, const LintOptions& o,
               Sink& sink) {
  auto root = ojson::parse(text, nullptr, false);
  if (root.is_discarded()) {
    Position pos{1, 1};
    std::string detail = "invalid JSON";
    syntax_error(text, false, pos, detail);
    // CPM src-broken-file: skipped without a notice, the other files still run.
    sink.out.push_back({path, pos, Severity::kError, "json-syntax",
                        "Copilot skips this hook file without a notice: " + detail,
                        "fix the JSON (no comments, no trailing commas)"});
    return;
  }
  if (!root.is_object()) {
    sink.add(Severity::kError, "file-rejected", "",
             "the file is not a JSON object: Copilot skips it without a notice",
             "write {\"version\": 1, \"hooks\": {...}}");
    return;
  }
  if (root.contains("version") && root["version"] != 1) {
    // CPM src-version-2: the whole file is dropped silently.
    sink.add(Severity::kError, "file-rejected", "/version",
             "\"version\": " + root["version"].dump() +
                 " makes Copilot drop this whole file without a notice",
             "write \"version\": 1");
    return;
  }
  const Place place = place_of(path, o);
  if (!place.read)
    sink.add(Severity::kWarning, "file-not-read", "",
             "Copilot reads " + place.repo + "/.github/hooks/ only in a trusted folder, and " +
                 place.copilot_home + "/config.json does not trust it: none of these hooks run "
                 "(no notice)",
             "trust the folder when Copilot asks, or add it to trustedFolders in " +
                 place.copilot_home + "/config.json");
  if (!root.contains("hooks")) return;
  const ojson& hooks = root["hooks"];
  if (!hooks.is_object()) {
    sink.add(Severity::kError, "file-rejected", "/hooks",
             "\"hooks\" is not an object: Copilot loads nothing from this file",
             "write {\"hooks\": {\"preToolUse\": [...]}}");
    return;
  }
  CommandContext ctx;
  ctx.home = home_of(o);
  ctx.cwd = !place.repo.empty()       ? place.repo
            : !o.workspace.empty() ? normalize(o.workspace)
                                   : ctx.home;
  ctx.path_env = env_or(o, "PATH");
  const auto names = all_event_keys();
  std::set<std::string> seen;
  for (auto ev = hooks.begin(); ev != hooks.end(); ++ev) {
    const std::string key = ev.key();
    const std::string eptr = "/hooks/" + pointer_token(key);
    auto format = cp::event_format(key);
    if (!format) {
      // CPM src-unknown-event: ignored, the file's other hooks run. Each format has its own
      // spelling: `stop` or `UserPromptSubmitted` are no event.
      sink.add_at_key(Severity::kWarning, "unknown-event", eptr,
                      "Copilot " + std::string(cp::kVersion) + " has no event '" + key +
                          "' (camelCase selects the native format, PascalCase the Claude-style "
                          "one): the hooks under it never run",
                      "use an event name" + did_you_mean(key, names));
      continue;
    }
    if (!ev.value().is_array()) {
      sink.add(Severity::kError, "event-shape", eptr,
               "\"" + key + "\" is not a list: Copilot runs none of its hooks",
               "write \"" + key + "\": [{...}]");
      continue;
    }
    const ojson& list = ev.value();
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string gptr = eptr + "/" + std::to_string(i);
      const ojson& g = list[i];
      if (g.is_object() && g.contains("hooks") && g["hooks"].is_array()) {
        // A group (Claude-style, or nested inside a native key: CPM c-matcher-nested).
        check_matcher(sink, gptr, g, *format, key);
        for (size_t j = 0; j < g["hooks"].size(); ++j)
          check_handler(sink, gptr + "/hooks/" + std::to_string(j), g["hooks"][j], key, *format,
                        ctx, seen);
      } else {
        if (g.is_object()) check_matcher(sink, gptr, g, *format, key);
        check_handler(sink, gptr, g, key, *format, ctx, seen);
      }
    }
  }
}

// What a failure of a hook of `event` does (CPM, the preToolUse replies and "Running a hook").
std::string on_failure_of(const std::string& canonical) {
  if (canonical == "preToolUse")
    return "fail-closed: any non-zero exit, a crash or a signal denies the call (exit 2: `hook "
           "exited with code 2`); only a timeout lets it run";
  return "a failure is reported at most as a notice; the session goes on";
}

}  // namespace

// ~/.copilot/hooks/*.json and <repo>/.github/hooks/*.json (CPDOC "Hooks locations"; CPM
// c-baseline, src-repo-trusted-config). Only the folder's own files: subfolders are not read.
const PathDetector kCopilotDetector(Host::kCopilot, [](const std::string& p) {
  if (!ends_with(p, ".json")) return false;
  for (const char* mark : {"/.copilot/hooks/", "/.github/hooks/"}) {
    auto at = p.rfind(mark);
    if (at != std::string::npos && p.find('/', at + std::string(mark).size()) == std::string::npos)
      return true;
  }
  return false;
});

Status lint_copilot(const std::string& path, const std::string& text, const LintOptions& o,
                    Sink& sink) {
  lint_json(path, text, o, sink);
  return {};
}

Result<std::vector<ExplainSection>> explain_copilot(const ExplainRequest& rq,
                                                    const LintOptions& options, Locator& loc) {
  const auto names = all_event_keys();
  if (!cp::is_event(rq.event))
    return bad_request("unknown Copilot event '" + rq.event + "'" + did_you_mean(rq.event, names));
  const std::string canonical = cp::canonical_event(rq.event);
  const bool tool_event =
      canonical == "preToolUse" || canonical == "postToolUse" || canonical == "postToolUseFailure";
  if (!rq.tool.empty() && !tool_event)
    return bad_request("--tool names the tool a matcher is tested on; Copilot's " + rq.event +
                       " has no matcher");
  LintOptions o = options;
  if (o.home.empty()) o.home = rq.home;
  cp::Sources s;
  s.copilot_home = copilot_home_of(o);
  ExplainSection sec;
  sec.host = "copilot " + std::string(cp::kVersion);
  if (!rq.workspace.empty()) {
    s.repo = normalize(rq.workspace);
    s.repo_trusted = trusted(s.copilot_home, s.repo, o);
    if (!s.repo_trusted)
      sec.notes.push_back("the folder " + s.repo + " is not trusted in " + s.copilot_home +
                          "/config.json: its .github/hooks, .github/copilot/settings and "
                          ".claude/settings hooks are not read");
  } else {
    sec.notes.push_back("no --workspace: the repository's hooks are not read");
  }
  auto loaded = cp::load_hooks(s);
  if (!loaded) {
    sec.notes.push_back("Copilot's hook loader: " + loaded.error().message);
    return std::vector<ExplainSection>{sec};
  }
  for (const auto& w : loaded->warnings) sec.notes.push_back(w);
  if (loaded->disabled) sec.notes.push_back("disableAllHooks: only policy hooks run");
  // CPM c-pre-allow-then-deny, src-order: one after another; after a preToolUse deny the rest of
  // the list does not run.
  sec.notes.push_back("listed hooks run one after another in this order" +
                      std::string(canonical == "preToolUse"
                                      ? "; after a deny the later ones do not run"
                                      : ""));
  if (tool_event && !rq.tool.empty())
    sec.notes.push_back("native matchers are tested on '" + rq.tool + "', Claude-style ones on '" +
                        cp::claude_tool_name(rq.tool) + "'");
  auto planned = cp::plan(*loaded, canonical, rq.tool);
  std::set<std::string> ran;
  int order = 0;
  for (const auto& h : planned) {
    ExplainedHook e;
    e.order = ++order;
    e.layer = h.source;
    e.file = h.file;
    e.pos = loc.at(h.file, h.pointer);
    e.command = !h.bash.empty() ? h.bash : !h.command.empty() ? h.command : h.exec;
    e.name = cp::agent_label(h.format);  // the payload shape it gets
    e.matcher = h.has_matcher ? h.matcher : "";
    e.timeout = std::to_string(h.timeout_sec) + " s";
    e.on_failure = on_failure_of(canonical);
    sec.hooks.push_back(e);
    ran.insert(h.file + "#" + h.pointer);
  }
  for (const auto& h : loaded->handlers) {
    if (h.canonical != canonical || ran.count(h.file + "#" + h.pointer)) continue;
    sec.dropped.push_back(loc.where(h.file, h.pointer) + "matcher \"" + h.matcher +
                          "\" does not match '" + rq.tool + "'");
  }
  return std::vector<ExplainSection>{sec};
}

}  // namespace pinta::hostlint::detail
