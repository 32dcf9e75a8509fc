// File: pinta/hosts/family_model.h
// What each family's folder implements for the host models (pinta::hosts): the meaning of a reply
// object on an event (the shape layer of the reply check), the host's "no objection" reply, and
// the words for what the host did. One object per family, `pinta::hosts::<folder>::kModel` in
// hosts/<folder>/src/model.cc, collected through families.def (hosts/src/hosts.cc); every field
// is Required, so a family without one does not build. Written from the host references, never
// from the adapter's replies: a check of the adapter against these is a check against the hosts.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pinta/hosts/family_types.h"
#include "pinta/hosts/reply_check.h"

namespace pinta::hosts {

struct FamilyModel {
  // What a reply object means on `event` (framing already checked by the family's reading):
  // "" and *kind set when valid here, else why not. An exit-code host reads no JSON: its shape
  // rejects any object it is given.
  Required<std::string (*)(std::string_view event, const nlohmann::json& reply, ReplyKind* kind)>
      shape;
  // The "no objection" reply this host needs on this event ({} stands for no output).
  Required<nlohmann::json (*)(std::string_view event)> allow_reply;
  // One line saying what the host does for an effect kind its emulator reports (message: the
  // effect's message; error: the host's hook error text, "" when none).
  Required<std::string (*)(std::string_view event, const std::string& kind,
                           const std::string& message, const std::string& error)>
      describe_effect;
  // Whether effect `got` is the same fail-safe outcome as `want` on this host.
  Required<bool (*)(const std::string& got, const std::string& want)> same_failsafe;
};

// The model of a registered family.
const FamilyModel& model(Family f);

// Effect words shared by the families' models: one line, at most n bytes ("..." marks a cut).
std::string clip_line(std::string s, std::size_t n);

}  // namespace pinta::hosts
