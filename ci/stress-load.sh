# Sourced by ci/stress-conformance.sh and ci/stress-tests.sh: the CPU contention both run under.
#   stress_load_start PER_CORE BUILD_LOAD BUDGET TMPDIR
#     PER_CORE busy loops per core, and with BUILD_LOAD=1 a compile loop (a parallel build's mix of
#     CPU, memory and short-lived processes); each under `timeout BUDGET`; PIDs in load_pids.
#   stress_load_stop     kills them (also every PID a caller added to load_pids) and waits.
#   stress_load_desc     one line describing the load.
load_pids=()
stress_load_desc_text=""
stress_load_start() {
  local per_core=$1 build_load=$2 budget=$3 dir=$4 cores
  cores=$(nproc)
  for _ in $(seq $(( per_core * cores ))); do
    timeout "$budget" sh -c 'while :; do :; done' &
    load_pids+=($!)
  done
  stress_load_desc_text="$(( per_core * cores )) busy loops on $cores cores"
  if [ "$build_load" = 1 ] && command -v g++ >/dev/null; then
    printf '#include <regex>\n#include <map>\nint main(){std::regex r("a+b"); std::map<int,int> m; return std::regex_match("aab", r) ? 0 : (int)m.size();}\n' >"$dir/load.cc"
    timeout "$budget" sh -c "while :; do g++ -O2 -c '$dir/load.cc' -o '$dir/load.o' 2>/dev/null; done" &
    load_pids+=($!)
    stress_load_desc_text+=" + a compile loop"
  fi
}
stress_load_stop() {
  for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${load_pids[@]}"; do wait "$p" 2>/dev/null; done
  load_pids=()
}
stress_load_desc() { echo "$stress_load_desc_text"; }
