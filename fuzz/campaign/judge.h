// Judging: what the contract (docs/contract.md) says a run must have produced, by the one reply
// check (pinta/hosts/reply_check.h through host_table.h), and the minimisation of a finding.
#pragma once

#include <string>

#include "campaign_case.h"
#include "execute.h"
#include "host_table.h"
#include "pinta/fuzz/campaign.h"

namespace pinta::fuzz::campaign {

// The reply the host must get for this case: the guard's deny or ask when it was consulted and
// said so, the host's allow reply otherwise (compact JSON).
std::string expected_reply(pinta::fuzz::Host host, const Case& c, bool consulted);

// The first contract violation a run shows ("stderr-output", "reply-ignores-guard", ...), or "".
std::string violation(const Options& o, pinta::fuzz::Host host, const Case& c, const Observed& ob);

// Deletes chunks of stdin while the same violation still reproduces (bounded number of runs).
Case minimise(const Options& o, pinta::fuzz::Host host, World& w, Case c, const std::string& v);

}  // namespace pinta::fuzz::campaign
