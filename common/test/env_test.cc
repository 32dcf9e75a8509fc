// pinta::env::get agrees with getenv whatever happens to environ in between.
#include "pinta/common/env.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

extern char** environ;

namespace {

// Removes the test's variables again (setenv may have moved environ: it is not restored by
// pointer, which glibc may have freed).
struct EnvironGuard {
  std::vector<std::string> names;
  ~EnvironGuard() {
    for (const auto& n : names) ::unsetenv(n.c_str());
  }
};

void expect_same(const std::string& name) {
  const char* want = std::getenv(name.c_str());
  const char* got = pinta::env::get(name.c_str());
  if (want == nullptr) {
    EXPECT_EQ(got, nullptr) << name;
  } else {
    ASSERT_NE(got, nullptr) << name;
    EXPECT_STREQ(got, want) << name;
  }
}

// A large environment is indexed; setenv (new and existing names), unsetenv followed by setenv
// (same length, same array), putenv and a replaced environ array are all seen at once. Random
// operations, each followed by lookups of set, unset and removed names, compared with getenv.
TEST(Env, AgreesWithGetenvThroughEveryChange) {
  EnvironGuard g;
  for (int i = 0; i < 600; ++i) {
    g.names.push_back("PINTA_ENV_T" + std::to_string(i));
    ::setenv(g.names.back().c_str(), ("v" + std::to_string(i)).c_str(), 1);
  }
  std::mt19937 rng(7);
  std::vector<std::string> putenv_text;  // putenv keeps the pointer: the strings must live on
  putenv_text.reserve(2000);
  for (int step = 0; step < 2000; ++step) {
    const std::string& n = g.names[rng() % g.names.size()];
    switch (rng() % 4) {
      case 0: ::setenv(n.c_str(), std::to_string(step).c_str(), 1); break;
      case 1: ::unsetenv(n.c_str()); break;
      case 2: {
        ::unsetenv(n.c_str());
        const std::string& m = g.names[rng() % g.names.size()];
        ::setenv(m.c_str(), "again", 1);
        break;
      }
      default:
        putenv_text.push_back(n + "=p" + std::to_string(step));
        ::putenv(putenv_text.back().data());
    }
    for (int probe = 0; probe < 4; ++probe) expect_same(g.names[rng() % g.names.size()]);
    expect_same("PINTA_ENV_NEVER_SET");
    expect_same("PATH");
    if (HasFailure()) return;
  }
  // A replaced array (what the env-file loader does) is indexed again.
  char** const before = environ;
  std::vector<char*> copy;
  for (char** e = environ; *e != nullptr; ++e) copy.push_back(*e);
  std::string extra = "PINTA_ENV_EXTRA=yes";
  copy.push_back(extra.data());
  copy.push_back(nullptr);
  environ = copy.data();
  EXPECT_STREQ(pinta::env::get("PINTA_ENV_EXTRA"), "yes");
  expect_same(g.names[0]);
  environ = before;
  EXPECT_EQ(pinta::env::get("PINTA_ENV_EXTRA"), nullptr);
}

// An entry without '=' is not a variable (getenv's answer); a small environment is walked.
TEST(Env, EntriesWithoutAValueAndSmallEnvironments) {
  std::string plain = "PINTA_ENV_NOVALUE";
  std::vector<char*> small{plain.data(), nullptr};
  char** saved = environ;
  environ = small.data();
  EXPECT_EQ(pinta::env::get("PINTA_ENV_NOVALUE"), std::getenv("PINTA_ENV_NOVALUE"));
  std::vector<std::string> many;
  many.reserve(400);
  std::vector<char*> big;
  for (int i = 0; i < 400; ++i) {
    many.push_back("PINTA_ENV_B" + std::to_string(i) + "=" + std::to_string(i));
    big.push_back(many.back().data());
  }
  big.push_back(plain.data());
  big.push_back(nullptr);
  environ = big.data();
  EXPECT_EQ(pinta::env::get("PINTA_ENV_NOVALUE"), nullptr);
  EXPECT_STREQ(pinta::env::get("PINTA_ENV_B399"), "399");
  EXPECT_EQ(pinta::env::get(nullptr), nullptr);
  environ = saved;
}

}  // namespace
