// A kernel that only waits: tests use it to hold a stream back for a fixed time, so that work on other
// streams certainly runs first and a missing wait between streams certainly shows.
#pragma once

#include <cuda_runtime.h>

#include <chrono>

namespace cudamatch::testing {

// Queues on `stream` one thread that sleeps for `duration` (by the GPU's global timer): what is queued
// after it on `stream` starts that much later; other streams go on.
void gpu_sleep(cudaStream_t stream, std::chrono::milliseconds duration);

}  // namespace cudamatch::testing
