// A descriptor that leaves out a Required field does not compile (pinta/hosts/family_types.h):
// compiled by required_fields_test.sh once with every field (must compile) and once without the
// reply forms and the host source (must not), so "a missing part is a compile error" is checked.
#include "pinta/hosts/family_types.h"

namespace probe {
using namespace pinta::hosts;  // NOLINT(google-build-using-namespace)
inline constexpr std::string_view kEvents[] = {"Gate"};
inline constexpr EventReply kReplies[] = {{"Gate", true, "{}", "probe"}};
inline constexpr FamilyDescriptor kDescriptor = {
    Family{}, "probe", "Probe", {"probe", "", "", ""}, "probe", "probe", "probe", "", kEvents,
    kEvents, {}, kEvents, "Gate", kEvents, {}, ReplyReading::kJsonStdout, 0, MessageStream::kNone,
    /*ask_on_gate=*/false, {}, "", 1000, kReplies,
#ifdef PROBE_EVERY_FIELD
    {R"({"decision":"deny","reason":{R}})", "", "", "{}"}, HostSource{"probe-1"},
#endif
};
}  // namespace probe
