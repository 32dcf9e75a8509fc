// The model side of a scripted headless session (session.cc run_session): the events a scripted
// model fires in one headless run, the requests and responses the model hooks see, and the text of
// a hook's synthetic answer.
#include <algorithm>

#include "session_parts.h"

namespace pinta::emu::gemini::session_detail {

// The events one headless `gemini -p` run fires for a scripted model (§6 "Order in one headless
// run", exp e01_payload): SessionStart(startup), then one agent iteration: BeforeAgent, per model
// call PreCompress(auto), BeforeModel, BeforeToolSelection, AfterModel once per streamed chunk,
// and for a function call BeforeTool + AfterTool; a call that answers without a function call ends
// the iteration with AfterAgent. The turns left over form further iterations ("iteration" k), which
// run only when the previous AfterAgent blocks: core client.js sendMessageStream re-enters with the
// block reason as the prompt and stopHookActive (BeforeAgent fires again; session lane u28).
// Finally SessionEnd(exit). The last AfterModel of each call carries the call's response text as
// core turn.js getResponseText builds it: the chunks' non-thought text joined by ' ' (a thought-only
// or function-call chunk gives ''), which AfterAgent's prompt_response accumulates (client.js).
ojson expand_model_turns(const ojson& turns) {
  ojson ev = ojson::array();
  int iteration = 0;
  auto add = [&](const char* name) {
    ojson e = ojson::object();
    e["event"] = name;
    e["iteration"] = iteration;
    ev.push_back(e);
    return ev.size() - 1;
  };
  add("SessionStart");
  size_t t = 0;
  do {
    add("BeforeAgent");
    while (t < turns.size()) {
      const ojson& turn = turns[t++];
      add("PreCompress");
      add("BeforeModel");
      add("BeforeToolSelection");
      int chunks = turn.is_object() ? std::max(turn.value("chunks", 1), 1) : 1;
      const bool has_call = turn.is_object() && turn.contains("function_call") &&
                            turn["function_call"].is_object();
      size_t last = 0;
      for (int i = 0; i < chunks; ++i) {
        last = add("AfterModel");
        // The chunk's part as the hook sees it (hookTranslator toHookLLMResponse): the lane's
        // thought chunks "Thinking (k)." (session_lane fake_responses), then the turn's text; a
        // function-call chunk has no text part.
        if (i + 1 < chunks)
          ev[last]["chunk"] =
              ojson::object({{"text", "Thinking (" + std::to_string(i + 1) + ")."}, {"thought", true}});
        else if (!has_call && turn.is_object())
          ev[last]["chunk"] = ojson::object({{"text", turn.value("text", "Done.")}});
        else
          ev[last]["chunk"] = ojson::object();
      }
      std::string text(static_cast<size_t>(chunks - 1), ' ');
      if (!has_call && turn.is_object()) text += turn.value("text", "Done.");
      ev[last]["response_text"] = text;
      if (!has_call) break;
      const ojson& fc = turn["function_call"];
      for (const char* name : {"BeforeTool", "AfterTool"}) {
        size_t i = add(name);
        ev[i]["tool_name"] = fc.value("name", "write_file");
        ev[i]["tool_input"] = fc.contains("args") ? fc["args"] : ojson::object();
      }
    }
    add("AfterAgent");
    ++iteration;
  } while (t < turns.size());
  iteration = 0;
  add("SessionEnd");
  return ev;
}

void ModelRequests::push_message(const char* role, const std::string& content) {
  if (!content.empty()) history.push_back(ojson::object({{"role", role}, {"content", content}}));
}

void ModelRequests::open_iteration(int it, const std::string& user_text) {
  if (history_iteration >= it) return;
  const bool fresh = it == 0 || clear_history;
  if (clear_history) history = ojson::array();
  clear_history = false;
  if (!fresh) push_message("model", last_model_text);
  const std::string text = user_text + iteration_hook_context;
  if (fresh && separate_context) {
    push_message("user", context_text);
    push_message("user", text);
  } else {
    push_message("user", fresh ? context_text + text : text);
  }
  history_iteration = it;
  iteration_hook_context.clear();
}

ojson ModelRequests::llm_request() const {
  return ojson::object(
      {{"model", request_model},
       {"messages", history},
       {"config", ojson::object({{"temperature", 1}, {"topP", 0.95}, {"topK", 64}})}});
}

ojson ModelRequests::rewritten_messages(const ojson& base, const ojson& hook) const {
  if (replace_rewritten_messages || !base.is_array()) return hook;
  // The history here holds only text-carrying contents (one message each), so every base
  // message takes the next hook message while there is one.
  ojson merged = ojson::array();
  size_t i = 0;
  for (const auto& m : base) merged.push_back(i < hook.size() ? hook[i++] : m);
  for (; i < hook.size(); ++i) merged.push_back(hook[i]);
  return merged;
}

ojson ModelRequests::request_for(const std::string& name, int it, const std::string& user_text) {
  open_iteration(it, user_text);
  if (name == "BeforeModel") {
    last_model_text.clear();  // a new model call
    call_request = nullptr;
  }
  return call_request.is_null() ? llm_request() : call_request;
}

ojson ModelRequests::chunk_response(const ojson& c) {
  // toHookLLMResponse: text = the chunk's non-thought text, parts = every text part.
  ojson parts = ojson::array();
  std::string text;
  if (c.contains("text")) {
    parts.push_back(c["text"]);
    if (!c.value("thought", false)) text = c["text"].get<std::string>();
  }
  if (!text.empty()) last_model_text += text;
  ojson cand = ojson::object({{"content", ojson::object({{"role", "model"}, {"parts", parts}})},
                              {"finishReason", "STOP"},
                              {"index", 0}});
  return ojson::object({{"text", text}, {"candidates", ojson::array({cand})}});
}

// The text of a synthetic model answer (hookSpecificOutput.llm_response): its first candidate's
// text parts joined, thoughts left out.
std::string synthetic_answer_text(const ojson& lr) {
  std::string text;
  if (lr.contains("candidates") && lr["candidates"].is_array() &&
      !lr["candidates"].empty() && lr["candidates"][0].is_object() &&
      lr["candidates"][0].contains("content") &&
      lr["candidates"][0]["content"].is_object() &&
      lr["candidates"][0]["content"].contains("parts") &&
      lr["candidates"][0]["content"]["parts"].is_array())
    for (const auto& part : lr["candidates"][0]["content"]["parts"]) {
      if (part.is_string())
        text += part.get<std::string>();
      else if (part.is_object() && part.contains("text") && part["text"].is_string() &&
               !(part.contains("thought") && part["thought"] == true))
        text += part["text"].get<std::string>();
    }
  return text;
}

}  // namespace pinta::emu::gemini::session_detail
