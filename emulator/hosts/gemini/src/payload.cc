// The stdin object Gemini CLI 0.61.0 sends per event: core hooks/hookEventHandler.js
// createBaseInput + the fire*Event methods (§7 of gemini-cli-0.61-hooks.md; exp e01_payload).
// JSON.stringify drops undefined fields, so optional fields are only added when present.
#include "pinta/emulator/gemini/gemini.h"

namespace pinta::emu::gemini {
namespace {

ojson default_llm_request(const PayloadOptions& o) {
  // §7: {model, messages:[{role, content}], config:{...}} — text parts only, no toolConfig.
  ojson req = ojson::object();
  req["model"] = "gemini-2.5-flash";
  ojson msg = ojson::object();
  msg["role"] = "user";
  msg["content"] = o.prompt;
  req["messages"] = ojson::array({msg});
  req["config"] = ojson::object();
  return req;
}

ojson default_llm_response() {
  ojson part = ojson::array({"Done."});
  ojson content = ojson::object();
  content["role"] = "model";
  content["parts"] = part;
  ojson cand = ojson::object();
  cand["content"] = content;
  cand["finishReason"] = "STOP";
  cand["index"] = 0;
  ojson resp = ojson::object();
  resp["text"] = "Done.";
  resp["candidates"] = ojson::array({cand});
  return resp;
}

}  // namespace

ojson make_payload(std::string_view event, const PayloadOptions& o) {
  ojson p = ojson::object();
  // createBaseInput: session_id, transcript_path, cwd, hook_event_name, timestamp.
  p["session_id"] = o.session_id;
  p["transcript_path"] = o.transcript_path;
  p["cwd"] = o.cwd;
  p["hook_event_name"] = std::string(event);
  p["timestamp"] = o.timestamp.empty() ? now_iso8601() : o.timestamp;
  if (event == "BeforeTool" || event == "AfterTool") {
    p["tool_name"] = o.tool_name;
    p["tool_input"] = o.tool_input;
    if (event == "AfterTool") {
      if (o.tool_response.is_null()) {
        ojson tr = ojson::object();
        tr["llmContent"] = "Successfully created and wrote to new file.";
        tr["returnDisplay"] = "Successfully created and wrote to new file.";
        p["tool_response"] = tr;
      } else {
        p["tool_response"] = o.tool_response;
      }
    }
    if (o.mcp_context) p["mcp_context"] = *o.mcp_context;
    if (o.original_request_name) p["original_request_name"] = *o.original_request_name;
  } else if (event == "BeforeAgent") {
    p["prompt"] = o.prompt;
  } else if (event == "AfterAgent") {
    p["prompt"] = o.prompt;
    p["prompt_response"] = o.prompt_response;
    p["stop_hook_active"] = o.stop_hook_active;
  } else if (event == "SessionStart") {
    p["source"] = o.source;
  } else if (event == "SessionEnd") {
    p["reason"] = o.reason;
  } else if (event == "PreCompress") {
    p["trigger"] = o.trigger;
  } else if (event == "Notification") {
    p["notification_type"] = o.notification_type;
    p["message"] = o.message;
    p["details"] = o.details;
  } else if (event == "BeforeModel" || event == "BeforeToolSelection") {
    p["llm_request"] = o.llm_request.is_null() ? default_llm_request(o) : o.llm_request;
  } else if (event == "AfterModel") {
    p["llm_request"] = o.llm_request.is_null() ? default_llm_request(o) : o.llm_request;
    p["llm_response"] = o.llm_response.is_null() ? default_llm_response() : o.llm_response;
  }
  return p;
}

std::string stdin_bytes(const ojson& payload) {
  if (!payload.is_object()) return js_stringify(payload);
  // createBaseInput, then the event's fields (§7 table; make_payload above builds the same).
  static const std::vector<std::string> base = {"session_id", "transcript_path", "cwd",
                                                "hook_event_name", "timestamp"};
  static const std::map<std::string, std::vector<std::string>, std::less<>> by_event = {
      {"BeforeTool", {"tool_name", "tool_input", "mcp_context", "original_request_name"}},
      {"AfterTool",
       {"tool_name", "tool_input", "tool_response", "mcp_context", "original_request_name"}},
      {"BeforeAgent", {"prompt"}},
      {"AfterAgent", {"prompt", "prompt_response", "stop_hook_active"}},
      {"SessionStart", {"source"}},
      {"SessionEnd", {"reason"}},
      {"PreCompress", {"trigger"}},
      {"Notification", {"notification_type", "message", "details"}},
      {"BeforeModel", {"llm_request"}},
      {"BeforeToolSelection", {"llm_request"}},
      {"AfterModel", {"llm_request", "llm_response"}}};
  std::vector<std::string> order = base;
  auto ev = payload.find("hook_event_name");
  if (ev != payload.end() && ev->is_string())
    if (auto it = by_event.find(ev->get_ref<const std::string&>()); it != by_event.end())
      order.insert(order.end(), it->second.begin(), it->second.end());
  return js_stringify(pinta::hosts::node::keys_first(payload, order));
}

}  // namespace pinta::emu::gemini
