// Scripted Anthropic Messages API server (Claude Code 2.1.332 via ANTHROPIC_BASE_URL;
// shared/reference/real-hosts.md "Claude Code 2.1.332").
#include "pinta/emulator/messages_server.h"

#include "loopback_server.h"

#include <httplib.h>

#include "pinta/common/fs.h"

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
      return "rate_limit_error";
    case 529:
      return "overloaded_error";
    default:
      return "api_error";
  }
}

Result<MessagesTurn> parse_turn(const json& t, const std::string& where, size_t index) {
  if (!t.is_object()) return make_error(ErrorCode::kInvalidArgument, where + " is not an object");
  MessagesTurn turn;
  if (t.contains("error")) {
    const json& e = t["error"];
    int code = e.is_object() ? e.value("code", 0) : 0;
    if (code != 400 && code != 401 && code != 429 && code != 500 && code != 529)
      return make_error(ErrorCode::kInvalidArgument,
                        where + ".error.code must be 400, 401, 429, 500 or 529");
    turn.error_code = code;
    turn.error_message = e.value("message", std::string("scripted error"));
    return turn;
  }
  if (!t.contains("content") || !t["content"].is_array() || t["content"].empty())
    return make_error(ErrorCode::kInvalidArgument, where + " needs a non-empty content array or error");
  bool has_tool = false;
  size_t k = 0;
  for (const auto& b : t["content"]) {
    std::string at = where + ".content[" + std::to_string(k) + "]";
    if (!b.is_object() || !b.contains("type") || !b["type"].is_string())
      return make_error(ErrorCode::kInvalidArgument, at + " needs a type");
    const std::string type = b["type"];
    json block;
    if (type == "text") {
      if (!b.contains("text") || !b["text"].is_string())
        return make_error(ErrorCode::kInvalidArgument, at + ".text must be a string");
      block = {{"type", "text"}, {"text", b["text"]}};
    } else if (type == "tool_use") {
      if (!b.contains("name") || !b["name"].is_string())
        return make_error(ErrorCode::kInvalidArgument, at + ".name must be a string");
      json input = b.value("input", json::object());
      if (!input.is_object())
        return make_error(ErrorCode::kInvalidArgument, at + ".input must be an object");
      std::string id = b.value("id", std::string());
      if (id.empty()) id = "toolu_s" + std::to_string(index) + "_" + std::to_string(k);
      block = {{"type", "tool_use"}, {"id", id}, {"name", b["name"]}, {"input", input}};
      has_tool = true;
    } else {
      return make_error(ErrorCode::kInvalidArgument, at + ".type must be text or tool_use");
    }
    turn.content.push_back(block);
    ++k;
  }
  turn.stop_reason = t.value("stopReason", std::string(has_tool ? "tool_use" : "end_turn"));
  return turn;
}

std::string event(const std::string& name, const json& data) {
  return "event: " + name + "\ndata: " + data.dump() + "\n\n";
}

}  // namespace

json anthropic_error(int code, const std::string& message) {
  return {{"type", "error"},
          {"error", {{"type", error_type(code)}, {"message", message.empty() ? "error" : message}}}};
}

std::string messages_sse(const MessagesTurn& turn, const std::string& model) {
  static int counter = 0;
  std::string id = "msg_scripted_" + std::to_string(++counter);
  json usage = {{"input_tokens", 10}, {"output_tokens", 1}};
  std::string out = event(
      "message_start",
      {{"type", "message_start"},
       {"message",
        {{"id", id}, {"type", "message"}, {"role", "assistant"}, {"model", model},
         {"content", json::array()}, {"stop_reason", nullptr}, {"stop_sequence", nullptr},
         {"usage", usage}}}});
  for (size_t i = 0; i < turn.content.size(); ++i) {
    const json& b = turn.content[i];
    json start = b;
    json delta;
    if (b["type"] == "text") {
      start["text"] = "";
      delta = {{"type", "text_delta"}, {"text", b["text"]}};
    } else {
      start["input"] = json::object();
      delta = {{"type", "input_json_delta"}, {"partial_json", b["input"].dump()}};
    }
    out += event("content_block_start",
                 {{"type", "content_block_start"}, {"index", i}, {"content_block", start}});
    out += event("content_block_delta", {{"type", "content_block_delta"}, {"index", i}, {"delta", delta}});
    out += event("content_block_stop", {{"type", "content_block_stop"}, {"index", i}});
  }
  out += event("message_delta", {{"type", "message_delta"},
                                 {"delta", {{"stop_reason", turn.stop_reason}, {"stop_sequence", nullptr}}},
                                 {"usage", {{"output_tokens", 5}}}});
  out += event("message_stop", {{"type", "message_stop"}});
  return out;
}

