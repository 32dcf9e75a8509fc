// The generated case catalogue (conformance/src/case.cc): the shared cases' page
// (render_cases_doc, conformance.h) and each family's page, docs/conformance-cases/<folder>.md.
#pragma once

#include <string>
#include <vector>

#include "pinta/conformance/conformance.h"

namespace pinta::conformance {

// One family's page: its hosts, its own cases and the hosts of it that grade each shared case.
std::string render_family_cases_doc(const std::vector<Case>& cases,
                                    const pinta::hosts::FamilyDescriptor& d);

}  // namespace pinta::conformance
