#!/usr/bin/env bash
# matrix.html as a person sees it, in headless Chromium (Debian's `chromium`; ci/install-deps.sh
# installs it). A real `conformance run --format github` over the OUT cases grades a broken
# adapter (conformance/test/hostile-adapter.sh: our adapter, the zoo member two_lines under
# Antigravity, hostile bytes on Gemini's gate event), then:
#  - the page is self-contained: one inline <script>, nothing that loads from elsewhere;
#  - Chromium logs no console message (no JS exception, no CSP violation) loading it; a control
#    page with an exception proves that this Chromium reports them;
#  - the rendered DOM has one matrix row and one case per case in report.json, the failing cases
#    before the passing ones, the hostile output as text (never as markup), and the filter (read
#    from the URL fragment) hides the passing rows;
#  - at 1,400 px: it fits, host headers do not wrap, no word is split, and the protocol profile's
#    report draws Korean and emoji with real glyphs (measured by a DOM script);
#  - screenshots go into the report directory (matrix.png, protocol.png).
# Without chromium it prints SKIPPED with the reason and exits 77.
# Usage: report-browser.sh CONFORMANCE ADAPTER ZOO-DIR [REPORT-DIR]
#   REPORT-DIR: where the report and matrix.png stay (default: a temp dir, removed at the end).
set -u
conf=$(realpath "$1") adapter=$(realpath "$2") zoo=$(realpath "$3") keep="${4:-}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
browser=""
for b in chromium chromium-browser; do
  command -v "$b" >/dev/null 2>&1 && { browser="$b"; break; }
done
if [ -z "$browser" ]; then
  echo "SKIPPED: no chromium on PATH (ci/install-deps.sh installs Debian's chromium)"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-report-browser.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home"
dir="${keep:-$work/report}"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Chromium with a throwaway profile, no network to speak of, console messages on stderr.
chrome() {
  HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_CACHE_HOME="$work/home/.cache" \
    timeout 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --disable-background-networking --disable-sync --user-data-dir="$work/profile" \
    --enable-logging=stderr --v=0 "$@"
}
console_lines() { grep -a 'CONSOLE' "$1" || true; }

# The control: this Chromium does report an exception and console.error.
printf '<!doctype html><body><script>console.error("control-error"); null.f();</script>' \
  >"$work/control.html"
chrome --dump-dom "file://$work/control.html" >"$work/control.dom" 2>"$work/control.err"
if ! console_lines "$work/control.err" | grep -q 'Uncaught TypeError'; then
  echo "SKIPPED: this chromium does not print console messages with --enable-logging=stderr" \
    "($("$browser" --version 2>/dev/null)); nothing could be checked"
  exit 77
fi

rc=0
env -u GITHUB_STEP_SUMMARY "$conf" run --adapter "sh $here/hostile-adapter.sh $adapter $zoo" \
  --filter OUT- --jobs 4 --complete --report "$dir" --format github >"$work/run.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { fail "conformance run exited $rc, expected 1 (failures)"; tail -5 "$work/run.out"; }
for f in matrix.html report.json junit.xml matrix.md summary.md; do
  [ -s "$dir/$f" ] || fail "no $f in the report directory"
done
html="$dir/matrix.html"

# Self-contained and escaped, in the file itself.
[ "$(grep -o '<script' "$html" | wc -l)" = 1 ] || fail "more than our one <script> in matrix.html"
# (Only tags count: the adapter's "<img src=x" is text there, escaped.)
grep -Eo '<[a-zA-Z][^>]*>' "$html" | grep -Eiq ' src=|<link|<iframe|<object|<embed|<img' &&
  fail "matrix.html has a tag that loads something"
grep -Eo ' href="[^"]*"' "$html" | grep -vq ' href="#' && fail "matrix.html links outside itself"
grep -Eq '@import|url\(' "$html" && fail "matrix.html's style loads something"
LC_ALL=C grep -q $'[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]' "$html" && fail "raw control bytes in matrix.html"
iconv -f UTF-8 -t UTF-8 "$html" >/dev/null 2>&1 || fail "matrix.html is not valid UTF-8"

