# The course is lessons/course.json (the lessons, in order) and one manifest per lesson,
# lessons/<id>/lesson.json. cudamatch_add_course() reads them and adds each lesson:
#
#   cudamatch_add_lesson(<id>) reads lessons/<id>/lesson.json:
#     "editable"   the student-editable files: from solutions/<id>/ (solutions track) or lessons/<id>/
#                  (student track); everything else in lessons/<id>/ (headers, the driver) is shared;
#     "shared"     lessons/<id>/ sources compiled with the editable ones (not student-editable);
#     "libraries"  linked to the lesson's code (e.g. CUDA::cublas for a ceiling row);
#     "uses"       earlier lessons whose code this one builds on: the lesson's library links the SAME
#                  track's library of each (and gets its include path), so a matcher lesson runs on the
#                  student's own block scan of 07-reductions (block_sums.cuh) in the student track;
#     An editable header is found through the include path: a lesson's library (and what links it)
#     searches its track's folder (solutions/<id>/ or lessons/<id>/) before lessons/<id>/, so a shared
#     file includes an editable header with angle brackets (<block_sums.cuh>): quotes would find the
#     starter's copy beside it first;
#     "ptx"        one editable .cu file also compiled to PTX (compute_75), whose path the tests get
#                  as CUDAMATCH_PTX_FILE: tests that read the compiled code run without a GPU;
#     "driver"     lessons/<id>/<driver> becomes the driver program bin/<id>;
#     "matcher"    {"table", "header"}: the GPU matcher the lesson registers, linked into `cudamatch`
#                  (the global property CUDAMATCH_MATCHERS lists "<id>|<table>|<header>");
#     "multi_matcher" {"table", "header"}: the GPU multi-pattern matcher the lesson registers, a function
#                  returning its versions (engine/multi_matcher.hpp's GpuMultiAlgorithm), linked into
#                  `cudamatch` for `search -f` and `bench --multi` (the global property
#                  CUDAMATCH_MULTI_MATCHER holds "<id>|<table>|<header>"; one lesson at most);
#     "streamed_search" {"table", "header"}: the versions of the streamed search (a function returning
#                  them, the baseline first), with which `cudamatch` streams long inputs (the global property
#                  CUDAMATCH_STREAMED_SEARCH holds "<id>|<table>|<header>"; one lesson at most); "search_with",
#                  optional: the version `cudamatch` uses (the global property CUDAMATCH_STREAMED_SEARCH_WITH;
#                  none: the table's last);
#     "graph_search" {"function", "header"}: the count of one pattern in a device-resident text that
#                  `cudamatch` uses for inputs that fit on the GPU (a function (version, text, pattern)
#                  -> count; the global property CUDAMATCH_GRAPH_SEARCH holds "<id>|<function>|<header>";
#                  one lesson at most, none: the engine's gpu_count); "unfinished", optional: the exception
#                  type the function throws while the student's part is unfinished, on which `cudamatch`
#                  falls back to gpu_count (tools/cudamatch/CMakeLists.txt); "batch", optional: the counts
#                  of several patterns of one length the same way, one replay for all (a function
#                  (version, text, patterns) -> counts; none: the engine's gpu_count_batch);
#   `cudamatch` links the lessons those properties name (tools/cudamatch/CMakeLists.txt).
#   tests/<id>/*.cpp become bin/test-<id>, registered with CTest one Catch2 test case per test;
#   lessons/<id>/CMakeLists.txt, when present, adds what the lesson has beyond that (once, not per
#   track: it may only use the shared files of lessons/<id>/).
# GPU tests exit with status 77 on a machine without a CUDA device, which CTest reports as skipped.
# With CUDAMATCH_TRACK=both (the ci preset) the starter's [todo] tests are registered as
# expected failures: CI proves that the starter fails exactly what it leaves to the student.
set(CUDAMATCH_SKIP_RETURN_CODE 77)

