#!/usr/bin/env bash
# check-installed.sh PREFIX SOURCE_DIR
# Checks an installed copy of pinta-gemini (PREFIX/bin, PREFIX/share/pinta-gemini), used by the
# install_prefix and package_deb tests (cmake/PintaInstall.cmake):
#   - the programs and data files are there;
#   - everything below runs with SOURCE_DIR hidden (an empty tmpfs mounted over it in a private
#     user+mount namespace, `unshare`), so the installed programs cannot fall back to the data in
#     the source tree their binaries name; where unshare is not permitted this is said and the
#     checks run with the source tree present;
#   - and, either way, data put only into the installed copy (an extra Antigravity profile) is
#     seen: the installed share directory is looked up before the source tree.
# One "FAIL: ..." line per failed check; exit 1 if any failed.
set -u
prefix=$1
src=$2

if [ "${PINTA_CHECK_HIDDEN:-}" != 1 ]; then
  fail=0
  say() { echo "FAIL: $*"; fail=1; }
  for p in pinta-gemini pinta-gemini-admin hostemu conformance pinta-fake-server pinta-fuzz-campaign; do
    [ -x "$prefix/bin/$p" ] || say "$prefix/bin/$p is not installed"
  done
  for p in agy_docs gemini-hookrunner-diff fuzz_redact adapter_unit_test; do
    [ -e "$prefix/bin/$p" ] && say "$prefix/bin/$p is installed (a developer or test program)"
  done
  share=$prefix/share/pinta-gemini
  n_src=$(ls "$src"/hosts/antigravity/profiles/*.json | wc -l)
  n_inst=$(ls "$share"/antigravity/profiles/*.json 2>/dev/null | wc -l)
  [ "$n_src" = "$n_inst" ] || say "$n_inst Antigravity profiles installed, $n_src in the source tree"
  # The Gemini version profiles: each one is a host of the registry (gemini-0.61 among them).
  n_src=$(ls "$src"/hosts/gemini/profiles/*.json | wc -l)
  n_inst=$(ls "$share"/gemini/profiles/*.json 2>/dev/null | wc -l)
  [ "$n_src" = "$n_inst" ] || say "$n_inst Gemini profiles installed, $n_src in the source tree"
  n_src=$(find "$src/conformance/cases" -name '*.case.json' | wc -l)
  n_inst=$(find "$share/conformance/cases" -name '*.case.json' 2>/dev/null | wc -l)
  [ "$n_src" = "$n_inst" ] || say "$n_inst conformance cases installed, $n_src in the source tree"
  [ -f "$share/fixtures/gemini/MANIFEST.json" ] || say "fixtures/gemini/MANIFEST.json is not installed"
  [ -f "$share/fixtures/gemini/0.61.0/BeforeTool/n_nesting_300.json" ] ||
    say "the Gemini fixtures are not installed"
  [ -e "$share/fixtures/CMakeLists.txt" ] && say "fixtures/CMakeLists.txt is installed"
  # Every document (messages point to docs/lint.md, docs/ci.md, …; docs/README.md is the index).
  for d in $(cd "$src/docs" && find . -name '*.md' | sed 's|^\./||'); do
    [ -f "$prefix/share/doc/pinta-gemini/$d" ] || say "docs/$d is not installed"
  done
  # And every docs/*.md a program's message or the action names exists in the source tree.
  for d in $(grep -rhoE 'docs/(hosts/)?[A-Za-z0-9_.-]+\.md' "$src"/adapter/*/src "$src"/adapter/src \
               "$src"/hosts/lint/src "$src"/emulator/src "$src"/conformance/src "$src"/action.yml \
               2>/dev/null | sort -u); do
    [ -f "$src/$d" ] || say "$d is named by a program but does not exist"
  done

  # A profile only the installed copy has (the installed share dir must come before the source).
  sed 's/"name": *"agy-1.2"/"name": "zz-installed-only"/' "$share/antigravity/profiles/agy-1.2.json" \
    >"$share/antigravity/profiles/zz-installed-only.json"

  # Re-run this script from a copy outside the source tree (bash reads scripts as it goes, and
  # the tree is about to disappear) with the source tree hidden.
  work=$(mktemp -d /tmp/pinta-installed-check.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  cp "$0" "$work/check.sh"
  if unshare --user --map-root-user --mount true 2>"$work/unshare.err"; then
    PINTA_CHECK_HIDDEN=1 unshare --user --map-root-user --mount \
      bash -c 'mount -t tmpfs pinta-hidden "$2" && exec bash "$0" "$1" "$2" hidden' \
      "$work/check.sh" "$prefix" "$src" || fail=1
  else
    echo "note: the source tree stays visible: unshare --user --mount is not permitted here" \
      "($(head -c 200 "$work/unshare.err" | tr '\n' ' ')); the installed-only profile check still" \
      "shows the installed data is looked up first"
    PINTA_CHECK_HIDDEN=1 bash "$work/check.sh" "$prefix" "$src" visible || fail=1
  fi
  rm -f "$share/antigravity/profiles/zz-installed-only.json"
  exit "$fail"
fi

# ---- the installed copy at work (source tree hidden when $3 = hidden) ----------------------------
mode=$3
fail=0
say() { echo "FAIL ($mode source tree): $*"; fail=1; }
bin=$prefix/bin
share=$prefix/share/pinta-gemini
t=$(mktemp -d /tmp/pinta-installed-run.XXXXXX)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/home" "$t/ws"
if [ "$mode" = hidden ] && [ -e "$src/conformance/cases" ]; then
  say "the source tree $src is still visible"
fi
run() {  # run NAME CMD...: stdout in $t/NAME.out, stderr in $t/NAME.err, status in $rc
  local name=$1
  shift
  env -i HOME="$t/home" PATH=/usr/bin:/bin LANG=C.UTF-8 "$@" >"$t/$name.out" 2>"$t/$name.err"
  rc=$?
}

run version "$bin/pinta-gemini" --version
grep -Eqx 'pinta-gemini [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{7,40}(-dirty)?|unknown)\)' "$t/version.out" &&
  [ "$rc" = 0 ] || say "pinta-gemini --version: exit $rc, '$(cat "$t/version.out")'"

# One event through the installed adapter: one JSON object line, nothing on stderr, exit 0.
printf '%s' '{"session_id":"s1","transcript_path":"","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"write_file","tool_input":{"file_path":"a.txt","content":"x"}}' \
  >"$t/payload.json"
env -i HOME="$t/home" PATH=/usr/bin:/bin PINTA_GUARD_DISABLED=1 "$bin/pinta-gemini" --agent gemini \
  --event BeforeTool <"$t/payload.json" >"$t/event.out" 2>"$t/event.err"
rc=$?
if [ "$rc" != 0 ] || [ -s "$t/event.err" ] || [ "$(wc -l <"$t/event.out")" != 1 ] ||
   ! grep -Eqx '\{.*\}' "$t/event.out"; then
  say "event through the installed adapter: exit $rc, stdout '$(head -c 300 "$t/event.out")'," \
    "stderr '$(head -c 300 "$t/event.err")'"
fi

# hostemu finds the installed profiles (all of them, and the installed-only one).
run profiles "$bin/hostemu" antigravity profiles
for f in "$share"/antigravity/profiles/*.json; do
  name=$(sed -n 's/^ *"name": *"\([^"]*\)".*/\1/p' "$f" | head -1)
  grep -qw -- "$name" "$t/profiles.out" || say "hostemu antigravity profiles does not list $name"
done
[ "$rc" = 0 ] || say "hostemu antigravity profiles: exit $rc: $(head -c 300 "$t/profiles.err")"
# $PINTA_AGY_PROFILES still wins over the installed copy.
mkdir -p "$t/only"
cp "$share/antigravity/profiles/agy-1.0.json" "$t/only/"
env -i HOME="$t/home" PATH=/usr/bin:/bin PINTA_AGY_PROFILES="$t/only" "$bin/hostemu" antigravity \
  profiles >"$t/only.out" 2>&1
grep -qw agy-1.0 "$t/only.out" && ! grep -q zz-installed-only "$t/only.out" ||
  say "PINTA_AGY_PROFILES=$t/only is not what hostemu uses: $(head -c 300 "$t/only.out")"

# doctor (pinta-gemini doctor execs the installed pinta-gemini-admin) after an install.
run install "$bin/pinta-gemini" install --host antigravity
[ "$rc" = 0 ] || say "pinta-gemini install --host antigravity: exit $rc: $(cat "$t/install.err")"
grep -q "$bin/pinta-gemini" "$t/home/.gemini/config/hooks.json" 2>/dev/null ||
  say "install did not register $bin/pinta-gemini in ~/.gemini/config/hooks.json"
(cd "$t/ws" && env -i HOME="$t/home" PATH=/usr/bin:/bin "$bin/pinta-gemini" doctor --no-network \
  >"$t/doctor.out" 2>"$t/doctor.err")
rc=$?
grep -q '\[zz-installed-only\] pinta-gemini would fire' "$t/doctor.out" &&
  grep -q '\[agy-1.2\] pinta-gemini would fire' "$t/doctor.out" &&
  ! grep -q 'cannot load' "$t/doctor.out" ||
  say "doctor does not check the installed profiles (exit $rc): $(head -c 600 "$t/doctor.out")" \
    "$(head -c 300 "$t/doctor.err")"

# conformance: every installed case listed; a fixture case and an Antigravity case pass.
run list "$bin/conformance" list
n=$(find "$share/conformance/cases" -name '*.case.json' | wc -l)
[ "$rc" = 0 ] && [ "$(wc -l <"$t/list.out")" = "$n" ] ||
  say "conformance list: exit $rc, $(wc -l <"$t/list.out") cases listed, $n installed" \
    "$(head -c 300 "$t/list.err")"
for hc in "gemini-0.61 INPUT-0020" "agy-1.2 OUT-0001"; do
  set -- $hc
  run conf "$bin/conformance" run --adapter "$bin/pinta-gemini" --host "$1" --filter "$2"
  grep -q '^1 passed, 0 failed' "$t/conf.out" && [ "$rc" = 0 ] ||
    say "conformance run --host $1 --filter $2: exit $rc: $(tail -c 600 "$t/conf.out")" \
      "$(head -c 300 "$t/conf.err")"
done

# hostemu replay over the installed fixtures and goldens, under one Antigravity profile (installed).
run replay "$bin/hostemu" replay --host agy-1.2 --adapter "$bin/pinta-gemini" --quiet "$share/fixtures"
[ "$rc" = 0 ] && grep -Eq 'replay --host agy-1.2: [1-9][0-9]* fixtures, [0-9]+ passed, 0 failed' "$t/replay.out" ||
  say "hostemu replay of the installed fixtures: exit $rc: $(tail -c 400 "$t/replay.out")" \
    "$(head -c 300 "$t/replay.err")"

# pinta-fuzz-campaign seeds from the installed fixtures; --quiet leaves stderr empty.
run camp "$bin/pinta-fuzz-campaign" --adapter "$bin/pinta-gemini" --host gemini --runs 12 --seed 5 \
  --jobs 1 --quiet --out "$t/campaign"
[ "$rc" = 0 ] && [ ! -s "$t/camp.err" ] && grep -q '"runs":12' "$t/camp.out" ||
  say "pinta-fuzz-campaign from the installed copy: exit $rc, stdout $(head -c 300 "$t/camp.out")," \
    "stderr $(head -c 300 "$t/camp.err")"
[ "$fail" = 0 ] && echo "installed copy in $prefix: every check passed with the source tree $mode"
exit "$fail"
