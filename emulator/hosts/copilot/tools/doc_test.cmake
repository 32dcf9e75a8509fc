# docs/hosts/copilot-1.0.md (included by emulator/hosts/copilot/CMakeLists.txt): its per-event
# reply table (from the descriptor), conformance index and scenario index are generated; every
# table row names its evidence, every scenario it cites exists and every scenario is cited
# (tools/gen_doc.py --check).
if(PINTA_BUILD_TESTS)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME copilot_host_doc_fresh
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/gen_doc.py --check)
    set_tests_properties(copilot_host_doc_fresh PROPERTIES LABELS unit TIMEOUT 60)
  endif()
endif()