Result<MessagesScript> parse_messages_script(const json& j) {
  return parse_turns_script<MessagesScript>(j, parse_turn);
}

Result<MessagesScript> load_messages_script(const std::string& path) {
  return load_script_file(path, parse_messages_script);
}

json MessagesRequest::to_json() const {
  return {{"method", method}, {"path", path},   {"query", query}, {"apiKeyPresent", api_key_present},
          {"body", body},     {"status", status}, {"turn", turn},  {"error", error}};
}

struct MessagesServer::Impl {
  explicit Impl(MessagesScript s, std::string log_path)
      : cursor(std::move(s.turns), s.has_when_exhausted
                                       ? std::optional<MessagesTurn>(std::move(s.when_exhausted))
                                       : std::nullopt),
        log(std::move(log_path)) {}
  TurnCursor<MessagesTurn> cursor;
  RequestLog<MessagesRequest> log;
  std::unique_ptr<LoopbackServer> http;  // last: stopped first, before what its handler uses

  void record(MessagesRequest r) { log.record(std::move(r)); }

  void handle(const httplib::Request& req, httplib::Response& res) {
    MessagesRequest rec;
    read_request(req, rec);
    auto fail = [&](int code, const std::string& why) {
      rec.status = code;
      rec.error = why;
      res.status = code;
      res.set_content(anthropic_error(code, why).dump(), "application/json");
      record(rec);
    };
    if (req.method != "POST" || req.path != "/v1/messages") return fail(404, "unsupported path");
    rec.api_key_present = !req.get_header_value("x-api-key").empty() ||
                          req.get_header_value("Authorization").rfind("Bearer ", 0) == 0;
    if (!rec.api_key_present) return fail(401, "missing x-api-key");
    if (!rec.body.is_object() || !rec.body.contains("messages") || !rec.body["messages"].is_array())
      return fail(400, "body is not a Messages request");
    auto next = cursor.next(rec.turn);
    if (!next) return fail(500, "script exhausted");
    const MessagesTurn& turn = *next;
    if (turn.error_code) return fail(turn.error_code, turn.error_message);
    std::string model = rec.body.value("model", std::string("claude-scripted"));
    rec.status = 200;
    res.status = 200;
    if (rec.body.value("stream", false)) {
      res.set_content(messages_sse(turn, model), "text/event-stream");
    } else {
      res.set_content(json{{"id", "msg_scripted"}, {"type", "message"}, {"role", "assistant"},
                           {"model", model}, {"content", turn.content},
                           {"stop_reason", turn.stop_reason}, {"stop_sequence", nullptr},
                           {"usage", {{"input_tokens", 10}, {"output_tokens", 5}}}}
                          .dump(),
                      "application/json");
    }
    record(rec);
  }
};

MessagesServer::MessagesServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<MessagesServer>> MessagesServer::start(MessagesScript script, int port,
                                                              std::string log_path) {
  auto impl = serve_dialect(std::make_unique<Impl>(std::move(script), std::move(log_path)), port);
  if (!impl) return impl.error();
  return std::unique_ptr<MessagesServer>(new MessagesServer(std::move(*impl)));
}

MessagesServer::~MessagesServer() { stop(); }

int MessagesServer::port() const { return impl_->http->port(); }

std::string MessagesServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port());
}

std::vector<MessagesRequest> MessagesServer::requests() const { return impl_->log.since(0); }

void MessagesServer::stop() {
  if (impl_ && impl_->http) impl_->http->stop();
}

void MessagesServer::wait() { impl_->http->wait(); }

}  // namespace pinta::emu
