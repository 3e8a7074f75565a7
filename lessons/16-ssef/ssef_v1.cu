// Lesson 16, v1: the table built on the GPU as compressed sparse rows, one load per examined block,
// ordered output.
// STARTER: complete the TODO in search_block (the rest is given).
//
// What v0 pays besides the search: for every pattern the host builds 65,536 list heads and copies them
// (256 KB from pageable memory, which waits for the stream: the host stops at every search); each
// thread reads its block one byte at a time (16 load instructions for 16 bytes of one sector) and walks
// its bucket one dependent load per entry; every match is a global atomic and the host sorts.
//
// v1 removes each of these:
//   - the table (ssef_table.cu, given) is built by one block of the GPU, queued in the search's stream
//     before the search kernel: the host prepares only the plan and never waits;
//   - the table is CSR: a probe reads offsets[f] and offsets[f + 1] (neighbours, one sector) and then
//     consecutive entries, none of whose addresses depends on the previous load;
//   - a thread reads its examined block with ONE load of its width (uint4 for 16 bytes, uint2 for 8,
//     ...; o is a multiple of B and the text is 256-byte aligned);
//   - positions come out in order without a sort (engine/search_passes.cuh): a block owns 256
//     consecutive examined blocks, so thread order is position order, and each thread's alignments
//     o - r come out increasing (entries decreasing within a bucket); count mode adds one atomic per block.
// Verification stays one thread, byte by byte, in global memory: candidates are rare (16-ssef-filter).
#include "engine/block_pass.cuh"
#include "ssef_gpu.hpp"
#include "ssef_table.hpp"

namespace cudamatch::lesson16 {

namespace {

constexpr int kThreads = 256;

// The B bytes of the examined block at o, with one load, in the 16-byte form fingerprint_in_vector takes.
__device__ uint4 load_block(const std::uint8_t* __restrict__ text, std::size_t o, unsigned block) {
  switch (block) {
    case 16:
      return *reinterpret_cast<const uint4*>(text + o);
    case 8: {
      const uint2 w = *reinterpret_cast<const uint2*>(text + o);
      return make_uint4(w.x, w.y, 0, 0);
    }
    case 4:
      return make_uint4(*reinterpret_cast<const std::uint32_t*>(text + o), 0, 0, 0);
    case 2:
      return make_uint4(*reinterpret_cast<const std::uint16_t*>(text + o), 0, 0, 0);
    default:
      return make_uint4(text[o], 0, 0, 0);
  }
}

// Calls on_match(s) for every occurrence the examined block at o proposes, in increasing s.
template <class OnMatch>
__device__ void search_block(const std::uint8_t* __restrict__ text, std::size_t n,
                             const std::uint8_t* __restrict__ pattern, std::size_t m, const Plan& plan,
                             const CsrTable& table, std::size_t o, OnMatch on_match) {
  // TODO(16-ssef, v1): probe the CSR table and verify.
  //   1. f = fingerprint_in_vector(plan, load_block(text, o, plan.block), 0): one load of the block.
  //   2. The bucket is table.entries[table.offsets[f], table.offsets[f + 1]), pattern offsets r in
  //      decreasing order. For each r: skip it when r > o (the alignment would start before the text);
  //      s = o - r; stop at the first s > n - m (the later entries start later still).
  //   3. Compare text[s + j] with pattern[j] for j = 0 .. m - 1, stopping at the first difference;
  //      call on_match(s) when all m bytes are equal. The calls then come in increasing s.
  (void)text, (void)n, (void)pattern, (void)m, (void)plan, (void)table, (void)o, (void)on_match, (void)load_block;
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    ssef_v1_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                   std::size_t m, unsigned long long* __restrict__ counts,
                   const unsigned long long* __restrict__ offsets, std::uint64_t* __restrict__ positions, Plan plan,
                   CsrTable table) {
  __shared__ BlockPassTemp<kThreads> temp;
  const std::size_t o = (static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x) * plan.step;
  const bool examined = o <= last_block(plan, n, m);
  unsigned found = 0;
  if (examined) search_block(text, n, pattern, m, plan, table, o, [&](std::size_t) { ++found; });
  finish_block_pass<kPass>(found, temp, counts, offsets, positions, [&](std::uint64_t* out) {
    search_block(text, n, pattern, m, plan, table, o, [&](std::size_t s) { *out++ = s; });
  });
}

Launch plan_launch(const DeviceText& text, const Plan& plan, std::size_t m) {
  const std::size_t examined = last_block(plan, text.size(), m) / plan.step + 1;
  return {static_cast<unsigned>((examined + kThreads - 1) / kThreads), kThreads, 0};
}

void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  const Plan plan = make_plan(pattern.host());
  const CsrTable table = build_table_on_gpu(pattern, plan, stream);
  enqueue_count_pass(ssef_v1_kernel<Pass::count>, plan_launch(text, plan, pattern.size()), text, pattern, count, stream,
                     plan, table);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  const Plan plan = make_plan(pattern.host());
  const CsrTable table = build_table_on_gpu(pattern, plan, stream);
  return positions_in_passes(ssef_v1_kernel<Pass::count_per_block>, ssef_v1_kernel<Pass::write>,
                             plan_launch(text, plan, pattern.size()), text, pattern, positions, stream, plan, table);
}

}  // namespace

const GpuVersion v1{"v1", "CSR table built on the GPU, one load per block, ordered output", count, positions};

}  // namespace cudamatch::lesson16
