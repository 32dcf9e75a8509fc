// Where the protocol profile runs a hook (protocol/workspace.h).
#include "workspace.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cctype>
#include <filesystem>

#include "pinta/hosts/family.h"
#include "reading.h"

namespace pinta::conformance::protocol {
namespace stdfs = std::filesystem;

namespace {

// Folders a hook loads code from and never needs its own copy of.
bool linked_folder(const std::string& name) {
  return name == "node_modules" || name == ".venv" || name == "venv";
}

std::string mib(unsigned long long b) {
  return std::to_string((b + (1u << 20) - 1) >> 20) + " MiB";
}

struct Entry {
  stdfs::path rel;
  stdfs::file_type type;
  unsigned long long size;
};

// The entries under `root`/`sub` in walk order (a folder before what it holds; paths relative to
// `root`), each linked folder as one entry of `linked` and the top-level .git not entered; false
// past `max_entries` or `max_bytes` (err says so) or on a read error.
bool list_tree(const stdfs::path& root, const stdfs::path& sub, std::vector<Entry>& out,
               std::vector<stdfs::path>& linked, size_t max_entries, unsigned long long max_bytes,
               std::string& err) {
  unsigned long long total = 0;
  std::error_code ec;
  const stdfs::path top = sub.empty() ? root : root / sub;
  if (!sub.empty()) out.push_back({sub, stdfs::file_type::directory, 0});
  stdfs::recursive_directory_iterator it(top, stdfs::directory_options::skip_permission_denied, ec),
      end;
  if (ec) {
    err = "cannot read " + top.string() + ": " + ec.message();
    return false;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) {
      err = "cannot read under " + top.string() + ": " + ec.message();
      return false;
    }
    const stdfs::path rel = it->path().lexically_relative(root);
    const auto st = it->symlink_status(ec);
    const auto type = ec ? stdfs::file_type::unknown : st.type();
    if (sub.empty() && rel == ".git") {  // the folder: below; a file: a pointer, left out
      if (type == stdfs::file_type::directory) it.disable_recursion_pending();
      continue;
    }
    if (type == stdfs::file_type::directory && linked_folder(rel.filename().string())) {
      linked.push_back(rel);
      it.disable_recursion_pending();
      continue;
    }
    unsigned long long size = 0;
    if (type == stdfs::file_type::regular) size = it->file_size(ec);
    out.push_back({rel, type, ec ? 0 : size});
    total += out.back().size;
    if (out.size() > max_entries || total > max_bytes) {
      err = out.size() > max_entries ? "more than " + std::to_string(max_entries) + " files"
                                     : "more than " + mib(max_bytes);
      return false;
    }
  }
  return true;
}

unsigned long long bytes(const std::vector<Entry>& es) {
  unsigned long long n = 0;
  for (const auto& e : es) n += e.size;
  return n;
}

bool copy_entries(const stdfs::path& from, const stdfs::path& to, const std::vector<Entry>& es,
                  std::string& err) {
  std::error_code ec;
  for (const auto& e : es) {
    const auto src = from / e.rel, dst = to / e.rel;
    switch (e.type) {
      case stdfs::file_type::directory:
        stdfs::create_directories(dst, ec);
        break;
      case stdfs::file_type::regular:
        stdfs::copy_file(src, dst, stdfs::copy_options::overwrite_existing, ec);
        break;
      case stdfs::file_type::symlink: {
        // A link by absolute path into the project points into the copy, so that a hook writing
        // through it changes the copy, not the author's tree; any other link is kept as it is.
        auto target = stdfs::read_symlink(src, ec);
        if (ec) break;
        const auto rel = target.lexically_normal().lexically_relative(from);
        if (target.is_absolute() && !rel.empty() && *rel.begin() != "..")
          target = to / rel;
        stdfs::create_symlink(target, dst, ec);
        break;
      }
      default:  // sockets, fifos, devices: nothing a hook reads as a file
        break;
    }
    if (ec) {
      err = "cannot copy " + src.string() + ": " + ec.message();
      return false;
    }
  }
  return true;
}

}  // namespace