# Rendered.
chrome --dump-dom "file://$html" >"$work/dom.html" 2>"$work/dom.err"
if [ -n "$(console_lines "$work/dom.err")" ]; then
  fail "console messages while loading matrix.html:"
  console_lines "$work/dom.err" | head -5
fi
dom="$work/dom.html"
grep -q 'data-ready="yes"' "$dom" || fail "the page's script did not run to its end"
ncases=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$dir/report.json")
nfail=$(python3 -c 'import json,sys; print(sum(c["state"]=="FAIL" for c in json.load(open(sys.argv[1]))["cases"]))' "$dir/report.json")
npass=$(python3 -c 'import json,sys; print(sum(c["state"]=="PASS" for c in json.load(open(sys.argv[1]))["cases"]))' "$dir/report.json")
[ "$nfail" -gt 0 ] && [ "$npass" -gt 0 ] || fail "expected failing and passing cases (FAIL $nfail, PASS $npass)"
rows=$(grep -o '<tr data-state=' "$dom" | wc -l)
details=$(grep -o '<details class="case"' "$dom" | wc -l)
[ "$rows" = "$ncases" ] || fail "matrix rows: $rows, cases in report.json: $ncases"
[ "$details" = "$ncases" ] || fail "case sections: $details, cases in report.json: $ncases"
grep -q ">$ncases of $ncases cases shown<" "$dom" || fail "no '$ncases of $ncases cases shown'"
# Failures first: the first row is a failure, and no failure follows a pass.
python3 - "$dom" <<'PY' || fail "the failing cases are not listed first"
import re, sys
states = re.findall(r'<tr data-state="([A-Z-]+)" data-kind="(\w+)"', open(sys.argv[1]).read())
kinds = [k for _, k in states]
assert kinds and kinds[0] == "fail", kinds[:3]
assert "fail" not in kinds[kinds.index("pass"):] if "pass" in kinds else True
PY
# The hostile output is there, as text; the rerun command and the FileCheck-style error too.
grep -q '&lt;/script&gt;&lt;script&gt;console.error' "$dom" || fail "the adapter's stdout is not shown as text"
grep -q '&lt;img src=x onerror=alert(1)&gt;' "$dom" || fail "the adapter's <img> is not shown as text"
grep -q 'title="not UTF-8">\\xff<' "$dom" || fail "invalid UTF-8 is not shown as \\xff"
grep -q '\\u{202E}' "$dom" || fail "the bidi override is not shown as \\u{202E}"
grep -q 'error: expect.stdout' "$dom" || fail "no FileCheck-style 'error: expect.stdout'"
grep -q 'bytes after the first line' "$dom" || fail "the mismatch is not pointed out"
grep -q -- "--host gemini-0.61 --filter OUT-0001</code>" "$dom" || fail "no rerun command for OUT-0001 under gemini-0.61"

# The filter, from the URL fragment: only failures under gemini-0.61 stay visible.
chrome --dump-dom "file://$html#state=fail&host=gemini-0.61" >"$work/f.html" 2>"$work/f.err"
[ -z "$(console_lines "$work/f.err")" ] || fail "console messages with a filter: $(console_lines "$work/f.err" | head -2)"
python3 - "$work/f.html" <<'PY' || fail "the state/host filter does not hide what it should"
import re, sys
dom = open(sys.argv[1]).read()
rows = re.findall(r'<tr (data-state="[^"]*" data-kind="(\w+)"[^>]*?data-units="([^"]*)"[^>]*)>', dom)
assert rows
shown = 0
for attrs, kind, units in rows:
    hidden = ' hidden=' in attrs or attrs.endswith(' hidden')
    unit = dict(u.rsplit(':', 1) for u in units.split())
    want = unit.get('gemini-0.61') == 'fail'
    assert hidden != want, (attrs[:80], want)
    shown += want
assert shown > 0
m = re.search(r'>(\d+) of (\d+) cases shown<', dom)
assert m and int(m.group(1)) == shown, (m and m.group(0), shown)
# Other hosts' columns are hidden.
assert re.search(r'<th data-host="agy-1.0" hidden', dom), "agy-1.0 column still shown"
PY

