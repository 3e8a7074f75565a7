# Choose CMAKE_CUDA_ARCHITECTURES before project() enables CUDA.
# An explicit -DCMAKE_CUDA_ARCHITECTURES (presets, the command line) always wins. Otherwise ask
# nvidia-smi for the compute capability of GPU 0 (native code for the machine's GPU); without a GPU,
# fall back to sm_90, the reference GPU (H100/H200). CMake's own "native" value is not used because
# it makes configure fail on a machine without a GPU.
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()

set(_cudamatch_arch 90)
find_program(_cudamatch_nvidia_smi nvidia-smi)
if(_cudamatch_nvidia_smi)
  execute_process(
    COMMAND ${_cudamatch_nvidia_smi} --query-gpu=compute_cap --format=csv,noheader --id=0
    OUTPUT_VARIABLE _cudamatch_cc
    RESULT_VARIABLE _cudamatch_rc
    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_cudamatch_rc EQUAL 0 AND _cudamatch_cc MATCHES "^([0-9]+)\\.([0-9]+)$")
    set(_cudamatch_arch "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
    message(STATUS "cudamatch: GPU 0 has compute capability ${_cudamatch_cc}: building for sm_${_cudamatch_arch}")
  endif()
endif()
if(NOT _cudamatch_cc)
  message(STATUS "cudamatch: no GPU found at configure time: building for sm_${_cudamatch_arch} "
                 "(set -DCMAKE_CUDA_ARCHITECTURES=NN for another GPU)")
endif()
set(CMAKE_CUDA_ARCHITECTURES "${_cudamatch_arch}" CACHE STRING "CUDA architectures to build for")
