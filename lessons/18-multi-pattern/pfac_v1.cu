// Lesson 18, v1: the failureless Aho-Corasick automaton (PFAC), one thread per starting position, the
// trie and the text in global memory (given: the walk it runs is yours, pfac_walk.cuh).
//
// Each block takes tiles of kTile consecutive positions; in each round its kThreads threads walk
// kThreads consecutive positions, so the first byte of their walks is one coalesced load, and every
// step looks the state's children up with a binary search in the global tables.
#include "multi_gpu.hpp"
#include "pfac_set.cuh"

namespace cudamatch::lesson18 {

namespace {

constexpr int kThreads = 256;
constexpr int kRounds = 16;
constexpr std::size_t kTile = kThreads * kRounds;

template <Pass kPass>
__global__ void __launch_bounds__(kThreads) pfac_v1_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                                                           std::size_t positions, TrieView tables, Output out) {
  __shared__ BlockSumsTemp<kThreads> temp;
  const GlobalTrie trie{tables};
  const std::size_t tiles = (positions + kTile - 1) / kTile;
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const std::size_t tile_start = tile * kTile;
    walk_items<kPass>(
        out, trie, n, positions, tile, kTile, [&](unsigned k) { return tile_start + k; },
        [&](std::size_t i) { return text[i]; }, temp);
  }
}

class V1Set final : public PfacSet {
 public:
  using PfacSet::PfacSet;

 private:
  std::size_t tile_positions() const override { return kTile; }
  void enqueue(Pass pass, const std::uint8_t* text, std::size_t n, std::size_t positions, const Output& out,
               cudaStream_t stream) override {
    const auto kernel = pass == Pass::count             ? pfac_v1_kernel<Pass::count>
                        : pass == Pass::count_per_block ? pfac_v1_kernel<Pass::count_per_block>
                                                        : pfac_v1_kernel<Pass::write>;
    const unsigned grid = tile_grid(kernel, kThreads, 0, tiles(positions));
    kernel<<<grid, kThreads, 0, stream>>>(text, n, positions, device_tables(), out);
    CUDA_CHECK_LAUNCH();
  }
};

std::unique_ptr<GpuPatternSet> build(const std::vector<ByteView>& patterns, ByteView /*sample*/, cudaStream_t stream) {
  return std::make_unique<V1Set>(patterns, stream);
}

}  // namespace

const GpuMultiVersion v1{"v1", "failureless Aho-Corasick (PFAC): one thread per position, trie in global memory",
                         build};

}  // namespace cudamatch::lesson18
