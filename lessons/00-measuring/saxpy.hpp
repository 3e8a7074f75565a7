// Lesson 00 - measuring. What the student implements (saxpy.cu, measure.cpp) and what the driver
// and the tests call.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>

// y[i] = a * x[i] + y[i] for every i < n, on `stream`. Returns as soon as the kernel is queued.
void saxpy(float a, const float* x, float* y, std::size_t n, cudaStream_t stream = nullptr);

// The bytes SAXPY must move between the GPU and its memory for n elements: the numerator of its
// effective bandwidth.
std::uint64_t saxpy_bytes_moved(std::size_t n);

// Milliseconds the GPU spent on the work that `work(stream)` queues on `stream`, measured with a pair
// of CUDA events recorded on that stream around it.
float elapsed_ms_with_events(const std::function<void(cudaStream_t)>& work, cudaStream_t stream = nullptr);
