// Generation of the campaign's cases (generate.h).
#include "generate.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>

#include "pinta/hosts/hosts.h"

namespace pinta::fuzz::campaign {
namespace {

namespace stdfs = std::filesystem;
using nlohmann::json;
using pinta::fuzz::Host;

// ---- mutation -------------------------------------------------------------------------------

json random_value(std::mt19937_64& rng, int depth);

std::string random_string(std::mt19937_64& rng) {
  static const std::vector<std::string> pieces = {"a",     "rm -rf /", "é",     "😀",      "\\",
                                                  "\"",    "\n",       "\t",    "\u2028", "/tmp/x",
                                                  "../..", "%s",       "$(id)", "`id`",   " "};
  std::string s;
  const int n = static_cast<int>(rng() % 8);
  for (int i = 0; i < n; ++i) s += pieces[rng() % pieces.size()];
  return s;
}

json random_value(std::mt19937_64& rng, int depth) {
  switch (rng() % (depth > 0 ? 7 : 4)) {
    case 0:
      return nullptr;
    case 1:
      return static_cast<int64_t>(rng());
    case 2:
      return random_string(rng);
    case 3:
      return (rng() & 1) != 0;
    case 4:
      return 1.5e308 * ((rng() & 1) ? 1 : -1);
    case 5: {
      json a = json::array();
      for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i)
        a.push_back(random_value(rng, depth - 1));
      return a;
    }
    default: {
      json o = json::object();
      for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i)
        o[random_string(rng)] = random_value(rng, depth - 1);
      return o;
    }
  }
}

// Top-level identifier fields are copied into spans unredacted by design (SPEC§11 skip-list;
// docs/contract.md REDACT): a secret planted there is not a leak, so plant() stays out of them.
const char* const kIdentifierFields[] = {"hook",
                                         "hook_event_name",
                                         "tool_name",
                                         "session_id",
                                         "conversationId",
                                         "cwd",
                                         "transcript_path",
                                         "transcriptPath",
                                         "artifactDirectoryPath",
                                         "workspacePaths",
                                         "timestamp"};
bool identifier_field(const std::string& k) {
  for (const char* f : kIdentifierFields)
    if (k == f) return true;
  return false;
}

// Places `secret` in a string somewhere inside `j` (or adds a field).
void plant(json& j, const std::string& secret, std::mt19937_64& rng, bool top = true) {
  if (j.is_object() && !j.empty() && (rng() % 3) != 0) {
    auto it = j.begin();
    std::advance(it, static_cast<long>(rng() % j.size()));
    if (top && identifier_field(it.key())) {
      j["note"] = "token " + secret;
      return;
    }
    if (it->is_string()) {
      *it = it->get<std::string>() + " " + secret + " ";
      return;
    }
    if (it->is_object() || it->is_array()) return plant(*it, secret, rng, false);
  }
  if (j.is_array() && !j.empty()) return plant(j[rng() % j.size()], secret, rng, false);
  if (j.is_object())
    j["note"] = "token " + secret;
  else if (j.is_array())
    j.push_back("token " + secret);
}
}  // namespace

std::optional<Host> campaign_host(const std::string& name) {
  if (const auto* h = pinta::hosts::find_host(name)) return h->family;
  return pinta::hosts::family_by_name(name);
}

std::vector<Fixture> load_fixtures(const std::string& root, Host host) {
  std::vector<Fixture> v;
  const stdfs::path dir = stdfs::path(root) / std::string(pinta::hosts::descriptor(host).folder);
  std::error_code ec;
  if (!stdfs::is_directory(dir, ec)) return v;
  for (const auto& e : stdfs::recursive_directory_iterator(dir, ec)) {
    // Fixture files only, {y,n,i}_*.json (not the family's own family.json).
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || e.path().extension() != ".json" || name.size() < 2 ||
        name[1] != '_' || std::string("yni").find(name[0]) == std::string::npos)
      continue;
    std::ifstream in(e.path(), std::ios::binary);
    v.push_back(
        {e.path().parent_path().filename().string(),
         std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>())});
  }
  std::sort(v.begin(), v.end(), [](const Fixture& a, const Fixture& b) {
    return a.event != b.event ? a.event < b.event : a.bytes < b.bytes;
  });
  return v;
}

