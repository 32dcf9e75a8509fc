// pinta-gemini install / uninstall: plans and applies the host files of seed SPEC §3.3.
#include "pinta/admin/install.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pinta/admin/claude_code.h"
#include "pinta/admin/json_edit.h"
#include "pinta/common/version.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/antigravity/antigravity.h"

namespace pinta::admin {
namespace {

using ojson = nlohmann::ordered_json;

bool is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Existing file → its text; absent → nullopt; unreadable → error.
Result<std::optional<std::string>> read_optional(const std::string& path) {
  if (!fs::exists(path)) return std::optional<std::string>{};
  auto r = fs::read_file(path);
  if (!r) return r.error();
  return std::optional<std::string>{std::move(r.value())};
}

// Strict JSON object (agy rejects comments and trailing commas, reference antigravity §2.3;
// Gemini's extension loader uses plain JSON.parse, gemini reference §1.6).
Result<ojson> parse_object(const std::string& path, const std::string& text) {
  auto scanned = jsonedit::Doc::scan(text);
  if (!scanned)
    return make_error(ErrorCode::kParse, path + ":" + scanned.error().message +
                                             " (not valid JSON); fix or move it, then re-run");
  ojson j = ojson::parse(text, nullptr, false);
  if (j.is_discarded())
    return make_error(ErrorCode::kParse, path + " is not valid JSON; fix or move it, then re-run");
  if (!j.is_object())
    return make_error(ErrorCode::kParse,
                      path + " is not a JSON object; fix or move it, then re-run");
  return j;
}

std::string dump(const ojson& j) { return j.dump(2) + "\n"; }

// `text` with the root object's member `key` set to `value`, spliced in place (json_edit.h): the
// rest of the user's bytes stay as they were.
Result<std::string> set_root_member(const std::string& text, const std::string& key,
                                    const ojson& value) {
  auto d = jsonedit::Doc::scan(text);
  if (!d) return d.error();
  if (d->root().kind != jsonedit::Node::Kind::kObject)
    return make_error(ErrorCode::kParse, "not a JSON object");
  return d->set_member(d->root(), key, value);
}

// `text` without the root object's members named `key` (every duplicate).
Result<std::string> remove_root_member(std::string text, const std::string& key) {
  for (;;) {
    auto d = jsonedit::Doc::scan(text);
    if (!d) return d.error();
    if (d->root().kind != jsonedit::Node::Kind::kObject) return text;
    auto i = d->member_index(d->root(), key);
    if (!i) return text;
    text = d->remove_member(d->root(), *i);
  }
}


bool shell_safe(const std::string& s) {
  if (s.empty()) return false;
  for (unsigned char c : s) {
    if (std::isalnum(c)) continue;
    if (std::strchr("/._-+@%:,=", c) == nullptr) return false;
  }
  return true;
}

// Where the install state lives. Gemini CLI and Antigravity keep their files under ~/.gemini, so
// ours goes beside them; for any other host nothing may appear under ~/.gemini (a deel or Claude
// Code user may have no Gemini at all): the XDG state directory instead.
std::string data_dir(const InstallOptions& o) {
  if (o.host == Host::kGemini || o.host == Host::kAntigravity) {
    const char* d = std::getenv("GEMINI_PLUGIN_DATA");  // Gemini CLI's per-extension data dir
    if (d && *d) return d;
    return fs::join(o.home, ".gemini/pinta-gemini-data");
  }
  const char* x = std::getenv("XDG_STATE_HOME");
  if (x && *x == '/') return fs::join(x, "pinta-gemini");
  return fs::join(o.home, ".local/state/pinta-gemini");
}

// FNV-1a 64, hex: recognises the exact text install wrote (stable across runs and builds).
std::string text_hash(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string state_path(const InstallOptions& o) {
  std::string name = "install-" + std::string(hosts::descriptor(o.host).name);
  if (o.host != Host::kGemini && !o.workspace.empty()) {
    // One state file per workspace: the hash keeps the name short and file-system safe.
    name += "-ws-" + std::to_string(std::hash<std::string>{}(o.workspace));
  }
  return fs::join(data_dir(o), name + ".json");
}

// Directories that do not exist yet on the way to `dir`, shallowest first.
void missing_dirs(const std::string& dir, std::vector<std::string>& out) {
  std::vector<std::string> chain;
  std::string d = dir;
  while (!d.empty() && d != "/" && !is_dir(d)) {
    chain.push_back(d);
    d = fs::dirname(d);
  }
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    if (std::find(out.begin(), out.end(), *it) == out.end()) out.push_back(*it);
}

void add_change(Plan& plan, std::string path, std::optional<std::string> before,
                std::optional<std::string> after, bool backup) {
  if (before == after) return;
  FileChange c;
  c.path = std::move(path);
  c.before = std::move(before);
  c.after = std::move(after);
  c.backup = backup && c.before.has_value();
  plan.changes.push_back(std::move(c));
}

Status check_options(const InstallOptions& o) {
  if (o.home.empty())
    return make_error(ErrorCode::kInvalidArgument, "no home directory (set HOME)");
  if (o.adapter_path.empty() || o.adapter_path[0] != '/')
    return make_error(ErrorCode::kInvalidArgument, "adapter path must be absolute");
  if (o.host == Host::kGemini && !o.workspace.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "--workspace applies to --host antigravity or deel only");
  return {};
}

// ---- Gemini ------------------------------------------------------------------------------------

ojson gemini_hooks(const InstallOptions& o) {
  ojson hooks = ojson::object();
  for (const auto& e : installed_events(Host::kGemini)) {
    ojson handler = {{"name", kHookName},
                     {"type", "command"},
                     {"command", gemini_command(o.adapter_path, e)},
                     {"timeout", hosts::descriptor(hosts::Family::kGemini).install_timeout_ms}};  // in ms
    ojson def = ojson::object();
    if (e == "BeforeTool" || e == "AfterTool") def["matcher"] = "";
    def["hooks"] = ojson::array({handler});
    hooks[e] = ojson::array({def});
  }
  return ojson{{"hooks", hooks}};
}

// Settings checks that do not change anything: hooksConfig (gemini reference §1.3).
void gemini_settings_warnings(const InstallOptions& o, Plan& plan) {
  std::string settings = fs::join(o.gemini_home, ".gemini/settings.json");
  auto text = fs::read_file(settings);
  if (!text) return;
  // Gemini strips comments before JSON.parse (§1.2); nlohmann's ignore_comments matches that.
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false, true);
  if (j.is_discarded()) {
    plan.warnings.push_back(settings +
                            " is not valid JSON: Gemini CLI will refuse to start (exit 52)");
    return;
  }
  if (!j.is_object()) return;
  auto hc = j.find("hooksConfig");
  if (hc != j.end() && hc->is_object()) {
    auto en = hc->find("enabled");
    if (en != hc->end() && en->is_boolean() && !en->get<bool>())
      plan.warnings.push_back(settings +
                              ": hooksConfig.enabled is false, no hook will run; set it to true");
    auto dis = hc->find("disabled");
    if (dis != hc->end() && dis->is_array())
      for (const auto& d : *dis)
        if (d.is_string() && d.get<std::string>() == kHookName)
          plan.warnings.push_back(settings +
                                  ": hooksConfig.disabled lists \"pinta-gemini\"; remove it");
  }
  auto sec = j.find("security");
  if (sec != j.end() && sec->is_object() && sec->contains("allowedExtensions"))
    plan.warnings.push_back(
        settings + ": security.allowedExtensions is set; make sure it allows pinta-gemini");
}

Result<Plan> plan_gemini_install(const InstallOptions& o) {
  Plan plan;
  std::string dir = gemini_extension_dir(o);
  std::string manifest_path = fs::join(dir, "gemini-extension.json");
  std::string hooks_path = fs::join(dir, "hooks/hooks.json");
  ojson manifest = {{"name", kHookName},
                   {"version", o.version.empty() ? std::string(pinta::version()) : o.version}};
  for (const auto& [path, value] :
       {std::pair{manifest_path, manifest}, std::pair{hooks_path, gemini_hooks(o)}}) {
    auto before = read_optional(path);
    if (!before) return before.error();
    if (before->has_value()) {
      auto parsed = parse_object(path, **before);
      if (!parsed) return parsed.error();
      if (*parsed == value) continue;  // same content, maybe other formatting: leave it
    }
    add_change(plan, path, *before, dump(value), false);
  }
  // Enablement (bundle extension-manager.ts ExtensionEnablementManager.isEnabled, 0.61.0): no
  // entry → enabled; otherwise the last matching override wins and "!" disables. Our entry with
  // a disabling rule is removed, which enables the extension everywhere.
  std::string enablement = fs::join(o.gemini_home, ".gemini/extensions/extension-enablement.json");
  auto en_text = read_optional(enablement);
  if (!en_text) return en_text.error();
  if (en_text->has_value()) {
    auto en = parse_object(enablement, **en_text);
    if (!en) return en.error();
    auto it = en->find(kHookName);
    if (it != en->end()) {
      bool disables = false;
      if (it->is_object() && it->contains("overrides") && (*it)["overrides"].is_array())
        for (const auto& r : (*it)["overrides"])
          if (r.is_string() && !r.get<std::string>().empty() && r.get<std::string>()[0] == '!')
            disables = true;
      if (disables) {
        auto after = remove_root_member(**en_text, kHookName);
        if (!after) return after.error();
        add_change(plan, enablement, *en_text, *after, true);
        plan.warnings.push_back(enablement + ": removed a rule that disabled pinta-gemini");
      }
    }
  }
  gemini_settings_warnings(o, plan);
  return plan;
}

// ---- Antigravity -------------------------------------------------------------------------------

ojson antigravity_spec(const InstallOptions& o, const std::vector<std::string>& events,
                       Plan* plan) {
  ojson spec = ojson::object();
  bool warned = false;
  for (const auto& e : events) {
    bool space = false;
    ojson handler = {{"type", "command"},
                     {"command", antigravity_command(o.adapter_path, e, &space)},
                     // seconds in the file (AGY§2.3)
                     {"timeout",
                      hosts::descriptor(hosts::Family::kAntigravity).install_timeout_ms / 1000}};
    if (space && !warned && plan) {
      plan->warnings.push_back(
          "adapter path contains whitespace or shell characters: agy builds "
          "that split commands on whitespace cannot run it; install "
          "pinta-gemini under a plain path");
      warned = true;
    }
    // Tool events grouped with matcher "", lifecycle events flat: a grouped lifecycle event
    // invalidates the whole file (antigravity reference §2.3, herdr PR #2087).
    if (e == "PreToolUse" || e == "PostToolUse")
      spec[e] = ojson::array({ojson{{"matcher", ""}, {"hooks", ojson::array({handler})}}});
    else
      spec[e] = ojson::array({handler});
  }
  return spec;
}

// Names of profiles under which `text` is rejected as a whole.
std::vector<std::string> rejecting_profiles(const std::vector<hosts::agy::Profile>& profiles,
                                            const std::string& text, const std::string& path) {
  std::vector<std::string> out;
  for (const auto& p : profiles) {
    auto r = hosts::agy::parse_hooks_json(text, p, path);
    if (!r) out.push_back(p.name);
  }
  return out;
}

std::string join_names(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& n : v) s += (s.empty() ? "" : ", ") + n;
  return s;
}

Result<Plan> plan_antigravity_install(const InstallOptions& o) {
  Plan plan;
  std::string path = antigravity_hooks_path(o);
  auto before = read_optional(path);
  if (!before) return before.error();
  ojson root = ojson::object();
  if (before->has_value()) {
    auto parsed = parse_object(path, **before);
    if (!parsed) return parsed.error();
    root = std::move(*parsed);
  }
  auto profiles = hosts::agy::load_profiles(o.profile_dir.empty() ? hosts::agy::default_profile_dir()
                                                                : o.profile_dir);
  if (!profiles)
    return make_error(ErrorCode::kNotFound,
                      "cannot load Antigravity profiles: " + profiles.error().message);
  std::vector<std::string> already_broken;
  if (before->has_value()) {
    ojson without = root;
    without.erase(kHookName);
    already_broken = rejecting_profiles(*profiles, dump(without), path);
    if (!already_broken.empty())
      plan.warnings.push_back(path + " (without pinta-gemini) is already rejected by " +
                              join_names(already_broken) + "; every hook in it is dropped there");
  }
  // SessionStart only where every profile loads it (it is dropped at parse on 1.0.5, §8 table).
  std::vector<std::string> events = installed_events(Host::kAntigravity);
  const std::string original = before->has_value() ? **before : std::string(jsonedit::kFreshFile);
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto merged = set_root_member(original, kHookName, antigravity_spec(o, events, nullptr));
    if (!merged) return make_error(ErrorCode::kParse, path + ":" + merged.error().message);
    std::vector<std::string> bad;
    for (const auto& n : rejecting_profiles(*profiles, *merged, path))
      if (std::find(already_broken.begin(), already_broken.end(), n) == already_broken.end())
        bad.push_back(n);
    if (bad.empty()) break;
    if (attempt == 0) {
      events.erase(std::remove(events.begin(), events.end(), "SessionStart"), events.end());
      continue;
    }
    return make_error(ErrorCode::kProtocol, "the merged " + path + " would be rejected by " +
                                                join_names(bad) + "; nothing written");
  }
  ojson spec = antigravity_spec(o, events, &plan);
  auto it = root.find(kHookName);
  if (it != root.end() && *it == spec) return plan;  // already installed: change nothing
  auto after = set_root_member(original, kHookName, spec);
  if (!after) return make_error(ErrorCode::kParse, path + ":" + after.error().message);
  add_change(plan, path, *before, *after, true);
  return plan;
}

