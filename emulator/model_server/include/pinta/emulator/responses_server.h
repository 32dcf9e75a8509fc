// File: pinta/emulator/responses_server.h
// A scripted OpenAI Responses API server: the third dialect of the scripted model server (Gemini:
// model_server.h, Anthropic: messages_server.h). Codex CLI 0.171.0 with a `[model_providers.X]`
// of `wire_api = "responses"` and `base_url = "http://127.0.0.1:PORT/v1"` sends only streaming
// `POST /v1/responses` requests with `Authorization: Bearer <env_key value>` and reads an SSE
// reply of response.created, response.output_item.added/done (with response.output_text.delta
// for text) and response.completed (shared/reference/real-hosts.md, "OpenAI Codex CLI 0.171.0 …
// offline"). Each accepted request consumes the next scripted turn; every request is recorded:
// its `input` carries the function_call_output items, i.e. the text the model was told after a
// tool call (what the Codex differential lane compares).
//
// Script (turns.json):
//   {"turns": [
//      {"content": [{"type":"text","text":"hi"},
//                   {"type":"function_call","name":"exec_command","arguments":{"cmd":"ls"},
//                    "id":"optional call_id"},        // arguments: an object or a JSON string
//                   {"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch…"}]},
//      {"error": {"code": 500, "message": "optional"}}]}  // 400 | 401 | 429 | 500
//   "whenExhausted": {"content":[...]}  // optional: the reply to every request beyond the script
//                                       // (default: a 500 error)
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pinta/common/result.h"

namespace pinta::emu {

struct ResponsesTurn {
  nlohmann::json output = nlohmann::json::array();  // Responses output items, ids filled in
  int error_code = 0;
  std::string error_message;
};

struct ResponsesScript {
  std::vector<ResponsesTurn> turns;
  bool has_when_exhausted = false;
  ResponsesTurn when_exhausted;
};

// Error kInvalidArgument/kParse names the offending field.
Result<ResponsesScript> parse_responses_script(const nlohmann::json& j);
Result<ResponsesScript> load_responses_script(const std::string& path);

// {"error":{"type","message","code"}} as the OpenAI API answers errors.
nlohmann::json openai_error(int code, const std::string& message = "");

// The SSE body of one scripted turn (each event `event: T\ndata: {"type":T,...}\n\n`).
std::string responses_sse(const ResponsesTurn& turn, const std::string& model);

struct ResponsesRequest {
  std::string method, path, query;
  bool api_key_present = false;  // a non-empty Bearer token (never stored)
  nlohmann::json body;           // null if not JSON
  int status = 0;
  int turn = -1;  // -1: none (rejected or beyond the script)
  std::string error;
  nlohmann::json to_json() const;
};

// The function_call_output / custom_tool_call_output items of a request body, in order, as
// {"call_id","output"} (output as sent: a string, or content items): what the model read back.
nlohmann::json responses_tool_outputs(const nlohmann::json& body);

class ResponsesServer {
 public:
  // Listens on 127.0.0.1:port (0: any free port) before returning. log_path: when non-empty, each
  // request is appended there as one JSON line.
  static Result<std::unique_ptr<ResponsesServer>> start(ResponsesScript script, int port = 0,
                                                        std::string log_path = "");
  ~ResponsesServer();
  ResponsesServer(const ResponsesServer&) = delete;
  ResponsesServer& operator=(const ResponsesServer&) = delete;
  int port() const;
  std::string base_url() const;  // http://127.0.0.1:PORT/v1 (what a provider's base_url names)
  std::vector<ResponsesRequest> requests() const;
  void stop();
  void wait();  // until stop()

 private:
  struct Impl;
  explicit ResponsesServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// What every `hostemu <family> model-server` of the Responses dialect starts:
// the script at script_path, on 127.0.0.1:port (0..65535; 0: any free port), log_path as in
// start(). Error kInvalidArgument/kParse names the script's problem or the port.
Result<std::unique_ptr<ResponsesServer>> start_responses_script(const std::string& script_path,
                                                                int port,
                                                                const std::string& log_path);

}  // namespace pinta::emu
