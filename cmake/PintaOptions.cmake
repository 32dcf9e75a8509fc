# Warnings and sanitizer flags shared by every target of the project.
add_library(pinta_warnings INTERFACE)
add_library(pinta::warnings ALIAS pinta_warnings)
target_compile_options(pinta_warnings INTERFACE -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)

if(PINTA_SANITIZE)
  add_compile_options(-fsanitize=${PINTA_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${PINTA_SANITIZE})
endif()

# PINTA_FUZZ=ON (clang): every target gets coverage + ASan/UBSan so libFuzzer sees into the
# libraries; harnesses link PINTA_FUZZ_ENGINE. OSS-Fuzz passes its own CFLAGS, sets
# PINTA_FUZZ_FLAGS="" and PINTA_FUZZ_ENGINE=$LIB_FUZZING_ENGINE (fuzz/oss-fuzz/build.sh).
set(PINTA_FUZZ_FLAGS "-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  CACHE STRING "Compile flags for every target when PINTA_FUZZ=ON")
set(PINTA_FUZZ_ENGINE "-fsanitize=fuzzer,address,undefined" CACHE STRING "Link flags of the fuzz harnesses")
if(PINTA_FUZZ AND PINTA_FUZZ_FLAGS)
  separate_arguments(pinta_fuzz_flags UNIX_COMMAND "${PINTA_FUZZ_FLAGS}")
  add_compile_options(${pinta_fuzz_flags})
  add_link_options(-fsanitize=address,undefined)
endif()

# PINTA_SANITIZED: the whole tree runs under a sanitizer (PINTA_SANITIZE, or the ASan+UBSan fuzz
# tree). Tests with wall-clock budgets adapt to it: latency cases are left out, load sizes shrink
# (ASan start-up alone is ~5x a plain adapter start; docs/fuzzing.md "Sanitizers").
if(PINTA_SANITIZE OR (PINTA_FUZZ AND PINTA_FUZZ_FLAGS))
  set(PINTA_SANITIZED TRUE)
else()
  set(PINTA_SANITIZED FALSE)
endif()

# pinta_add_test(NAME name SOURCES ... LIBS ... LABELS ...): one gtest executable registered
# with ctest (gtest_discover_tests would run every binary at build time; one entry per binary
# keeps the build fast and ctest output short).
function(pinta_add_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main pinta::warnings)
  set_target_properties(${T_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "PINTA_BIN_DIR=${CMAKE_BINARY_DIR}/bin;PINTA_SOURCE_DIR=${CMAKE_SOURCE_DIR};RC_PARAMS=max_success=200")
endfunction()
