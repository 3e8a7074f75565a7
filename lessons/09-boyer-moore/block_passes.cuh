// Lesson 09: what v1 and v2 share: the block size, their static shared memory, and the end of every
// pass (common/block_pass.cuh; common/search_passes.cuh explains the passes). Their kernels take the
// pattern's tables as an extra last argument, which the shared launchers pass on.
#pragma once

#include "bm_tables.hpp"
#include "common/block_pass.cuh"
#include "common/search_passes.cuh"
#include "versions.hpp"

namespace lesson09 {

using cudamatch::Launch;
using cudamatch::Pass;

constexpr int kThreads = 256;  // v1 and v2's blocks

using BlockTemp = cudamatch::BlockPassTemp<kThreads>;
using cudamatch::finish_block_pass;
// The bad-character table and BlockTemp are the kernels' static shared memory.
static_assert(256 * sizeof(std::int32_t) + sizeof(BlockTemp) <= kStaticSharedBytes, "static shared memory over budget");

}  // namespace lesson09
