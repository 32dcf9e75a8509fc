// matrix.html: the report a person reads. One file, inline CSS and JS only (no request leaves the
// page; it works from file://). Adapter output is hostile: every byte of it is escaped here
// (HTML specials, control bytes, invalid UTF-8, bidi and zero-width characters), none of it is
// ever placed inside the <script> element, and its size is bounded by the runner (2 KiB per
// stream and run) and here (runs shown per unit).
#include <algorithm>
#include <ctime>
#include <map>
#include <sstream>

#include "pinta/common/text.h"
#include "pinta/conformance/matchers.h"
#include "pinta/conformance/output.h"

namespace pinta::conformance {
namespace {

std::string esc(const std::string& s);

// Decodes one UTF-8 sequence at s[i]: its length (0: invalid) and code point.
size_t utf8_at(const std::string& s, size_t i, char32_t& cp) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80                 ? 1
             : c >= 0xc2 && c <= 0xdf ? 2
             : c >= 0xe0 && c <= 0xef ? 3
             : c >= 0xf0 && c <= 0xf4 ? 4
                                      : 0;
  if (n == 0 || i + n > s.size()) return 0;
  cp = n == 1 ? c : n == 2 ? (c & 0x1f) : n == 3 ? (c & 0x0f) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3f);
  }
  // Overlong, surrogate or out-of-range forms are invalid.
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

// Characters that change how surrounding text reads without being seen.
bool invisible(char32_t cp) {
  return (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff || cp == 0x2028 || cp == 0x2029 ||
         (cp >= 0x80 && cp < 0xa0);
}

std::string hex2(unsigned char c) {
  char b[8];
  snprintf(b, sizeof b, "\\x%02x", c);
  return b;
}

// Bytes as HTML text for a <pre>: valid UTF-8 as itself, everything else as a marked escape.
// `m` (when given) is wrapped in <mark>; a point mismatch becomes a visible marker.
std::string html_bytes(const std::string& s, const Mismatch* m = nullptr) {
  std::string o;
  bool open = false;
  auto boundary = [&](size_t i) {
    if (!m) return;
    if (m->begin == m->end && i == m->begin && !open) {
      o += "<mark class=pt title=\"here\">&#x25C0;</mark>";
      return;
    }
    if (!open && i >= m->begin && i < m->end) {
      o += "<mark>";
      open = true;
    } else if (open && i >= m->end) {
      o += "</mark>";
      open = false;
    }
  };
  size_t i = 0;
  while (i < s.size()) {
    boundary(i);
    unsigned char c = static_cast<unsigned char>(s[i]);
    char32_t cp = 0;
    size_t n = utf8_at(s, i, cp);
    if (n == 1) {
      if (c == '\n')
        o += "<span class=e>\\n</span>\n";
      else if (c == '\t')
        o += "<span class=e>\\t</span>";
      else if (c < 0x20 || c == 0x7f)
        o += "<span class=e>" + hex2(c) + "</span>";
      else if (const char* e = pinta::text::markup_entity(static_cast<char>(c)))
        o += e;
      else
        o += static_cast<char>(c);
      ++i;
    } else if (n == 0) {
      o += "<span class=\"e bad\" title=\"not UTF-8\">" + hex2(c) + "</span>";
      ++i;
    } else if (invisible(cp)) {
      char b[16];
      snprintf(b, sizeof b, "\\u{%04X}", static_cast<unsigned>(cp));
      o += std::string("<span class=e title=\"invisible character\">") + b + "</span>";
      i += n;
    } else {
      o.append(s, i, n);
      i += n;
    }
  }
  if (m && m->begin == m->end && m->begin >= s.size())
    o += "<mark class=pt title=\"here\">&#x25C0;</mark>";
  if (open) o += "</mark>";
  return o;
}

// Text for HTML (case files, messages): like html_bytes without marking newlines.
std::string esc(const std::string& s) {
  std::string o;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    char32_t cp = 0;
    size_t n = utf8_at(s, i, cp);
    if (n == 1) {
      if (const char* e = pinta::text::markup_entity(static_cast<char>(c), true))
        o += e;
      else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
        o += hex2(c);
      else
        o += static_cast<char>(c);
      ++i;
    } else if (n == 0) {
      o += hex2(c);
      ++i;
    } else if (invisible(cp)) {
      char b[16];
      snprintf(b, sizeof b, "\\u{%04X}", static_cast<unsigned>(cp));
      o += b;
      i += n;
    } else {
      o.append(s, i, n);
      i += n;
    }
  }
  return o;
}

std::string dump(const json& j, int indent = -1, size_t max = 4096) {
  std::string d = j.dump(indent, ' ', false, json::error_handler_t::replace);
  if (d.size() > max) d = d.substr(0, max) + "…(" + std::to_string(d.size()) + " bytes)";
  return d;
}

