// File: pinta/conformance/features.h
// How a case selects the hosts it runs under, by what a host family can do rather than by name.
//
// A shared case (conformance/cases/<AREA>/) states "requires": [features]; it runs under every
// graded host whose family has them all, so a family added to the registry (pinta/hosts/family.h)
// inherits every shared case it can run with no edit to a case file. Each feature is computed
// from the family's descriptor, never listed per family. A shared case names its events by
// meaning ("event": "gate"), resolved through the same descriptor. A case that holds one family's
// own rules names that family and lives in its folder (conformance/cases/<family>/<AREA>/); see
// docs/contract.md "How cases select hosts".
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pinta/hosts/family.h"

namespace pinta::conformance {

// A property of a host family a case may require.
struct Feature {
  std::string_view name;     // as written in "requires"
  std::string_view meaning;  // one line, for the docs and errors
  bool (*has)(const pinta::hosts::FamilyDescriptor& d);
};

// Every feature, in documentation order.
std::span<const Feature> features();
// The feature named `name`, or nullptr (an unknown feature is a load error).
const Feature* find_feature(std::string_view name);
// Whether the family has every feature named in `required` (names must be known).
bool has_features(const pinta::hosts::FamilyDescriptor& d,
                  const std::vector<std::string>& required);

// An event named by its meaning in a shared case ("event": "gate"). A role resolves to one event
// of the family, or (`many`) to a sequence of events the case is run through, one run each.
struct EventRole {
  std::string_view name;
  std::string_view meaning;
  std::string_view feature;  // the feature a case needs to name this role ("" none)
  bool many;                 // a sequence of events (the case's runs), not one event
  std::vector<std::string> (*events)(const pinta::hosts::FamilyDescriptor& d);
};

std::span<const EventRole> event_roles();
// The role named `name`, or nullptr (a literal event name, as family cases and the protocol
// profile give them).
const EventRole* find_event_role(std::string_view name);

// The event that opens a shared case's "unknown-event" role: no registered family sends it.
inline constexpr std::string_view kUnknownEvent = "NoSuchEvent";

}  // namespace pinta::conformance
