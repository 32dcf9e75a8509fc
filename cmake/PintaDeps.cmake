# Third-party dependencies, all from Debian 12 packages (ci/install-deps.sh installs them).
find_package(nlohmann_json 3.11 REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
# JavaScript regular expressions of the Node hosts (hosts/node): PCRE2's 16-bit library (UTF-16
# code units, as JS without the u flag) and its 32-bit one (Unicode tables for group names).
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-16 libpcre2-32)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
find_package(Boost 1.81 REQUIRED COMPONENTS filesystem)
find_package(Threads REQUIRED)
find_package(CLI11 REQUIRED)
if(PINTA_BUILD_TESTS)
  find_package(GTest REQUIRED)
  find_package(rapidcheck REQUIRED)
  # Debian ships rapidcheck's gtest glue as headers only.
  find_path(RAPIDCHECK_GTEST_INCLUDE rapidcheck/gtest.h REQUIRED)
endif()
