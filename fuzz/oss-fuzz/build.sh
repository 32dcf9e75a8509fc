#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for pinta-gemini: builds every harness in
# fuzz/<entry>/ with the environment's $CC/$CXX/$CFLAGS/$CXXFLAGS and $LIB_FUZZING_ENGINE, and
# ships each one with its seed corpus (zip) and dictionary. Harness sources are not changed.
# The Antigravity harnesses read the emulator's profile files; they are copied to $OUT and found
# through PINTA_AGY_PROFILES (the harness also carries synthetic profiles when they are absent).
cd "$SRC/pinta-gemini"
cmake -S . -B build-oss-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release -DPINTA_BUILD_TESTS=OFF \
  -DPINTA_FUZZ=ON -DPINTA_FUZZ_FLAGS="" -DPINTA_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS"
cmake --build build-oss-fuzz -j"$(nproc)" --target fuzzers fuzz_seed_corpora
for dir in fuzz/*/; do
  name=$(basename "$dir")
  bin=build-oss-fuzz/bin/fuzz_$name
  [ -x "$bin" ] || continue
  cp "$bin" "$OUT/fuzz_$name"
  # Hand-made seeds and regressions, then the seeds generated from fixtures (zip appends).
  (cd "$dir" && zip -q -r "$OUT/fuzz_${name}_seed_corpus.zip" corpus $( [ -d regressions ] && echo regressions ) || true)
  [ -d "build-oss-fuzz/fuzz-corpus/$name" ] &&
    (cd build-oss-fuzz/fuzz-corpus && zip -q -r "$OUT/fuzz_${name}_seed_corpus.zip" "$name")
  [ -f "$dir/$name.dict" ] && cp "$dir/$name.dict" "$OUT/fuzz_$name.dict"
done
mkdir -p "$OUT/agy-profiles"
cp hosts/antigravity/profiles/*.json "$OUT/agy-profiles/"