namespace {

// The fixture's bytes under one mutation the seed picks (c.mutation names it; a planted secret
// goes to c.planted).
std::string mutated(std::mt19937_64& rng, const Fixture& fx, Case& c) {
  std::string bytes = fx.bytes;
  json doc = json::parse(bytes, nullptr, false);
  switch (rng() % 16) {
    case 0:
      c.mutation = "none";
      break;
    case 1:
    case 2: {  // byte mutations
      c.mutation = "bytes";
      for (int i = 0, n = 1 + static_cast<int>(rng() % 8); i < n && !bytes.empty(); ++i) {
        const size_t at = rng() % bytes.size();
        switch (rng() % 4) {
          case 0:
            bytes[at] = static_cast<char>(rng());
            break;
          case 1:
            bytes.erase(at, 1 + rng() % 16);
            break;
          case 2:
            bytes.insert(at, std::string(1, "{}[]\":,\\\x80\xff\x00"[rng() % 12]));
            break;
          default:
            bytes.insert(at, bytes.substr(rng() % bytes.size(), rng() % 32));
            break;
        }
      }
      break;
    }
    case 3:
    case 4: {  // structural
      c.mutation = "structure";
      if (doc.is_object()) {
        for (int i = 0, n = 1 + static_cast<int>(rng() % 4); i < n; ++i) {
          if (!doc.empty() && (rng() & 1)) {
            auto it = doc.begin();
            std::advance(it, static_cast<long>(rng() % doc.size()));
            *it = random_value(rng, 3);
          } else {
            doc[random_string(rng)] = random_value(rng, 3);
          }
        }
        bytes = doc.dump();
      }
      break;
    }
    case 5:
    case 6: {  // planted secret, valid JSON
      c.mutation = "secret";
      c.planted = kSecrets[rng() % kSecrets.size()];
      if (doc.is_object()) {
        plant(doc, c.planted, rng);
        bytes = doc.dump();
      } else {
        bytes += " " + c.planted;
      }
      break;
    }
    case 7: {  // nesting
      c.mutation = "nesting";
      const int depth = static_cast<int>(rng() % 600);
      std::string deep = std::string(depth, '[') + "1" + std::string(depth, ']');
      bytes = R"({"tool_name":"x","tool_input":)" + deep + "}";
      break;
    }
    case 8: {  // text-level hazards
      static const std::vector<std::string> hz = {
          "\"\\ud800\"",      "\"\\udc00x\"", "\"\xff\xfe\"", "\"\xc0\xaf\"",
          "\"\xed\xa0\x80\"", "NaN",          "1e99999",      "\"\\u0000\""};
      c.mutation = "hazard";
      bytes = R"({"session_id":"s","tool_input":{"v":)" + hz[rng() % hz.size()] + "}}";
      break;
    }
    case 9: {  // truncation / trailing
      c.mutation = "truncate";
      if (!bytes.empty())
        bytes =
            (rng() & 1) ? bytes.substr(0, rng() % bytes.size()) : bytes + (rng() & 1 ? "{}" : "x");
      break;
    }
    case 10: {  // huge
      c.mutation = "huge";
      const size_t n = (1u << 20) + rng() % (2u << 20);
      bytes = R"({"session_id":"s","tool_input":{"content":")" + std::string(n, 'a') + "\"}}";
      break;
    }
    default: {  // generated from nothing
      c.mutation = "generated";
      bytes = random_value(rng, 4).dump();
      break;
    }
  }
  return bytes;
}

// How stdin is delivered: closed, left open, dripped, none, or closed with a capped home.
void pick_stdin(std::mt19937_64& rng, Case& c) {
  switch (rng() % 8) {
    case 0:
    case 1:
    case 2:
      c.mode = Stdin::kClosed;
      break;
    case 3:
    case 4:
      c.mode = Stdin::kOpen;
      break;
    case 5:
      c.mode = Stdin::kDripped;
      c.drip_chunk = 1 + rng() % 4096;
      break;
    case 6:
      c.mode = Stdin::kNone;
      break;
    default:
      c.mode = Stdin::kClosed;
      c.capped_home = true;
      break;
  }
}

}  // namespace

Case make_case(const std::vector<Fixture>& fixtures, Host host, uint64_t seed, bool misbehave) {
  std::mt19937_64 rng(seed);
  Case c;
  const Fixture& fx = fixtures[rng() % fixtures.size()];
  c.event = fx.event;
  const unsigned ev_roll = rng() % 20;
  if (ev_roll == 0)
    c.event = "NotAnEvent";
  else if (ev_roll == 1)
    c.event = "";
  else if (ev_roll == 2) {
    const auto& evs = pinta::fuzz::events(host);
    c.event = evs[rng() % evs.size()];
  }
  std::string bytes = mutated(rng, fx, c);
  if (rng() % 8 == 0) bytes = "\xEF\xBB\xBF" + bytes;  // BOM
  if (rng() % 4 == 0) bytes += "\n";
  c.stdin_bytes = std::move(bytes);
  pick_stdin(rng, c);
  // Dripping a megabyte a few bytes at a time would take minutes: drip big inputs in big chunks.
  if (c.mode == Stdin::kDripped && c.stdin_bytes.size() > 64 * 1024) c.drip_chunk = 256 * 1024;
  // Most runs shorten the stdin deadline (INPUT-2): an open or dripped stdin holding no complete
  // object then costs 100 ms instead of 1 s. One run in 16 keeps the default deadline.
  if (rng() % 16 != 0) c.stdin_timeout_ms = 100;
  // Guard and collector behaviour (an independent roll, so every mutation meets every one).
  if (misbehave) {
    c.guard = static_cast<GuardMode>(rng() % kGuardModes);
    if (rng() % 4 == 0) c.collector = static_cast<CollectorMode>(1 + rng() % (kCollectorModes - 1));
  }
  return c;
}

