// Lesson 13: the two shift tables of Boyer-Moore (bm_search.cuh says how the search uses them), with
// 32-bit entries, for patterns shorter than 2^31 bytes:
//   last_index[c]   (256 entries): the last index of byte c in pattern[0, m - 1), -1 when c is not there.
//                   After a mismatch at pattern index i against text byte c, the bad-character rule
//                   shifts by i - last_index[c] (c under its last occurrence; <= 0 when that lies right
//                   of i, and then the good-suffix shift decides).
//   good_suffix[i]  (m entries): the shift after a mismatch at i, pattern[i + 1, m) matched: the
//                   smallest s >= 1 that puts under the matched bytes a copy of them not preceded by
//                   pattern[i] (or only the part of them that a prefix of the pattern covers). Entry 0
//                   is the pattern's period: the shift after a whole match.
// v0 and v1 build both on the host and copy them before every search; v2 builds the good-suffix table
// with a one-block kernel (and the bad-character table in every block, bm_v2.cu).
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/byte_view.hpp"
#include "engine/device_text.hpp"

namespace cudamatch::lesson13 {

struct HostTables {
  std::array<std::int32_t, 256> last_index;
  std::vector<std::int32_t> good_suffix;
};

// O(m + 256), on the host. m >= 1.
HostTables build_tables(ByteView pattern);

// Device pointers to the tables, as the kernels take them.
struct DeviceTables {
  const std::int32_t* last_index;
  const std::int32_t* good_suffix;
};

// v0, v1: build_tables, then a copy of each table to a scratch slot (table0, table1) in `stream`. From
// pageable memory the copies wait for the stream: a host synchronization in every search.
DeviceTables upload_tables(const DevicePattern& pattern, cudaStream_t stream);

// v2: the good-suffix table built by one block of the GPU in `stream`, into scratch slot table1, for
// m <= kMaxGoodSuffixOnGpu (the pattern and two work arrays share its 48 KB of shared memory).
// last_index is null: v2's blocks build their own. Nothing is copied from the host.
constexpr std::size_t kMaxGoodSuffixOnGpu = 7000;
DeviceTables good_suffix_on_gpu(const DevicePattern& pattern, cudaStream_t stream);

}  // namespace cudamatch::lesson13