std::string replace_path(const std::string& text, const std::string& from, const std::string& to) {
  if (from.empty() || from == to) return text;
  std::string out;
  size_t at = 0;
  for (size_t p; (p = text.find(from, at)) != std::string::npos;) {
    const size_t e = p + from.size();
    const bool whole = e == text.size() || text[e] == '/' ||
                       !(std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_' ||
                         text[e] == '-' || text[e] == '.');
    out += text.substr(at, p - at) + (whole ? to : from);
    at = e;
  }
  return out + text.substr(at);
}

Result<std::shared_ptr<Workspace>> Workspace::make(const std::string& real, bool in_place) {
  std::shared_ptr<Workspace> w(new Workspace());
  w->real_ = stdfs::path(real).lexically_normal().string();
  while (w->real_.size() > 1 && w->real_.back() == '/') w->real_.pop_back();
  w->in_place_ = in_place;
  if (in_place) {
    w->dir_ = w->real_;
    return w;
  }
  std::vector<Entry> files, git;
  std::vector<stdfs::path> linked;
  std::string err;
  const std::string flag =
      "; grade it in place with --in-place, or point --config at a smaller folder";
  if (!list_tree(w->real_, "", files, linked, kCopyEntries, kCopyBytes, err))
    return make_error(ErrorCode::kInvalidArgument,
                      "the project " + w->real_ + " is too big to copy for grading (" + err +
                          " outside node_modules and .git; a grading copy takes at most " +
                          std::to_string(kCopyEntries) + " files, " + mib(kCopyBytes) + ")" + flag);
  // .git in what is left of the budget, else without it.
  std::vector<stdfs::path> git_linked;
  std::error_code gec;
  if (stdfs::is_directory(stdfs::path(w->real_) / ".git", gec) &&
      !list_tree(w->real_, ".git", git, git_linked, kCopyEntries - files.size(),
                 kCopyBytes - bytes(files), err)) {
    w->git_left_out_ =
        ".git not copied (over what a grading copy takes): hooks that run git "
        "see no repository";
    git.clear();
  }
  // A .git file points at a repository elsewhere (a worktree's or a submodule's): git in the copy
  // would write to that repository's index and refs, so it is left out.
  if (stdfs::is_regular_file(stdfs::path(w->real_) / ".git", gec))
    w->git_left_out_ =
        ".git not copied (it points at a repository elsewhere: a worktree or submodule): hooks "
        "that run git see no repository";
  std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-ws-XXXXXX").string();
  if (!::mkdtemp(tmp.data())) return make_error(ErrorCode::kIo, "cannot create a temp directory");
  w->scratch_ = tmp;
  // The project's own name for its folder (a hook may read basename "$PWD").
  const std::string name = stdfs::path(w->real_).filename().string();
  w->dir_ = tmp + "/" + (name.empty() ? std::string("project") : name);
  std::error_code ec;
  stdfs::create_directories(w->dir_, ec);
  if (!copy_entries(w->real_, w->dir_, files, err) || !copy_entries(w->real_, w->dir_, git, err))
    return make_error(ErrorCode::kIo, err);
  for (const auto& l : linked) {
    stdfs::create_directories((stdfs::path(w->dir_) / l).parent_path(), ec);
    stdfs::create_directory_symlink(stdfs::path(w->real_) / l, stdfs::path(w->dir_) / l, ec);
    if (ec) return make_error(ErrorCode::kIo, "cannot link " + l.string() + ": " + ec.message());
    w->linked_.push_back(l.string());
  }
  return w;
}

Result<std::shared_ptr<Workspace>> Workspace::scratch(const std::string& why) {
  std::shared_ptr<Workspace> w(new Workspace());
  std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-ws-XXXXXX").string();
  if (!::mkdtemp(tmp.data())) return make_error(ErrorCode::kIo, "cannot create a temp directory");
  w->scratch_ = tmp;
  w->dir_ = tmp + "/project";
  std::error_code ec;
  stdfs::create_directories(w->dir_, ec);
  if (ec) return make_error(ErrorCode::kIo, "cannot create " + w->dir_ + ": " + ec.message());
  w->scratch_why_ = why;
  return w;
}

