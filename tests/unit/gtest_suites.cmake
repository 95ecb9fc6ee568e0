# Read by ctest (TEST_INCLUDE_FILES, see CMakeLists.txt) each time it loads
# the tests: one ctest per GoogleTest suite of the unit-test binary, which
# runs that suite's tests in one process (--gtest_filter=Suite.*).
#
# One process per test, as gtest_discover_tests registers them, cost 280 s
# of CPU for the 306 tests on 2 cores (each process starts clang afresh and
# faults in its first CUDA parse); one process per suite (51) costs about
# what one process for all of them does (155 s), and ctest -j still has
# enough entries to balance. A failing test is named in the suite's output;
# `cuda_tidy_unit_tests --gtest_filter=Suite.Test` runs one alone.
#
# Set before inclusion: unit_binary (the test binary), unit_labels.
if(NOT EXISTS "${unit_binary}")
  add_test(unit-tests-not-built "${unit_binary}")
  set_tests_properties(unit-tests-not-built PROPERTIES LABELS "${unit_labels}")
  return()
endif()
execute_process(COMMAND "${unit_binary}" --gtest_list_tests
                OUTPUT_VARIABLE unit_listing RESULT_VARIABLE unit_listing_status
                TIMEOUT 60)
if(NOT unit_listing_status EQUAL 0)
  # A binary that cannot list its tests fails as a test, not silently.
  add_test(unit-tests-listing "${unit_binary}" --gtest_list_tests)
  set_tests_properties(unit-tests-listing PROPERTIES LABELS "${unit_labels}")
  return()
endif()
string(REPLACE "\n" ";" unit_lines "${unit_listing}")
foreach(line IN LISTS unit_lines)
  # A suite line starts in column 0 and ends its name with '.' (then maybe
  # "  # TypeParam = ..."); test lines are indented.
  if(line MATCHES "^([^ #][^ ]*)\\.( |$)")
    set(suite "${CMAKE_MATCH_1}")
    add_test("${suite}" "${unit_binary}" "--gtest_filter=${suite}.*")
    set_tests_properties("${suite}" PROPERTIES LABELS "${unit_labels}")
  endif()
endforeach()
