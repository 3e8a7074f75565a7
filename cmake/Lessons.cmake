# cudamatch_add_lesson(<id> EDITABLE <file>... [SHARED <file>...] [LIBRARIES <target>...] [PTX <file.cu>])
#
# One lesson of the course, built for the track(s) selected by CUDAMATCH_TRACK:
#   - the student-editable files come from solutions/<id>/ (solutions track) or lessons/<id>/
#     (student track); everything else in lessons/<id>/ (headers, the driver) is shared;
#   - lessons/<id>/driver.cu, when present, becomes the driver program bin/<id>;
#   - tests/<id>/*.cpp become bin/test-<id>, registered with CTest one Catch2 test case per test;
#   - SHARED sources are lessons/<id>/ files compiled with the editable ones (not student-editable);
#   - LIBRARIES are linked to the lesson's code (e.g. CUDA::cublas for a ceiling row);
#   - PTX names one editable .cu file that is also compiled to PTX (compute_75), whose path the
#     tests get as CUDAMATCH_PTX_FILE: tests that read the compiled code run without a GPU;
#   - lessons/<id>/CMakeLists.txt, when present, adds what the lesson has beyond that (once, not per
#     track: it may only use the shared files of lessons/<id>/).
# GPU tests exit with status 77 on a machine without a CUDA device, which CTest reports as skipped.
# With CUDAMATCH_TRACK=both (the ci preset) the starter's [todo] tests are registered as
# expected failures: CI proves that the starter fails exactly what it leaves to the student.
set(CUDAMATCH_SKIP_RETURN_CODE 77)

function(cudamatch_add_lesson id)
  cmake_parse_arguments(PARSE_ARGV 1 LESSON "" "PTX" "EDITABLE;SHARED;LIBRARIES")
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
    add_library(${lib} STATIC ${editable_sources})
    target_include_directories(${lib} PUBLIC "${shared_dir}")
    target_link_libraries(${lib} PUBLIC cudamatch_common ${LESSON_LIBRARIES} PRIVATE cudamatch_warnings)

    if(EXISTS "${shared_dir}/driver.cu")
      set(driver "driver.${id}.${track}")
      add_executable(${driver} "${shared_dir}/driver.cu")
      target_link_libraries(${driver} PRIVATE ${lib} CLI11::CLI11 cudamatch_warnings)
      set_target_properties(${driver} PROPERTIES OUTPUT_NAME "${id}" RUNTIME_OUTPUT_DIRECTORY "${bin_dir}")
    endif()

    if(CUDAMATCH_BUILD_TESTS AND test_sources)
      set(tests "test.${id}.${track}")
      add_executable(${tests} ${test_sources})
      target_link_libraries(${tests} PRIVATE ${lib} cudamatch_test_main cudamatch_warnings)
      if(LESSON_PTX)
        set(ptx "ptx.${id}.${track}")
        add_library(${ptx} OBJECT "${track_dir}/${LESSON_PTX}")
        set_target_properties(${ptx} PROPERTIES CUDA_PTX_COMPILATION ON CUDA_ARCHITECTURES 75-virtual)
        target_include_directories(${ptx} PRIVATE "${shared_dir}" "${PROJECT_SOURCE_DIR}")
        target_link_libraries(${ptx} PRIVATE cudamatch_warnings)
        add_dependencies(${tests} ${ptx})
        target_compile_definitions(${tests} PRIVATE CUDAMATCH_PTX_FILE="$<TARGET_OBJECTS:${ptx}>")
      endif()
      set_target_properties(${tests} PROPERTIES OUTPUT_NAME "test-${id}" RUNTIME_OUTPUT_DIRECTORY "${bin_dir}")
      set(common_properties SKIP_RETURN_CODE ${CUDAMATCH_SKIP_RETURN_CODE} LABELS "${track}/${id}" TIMEOUT 300)
      if(track STREQUAL "student" AND CUDAMATCH_TRACK STREQUAL "both")
        catch_discover_tests(${tests} TEST_SPEC "~[todo]" TEST_PREFIX "${test_prefix}"
                             PROPERTIES ${common_properties})
        catch_discover_tests(${tests} TEST_SPEC "[todo]" TEST_PREFIX "${test_prefix}"
                             TEST_SUFFIX " (the starter must fail this)"
                             PROPERTIES ${common_properties} WILL_FAIL TRUE)
      else()
        catch_discover_tests(${tests} TEST_PREFIX "${test_prefix}" PROPERTIES ${common_properties})
      endif()
    endif()
  endforeach()

  if(EXISTS "${shared_dir}/CMakeLists.txt")
    add_subdirectory("${shared_dir}" "${CMAKE_BINARY_DIR}/lessons/${id}")
  endif()
endfunction()
