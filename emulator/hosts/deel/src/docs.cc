// docs/hosts/deel-local-cli-1.17.md, generated from the rule table below (`hostemu deel docs`).
// Each row names the seed lines it rests on; test deel_docs_fresh fails when the file is stale.
#include <string>
#include <vector>

#include "pinta/emulator/deel/deel.h"

namespace pinta::emu::deel {
namespace {

struct Rule {
  const char* area;
  const char* rule;
  const char* seed;  // lines of shared/seeds/004_10d55d7627512262.txt
};

// The rule table: data, one row per rule, in the order the page shows them.
constexpr Rule kRules[] = {
    {"files",
     "This PC: `$DEEL_HOME/hooks.json` when `DEEL_HOME` is non-empty (`path.resolve` against the "
     "cwd, lexical), else `<home>/.deel/hooks.json`.",
     "L231-233"},
    {"files",
     "Project: `<workspace>/.deel/hooks.json`, read only when the folder is trusted; otherwise "
     "only its existence is checked and reported as `untrustedProject` (present but untrusted).",
     "L223, L356-366, L374-376"},
    {"files",
     "A file that does not exist (`existsSync`) is silently absent; one that exists but cannot "
     "be read or is not JSON (`JSON.parse` of the UTF-8 text; a BOM is an error) sets "
     "`fileErrors` and loads nothing from it.",
     "L331-338"},
    {"files",
     "PC hooks first, then project hooks; at most 32 in all (`slice(0, 32)`); `overflow` when "
     "more were read. Overflow is computed even when hooks are disabled.",
     "L203, L368, L377"},
    {"switch",
     "`DEEL_HOOKS` trimmed and lower-cased equal to `off`, `0` or `false`, or `--no-hooks` "
     "(`켜짐: false`), disables every hook; files are still read and reported; `disabledBy` is "
     "`--no-hooks` when both apply.",
     "L350-351, L370-372"},
    {"shape",
     "The hook container is `raw.hooks ?? raw.훅 ?? raw` (`??`: only null/missing falls "
     "through).",
     "L302"},
    {"shape",
     "Flat list: each element's event is `때 ?? 자리 ?? event`, matcher `도구 ?? matcher ?? "
     "'*'`; unknown event dropped with `모르는 자리: <때 ?? event ?? '(없음)'>` (the reason "
     "never shows `자리`).",
     "L304-312"},
    {"shape",
     "Claude shape: `Object.entries` order (array-index keys first); an unknown key is dropped "
     "with `모르는 자리: <key>`; a non-array value is one group; group matcher `matcher ?? 도구 "
     "?? '*'`; a group without a `hooks` array is itself the handler.",
     "L315-327"},
    {"shape",
     "An unusable handler is dropped with `<자리>: 명령이나 무늬가 잘못 적혀 있습니다`. A "
     "container that is neither array nor object yields nothing.",
     "L310, L323"},
    {"events",
     "Event names: `도구전 도구후 말전 턴끝`, or English `PreToolUse PostToolUse "
     "UserPromptSubmit Stop` compared lower-case after removing `-`, `_` and JavaScript "
     "whitespace; `String(x ?? '').trim()` first.",
     "L213-219, L236-242"},
    {"handler",
     "Command: `String(명령 ?? command ?? '').trim()`; empty drops (a number or an array is "
     "coerced: `[\"a\",\"b\"]` → `a,b`).",
     "L272-273"},
    {"handler", "A truthy `type` other than the string `command` drops the handler.", "L274"},
    {"handler",
     "Timeout: `Number(제한초 ?? timeout ?? 0)` seconds (`\"0x10\"` is 16, `\"\"` is 0, arrays "
     "via `join`); finite and > 0 gives `min(s*1000, 120000)` ms, else 15000.",
     "L199, L277, L284"},
    {"handler",
     "Pass on failure: `String(고장나면 ?? onError ?? '').trim()` is exactly `지나가기` or "
     "`pass`.",
     "L278, L286"},
    {"handler",
     "Name: `String(이름 ?? name ?? '').trim() || null`; matcher reported as `String(무늬글)` "
     "untrimmed.",
     "L281, L288"},
    {"matcher",
     "`String(x).trim()` empty or `*` matches every tool; otherwise `new RegExp('^(?:' + s + "
     "')$')`, searched with `test`; an invalid pattern drops the hook (at every event). The "
     "match counts only at 도구전/도구후.",
     "L254-264, L382-384"},
    {"matcher",
     "Emulated with pinta::hosts::node::JsRegExp, the engine both Node hosts share: V8's "
     "flag-less grammar with Annex B (lookbehind of any length, named groups, a quantified "
     "lookahead, legacy octal and identity escapes, `\\8`, `\\c`, `\\x`/`\\u` without their "
     "digits, a class escape as a range end; what V8 rejects is rejected) on PCRE2's 16-bit "
     "library over UTF-16 code units; a back-reference to a group not yet closed matches the "
     "empty string. Checked against Node's RegExp by a differential fuzz (docs/fuzzing.md: "
     "100,000 pattern/subject pairs, the remaining differences listed with their cause: a "
     "back-reference reaching into or out of a lookbehind PCRE2 cannot run itself, and a capture "
     "kept from an earlier iteration of a repeated group) and, through the seed, by "
     "deel_diff_test (`matcher-js-*`).",
     "L256"},
    {"runner",
     "`bash -c CMD` (ASSUMPTION: tools/shell.js is not in the seed; bash on Linux), cwd "
     "inherited (the workspace).",
     "L400-403, L415"},
    {"runner",
     "stdin: `JSON.stringify({자리, 도구, ...payload})` + `\\n`, `도구` null when no tool; a "
     "payload key `자리`/`도구` keeps its place and overrides the value; array-index keys first.",
     "L426, L481"},
    {"runner", "Hooks run one after another; the first block stops the rest.", "L472-495"},
    {"runner",
     "Message: stdout then stderr (each decoded as UTF-8), trimmed, cut at 16384 UTF-16 code "
     "units with `\\n…(훅이 뱉은 글이 길어서 여기까지만 옮겼습니다)` appended; `truncated` says "
     "so.",
     "L201, L434-436"},
    {"runner",
     "Exit 0 passes. Exit 2 blocks at 도구전/말전 only (`why` null). Any other exit, death by a "
     "signal (`code` null), failure to start or a timeout is broken: blocks at 도구전/말전 "
     "unless pass-on-failure; why = `훅이 <code> 로 끝났습니다` or `훅을 못 돌렸습니다 — "
     "<error>`.",
     "L221, L439-458"},
    {"runner",
     "ASSUMPTION (tools/spawn.js not in the seed): all output is kept, the run ends when the "
     "child exited and both pipes closed, the hook is spawned detached (Node's `detached: true`: "
     "a new session that it leads, no controlling terminal), the timeout SIGKILLs its process "
     "group and reports "
     "`timed out after <ms> ms`, a signal death is status null without an error. The timeout "
     "covers the child and the wait for both pipes to close (Node's execFile clears its timer "
     "on 'close'): a background child still holding stdout at the timeout makes the hook time "
     "out, its group SIGKILLed, as under Gemini CLI (configuration "
     "`run-timeout-background-holds-stdout`; the stand-in and `pinta::proc`'s "
     "`timeout_until_close` agree). A timeout below 1 ms is 1 ms (Node's setTimeout). bash is "
     "given the operand `bash` so that `$0`, which bash names itself by in its messages, is "
     "`bash` as under Node's spawn. A spawn failure reads as Node 20 words it: `spawn bash "
     "ENOENT` (also EACCES, EAGAIN, EMFILE, ENFILE: the 'error' event), `spawn ENOTDIR`, `spawn "
     "ENAMETOOLONG`, `spawn ELOOP` (thrown by spawn() for any other code). The hook's "
     "environment is process.env as spawn passes it on: the host's own order (not sorted), a "
     "repeated name once (its first value), array-index names (`7=x`) left out "
     "(`run-env-parent-order`).",
     "L416-428"},
    {"runner",
     "Emulator limits: the payload on stdin is parsed by nlohmann::json, so a payload with a "
     "lone-surrogate escape (`\\ud800`), which JSON.parse accepts, is refused (exit 2); a "
     "string payload spreads into one key per code point, not per UTF-16 code unit (differs "
     "for astral characters only; configuration `run-stdin-string-payload-astral`). `--tool` is "
     "accepted at every event: 자리돌리기 passes 도구 "
     "into stdin at every event and only 도구전/도구후 match on it.",
     "L426, L472-481"},
    {"block",
     "Block message: `<자리> 훅이 막았습니다 (<출처>: <이름 ?? 명령>).`, then `  <why> — "
     "문지기가 쓰러져 있으면 통과시키지 않습니다.` when broken, then a blank line and the "
     "message when non-empty, then a blank line and `같은 것을 다시 부르지 마세요. 다른 길을 "
     "찾거나, 왜 필요한지 사용자에게 말하세요.`",
     "L504-511"},
    {"trust",
     "ASSUMPTION (safety/trust.js not in the seed): whether the workspace is trusted is an input "
     "(`--trusted`).",
     "L356-366"},
};

}  // namespace

std::string render_docs() {
  std::string s =
      "<!-- GENERATED by `hostemu deel docs` from emulator/hosts/deel/src/docs.cc. Do not edit; "
      "regenerate. -->\n"
      "# deel-local-cli 1.17 hooks (host emulator `hostemu deel`)\n\n"
      "Evidence: `shared/seeds/004_10d55d7627512262.txt`, the deel-local-cli 1.15.1 → 1.17.1 diff "
      "that adds `package/src/safety/hooks.js` (hooks.js line N is seed line N + 148). The seed "
      "does not include `tools/shell.js`, `tools/spawn.js` or `safety/trust.js`; rules resting on "
      "them are marked ASSUMPTION.\n\n"
      "deel speaks by exit code (0 passes, 2 blocks; stdout+stderr become a visible note) and is "
      "fail-closed: at its blocking points (`도구전` = PreToolUse, `말전` = UserPromptSubmit) a "
      "hook "
      "that crashes, times out, exits 1 or cannot start blocks, unless it is marked "
      "`\"고장나면\": \"지나가기\"` / `\"onError\": \"pass\"`.\n\n"
      "```sh\n"
      "hostemu deel run --home H --workspace W --event E [--tool T] [--trusted] [--no-hooks] "
      "[--env K=V]... < payload.json\n"
      "```\n\n"
      "runs with cwd = W (`--env` reaches only the loader: `DEEL_HOME`, `DEEL_HOOKS`) and prints "
      "one "
      "JSON object: `enabled`, `disabledBy`, `loaded[]` (`event`, `matcher`, `command`, "
      "`timeoutMs`, `passOnFailure`, `source`, `name`), `dropped[]`, `fileErrors{pc,project}`, "
      "`untrustedProject`, `overflow`, `results[]` (`command`, `code`, `blocked`, `why`, "
      "`message`, `truncated`), `blocked`, `blockMessage`. Hooks get the emulator's environment "
      "in its order with `HOME=H` (replaced in place, as `process.env.HOME = H`).\n\n"
      "Checked against the seed itself: `deel_diff_test` extracts hooks.js from the seed at test "
      "time, runs it under Node with stand-ins for the three missing modules "
      "(`emulator/hosts/deel/test/oracle/`) and compares every configuration in "
      "`emulator/hosts/deel/test/configs/` with `hostemu deel run`.\n\n"
      "| area | rule | seed lines |\n|---|---|---|\n";
  for (const auto& r : kRules)
    s += std::string("| ") + r.area + " | " + r.rule + " | " + r.seed + " |\n";
  return s;
}

}  // namespace pinta::emu::deel