Workspace::~Workspace() {
  std::error_code ec;
  if (!scratch_.empty()) stdfs::remove_all(scratch_, ec);
}

std::string Workspace::map(const std::string& text) const {
  return replace_path(text, real_, dir_);
}

std::string Workspace::unmap(const std::string& text) const {
  return real_.empty() ? text : replace_path(text, dir_, real_);
}

std::string Workspace::line() const {
  if (!scratch_why_.empty())
    return "hooks run in an empty project of their own (" + scratch_why_ + "): nothing is copied";
  if (in_place_)
    return "hooks run in " + real_ + " itself (--in-place): what they write stays there";
  std::string s = "hooks run in a copy of " + real_ +
                  " (the project is left as it is; --in-place " + "runs them in it)";
  if (!linked_.empty()) {
    s += "; linked, not copied:";
    for (size_t i = 0; i < linked_.size() && i < 3; ++i) s += " " + linked_[i];
    if (linked_.size() > 3) s += " and " + std::to_string(linked_.size() - 3) + " more";
  }
  if (!git_left_out_.empty()) s += "; " + git_left_out_;
  return s;
}

std::string package_root(const std::string& file) {
  std::error_code ec;
  stdfs::path p = stdfs::absolute(file, ec).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // "ext/" and "." name the folder
  // The folder itself, or the folder holding hooks/hooks.json (or the manifest).
  for (stdfs::path d : {p, p.parent_path(), p.parent_path().parent_path()}) {
    if (d.empty()) continue;
    for (const char* m :
         {"gemini-extension.json", ".claude-plugin/plugin.json", ".codex-plugin/plugin.json"})
      if (stdfs::is_regular_file(d / m, ec)) return d.string();
  }
  return "";
}

std::string project_root(const std::vector<ProtocolHook>& hooks) {
  std::error_code ec;
  const std::string cwd = stdfs::current_path(ec).string();
  const std::string origin = hooks.empty() ? "" : hooks.front().origin;
  if (origin.empty()) return cwd;  // --hook: hook_project() decides
  if (auto pkg = package_root(origin); !pkg.empty()) return pkg;
  const stdfs::path file = stdfs::absolute(origin, ec).lexically_normal();
  // A host's project folder holding the file, or its parent (.github/hooks/x.json).
  for (const stdfs::path& d : {file.parent_path(), file.parent_path().parent_path()}) {
    for (const auto& fd : pinta::hosts::families()) {
      const auto folder = family_reading(fd.id).project_folder;
      if (folder.empty() || d.filename() != folder) continue;
      const char* home = ::getenv("HOME");  // NOLINT(concurrency-mt-unsafe)
      // The user's own file: its hooks run in whatever project the host is started in.
      if (home && stdfs::path(home).lexically_normal() == d.parent_path()) return cwd;
      return d.parent_path().string();
    }
  }
  return file.parent_path().string();
}

