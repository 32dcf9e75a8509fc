// File: pinta/emulator/deel/deel.h
// The deel-local-cli 1.17.1 hook host emulator: how `package/src/safety/hooks.js` runs the hooks it
// loads and picks (pinta/hosts/deel/deel.h) and decides a block. Every rule in src/ cites its line
// in shared/seeds/004_10d55d7627512262.txt (the 1.15.1 -> 1.17.1 diff that adds hooks.js; hooks.js
// line N is seed line N + 148). The seed omits tools/shell.js, tools/spawn.js and safety/trust.js;
// what we assume for them is stated where it is used (and in docs/hosts/deel-local-cli-1.17.md).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pinta/common/process.h"
#include "pinta/hosts/deel/deel.h"

namespace pinta::emu::deel {

// The pure host facts (event names, matchers, the hooks.json loader, hook selection and the
// JavaScript coercions) live in hosts/deel (namespace pinta::hosts::deel); the emulator's names
// reach them unchanged.
using namespace pinta::hosts::deel;  // NOLINT(google-build-using-namespace)

struct RunResult {
  const Hook* hook = nullptr;
  std::optional<int> code;  // null: not started / timed out / killed by a signal
  std::string message;      // WTF-8 (may end in a lone surrogate after the cut)
  bool truncated = false;
  bool blocked = false;
  std::optional<std::string> why;
};

struct Outcome {
  std::vector<RunResult> results;
  std::optional<size_t> blocked_index;
};

// The host's environ entries, in order (nullopt: this process's own).
using EnvPairs = std::vector<std::pair<std::string, std::string>>;

// 자리돌리기 (seed L472-495): payload is the caller's 넣을것 (any JSON value, spread like JS).
// Each hook gets `env` as Node's process.env passes it on (pinta/hosts/node/node_spawn.h).
Outcome run_event(const std::vector<Hook>& hooks, const std::string& event,
                  const std::optional<std::string>& tool, const ojson& payload,
                  pinta::proc::Spawner& spawner, const std::optional<EnvPairs>& env);
// The stdin line a hook receives (seed L426): JSON.stringify({자리, 도구, ...payload}) + "\n".
std::string stdin_line(const std::string& event, const std::optional<std::string>& tool,
                       const ojson& payload);
std::string block_message(const RunResult& r);  // 막힘말, seed L504-511

// The `hostemu deel run` JSON object, written with JSON.stringify's escaping (lone surrogates as
// \udXXX).
std::string report_json(const Loaded& l, const Outcome* o);

// docs/hosts/deel-local-cli-1.17.md
std::string render_docs();

}  // namespace pinta::emu::deel
