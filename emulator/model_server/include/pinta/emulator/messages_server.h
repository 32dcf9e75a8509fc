// File: pinta/emulator/messages_server.h
// A scripted Anthropic Messages API server: the second dialect of the scripted model server (the
// Gemini one is model_server.h). Claude Code 2.1.332 with ANTHROPIC_BASE_URL pointing here sends
// only streaming `POST /v1/messages?beta=true` requests and accepts an SSE reply of
// message_start, content_block_start/delta/stop, message_delta, message_stop
// (shared/reference/real-hosts.md, "Claude Code 2.1.332"). Each accepted request consumes the next
// scripted turn; every request is recorded (its body holds the tool_result texts the model is
// told, which is what the differential lane compares).
//
// Script (turns.json):
//   {"turns": [
//      {"content": [{"type":"text","text":"hi"},
//                   {"type":"tool_use","name":"Bash","input":{"command":"ls"}, "id": "optional"}],
//       "stopReason": "tool_use"},     // default: tool_use when a tool_use block is present, else end_turn
//      {"error": {"code": 529}}]}      // an Anthropic error envelope (400 | 401 | 429 | 500 | 529)
//   "whenExhausted": {"content":[...]} // optional: the reply to every request beyond the script
//                                      // (default: a 500 error envelope)
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pinta/common/result.h"

namespace pinta::emu {

struct MessagesTurn {
  nlohmann::json content = nlohmann::json::array();  // content blocks, ids filled in
  std::string stop_reason;                           // end_turn | tool_use | max_tokens ...
  int error_code = 0;
  std::string error_message;
};

struct MessagesScript {
  std::vector<MessagesTurn> turns;
  bool has_when_exhausted = false;
  MessagesTurn when_exhausted;
};

// Error kInvalidArgument/kParse names the offending field.
Result<MessagesScript> parse_messages_script(const nlohmann::json& j);
Result<MessagesScript> load_messages_script(const std::string& path);

// {"type":"error","error":{"type","message"}} as the Messages API answers errors.
nlohmann::json anthropic_error(int code, const std::string& message = "");

// The SSE body of one scripted turn (the events listed above, each `event: X\ndata: {...}\n\n`).
std::string messages_sse(const MessagesTurn& turn, const std::string& model);

struct MessagesRequest {
  std::string method, path, query;
  bool api_key_present = false;
  nlohmann::json body;  // null if not JSON
  int status = 0;
  int turn = -1;        // -1: none (rejected or beyond the script)
  std::string error;
  nlohmann::json to_json() const;
};

class MessagesServer {
 public:
  // Listens on 127.0.0.1:port (0: any free port) before returning. log_path: when non-empty, each
  // request is appended there as one JSON line.
  static Result<std::unique_ptr<MessagesServer>> start(MessagesScript script, int port = 0,
                                                       std::string log_path = "");
  ~MessagesServer();
  MessagesServer(const MessagesServer&) = delete;
  MessagesServer& operator=(const MessagesServer&) = delete;
  int port() const;
  std::string base_url() const;  // http://127.0.0.1:PORT
  std::vector<MessagesRequest> requests() const;
  void stop();
  void wait();  // until stop()

 private:
  struct Impl;
  explicit MessagesServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pinta::emu
