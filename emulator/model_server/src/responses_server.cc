// Scripted OpenAI Responses API server (Codex CLI 0.171.0 via a `wire_api = "responses"` provider;
// shared/reference/real-hosts.md "OpenAI Codex CLI 0.171.0 … offline").
#include "pinta/emulator/responses_server.h"

#include "loopback_server.h"

#include <atomic>

namespace pinta::emu {
namespace {

using json = nlohmann::json;

const char* error_type(int code) {
  switch (code) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 429:
      return "rate_limit_exceeded";
    default:
      return "server_error";
  }
}

Result<ResponsesTurn> parse_turn(const json& t, const std::string& where, size_t index) {
  if (!t.is_object()) return make_error(ErrorCode::kInvalidArgument, where + " is not an object");
  ResponsesTurn turn;
  if (t.contains("error")) {
    const json& e = t["error"];
    int code = e.is_object() ? e.value("code", 0) : 0;
    if (code != 400 && code != 401 && code != 429 && code != 500)
      return make_error(ErrorCode::kInvalidArgument, where + ".error.code must be 400, 401, 429 or 500");
    turn.error_code = code;
    turn.error_message = e.value("message", std::string("scripted error"));
    return turn;
  }
  if (!t.contains("content") || !t["content"].is_array() || t["content"].empty())
    return make_error(ErrorCode::kInvalidArgument, where + " needs a non-empty content array or error");
  size_t k = 0;
  for (const auto& b : t["content"]) {
    std::string at = where + ".content[" + std::to_string(k) + "]";
    if (!b.is_object() || !b.contains("type") || !b["type"].is_string())
      return make_error(ErrorCode::kInvalidArgument, at + " needs a type");
    const std::string type = b["type"];
    std::string item_id = "item_s" + std::to_string(index) + "_" + std::to_string(k);
    std::string call_id = b.value("id", std::string());
    if (call_id.empty()) call_id = "call_s" + std::to_string(index) + "_" + std::to_string(k);
    json item;
    if (type == "text") {
      if (!b.contains("text") || !b["text"].is_string())
        return make_error(ErrorCode::kInvalidArgument, at + ".text must be a string");
      item = {{"type", "message"}, {"id", item_id}, {"role", "assistant"}, {"status", "completed"},
              {"content", json::array({{{"type", "output_text"}, {"text", b["text"]},
                                        {"annotations", json::array()}}})}};
    } else if (type == "function_call") {
      if (!b.contains("name") || !b["name"].is_string())
        return make_error(ErrorCode::kInvalidArgument, at + ".name must be a string");
      json args = b.value("arguments", json::object());
      // Real models send the arguments as a JSON text; a script may write the object.
      if (!args.is_object() && !args.is_string())
        return make_error(ErrorCode::kInvalidArgument, at + ".arguments must be an object or a string");
      item = {{"type", "function_call"}, {"id", item_id}, {"status", "completed"},
              {"name", b["name"]}, {"call_id", call_id},
              {"arguments", args.is_string() ? args.get<std::string>() : args.dump()}};
    } else if (type == "custom_tool_call") {
      if (!b.contains("name") || !b["name"].is_string() || !b.contains("input") ||
          !b["input"].is_string())
        return make_error(ErrorCode::kInvalidArgument, at + " needs a string name and input");
      item = {{"type", "custom_tool_call"}, {"id", item_id}, {"status", "completed"},
              {"name", b["name"]}, {"call_id", call_id}, {"input", b["input"]}};
    } else {
      return make_error(ErrorCode::kInvalidArgument,
                        at + ".type must be text, function_call or custom_tool_call");
    }
    turn.output.push_back(std::move(item));
    ++k;
  }
  return turn;
}

std::string event(const json& data) {
  return "event: " + data["type"].get<std::string>() + "\ndata: " + data.dump() + "\n\n";
}

}  // namespace

json openai_error(int code, const std::string& message) {
  return {{"error",
           {{"type", error_type(code)}, {"message", message.empty() ? "error" : message},
            {"code", nullptr}, {"param", nullptr}}}};
}

std::string responses_sse(const ResponsesTurn& turn, const std::string& model) {
  static std::atomic<int> counter{0};
  std::string id = "resp_scripted_" + std::to_string(++counter);
  json response = {{"id", id}, {"object", "response"}, {"status", "in_progress"},
                   {"model", model}, {"output", json::array()}};
  std::string out = event({{"type", "response.created"}, {"response", response}});
  for (size_t i = 0; i < turn.output.size(); ++i) {
    const json& item = turn.output[i];
    json added = item;
    if (item["type"] == "message") added["content"] = json::array();
    out += event({{"type", "response.output_item.added"}, {"output_index", i}, {"item", added}});
    if (item["type"] == "message") {
      out += event({{"type", "response.output_text.delta"}, {"item_id", item["id"]},
                    {"output_index", i}, {"content_index", 0},
                    {"delta", item["content"][0]["text"]}});
    }
    out += event({{"type", "response.output_item.done"}, {"output_index", i}, {"item", item}});
  }
  response["status"] = "completed";
  response["output"] = turn.output;
  response["usage"] = {{"input_tokens", 10},
                       {"input_tokens_details", {{"cached_tokens", 0}}},
                       {"output_tokens", 5},
                       {"output_tokens_details", {{"reasoning_tokens", 0}}},
                       {"total_tokens", 15}};
  out += event({{"type", "response.completed"}, {"response", response}});
  return out;
}

