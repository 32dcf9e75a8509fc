# Compile time of the project (docs/benchmarks-history.md "Main job from a fresh clone"). Nearly every
# translation unit includes nlohmann/json.hpp and a dozen standard headers through our own
# headers, and most of a unit's CPU time is spent in the optimiser and in debug information for
# the JSON templates it instantiates (hosts/gemini/src/loader.cc: 24.7 CPU s at -O2 -g, 17.0 at
# -O2, 11.8 at -O1 -g1, 4.7 to parse alone). Two levers, applied once for every target by
# pinta_build_speed() at the end of the top-level CMakeLists.txt, so a new folder needs nothing:
#
# 1. Optimisation of the tools. Everything linked into pinta-gemini (its link closure: the
#    adapter libraries, pinta::common, pinta::version) keeps the build type's flags (-O2 -g for
#    RelWithDebInfo): the adapter's code and start-up do not change. Every other target (the
#    emulators, conformance, the fakes, the lint, the campaign, the tests) gets
#    PINTA_TOOLS_FLAGS (default "-O1 -g1": line tables for backtraces and sanitizer reports, no
#    variable info) in a RelWithDebInfo build. Empty restores the build type's flags everywhere.
# 2. Precompiled headers (PINTA_PCH, GCC only) for the same tool targets: one header set
#    (nlohmann/json.hpp and the standard headers most units include) compiled once with the
#    tools' flags and reused by every C++-only tool target (REUSE_FROM). GCC falls back to the
#    plain headers, with a -Winvalid-pch warning, if a unit's flags ever make it unusable. The
#    adapter's side has none: its units are small, and loading the ~120 MB PCH (~1 CPU s) cost
#    more than it saved there (measured: result.cc 0.6 -> 1.6 CPU s, protocol.cc 9.1 -> 8.7),
#    and its objects stay exactly as they were.
#
# ccache and PCH: ccache needs sloppiness pch_defines,time_macros to cache units that use a PCH;
# the top-level CMakeLists.txt passes it in the launcher's environment, and CMake includes the
# PCH with -include, which is the form ccache supports for GCC.

set(PINTA_TOOLS_FLAGS "-O1 -g1" CACHE STRING
  "Compile flags of every target outside pinta-gemini's link closure in RelWithDebInfo builds (empty: the build type's)")
set(pinta_pch_default OFF)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT PINTA_FUZZ)
  set(pinta_pch_default ON)
endif()
option(PINTA_PCH "Precompile nlohmann/json.hpp and common standard headers (GCC)" ${pinta_pch_default})

set(PINTA_PCH_HEADERS
  <algorithm> <chrono> <cstdint> <filesystem> <fstream> <functional> <map> <memory> <optional>
  <regex> <set> <sstream> <string> <string_view> <utility> <vector>
  <nlohmann/json.hpp>)

