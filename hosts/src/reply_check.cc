// The reply check (see reply_check.h). Each rule names its evidence:
//   GEM  shared/reference/gemini-cli-0.61-hooks.md (Gemini CLI 0.61.0)
//   AGY  shared/reference/antigravity-hooks.md (agy 1.x / 2.0)
//   DEEL seed 004, deel-local-cli 1.17 package/src/safety/hooks.js, by line
//   SPEC seed 000, the prototype's SPEC
#include "pinta/hosts/reply_check.h"

#include "pinta/hosts/family_model.h"

#include <algorithm>

namespace pinta::hosts {
namespace {

using nlohmann::json;

// Other spellings of events (deel-local-cli's Korean names, DEEL l.213-218), from the registry.
std::string_view canonical(Family f, std::string_view e) { return canonical_event_name(f, e); }

// An exit-code host (ReplyReading::kExitStatus; deel-local-cli, DEEL l.444-453): 0 passes, 2 blocks at a blocking point
// with stdout as the message (l.452, l.504-511); any other status is a failure, which is
// fail-closed at blocking points (l.444-460). stdout and stderr of any run are shown to the user
// as a note (l.431-434), so an allow must print nothing.
void check_exit_status(Family f, std::string_view event, const HookResult& r, ReplyCheck* c) {
  c->reply = json::object();
  if (!r.exit_code) {
    c->framing = "no exit status (killed or still running)";
    return;
  }
  if (*r.exit_code == 0) {
    if (!r.out.empty()) c->framing = "stdout on an allow (shown to the user)";
    return;
  }
  const int block = descriptor(f).block_status;
  if (*r.exit_code != block) {
    c->framing = "exit " + std::to_string(*r.exit_code) + " (only 0 or " + std::to_string(block) +
                 ")";
    return;
  }
  if (r.out.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    c->framing = "exit " + std::to_string(block) + " without a reason on stdout";
    return;
  }
  if (!deny_meaningful(f, event)) {
    c->shape = "exit 2 on an event that is not a blocking point";
    return;
  }
  c->kind = ReplyKind::kDeny;
}

// A host that reads both (ReplyReading::kBoth, e.g. Claude Code: shared/reference/real-hosts.md
// "Claude Code 2.1.332", https://code.claude.com/docs/en/hooks "Exit code output"):
//  - exit block_status: a block with the message on the family's message stream where the event
//    can block; elsewhere the message is only shown;
//  - any other non-zero exit: a non-blocking error, shown to the user;
//  - exit 0: no output at all is "no objection"; otherwise exactly one JSON object line, whose
//    meaning is the family's (FamilyModel::shape).
void check_both(Family f, std::string_view event, const HookResult& r, ReplyCheck* c) {
  if (!r.exit_code) {
    c->framing = "no exit status (killed or still running)";
    return;
  }
  const FamilyDescriptor& d = descriptor(f);
  const int block = d.block_status;
  if (*r.exit_code == block) {
    c->reply = json::object();
    const std::string_view message =
        d.block_message == MessageStream::kStdout ? r.out : r.err;
    if (d.block_message != MessageStream::kNone &&
        message.find_first_not_of(" \t\r\n") == std::string_view::npos) {
      c->framing = "exit " + std::to_string(block) + " without a message on " +
                   (d.block_message == MessageStream::kStdout ? "stdout" : "stderr");
      return;
    }
    if (!deny_meaningful(f, event)) {
      c->shape = "exit " + std::to_string(block) + " on an event that cannot block";
      return;
    }
    c->kind = ReplyKind::kDeny;
    return;
  }
  if (*r.exit_code != 0) {
    c->framing = "exit " + std::to_string(*r.exit_code) + " (a non-blocking error, shown)";
    return;
  }
  if (r.out.empty()) {
    c->reply = json::object();
    return;
  }
  c->framing = check_json_line(r.out, &c->reply);
  if (!c->framing.empty()) return;
  c->shape = model(f).shape.value(event, c->reply, &c->kind);
}

}  // namespace

std::optional<Family> family_named(std::string_view name) { return family_by_name(name); }

const char* family_name(Family f) { return descriptor(f).name.data(); }

const std::vector<std::string>& events(Family f) {
  // The lists are pinta/hosts/events.h (with their evidence), through the family registry.
  static const auto lists = [] {
    std::array<std::vector<std::string>, kFamilyCount> v;
    for (const auto& d : families())
      v[static_cast<size_t>(d.id)].assign(d.events.begin(), d.events.end());
    return v;
  }();
  return lists[static_cast<size_t>(f)];
}

bool known_event(Family f, std::string_view event) {
  const auto& e = events(f);
  return std::find(e.begin(), e.end(), canonical(f, event)) != e.end();
}

bool gate_event(Family f, std::string_view event) { return is_gate_event(f, event); }

// The family's blocking events (GEM §6; AGY §7.1; DEEL l.221: 도구전 and 말전; Claude Code: the
// hooks reference's exit-code-2 table), from the registry.
bool deny_meaningful(Family f, std::string_view event) { return blocks_on(f, event); }

json allow_reply(Family f, std::string_view event) { return model(f).allow_reply.value(event); }

std::string check_json_line(std::string_view out, json* parsed) {
  if (out.empty()) return "stdout is empty";
  if (out.back() != '\n') return "stdout does not end with '\\n'";
  std::string_view body = out.substr(0, out.size() - 1);
  if (body.find('\n') != std::string_view::npos) return "stdout has more than one line";
  if (body.size() >= 3 && body.substr(0, 3) == "\xEF\xBB\xBF") return "stdout starts with a BOM";
  if (body.empty() || body.front() != '{' || body.back() != '}')
    return "stdout line is not exactly one JSON object (bytes around it)";
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded()) return "stdout line is not valid JSON";
  if (!j.is_object()) return "stdout JSON is not an object";
  if (parsed != nullptr) *parsed = std::move(j);
  return "";
}

ReplyCheck check_reply(Family f, std::string_view event, const HookResult& r) {
  ReplyCheck c;
  if (descriptor(f).reads == ReplyReading::kExitStatus) {
    check_exit_status(f, event, r, &c);
    return c;
  }
  if (descriptor(f).reads == ReplyReading::kBoth) {
    check_both(f, event, r, &c);
    return c;
  }
  // The JSON-line hosts read stdout only on exit 0 (Gemini CLI: GEM §4.5; Antigravity: AGY §6.2).
  if (!r.exit_code) {
    c.framing = "no exit status (killed or still running)";
    return c;
  }
  if (*r.exit_code != 0) {
    c.framing = "exit " + std::to_string(*r.exit_code);
    return c;
  }
  c.framing = check_json_line(r.out, &c.reply);
  if (!c.framing.empty()) return c;
  c.shape = model(f).shape.value(event, c.reply, &c.kind);
  return c;
}

}  // namespace pinta::hosts