Result<ResponsesScript> parse_responses_script(const json& j) {
  return parse_turns_script<ResponsesScript>(j, parse_turn);
}

Result<ResponsesScript> load_responses_script(const std::string& path) {
  return load_script_file(path, parse_responses_script);
}

json responses_tool_outputs(const json& body) {
  json out = json::array();
  if (!body.is_object() || !body.contains("input") || !body["input"].is_array()) return out;
  for (const auto& item : body["input"]) {
    if (!item.is_object()) continue;
    std::string type = item.value("type", std::string());
    if (type != "function_call_output" && type != "custom_tool_call_output") continue;
    out.push_back({{"call_id", item.value("call_id", std::string())},
                   {"output", item.contains("output") ? item["output"] : json(nullptr)}});
  }
  return out;
}

json ResponsesRequest::to_json() const {
  return {{"method", method}, {"path", path},     {"query", query}, {"apiKeyPresent", api_key_present},
          {"body", body},     {"status", status}, {"turn", turn},   {"error", error},
          {"toolOutputs", responses_tool_outputs(body)}};
}

struct ResponsesServer::Impl {
  explicit Impl(ResponsesScript s, std::string log_path)
      : cursor(std::move(s.turns), s.has_when_exhausted
                                       ? std::optional<ResponsesTurn>(std::move(s.when_exhausted))
                                       : std::nullopt),
        log(std::move(log_path)) {}
  TurnCursor<ResponsesTurn> cursor;
  RequestLog<ResponsesRequest> log;
  std::unique_ptr<LoopbackServer> http;  // last: stopped first, before what its handler uses

  void handle(const httplib::Request& req, httplib::Response& res) {
    ResponsesRequest rec;
    read_request(req, rec);
    auto fail = [&](int code, const std::string& why) {
      rec.status = code;
      rec.error = why;
      res.status = code;
      res.set_content(openai_error(code, why).dump(), "application/json");
      log.record(rec);
    };
    if (req.method != "POST" || req.path != "/v1/responses") return fail(404, "unsupported path");
    std::string authz = req.get_header_value("Authorization");
    rec.api_key_present = authz.rfind("Bearer ", 0) == 0 && authz.size() > 7;
    if (!rec.api_key_present) return fail(401, "missing bearer token");
    if (!rec.body.is_object() || !rec.body.contains("input") || !rec.body["input"].is_array())
      return fail(400, "body is not a Responses request");
    auto next = cursor.next(rec.turn);
    if (!next) return fail(500, "script exhausted");
    if (next->error_code) return fail(next->error_code, next->error_message);
    std::string model = rec.body.value("model", std::string("gpt-scripted"));
    rec.status = 200;
    res.status = 200;
    if (rec.body.value("stream", false)) {
      res.set_content(responses_sse(*next, model), "text/event-stream");
    } else {
      res.set_content(json{{"id", "resp_scripted"}, {"object", "response"}, {"status", "completed"},
                           {"model", model}, {"output", next->output}}
                          .dump(),
                      "application/json");
    }
    log.record(rec);
  }
};

ResponsesServer::ResponsesServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<ResponsesServer>> ResponsesServer::start(ResponsesScript script, int port,
                                                                std::string log_path) {
  auto impl = serve_dialect(std::make_unique<Impl>(std::move(script), std::move(log_path)), port);
  if (!impl) return impl.error();
  return std::unique_ptr<ResponsesServer>(new ResponsesServer(std::move(*impl)));
}

Result<std::unique_ptr<ResponsesServer>> start_responses_script(const std::string& script_path,
                                                                int port,
                                                                const std::string& log_path) {
  if (port < 0 || port > 65535)
    return make_error(ErrorCode::kInvalidArgument, "--port must be 0..65535");
  auto script = load_responses_script(script_path);
  if (!script) return script.error();
  return ResponsesServer::start(std::move(*script), port, log_path);
}

ResponsesServer::~ResponsesServer() { stop(); }

int ResponsesServer::port() const { return impl_->http->port(); }

std::string ResponsesServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port()) + "/v1";
}

std::vector<ResponsesRequest> ResponsesServer::requests() const { return impl_->log.since(0); }

void ResponsesServer::stop() {
  if (impl_ && impl_->http) impl_->http->stop();
}

void ResponsesServer::wait() { impl_->http->wait(); }

}  // namespace pinta::emu
