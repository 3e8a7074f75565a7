# The six CPU matchers (common/matchers/), compiled into cudamatch_common. Included from
# common/CMakeLists.txt, so source properties set here apply to that directory's targets.
target_sources(cudamatch_common PRIVATE
  "${CMAKE_CURRENT_LIST_DIR}/boyer_moore.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/brute_force_matcher.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/comparison.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/cpu_matcher.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/epsm.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/epsm_sse.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/kmp.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/ssef.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/ssef_sse.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/sunday.cpp")

# The packed kernels of EPSM and SSEF, and only they, are compiled for SSE4.2 + POPCNT; the program
# calls them only after __builtin_cpu_supports says the CPU has both. Elsewhere these files compile
# to nothing and the portable versions run.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties(
    "${CMAKE_CURRENT_LIST_DIR}/epsm_sse.cpp"
    "${CMAKE_CURRENT_LIST_DIR}/ssef_sse.cpp"
    PROPERTIES COMPILE_OPTIONS "-msse4.2;-mpopcnt")
endif()
