// File: pinta/hosts/deel/deel.h
// deel-local-cli 1.17.1 as pure host facts (no spawning, no CLI): how `package/src/safety/hooks.js`
// loads hooks.json files (이 PC and project), resolves event names, compiles matchers and picks the
// hooks for an event. Every rule in src/ cites its line in shared/seeds/004_10d55d7627512262.txt
// (hooks.js line N is seed line N + 148). The seed omits safety/trust.js: whether the project file
// is trusted is an input here. The emulator (pinta/emulator/deel/deel.h) runs the picked hooks;
// `pinta-gemini-admin doctor` and the hook-file lint use this directly.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/hosts/node/js_regex.h"

namespace pinta::hosts::deel {

using ojson = nlohmann::ordered_json;

inline constexpr const char* kHostVersion = "1.17.1";
inline constexpr const char* kSeedFile = "shared/seeds/004_10d55d7627512262.txt";
inline constexpr double kDefaultTimeoutMs = 15000;     // 제한기본, seed L199
inline constexpr double kMaxTimeoutMs = 120000;        // seed L284
inline constexpr size_t kMaxMessageUnits = 16 * 1024;  // 글최대 (UTF-16 code units), seed L201
inline constexpr size_t kMaxHooks = 32;                // 훅최대, seed L203

// Korean event name for a Korean or English spelling (자리풀기, seed L236-242); nullopt if unknown.
std::optional<std::string> resolve_event(const ojson& value);
bool is_blocking_event(const std::string& korean);  // 막는자리, seed L221
bool is_tool_event(const std::string& korean);      // 고를것, seed L382-384

// A JavaScript regular expression `^(?:s)$` (무늬짓기, seed L254-258).
struct Matcher {
  bool all = true;
  std::shared_ptr<const pinta::hosts::node::JsRegExp> re;  // set unless `all`
};
std::optional<Matcher> make_matcher(const ojson& value);  // nullopt: invalid (drops the hook)
bool matcher_matches(const Matcher& m, const std::string& tool);

struct Hook {
  std::string event;    // Korean
  std::string matcher;  // 무늬글 as written (String(x))
  Matcher pattern;
  std::string command;
  double timeout_ms = kDefaultTimeoutMs;
  bool pass_on_failure = false;
  std::string source;  // "이 PC" | "프로젝트"
  std::optional<std::string> name;
  std::string pointer;  // JSON pointer of the handler object in its file (RFC 6901)
};

struct FileRead {
  std::vector<Hook> hooks;
  std::vector<std::string> dropped;
  std::vector<std::string> dropped_at;  // JSON pointer of each dropped entry (same order)
  bool present = false;
  std::string path;
  std::optional<std::string> error;
};

// 훅펴기 (seed L299-329) on an already-parsed JSON value.
FileRead unfold(const ojson& raw, const std::string& source);

struct LoadRequest {
  std::string workspace;                   // root
  std::string home;                        // homedir()
  std::string cwd;                         // process.cwd(), for resolve(DEEL_HOME)
  std::map<std::string, std::string> env;  // DEEL_HOME, DEEL_HOOKS
  bool no_hooks = false;                   // 켜짐 === false (--no-hooks)
  bool trusted = false;  // 믿나(root) — safety/trust.js is not in the seed: an input here
};

struct Loaded {
  std::vector<Hook> hooks;
  bool enabled = true;
  std::optional<std::string> disabled_by;
  FileRead pc, project;
  bool untrusted_project = false;
  bool overflow = false;
};
Loaded load(const LoadRequest& rq);  // 훅읽기, seed L349-379

std::vector<const Hook*> select(const std::vector<Hook>& hooks, const std::string& event,
                                const std::optional<std::string>& tool);  // 고를것

// JavaScript helpers (exact): String(x), Number(x), JSON text of a WTF-8 string.
std::string js_string(const ojson& v);
double js_number_of(const ojson& v);
std::string js_number_text(double d);
std::string json_quote_wtf8(const std::string& s);

}  // namespace pinta::hosts::deel