namespace {

// The words of a command line as a shell splits them, quotes removed (no expansion): with each
// word's span in `command`.
struct Word {
  std::string text;
  size_t begin, end;
};
std::vector<Word> shell_words(const std::string& command) {
  std::vector<Word> out;
  size_t i = 0;
  while (i < command.size()) {
    while (i < command.size() && std::isspace(static_cast<unsigned char>(command[i]))) ++i;
    if (i >= command.size()) break;
    Word w{"", i, i};
    char quote = 0;
    for (; i < command.size(); ++i) {
      const char c = command[i];
      if (quote) {
        if (c == quote) quote = 0;
        else w.text += c;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (std::isspace(static_cast<unsigned char>(c)) || c == ';' || c == '|' ||
                 c == '&' || c == '<' || c == '>' || c == '(' || c == ')') {
        break;
      } else {
        w.text += c;
      }
    }
    w.end = i;
    if (w.end > w.begin) out.push_back(std::move(w));
    if (i < command.size() && !std::isspace(static_cast<unsigned char>(command[i]))) ++i;
  }
  return out;
}

// The git work tree holding `p` (the nearest folder with a .git), or "".
std::string work_tree_of(stdfs::path p) {
  std::error_code ec;
  for (; !p.empty(); p = p.parent_path()) {
    if (stdfs::exists(p / ".git", ec)) return p.string();
    if (p == p.root_path()) break;
  }
  return "";
}

bool under(const stdfs::path& p, const stdfs::path& dir) {
  const auto rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

HookProject hook_project(const std::string& command, const std::string& cwd) {
  HookProject hp{cwd, command, ""};
  std::error_code ec;
  const stdfs::path here = stdfs::path(cwd).lexically_normal();
  // The script: a word that names a file here; else an interpreter's script named elsewhere (a
  // later word), or the program itself when it is a script (#!). A program that is no script
  // (/usr/bin/python3, a binary) is the host's tool, not the hook's project.
  const auto words = shell_words(command);
  for (const auto& w : words) {
    const stdfs::path p = (here / w.text).lexically_normal();
    if (!w.text.empty() && w.text.find('$') == std::string::npos &&
        stdfs::is_regular_file(p, ec) && under(p, here))
      return hp;  // the author's folder, as typed
  }
  for (const auto& w : words) {
    if (w.text.empty() || w.text[0] == '-' || w.text.find('$') != std::string::npos) continue;
    const stdfs::path p = (here / w.text).lexically_normal();
    if (!stdfs::is_regular_file(p, ec)) continue;
    if (&w == &words.front()) {
      char head[2] = {0, 0};
      if (FILE* fp = std::fopen(p.c_str(), "rb")) {
        if (std::fread(head, 1, 2, fp) != 2) head[0] = 0;
        std::fclose(fp);
      }
      if (head[0] != '#' || head[1] != '!') continue;
    }
    // Elsewhere: named by its absolute path, in the work tree holding it, or alone.
    std::string abs = p.string();
    if (abs.find_first_of(" \t'\"\\$`*?[]{}();&|<>") != std::string::npos) {
      std::string q = "'";
      for (char c : abs) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
      abs = q + "'";
    }
    hp.command = command.substr(0, w.begin) + abs + command.substr(w.end);
    hp.root = work_tree_of(p.parent_path());
    if (hp.root.empty())
      hp.why = p.string() + " lies in no git work tree: it runs from where it is";
    return hp;
  }
  // No script: inline code, or a program on PATH. The current folder when it is a project
  // (a work tree's root or a host's project folder in it), else nothing of it is the hook's.
  if (stdfs::exists(here / ".git", ec)) return hp;
  for (const auto& fd : pinta::hosts::families()) {
    const auto folder = family_reading(fd.id).project_folder;
    if (!folder.empty() && stdfs::is_directory(here / std::string(folder), ec)) return hp;
  }
  hp.root.clear();
  hp.why = "the command names no script here and " + cwd + " is no project";
  return hp;
}

std::string substitute(const std::string& command, const std::map<std::string, std::string>& vars,
                       bool bare) {
  std::string out = command;
  for (const auto& [k, v] : vars) {
    const std::string braced = "${" + k + "}";
    for (size_t p = 0; (p = out.find(braced, p)) != std::string::npos; p += v.size())
      out.replace(p, braced.size(), v);
    if (!bare) continue;
    for (size_t p = 0; (p = out.find("$" + k, p)) != std::string::npos;) {
      const size_t e = p + 1 + k.size();
      if (e < out.size() && (std::isalnum(static_cast<unsigned char>(out[e])) || out[e] == '_')) {
        p = e;
        continue;
      }
      out.replace(p, 1 + k.size(), v);
      p += v.size();
    }
  }
  return out;
}

std::set<std::string> shell_variables(const std::string& command) {
  std::set<std::string> out;
  bool single = false;
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (c == '\\' && !single) {
      ++i;
      continue;
    }
    if (c == '\'') single = !single;
    if (single || c != '$' || i + 1 >= command.size()) continue;
    size_t b = i + 1;
    if (command[b] == '{') ++b;
    if (b >= command.size() || std::isdigit(static_cast<unsigned char>(command[b])) ||
        !name_char(command[b]))
      continue;
    size_t e = b;
    while (e < command.size() && name_char(command[e])) ++e;
    out.insert(command.substr(b, e - b));
    i = e - 1;
  }
  return out;
}

}  // namespace pinta::conformance::protocol
