// pinta-gemini install / uninstall: plans and applies the host files of seed SPEC §3.3. What is
// common to every family is here (options, the install state, uninstall's undo, apply, the diff);
// each family's files are written by its own src/<folder>.cc (FamilyAdmin, admin_internal.h).
#include "pinta/admin/install.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

#include "admin_internal.h"
#include "pinta/admin/json_edit.h"
#include "pinta/common/fs.h"

namespace pinta::admin {
namespace {

bool is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Where the install state lives: beside the family's files under ~/.gemini when its hosts keep
// them there, else the XDG state directory (FamilyAdmin::state_under_dot_gemini).
std::string data_dir(const InstallOptions& o) {
  if (family_admin(*o.host).state_under_dot_gemini.value) {
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
  std::string name = "install-" + std::string(hosts::descriptor(*o.host).name);
  if (family_admin(*o.host).workspace_refused.value.empty() && !o.workspace.empty()) {
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

Status check_options(const InstallOptions& o) {
  if (o.home.empty())
    return make_error(ErrorCode::kInvalidArgument, "no home directory (set HOME)");
  if (o.adapter_path.empty() || o.adapter_path[0] != '/')
    return make_error(ErrorCode::kInvalidArgument, "adapter path must be absolute");
  if (const std::string_view refused = family_admin(*o.host).workspace_refused;
      !refused.empty() && !o.workspace.empty())
    return make_error(ErrorCode::kInvalidArgument, std::string(refused));
  return {};
}

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

}  // namespace

// ---- Shared with the families' files (admin_internal.h) -----------------------------------------

// Existing file → its text; absent → nullopt; unreadable → error.
Result<std::optional<std::string>> read_optional(const std::string& path) {
  if (!fs::exists(path)) return std::optional<std::string>{};
  auto r = fs::read_file(path);
  if (!r) return r.error();
  return std::optional<std::string>{std::move(r.value())};
}

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

Result<std::string> set_root_member(const std::string& text, const std::string& key,
                                    const ojson& value) {
  auto d = jsonedit::Doc::scan(text);
  if (!d) return d.error();
  if (d->root().kind != jsonedit::Node::Kind::kObject)
    return make_error(ErrorCode::kParse, "not a JSON object");
  return d->set_member(d->root(), key, value);
}

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

std::optional<std::string> remove_one_nested(const jsonedit::Doc& d, const jsonedit::Node& groups,
                                             const ojson* keep, bool (*ours)(const ojson&)) {
  using jsonedit::Node;
  if (groups.kind != Node::Kind::kArray) return std::nullopt;
  for (size_t i = 0; i < groups.elements.size(); ++i) {
    const Node& g = d.node(groups.elements[i]);
    if (g.kind != Node::Kind::kObject) continue;
    const Node* inner = d.member(g, "hooks");
    if (!inner || inner->kind != Node::Kind::kArray) continue;
    for (size_t j = 0; j < inner->elements.size(); ++j) {
      ojson h = d.value(d.node(inner->elements[j]));
      if (!ours(h) || (keep && h == *keep)) continue;
      return inner->elements.size() == 1 ? d.remove_element(groups, i)
                                          : d.remove_element(*inner, j);
    }
  }
  return std::nullopt;
}

bool group_holds(const ojson& g, const ojson& handler) {
  if (!g.is_object() || !g.contains("hooks") || !g["hooks"].is_array()) return false;
  return std::any_of(g["hooks"].begin(), g["hooks"].end(),
                     [&](const ojson& h) { return h == handler; });
}

Result<std::string> remove_ours_where(const HooksFile& f, std::string text,
                                      const std::function<bool(const std::string&)>& drop,
                                      bool* touched) {
  using jsonedit::Node;
  std::vector<std::string> emptied;
  for (;;) {
    auto d = f.scan(text);
    if (!d) return d.error();
    const Node* hooks = d->member(d->root(), "hooks");
    if (!hooks) break;
    std::optional<std::string> next;
    for (const auto& m : hooks->members) {
      if (!drop(m.key)) continue;
      if ((next = f.remove_one(*d, d->node(m.value), nullptr))) {
        if (std::find(emptied.begin(), emptied.end(), m.key) == emptied.end())
          emptied.push_back(m.key);
        break;
      }
    }
    if (!next) break;
    text = std::move(*next);
  }
  for (const auto& e : emptied) {  // an event we emptied (one refilled since stays)
    auto d = f.scan(text);
    if (!d) return d.error();
    const Node& hooks = *d->member(d->root(), "hooks");
    auto i = d->member_index(hooks, e);
    const Node* v = d->member(hooks, e);
    if (i && v->kind == Node::Kind::kArray && v->elements.empty())
      text = d->remove_member(hooks, *i);
  }
  if (touched) *touched = !emptied.empty();
  return text;
}

Result<std::string> add_ours(const HooksFile& f, const std::string& original,
                             const std::string& adapter_path,
                             const std::vector<std::string>& events) {
  using jsonedit::Node;
  std::string text = original;
  {
    auto d = f.scan(text);
    if (!d) return d.error();
    if (!d->member(d->root(), "hooks")) text = d->set_member(d->root(), "hooks", ojson::object());
  }
  // Ours under events we no longer register (a former install) go first.
  auto pruned = remove_ours_where(
      f, std::move(text),
      [&](const std::string& e) { return std::find(events.begin(), events.end(), e) == events.end(); },
      nullptr);
  if (!pruned) return pruned.error();
  text = std::move(*pruned);
  for (const auto& e : events) {
    const ojson want = f.handler(adapter_path, e);
    for (;;) {  // stale handlers of ours for this event (another adapter path, another timeout)
      auto d = f.scan(text);
      if (!d) return d.error();
      const Node* list = d->member(*d->member(d->root(), "hooks"), e);
      if (!list) break;
      auto next = f.remove_one(*d, *list, &want);
      if (!next) break;
      text = std::move(*next);
    }
    auto d = f.scan(text);
    if (!d) return d.error();
    const Node& hooks = *d->member(d->root(), "hooks");
    const Node* list = d->member(hooks, e);
    if (list && list->kind == Node::Kind::kArray) {
      ojson elements = d->value(*list);
      if (std::none_of(elements.begin(), elements.end(),
                       [&](const ojson& x) { return f.holds(x, want); }))
        text = d->append_element(*list, f.element(adapter_path, e));
    } else if (!list || d->value(*list).is_null()) {
      text = d->set_member(hooks, e, ojson::array({f.element(adapter_path, e)}));
    } else {
      return make_error(ErrorCode::kParse, jsonedit::line_col(d->text(), list->begin) +
                                               ": \"hooks\"." + e + " is not an array");
    }
  }
  return text;
}

Result<std::string> remove_all_ours(const HooksFile& f, const std::string& original) {
  bool touched = false;
  auto r = remove_ours_where(f, original, [](const std::string&) { return true; }, &touched);
  if (!r) return r.error();
  std::string text = std::move(*r);
  if (touched) {  // and "hooks" when we emptied it
    auto d = f.scan(text);
    if (!d) return d.error();
    auto i = d->member_index(d->root(), "hooks");
    if (i && d->node(d->root().members[*i].value).members.empty())
      text = d->remove_member(d->root(), *i);
  }
  return text;
}

bool shell_safe(const std::string& s) {
  if (s.empty()) return false;
  for (unsigned char c : s) {
    if (std::isalnum(c)) continue;
    if (std::strchr("/._-+@%:,=", c) == nullptr) return false;
  }
  return true;
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

// `host_file`: the user's file install edits (empty for Gemini, whose files are all ours); its
// text after the plan is recorded so uninstall can tell whether anything else changed since.
void add_state(const InstallOptions& o, Plan& plan, const std::vector<std::string>& target_dirs,
               bool created_file, const std::string& host_file) {
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

Result<Plan> plan_install(const InstallOptions& options) {
  if (!options.host) return make_error(ErrorCode::kInvalidArgument, "no such host");
  InstallOptions o = options;
  if (o.gemini_home.empty()) o.gemini_home = o.home;
  if (auto s = check_options(o); !s) return s.error();
  return family_admin(*o.host).plan_install.value(o);
}

Result<Plan> plan_uninstall(const InstallOptions& options) {
  if (!options.host) return make_error(ErrorCode::kInvalidArgument, "no such host");
  InstallOptions o = options;
  if (o.gemini_home.empty()) o.gemini_home = o.home;
  if (o.home.empty())
    return make_error(ErrorCode::kInvalidArgument, "no home directory (set HOME)");
  Plan plan;
  auto state = read_state(o);
  if (!state) return state.error();
  State s = state->value_or(State{});
  if (Status done = family_admin(*o.host).plan_uninstall.value(o, s, plan); !done)
    return done.error();
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
