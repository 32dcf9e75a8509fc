// Loading: 자리풀기, 무늬짓기, 걸리나, 한훅, 훅펴기, 파일하나, 훅읽기, 고를것 of
// deel-local-cli 1.17.1 package/src/safety/hooks.js. "seed Lnnn" is a line of
// shared/seeds/004_10d55d7627512262.txt.
#include <algorithm>
#include <cmath>
#include <cwctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pinta/common/text.h"
#include "pinta/hosts/deel/deel.h"
#include "pinta/hosts/node/js.h"
#include "pinta/hosts/node/js_regex.h"

namespace pinta::hosts::deel {
namespace node = pinta::hosts::node;
namespace {

// `x?.key`: the member when x is an object that has it (JSON values have no inherited properties
// with the names hooks.js reads), else undefined (nullptr).
const ojson* get(const ojson* x, const char* key) {
  if (!x || !x->is_object()) return nullptr;
  auto it = x->find(key);
  return it == x->end() ? nullptr : &*it;
}
// `a ?? b`: a unless undefined or null.
const ojson* nn(const ojson* a, const ojson* b) { return (a && !a->is_null()) ? a : b; }
const ojson* nn(const ojson* a, const ojson* b, const ojson* c) { return nn(nn(a, b), c); }

bool truthy(const ojson& v) {
  switch (v.type()) {
    case ojson::value_t::null:
      return false;
    case ojson::value_t::boolean:
      return v.get<bool>();
    case ojson::value_t::string:
      return !v.get_ref<const std::string&>().empty();
    case ojson::value_t::number_integer:
      return v.get<int64_t>() != 0;
    case ojson::value_t::number_unsigned:
      return v.get<uint64_t>() != 0;
    case ojson::value_t::number_float: {
      double d = v.get<double>();
      return d != 0 && !std::isnan(d);
    }
    default:
      return true;
  }
}

bool array_index(const std::string& k, uint32_t& out) {
  if (k.empty() || k.size() > 10 || (k.size() > 1 && k[0] == '0')) return false;
  uint64_t v = 0;
  for (char c : k) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v >= 4294967295ull) return false;
  out = static_cast<uint32_t>(v);
  return true;
}

// Object.entries order: array-index keys ascending, then the other keys in insertion order.
std::vector<std::pair<std::string, const ojson*>> entries(const ojson& o) {
  std::vector<std::pair<uint32_t, std::pair<std::string, const ojson*>>> idx;
  std::vector<std::pair<std::string, const ojson*>> rest;
  for (auto it = o.begin(); it != o.end(); ++it) {
    uint32_t i = 0;
    if (array_index(it.key(), i))
      idx.push_back({i, {it.key(), &it.value()}});
    else
      rest.emplace_back(it.key(), &it.value());
  }
  std::sort(idx.begin(), idx.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<std::string, const ojson*>> out;
  for (auto& e : idx) out.push_back(e.second);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

const ojson kUndefinedAsEmpty = "";  // `?? ''`

// UTF-8 (or WTF-8) -> UTF-16 code units, one per wchar_t (JS strings are UTF-16; a RegExp without
// the u flag works on code units).
std::wstring to_utf16_units(const std::string& s) {
  std::wstring out;
  for (size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    unsigned long cp;
    size_t n;
    if (b < 0x80)
      cp = b, n = 1;
    else if (b < 0xE0)
      cp = b & 0x1F, n = 2;
    else if (b < 0xF0)
      cp = b & 0x0F, n = 3;
    else
      cp = b & 0x07, n = 4;
    for (size_t k = 1; k < n && i + k < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out += static_cast<wchar_t>(0xD800 + (cp >> 10));
      out += static_cast<wchar_t>(0xDC00 + (cp & 0x3FF));
    } else {
      out += static_cast<wchar_t>(cp);
    }
  }
  return out;
}

// path.normalize for POSIX paths (lexical; Node's path.join/resolve do this).
std::string posix_normalize(const std::string& p) {
  bool abs = !p.empty() && p[0] == '/';
  std::vector<std::string> parts;
  std::stringstream ss(p);
  std::string seg;
  while (std::getline(ss, seg, '/')) {
    if (seg.empty() || seg == ".") continue;
    if (seg == "..") {
      if (!parts.empty() && parts.back() != "..")
        parts.pop_back();
      else if (!abs)
        parts.push_back("..");
      continue;
    }
    parts.push_back(seg);
  }
  std::string out = abs ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  if (out.empty()) out = ".";
  return out;
}

std::string path_join(const std::string& a, const std::string& b) {
  return posix_normalize(a + "/" + b);
}

// 한훅 (seed L271-294): one handler in our shape, or nullopt (the caller records why).
std::optional<Hook> one_hook(const std::string& event, const ojson& matcher_text, const ojson* x,
                             const std::string& source) {
  // seed L272-273: String(명령 ?? command ?? '').trim(), empty drops.
  const std::string command =
      node::js_trim(js_string(*nn(get(x, "명령"), get(x, "command"), &kUndefinedAsEmpty)));
  if (command.empty()) return std::nullopt;
  // seed L274: a truthy type other than 'command' drops.
  if (const ojson* t = get(x, "type"); t && truthy(*t) && !(t->is_string() && *t == "command"))
    return std::nullopt;
  // seed L275-276: an invalid pattern drops.
  auto m = make_matcher(matcher_text);
  if (!m) return std::nullopt;
  // seed L277, L284: Number(제한초 ?? timeout ?? 0); finite and > 0 → min(s*1000, 120000).
  static const ojson kZero = 0;
  const double secs = js_number_of(*nn(get(x, "제한초"), get(x, "timeout"), &kZero));
  // seed L278, L286: String(고장나면 ?? onError ?? '').trim() is '지나가기' or 'pass'.
  const std::string on_error =
      node::js_trim(js_string(*nn(get(x, "고장나면"), get(x, "onError"), &kUndefinedAsEmpty)));
  Hook h;
  h.event = event;
  h.matcher = js_string(matcher_text);  // seed L281: String(무늬글 ?? '*'), not trimmed
  h.pattern = *m;
  h.command = command;
  h.timeout_ms =
      std::isfinite(secs) && secs > 0 ? std::min(secs * 1000, kMaxTimeoutMs) : kDefaultTimeoutMs;
  h.pass_on_failure = on_error == "지나가기" || on_error == "pass";
  h.source = source;
  // seed L288: String(이름 ?? name ?? '').trim() || null.
  std::string name =
      node::js_trim(js_string(*nn(get(x, "이름"), get(x, "name"), &kUndefinedAsEmpty)));
  if (!name.empty()) h.name = name;
  return h;
}

FileRead read_one(const std::string& path, const std::string& source) {
  FileRead f;
  f.path = path;
  std::error_code ec;
  // seed L332: existsSync (a directory exists too; a dangling link does not).
  if (!std::filesystem::exists(path, ec)) return f;
  f.present = true;
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  if (in) buf << in.rdbuf();
  if (!in || std::filesystem::is_directory(path, ec)) {
    f.error = "못 읽었습니다: cannot read " + path;  // seed L335 (Node's text differs)
    return f;
  }
  // readFileSync(…, 'utf8') then JSON.parse (seed L334). The decode keeps a BOM, which JSON.parse
  // rejects (nlohmann would skip it).
  std::string text = node::node_utf8_decode(buf.str());
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) {
    f.error = "못 읽었습니다: Unexpected token";
    return f;
  }
  auto v = node::js_parse(text);
  if (!v) {
    f.error = "못 읽었습니다: invalid JSON";
    return f;
  }
  FileRead u = unfold(*v, source);
  u.present = true;
  u.path = path;
  return u;
}

}  // namespace

// 자리풀기 (seed L236-242).
std::optional<std::string> resolve_event(const ojson& value) {
  const std::string s = node::js_trim(value.is_null() ? std::string() : js_string(value));
  static const std::vector<std::string> korean = {"도구전", "도구후", "말전", "턴끝"};  // seed L219
  if (std::find(korean.begin(), korean.end(), s) != korean.end()) return s;
  // s.replace(/[-_\s]/g, '').toLowerCase(): \s is the same set trim() removes. Only ASCII letters
  // can equal the lower-cased English names (no non-ASCII letter lower-cases to one of their
  // letters; U+212A KELVIN SIGN → 'k' is the only such mapping and 'k' is in none of them), so an
  // ASCII lower-case is exact here.
  std::u32string flat;
  std::wstring units = to_utf16_units(s);
  std::string ascii;
  for (size_t i = 0; i < units.size(); ++i) {
    auto cu = static_cast<unsigned long>(units[i]);
    if (cu == '-' || cu == '_' || node::js_is_space_cp(cu)) continue;
    if (cu >= 0x80) return std::nullopt;
    ascii += static_cast<char>(std::tolower(static_cast<int>(cu)));
  }
  static const std::vector<std::pair<std::string, std::string>> table = {
      {"pretooluse", "도구전"},
      {"posttooluse", "도구후"},
      {"userpromptsubmit", "말전"},
      {"stop", "턴끝"}};  // 자리표, seed L213-218
  for (const auto& [en, ko] : table)
    if (en == ascii) return ko;
  return std::nullopt;
}

bool is_blocking_event(const std::string& k) { return k == "도구전" || k == "말전"; }
bool is_tool_event(const std::string& k) { return k == "도구전" || k == "도구후"; }

// 무늬짓기 (seed L254-258): ""/"*" match all; else new RegExp(`^(?:${s})$`) or null.
std::optional<Matcher> make_matcher(const ojson& value) {
  const std::string s = node::js_trim(value.is_null() ? std::string() : js_string(value));
  Matcher m;
  if (s.empty() || s == "*") return m;
  m.all = false;
  // The pattern is JavaScript's, run as Node runs it (pinta::hosts::node::JsRegExp): a
  // SyntaxError is `catch { return null; }`.
  m.re = node::JsRegExp::compile(u"^(?:" + node::utf16_units(s) + u")$");
  if (!m.re) return std::nullopt;
  return m;
}

// 걸리나 (seed L261-264): re.test(String(도구 ?? '')) — a search, not a whole match: a pattern may
// close the wrapping group itself (`a)|(b`).
bool matcher_matches(const Matcher& m, const std::string& tool) {
  if (m.all) return true;
  return m.re && m.re->test(node::utf16_units(tool));
}


// 훅펴기 (seed L299-329).
FileRead unfold(const ojson& raw, const std::string& source) {
  FileRead f;
  static const ojson kStar = "*";
  // seed L302: raw?.hooks ?? raw?.훅 ?? raw
  const ojson* it = nn(get(&raw, "hooks"), get(&raw, "훅"), &raw);
  const std::string base = it == &raw ? "" : it == get(&raw, "hooks") ? "/hooks" : "/훅";
  auto drop = [&](std::string why, std::string at) {
    f.dropped.push_back(std::move(why));
    f.dropped_at.push_back(std::move(at));
  };
  const std::string bad = ": 명령이나 무늬가 잘못 적혀 있습니다";  // seed L310, L323
  if (it->is_array()) {                                            // seed L304-312: the flat list
    for (size_t i = 0; i < it->size(); ++i) {
      const ojson& x = (*it)[i];
      const std::string xp = base + "/" + std::to_string(i);
      auto ev = nn(get(&x, "때"), get(&x, "자리"), get(&x, "event"));
      auto event = ev ? resolve_event(*ev) : resolve_event(ojson());
      if (!event) {
        // seed L307: the reason names 때 ?? event (not 자리) ?? '(없음)'.
        const ojson* shown = nn(get(&x, "때"), get(&x, "event"));
        drop("모르는 자리: " + (shown && !shown->is_null() ? js_string(*shown) : "(없음)"), xp);
        continue;
      }
      auto h = one_hook(*event, *nn(get(&x, "도구"), get(&x, "matcher"), &kStar), &x, source);
      if (h) {
        h->pointer = xp;
        f.hooks.push_back(std::move(*h));
      } else {
        drop(*event + bad, xp);
      }
    }
    return f;
  }
  if (it->is_object()) {  // seed L315-327: the Claude shape (event → groups → hooks)
    for (const auto& [key, value] : entries(*it)) {
      const std::string kp = base + "/" + pinta::text::json_pointer_token(key);
      auto event = resolve_event(ojson(key));
      if (!event) {
        drop("모르는 자리: " + key, kp);
        continue;
      }
      std::vector<std::pair<const ojson*, std::string>> groups;  // seed L319: a non-array value
      if (value->is_array())                                     // is one group
        for (size_t gi = 0; gi < value->size(); ++gi)
          groups.emplace_back(&(*value)[gi], kp + "/" + std::to_string(gi));
      else
        groups.emplace_back(value, kp);
      for (const auto& [g, gp] : groups) {
        const ojson& matcher_text = *nn(get(g, "matcher"), get(g, "도구"), &kStar);
        std::vector<std::pair<const ojson*, std::string>> handlers;  // seed L321: a group without
        const ojson* hs = get(g, "hooks");                           // hooks[] is the handler
        if (hs && hs->is_array())
          for (size_t hi = 0; hi < hs->size(); ++hi)
            handlers.emplace_back(&(*hs)[hi], gp + "/hooks/" + std::to_string(hi));
        else
          handlers.emplace_back(g, gp);
        for (const auto& [x, xp] : handlers) {
          auto h = one_hook(*event, matcher_text, x, source);
          if (h) {
            h->pointer = xp;
            f.hooks.push_back(std::move(*h));
          } else {
            drop(*event + bad, xp);
          }
        }
      }
    }
  }
  return f;
}

// 훅읽기 (seed L349-379).
Loaded load(const LoadRequest& rq) {
  Loaded l;
  auto env_of = [&](const char* k) -> std::optional<std::string> {
    auto it = rq.env.find(k);
    if (it == rq.env.end()) return std::nullopt;
    return it->second;
  };
  // seed L350-351: String(DEEL_HOOKS ?? '').trim().toLowerCase() in off/0/false.
  std::string off = node::js_trim(env_of("DEEL_HOOKS").value_or(""));
  std::transform(off.begin(), off.end(), off.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const bool disabled = rq.no_hooks || off == "off" || off == "0" || off == "false";
  // seed L231-233: DEEL_HOME (non-empty) → join(resolve(DEEL_HOME), 'hooks.json'), else
  // join(homedir(), '.deel', 'hooks.json').
  std::string pc_path;
  if (auto dh = env_of("DEEL_HOME"); dh && !dh->empty()) {
    std::string abs = (*dh)[0] == '/' ? *dh : rq.cwd + "/" + *dh;
    pc_path = path_join(posix_normalize(abs), "hooks.json");
  } else {
    pc_path = path_join(rq.home, ".deel/hooks.json");
  }
  l.pc = read_one(pc_path, "이 PC");
  // seed L363-366: the project file only in a trusted folder (믿나: an input here).
  const std::string project_path = path_join(rq.workspace, ".deel/hooks.json");  // seed L223
  if (rq.trusted) {
    l.project = read_one(project_path, "프로젝트");
  } else {
    std::error_code ec;
    l.project.path = project_path;
    l.project.present = std::filesystem::exists(project_path, ec);
  }
  // seed L368: PC hooks first, at most 32.
  std::vector<Hook> all = l.pc.hooks;
  all.insert(all.end(), l.project.hooks.begin(), l.project.hooks.end());
  l.overflow = all.size() > kMaxHooks;  // seed L377
  if (all.size() > kMaxHooks) all.resize(kMaxHooks);
  l.enabled = !disabled;
  if (disabled) l.disabled_by = rq.no_hooks ? "--no-hooks" : "DEEL_HOOKS=off";  // seed L372
  if (!disabled) l.hooks = std::move(all);
  l.untrusted_project = !rq.trusted && l.project.present;  // seed L376
  return l;
}

// 고를것 (seed L382-384): the matcher counts only at 도구전/도구후.
std::vector<const Hook*> select(const std::vector<Hook>& hooks, const std::string& event,
                                const std::optional<std::string>& tool) {
  std::vector<const Hook*> out;
  for (const auto& h : hooks) {
    if (h.event != event) continue;
    if (is_tool_event(event) && !matcher_matches(h.pattern, tool.value_or(""))) continue;
    out.push_back(&h);
  }
  return out;
}

}  // namespace pinta::hosts::deel