// ---- State (what install created, so uninstall can take exactly that back) ---------------------

struct State {
  std::vector<std::string> created_dirs;  // shallowest first
  bool created_file = false;              // the host file did not exist before
  std::string file_hash;                  // text_hash of the host file as install left it
};

Result<std::optional<State>> read_state(const InstallOptions& o) {
  auto text = read_optional(state_path(o));
  if (!text) return text.error();
  if (!text->has_value()) return std::optional<State>{};
  nlohmann::json j = nlohmann::json::parse(**text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return make_error(ErrorCode::kParse, state_path(o) + " is not valid JSON");
  State s;
  if (j.contains("createdDirs") && j["createdDirs"].is_array())
    for (const auto& d : j["createdDirs"])
      if (d.is_string()) s.created_dirs.push_back(d.get<std::string>());
  s.created_file = j.value("createdFile", false);
  if (j.contains("fileHash") && j["fileHash"].is_string()) s.file_hash = j["fileHash"];
  return std::optional<State>{s};
}

// `host_file`: the user's file install edits (empty for Gemini, whose files are all ours); its
// text after the plan is recorded so uninstall can tell whether anything else changed since.
void add_state(const InstallOptions& o, Plan& plan, const std::vector<std::string>& target_dirs,
               bool created_file, const std::string& host_file = "") {
  auto old = read_state(o);
  State s;
  if (old && old->has_value()) s = **old;  // a re-install keeps what the first one created
  std::vector<std::string> missing;
  for (const auto& d : target_dirs) missing_dirs(d, missing);
  missing_dirs(data_dir(o), missing);
  for (const auto& d : missing)
    if (std::find(s.created_dirs.begin(), s.created_dirs.end(), d) == s.created_dirs.end())
      s.created_dirs.push_back(d);
  s.created_file = s.created_file || created_file;
  if (!host_file.empty()) {
    for (const auto& c : plan.changes)
      if (c.path == host_file && c.after) s.file_hash = text_hash(*c.after);
    if (s.file_hash.empty()) {  // unchanged by this plan: as it is now
      auto now = fs::read_file(host_file);
      if (now) s.file_hash = text_hash(*now);
    }
  }
  nlohmann::json j = {{"createdDirs", s.created_dirs}, {"createdFile", s.created_file}};
  if (!s.file_hash.empty()) j["fileHash"] = s.file_hash;
  auto before = read_optional(state_path(o));
  std::optional<std::string> b = before ? *before : std::nullopt;
  if (b) {
    nlohmann::json bj = nlohmann::json::parse(*b, nullptr, false);
    if (!bj.is_discarded() && bj == j) return;
  }
  add_change(plan, state_path(o), b, j.dump(2) + "\n", false);
  plan.changes.back().mode = 0600;
}

// The uninstall change of a user's file: `after` is `before` with our entries spliced out. When the
// file is still exactly what install left (nothing else changed it), the backup holds the user's
// original bytes and is put back instead, so install + uninstall is the identity even where a
// splice cannot know the original layout (an object emptied to `{}`). The backup goes only when the
// file ends up byte-identical to it; a file install created goes when nothing but ours was in it.
void add_uninstall_change(Plan& plan, const State& s, const std::string& path,
                          const std::string& before, std::optional<std::string> after,
                          bool only_ours_left) {
  auto bak = fs::read_file(path + ".pinta-bak");
  bool restore = bak && after && !s.file_hash.empty() && s.file_hash == text_hash(before);
  if (restore) {  // and only a backup that holds what the splice gives, read as values
    ojson b = ojson::parse(*bak, nullptr, false), a = ojson::parse(*after, nullptr, false);
    restore = !b.is_discarded() && b == a;
  }
  if (restore) after = *bak;
  else if (s.created_file && only_ours_left) after = std::nullopt;
  add_change(plan, path, before, after, false);
  if (!plan.changes.empty() && plan.changes.back().path == path && bak && after && *after == *bak)
    plan.changes.back().remove_backup = true;
}

// ---- deel-local-cli -----------------------------------------------------------------------------
// The hooks file is read by seed 004 hooks.js 훅펴기 (l.299-329): the events live in
// `hooks`, else `훅`, else the root itself (l.302, JavaScript `??`: null counts as absent); an
// array there is the flat shape (l.304-311), an object the Claude shape (l.314-327), where an
// event's value that is not an array is one group and a group without a `hooks` array is itself
// the handler (l.318-320). Our handlers carry `"name": "pinta-gemini"` (한훅 reads name, l.289),
// which is how a re-install or uninstall finds them among the user's own.
// Edits are spliced into the user's text (json_edit.h), one at a time, rescanning in between.

bool is_ours(const ojson& handler) {
  if (!handler.is_object()) return false;
  auto it = handler.find("name");
  return it != handler.end() && it->is_string() && *it == kHookName;
}

using jsonedit::Doc;
using jsonedit::Node;

// Where the event map (or flat list) lives; nullptr when the file holds something we cannot merge
// into (`hooks` a string or a number).
const Node* deel_container(const Doc& d) {
  const Node& root = d.root();
  if (root.kind == Node::Kind::kArray) return &root;
  if (root.kind != Node::Kind::kObject) return nullptr;
  for (const char* key : {"hooks", "훅"}) {
    const Node* v = d.member(root, key);
    if (v && d.text().compare(v->begin, 4, "null") != 0)
      return v->kind == Node::Kind::kScalar ? nullptr : v;
  }
  return &root;  // the root itself is the event map (l.302)
}

// One of our handlers taken out of group list `groups`, or nullopt when it holds none.
// `whole` is set when the list is an event's bare group (an object, l.317): then the event's
// value becomes [] when the group goes.
std::optional<std::string> remove_one_in_groups(const Doc& d, const Node& groups) {
  if (groups.kind == Node::Kind::kArray) {
    for (size_t i = 0; i < groups.elements.size(); ++i) {
      const Node& g = d.node(groups.elements[i]);
      if (is_ours(d.value(g))) return d.remove_element(groups, i);
      if (g.kind != Node::Kind::kObject) continue;
      const Node* inner = d.member(g, "hooks");
      if (!inner || inner->kind != Node::Kind::kArray) continue;
      for (size_t j = 0; j < inner->elements.size(); ++j)
        if (is_ours(d.value(d.node(inner->elements[j])))) {
          // A group left with no handler goes with it.
          return inner->elements.size() == 1 ? d.remove_element(groups, i)
                                              : d.remove_element(*inner, j);
        }
    }
    return std::nullopt;
  }
  if (groups.kind == Node::Kind::kObject) {  // one bare group
    ojson g = d.value(groups);
    if (is_ours(g)) return d.replace(groups, ojson::array());
    const Node* inner = d.member(groups, "hooks");
    if (!inner || inner->kind != Node::Kind::kArray) return std::nullopt;
    for (size_t j = 0; j < inner->elements.size(); ++j)
      if (is_ours(d.value(d.node(inner->elements[j]))))
        return inner->elements.size() == 1 ? d.replace(groups, ojson::array())
                                            : d.remove_element(*inner, j);
  }
  return std::nullopt;
}

// `text` without our handlers. `emptied` gets the events whose list we emptied (install keeps
// those keys so a re-install rewrites them in place; uninstall drops them).
Result<std::string> remove_deel_handlers(std::string text, std::vector<std::string>* emptied) {
  for (;;) {
    auto d = Doc::scan(text);
    if (!d) return d.error();
    const Node* c = deel_container(*d);
    if (!c) return text;
    std::optional<std::string> next;
    if (c->kind == Node::Kind::kArray) {
      next = remove_one_in_groups(*d, *c);
    } else {
      for (const auto& m : c->members) {
        next = remove_one_in_groups(*d, d->node(m.value));
        if (next) {
          if (emptied && std::find(emptied->begin(), emptied->end(), m.key) == emptied->end())
            emptied->push_back(m.key);
          break;
        }
      }
    }
    if (!next) return text;
    text = std::move(*next);
  }
}

// 한훅 l.279-284: seconds, default 15, capped at 120 (the registry holds the value).
constexpr int kDeelTimeoutSeconds = hosts::descriptor(hosts::Family::kDeel).install_timeout_ms / 1000;

ojson deel_handler(const InstallOptions& o, const std::string& event) {
  // onError "pass": the host blocks on a broken hook at 도구전/말전 unless told to pass (l.186-194,
  // l.285-286); a missing or broken pinta-gemini must never block the user's agent (fail-open).
  return {{"type", "command"},
          {"command", deel_command(o.adapter_path, event)},
          {"timeout", kDeelTimeoutSeconds},
          {"onError", "pass"},
          {"name", kHookName}};
}

Result<std::string> add_deel_handlers(std::string text, const InstallOptions& o) {
  {
    auto d = Doc::scan(text);
    if (!d) return d.error();
    if (d->root().kind == Node::Kind::kObject && d->root().members.empty())
      text = d->set_member(d->root(), "hooks", ojson::object());  // an empty file: the usual map
  }
  for (const auto& e : installed_events(Host::kDeel)) {
    auto d = Doc::scan(text);
    if (!d) return d.error();
    const Node* c = deel_container(*d);
    if (!c) return make_error(ErrorCode::kParse, "\"hooks\" is neither an object nor an array");
    ojson h = deel_handler(o, e);
    if (c->kind == Node::Kind::kArray) {  // flat shape: event + matcher beside the handler (l.304-311)
      ojson flat = {{"event", e}, {"matcher", "*"}};
      for (auto it = h.begin(); it != h.end(); ++it) flat[it.key()] = it.value();
      text = d->append_element(*c, flat);
      continue;
    }
    ojson group = {{"matcher", "*"}, {"hooks", ojson::array({h})}};
    const Node* ev = d->member(*c, e);
    if (!ev || d->text().compare(ev->begin, 4, "null") == 0)
      text = d->set_member(*c, e, ojson::array({group}));
    else if (ev->kind == Node::Kind::kArray)
      text = d->append_element(*ev, group);
    else  // one group written bare (l.317)
      text = d->replace(*ev, ojson::array({d->value(*ev), group}));
  }
  return text;
}

Result<Plan> plan_deel_install(const InstallOptions& o) {
  Plan plan;
  std::string path = deel_hooks_path(o);
  auto before = read_optional(path);
  if (!before) return before.error();
  std::string text = before->has_value() ? **before : std::string(jsonedit::kFreshFile);
  auto d = Doc::scan(text);
  if (!d) return make_error(ErrorCode::kParse, path + ":" + d.error().message +
                                                   " (not valid JSON); nothing written");
  if (d->root().kind == Node::Kind::kScalar)
    return make_error(ErrorCode::kParse, path + " is not a JSON object or array; nothing written");
  auto stripped = remove_deel_handlers(text, nullptr);
  if (!stripped) return make_error(ErrorCode::kParse, path + ":" + stripped.error().message);
  auto after = add_deel_handlers(*stripped, o);
  if (!after) return make_error(ErrorCode::kParse, path + ": " + after.error().message +
                                                       "; nothing written");
  if (before->has_value() &&
      ojson::parse(**before, nullptr, false) == ojson::parse(*after, nullptr, false))
    return plan;  // already installed: change nothing
  add_change(plan, path, *before, *after, true);
  if (!o.workspace.empty())
    plan.warnings.push_back(path + " is read only in a folder deel-local-cli trusts");
  return plan;
}

Result<Plan> plan_deel_uninstall(const InstallOptions& o, const State& s) {
  Plan plan;
  std::string path = deel_hooks_path(o);
  auto before = read_optional(path);
  if (!before) return before.error();
  if (!before->has_value()) return plan;
  std::vector<std::string> emptied;
  auto stripped = remove_deel_handlers(**before, &emptied);
  if (!stripped) return make_error(ErrorCode::kParse, path + ":" + stripped.error().message);
  if (*stripped == **before) return plan;
  std::string text = *stripped;
  for (const auto& e : emptied) {  // events we emptied go too
    auto d = Doc::scan(text);
    if (!d) break;
    const Node* c = deel_container(*d);
    if (!c || c->kind != Node::Kind::kObject) break;
    auto i = d->member_index(*c, e);
    const Node* v = d->member(*c, e);
    if (i && v && v->kind == Node::Kind::kArray && v->elements.empty())
      text = d->remove_member(*c, *i);
  }
  ojson root = ojson::parse(text, nullptr, false);
  bool only_ours = root.is_object() && (root.empty() || (root.size() == 1 && root.contains("hooks") &&
                                                          root["hooks"].is_object() &&
                                                          root["hooks"].empty()));
  add_uninstall_change(plan, s, path, **before, text, only_ours);
  return plan;
}

}  // namespace