// ---- the adversarial mode (GUARD-14) ---------------------------------------------------------

namespace {

// A hostile tool input as JSON text: the shapes and encodings a model can put in tool arguments
// that once made the adapter skip the guard or fail open, and their neighbours.
std::string adversarial_tool_input(std::mt19937_64& rng, std::string* kind) {
  const std::string command = "\"command\":\"rm -rf ~\"";
  auto nest = [&](size_t depth, bool objects) {
    std::string open, close;
    for (size_t i = 0; i < depth; ++i) {
      const bool obj = objects && (rng() & 1);
      open += obj ? "{\"k\":" : "[";
      close.insert(0, obj ? "}" : "]");
    }
    return open + "1" + close;
  };
  switch (rng() % 16) {
    case 0: *kind = "deep"; return "{" + command + ",\"pad\":" + nest(257 + rng() % 40000, rng() & 1) + "}";
    case 1: *kind = "deep-first"; return "{\"pad\":" + nest(257 + rng() % 2000, true) + "," + command + "}";
    case 2: {
      *kind = "huge-string";
      const size_t n = (256u << 10) + rng() % (6u << 20);
      return "{\"command\":\"rm -rf ~ " + std::string(n, 'a') + "\"}";
    }
    case 3: {
      *kind = "many-keys";
      std::string s = "{" + command;
      for (size_t i = 0, n = 5000 + rng() % 100000; i < n; ++i) s += ",\"k" + std::to_string(i) + "\":" + std::to_string(i);
      return s + "}";
    }
    case 4: *kind = "huge-key"; return "{\"" + std::string((1u << 20) + rng() % (1u << 20), 'k') + "\":1," + command + "}";
    case 5: {
      *kind = "encoding";
      static const char* const bad[] = {"\\ud800", "\\udfff\\ud800", "\xff\xfe", "\xc0\xaf", "\xed\xa0\x80",
                                        "\xf4\x90\x80\x80", "\\u0000", "\xe2\x9c", "\x80", "\\u2028\\u2029"};
      std::string s = "{" + command + ",\"v\":\"";
      for (int i = 0, n = 1 + static_cast<int>(rng() % 6); i < n; ++i) s += bad[rng() % (sizeof bad / sizeof *bad)];
      return s + "\"}";
    }
    case 6: {
      *kind = "not-an-object";
      static const char* const values[] = {"[\"rm\",\"-rf\",\"~\"]", "\"rm -rf ~\"", "null", "1e99999", "-0", "true"};
      return values[rng() % (sizeof values / sizeof *values)];
    }
    case 7: *kind = "wide-array"; return "{" + command + ",\"a\":[" + [&] {
        std::string a;
        for (size_t i = 0, n = 10000 + rng() % 200000; i < n; ++i) a += i ? ",0" : "0";
        return a;
      }() + "]}";
    case 8: {
      *kind = "raw-control";  // invalid JSON from here on: what arrived before it is judged
      return "{" + command + ",\"v\":\"a\x01\x02\"}";
    }
    case 9: *kind = "duplicate-keys"; return "{\"command\":\"ls\"," + command + ",\"command\":\"rm -rf ~\"}";
    case 12: {
      // Names the model chooses: 4,096 of 1,000 bytes made an 8.3 MB guard request (GUARD-15).
      *kind = "name-bomb";
      std::string s = "{" + command;
      for (size_t i = 0, n = 1000 + rng() % 4096; i < n; ++i)
        s += ",\"n" + std::to_string(i) + std::string(200 + rng() % 1000, 'k') + "\":1";
      return s + "}";
    }
    case 13: {
      // Control characters cost six bytes each once escaped (4,096 such names made 53 MB).
      *kind = "escape-bomb";
      std::string s = "{" + command;
      for (size_t i = 0, n = 1000 + rng() % 100000; i < n; ++i)
        s += ",\"\\u0001\\u0002" + std::to_string(i) + "\":\"\\\"\\\\\\u001f\"";
      return s + "}";
    }
    case 14: {
      // What Python's json.dumps writes and no JSON parser takes: the members after it are lost
      // unless read as strings (GUARD-14).
      *kind = "non-json-numbers";
      static const char* const tokens[] = {"NaN", "Infinity", "-Infinity", "1e400", "-1e999", "undefined"};
      return "{\"score\":" + std::string(tokens[rng() % 6]) + "," + command + "}";
    }
    case 15: {
      *kind = "command-tail-past-cut";  // what runs last is after 70 KB of spaces
      return "{\"command\":\"echo " + std::string(70000 + rng() % 200000, ' ') + "; rm -rf ~\"}";
    }
    case 10: {
      *kind = "random";
      return random_value(rng, 6).dump(-1, ' ', false, json::error_handler_t::replace);
    }
    default: {
      *kind = "deep-and-huge";
      return "{" + command + ",\"p\":" + nest(300, false) + ",\"s\":\"" + std::string(1u << 20, 'x') + "\"}";
    }
  }
}

}  // namespace

