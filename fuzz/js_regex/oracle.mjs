// Differential fuzz of pinta::hosts::node::JsRegExp against Node's own RegExp: generates flag-less
// patterns (biased to the places where JavaScript, Annex B and PCRE2 part ways: lookbehind, named
// groups, legacy octal and identity escapes, \x \u \c without their digits, class escapes as range
// ends, back-references to groups not yet closed, quantified lookarounds, lone braces) and short
// UTF-16 subjects, and answers each with `new RegExp(p)` (throws?) and `.test(s)`.
// Usage: node oracle.mjs SEED PATTERNS [SUBJECTS_PER_PATTERN] > cases.jsonl
// Each line: {"p": pattern, "s": [subjects], "ok": bool, "m": [bools]} (strings may hold lone
// surrogates; JSON.stringify writes them as \udXXX escapes).
const seed = Number(process.argv[2] ?? 1);
const count = Number(process.argv[3] ?? 1000);
const per = Number(process.argv[4] ?? 5);

let state = (seed * 2654435761) >>> 0 || 1;
function rnd() {  // xorshift32
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state / 4294967296;
}
const pick = (a) => a[Math.floor(rnd() * a.length)];
const chance = (p) => rnd() < p;

const literals = ['a', 'a', 'b', 'b', 'c', 'A', '1', '_', '-', ' ', 'k', '<', '>', '/', '가',
  '\u2028', '\n', '\u00a0', '\ud83d', '\ude00', '\ud83d\ude00', '{', '}', ']', ',', '0', '8'];
const escapes = ['\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\b', '\\B', '\\x61', '\\x6', '\\x',
  '\\u0061', '\\u061', '\\u{61}', '\\u{2}', '\\u', '\\0', '\\00', '\\01', '\\012', '\\08', '\\1',
  '\\2', '\\3', '\\8', '\\9', '\\18', '\\12', '\\101', '\\377', '\\400', '\\c', '\\cA', '\\ca',
  '\\c1', '\\c_', '\\k', '\\k<n>', '\\k<m>', '\\k<zz>', '\\/', '\\-', '\\a', '\\e', '\\z', '\\A',
  '\\Z', '\\G', '\\h', '\\R', '\\X', '\\Q', '\\E', '\\p{L}', '\\P', '\\.', '\\*', '\\[', '\\]',
  '\\(', '\\)', '\\{', '\\}', '\\|', '\\^', '\\$', '\\\\', '\\f', '\\n', '\\r', '\\t', '\\v',
  '\\가', '\\ ', '\\_'];
const classAtoms = ['a', 'b', 'c', 'z', 'A', '-', '^', ']', '[', '\\]', '\\d', '\\D', '\\w',
  '\\W', '\\s', '\\S', '\\b', '\\B', '\\-', '\\c1', '\\c_', '\\cA', '\\c', '\\0', '\\1', '\\8',
  '\\12', '\\x41', '\\x4', '\\u0062', '\\u{62}', '\\k', '.', '가', '\u2028', '\\\\', '0', '9'];
const quants = ['*', '+', '?', '*?', '+?', '??', '{2}', '{1,}', '{0,2}', '{1,2}?', '{2,1}',
  '{,2}', '{', '{1', '{1,', '{a}', '**', '{0}', '{3}'];
const names = ['n', 'm', 'n', '$x', '_', '가', 'a1', '1a', 'n\\u0031', 'zz'];

function cls() {
  let s = chance(0.3) ? '[^' : '[';
  const n = Math.floor(rnd() * 4);
  for (let i = 0; i < n; i++) {
    s += pick(classAtoms);
    if (chance(0.35)) s += '-' + pick(classAtoms);
  }
  return s + (chance(0.97) ? ']' : '');
}

function atom(depth) {
  const r = rnd();
  if (r < 0.32) return pick(literals);
  if (r < 0.50) return pick(escapes);
  if (r < 0.60) return cls();
  if (r < 0.65) return '.';
  if (r < 0.70) return pick(['^', '$', '|', ')', '(', '\\', '*', '+', '?', '{1}', '(?', '(?i)']);
  if (depth > 3) return pick(literals);
  const open = pick(['(', '(', '(?:', '(?=', '(?!', '(?<=', '(?<!', '(?<=', '(?<!',
    `(?<${pick(names)}>`, `(?<${pick(names)}>`]);
  return open + alt(depth + 1) + (chance(0.97) ? ')' : '');
}

function seq(depth) {
  let s = '';
  const n = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < n; i++) {
    s += atom(depth);
    if (chance(0.3)) s += pick(quants);
  }
  return s;
}

function alt(depth) {
  let s = seq(depth);
  while (chance(0.2)) s += '|' + seq(depth);
  return s;
}

const subjectUnits = ['a', 'a', 'a', 'b', 'b', 'c', 'A', '1', '0', '8', '_', '-', ' ', 'k', '<',
  '>', 'n', '/', '\n', '\r', '\u2028', '\u00a0', '\ufeff', '\u3000', '\t', '\x01', '\x08', '\x0a',
  '\\', '{', '}', ']', 'u', 'x', '가', '\ud83d', '\ude00', '\ud83d\ude00', 'c', '\x00', 'z'];

function subject(p) {
  // Half the subjects are built from the pattern's own characters, so matches are frequent.
  const n = Math.floor(rnd() * 7);
  let s = '';
  for (let i = 0; i < n; i++) s += chance(0.5) && p.length ? p[Math.floor(rnd() * p.length)] : pick(subjectUnits);
  return s;
}

// Dense patterns: two letters, groups, back-references and lookarounds, so that backtracking,
// capture and direction rules are what decides (random subjects over the same letters match
// often).
function dense(depth) {
  let s = '';
  const n = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    let a;
    if (r < 0.3 || depth > 2) a = pick(['a', 'b', 'a', '.', '^', '$']);
    else if (r < 0.5) a = pick(['\\1', '\\2', '\\k<n>', '\\1', '\\2']);
    else a = pick(['(', '(', '(?:', '(?<n>', '(?=', '(?!', '(?<=', '(?<!']) + dense(depth + 1) +
      (chance(0.3) ? '|' + dense(depth + 1) : '') + ')';
    s += a;
    if (chance(0.35)) s += pick(['*', '+', '?', '{2}', '{0,2}', '*?', '+?', '{1,3}']);
  }
  return s;
}

const out = [];
for (let i = 0; i < count; i++) {
  const isDense = chance(0.4);
  const p = isDense ? dense(0) : alt(0);
  let re = null;
  try { re = new RegExp(p); } catch { re = null; }
  const subs = [];
  const m = [];
  for (let j = 0; j < per; j++) {
    const s = isDense ? Array.from({ length: Math.floor(rnd() * 7) }, () => pick(['a', 'b', 'a'])).join('') : subject(p);
    subs.push(s);
    if (re) m.push(re.test(s));
  }
  out.push(JSON.stringify({ p, s: subs, ok: re !== null, m }));
  if (out.length >= 1000) { process.stdout.write(out.join('\n') + '\n'); out.length = 0; }
}
if (out.length) process.stdout.write(out.join('\n') + '\n');