// ---- Public ------------------------------------------------------------------------------------

Result<Host> parse_host(const std::string& name) {
  // The family's name only, not its --agent labels: `--host` names what install writes
  // ("claude" is not taken for claude-code, so a near miss is an error, not a guess).
  for (const auto& d : hosts::families())
    if (d.name == name) return d.id;
  return make_error(ErrorCode::kInvalidArgument,
                    "unknown host \"" + name + "\" (expected " + host_choices() + ")");
}

std::string host_choices() {
  std::string s;
  const auto all = hosts::families();
  for (size_t i = 0; i < all.size(); ++i) {
    if (i > 0) s += i + 1 == all.size() ? " or " : ", ";
    s += all[i].name;
  }
  return s;
}

// The events install registers: the family's descriptor (its `installed`, with the evidence).
const std::vector<std::string>& installed_events(Host host) {
  static const auto lists = [] {
    std::array<std::vector<std::string>, hosts::kFamilyCount> v;
    for (const auto& d : hosts::families())
      v[static_cast<size_t>(d.id)].assign(d.installed.begin(), d.installed.end());
    return v;
  }();
  return lists[static_cast<size_t>(host)];
}

std::string deel_command(const std::string& adapter_path, const std::string& event) {
  // deel-local-cli runs the command through the same shell as its Bash tool (l.387-404; bash on
  // Linux), so a quoted path is safe.
  return shell_quote(adapter_path) + " --agent deel --event " + event;
}