# A mangled fragment (a link cut in the middle of an escape) is ignored, not an exception.
chrome --dump-dom "file://$html#state=%E0%A4%A&host=nope" >"$work/m.html" 2>"$work/m.err"
[ -z "$(console_lines "$work/m.err")" ] || fail "console messages with a mangled fragment: $(console_lines "$work/m.err" | head -2)"
grep -q ">$ncases of $ncases cases shown<" "$work/m.html" || fail "a mangled fragment filtered the page"

# The protocol profile's report of a hook whose command and reason are Korean with an emoji: the
# text must be drawn with real glyphs (the fonts ci/install-deps.sh installs), not boxes.
proj="$work/hooks"
mkdir -p "$proj/.claude"
cat >"$proj/.claude/settings.json" <<'JSON'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "echo '차단: 위험한 명령입니다 🚫' >&2; exit 2"}]}]}}
JSON
prc=0
env -u GITHUB_STEP_SUMMARY "$conf" run --profile protocol --config "$proj/.claude/settings.json" \
  --report "$dir/protocol" >"$work/proto.out" 2>&1 || prc=$?
[ "$prc" = 0 ] || { fail "the protocol run exited $prc, expected 0"; tail -5 "$work/proto.out"; }
phtml="$dir/protocol/matrix.html"

# Both reports at 1,400 px, measured by a page of our own (the report's CSP forbids any script
# but its own), in one Chromium run:
#  - no host column ends past the right edge, and every FAIL row names where it failed in the row
#    itself (before: the last host columns were off screen, and a FAIL row could show only green
#    cells);
#  - no host column header wraps (before: `gemini-0.61` broke as `gemini-0.` / `61`), and no word
#    in a matrix cell is split across two lines (a run of letters, digits and dots: one line box);
#  - Korean and an emoji in the protocol report are drawn as glyphs: each drawn in the page's own
#    font on a canvas differs from an unassigned code point drawn the same way (the box a missing
#    glyph gets) and is not blank.
cat >"$work/measure.html" <<'HTML'
<!doctype html><body style="margin:0"><canvas id=c width=64 height=40></canvas>
<script>
var urls = location.hash.slice(1).split('|');
function pixels(font, text) {
  var c = document.getElementById('c'), x = c.getContext('2d');
  x.clearRect(0, 0, c.width, c.height);
  x.font = font; x.textBaseline = 'top'; x.fillStyle = '#000';
  x.fillText(text, 2, 2);
  return Array.prototype.join.call(x.getImageData(0, 0, c.width, c.height).data, ',');
}
function drawn(font, text) {  // a glyph, not the missing-glyph box and not nothing
  var p = pixels(font, text), none = pixels(font, '\u0378'), blank = pixels(font, ' ');
  return p !== none && p !== blank;
}
function measure(i) {
  if (i >= urls.length) return;
  var f = document.createElement('iframe');
  f.style.cssText = 'width:1400px;height:900px;border:0';
  f.onload = function () {
    var d = f.contentDocument, w = f.contentWindow;
    var cells = d.querySelectorAll('#matrix th, #matrix td');
    var right = 0;
    for (var k = 0; k < cells.length; k++) right = Math.max(right, cells[k].getBoundingClientRect().right);
    var bad = 0, rows = d.querySelectorAll('#matrix tbody tr[data-kind="fail"]');
    for (var j = 0; j < rows.length; j++) if (!rows[j].querySelector('.where')) bad++;
    var wrapped = [], split = [];
    var heads = d.querySelectorAll('#matrix th[data-host]');
    for (var h = 0; h < heads.length; h++) {
      var r = d.createRange(); r.selectNodeContents(heads[h]);
      if (r.getClientRects().length !== 1) wrapped.push(heads[h].textContent);
    }
    // Words: runs of letters, digits and dots, and every host's name (`gemini-0.61` is one word).
    var names = [];
    for (var n = 0; n < heads.length; n++) names.push(heads[n].textContent);
    var walk = d.createTreeWalker(d.querySelector('#matrix tbody'), NodeFilter.SHOW_TEXT), t;
    while ((t = walk.nextNode())) {
      var words = [], re = /[A-Za-z0-9.]{2,}/g, m;
      while ((m = re.exec(t.data))) words.push([m.index, m[0]]);
      names.forEach(function (name) {
        for (var at = t.data.indexOf(name); at >= 0; at = t.data.indexOf(name, at + 1)) words.push([at, name]);
      });
      words.forEach(function (wd) {
        var wr = d.createRange(); wr.setStart(t, wd[0]); wr.setEnd(t, wd[0] + wd[1].length);
        if (wr.getClientRects().length > 1) split.push(wd[1]);
      });
    }
    var tofu = [];
    var hook = d.querySelector('#matrix td.hook');
    if (hook) {
      var font = w.getComputedStyle(hook).font;
      if (!drawn(font, '\ucc28')) tofu.push('korean');  // one character, as the box it is held to
      if (!drawn(font, '\ud83d\udeab')) tofu.push('emoji');
    }
    console.log('MEASURE ' + i + ' right=' + Math.ceil(right) + ' scroll=' + d.documentElement.scrollWidth +
                ' inner=' + w.innerWidth + ' failrows=' + rows.length + ' unplaced=' + bad +
                ' hook=' + (hook ? 1 : 0) + ' wrapped=[' + wrapped.join(',') + '] split=[' +
                split.slice(0, 5).join(',') + '] tofu=[' + tofu.join(',') + ']');
    measure(i + 1);
  };
  f.src = urls[i];
  document.body.appendChild(f);
}
measure(0);
</script>
HTML
chrome --allow-file-access-from-files --virtual-time-budget=10000 --dump-dom \
  "file://$work/measure.html#file://$html|file://$phtml" >"$work/measure.dom" 2>"$work/measure.err"
