# Third-party libraries. Each is a Debian package (catch2, libcli11-dev); where the package is
# absent and the network is available, the pinned upstream release is fetched instead.
include(FetchContent)

find_package(CUDAToolkit REQUIRED)

find_package(CLI11 2 CONFIG QUIET)
if(NOT CLI11_FOUND)
  message(STATUS "cudamatch: CLI11 not installed (Debian: libcli11-dev): fetching v2.3.2")
  FetchContent_Declare(cli11
    GIT_REPOSITORY https://github.com/CLIUtils/CLI11.git
    GIT_TAG v2.3.2
    GIT_SHALLOW TRUE)
  FetchContent_MakeAvailable(cli11)
endif()

if(CUDAMATCH_BUILD_TESTS)
  find_package(Catch2 2 CONFIG QUIET)
  if(NOT Catch2_FOUND)
    message(STATUS "cudamatch: Catch2 2.x not installed (Debian: catch2): fetching v2.13.10")
    FetchContent_Declare(catch2
      GIT_REPOSITORY https://github.com/catchorg/Catch2.git
      GIT_TAG v2.13.10
      GIT_SHALLOW TRUE)
    FetchContent_MakeAvailable(catch2)
    list(APPEND CMAKE_MODULE_PATH "${catch2_SOURCE_DIR}/contrib")
  endif()
  include(Catch)
endif()