std::string gemini_command(const std::string& adapter_path, const std::string& event) {
  // Gemini runs hook commands through a shell (gemini reference §4); quoting keeps any path safe.
  return shell_quote(adapter_path) + " --agent gemini --event " + event;
}

std::string antigravity_command(const std::string& adapter_path, const std::string& event,
                                bool* path_has_space) {
  // agy runs commands with `sh -c` on some builds and splits on whitespace on others (reference
  // §5.1): a bare absolute path works for both; quoting would break the split form.
  bool safe = shell_safe(adapter_path);
  if (path_has_space) *path_has_space = !safe;
  return (safe ? adapter_path : shell_quote(adapter_path)) + " --agent antigravity --event " +
         event;
}

std::string gemini_extension_dir(const InstallOptions& o) {
  return fs::join(o.gemini_home.empty() ? o.home : o.gemini_home,
                  ".gemini/extensions/pinta-gemini");
}

std::string deel_hooks_path(const InstallOptions& o) {
  if (!o.workspace.empty()) return fs::join(o.workspace, ".deel/hooks.json");
  if (!o.deel_home.empty()) return fs::join(o.deel_home, "hooks.json");
  return fs::join(o.home, ".deel/hooks.json");
}

std::string antigravity_hooks_path(const InstallOptions& o) {
  if (!o.workspace.empty()) return fs::join(o.workspace, ".agents/hooks.json");
  return fs::join(o.home, ".gemini/config/hooks.json");
}

