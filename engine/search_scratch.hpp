// Device scratch memory that searches reuse instead of allocating per call: a cudaMalloc/cudaFree
// pair costs more than a whole search of a 4 MB text (lesson 11's profile). One set per host
// thread, grown on demand and kept until the thread ends. Searches that share it must be ordered
// (one stream per host thread): a later search may overwrite what an earlier one left there.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/buffers.hpp"

namespace cudamatch {

enum class ScratchSlot {
  counters,       // the baselines' match counter (positions_sorted_on_host)
  block_counts,   // positions mode: one count per block ...
  block_offsets,  // ... and its exclusive scan
  scan_temp,      // CUB's temporary storage
  table0,         // a matcher's pattern tables (the baselines upload theirs here)
  table1,
  kCount
};

// At least `count` elements of T in `slot`, 256-byte aligned. Growing it synchronizes the device.
template <class T>
T* scratch(ScratchSlot slot, std::size_t count);

void* scratch_bytes(ScratchSlot slot, std::size_t bytes);

template <class T>
T* scratch(ScratchSlot slot, std::size_t count) {
  return static_cast<T*>(scratch_bytes(slot, count * sizeof(T)));
}

// A pinned host array of at least `count` values for read-backs (pinned: the copy runs as one DMA).
unsigned long long* pinned_readback(std::size_t count);

}  // namespace cudamatch
