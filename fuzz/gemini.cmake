# Gemini CLI's fuzzers (included by fuzz/CMakeLists.txt, in its scope): the hook-output parser
# and the hooks loader, and the differential fuzzing of the hook runner against the real one (its
# own tool, not libFuzzer).
pinta_add_fuzzer(NAME gemini_hook_output LIBS pinta::emulator_gemini)
pinta_add_fuzzer(NAME gemini_loader LIBS pinta::hosts_gemini)
if(NOT PINTA_FUZZ)
  add_subdirectory(gemini_hookrunner_diff)
endif()
