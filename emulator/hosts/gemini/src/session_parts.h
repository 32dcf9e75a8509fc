// The parts of a scripted headless session (session.cc, run_session) kept in sibling files: the
// profile switches a session reads and its start-up (session_startup.cc: what the CLI loads and
// prints before the first event, the model's session context), the model side (session_model.cc:
// the events a scripted model fires, the requests and responses the model hooks see) and the
// built-in tools it runs for real (session_tools.cc). Internal to pinta::emulator_gemini (not
// installed).
#pragma once

#include <string>
#include <vector>

#include "pinta/emulator/gemini/gemini.h"

namespace pinta::emu::gemini::session_detail {

// The version profile's switches a session reads (hosts/gemini/profiles/gemini-0.XX.json,
// `hostemu gemini session --profile`); absent or {} = the 0.61 behaviour. Each switch's evidence is
// the `hostemu drift` record cited in its profile (docs/gemini-versions.md).
struct Switches {
  ojson raw = ojson::object();  // the profile's "switches" object ({} without a profile)
  bool session_end_twice = false;
  bool log_stop_request = false;
  bool bare_stop_line = false;
  bool headless_trust_ignored = false;
  bool headless_settings_hooks_off = false;
  bool log_registry_size = false;
  bool bare_tool_error = false;
  bool single_log_stream = false;
  bool log_loading_extensions = false;
  bool warn_bad_enablement = true;
  bool tail_calls = true;
  bool nested_continuation = false;
  bool feedback_newline = true;
};
Switches read_switches(const ojson& script);

// A start-up feedback warning that the CLI writes without its newline (switch
// feedback_newline false) ends with this mark in the transcript's stderr lines until
// join_open_lines() glues the next line to it, as the real stream does.
inline constexpr char kOpenLineMark = '\x1e';
// Glues each line that ends with kOpenLineMark to the line after it (the mark dropped; a last
// open line just loses its mark).
void join_open_lines(ojson& stderr_lines);

// The hooks a session loads: the script's home, workspace, trust and system settings under the
// switches, the CLI's environment from `base`.
LoadResult load_for_session(const std::string& home, const std::string& workspace,
                            const ojson& script, const RunContext& base, const Switches& sw);

// The lines the CLI prints on stderr at start-up, after the config load and before the first
// event (extensions, enablement, registry warnings, the project-hooks warning, the registry size),
// appended to `stderr_lines` in the CLI's order; records the project hooks it warned about.
void startup_lines(const std::string& home, const std::string& workspace, const ojson& script,
                   const Switches& sw, const LoadResult& loaded, ojson& stderr_lines);

// The workspace's base name as the project slug of the CLI's temp dir (config/projectRegistry.js
// slugify).
std::string project_slug(const std::string& workspace);

// The project's folder name under ~/.gemini/tmp: its slug, or the SHA-256 of the workspace path
// under switch project_temp_dir "sha256" (< 0.29).
std::string project_temp_folder(const std::string& workspace, const Switches& sw);

// The environment context the CLI puts first in the chat history (session_startup.cc); the
// pre-0.29 wording with `working_dir_text` (switch session_context_text "working_dir").
std::string session_context(const std::string& workspace, const std::string& project_temp,
                            bool working_dir_text = false);

// The model side (session_model.cc). The events one headless run fires for a scripted model.
ojson expand_model_turns(const ojson& turns);

// The request the model hooks see (hookTranslator toHookLLMRequest, 0.61.0): the history's
// contents with their text parts joined ('' between parts), contents without text (function
// calls and responses) left out; the model from the settings (the lane's fixed
// gemini-2.5-flash) and the generation config of that model. The first user content is the
// session context followed by the prompt and any BeforeAgent <hook_context> (one message;
// profile switch session_context_message "separate": two user messages, releases up to 0.52).
struct ModelRequests {
  std::string context_text;
  bool separate_context = false;
  std::string request_model;
  ojson history = ojson::array();
  int history_iteration = -1;
  std::string iteration_hook_context;
  std::string last_model_text;
  bool clear_history = false;  // an AfterAgent block asked for clearContext
  // A BeforeModel answer's hookSpecificOutput.llm_request rewrites the call's request: its
  // messages are merged into the history's (rewritten_messages), its model and config fields
  // override (core hooks/hookTranslator.js fromHookLLMRequest); the rest of that call
  // (BeforeToolSelection, AfterModel) sees the rewritten one (lane u06 on the real 0.61.0).
  ojson call_request;
  bool replace_rewritten_messages = false;  // switch llm_request_rewrite "replace" (< 0.42)
  // The messages of a rewritten request: 0.42+ merge the hook's messages into the request's in
  // place, the i-th hook message replacing the i-th text-carrying content, contents past the
  // hook's messages kept, extra hook messages appended (core 0.61.0
  // hooks/hookTranslator.js:118-200; 0.42.0 bundle chunk-DN4XSYRG.js:298171-298225). So a
  // one-message rewrite of a history whose session context is its own message (0.42-0.52) leaves
  // the prompt after it (bisect boundary 0.42.0, u06 AfterModel). Before 0.42 the hook's messages
  // replace the contents (0.41.2 bundle chunk-Z7C7OBI2.js:295558-295566).
  ojson rewritten_messages(const ojson& base, const ojson& hook) const;

  void push_message(const char* role, const std::string& content);
  // Opens iteration `it` of the history once: the previous answer, then the user's text.
  void open_iteration(int it, const std::string& user_text);
  ojson llm_request() const;
  // The request a model event of iteration `it` carries; BeforeModel starts a new model call.
  ojson request_for(const std::string& name, int it, const std::string& user_text);
  // The response an AfterModel chunk carries, its text added to the call's answer.
  ojson chunk_response(const ojson& c);
};

// The text of a synthetic model answer (hookSpecificOutput.llm_response): its first candidate's
// text parts joined, thoughts left out.
std::string synthetic_answer_text(const ojson& lr);

struct ToolRun {
  bool ok = false;
  std::string error;  // the tool error the CLI reports ("Error executing tool T: <error>")
  ojson response;     // AfterTool tool_response {llmContent, returnDisplay}
};

// Runs a built-in tool the differential lane's scenarios call, for real, in the workspace
// (session_tools.cc). `write_file_response` is the profile switch of that name: how write_file
// reports a new file ("build_flag" 0.61, "snippet" 0.31-0.60, "plain" < 0.31).
ToolRun run_builtin_tool(const std::string& name, const ojson& args, const std::string& workspace,
                         bool modified, const std::string& write_file_response = "build_flag");

}  // namespace pinta::emu::gemini::session_detail
