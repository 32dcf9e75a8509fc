// Scripted Gemini streamGenerateContent server (seed 003; Gemini CLI 0.61.0 via
// GOOGLE_GEMINI_BASE_URL).
#include "pinta/emulator/model_server.h"

#include "loopback_server.h"

#include <httplib.h>

#include <regex>

#include "pinta/common/fs.h"

namespace pinta::emu {
namespace {

using json = nlohmann::json;

const char* status_name(int code) {
  switch (code) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    default:
      return "UNAVAILABLE";
  }
}
const char* default_message(int code) {
  switch (code) {
    case 400:
      return "request is invalid";
    case 401:
      return "authentication failed";
    default:
      return "upstream unavailable";
  }
}

Result<ModelTurn> parse_turn(const json& t, size_t i) {
  std::string where = "turns[" + std::to_string(i) + "]";
  if (!t.is_object()) return make_error(ErrorCode::kInvalidArgument, where + " is not an object");
  ModelTurn turn;
  if (t.contains("error")) {
    const json& e = t["error"];
    int code = e.is_object() ? e.value("code", 0) : 0;
    if (code != 400 && code != 401 && code != 502)
      return make_error(ErrorCode::kInvalidArgument, where + ".error.code must be 400, 401 or 502");
    turn.error_code = code;
    turn.error_message = e.value("message", std::string(default_message(code)));
    return turn;
  }
  if (t.contains("frames")) {
    if (!t["frames"].is_array() || t["frames"].empty())
      return make_error(ErrorCode::kInvalidArgument, where + ".frames must be a non-empty array");
    for (const auto& f : t["frames"]) {
      if (!f.is_object())
        return make_error(ErrorCode::kInvalidArgument, where + ".frames[] must be objects");
      turn.frames.push_back(f);
    }
    return turn;
  }
  if (!t.contains("parts") || !t["parts"].is_array() || t["parts"].empty())
    return make_error(ErrorCode::kInvalidArgument, where + " needs parts, frames or error");
  // One SSE frame per part (streamed deltas); the last carries finishReason / usageMetadata.
  const json& parts = t["parts"];
  for (size_t k = 0; k < parts.size(); ++k) {
    const json& p = parts[k];
    json part;
    if (p.contains("text") && p["text"].is_string()) {
      part = {{"text", p["text"]}};
    } else if (p.contains("thought") && p["thought"].is_string()) {
      part = {{"text", p["thought"]}, {"thought", true}};
    } else if (p.contains("functionCall") && p["functionCall"].is_object() &&
               p["functionCall"].contains("name") && p["functionCall"]["name"].is_string()) {
      json fc = {{"name", p["functionCall"]["name"]},
                 {"args", p["functionCall"].value("args", json::object())}};
      part = {{"functionCall", fc}};
    } else {
      return make_error(
          ErrorCode::kInvalidArgument,
          where + ".parts[" + std::to_string(k) + "] needs text, thought or functionCall{name}");
    }
    if (p.contains("thoughtSignature")) part["thoughtSignature"] = p["thoughtSignature"];
    json cand = {{"content", {{"role", "model"}, {"parts", json::array({part})}}}, {"index", 0}};
    if (k + 1 == parts.size()) cand["finishReason"] = t.value("finishReason", std::string("STOP"));
    json frame = {{"candidates", json::array({cand})}};
    if (k + 1 == parts.size() && t.contains("usageMetadata"))
      frame["usageMetadata"] = t["usageMetadata"];
    turn.frames.push_back(frame);
  }
  return turn;
}

bool equal_ct(const std::string& a, const std::string& b) {
  // Constant-time comparison (seed 003: the two tokens are compared in constant time).
  unsigned char d = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i)
    d |= static_cast<unsigned char>((i < a.size() ? a[i] : 0) ^ (i < b.size() ? b[i] : 0));
  return d == 0;
}

}  // namespace

json gemini_error(int code, const std::string& message) {
  return {{"error",
           {{"code", code},
            {"message", message.empty() ? default_message(code) : message},
            {"status", status_name(code)}}}};
}

Result<ModelScript> parse_model_script(const json& j) {
  if (!j.is_object()) return make_error(ErrorCode::kInvalidArgument, "script is not a JSON object");
  ModelScript s;
  if (j.contains("apiKey")) {
    if (!j["apiKey"].is_string())
      return make_error(ErrorCode::kInvalidArgument, "apiKey must be a string");
    s.api_key = j["apiKey"];
  }
  if (j.contains("routeId")) {
    if (!j["routeId"].is_string())
      return make_error(ErrorCode::kInvalidArgument, "routeId must be a string");
    s.route_id = j["routeId"];
  }
  if (!j.contains("turns") || !j["turns"].is_array())
    return make_error(ErrorCode::kInvalidArgument, "script needs a \"turns\" array");
  for (size_t i = 0; i < j["turns"].size(); ++i) {
    auto t = parse_turn(j["turns"][i], i);
    if (!t) return t.error();
    s.turns.push_back(std::move(*t));
  }
  return s;
}