namespace {

// ---- Each family's install and uninstall, dispatched through families.def -----------------------
// A family's plan_install_<folder> (the hook file(s) it writes, with the state that lets uninstall
// undo exactly that) and plan_uninstall_<folder> (the family's part of the undo). A family without
// them does not build: there is no fallback family's file.

Result<Plan> plan_install_gemini(const InstallOptions& o) {
  auto p = plan_gemini_install(o);
  if (!p) return p;
  std::string dir = gemini_extension_dir(o);
  add_state(o, *p, {fs::join(dir, "hooks")}, false);
  return p;
}

Result<Plan> plan_install_deel(const InstallOptions& o) {
  auto p = plan_deel_install(o);
  if (!p) return p;
  std::string path = deel_hooks_path(o);
  add_state(o, *p, {fs::dirname(path)}, !fs::exists(path), path);
  return p;
}

Result<Plan> plan_install_claude(const InstallOptions& o) {
  auto p = plan_claude_code_install(o);
  if (!p) return p;
  std::string path = claude_code_settings_path(o);
  add_state(o, *p, {fs::dirname(path)}, !fs::exists(path), path);
  return p;
}

Result<Plan> plan_install_antigravity(const InstallOptions& o) {
  auto p = plan_antigravity_install(o);
  if (!p) return p;
  std::string path = antigravity_hooks_path(o);
  add_state(o, *p, {fs::dirname(path)}, !fs::exists(path), path);
  return p;
}

Status plan_uninstall_gemini(const InstallOptions& o, const State&, Plan& plan) {
  std::string dir = gemini_extension_dir(o);
  for (const char* f : {"gemini-extension.json", "hooks/hooks.json"}) {
    std::string path = fs::join(dir, f);
    auto before = read_optional(path);
    if (!before) return before.error();
    add_change(plan, path, *before, std::nullopt, false);
  }
  plan.remove_dirs.push_back(fs::join(dir, "hooks"));
  plan.remove_dirs.push_back(dir);
  std::string enablement = fs::join(o.gemini_home, ".gemini/extensions/extension-enablement.json");
  auto en_text = read_optional(enablement);
  if (en_text && en_text->has_value()) {
    auto en = parse_object(enablement, **en_text);
    if (!en) return en.error();
    if (en->contains(kHookName)) {
      auto after = remove_root_member(**en_text, kHookName);
      if (!after) return after.error();
      add_change(plan, enablement, *en_text, *after, false);
      auto bak = fs::read_file(enablement + ".pinta-bak");
      if (bak && *bak == *after) plan.changes.back().remove_backup = true;
    }
  }
  return {};
}

Status plan_uninstall_deel(const InstallOptions& o, const State& s, Plan& plan) {
  auto p = plan_deel_uninstall(o, s);
  if (!p) return p.error();
  plan = std::move(*p);
  return {};
}

Status plan_uninstall_claude(const InstallOptions& o, const State& s, Plan& plan) {
  std::string path = claude_code_settings_path(o);
  auto before = read_optional(path);
  if (!before) return before.error();
  if (before->has_value()) {
    bool only_ours = false;
    auto after = claude_code_remove_ours(**before, &only_ours);
    if (!after) return make_error(ErrorCode::kParse, path + ":" + after.error().message);
    if (*after != **before) add_uninstall_change(plan, s, path, **before, *after, only_ours);
  }
  return {};
}

Status plan_uninstall_antigravity(const InstallOptions& o, const State& s, Plan& plan) {
  std::string path = antigravity_hooks_path(o);
  auto before = read_optional(path);
  if (!before) return before.error();
  if (before->has_value()) {
    auto root = parse_object(path, **before);
    if (!root) return root.error();
    if (root->contains(kHookName)) {
      auto after = remove_root_member(**before, kHookName);
      if (!after) return after.error();
      root->erase(kHookName);
      add_uninstall_change(plan, s, path, **before, *after, root->empty());
    }
  }
  return {};
}

}  // namespace

