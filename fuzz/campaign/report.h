// Reporting a finding: in --out, <n>-<violation>.json (what was observed), .bin (the stdin bytes)
// and INPUT/INPUT-9<nnn>.case.json, a conformance case that `conformance run --cases <out>`
// replays.
#pragma once

#include <string>

#include "campaign_case.h"
#include "execute.h"
#include "host_table.h"
#include "pinta/fuzz/campaign.h"

namespace pinta::fuzz::campaign {

void save(const Options& o, pinta::fuzz::Host host, int n, const std::string& v, const Case& c,
          const Observed& ob);

}  // namespace pinta::fuzz::campaign