std::string str(const json& j, const char* k) {
  if (!j.is_object() || !j.contains(k)) return "";
  const json& v = j[k];
  return v.is_string() ? v.get<std::string>() : dump(v);
}

// "fail" | "warn" | "pass" | "skip" for a whole case.
std::string case_kind(const std::string& state) {
  if (is_failure_state(state)) return "fail";
  if (state == "XFAIL" || state == "NON-STRICT") return "warn";
  if (state == "PASS") return "pass";
  return "skip";
}

int kind_rank(const std::string& k) {
  return k == "fail" ? 0 : k == "warn" ? 1 : k == "pass" ? 3 : 2;
}

// The first place where `want` is not matched by `got` (whole: equal; otherwise a subset),
// as a dotted path and what differs.
bool json_mismatch(const json& want, const json& got, bool whole, std::string& path,
                   std::string& what) {
  if (want.is_object() && got.is_object()) {
    for (auto it = want.begin(); it != want.end(); ++it) {
      if (!got.contains(it.key())) {
        path = it.key();
        what = "missing key \"" + it.key() + "\" (expected " + dump(it.value(), -1, 200) + ")";
        return true;
      }
      std::string sub;
      if (json_mismatch(it.value(), got[it.key()], whole, sub, what)) {
        path = it.key() + (sub.empty() ? "" : "." + sub);
        return true;
      }
    }
    if (whole)
      for (auto it = got.begin(); it != got.end(); ++it)
        if (!want.contains(it.key())) {
          path = it.key();
          what = "unexpected key \"" + it.key() + "\"";
          return true;
        }
    return false;
  }
  if (want == got) return false;
  path.clear();
  what = "expected " + dump(want, -1, 200) + ", got " + dump(got, -1, 200);
  return true;
}

// Byte offset of the quoted key named last in `path`, or npos.
size_t find_key(const std::string& text, const std::string& path) {
  std::string last = path.substr(path.rfind('.') == std::string::npos ? 0 : path.rfind('.') + 1);
  return text.find(json(last).dump());
}

