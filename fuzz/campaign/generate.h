// Generation: the host's fixtures and, per run seed, one case (a fixture mutated or a payload
// generated, a stdin behaviour, an env file, a guard and a collector behaviour). A run is a
// function of its seed alone, so a campaign is reproducible whatever --jobs is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "campaign_case.h"
#include "host_table.h"

namespace pinta::fuzz::campaign {

struct Fixture {
  std::string event;
  std::string bytes;
};

// The family a campaign --host names: a host of the registry (gemini-0.61, agy-1.2, deel-1.17, …)
// or a family's name or --agent label (gemini, antigravity, agy, deel, claude-code, …); none for
// anything else.
std::optional<pinta::fuzz::Host> campaign_host(const std::string& name);

// fixtures/<family folder>/<version>/<Event>/*.json, sorted (event, bytes).
std::vector<Fixture> load_fixtures(const std::string& root, pinta::fuzz::Host host);

// The case of run seed `seed`; misbehave: the guard and collector behaviours are rolled too.
Case make_case(const std::vector<Fixture>& fixtures, pinta::fuzz::Host host, uint64_t seed,
               bool misbehave);

// The adversarial case of run seed `seed` (Options::adversarial): the host's gate event, its
// payload shaped as the host writes it (tool name before the arguments) with a generated hostile
// tool input, fed whole (the model writes the arguments, not the framing), against the deny guard.
Case make_adversarial_case(pinta::fuzz::Host host, uint64_t seed);

}  // namespace pinta::fuzz::campaign
