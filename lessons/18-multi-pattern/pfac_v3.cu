// Lesson 18, v3: filter, then verify, for large pattern sets.
// STARTER: complete the TODO(18-multi-pattern, ...) holes (README, steps).
//
// With 100,000 patterns nearly every position starts a walk, and many walks go deep. A position can only
// begin an occurrence if its first q bytes begin some pattern: the prefix filter (pfac_tables.hpp), one
// bit per hash of each pattern's first q bytes, in shared memory, rejects most positions with one
// lookup. The positions that pass are queued in order in shared memory (a block-wide exclusive sum per
// round, lesson 07), and then the block's threads walk the queue: every thread of a round has a
// candidate, instead of a few threads of each warp walking while the others wait. The walks use v2's
// hot image and staged tile.
#include "engine/stage_tile.cuh"
#include "multi_gpu.hpp"
#include "pfac_set.cuh"

namespace cudamatch::lesson18 {

namespace {

constexpr int kThreads = 512;
constexpr int kRounds = 8;
constexpr std::size_t kTile = kThreads * kRounds;
constexpr std::size_t kLookahead = 64;
constexpr std::size_t kStaged = kTile + kLookahead;
constexpr std::size_t kQueueBytes = kTile * sizeof(std::uint16_t);
constexpr std::size_t kHotBudget = 8 * 1024;
// The filter takes what is left of the device's shared memory per block, up to 2^19 bits (64 KB):
// 100,000 patterns set about 17% of them.
constexpr unsigned kMaxFilterLog2Bits = 19;
static_assert(kTile <= 65536, "queued positions are 16-bit offsets in the tile");
static_assert(kLookahead >= 8, "a tile's last position has its q <= 8 bytes staged");

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    pfac_v3_kernel(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t positions,
                   const std::uint32_t* __restrict__ filter_words, unsigned q, unsigned log2_bits,
                   const std::uint32_t* __restrict__ image, std::int32_t hot, std::int32_t warm, TrieView tables,
                   Output out) {
  extern __shared__ uint4 shared[];  // the text tile, the queue, the filter, the hot image
  __shared__ BlockSumsTemp<kThreads> temp;
  std::uint8_t* s_text = reinterpret_cast<std::uint8_t*>(shared);
  auto* s_queue = reinterpret_cast<std::uint16_t*>(s_text + kStaged);
  auto* s_filter = reinterpret_cast<std::uint32_t*>(s_text + kStaged + kQueueBytes);
  const std::size_t filter_words_count = (std::size_t{1} << log2_bits) / 32;
  std::uint32_t* s_image = s_filter + filter_words_count;
  const std::size_t image_words = hot_layout(hot, warm).words;
  for (std::size_t w = threadIdx.x; w < filter_words_count; w += kThreads) s_filter[w] = filter_words[w];
  for (std::size_t w = threadIdx.x; w < image_words; w += kThreads) s_image[w] = image[w];
  const FilterView filter{s_filter, q, log2_bits};
  const HotTrie trie{s_image, hot, warm, tables};
  const std::size_t tiles = (positions + kTile - 1) / kTile;
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const std::size_t tile_start = tile * kTile;
    __syncthreads();  // the tables are in; the previous tile's walks are done with s_text and s_queue
    stage_tile<kThreads>(text, n, tile_start, kStaged, shared);
    __syncthreads();
    // TODO(18-multi-pattern, v3): the positions that pass the filter, queued in order (a block-wide exclusive sum).
    // Each round, each thread tests its position (inside the tile and below `positions`) with may_start;
    // a block_exclusive_sum of the passes gives each passing thread its place in s_queue (its offset in
    // the tile); `queued` counts them. Then a barrier: the walks read the queue.
    unsigned queued = 0;
    const auto byte_at = [&](std::size_t i) { return i - tile_start < kStaged ? s_text[i - tile_start] : text[i]; };
    walk_items<kPass>(
        out, trie, n, positions, tile, queued, [&](unsigned k) { return tile_start + s_queue[k]; }, byte_at, temp);
  }
}

// The most filter bits that fit beside the rest of v3's shared memory on the current device.
unsigned device_filter_log2_bits(std::size_t image_bytes) {
  int device = 0, optin = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t used = kStaged + kQueueBytes + image_bytes + sizeof(BlockSumsTemp<kThreads>);
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
    const std::size_t shared = kStaged + kQueueBytes + filter_.bytes() + hot_.bytes();
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

const GpuMultiVersion v3{"v3", "q-gram prefix filter in shared memory, survivors queued, then v2's walk", build};

}  // namespace cudamatch::lesson18
