# Install rules and the Debian package (docs/install.md "Installing the programs").
#
#   cmake --install build --prefix P        P/bin/<programs>, P/share/pinta-gemini/<data>
#   cmake --build build --target package    build/package/pinta-gemini_<version>_<arch>.deb
#
# Programs find their data at run time through pinta::data::find_dir (common/data_dir.h): an
# environment override, then <bindir>/../share/pinta-gemini (this layout), then the source tree
# compiled in, so an installed copy works after the source tree is gone.
# Included from the top-level CMakeLists.txt after every subdirectory (the targets must exist).

# The programs a user runs (test binaries, fuzz harnesses and the developer tools agy_docs and
# gemini-hookrunner-diff, which need the source tree, are not installed).
set(PINTA_INSTALLED_PROGRAMS pinta-gemini pinta-gemini-admin hostemu conformance pinta-fake-server)
if(TARGET pinta-fuzz-campaign)
  list(APPEND PINTA_INSTALLED_PROGRAMS pinta-fuzz-campaign)
endif()
install(TARGETS ${PINTA_INSTALLED_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(pinta_share ${CMAKE_INSTALL_DATADIR}/pinta-gemini)
# Each family's version profiles (hosts/<folder>/profiles/, where it has them): its emulator, the
# doctor, install, conformance (one host per profile). A family's other data is installed by its
# own CMakeLists.txt.
foreach(f IN LISTS PINTA_FAMILY_FOLDERS)
  if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/hosts/${f}/profiles)
    install(DIRECTORY hosts/${f}/profiles/ DESTINATION ${pinta_share}/${f}/profiles
      FILES_MATCHING PATTERN "*.json")
  endif()
endforeach()
# Conformance cases: `conformance run|list|show|docs`.
install(DIRECTORY conformance/cases/ DESTINATION ${pinta_share}/conformance/cases
  FILES_MATCHING PATTERN "*.case.json")
# Host payload fixtures (+ each family's family.json and MANIFEST.json provenance, the replay goldens): the payloads of
# `conformance run`, the seeds of `pinta-fuzz-campaign`, `hostemu replay ... <share>/fixtures`.
install(DIRECTORY fixtures/ DESTINATION ${pinta_share}/fixtures
  PATTERN CMakeLists.txt EXCLUDE PATTERN test EXCLUDE PATTERN tools EXCLUDE)
# Every document: messages of the programs point to them (docs/lint.md from lint and doctor,
# docs/ci.md from the action, docs/gemini-versions.md, docs/contract.md, …); docs/README.md is the
# index. check-installed.sh fails when a docs/*.md of the source tree is missing here.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/pinta-gemini)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/pinta-gemini
  FILES_MATCHING PATTERN "*.md" PATTERN "*.png")

# ---- .deb (CPack) -----------------------------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pinta-gemini)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "pinta-gemini project")
set(CPACK_PACKAGE_CONTACT "pinta-gemini project")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "hook adapter for Gemini CLI, Antigravity and deel-local-cli, with host emulators")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "pinta-gemini is the process Gemini CLI, Antigravity and deel-local-cli spawn on every hook
event: it answers in the host's protocol on every path, asks a remote guard about tool calls and
queues redacted OpenTelemetry spans. The package also holds pinta-gemini-admin (install,
uninstall, doctor), the host emulators (hostemu), the conformance suite (conformance), the fake
guard/collector (pinta-fake-server) and the process-level fuzz campaign, with the Antigravity
version profiles, conformance cases and host payload fixtures they read.")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "pinta-gemini project")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends: computed by dpkg-shlibdeps from the installed executables (pinta-gemini itself is
# static; the tools link libre2, libcpp-httplib, libstdc++, libgcc-s, libc).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Stated, as dpkg-shlibdeps cannot see it: the tools load OpenSSL 3 with dlopen on their first
# https:// URL (adapter/src/net/tls.cc; e.g. doctor probing an https guard).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libssl3")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
# No CPACK_DEBIAN_PACKAGE_HOMEPAGE: the project has no published home page to name.
include(CPack)

if(PINTA_BUILD_TESTS)
  # `--version` (version + git revision, cmake/PintaVersion.cmake) and `--help` on every program the
  # build puts in its bin/ directory, listed at test time (a new program is checked without being
  # named here); the installed ones must be there.
  add_test(NAME cli_version COMMAND bash ${PROJECT_SOURCE_DIR}/conformance/test/version.sh
    ${CMAKE_RUNTIME_OUTPUT_DIRECTORY} ${PINTA_INSTALLED_PROGRAMS})
  set_tests_properties(cli_version PROPERTIES LABELS unit TIMEOUT 60)

  # The installed copy works with the source tree hidden (needs the installed programs built:
  # cmake --build build --target pinta-gemini pinta-gemini-admin hostemu conformance
  # pinta-fake-server pinta-fuzz-campaign).
  add_test(NAME install_prefix COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test/install.sh
    ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR} ${PROJECT_SOURCE_DIR})
  # The .deb: this project's CPack configuration on the staged install (building nothing),
  # control fields, dpkg-deb -x into a temp root, the extracted copy checked the same way.
  add_test(NAME package_deb COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test/package.sh
    ${CMAKE_COMMAND} ${CMAKE_CPACK_COMMAND} ${CMAKE_BINARY_DIR} ${PROJECT_SOURCE_DIR})
  set_tests_properties(install_prefix package_deb PROPERTIES LABELS process TIMEOUT 300
    RESOURCE_LOCK pinta_install SKIP_RETURN_CODE 77)
endif()
