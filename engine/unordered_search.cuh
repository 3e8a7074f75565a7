// What the baselines (every v0: UnorderedVersion, engine/gpu_matcher.hpp) share on the device: a
// thread per piece of work, and every occurrence reported with a global atomic, in no particular order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/cuda_check.hpp"

namespace cudamatch {

// Adds the occurrence at `position` to *count and, when `positions` is not null, writes it at
// positions[the count before its add].
__device__ inline void report_unordered(unsigned long long* count, std::uint64_t* positions, std::uint64_t position) {
  const unsigned long long slot = atomicAdd(count, 1ull);
  if (positions != nullptr) positions[slot] = position;
}

// Queues `kernel` in `stream` with a thread per item (`items` of them) in blocks of `threads`.
template <class... Params, class... Args>
void launch_per_item(std::size_t items, unsigned threads, cudaStream_t stream, void (*kernel)(Params...),
                     Args... args) {
  kernel<<<static_cast<unsigned>((items + threads - 1) / threads), threads, 0, stream>>>(args...);
  CUDA_CHECK_LAUNCH();
}

}  // namespace cudamatch