for i in 0 1; do
  m=$(grep -ao "MEASURE $i [^\"]*" "$work/measure.err" | head -1)
  what=$([ "$i" = 0 ] && echo matrix.html || echo protocol/matrix.html)
  if [ -z "$m" ]; then
    fail "could not measure $what in a 1400 px frame: $(console_lines "$work/measure.err" | head -2)"
    continue
  fi
  echo "$what at 1400 px: ${m#MEASURE $i }"
  right=$(printf '%s' "$m" | sed -n 's/.*right=\([0-9]*\).*/\1/p')
  scroll=$(printf '%s' "$m" | sed -n 's/.*scroll=\([0-9]*\).*/\1/p')
  inner=$(printf '%s' "$m" | sed -n 's/.*inner=\([0-9]*\).*/\1/p')
  unplaced=$(printf '%s' "$m" | sed -n 's/.*unplaced=\([0-9]*\).*/\1/p')
  [ "$right" -le "$inner" ] && [ "$scroll" -le "$inner" ] ||
    fail "$what is wider than 1400 px ($m)"
  [ "$unplaced" = 0 ] || fail "$what: FAIL rows that do not say where they failed ($m)"
  case "$m" in *"wrapped=[]"*) ;; *) fail "$what: host column headers wrap ($m)" ;; esac
  case "$m" in *"split=[]"*) ;; *) fail "$what: words split across lines in the matrix ($m)" ;; esac
  case "$m" in *"tofu=[]"*) ;; *) fail "$what: text drawn as boxes, fonts missing? ($m)" ;; esac
  [ "$i" = 1 ] && case "$m" in *"hook=1"*) ;; *) fail "$what: no hook column ($m)" ;; esac
done

# A picture of it, kept with the report.
for shot in "matrix.png:$html" "protocol.png:$phtml"; do
  png="$dir/${shot%%:*}"
  chrome --window-size=1400,1500 --hide-scrollbars --screenshot="$png" \
    "file://${shot#*:}" >"$work/shot.out" 2>&1
  size=$(stat -c %s "$png" 2>/dev/null || echo 0)
  [ "$size" -gt 10000 ] || fail "no screenshot (${png##*/}, $size bytes)"
  head -c 8 "$png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "${png##*/} is not a PNG"
done

if [ "$fails" = 0 ]; then
  echo "report-browser: $ncases cases ($nfail failing) rendered in $("$browser" --version 2>/dev/null); screenshots $dir/matrix.png, $dir/protocol.png"
fi
exit $((fails > 0))
