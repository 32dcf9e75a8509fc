# The Copilot CLI real-CLI lane (included by emulator/hosts/copilot/CMakeLists.txt): the real
# Copilot CLI 1.0.102 from ci/npm-copilot.sh, offline against the scripted Responses API
# (`hostemu copilot model-server`), on the scenarios of test/scenarios/ (both hook-file dialects),
# against its recorded outcomes, a self-check that the comparisons can fail, and
# `hostemu copilot run`. Here a fixed slice of the hand scenarios (emulator/lanes/real_slice.py:
# 34 of 136); all of them under ci/real-hosts.sh (label sweep, PINTA_REAL_HOST_FULL=1).
# 77 = SKIPPED when npm or its registry is out of reach. Runs of ~2-5 s (one waits out the 30 s
# default timeout, two the CLI's model retries), two at a time: the slice took 85 s, all 132
# 349 s (quiet 2-core machine) to 941 s (loaded); TIMEOUT bounds the full sweep (ci/real-hosts.sh)
# on a loaded machine too (a test's TIMEOUT is the same for its slice and its sweep).
if(PINTA_BUILD_TESTS)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME copilot_real_diff_test
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/real_diff.py
        --hostemu $<TARGET_FILE:hostemu> --scenarios ${CMAKE_CURRENT_LIST_DIR}/scenarios)
    set_tests_properties(copilot_real_diff_test PROPERTIES LABELS "real-host;sweep" TIMEOUT 1800
      SKIP_RETURN_CODE 77 PROCESSORS 2 ENVIRONMENT "PINTA_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
    # Trace joining under the real CLI (docs/contract.md TRACE-4): our adapter as every hook of one
    # run per hook-file format, the host's OpenTelemetry on; our spans must be children of the
    # host's invoke_agent span. One CLI run in the default slice (the native format), both formats
    # under PINTA_REAL_HOST_FULL=1; 77 = SKIPPED (the reason printed) without the CLI.
    add_test(NAME copilot_real_trace_join_test
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/real_trace_join.py
        --hostemu $<TARGET_FILE:hostemu> --adapter $<TARGET_FILE:pinta-gemini>)
    set_tests_properties(copilot_real_trace_join_test PROPERTIES LABELS "real-host;sweep" TIMEOUT 300
      SKIP_RETURN_CODE 77 PROCESSORS 2 ENVIRONMENT "PINTA_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
  endif()
endif()