# Every build-system target defined in DIR and below.
function(pinta_collect_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    pinta_collect_targets(${sub} sub_targets)
    list(APPEND targets ${sub_targets})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# The targets ROOT links, directly or through other targets (generator expressions included:
# both branches of an $<IF:...> count).
function(pinta_link_closure root out)
  set(seen "")
  set(todo ${root})
  while(todo)
    list(POP_FRONT todo t)
    if(NOT TARGET ${t})
      continue()
    endif()
    get_target_property(aliased ${t} ALIASED_TARGET)
    if(aliased)
      set(t ${aliased})
    endif()
    if(t IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(imported ${t} IMPORTED)
    if(imported)
      continue()
    endif()
    get_target_property(type ${t} TYPE)
    set(libs "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${t} LINK_LIBRARIES)
      if(direct)
        list(APPEND libs ${direct})
      endif()
    endif()
    get_target_property(iface ${t} INTERFACE_LINK_LIBRARIES)
    if(iface)
      list(APPEND libs ${iface})
    endif()
    foreach(item IN LISTS libs)
      string(REGEX MATCHALL "[A-Za-z0-9_.+:-]+" names "${item}")
      foreach(n IN LISTS names)
        if(TARGET ${n})
          list(APPEND todo ${n})
        endif()
      endforeach()
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# pinta_heavy_pch(TARGET): TARGET (a tool: compiled with PINTA_TOOLS_FLAGS) reuses the
# precompiled headers.
function(pinta_heavy_pch target)
  if(PINTA_PCH)
    target_precompile_headers(${target} REUSE_FROM pinta_pch_tools)
  endif()
endfunction()

# True when TARGET compiles C++ and nothing else (a C unit cannot use the C++ PCH), and some of
# it is ours: a target of generated sources only (pinta_version's version.cc, a few lines) pays
# more to load the PCH (~1 CPU s for its ~120 MB) than it saves.
function(pinta_cxx_only target out)
  set(${out} FALSE PARENT_SCOPE)
  get_target_property(sources ${target} SOURCES)
  if(NOT sources)
    return()
  endif()
  set(cxx FALSE)
  foreach(s IN LISTS sources)
    if(s MATCHES "\\.c$" OR s MATCHES "^\\$<")
      return()
    endif()
    string(FIND "${s}" "${PROJECT_BINARY_DIR}/" in_build)
    if(s MATCHES "\\.(cc|cpp|cxx)$" AND NOT in_build EQUAL 0)
      set(cxx TRUE)
    endif()
  endforeach()
  set(${out} ${cxx} PARENT_SCOPE)
endfunction()

# True when a library TARGET links directly puts -pthread into its compile flags (RE2's
# pkg-config cflags do): GCC then defines _REENTRANT and refuses a PCH built without it
# (-Winvalid-pch, "not used because `_REENTRANT' is defined"), so such a target gets none.
function(pinta_compiles_with_pthread target out)
  set(${out} FALSE PARENT_SCOPE)
  get_target_property(libs ${target} LINK_LIBRARIES)
  if(NOT libs)
    return()
  endif()
  foreach(l IN LISTS libs)
    if(TARGET ${l})
      get_target_property(opts ${l} INTERFACE_COMPILE_OPTIONS)
      if(opts AND "${opts}" MATCHES "(^|;)-pthread(;|$)")
        set(${out} TRUE PARENT_SCOPE)
        return()
      endif()
    endif()
  endforeach()
endfunction()

function(pinta_build_speed)
  if(NOT TARGET pinta-gemini)
    return()
  endif()
  pinta_link_closure(pinta-gemini adapter_side)
  set(tools_flags "")
  if(CMAKE_BUILD_TYPE STREQUAL "RelWithDebInfo" AND PINTA_TOOLS_FLAGS)
    separate_arguments(tools_flags UNIX_COMMAND "${PINTA_TOOLS_FLAGS}")
  endif()
  pinta_collect_targets(${PROJECT_SOURCE_DIR} targets)
  if(PINTA_PCH)
    set(pch_src ${PROJECT_BINARY_DIR}/pinta_pch.cc)
    if(NOT EXISTS ${pch_src})
      file(WRITE ${pch_src} "// Carries the precompiled headers (cmake/PintaBuildSpeed.cmake).\n")
    endif()
    add_library(pinta_pch_tools STATIC EXCLUDE_FROM_ALL ${pch_src})
    target_link_libraries(pinta_pch_tools PRIVATE nlohmann_json::nlohmann_json pinta::warnings)
    target_precompile_headers(pinta_pch_tools PRIVATE ${PINTA_PCH_HEADERS})
    target_compile_options(pinta_pch_tools PRIVATE ${tools_flags})
  endif()
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(NOT type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
      continue()
    endif()
    if(t IN_LIST adapter_side)
      continue()
    endif()
    target_compile_options(${t} PRIVATE ${tools_flags})
    pinta_cxx_only(${t} cxx_only)
    pinta_compiles_with_pthread(${t} pthread)
    if(cxx_only AND NOT pthread)
      pinta_heavy_pch(${t})
    endif()
  endforeach()
endfunction()
