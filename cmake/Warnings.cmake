# Warning flags for every cudamatch target: -Wall -Wextra on host code, the same forwarded to the
# host compiler for .cu files, and nvcc's own warnings. CUDAMATCH_WERROR (the ci preset) makes them fatal.
add_library(cudamatch_warnings INTERFACE)
target_compile_options(cudamatch_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wshadow>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Wreorder>)
if(CUDAMATCH_WERROR)
  target_compile_options(cudamatch_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
endif()
if(CUDAMATCH_DEVICE_DEBUG)
  target_compile_options(cudamatch_warnings INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:-G>)
elseif(CUDAMATCH_LINEINFO)
  target_compile_options(cudamatch_warnings INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
endif()