Result<Plan> plan_install(const InstallOptions& options) {
  InstallOptions o = options;
  if (o.gemini_home.empty()) o.gemini_home = o.home;
  if (auto s = check_options(o); !s) return s.error();
  switch (o.host) {
#define PINTA_FAMILY(Id, folder, name) \
  case Host::k##Id:                    \
    return plan_install_##folder(o);
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
  }
  return make_error(ErrorCode::kInvalidArgument, "no such host");
}

Result<Plan> plan_uninstall(const InstallOptions& options) {
  InstallOptions o = options;
  if (o.gemini_home.empty()) o.gemini_home = o.home;
  if (o.home.empty())
    return make_error(ErrorCode::kInvalidArgument, "no home directory (set HOME)");
  Plan plan;
  auto state = read_state(o);
  if (!state) return state.error();
  State s = state->value_or(State{});
  Status done = make_error(ErrorCode::kInvalidArgument, "no such host");
  switch (o.host) {
#define PINTA_FAMILY(Id, folder, name)               \
  case Host::k##Id:                                  \
    done = plan_uninstall_##folder(o, s, plan);      \
    break;
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
  }
  if (!done) return done.error();
  auto st = read_optional(state_path(o));
  if (st && st->has_value()) add_change(plan, state_path(o), *st, std::nullopt, false);
  for (auto it = s.created_dirs.rbegin(); it != s.created_dirs.rend(); ++it)
    if (std::find(plan.remove_dirs.begin(), plan.remove_dirs.end(), *it) == plan.remove_dirs.end())
      plan.remove_dirs.push_back(*it);
  return plan;
}