const char* kStyle = R"CSS(
:root{--fail:#c62828;--failbg:#fdecea;--warn:#9a6700;--warnbg:#fff8c5;--pass:#1a7f37;--passbg:#e6f4ea;--skip:#6e7781;--skipbg:#f3f4f6;--line:#d0d7de}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif,"Apple Color Emoji","Segoe UI Emoji","Noto Color Emoji";margin:0;color:#1f2328;background:#fff}
header{padding:16px 24px;border-bottom:1px solid var(--line);background:#f6f8fa}
h1{font-size:20px;margin:0 0 6px}h2{font-size:16px;margin:20px 0 8px}h3{font-size:14px;margin:0}
main{padding:0 24px 40px}
code,pre,.mono{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace,"Apple Color Emoji","Segoe UI Emoji","Noto Color Emoji"}
.meta{color:#57606a;margin:2px 0}
.badges span{display:inline-block;padding:2px 10px;border-radius:12px;margin-right:6px;font-weight:600}
.b-fail{background:var(--failbg);color:var(--fail)}.b-pass{background:var(--passbg);color:var(--pass)}
.b-warn{background:var(--warnbg);color:var(--warn)}.b-skip{background:var(--skipbg);color:var(--skip)}
.summary{display:flex;gap:32px;flex-wrap:wrap;align-items:flex-start}
#matrix td:first-child{white-space:nowrap}
table{border-collapse:collapse}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.nz-fail{color:var(--fail);font-weight:700}
#filters{position:sticky;top:0;background:#fff;padding:8px 0;border-bottom:1px solid var(--line);z-index:2;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
#filters label{font-weight:600}
#matrix table{width:100%;table-layout:fixed}
#matrix th.id{width:92px}#matrix th.lv{width:60px}#matrix th.stc{width:150px}#matrix th.hook{width:34%}
#matrix th[data-host]{font-size:11px;white-space:nowrap}
#matrix.many th[data-host]{writing-mode:vertical-rl;transform:rotate(180deg);vertical-align:bottom;text-align:left;padding:8px 3px}
#matrix td.c{font-size:11px}
#matrix td.hook{font-size:12px;overflow-wrap:anywhere}
#matrix .where{font-size:11px;color:var(--fail);font-weight:400}.nw{white-space:nowrap}
#matrix td.k-fail,.unit.k-fail>summary{background:var(--failbg);color:var(--fail)}
#matrix td.k-warn,.unit.k-warn>summary{background:var(--warnbg);color:var(--warn)}
#matrix td.k-pass,.unit.k-pass>summary{background:var(--passbg);color:var(--pass)}
#matrix td.k-skip,.unit.k-skip>summary{background:var(--skipbg);color:var(--skip)}
#matrix a{color:inherit}
.st{display:inline-block;min-width:84px;font-weight:700}
.st.k-fail{color:var(--fail)}.st.k-warn{color:var(--warn)}.st.k-pass{color:var(--pass)}.st.k-skip{color:var(--skip)}
details.case{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:0}
details.case>summary{padding:6px 10px;cursor:pointer}
details.case[open]>summary{border-bottom:1px solid var(--line)}
.body{padding:8px 12px}
.req{margin:0 0 4px}.src{color:#57606a;margin:0 0 8px}
details.unit{margin:6px 0;border:1px solid var(--line);border-radius:4px}
details.unit>summary{padding:3px 8px;cursor:pointer;font-weight:600}
.unit .ub{padding:6px 10px}
.rerun{display:block;background:#f6f8fa;border:1px solid var(--line);padding:4px 8px;margin:4px 0 8px;user-select:all;white-space:pre-wrap;word-break:break-all}
.check{border-left:3px solid var(--fail);padding:2px 10px;margin:8px 0}
.fc-err{color:var(--fail);font-weight:600}.fc-note{color:#57606a}
pre{background:#f6f8fa;border:1px solid var(--line);padding:6px 8px;margin:4px 0;white-space:pre-wrap;word-break:break-all;max-height:22em;overflow:auto}
.e{color:#8250df;background:#fbefff;border-radius:2px}.e.bad{color:#fff;background:#cf222e}
mark{background:#ffd8b5;outline:2px solid var(--fail);color:inherit}mark.pt{background:var(--fail);color:#fff;outline:none}
.run{border-top:1px dashed var(--line);margin-top:6px;padding-top:4px}
.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}
.kv>b{font-weight:600;color:#57606a}
.muted{color:#57606a}
[hidden]{display:none!important}
)CSS";

// Plain JS (no modules, no fetch): filters by state, host, area and text; the filter lives in the
// URL fragment (#state=fail&host=gemini-0.61) so a filtered view can be linked and reloaded.
const char* kScript = R"JS(
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var rows = Array.prototype.slice.call(document.querySelectorAll('#matrix tbody tr'));
  var cases = Array.prototype.slice.call(document.querySelectorAll('details.case'));
  var hostCells = Array.prototype.slice.call(document.querySelectorAll('#matrix [data-host]'));
  var units = Array.prototype.slice.call(document.querySelectorAll('details.unit'));
  var f = { state: $('f-state'), host: $('f-host'), area: $('f-area'), text: $('f-text') };
  function unitKinds(el) {
    var m = {};
    (el.getAttribute('data-units') || '').split(' ').forEach(function (p) {
      var i = p.lastIndexOf(':');
      if (i > 0) m[p.slice(0, i)] = p.slice(i + 1);
    });
    return m;
  }
  function wanted(el, st, host, area, text) {
    if (area && el.getAttribute('data-area') !== area) return false;
    if (text && (el.getAttribute('data-search') || '').indexOf(text) < 0) return false;
    var kind = el.getAttribute('data-kind');
    if (host) {
      kind = unitKinds(el)[host];
      if (!kind) return false;
    }
    if (st === 'all') return true;
    if (st.indexOf('state:') === 0) return el.getAttribute('data-state') === st.slice(6);
    if (st === 'problem') return kind === 'fail' || kind === 'warn';
    return kind === st;
  }
  function readHash() {
    var h = (location.hash || '').replace(/^#/, '');
    if (h.indexOf('=') < 0) return;
    h.split('&').forEach(function (kv) {
      var i = kv.indexOf('='), k = kv.slice(0, i), v;
      try { v = decodeURIComponent(kv.slice(i + 1)); } catch (e) { return; }  // a mangled link
      if (f[k]) {
        if (f[k].tagName === 'SELECT' && !Array.prototype.some.call(f[k].options, function (o) {
          return o.value === v;
        })) return;
        f[k].value = v;
      }
    });
  }
  function writeHash() {
    var parts = [];
    Object.keys(f).forEach(function (k) {
      var v = f[k].value;
      if (v && v !== 'all') parts.push(k + '=' + encodeURIComponent(v));
    });
    try { history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname); }
    catch (e) { /* some browsers refuse replaceState on file:// */ }
  }
  function apply() {
    var st = f.state.value, host = f.host.value, area = f.area.value;
    var text = f.text.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (r) { r.hidden = !wanted(r, st, host, area, text); });
    cases.forEach(function (c) {
      var ok = wanted(c, st, host, area, text);
      c.hidden = !ok;
      if (ok) shown++;
    });
    hostCells.forEach(function (c) { c.hidden = !!host && c.getAttribute('data-host') !== host; });
    units.forEach(function (u) { u.hidden = !!host && u.getAttribute('data-host') !== host; });
    $('f-count').textContent = shown + ' of ' + cases.length + ' cases shown';
    writeHash();
  }
  readHash();
  Object.keys(f).forEach(function (k) {
    f[k].addEventListener('input', apply);
    f[k].addEventListener('change', apply);
  });
  apply();
  document.body.setAttribute('data-ready', 'yes');
})();
)JS";

struct Counts {
  int fail = 0, warn = 0, pass = 0, skip = 0;
  void add(const std::string& k) {
    if (k == "fail")
      ++fail;
    else if (k == "warn")
      ++warn;
    else if (k == "pass")
      ++pass;
    else
      ++skip;
  }
};

void counts_row(std::ostringstream& h, const std::string& name, const Counts& c) {
  h << "<tr><td>" << esc(name) << "</td><td class=\"n" << (c.fail ? " nz-fail" : "") << "\">"
    << c.fail << "</td><td class=n>" << c.warn << "</td><td class=n>" << c.pass
    << "</td><td class=n>" << c.skip << "</td></tr>";
}

// What a check compares, taken from the run that failed it: the stream it reads, or a line (the
// kind's ActualView in the matcher registry).
void render_actual(std::ostringstream& h, const CheckFailure& cf, const json& run) {
  const std::string& k = cf.check;
  const Matcher* m = find_check(k);
  const ActualView view = m ? m->actual : ActualView::kNone;
  if (view == ActualView::kStdout || view == ActualView::kStderr) {
    const char* stream = view == ActualView::kStdout ? "stdout" : "stderr";
    bool cut = false;
    std::string text = unescape_shown(str(run, stream), &cut);
    auto mm = locate_mismatch(k, cf.expected, text);
    h << "<div class=fc-note>actual " << stream << " ("
      << (run.value(std::string(stream) + "_capped", false) ? "more than " : "")
      << str(run, (std::string(stream) + "_bytes").c_str()) << " bytes"
      << (cut ? ", the first " + std::to_string(text.size()) + " shown" : "") << ")"
      << (mm ? ": <span class=fc-err>" + esc(mm->note) + "</span>" : std::string()) << "</div>";
    h << "<pre>" << html_bytes(text, mm ? &*mm : nullptr) << "</pre>";
    return;
  }
  std::string actual;
  if (view == ActualView::kExit)
    actual = "exit " + str(run, "exit") + ", signal " + str(run, "signal") + ", timed out " +
             str(run, "timed_out");
  else if (view == ActualView::kEffect)
    actual = "effect " + str(run, "effect") + "; host: " + dump(run.value("host", json()), -1, 600);
  else if (view == ActualView::kTimings)
    actual = "first stdout " + str(run, "first_stdout_ms") + " ms, exited " +
             str(run, "exited_ms") + " ms, pipes closed " + str(run, "closed_ms") + " ms";
  if (!actual.empty())
    h << "<div class=fc-note>actual: <span class=mono>" << esc(actual) << "</span></div>";
}

void render_run(std::ostringstream& h, const json& r, size_t index) {
  h << "<div class=run><div class=kv>";
  h << "<b>run</b><span>" << index + 1 << " · event <code>" << esc(str(r, "event"))
    << "</code></span>";
  if (r.contains("command")) h << "<b>command</b><code>" << esc(str(r, "command")) << "</code>";
  auto stream = [&](const char* name) {
    if (!r.contains(name)) return;
    bool cut = false;
    std::string text = unescape_shown(str(r, name), &cut);
    std::string bytes = str(r, (std::string(name) + "_bytes").c_str());
    const bool capped = r.value(std::string(name) + "_capped", false);
    h << "<b>" << name << "</b><div><span class=muted>"
      << (bytes.empty() ? "" : (capped ? "more than " : "") + bytes + " bytes")
      << (capped ? " (the capture stopped there)" : "")
      << (cut ? ", the first " + std::to_string(text.size()) + " shown (cut)" : "") << "</span>";
    if (!text.empty()) h << "<pre>" << html_bytes(text) << "</pre>";
    h << "</div>";
  };
  stream("stdin");
  stream("stdout");
  stream("stderr");
  if (r.contains("exit") || r.contains("signal"))
    h << "<b>exit</b><span class=mono>status " << esc(str(r, "exit")) << ", signal "
      << esc(str(r, "signal")) << ", timed out " << esc(str(r, "timed_out")) << "</span>";
  if (r.contains("exited_ms"))
    h << "<b>timings</b><span class=mono>first stdout byte " << esc(str(r, "first_stdout_ms"))
      << " ms · exited " << esc(str(r, "exited_ms")) << " ms · pipes closed "
      << esc(str(r, "closed_ms")) << " ms</span>";
  if (r.contains("effect"))
    h << "<b>host effect</b><span><b>" << esc(str(r, "effect")) << "</b></span>";
  if (r.contains("host")) h << "<b>host saw</b><pre>" << html_bytes(dump(r["host"], 1)) << "</pre>";
  if (r.contains("median_ms")) h << "<b>median</b><span class=mono>" << esc(dump(r)) << "</span>";
  h << "</div></div>";
}

void render_unit(std::ostringstream& h, const CaseOutcome& co, const HostOutcome& u,
                 const RunOptions& o) {
  const std::string kind = unit_kind(co.state, u.state);
  const bool bad = kind == "fail" || kind == "warn";
  h << "<details class=\"unit k-" << kind << "\" data-host=\"" << esc(u.host) << "\""
    << (bad ? " open" : "") << "><summary>" << esc(u.host) << " — "
    << esc(u.state == "hooks_not_run" ? "hooks do not run" : u.state)
    << (u.effect.empty() ? "" : " (host effect: " + esc(u.effect) + ")")
    << "</summary><div class=ub>";
  if (bad || u.state == "unsupported")
    h << "<div class=muted>rerun:</div><code class=rerun>"
      << esc(rerun_command(o, u.host, co.c->id)) << "</code>";
  // Each failed expectation, FileCheck-style: where, what was expected, what came instead.
  std::vector<bool> covered(u.failures.size(), false);
  for (const auto& cf : u.checks) {
    for (size_t i = 0; i < u.failures.size(); ++i)
      if (u.failures[i] == cf.message) covered[i] = true;
    h << "<div class=check><div><span class=mono>" << esc(co.c->file) << ":</span> <span "
      << "class=fc-err>error: expect." << esc(cf.check) << "</span>"
      << (cf.run >= 0 ? " <span class=muted>(run " + std::to_string(cf.run + 1) + ")</span>" : "")
      << "</div>";
    h << "<div class=fc-note>expected: <span class=mono>" << esc(dump(cf.expected, -1, 600))
      << "</span></div>";
    h << "<pre>" << esc(cf.message) << "</pre>";  // runner text: adapter bytes already escaped
    if (cf.run >= 0 && static_cast<size_t>(cf.run) < u.runs.size())
      render_actual(h, cf, u.runs[static_cast<size_t>(cf.run)]);
    h << "</div>";
  }
  bool any_other = false;
  for (size_t i = 0; i < u.failures.size(); ++i)
    if (!covered[i]) any_other = true;
  if (any_other) {
    h << "<pre>";
    for (size_t i = 0; i < u.failures.size(); ++i)
      if (!covered[i]) h << esc(u.failures[i]) << "\n";
    h << "</pre>";
  }
  // Runs: for a failing unit the ones its checks name and the first (at most 6); for a passing one
  // the first. The rest are in report.json.
  std::vector<size_t> show;
  if (!u.runs.empty()) show.push_back(0);
  if (bad) {
    for (const auto& cf : u.checks)
      if (cf.run >= 0 && static_cast<size_t>(cf.run) < u.runs.size()) show.push_back(cf.run);
    if (u.runs.size() > 1) show.push_back(u.runs.size() - 1);
  }
  std::sort(show.begin(), show.end());
  show.erase(std::unique(show.begin(), show.end()), show.end());
  if (show.size() > 6) show.resize(6);
  for (size_t i : show) render_run(h, u.runs[i], i);
  if (u.runs.size() > show.size())
    h << "<div class=muted>" << (u.runs.size() - show.size()) << " more run(s) of " << u.runs.size()
      << " in report.json</div>";
  h << "</div></details>";
}

std::string cell_text(const HostOutcome& u) {
  if (u.state == "hooks_not_run") return "hooks do not run";
  std::string s = u.state == "pass" ? "ok" : u.state;
  if (!u.effect.empty()) s += " (" + u.effect + ")";
  return s;
}

// Escaped text that a narrow column may break between the words of a snake_case name or the
// parts of a path (after '_' or '/'), besides spaces and hyphens, and nowhere inside a word.
std::string breakable(const std::string& s) {
  std::string o;
  for (char c : esc(s)) {
    o += c;
    if (c == '_' || c == '/') o += "<wbr>";
  }
  return o;
}

}  // namespace

std::string unescape_shown(const std::string& shown, bool* cut) {
  std::string o;
  if (cut) *cut = false;
  for (size_t i = 0; i < shown.size(); ++i) {
    char c = shown[i];
    if (c == '\\' && i + 1 < shown.size()) {
      char n = shown[i + 1];
      if (n == 'n') {
        o += '\n';
        ++i;
        continue;
      }
      if (n == '\\') {
        o += '\\';
        ++i;
        continue;
      }
      if (n == 'x' && i + 3 < shown.size() &&
          std::isxdigit(static_cast<unsigned char>(shown[i + 2])) &&
          std::isxdigit(static_cast<unsigned char>(shown[i + 3]))) {
        o += static_cast<char>(std::stoi(shown.substr(i + 2, 2), nullptr, 16));
        i += 3;
        continue;
      }
    }
    // The runner escapes every "…" of the bytes it shows, so a literal one is its cut marker.
    if (shown.compare(i, 4, "\xE2\x80\xA6(") == 0) {
      if (cut) *cut = true;
      break;
    }
    o += c;
  }
  return o;
}

std::optional<Mismatch> locate_mismatch(const std::string& check, const json& expected,
                                        const std::string& text) {
  auto at = [](size_t b, size_t e, std::string note) {
    return std::optional<Mismatch>(Mismatch{b, e, std::move(note)});
  };
  if ((check == "stdout" || check == "stderr") && expected == "empty") {
    if (text.empty()) return std::nullopt;
    return at(0, text.size(), "expected nothing, got " + std::to_string(text.size()) + " byte(s)");
  }
  if (check == "stdout_contains") return at(text.size(), text.size(), "the text is not in stdout");
  // One JSON object, then '\n', nothing else.
  const bool needs_line = (check == "stdout" && expected == "one_json_line") || check == "reply" ||
                          check == "reply_has" || check == "reply_lacks";
  if (!needs_line) return std::nullopt;
  if (text.empty()) return at(0, 0, "stdout is empty");
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) return at(0, 3, "a byte-order mark before the JSON");
  size_t nl = text.find('\n');
  if (nl == std::string::npos) return at(text.size(), text.size(), "no '\\n' at the end");
  if (nl + 1 < text.size()) return at(nl + 1, text.size(), "bytes after the first line");
  std::string line = text.substr(0, nl);
  size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return at(0, nl, "an empty line, not a JSON object");
  if (line[first] != '{' || first != 0) return at(0, first + 1, "the line does not start with '{'");
  if (line.back() != '}') return at(line.size() - 1, line.size(), "the line does not end with '}'");
  json reply;
  try {
    reply = json::parse(line);
  } catch (const json::parse_error& e) {
    size_t b = e.byte > 0 ? std::min(e.byte - 1, line.size() - 1) : 0;
    return at(b, b + 1, "not valid JSON here");
  }
  if (check == "stdout") return std::nullopt;  // the line is fine; the message says why it failed
  std::string path, what;
  if (check == "reply_lacks") {
    for (const auto& k : expected)
      if (k.is_string() && reply.contains(k.get<std::string>())) {
        size_t p = find_key(line, k.get<std::string>());
        std::string note = "forbidden key \"" + k.get<std::string>() + "\"";
        if (p == std::string::npos) return at(line.size() - 1, line.size(), note);
        return at(p, p + json(k).dump().size(), note);
      }
    return std::nullopt;
  }
  if (!json_mismatch(expected, reply, check == "reply", path, what)) return std::nullopt;
  if (path.empty()) return at(0, line.size(), what);
  size_t p = find_key(line, path);
  if (p == std::string::npos) return at(line.size() - 1, line.size(), path + ": " + what);
  std::string last = path.substr(path.rfind('.') == std::string::npos ? 0 : path.rfind('.') + 1);
  return at(p, p + json(last).dump().size(), path + ": " + what);
}

namespace {

// The run's tallies: per case kind, host, area and state.
struct Tallies {
  Counts total;
  std::map<std::string, Counts> by_host, by_area;
  std::vector<std::string> areas;
  std::map<std::string, int> states;
};

Tallies tally(const RunSummary& s) {
  Tallies t;
  for (const auto& co : s.cases) {
    t.total.add(case_kind(co.state));
    t.by_area[co.c->area].add(case_kind(co.state));
    ++t.states[co.state];
    for (const auto& u : co.hosts) t.by_host[u.host].add(unit_kind(co.state, u.state));
  }
  for (const auto& [a, c] : t.by_area) t.areas.push_back(a);
  return t;
}

// The head of the page, the header (what ran, when, the badges) and the summary tables.
void render_header(std::ostringstream& h, const RunSummary& s, const RunOptions& o, Tallies& t,
                   bool hooks) {
  char when[64] = "";
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  if (gmtime_r(&now, &tm)) std::strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);

  h << "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
    << "<meta name=viewport content=\"width=device-width,initial-scale=1\">"
    // Nothing may load from anywhere: inline style and script only.
    << "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src "
       "'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
    << "<title>Conformance: " << s.failed << " failed, " << s.passed << " passed</title><style>"
    << kStyle << "</style></head><body>\n<header><h1>"
    << (hooks ? "Hook protocol report" : "Conformance report") << "</h1>";
  if (hooks)
    h << "<p class=meta>Hooks of <code>" << esc(o.adapter) << "</code> graded as "
      << esc(o.hosts.empty() ? "" : o.hosts.front()) << "</p><p class=meta>" << s.cases.size()
      << " hook(s) · "
      << (o.strict ? "--strict (SHOULD checks count)" : "MUST checks count (no --strict)");
  else
    h << "<p class=meta>Adapter <code>" << esc(o.adapter) << "</code></p><p class=meta>"
      << o.hosts.size() << " host(s) · " << s.cases.size() << " case(s) · "
      << (o.strict ? "--strict (SHOULD cases count)" : "MUST cases count (no --strict)");
  h << " · " << esc(seconds_text(s.seconds)) << " · " << when << "</p><p class=badges>"
    << "<span class=b-fail>" << s.failed << " failed</span><span class=b-pass>" << s.passed
    << " passed</span>";
  if (!hooks)
    h << "<span class=b-warn>" << t.total.warn << " xfail / non-strict</span><span class=b-skip>"
      << s.skipped << " skipped</span>";
  if (s.not_run) h << "<span class=b-skip>" << s.not_run << " not run</span>";
  h << "</p></header>\n<main>\n<section id=summary><h2>Summary</h2><div class=summary>";
  h << "<table id=by-host><thead><tr><th>Host</th><th>fail</th><th>"
    << (hooks ? "warnings" : "xfail / non-strict") << "</th><th>pass</th><th>skipped</th></tr>"
    << "</thead><tbody>";
  for (const auto& host : o.hosts) counts_row(h, host, t.by_host[host]);
  h << "</tbody></table>";
  if (!hooks) {
    h << "<table id=by-area><thead><tr><th>Area</th><th>fail</th><th>xfail / "
         "non-strict</th><th>pass</th><th>skipped</th></tr></thead><tbody>";
    for (const auto& a : t.areas) counts_row(h, a, t.by_area[a]);
    h << "</tbody></table>";
  }
  h << "</div></section>\n";
}

void render_filters(std::ostringstream& h, const RunOptions& o, const Tallies& t, bool hooks) {
  h << "<section id=filters><label for=f-state>State</label><select id=f-state>"
    << "<option value=all>all</option><option value=fail>failures</option>"
    << "<option value=problem>" << (hooks ? "failures, warnings" : "failures, xfail, non-strict")
    << "</option>"
    << "<option value=pass>passed</option><option value=skip>skipped</option>";
  for (const auto& [st, n] : t.states)
    h << "<option value=\"state:" << esc(st) << "\">" << esc(st) << " (" << n << ")</option>";
  h << "</select><label for=f-host>Host</label><select id=f-host><option value=\"\">all</option>";
  for (const auto& host : o.hosts) h << "<option>" << esc(host) << "</option>";
  h << "</select><label for=f-area>Area</label><select id=f-area><option value=\"\">all</option>";
  for (const auto& a : t.areas) h << "<option>" << esc(a) << "</option>";
  h << "</select><label for=f-text>Find</label><input id=f-text type=search "
       "placeholder=\"id or words\" size=18><span id=f-count class=muted></span></section>\n";
}

// The data-* attributes the filters read, of a case's matrix row and of its details.
std::string data_attrs(const CaseOutcome& co) {
  std::string units;
  for (const auto& u : co.hosts) units += u.host + ":" + unit_kind(co.state, u.state) + " ";
  std::string search = co.c->id + " " + co.c->title + " " + co.c->requirement;
  std::transform(search.begin(), search.end(), search.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return " data-state=\"" + esc(co.state) + "\" data-kind=\"" + case_kind(co.state) +
         "\" data-area=\"" + esc(co.c->area) + "\" data-units=\"" + esc(units) +
         "\" data-search=\"" + esc(search) + "\"";
}

// The matrix: a row per case, a column per host.
void render_matrix(std::ostringstream& h, const std::vector<const CaseOutcome*>& order,
                   const RunOptions& o, bool hooks) {
  // Many host columns (the contract's every host) stand their names upright, so a name never
  // breaks and the columns stay narrow.
  const bool many = o.hosts.size() > 4;
  h << "<section id=matrix" << (many ? " class=many" : "") << "><h2>Matrix</h2><table><thead><tr>"
    << "<th class=id>" << (hooks ? "Hook" : "Case") << "</th>"
    << (hooks ? "<th class=hook>Registered as</th>" : "")
    << "<th class=lv>Level</th><th class=stc>State</th>";
  for (const auto& host : o.hosts)
    h << "<th data-host=\"" << esc(host) << "\">" << esc(host) << "</th>";
  h << "</tr></thead><tbody>";
  for (const CaseOutcome* co : order) {
    const std::string k = case_kind(co->state);
    h << "<tr" << data_attrs(*co) << "><td><a href=\"#case-" << esc(co->c->id) << "\">"
      << esc(co->c->id) << "</a></td>"
      << (hooks ? "<td class=hook>" + breakable(co->c->title) + "</td>" : std::string()) << "<td>"
      << esc(co->c->level) << "</td><td><span class=\"st k-"
      << k << "\">" << esc(co->state) << "</span>";
    // Where it failed, in the row itself: visible whatever columns the width or a filter hides.
    std::string where;
    for (const auto& u : co->hosts)
      if (unit_kind(co->state, u.state) == "fail")  // a host's name is one word: never broken
        where += (where.empty() ? "" : ", ") + std::string("<span class=nw>") + esc(u.host) + "</span>";
    if (!where.empty()) h << "<div class=where>on " << where << "</div>";
    h << "</td>";
    for (const auto& host : o.hosts) {
      const HostOutcome* u = nullptr;
      for (const auto& x : co->hosts)
        if (x.host == host) u = &x;
      if (!u) {
        h << "<td class=c data-host=\"" << esc(host) << "\"></td>";
        continue;
      }
      h << "<td class=\"c k-" << unit_kind(co->state, u->state) << "\" data-host=\"" << esc(host)
        << "\">" << breakable(cell_text(*u)) << "</td>";
    }
    h << "</tr>";
  }
  h << "</tbody></table></section>\n";
}

// Each case in full: its requirement and source, and every host's run.
void render_cases(std::ostringstream& h, const std::vector<const CaseOutcome*>& order,
                  const RunOptions& o) {
  h << "<section id=cases><h2>Cases</h2>";
  for (const CaseOutcome* co : order) {
    const std::string k = case_kind(co->state);
    h << "<details class=case id=\"case-" << esc(co->c->id) << "\"" << data_attrs(*co)
      << (k == "fail" ? " open" : "") << "><summary><span class=\"st k-" << k << "\">"
      << esc(co->state) << "</span> <b>" << esc(co->c->id) << "</b> " << esc(co->c->title)
      << " <span class=muted>[" << esc(co->c->level) << ", " << esc(co->c->area);
    if (co->seconds > 0) {
      char b[32];
      snprintf(b, sizeof b, ", %.2f s", co->seconds);
      h << b;
    }
    h << "]</span></summary><div class=body>";
    h << "<p class=req><b>Requirement:</b> " << esc(co->c->requirement) << "</p>";
    h << "<p class=src>Source: " << esc(co->c->source) << " · case file <code>" << esc(co->c->file)
      << "</code>" << (co->c->xfail ? " · expected to fail: " + esc(*co->c->xfail) : "") << "</p>";
    std::vector<const HostOutcome*> us;
    for (const auto& u : co->hosts) us.push_back(&u);
    std::stable_sort(us.begin(), us.end(), [&](const HostOutcome* a, const HostOutcome* b) {
      return kind_rank(unit_kind(co->state, a->state)) < kind_rank(unit_kind(co->state, b->state));
    });
    for (const HostOutcome* u : us) render_unit(h, *co, *u, o);
    h << "</div></details>\n";
  }
  h << "</section>";
}

}  // namespace

std::string render_html_report(const RunSummary& s, const RunOptions& o) {
  std::ostringstream h;
  // The protocol profile grades the author's hooks: each row names its hook, and the words are
  // the hooks' (no case file, so no xfail, no area).
  const bool hooks = o.profile == "protocol";
  // Order: failures first, then XFAIL / NON-STRICT, skipped, passes; by id within each.
  std::vector<const CaseOutcome*> order;
  for (const auto& co : s.cases) order.push_back(&co);
  std::stable_sort(order.begin(), order.end(), [](const CaseOutcome* a, const CaseOutcome* b) {
    int ra = kind_rank(case_kind(a->state)), rb = kind_rank(case_kind(b->state));
    if (ra != rb) return ra < rb;
    return a->c->id < b->c->id;
  });
  Tallies t = tally(s);
  render_header(h, s, o, t, hooks);
  render_filters(h, o, t, hooks);
  render_matrix(h, order, o, hooks);
  if (!s.cross_host_text.empty())
    h << "<section id=cross-host><h2>Cross-host matrix</h2><pre>" << esc(s.cross_host_text)
      << "</pre></section>\n";
  render_cases(h, order, o);
  h << "</main>\n<script>" << kScript << "</script></body></html>\n";
  return h.str();
}

}  // namespace pinta::conformance