# <out> = the strings of the array <key> of <json> (empty when the key is absent).
function(cudamatch_json_strings out json key)
  set(values "")
  string(JSON type ERROR_VARIABLE missing TYPE "${json}" ${key})
  if(NOT missing)
    if(NOT type STREQUAL "ARRAY")
      message(FATAL_ERROR "${key} must be an array of strings")
    endif()
    string(JSON length LENGTH "${json}" ${key})
    if(length GREATER 0)
      math(EXPR last "${length} - 1")
      foreach(i RANGE ${last})
        string(JSON value GET "${json}" ${key} ${i})
        list(APPEND values "${value}")
      endforeach()
    endif()
  endif()
  set(${out} "${values}" PARENT_SCOPE)
endfunction()

# <out> = the string at the path <key>... of <json>, or empty when it is absent.
function(cudamatch_json_string out json)
  string(JSON value ERROR_VARIABLE missing GET "${json}" ${ARGN})
  if(missing)
    set(value "")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# <target>: <source> compiled to PTX for compute_75 alone (an object library whose one object is the
# .ptx file, $<TARGET_OBJECTS:<target>>), for tests that read the compiled code without a GPU.
function(cudamatch_add_ptx target source)
  add_library(${target} OBJECT "${source}")
  set_target_properties(${target} PROPERTIES CUDA_PTX_COMPILATION ON CUDA_ARCHITECTURES 75-virtual)
  target_link_libraries(${target} PRIVATE cudamatch_warnings)
endfunction()

# A manifest entry {"<field>": ..., "header": ...} under <key> (matcher, streamed_search, graph_search,
# multi_matcher): both or neither, the header in lessons/<id>/; recorded as "<id>|<field>|<header>" in the
# global property <property>, appended (mode APPEND) or the only one (mode ONE: a second lesson with the
# key is an error). <out> = the field's value, empty when the lesson has no such entry.
function(cudamatch_manifest_entry out id manifest_file manifest key field property mode)
  cudamatch_json_string(value "${manifest}" ${key} ${field})
  cudamatch_json_string(header "${manifest}" ${key} header)
  if((value AND NOT header) OR (header AND NOT value))
    message(FATAL_ERROR "${manifest_file}: \"${key}\" needs both \"${field}\" and \"header\"")
  endif()
  if(value)
    if(NOT EXISTS "${PROJECT_SOURCE_DIR}/lessons/${id}/${header}")
      message(FATAL_ERROR "${manifest_file}: the header ${header} is not in lessons/${id}/")
    endif()
    if(mode STREQUAL "ONE")
      get_property(earlier GLOBAL PROPERTY ${property})
      if(earlier)
        message(FATAL_ERROR "${manifest_file}: a second \"${key}\" (${earlier} has one)")
      endif()
      set_property(GLOBAL PROPERTY ${property} "${id}|${value}|${header}")
    else()
      set_property(GLOBAL APPEND PROPERTY ${property} "${id}|${value}|${header}")
    endif()
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

function(cudamatch_add_course)
  set(course_file "${PROJECT_SOURCE_DIR}/lessons/course.json")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${course_file}")
  file(READ "${course_file}" course)
  cudamatch_json_strings(lessons "${course}" lessons)
  if(NOT lessons)
    message(FATAL_ERROR "${course_file}: no lessons")
  endif()
  foreach(id IN LISTS lessons)
    cudamatch_add_lesson(${id})
  endforeach()
endfunction()