Result<ModelScript> load_model_script(const std::string& path) {
  return load_script_file(path, parse_model_script);
}

json ModelRequest::to_json() const {
  return {{"method", method},
          {"path", path},
          {"query", query},
          {"routeId", route_id},
          {"model", model},
          {"apiKeyPresent", api_key_present},
          {"bearerPresent", bearer_present},
          {"body", body},
          {"status", status},
          {"turn", turn},
          {"error", error}};
}

struct ModelServer::Impl {
  explicit Impl(ModelScript s, std::string log_path)
      : script(std::move(s)), cursor(std::move(script.turns), std::nullopt),
        log(std::move(log_path)) {}
  ModelScript script;  // its turns moved into the cursor
  TurnCursor<ModelTurn> cursor;
  RequestLog<ModelRequest> log;
  std::unique_ptr<LoopbackServer> http;  // last: stopped first, before what its handler uses

  void record(ModelRequest r) { log.record(std::move(r)); }

  void handle(const httplib::Request& req, httplib::Response& res) {
    ModelRequest rec;
    read_request(req, rec);
    auto fail = [&](int code, const std::string& why) {
      rec.status = code;
      rec.error = why;
      res.status = code;
      res.set_content(gemini_error(code).dump(), "application/json");
      record(rec);
    };
    static const std::regex kPath(
        R"(^(?:/gemini/([^/]+))?/v1beta/models/([^/]+):streamGenerateContent$)");
    std::smatch m;
    std::string path = req.path;  // cpp-httplib has already percent-decoded the path
    if (!std::regex_match(path, m, kPath)) return fail(400, "unsupported path");
    rec.route_id = m[1].matched ? std::string(m[1]) : "";
    rec.model = m[2];
    // seed 003: the model label may hold inner spaces, never leading/trailing space or controls.
    bool bad_model = rec.model.empty() || rec.model.front() == ' ' || rec.model.back() == ' ';
    for (unsigned char c : rec.model) bad_model |= c < 0x20 || c == 0x7f;
    // Auth first: nothing about the request is judged before the caller is known.
    std::string key = req.get_header_value("x-goog-api-key");
    std::string authz = req.get_header_value("Authorization");
    rec.api_key_present = req.has_header("x-goog-api-key");
    rec.bearer_present = req.has_header("Authorization");
    std::string bearer;
    if (rec.bearer_present) {
      if (authz.rfind("Bearer ", 0) != 0 || authz.size() <= 7)
        return fail(401, "malformed Authorization");
      bearer = authz.substr(7);
    }
    if (!rec.api_key_present) return fail(401, "missing x-goog-api-key");
    if (rec.bearer_present && !equal_ct(bearer, key))
      return fail(401, "Bearer token differs from x-goog-api-key");
    if (key.empty() || (!script.api_key.empty() && !equal_ct(key, script.api_key)))
      return fail(401, "wrong api key");
    if (!script.route_id.empty() && rec.route_id != script.route_id)
      return fail(400, "unknown route");
    if (bad_model) return fail(400, "invalid model id");
    if (req.get_param_value("alt") != "sse") return fail(400, "alt=sse required");
    if (!rec.body.is_object() || !rec.body.contains("contents") || !rec.body["contents"].is_array())
      return fail(400, "body is not a GenerateContentRequest");
    auto next = cursor.next(rec.turn);
    if (!next) return fail(502, "script exhausted");
    const ModelTurn& turn = *next;
    if (turn.error_code) {
      rec.status = turn.error_code;
      res.status = turn.error_code;
      res.set_content(gemini_error(turn.error_code, turn.error_message).dump(), "application/json");
      record(rec);
      return;
    }
    std::string body;
    for (const auto& f : turn.frames) body += "data: " + f.dump() + "\r\n\r\n";
    rec.status = 200;
    res.status = 200;
    res.set_content(body, "text/event-stream");
    record(rec);
  }
};

ModelServer::ModelServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<ModelServer>> ModelServer::start(ModelScript script, int port,
                                                        std::string log_path) {
  auto impl = serve_dialect(std::make_unique<Impl>(std::move(script), std::move(log_path)), port);
  if (!impl) return impl.error();
  return std::unique_ptr<ModelServer>(new ModelServer(std::move(*impl)));
}

ModelServer::~ModelServer() { stop(); }

int ModelServer::port() const { return impl_->http->port(); }

std::string ModelServer::base_url() const {
  std::string u = "http://127.0.0.1:" + std::to_string(port());
  if (!impl_->script.route_id.empty()) u += "/gemini/" + impl_->script.route_id;
  return u;
}

std::vector<ModelRequest> ModelServer::requests() const { return impl_->log.since(0); }

std::vector<ModelRequest> ModelServer::requests_since(size_t from) const {
  return impl_->log.since(from);
}

size_t ModelServer::request_count() const { return impl_->log.size(); }

void ModelServer::stop() {
  if (impl_ && impl_->http) impl_->http->stop();
}

void ModelServer::wait() { impl_->http->wait(); }

}  // namespace pinta::emu
