// File: pinta/emulator/model_server.h
// A scripted Gemini API server: the caller side of
// `POST [/gemini/{route-id}]/v1beta/models/{model}:streamGenerateContent?alt=sse` as specified in
// shared/seeds/003 (Gemini-compatible API contract) and as Gemini CLI 0.61.0 calls it with
// GOOGLE_GEMINI_BASE_URL (shared/reference/real-hosts.md). Each accepted request consumes the next
// scripted turn; every request (accepted or not) is recorded for assertions.
//
// Script (turns.json):
//   {"apiKey": "k",                 // required key; omitted: any key accepted (still required)
//    "routeId": "r",                // optional: the /gemini/r prefix is then required
//    "turns": [
//      {"parts": [{"text": "hi"}, {"thought": "reasoning"},
//                 {"functionCall": {"name": "write_file", "args": {...}}}],
//       "finishReason": "STOP",      // default STOP
//       "usageMetadata": {...}},     // sent only when scripted (seed 003: never invented)
//      {"frames": [<GenerateContentResponse>, ...]},   // sent verbatim
//      {"error": {"code": 502}}]}    // a Gemini error envelope (400 | 401 | 502)
// Requests beyond the script get 502 UNAVAILABLE.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pinta/common/result.h"

namespace pinta::emu {

struct ModelTurn {
  std::vector<nlohmann::json> frames;  // GenerateContentResponse objects, one per SSE frame
  int error_code = 0;                  // non-zero: answer with the error envelope instead
  std::string error_message;
};

struct ModelScript {
  std::string api_key;   // empty: any non-empty key
  std::string route_id;  // empty: prefix optional and free
  std::vector<ModelTurn> turns;
};

// Error kInvalidArgument/kParse names the offending field.
Result<ModelScript> parse_model_script(const nlohmann::json& j);
Result<ModelScript> load_model_script(const std::string& path);

// Gemini error envelope {"error":{"code","message","status"}} (seed 003 "오류").
nlohmann::json gemini_error(int code, const std::string& message = "");

// One request as received. Credentials are never stored: only whether they matched.
struct ModelRequest {
  std::string method, path, query;
  std::string route_id, model;  // parsed from the path ("" when absent / not parsed)
  bool api_key_present = false, bearer_present = false;
  nlohmann::json body;  // parsed JSON (null if not JSON)
  int status = 0;       // what the server answered
  int turn = -1;        // scripted turn used (-1: none)
  std::string error;    // why it was rejected
  nlohmann::json to_json() const;
};

class ModelServer {
 public:
  // Listens on 127.0.0.1:port (0: any free port) before returning. log_path: when non-empty,
  // each request is appended there as one JSON line.
  static Result<std::unique_ptr<ModelServer>> start(ModelScript script, int port = 0,
                                                    std::string log_path = "");
  ~ModelServer();
  ModelServer(const ModelServer&) = delete;
  ModelServer& operator=(const ModelServer&) = delete;
  int port() const;
  std::string base_url() const;  // http://127.0.0.1:PORT (plus /gemini/{route} if scripted)
  std::vector<ModelRequest> requests() const;
  // The requests recorded after the first `from` (a caller that counts what it has seen reads
  // only the new ones instead of copying the whole log).
  std::vector<ModelRequest> requests_since(size_t from) const;
  size_t request_count() const;
  void stop();
  void wait();  // until stop() (from another thread or a signal handler thread)

 private:
  struct Impl;
  explicit ModelServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pinta::emu