function(cudamatch_add_lesson id)
  set(manifest_file "${PROJECT_SOURCE_DIR}/lessons/${id}/lesson.json")
  if(NOT EXISTS "${manifest_file}")
    message(FATAL_ERROR "lesson ${id} (lessons/course.json): ${manifest_file} does not exist")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${manifest_file}")
  file(READ "${manifest_file}" manifest)
  cudamatch_json_strings(LESSON_EDITABLE "${manifest}" editable)
  cudamatch_json_strings(LESSON_SHARED "${manifest}" shared)
  cudamatch_json_strings(LESSON_LIBRARIES "${manifest}" libraries)
  cudamatch_json_strings(LESSON_USES "${manifest}" uses)
  cudamatch_json_string(LESSON_PTX "${manifest}" ptx)
  cudamatch_json_string(LESSON_DRIVER "${manifest}" driver)
  if(NOT LESSON_EDITABLE)
    message(FATAL_ERROR "${manifest_file}: \"editable\" lists no file")
  endif()
  # The engine's plug-ins: matcher tables (one per matcher lesson), and one lesson at most for each of
  # the streamed search, the graph search and the multi-pattern matcher.
  cudamatch_manifest_entry(matcher_table ${id} "${manifest_file}" "${manifest}" matcher table CUDAMATCH_MATCHERS APPEND)
  cudamatch_manifest_entry(streamed_search_table ${id} "${manifest_file}" "${manifest}" streamed_search table
                           CUDAMATCH_STREAMED_SEARCH ONE)
  cudamatch_json_string(streamed_search_with "${manifest}" streamed_search search_with)
  if(streamed_search_with AND NOT streamed_search_table)
    message(FATAL_ERROR "${manifest_file}: \"streamed_search\" has \"search_with\" but no \"table\"")
  endif()
  if(streamed_search_with)
    set_property(GLOBAL PROPERTY CUDAMATCH_STREAMED_SEARCH_WITH "${streamed_search_with}")
  endif()
  cudamatch_manifest_entry(graph_search_function ${id} "${manifest_file}" "${manifest}" graph_search function
                           CUDAMATCH_GRAPH_SEARCH ONE)
  cudamatch_manifest_entry(multi_matcher_table ${id} "${manifest_file}" "${manifest}" multi_matcher table
                           CUDAMATCH_MULTI_MATCHER ONE)
  # A lesson that plugs into the engine (a matcher, a multi-pattern matcher, the streamed search) builds
  # on it; a matcher lesson's driver is the matcher experiment (common/matcher_experiment.hpp), and a
  # multi-pattern lesson's driver writes its texts with the experiment's DeviceCorpus.
  set(lesson_base cudamatch_common)
  set(driver_harness "")
  if(matcher_table OR streamed_search_table OR graph_search_function OR multi_matcher_table)
    set(lesson_base cudamatch_engine)
  endif()
  if(matcher_table OR multi_matcher_table)
    set(driver_harness cudamatch_matcher_experiment)
  endif()
  if(CUDAMATCH_TRACK STREQUAL "both")
    set(tracks solutions student)
  elseif(CUDAMATCH_TRACK MATCHES "^(solutions|student)$")
    set(tracks ${CUDAMATCH_TRACK})
  else()
    message(FATAL_ERROR "CUDAMATCH_TRACK must be solutions, student or both (got '${CUDAMATCH_TRACK}')")
  endif()

  set(shared_dir "${PROJECT_SOURCE_DIR}/lessons/${id}")
  if(NOT EXISTS "${shared_dir}")
    message(FATAL_ERROR "lesson ${id}: ${shared_dir} does not exist")
  endif()
  file(GLOB test_sources CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/tests/${id}/*.cpp")

  # The driver is given code. Built for both tracks, it is compiled once, with the starter's folder, and
  # linked into both (half the drivers' compile time in CI): it includes only given headers, which the
  # test "lint: each driver compiled once reads no editable file" proves from Ninja's record.
  set(driver_source "${shared_dir}/${LESSON_DRIVER}")
  if(LESSON_DRIVER AND CUDAMATCH_TRACK STREQUAL "both")
    add_library("driver.${id}.objects" OBJECT "${driver_source}")
    target_link_libraries("driver.${id}.objects" PRIVATE "lesson.${id}.student" ${driver_harness} CLI11::CLI11
                                                         cudamatch_warnings)
    set(driver_source "$<TARGET_OBJECTS:driver.${id}.objects>")
  endif()

  foreach(track IN LISTS tracks)
    if(track STREQUAL "solutions")
      set(track_dir "${PROJECT_SOURCE_DIR}/solutions/${id}")
    else()
      set(track_dir "${shared_dir}")
    endif()
    if(CUDAMATCH_TRACK STREQUAL "both")
      set(bin_dir "${CMAKE_BINARY_DIR}/${track}/bin")
      set(test_prefix "${track}/${id}/")
    else()
      set(bin_dir "${CMAKE_BINARY_DIR}/bin")
      set(test_prefix "${id}/")
    endif()

    set(editable_sources "")
    foreach(file IN LISTS LESSON_EDITABLE)
      list(APPEND editable_sources "${track_dir}/${file}")
    endforeach()
    foreach(file IN LISTS LESSON_SHARED)
      list(APPEND editable_sources "${shared_dir}/${file}")
    endforeach()
    set(lib "lesson.${id}.${track}")
    set(used_libs "")
    foreach(used IN LISTS LESSON_USES)
      if(NOT TARGET "lesson.${used}.${track}")
        message(FATAL_ERROR "${manifest_file}: \"uses\" names ${used}, which is not a lesson before ${id} in lessons/course.json")
      endif()
      list(APPEND used_libs "lesson.${used}.${track}")
    endforeach()
    add_library(${lib} STATIC ${editable_sources})
    # The track's folder first: its editable headers win over the starter's copies in lessons/<id>/.
    target_include_directories(${lib} PUBLIC "${track_dir}" "${shared_dir}")
    target_link_libraries(${lib} PUBLIC ${lesson_base} ${used_libs} ${LESSON_LIBRARIES} PRIVATE cudamatch_warnings)

    if(LESSON_DRIVER)
      set(driver "driver.${id}.${track}")
      add_executable(${driver} ${driver_source})
      target_link_libraries(${driver} PRIVATE ${lib} ${driver_harness} CLI11::CLI11 cudamatch_warnings)
      set_target_properties(${driver} PROPERTIES OUTPUT_NAME "${id}" RUNTIME_OUTPUT_DIRECTORY "${bin_dir}")
    endif()

    if(CUDAMATCH_BUILD_TESTS AND test_sources)
      set(tests "test.${id}.${track}")
      add_executable(${tests} ${test_sources})
      target_link_libraries(${tests} PRIVATE ${lib} cudamatch_test_main cudamatch_warnings)
      if(LESSON_PTX)
        set(ptx "ptx.${id}.${track}")
        cudamatch_add_ptx(${ptx} "${track_dir}/${LESSON_PTX}")
        target_include_directories(${ptx} PRIVATE "${track_dir}" "${shared_dir}" "${PROJECT_SOURCE_DIR}")
        foreach(used IN LISTS used_libs)
          target_include_directories(${ptx} PRIVATE "$<TARGET_PROPERTY:${used},INTERFACE_INCLUDE_DIRECTORIES>")
        endforeach()
        add_dependencies(${tests} ${ptx})
        target_compile_definitions(${tests} PRIVATE CUDAMATCH_PTX_FILE="$<TARGET_OBJECTS:${ptx}>")
      endif()
      set_target_properties(${tests} PROPERTIES OUTPUT_NAME "test-${id}" RUNTIME_OUTPUT_DIRECTORY "${bin_dir}")
      set(common_properties SKIP_RETURN_CODE ${CUDAMATCH_SKIP_RETURN_CODE} LABELS "${track}/${id}" TIMEOUT 300)
      # -w NoAssertions: a test case that asserts nothing fails here as it does in the grader (which
      # takes one for a cheat), so that a check that only speaks up on a disagreement is caught early.
      set(catch_args EXTRA_ARGS -w NoAssertions)
      if(track STREQUAL "student" AND CUDAMATCH_TRACK STREQUAL "both")
        catch_discover_tests(${tests} TEST_SPEC "~[todo]" TEST_PREFIX "${test_prefix}" ${catch_args}
                             PROPERTIES ${common_properties})
        catch_discover_tests(${tests} TEST_SPEC "[todo]" TEST_PREFIX "${test_prefix}" ${catch_args}
                             TEST_SUFFIX " (the starter must fail this)"
                             PROPERTIES ${common_properties} WILL_FAIL TRUE)
      else()
        catch_discover_tests(${tests} TEST_PREFIX "${test_prefix}" ${catch_args} PROPERTIES ${common_properties})
      endif()
    endif()
  endforeach()

  if(EXISTS "${shared_dir}/CMakeLists.txt")
    add_subdirectory("${shared_dir}" "${CMAKE_BINARY_DIR}/lessons/${id}")
  endif()
endfunction()
