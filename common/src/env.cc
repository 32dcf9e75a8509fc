#include "pinta/common/env.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string_view>
#include <vector>

extern char** environ;

namespace pinta::env {
namespace {

// Below this many entries the walk is cheaper than keeping an index.
constexpr size_t kIndexFrom = 256;
constexpr uint32_t kEmpty = UINT32_MAX;

std::string_view name_of(const char* entry) {
  const char* eq = std::strchr(entry, '=');
  return eq != nullptr ? std::string_view(entry, static_cast<size_t>(eq - entry)) : std::string_view(entry);
}

size_t hash_of(std::string_view name) { return std::hash<std::string_view>{}(name); }

struct Index {
  struct Slot {
    uint32_t entry = kEmpty;  // environ[entry] held the name when the index was built
    uint32_t hash = 0;        // the low bits of that name's hash
  };
  char** built_for = nullptr;
  size_t count = 0;
  std::vector<Slot> slots;  // open addressing: the first environ entry of each name

  // Whether environ is still the array this index was built from, with the same length.
  bool current() const {
    return built_for != nullptr && environ == built_for && environ[count] == nullptr &&
           environ[count - 1] != nullptr;
  }

  void build(size_t n) {
    built_for = environ;
    count = n;
    size_t cap = 16;
    while (cap < 2 * n) cap <<= 1;
    slots.assign(cap, Slot{});
    for (size_t i = 0; i < n; ++i) {
      const std::string_view name = name_of(environ[i]);
      const size_t h = hash_of(name);
      size_t at = h & (cap - 1);
      bool dup = false;
      while (slots[at].entry != kEmpty) {
        if (name_of(environ[slots[at].entry]) == name) {
          dup = true;  // getenv answers the first one
          break;
        }
        at = (at + 1) & (cap - 1);
      }
      if (!dup) slots[at] = Slot{static_cast<uint32_t>(i), static_cast<uint32_t>(h)};
    }
  }

  // The value of `name`; `stale` is set when an entry no longer holds the name it was indexed
  // under (an unsetenv and a setenv in between left the length and the array as they were).
  const char* find(std::string_view want, bool& stale) const {
    const size_t h = hash_of(want), mask = slots.size() - 1;
    for (size_t at = h & mask;; at = (at + 1) & mask) {
      const Slot& s = slots[at];
      if (s.entry == kEmpty) return nullptr;
      const char* entry = environ[s.entry];
      const std::string_view have = name_of(entry);
      if (static_cast<uint32_t>(hash_of(have)) != s.hash) {
        stale = true;
        return nullptr;
      }
      if (s.hash == static_cast<uint32_t>(h) && have == want)
        return entry[want.size()] == '=' ? entry + want.size() + 1 : nullptr;
    }
  }
};

Index& index() {
  static Index idx;  // NOLINT: process-wide, like environ itself
  return idx;
}

// The environ last seen small (and its length): getenv directly, without counting it again on
// every call (the usual case: a few dozen lookups per event in an environment of a few dozen).
struct Small {
  char** seen = nullptr;
  size_t count = 0;
  bool current() const {
    return seen != nullptr && environ == seen && count > 0 && environ[count] == nullptr &&
           environ[count - 1] != nullptr;
  }
};

}  // namespace

const char* get(const char* name) {
  if (name == nullptr || environ == nullptr) return nullptr;
  static Small small;  // NOLINT: process-wide, like environ itself
  if (small.current()) return std::getenv(name);  // NOLINT(concurrency-mt-unsafe)
  Index& idx = index();
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (attempt == 1 || !idx.current()) {
      size_t n = 0;
      while (environ[n] != nullptr) ++n;
      if (n < kIndexFrom) {
        idx.built_for = nullptr;
        small = n > 0 ? Small{environ, n} : Small{};
        break;
      }
      small = Small{};
      idx.build(n);
    }
    bool stale = false;
    const char* v = idx.find(name, stale);
    if (!stale) return v;
  }
  return std::getenv(name);  // NOLINT(concurrency-mt-unsafe): single-threaded callers
}

}  // namespace pinta::env
