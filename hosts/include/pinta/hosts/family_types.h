// File: pinta/hosts/family_types.h
// What a host family is, as types: the `Family` enumeration (expanded from hosts/families.def)
// and the descriptor every family fills in its own folder
// (hosts/<folder>/include/pinta/hosts/<folder>/family.h). The registry that collects the
// descriptors is pinta/hosts/family.h.
//
// Fields a family must state are `Required<T>`: a descriptor that leaves one out does not
// compile. There is no default reply, no default reading, no default host list: a deny the host
// cannot read is an allow.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <span>
#include <string_view>

namespace pinta::hosts {

// The registered families, in registration (report) order. The value indexes kFamilies.
enum class Family : unsigned char {
#define PINTA_FAMILY(Id, folder, name) k##Id,
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
};

// A descriptor field with no default: an aggregate initializer that leaves it out is ill-formed
// (no default constructor), so a family cannot silently inherit some other family's behaviour.
template <class T>
struct Required {
  T value;
  template <class U>
    requires std::constructible_from<T, U&&>
  constexpr Required(U&& v) : value(static_cast<U&&>(v)) {}  // NOLINT(google-explicit-constructor)
  constexpr operator T() const { return value; }  // NOLINT(google-explicit-constructor)
};

// How the host reads a hook's reply.
enum class ReplyReading : unsigned char {
  kJsonStdout,  // exactly one JSON object on stdout (exit 0); other exits are failures
  kExitStatus,  // the exit status decides (0 passes, block_status blocks); the message is text
  kBoth,        // exit 0 + optional JSON on stdout, or block_status with the message stream
};
// Which stream carries the message of a blocking exit status.
enum class MessageStream : unsigned char { kNone, kStdout, kStderr, kStdoutAndStderr };

// Another spelling of an event the host accepts in its hook file (deel-local-cli: Korean).
struct EventAlias {
  std::string_view alias;
  std::string_view event;
};

// What the adapter prints on one event: the allow (also the fail-safe reply) and whether a deny
// is meaningful and safe there, with the evidence. One row per event the host sends (checked at
// compile time in family.h).
struct EventReply {
  std::string_view event;   // the host's own event name, case-sensitive
  bool deny_allowed;        // a deny reply is meaningful and safe on this event
  std::string_view allow;   // allow / no-opinion reply, also the fail-safe reply ("" = no output)
  std::string_view evidence;
};

// How the adapter words a verdict for the host. Templates: `{E}` is the event name and `{R}` the
// reason, each as a JSON string; `{T}` is the reason as plain text (an exit-code host prints it
// as the block message). The deny is printed on events whose EventReply allows it; the ask on the
// gate event only.
struct ReplyForms {
  Required<std::string_view> deny;
  Required<std::string_view> ask;          // "" = no native ask (the allow reply is printed)
  // What a blank reason (spaces, tabs, newlines only) becomes in a JSON deny; "" keeps it.
  Required<std::string_view> blank_deny_reason;
  // The reply for an event the host is not known to send ("" = no output).
  Required<std::string_view> unknown_event;
};

// A folder in the transcript path that names the host's product.
struct ProductMarker {
  std::string_view folder;
  std::string_view product;
};

// Where the payload's common fields are. "" = the host does not send it.
struct PayloadShape {
  std::string_view event_key;        // the event name inside the payload (never used to decide)
  std::string_view session_id;
  std::string_view cwd;
  bool cwd_first_of_array = false;   // cwd is the first string of an array (workspacePaths)
  std::string_view transcript_path;
  std::string_view tool_object;      // the member holding the tool call; "" = top level
  std::string_view tool_name;
  std::string_view tool_input;       // "" = every member but event_key and tool_name (deel)
  std::string_view tool_call_id;     // the host's id of the tool call
  std::string_view turn_start_event; // the event that opens a user turn (a new trace)
  // The tool arguments that say what runs or what is touched (a command, a path, written text,
  // a URL): the guard request gives them its byte budget first, whatever the key order
  // (docs/contract.md GUARD-15).
  std::span<const std::string_view> command_args;
  // A counter on turn_start_event that is 0 on the turn's first firing only ("" = every firing
  // opens a turn).
  std::string_view turn_start_counter = {};
  // The model's name, when the payload carries one (the provider is read from it).
  std::string_view model_name = {};
  // Top-level members passed to the guard as sent (bounded like the tool input): an object
  // `context_object` (as "mcpContext") and a string `original_name` (as "originalRequestName").
  std::string_view context_object = {};
  std::string_view original_name = {};
  // The product is read from the transcript path (`<prefix>.product`, the guard's `product`):
  // the first marker whose folder is a whole component of the path names it, else "unknown".
  // Empty: the family has no product attribute.
  std::span<const ProductMarker> products = {};
  // Where the host hands a hook its W3C trace context, the `traceparent` of the host's own span
  // (our span becomes its child, docs/contract.md TRACE-4): an environment variable of the hook
  // process and/or a top-level string member of the payload ("" = not sent). When both hold a
  // valid value the environment's wins.
  std::string_view trace_parent_env = {};
  std::string_view trace_parent_key = {};
  // The tool input may arrive as the JSON text of an object (a string member) instead of the
  // object: it is read as the object it encodes, so the guard sees the arguments themselves.
  bool tool_input_json_text = false;
};

// A host program that runs hooks in a print (non-interactive) mode where a native "ask" cannot be
// answered: its argv[0] base name and the flags (also as `flag=value`, before `--`) that select
// it. Empty program: the host can always prompt.
struct PrintMode {
  std::string_view program = {};
  std::array<std::string_view, 4> flags = {};
};

// Where the host finds hook files (documentation and the doctor's wording; the loaders in
// hosts/<folder>/ implement it).
struct ConfigFiles {
  std::string_view user;      // the user's file
  std::string_view project;   // the project's / workspace's file(s)
  std::string_view override_env;  // environment variable that moves them ("" none)
  // What the user does after `install` for the host to read the new hooks ("" nothing).
  std::string_view after_install = {};
};

// How the family's hosts are listed: one host per version profile file in a data folder
// (pinta::data::find_dir(env, share, source)), or one fixed host.
struct HostSource {
  std::string_view fixed_host;       // "" = from profiles
  std::string_view profiles_env = {};    // environment variable naming the folder
  std::string_view profiles_share = {};  // under the installed share dir
  std::string_view profiles_source = {}; // under the source tree
};

struct FamilyDescriptor {
  Family id;
  std::string_view name;          // "gemini": --host in install, reports, family keys
  std::string_view display_name;  // the product (gen_ai.agent.name)
  // The `--agent` labels the adapter answers as this family, the first is the one `install`
  // writes. Exact and case-sensitive.
  std::array<std::string_view, 4> agent_labels;
  std::string_view folder;        // hosts/<folder>, emulator/hosts/<folder>
  std::string_view service_name;  // OTel resource service.name
  std::string_view prefix;        // span attribute prefix, ingest.type, guard `agent`
  std::string_view provider;      // gen_ai.provider.name when the host's provider is fixed
  std::span<const std::string_view> events;     // every event the host sends
  std::span<const std::string_view> installed;  // the events `install` registers
  std::span<const EventAlias> aliases;          // other spellings of the events
  std::span<const std::string_view> tool_events;  // events that carry a tool call
  std::string_view gate_event;    // the tool gate: before the tool runs, the guard decides
  std::span<const std::string_view> blocking_events;  // where the host honours a block
  PayloadShape payload;
  Required<ReplyReading> reads;
  int block_status;               // the exit status that blocks (0: none)
  MessageStream block_message;    // which stream carries the block message
  bool ask_on_gate;               // the host has a native "ask" on its gate event
  ConfigFiles config;
  std::string_view evidence;
  // The hook timeout `install` registers for our adapter, in ms (each host file states it in its
  // own unit); also what `hostemu replay` gives the adapter by default. It only bounds a hung
  // process: the adapter answers within its own budget.
  int install_timeout_ms;
  Required<std::span<const EventReply>> replies;  // one per event of `events`
  ReplyForms forms;
  Required<HostSource> hosts;
  PrintMode print_mode = {};
  // A payload shape per `--agent` label, indexed like agent_labels, for a host whose payload
  // depends on how the hook was registered rather than on the host (one host, two hook-file
  // formats); null: `payload`. The adapter reads the shape from the label alone, never from the
  // payload (the label is the user's file; a payload's keys are the model's to influence).
  std::array<const PayloadShape*, 4> label_payloads = {};
};

}  // namespace pinta::hosts
