// Lesson 18, v3: filter, then verify, for large pattern sets.
// SOLUTION.
//
// With 1,000 patterns about one position in 200 begins an occurrence, and the walks of v1 and v2 spend
// nearly all their time proving that the others do not. A position can only begin an occurrence if
// its first q bytes begin some pattern: the prefix filter (pfac_tables.hpp), one bit per hash of each
// pattern's first q bytes, in shared memory, rejects almost every other position with one lookup.
// The filter is cheap only if each position costs a few instructions: each thread holds 16 + 8 text
// bytes in registers (one 16-byte and one 8-byte load), builds the q-gram of each of its 16 positions
// with funnel shifts, hashes it with two multiplies and reads one filter bit (window_candidates). Only
// the few candidates walk the trie, v2's way (hot image in shared memory, text from L1/L2). The count
// pass has no barrier after the tables are in: every warp runs ahead on its own.
#include "multi_gpu.hpp"
#include "pfac_set.cuh"

namespace cudamatch::lesson18 {

namespace {

constexpr int kThreads = 512;
constexpr std::size_t kTile = kThreads * kWindowPositions;  // a tile: one window a thread
constexpr std::size_t kHotBudget = 8 * 1024;
// The filter takes what is left of the device's shared memory per block, up to 2^19 bits (64 KB): three
// blocks of 512 threads still fit on an SM of 228 KB. 100,000 patterns set about 17% of the bits.
constexpr unsigned kMaxFilterLog2Bits = 19;

// The window of the thread whose positions begin at `first` (a multiple of 16, below n): bytes first ..
// first + 23 as six words. DeviceText's base is 16-byte aligned and its allocation ends at least 16
// bytes past the last vector that starts before n, so both loads stay inside it.
__device__ inline void load_window(const std::uint8_t* __restrict__ text, std::size_t first,
                                   std::uint32_t (&words)[kWindowWords]) {
  const uint4 head = *reinterpret_cast<const uint4*>(text + first);
  const uint2 tail = *reinterpret_cast<const uint2*>(text + first + 16);
  words[0] = head.x, words[1] = head.y, words[2] = head.z, words[3] = head.w;
  words[4] = tail.x, words[5] = tail.y;
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    pfac_v3_kernel(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t positions,
                   const std::uint32_t* __restrict__ filter_words, unsigned q, unsigned log2_bits,
                   const std::uint32_t* __restrict__ image, std::int32_t hot, std::int32_t warm, TrieView tables,
                   Output out) {
  extern __shared__ std::uint32_t shared_words[];  // the filter, then the hot image
  __shared__ BlockSumsTemp<kThreads> temp;         // the block sums of the count_per_block and write passes
  const std::size_t filter_words_count = (std::size_t{1} << log2_bits) / 32;
  std::uint32_t* s_filter = shared_words;
  std::uint32_t* s_image = shared_words + filter_words_count;
  const std::size_t image_words = hot_layout(hot, warm).words;
  for (std::size_t w = threadIdx.x; w < filter_words_count; w += kThreads) s_filter[w] = filter_words[w];
  for (std::size_t w = threadIdx.x; w < image_words; w += kThreads) s_image[w] = image[w];
  __syncthreads();  // the filter and the hot image are in
  const FilterView filter{s_filter, q, log2_bits};
  const HotTrie trie{s_image, hot, warm, tables};
  const auto byte_at = [&](std::size_t i) { return text[i]; };
  const std::size_t tiles = (positions + kTile - 1) / kTile;
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const std::size_t first = tile * kTile + threadIdx.x * kWindowPositions;
    // HOLE(18-multi-pattern, v3): the thread's 16 positions through the filter, from its window in registers.
    std::uint32_t candidates = 0;
    if (first < positions) {
      std::uint32_t words[kWindowWords];
      load_window(text, first, words);
      candidates = window_candidates(filter, words);
      if (positions - first < kWindowPositions) candidates &= (1u << (positions - first)) - 1;
    }
    // END HOLE
    // The walks of the candidates, in position order (the write pass's order: thread after thread).
    const auto walk = [&](auto on_record) {
      for (std::uint32_t left = candidates; left != 0; left &= left - 1) {
        const std::size_t position = first + static_cast<unsigned>(__ffs(static_cast<int>(left)) - 1);
        pfac_walk(trie, position, n, byte_at,
                  [&](std::int32_t terminal, std::size_t end) { on_record(terminal, position, end); });
      }
    };
    unsigned found = 0;
    unsigned long long next_slot = kPass == Pass::write ? out.tile_offsets[tile] : 0;
    report_round<kPass>(out, candidates != 0, walk, temp, next_slot, found);
    finish_tile<kPass>(out, tile, found, temp);
  }
}

// The most filter bits that fit beside the rest of v3's shared memory on the current device.
unsigned device_filter_log2_bits(std::size_t image_bytes) {
  int device = 0, optin = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t used = image_bytes + sizeof(BlockSumsTemp<kThreads>);
  const std::size_t room = static_cast<std::size_t>(optin) > used ? static_cast<std::size_t>(optin) - used : 0;
  unsigned bits = 5;
  while (bits < kMaxFilterLog2Bits && (std::size_t{1} << (bits + 1)) / 8 <= room) ++bits;
  return bits;
}

class V3Set final : public PfacSet {
 public:
  V3Set(const std::vector<ByteView>& patterns, cudaStream_t stream)
      : PfacSet(patterns, stream),
        hot_(build_hot_image(trie(), kHotBudget)),
        filter_(patterns.empty()
                    ? PrefixFilter{}
                    : build_prefix_filter(patterns,
                                          filter_log2_bits(patterns.size(), device_filter_log2_bits(hot_.bytes())))),
        image_(to_device(hot_.words, stream)),
        filter_words_(to_device(filter_.words, stream)) {}

 private:
  std::size_t tile_positions() const override { return kTile; }
  void enqueue(Pass pass, const std::uint8_t* text, std::size_t n, std::size_t positions, const Output& out,
               cudaStream_t stream) override {
    const auto kernel = pass == Pass::count             ? pfac_v3_kernel<Pass::count>
                        : pass == Pass::count_per_block ? pfac_v3_kernel<Pass::count_per_block>
                                                        : pfac_v3_kernel<Pass::write>;
    const std::size_t shared = filter_.bytes() + hot_.bytes();
    const unsigned grid = tile_grid(kernel, kThreads, shared, tiles(positions));
    kernel<<<grid, kThreads, shared, stream>>>(text, n, positions, filter_words_.data(), filter_.q, filter_.log2_bits,
                                               image_.data(), hot_.hot, hot_.warm, device_tables(), out);
    CUDA_CHECK_LAUNCH();
  }

  HotImage hot_;
  PrefixFilter filter_;
  DeviceBuffer<std::uint32_t> image_;
  DeviceBuffer<std::uint32_t> filter_words_;
};

std::unique_ptr<GpuPatternSet> build(const std::vector<ByteView>& patterns, cudaStream_t stream) {
  return std::make_unique<V3Set>(patterns, stream);
}

}  // namespace

const GpuMultiVersion v3{"v3", "q-gram filter over 16 positions a thread in registers, then v2's walk", build};

}  // namespace cudamatch::lesson18
