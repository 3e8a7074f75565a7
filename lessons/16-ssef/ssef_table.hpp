// Lesson 16: the table of v1 and v2, built on the GPU in the search's stream (ssef_table.cu): nothing is
// prepared on the host but the plan, nothing is copied, and the host never waits.
//
// Compressed sparse rows: bucket f holds entries[offsets[f], offsets[f + 1]), its pattern offsets r in
// decreasing order, so that the alignments o - r an examined block proposes come out in increasing
// order. A probe reads two neighbouring words of `offsets` and then consecutive entries, where v0's
// linked lists chase one pointer per entry. `nonempty` (8 KB, a bit per bucket) is what v2 keeps in
// shared memory: most probes end there.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "engine/device_text.hpp"
#include "ssef_plan.hpp"

namespace cudamatch::lesson16 {

struct CsrTable {
  const std::uint32_t* nonempty;  // kBuckets / 32 words: bit f % 32 of word f / 32 set when bucket f holds an entry
  const std::uint32_t* offsets;   // kBuckets + 1
  const std::uint32_t* entries;   // plan.step pattern offsets, decreasing within each bucket
};

// Enqueues the build (one block, in `stream`) into scratch slot table0 and returns where the table
// will be. The plan must be make_plan(pattern).
CsrTable build_table_on_gpu(const DevicePattern& pattern, const Plan& plan, cudaStream_t stream);

}  // namespace cudamatch::lesson16
