// The Gemini CLI session lane, shared by `hostemu drift` (emulator/src/drift_cli.cc) and ctest
// emulator_gemini_real_session_test: lay out one scenario of emulator/hosts/gemini/test/sessions/
// in a fresh root, play it through the REAL CLI offline (`gemini -p --fake-responses`,
// shared/reference/real-hosts.md) or through `hostemu gemini session`, and compare the outcomes:
//   hooks       the lines the hooks appended to a log ("<event>:<tag>"), in order; lines of one
//               event are compared as a set unless the scenario is "ordered"
//   files       what the tools left in the workspace (.gemini/ excluded)
//   exit        the CLI's exit code vs the transcript's exit_code
//   stderr      the CLI's stderr minus start-up noise vs the transcript's stderr lines
//   hook_calls  the CLI's own record of each hook run (`gemini_cli.hook_call` in its local
//               telemetry outfile) vs the transcript's "hook_calls" (see project_hook_call)
//   payload     each hook's stdin (hook_call's hook_input) field by field, volatile values
//               normalized (see normalize_payload)
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace pinta::emu::session_lane {

using ojson = nlohmann::ordered_json;

// One side's directory: DIR/h (home), DIR/<workspace_name or w>, DIR/hooks.log (the recorder's
// log), DIR/telemetry.json (the real CLI's local telemetry outfile, when asked for).
struct Root {
  std::string dir, home, ws, log, telemetry;
};

// Writes settings, state, trusted folders, workspace settings, extensions and the recorder
// (`@REC@ TAG [JS-EXPR]`) for scenario `sc` under `dir`. With `telemetry`, the user settings also
// turn on local telemetry to Root::telemetry with prompt logging (which makes hook_call carry the
// hook's stdout, stderr and output).
Root lay_out(const ojson& sc, const std::string& dir, bool telemetry);

ojson model_turns(const ojson& sc);
std::string prompt_of(const ojson& sc);
// The --fake-responses file: one generateContentStream line per model call (real-hosts.md step 4).
std::string fake_responses(const ojson& turns);

std::vector<std::string> lines_of(const std::string& text);
std::string scrub(const std::string& text, const Root& r);
std::vector<std::string> real_stderr_lines(const std::string& err, const Root& r,
                                           const std::vector<std::regex>& extra_noise);
std::vector<std::string> normalize_lines(const ojson& arr, const Root& r);
// Splits every line after a leading match of one of `after` that does not end the line (again on
// the rest): the profile's "stderr_unglue", for a line written without its newline where what
// comes next on the stream is a matter of timing (docs/gemini-versions.md, feedback_newline).
// Applied to both sides alike.
void unglue_lines(std::vector<std::string>& lines, const std::vector<std::regex>& after);
std::vector<std::string> hook_lines(const Root& r, bool ordered);
std::map<std::string, std::string> workspace_files(const Root& r);

// The top-level JSON values of a stream of concatenated (pretty-printed) JSON documents, as the
// CLI's local file exporters write them. nullopt when the text is not such a stream.
std::optional<std::vector<ojson>> split_json_stream(const std::string& text);

// The timing-independent attributes of one hook_call record (either side), paths scrubbed:
//   hook_event_name, hook_type, hook_name, success, exit_code (absent = undefined: timeout or
//   spawn error), hook_output (parsed; absent = undefined), stdout, stderr, error.
// Left out: event.timestamp and duration_ms (timing), session.id / installation.id (random per
// run), the common attributes (interactive, auth_type: the same on every record of a run), and
// hook_input, the payload the hook was given: it carries the run's timestamp, session id and
// transcript path, and its tool_response holds the CLI's file diff, which the emulator does not
// reproduce; payloads are compared field by field by emulator_gemini_real_hook_test.
ojson project_hook_call(const ojson& attributes, const Root& r);
// Every gemini_cli.hook_call record of a telemetry outfile, projected, in file order.
std::optional<ojson> real_hook_calls(const std::string& outfile_text, const Root& r);

// The payload a hook was given (hook_call's hook_input: the event's input object, the same for
// every hook of the event, core hooks/hookEventHandler.js logHookExecution), with the values that
// differ on every run made stable so that two runs compare field by field:
//   paths under the root       @W@ / @H@ / @ROOT@ (scrub)
//   session_id                 "@SESSION_ID@" (random per run)
//   timestamp                  "@TIMESTAMP@" (an ISO-8601 time)
//   transcript_path            its file name's time and session-id parts: session-@TIME@-@ID@
//                              (the directory and the extension, .json or .jsonl, stay)
//   dates in the model context "@DATE@" (the <session_context> names today's date)
//   a 64-hex project folder    ".gemini/tmp/@PROJECT_HASH@" anywhere in the payload (before 0.29
//     after .gemini/tmp/         the folder is the SHA-256 of the project path, which differs
//                              between the two runs' roots; transcript_path, session context)
// Everything else — model names, message shapes, tool responses — is compared as it is.
ojson normalize_payload(const ojson& input, const Root& r);
// {"event", "input"} per hook_call record of a telemetry outfile, in file order (the input
// normalized); nullopt when the text is not a stream of JSON documents.
std::optional<ojson> real_payloads(const std::string& outfile_text, const Root& r);
// Every leaf where two payloads differ, as "PATH: real X emulator Y" (PATH a JSON pointer; an
// absent side prints as <absent>).
std::vector<std::string> payload_differences(const ojson& real, const ojson& emu);

struct Outcome {
  std::vector<std::string> hooks, stderr_lines;
  std::map<std::string, std::string> files;
  int exit_code = -1;
  std::optional<ojson> hook_calls;  // nullopt: not recorded (see Options::hook_calls)
  std::optional<ojson> payloads;    // [{event, input}] per hook_call, normalized; nullopt: none
  std::string failure;              // the side could not run at all
};

struct RealOptions {
  std::string cli;                      // path of the CLI's JS entry
  std::vector<std::regex> extra_noise;  // the profile's version-specific stderr noise
  bool hook_calls = true;               // run with local telemetry and read hook_call records
};

// Plays `sc` through the real CLI in a fresh root `dir`.
Outcome play_real(const ojson& sc, const std::string& dir, const RealOptions& o, Root* root_out);
// Plays `sc` through `hostemu gemini session` (with `profile_path` unless empty) in `dir`.
Outcome play_emulator(const ojson& sc, const std::string& dir, const std::string& hostemu,
                      const std::string& profile_path, Root* root_out);

// Every difference between the two outcomes, one line each ("what: real X emulator Y").
std::vector<std::string> compare(const Outcome& real, const Outcome& emu);

ojson to_json(const std::vector<std::string>& v);

}  // namespace pinta::emu::session_lane