Case make_adversarial_case(Host host, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Case c;
  std::string kind;
  const std::string tool_input = adversarial_tool_input(rng, &kind);
  c.mutation = "adversarial:" + kind;
  c.event = std::string(pinta::hosts::descriptor(host).gate_event);
  // One run in three writes the tool name after the arguments, as Antigravity does (sorted keys:
  // toolCall.args before toolCall.name), so that what becomes of the arguments (cut at the cap,
  // refused, never finished) cannot take the name with it (GUARD-14).
  const bool name_last = rng() % 3 == 0;
  if (name_last) c.mutation += "+name-last";
  if (host == Host::kGemini) {
    // Gemini CLI 0.61 writes createBaseInput's fields, then tool_name, then tool_input (GEM§7).
    const std::string head = R"({"session_id":"s","transcript_path":"/t.json","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z",)";
    c.stdin_bytes = name_last ? head + R"("tool_input":)" + tool_input + R"(,"tool_name":"run_shell_command"})"
                              : head + R"("tool_name":"run_shell_command","tool_input":)" + tool_input + "}";
  } else if (host == Host::kAntigravity) {
    const std::string head = R"({"conversationId":"c","workspacePaths":["/w"],"toolCall":{)";
    c.stdin_bytes = name_last ? head + R"("args":)" + tool_input + R"(,"name":"run_command"}})"
                              : head + R"("name":"run_command","args":)" + tool_input + "}}";
  } else {
    // Any other family: its payload shape from the registry (pinta/hosts/family.h), the tool
    // name before the arguments. A family whose tool input is the rest of the object
    // (deel-local-cli) gets the arguments as one member.
    const auto& sh = pinta::hosts::descriptor(host).payload;
    auto key = [](std::string_view k) { return json(std::string(k)).dump(); };
    std::string head = "{";
    if (!sh.event_key.empty()) head += key(sh.event_key) + ":" + key(c.event) + ",";
    if (!sh.session_id.empty()) head += key(sh.session_id) + R"(:"s",)";
    if (!sh.cwd.empty() && !sh.cwd_first_of_array) head += key(sh.cwd) + R"(:"/w",)";
    if (!sh.tool_call_id.empty()) head += key(sh.tool_call_id) + R"(:"toolu_1",)";
    const std::string name = key(sh.tool_name) + R"(:"Bash")";
    const std::string input =
        (sh.tool_input.empty() ? std::string(R"("input")") : key(sh.tool_input)) + ":" + tool_input;
    std::string tool = name_last ? input + "," + name : name + "," + input;
    c.stdin_bytes = sh.tool_object.empty() ? head + tool + "}"
                                           : head + key(sh.tool_object) + ":{" + tool + "}}";
  }
  if (rng() % 8 == 0) c.stdin_bytes = "\xEF\xBB\xBF" + c.stdin_bytes;
  if (rng() % 2 == 0) c.stdin_bytes += "\n";
  switch (rng() % 6) {
    case 0: c.mode = Stdin::kOpen; break;  // the Antigravity app keeps stdin open (AGY§5.4)
    case 1:
      c.mode = Stdin::kDripped;
      c.drip_chunk = c.stdin_bytes.size() > 64 * 1024 ? 256 * 1024 : 1 + rng() % 4096;
      break;
    case 2:
      c.mode = Stdin::kClosed;
      c.capped_home = true;  // PINTA_MAX_INPUT_BYTES=4096: the input cap cuts the arguments
      break;
    default: c.mode = Stdin::kClosed; break;
  }
  // A deny-all guard, also behind a body limit or answering its DENY decorated (GUARD-16, GUARD-6).
  static constexpr GuardMode kDenyModes[] = {kGuardDeny, kGuardDeny, kGuardDenyCapped, kGuardDenyDecorated};
  c.guard = kDenyModes[rng() % 4];
  c.guard_timeout_ms = 5000;
  return c;
}

}  // namespace pinta::fuzz::campaign
