// Lesson 07 - reductions, scans and histograms: what the driver and the tests call.
// Every sum is over unsigned 32-bit values and wraps modulo 2^32 (as CUB's does: the same bits).
// Device pointers to element arrays must be 16-byte aligned (cudaMalloc's are): the kernels read
// and write 16 bytes at a time. A length of 0 launches nothing, except in reduce_sum, whose kernels
// then see no element and set *sum to 0 (histogram_bytes zeroes the bins with a memset).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cudamatch::lesson07 {

// ---- reductions.cu (yours; the global-atomic histogram and histogram_bytes: histogram_given.cu) -----
enum class ReduceVersion {
  tree,     // given: each block sums in a shared-memory tree (8 barriers) and writes a partial sum; a
            // second launch of one block adds the partials
  shuffle,  // given: the same two launches, each block summing with block_reduce_sum (steps 1-2)
  atomic    // step 4: one launch; each block adds its block_reduce_sum to *sum with ONE atomicAdd
};

// The scratch (partial sums) the two-pass versions need on this device, in elements.
std::size_t reduce_scratch_elements();

// *sum = in[0] + ... + in[n - 1]. `scratch` holds reduce_scratch_elements() elements.
void reduce_sum(ReduceVersion version, const unsigned* in, std::size_t n, unsigned* sum, unsigned* scratch,
                cudaStream_t stream = nullptr);

enum class HistogramVersion {
  global_atomics,  // given: one global atomicAdd per byte
  privatized       // step 5: a block's own 256 counters in shared memory, added to the global ones at the end
};

// bins[b] = the number of bytes of value b in bytes[0 .. n - 1] (256 bins, overwritten).
void histogram_bytes(HistogramVersion version, const std::uint8_t* bytes, std::size_t n, unsigned* bins,
                     cudaStream_t stream = nullptr);

// The block functions of block_sums.cuh, one value per thread, for the tests: blocks of `threads`
// threads (32, 160, 256 or 1024) over in[0 .. n - 1], the last block padded with zeros.
// out[i] = warp_inclusive_sum over i's warp (blocks of 256 threads).
void warp_inclusive_sums(const unsigned* in, unsigned* out, std::size_t n);
// totals[b] = block_reduce_sum over block b; every thread of the block must get the same total (a
// block whose threads disagree writes totals[b] = ~total).
void block_reduce_sums(const unsigned* in, unsigned* totals, std::size_t n, int threads);
// out[i] = block_exclusive_sum over i's block, totals[b] = its block total; again[i] = the exclusive
// sum of in[i] * 3 + 1 over the same block, computed right after with the same temp (its reuse).
void block_exclusive_sums(const unsigned* in, unsigned* out, unsigned* again, unsigned* totals, std::size_t n,
                          int threads);

// ---- grid_scan.cu (given, on your block_exclusive_sum) ----------------------------------------------
enum class ScanVersion {
  reduce_then_scan,  // three launches: tile totals, a scan of the totals, the tiles scanned from there
  look_back          // one launch: each tile waits for the prefix of the tiles before it (decoupled look-back)
};

// The scratch both versions need for n elements, in bytes.
std::size_t scan_scratch_bytes(std::size_t n);

// out[i] = in[0] + ... + in[i - 1] (out[0] = 0). `out` may not overlap `in`.
void exclusive_scan(ScanVersion version, const unsigned* in, unsigned* out, std::size_t n, void* scratch,
                    cudaStream_t stream = nullptr);

// ---- cub_baselines.cu (given) ------------------------------------------------------------------------
// CUB's device-wide sum and exclusive sum, the rows to match; their temporary storage is allocated
// once by the caller (cub_temp_bytes: enough for both on n elements).
std::size_t cub_temp_bytes(std::size_t n);
void cub_sum(const unsigned* in, std::size_t n, unsigned* sum, void* temp, std::size_t temp_bytes,
             cudaStream_t stream = nullptr);
void cub_exclusive_sum(const unsigned* in, unsigned* out, std::size_t n, void* temp, std::size_t temp_bytes,
                       cudaStream_t stream = nullptr);

}  // namespace cudamatch::lesson07
