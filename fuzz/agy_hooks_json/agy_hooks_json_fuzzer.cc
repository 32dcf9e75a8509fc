// Harness: Antigravity hooks.json loader (pinta/emulator/antigravity/antigravity.h
// parse_hooks_json, lint), under every shipped profile plus strict/lenient variants.
// Properties, for any file text:
//  1. total: returns a value or an Error (never throws, crashes or hangs); an error is kParse
//     with a one-line message naming the path (agy's "failed to parse hooks.json at <path>");
//  2. deterministic: the same text and profile give the same result, field for field;
//  3. well-formed result: hooks sorted by name and unique, every handler has a positive timeout
//     (<=0 defaults to the profile's, reference §2.6)
//     and a type from command|prompt;;
//  4. lint() is total over all profiles and returns one report object.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "agy_profiles.h"
#include "fuzz_support.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace {

namespace agy = pinta::emu::agy;

const std::vector<agy::Profile>& profiles() {
  static const std::vector<agy::Profile> all =
      pinta::fuzz::load_agy_profiles(pinta::fuzz::Synthetic::kLenientAndStrict);
  return all;
}

nlohmann::json dump(const pinta::Result<agy::HooksFile>& r) {
  if (!r) return {{"error", static_cast<int>(r.error().code)}, {"message", r.error().message}};
  nlohmann::json hooks = nlohmann::json::array();
  for (const auto& h : r->hooks) {
    nlohmann::json events = nlohmann::json::array();
    for (const auto& e : h.events) {
      nlohmann::json groups = nlohmann::json::array();
      for (const auto& g : e.groups) {
        nlohmann::json handlers = nlohmann::json::array();
        for (const auto& x : g.hooks) handlers.push_back({x.type, x.command, x.timeout_seconds});
        groups.push_back({g.matcher, handlers, g.flat_handler_keys});
      }
      events.push_back({agy::event_name(e.event), groups});
    }
    hooks.push_back({h.name, h.enabled, events});
  }
  nlohmann::json notes = nlohmann::json::array();
  for (const auto& n : r->notes) notes.push_back({n.hook, n.message});
  return {{"hooks", hooks}, {"notes", notes}};
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  pinta::fuzz::use_profiles_next_to_binary(*argc, *argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const auto& p : profiles()) {
    auto r = agy::parse_hooks_json(text, p, "/fuzz/hooks.json");
    auto again = agy::parse_hooks_json(text, p, "/fuzz/hooks.json");
    const nlohmann::json a = dump(r), b = dump(again);
    FUZZ_CHECK(a == b, "not deterministic under " + p.name);
    if (!r) {
      FUZZ_CHECK(r.error().code == pinta::ErrorCode::kParse,
                 "error code is not kParse: " + r.error().message);
      FUZZ_CHECK(r.error().message.find("/fuzz/hooks.json") != std::string::npos,
                 "error does not name the path");
      FUZZ_CHECK(r.error().message.find('\n') == std::string::npos, "error spans lines");
      continue;
    }
    for (size_t i = 0; i < r->hooks.size(); ++i) {
      const auto& h = r->hooks[i];
      if (i > 0)
        FUZZ_CHECK(r->hooks[i - 1].name < h.name, "hooks not sorted/unique under " + p.name);
      for (const auto& e : h.events) {
        for (const auto& g : e.groups) {
          for (const auto& x : g.hooks) {
            FUZZ_CHECK(x.timeout_seconds > 0, "non-positive timeout in " + h.name);
            FUZZ_CHECK(x.type == "command" || x.type == "prompt", "handler type " + x.type);
          }
        }
      }
    }
  }
  if (size < 4096) {
    nlohmann::json report = agy::lint(profiles(), text, "/fuzz/hooks.json");
    FUZZ_CHECK(report.is_object() || report.is_array(), "lint did not return a report");
  }
  return 0;
}
