// Lesson 13: what v1 and v2 share: the block size, their static shared memory, and the end of every
// pass (engine/block_pass.cuh; engine/search_passes.cuh explains the passes). Their kernels take the
// pattern's tables as an extra last argument, which the shared launchers pass on.
#pragma once

#include "bm_tables.hpp"
#include "boyer_moore_gpu.hpp"
#include "engine/block_pass.cuh"
#include "engine/search_passes.cuh"

namespace cudamatch::lesson13 {

constexpr int kThreads = 256;  // v1 and v2's blocks

using BlockTemp = BlockPassTemp<kThreads>;
// The bad-character table and BlockTemp are the kernels' static shared memory.
static_assert(256 * sizeof(std::int32_t) + sizeof(BlockTemp) <= kStaticSharedBytes, "static shared memory over budget");

}  // namespace cudamatch::lesson13
