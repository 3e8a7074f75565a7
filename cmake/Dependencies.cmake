# Third-party libraries. Each is a Debian package (catch2, libcli11-dev); where the package is
# absent and the network is available, the pinned upstream release is fetched instead.
include(FetchContent)

# find_package(PACKAGE MAJOR CONFIG), the Debian package DEBIAN; when it is not installed, the release
# TAG of REPOSITORY is fetched and added to the build. A macro, not a function: the package's config
# file sets variables (Catch2 extends CMAKE_MODULE_PATH) that the caller needs.
macro(cudamatch_find_or_fetch package major debian repository tag)
  find_package(${package} ${major} CONFIG QUIET)
  if(NOT ${package}_FOUND)
    message(STATUS "cudamatch: ${package} ${major}.x not installed (Debian: ${debian}): fetching ${tag}")
    string(TOLOWER "${package}" _cudamatch_fetched)
    FetchContent_Declare(${_cudamatch_fetched} GIT_REPOSITORY "${repository}" GIT_TAG ${tag} GIT_SHALLOW TRUE)
    FetchContent_MakeAvailable(${_cudamatch_fetched})
  endif()
endmacro()

find_package(CUDAToolkit REQUIRED)

cudamatch_find_or_fetch(CLI11 2 libcli11-dev https://github.com/CLIUtils/CLI11.git v2.3.2)

if(CUDAMATCH_BUILD_TESTS)
  cudamatch_find_or_fetch(Catch2 2 catch2 https://github.com/catchorg/Catch2.git v2.13.10)
  # A fetched Catch2 keeps Catch.cmake in contrib/; the installed one's config adds its own folder.
  if(NOT Catch2_FOUND)
    list(APPEND CMAKE_MODULE_PATH "${catch2_SOURCE_DIR}/contrib")
  endif()
  include(Catch)
endif()