Status apply(const Plan& plan) {
  for (const auto& c : plan.changes) {
    if (c.backup && c.before && !fs::exists(c.path + ".pinta-bak")) {
      if (auto s = fs::atomic_write(c.path + ".pinta-bak", *c.before, 0600); !s) return s;
    }
    if (c.after) {
      std::string dir = fs::dirname(c.path);
      if (!is_dir(dir)) {
        if (auto s = fs::make_dirs(dir, 0755); !s) return s;
      }
      if (auto s = fs::atomic_write(c.path, *c.after, c.mode); !s) return s;
    } else if (c.before) {
      if (::unlink(c.path.c_str()) != 0 && errno != ENOENT)
        return make_error(ErrorCode::kIo, "cannot remove " + c.path + ": " + std::strerror(errno));
    }
    if (c.remove_backup) ::unlink((c.path + ".pinta-bak").c_str());
  }
  for (const auto& d : plan.remove_dirs) ::rmdir(d.c_str());  // only succeeds when empty
  return {};
}

std::string render_diff(const Plan& plan) {
  auto lines = [](const std::optional<std::string>& t) {
    std::vector<std::string> v;
    if (!t) return v;
    std::istringstream in(*t);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
  };
  std::ostringstream out;
  for (const auto& c : plan.changes) {
    auto a = lines(c.before), b = lines(c.after);
    out << "--- " << (c.before ? c.path : "/dev/null") << "\n";
    out << "+++ " << (c.after ? c.path : "/dev/null") << "\n";
    // LCS line diff; the files are small (a few hundred lines at most).
    size_t n = a.size(), m = b.size();
    std::vector<std::vector<unsigned>> L(n + 1, std::vector<unsigned>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        L[i][j] = a[i] == b[j] ? L[i + 1][j + 1] + 1 : std::max(L[i + 1][j], L[i][j + 1]);
    out << "@@ -1," << n << " +1," << m << " @@\n";
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[i] == b[j]) {
        out << " " << a[i] << "\n";
        ++i, ++j;
      } else if (j < m && (i == n || L[i][j + 1] >= L[i + 1][j])) {
        out << "+" << b[j++] << "\n";
      } else {
        out << "-" << a[i++] << "\n";
      }
    }
  }
  return out.str();
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::pair<std::string, std::string> split_command_program(const std::string& cmd) {
  std::string prog;
  size_t i = 0;
  while (i < cmd.size() && cmd[i] == ' ') ++i;
  char q = 0;
  for (; i < cmd.size(); ++i) {
    char c = cmd[i];
    if (q) {
      if (c == q) q = 0;
      else prog += c;
    } else if (c == '\'' || c == '"') {
      q = c;
    } else if (c == ' ' || c == '\t') {
      break;
    } else {
      prog += c;
    }
  }
  return {prog, i < cmd.size() ? cmd.substr(i) : std::string()};
}

}  // namespace pinta::admin
