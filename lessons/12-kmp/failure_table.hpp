// Lesson 12: Knuth's failure table of a pattern (next[], as common/matchers/kmp.cpp defines it), m + 1
// int32 entries:
//   next[i], i < m: the state to fall back to after a mismatch in state i: the longest proper border
//                   k of p[0, i) with p[k] != p[i], or -1 when every border has p[k] == p[i] (then the
//                   byte matches no prefix: the scan restarts in state 0 on the next byte);
//   next[m]:        the state after a match: the longest proper border of the whole pattern.
// v0 builds it on the host (failure_table); v1 and v2 build it in every block, in shared memory, with
// build_failure_table (failure_table.cuh).
#pragma once

#include <cstdint>
#include <vector>

#include "common/byte_view.hpp"

namespace cudamatch::lesson12 {

// The serial construction, O(m).
std::vector<std::int32_t> failure_table(ByteView pattern);

// The same table built by one block with build_failure_table and copied back (for the tests).
// The pattern must leave room in 48 KB of shared memory for its table: m <= 9000.
std::vector<std::int32_t> failure_table_on_device(ByteView pattern);

}  // namespace cudamatch::lesson12
