// Lesson 18, v2: v1 with the hot states in shared memory and the text tile staged there.
// STARTER: complete the TODO(18-multi-pattern, ...) holes (README, steps).
//
// Most walks end within a few steps, in the shallow states: those are the hot image (pfac_tables.hpp),
// which each block copies into shared memory once (the grid is one wave of blocks that loop over the
// tiles, lesson 05), with the root's dense row (one load for the first step, no search). Each tile's
// text, kTile positions and kLookahead bytes after them, is staged with 16-byte loads (lesson 04); a
// walk that runs past it reads global memory.
#include "engine/stage_tile.cuh"
#include "multi_gpu.hpp"
#include "pfac_set.cuh"

namespace cudamatch::lesson18 {

namespace {

constexpr int kThreads = 256;
constexpr int kRounds = 16;
constexpr std::size_t kTile = kThreads * kRounds;
constexpr std::size_t kLookahead = 64;  // walks of up to 64 bytes past the tile's last position stay in it
constexpr std::size_t kStaged = kTile + kLookahead;
// 20 KB of hot image beside the 4 KB tile: eight blocks (the most of 256 threads) fit on an SM with
// 228 KB of shared memory (sm_90), two on one with 64 KB (sm_75: 4 KB tile and 20 KB image a block).
constexpr std::size_t kHotBudget = 20 * 1024;
static_assert(kStaged % 16 == 0, "the image begins 16-byte aligned after the tile");

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    pfac_v2_kernel(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t positions,
                   const std::uint32_t* __restrict__ image, std::int32_t hot, std::int32_t warm, TrieView tables,
                   Output out) {
  extern __shared__ uint4 shared[];  // the text tile, then the hot image
  __shared__ BlockSumsTemp<kThreads> temp;
  std::uint8_t* s_text = reinterpret_cast<std::uint8_t*>(shared);
  std::uint32_t* s_image = reinterpret_cast<std::uint32_t*>(s_text + kStaged);
  const HotTrie trie{s_image, hot, warm, tables};
  const std::size_t tiles = (positions + kTile - 1) / kTile;
  // TODO(18-multi-pattern, v2): the image into shared memory once, each tile's text staged, the walks over both.
  // Copy the hot_layout(hot, warm).words words of `image` to s_image (every thread a share), then for
  // each of the block's tiles: a barrier, stage_tile into `shared`, a barrier, and walk_items over the
  // tile's kTile positions with a byte_at that reads s_text inside the staged bytes, `text` past them.
  (void)n, (void)image, (void)tiles, (void)temp, (void)out;
}

class V2Set final : public PfacSet {
 public:
  V2Set(const std::vector<ByteView>& patterns, cudaStream_t stream)
      : PfacSet(patterns, stream), hot_(build_hot_image(trie(), kHotBudget)), image_(to_device(hot_.words, stream)) {}

 private:
  std::size_t tile_positions() const override { return kTile; }
  void enqueue(Pass pass, const std::uint8_t* text, std::size_t n, std::size_t positions, const Output& out,
               cudaStream_t stream) override {
    const auto kernel = pass == Pass::count             ? pfac_v2_kernel<Pass::count>
                        : pass == Pass::count_per_block ? pfac_v2_kernel<Pass::count_per_block>
                                                        : pfac_v2_kernel<Pass::write>;
    const std::size_t shared = kStaged + hot_.bytes();
    const unsigned grid = tile_grid(kernel, kThreads, shared, tiles(positions));
    kernel<<<grid, kThreads, shared, stream>>>(text, n, positions, image_.data(), hot_.hot, hot_.warm, device_tables(),
                                               out);
    CUDA_CHECK_LAUNCH();
  }

  HotImage hot_;
  DeviceBuffer<std::uint32_t> image_;
};

std::unique_ptr<GpuPatternSet> build(const std::vector<ByteView>& patterns, ByteView /*sample*/, cudaStream_t stream) {
  return std::make_unique<V2Set>(patterns, stream);
}

}  // namespace

const GpuMultiVersion v2{"v2", "hot states (root row, sorted edges) and text tile in shared memory", build};

}  // namespace cudamatch::lesson18
