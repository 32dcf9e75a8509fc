// Harness: Gemini CLI 0.61.0 hook-output interpreter and aggregator
// (pinta/emulator/gemini/gemini.h interpret_output, aggregate, is_blocking, effective_reason),
// stated from shared/reference/gemini-cli-0.61-hooks.md §4.5 and §5, not from run.cc.
// Properties, for any stdout bytes, stderr bytes, exit code and event:
//  1. total and deterministic: same input → same (format, output);
//  2. §4.5 text = stdout.trim() || stderr.trim(): empty text → no output and format ""; when the
//     trimmed stdout is non-empty, stderr has no influence at all; format is "" | json | text and
//     is "" exactly when there is no output; a json output is an object or an array;
//  3. §4.5 plain-text conversion: a text output is {decision, systemMessage} = allow + text (exit
//     0), allow + "Warning: " + text (exit 1), or {decision, reason} = deny + text (other codes);
//  4. the adapter's replies (fuzz/common/host_table.h) read as JSON objects equal to themselves:
//     `{}` and the BeforeTool deny; the deny is blocking and its effective reason is its reason;
//  5. §5: aggregate() is total over the interpreted outputs for every event; on the OR-merge
//     events (BeforeTool, AfterTool, BeforeAgent, AfterAgent, SessionStart) a trailing adapter
//     deny makes the merged output blocking with decision "deny" (last blocking one wins), and
//     the merge of object outputs is blocking exactly when one of them has decision block|deny.
// Input layout: event byte, exit byte, stdout string (2-byte length), stderr string, then a
// second stdout string (a second hook's output, for aggregation).
#include <optional>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "host_table.h"
#include "pinta/emulator/gemini/gemini.h"

namespace {

namespace gem = pinta::emu::gemini;
using ojson = nlohmann::ordered_json;

bool or_merge(std::string_view e) {
  return e == "BeforeTool" || e == "AfterTool" || e == "BeforeAgent" || e == "AfterAgent" ||
         e == "SessionStart";
}

std::string dump(const gem::Interpretation& i) {
  return i.output_format + "|" + (i.output ? i.output->dump(-1, ' ', false,
                                                            ojson::error_handler_t::replace)
                                           : std::string("<none>"));
}

bool blocks(const ojson& o) {
  if (!o.is_object() || !o.contains("decision") || !o["decision"].is_string()) return false;
  const std::string d = o["decision"].get<std::string>();
  return d == "block" || d == "deny";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pinta::fuzz::Bytes in(data, size);
  const auto& events = gem::event_names();
  const std::string event = events[in.byte() % events.size()];
  const uint8_t xb = in.byte();
  const int code = (xb & 0x80) ? static_cast<int>(xb & 3) : static_cast<int>(xb);
  const std::string out = in.string(8192);
  const std::string err = in.string(8192);
  const std::string out2 = in.rest();

  const gem::Interpretation a = gem::interpret_output(out, err, code);
  FUZZ_CHECK(dump(a) == dump(gem::interpret_output(out, err, code)), "not deterministic");
  FUZZ_CHECK(a.output_format.empty() == !a.output.has_value(), "format/output disagree");
  FUZZ_CHECK(a.output_format.empty() || a.output_format == "json" || a.output_format == "text",
             "format " + a.output_format);
  const std::string tout = gem::js_trim(out), terr = gem::js_trim(err);
  if (tout.empty() && terr.empty()) FUZZ_CHECK(!a.output, "output from blank text");
  if (!tout.empty())
    FUZZ_CHECK(dump(a) == dump(gem::interpret_output(out, "", code)), "stderr leaked in");
  if (a.output_format == "json")
    FUZZ_CHECK(a.output->is_object() || a.output->is_array(), "json output is a scalar");
  if (a.output_format == "text") {
    const std::string text = tout.empty() ? terr : tout;
    ojson want = ojson::object();
    if (code == 0 || code == 1) {
      want["decision"] = "allow";
      want["systemMessage"] = (code == 1 ? "Warning: " : "") + text;
    } else {
      want["decision"] = "deny";
      want["reason"] = text;
    }
    FUZZ_CHECK(*a.output == want, "plain text converted to " + dump(a));
  }

  // 4. The adapter's replies.
  const std::string allow = pinta::fuzz::allow_reply(pinta::fuzz::Host::kGemini, event).dump();
  const gem::Interpretation ai = gem::interpret_output(allow + "\n", err, 0);
  FUZZ_CHECK(ai.output_format == "json" && ai.output->dump() == allow, "allow reads as " + dump(ai));
  const std::string deny =
      R"({"decision":"deny","reason":"blocked by policy","systemMessage":"Blocked by policy"})";
  const gem::Interpretation di = gem::interpret_output(deny + "\n", err, 0);
  FUZZ_CHECK(di.output_format == "json" && gem::is_blocking(*di.output), "deny reads as " + dump(di));
  FUZZ_CHECK(gem::effective_reason(*di.output) == "blocked by policy", "deny reason");

  // 5. Aggregation.
  std::vector<ojson> outputs;
  if (a.output) outputs.push_back(*a.output);
  const gem::Interpretation b = gem::interpret_output(out2, "", code);
  if (b.output) outputs.push_back(*b.output);
  auto merged = gem::aggregate(event, outputs);
  FUZZ_CHECK(merged.has_value() == !outputs.empty(), "aggregate of nothing/something");
  if (or_merge(event)) {
    bool all_objects = true, any_block = false;
    for (const auto& o : outputs) {
      all_objects = all_objects && o.is_object();
      any_block = any_block || blocks(o);
    }
    if (merged && all_objects)
      FUZZ_CHECK(gem::is_blocking(*merged) == any_block,
                 "merge blocking=" + std::to_string(gem::is_blocking(*merged)) + " on " + event);
    outputs.push_back(*di.output);
    auto with_deny = gem::aggregate(event, outputs);
    FUZZ_CHECK(with_deny && gem::is_blocking(*with_deny) && (*with_deny)["decision"] == "deny",
               "a trailing deny lost on " + event);
  }
  return 0;
}
