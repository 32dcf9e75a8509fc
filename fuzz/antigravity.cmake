# Antigravity's fuzzers (included by fuzz/CMakeLists.txt, in its scope): the hooks.json loader
# and the reply reader.
pinta_add_fuzzer(NAME agy_hooks_json LIBS pinta::emulator_antigravity)
pinta_add_fuzzer(NAME agy_reply LIBS pinta::emulator_antigravity)
