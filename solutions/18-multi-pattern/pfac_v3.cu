// Lesson 18, v3: filter, then verify, for large pattern sets.
// SOLUTION.
//
// With 1,000 patterns about one position in 200 begins an occurrence, and the walks of v1 and v2 spend
// nearly all their time proving that the others do not. A position can only begin an occurrence if
// its first q bytes begin some pattern: the prefix filter (pfac_tables.hpp), one bit per hash of each
// pattern's first q bytes, in shared memory, rejects almost every other position with one lookup.
// The filter is cheap only if each position costs a few instructions: each thread holds 16 + 8 text
// bytes in registers (one 16-byte and one 8-byte load), builds the q-gram of each of its 16 positions
// with funnel shifts, hashes it with two multiplies and reads one filter bit (window_candidates).
// Then the candidates are verified. A walk is long beside a filter test, so in the count pass (the one
// that is timed) each warp queues its candidates in shared memory (a warp prefix sum of their counts,
// lesson 07) and verifies them 32 at a time, every lane busy, instead of one lane working while 31 wait.
// When every pattern has 8 bytes or more, the count pass filters on anchors instead of prefixes: each
// distinct pattern's 8-gram rarest in the set and the sample it is built with (normally the text's first
// MiB; anchor_table.hpp), which fewer text positions share, and verifies a candidate by comparing the
// patterns of its gram's hash bucket (no trie, no hot image). In sets of up to kHotSetLimit patterns it
// counts the kHotSlots most frequent ones in the block's shared memory, and adds those counts to the
// global ones when the block ends, not one atomic per occurrence (kHot: English has patterns that
// thousands of threads would count at once).
// Otherwise, and in the find_all passes (whose order the walks give), a candidate walks the trie v2's
// way (an 8 KB hot image in shared memory, the text from L1/L2); large sets fill the shared filter, so
// such a candidate first reads the same hash at full resolution in global memory (L2-resident).
#include "anchor_table.hpp"
#include "multi_gpu.hpp"
#include "pfac_set.cuh"

namespace cudamatch::lesson18 {

namespace {

constexpr int kThreads = 512;
constexpr unsigned kWarps = kThreads / 32;
constexpr unsigned kWindows = 8;  // window rounds a tile: 8 x 512 x 16 = 65,536 positions
constexpr std::size_t kTile = std::size_t{kWindows} * kThreads * kWindowPositions;
constexpr std::size_t kHotBudget = 8 * 1024;
// A warp's queue: the candidates of one round of its windows (at most 512) on top of fewer than 32
// left from the rounds before, as offsets in the tile.
constexpr unsigned kQueue = 32 * kWindowPositions + 32;
constexpr std::size_t kQueueBytes = std::size_t{kWarps} * kQueue * sizeof(std::uint16_t);
constexpr std::size_t kHotCounterBytes = std::size_t{kHotSlots} * sizeof(std::uint32_t);
// The shared filter takes what is left of the device's shared memory, up to 2^18 bits (32 KB): three
// blocks of 512 threads still fit on an SM of 228 KB. The global filter has 256 bits a pattern, up to
// 2^26 (8 MB, L2-resident).
constexpr unsigned kMaxSharedFilterLog2Bits = 18;
constexpr unsigned kMaxGlobalFilterLog2Bits = 26;
static_assert(kTile <= 65536, "queued positions are 16-bit offsets in the tile");
// The kernel with hot counters is told it runs three blocks an SM, all its shared memory allows on sm_90:
// ptxas then gives it 40 registers, as the anchored kernel without them has (32 when left to itself; the
// variant measured on the H200 spilled at 32: docs/results/lesson-18.md). Tuned for sm_90 only: other
// SMs hold fewer of these blocks (sm_75's 1,024 threads, two: the hint would be out of range) and get
// no hint (0), as the other kernels, whose register counts ptxas chooses.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
constexpr int kHotMinBlocks = 0;
#else
constexpr int kHotMinBlocks = 3;
#endif

// The window of the thread whose positions begin at `first` (a multiple of 16, below n): bytes first ..
// first + 23 as six words. DeviceText's base is 16-byte aligned and its allocation ends at least 16
// bytes past the last vector that starts before n, so both loads stay inside it.
[[maybe_unused]] __device__ inline void load_window(const std::uint8_t* __restrict__ text, std::size_t first,
                                                    std::uint32_t (&words)[kWindowWords]) {
  const uint4 head = *reinterpret_cast<const uint4*>(text + first);
  const uint2 tail = *reinterpret_cast<const uint2*>(text + first + 16);
  words[0] = head.x, words[1] = head.y, words[2] = head.z, words[3] = head.w;
  words[4] = tail.x, words[5] = tail.y;
}

// f(j) for each bit j set in `bits`, the lowest first.
template <class F>
__device__ void for_each_bit(std::uint32_t bits, F f) {
  for (; bits != 0; bits &= bits - 1) f(static_cast<unsigned>(__ffs(static_cast<int>(bits)) - 1));
}

// `positions`: the positions tested, from 0: where a pattern can start (n - shortest + 1) or, kAnchored
// (count pass only), where an anchor can lie (n - 7). kAnchored: the filter holds the anchors
// (anchor_table.hpp) and a candidate is verified against its bucket's patterns, not walked. kHot
// (anchored only): the set has hot slots, counted in shared memory.
template <Pass kPass, bool kAnchored, bool kHot = false>
__global__ void __launch_bounds__(kThreads, kHot ? kHotMinBlocks : 0)
    pfac_v3_kernel(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t positions,
                   const std::uint32_t* __restrict__ filter_words, unsigned q, unsigned log2_bits, FilterView fine,
                   AnchorView anchors, const std::uint32_t* __restrict__ image, std::int32_t hot, std::int32_t warm,
                   TrieView tables, Output out) {
  extern __shared__ std::uint32_t shared_words[];  // the filter, the hot image or counters, the warps' queues
  __shared__ BlockSumsTemp<kThreads> temp;         // the block sums of the count_per_block and write passes
  const std::size_t filter_words_count = (std::size_t{1} << log2_bits) / 32;
  std::uint32_t* s_filter = shared_words;
  std::uint32_t* s_image = shared_words + filter_words_count;
  // The anchored pass walks no trie: its blocks hold no hot image, but the hot counters when kHot.
  const std::size_t image_words = kAnchored ? (kHot ? kHotSlots : 0) : hot_layout(hot, warm).words;
  std::uint32_t* s_hot_counts = s_image;
  auto* s_queue = reinterpret_cast<std::uint16_t*>(s_image + image_words) + (threadIdx.x / 32) * kQueue;
  for (std::size_t w = threadIdx.x; w < filter_words_count; w += kThreads) s_filter[w] = filter_words[w];
  if constexpr (!kAnchored) {
    for (std::size_t w = threadIdx.x; w < image_words; w += kThreads) s_image[w] = image[w];
  } else if constexpr (kHot) {
    for (std::size_t w = threadIdx.x; w < image_words; w += kThreads) s_hot_counts[w] = 0;
  }
  __syncthreads();  // the filter and the hot image are in, the hot counters zeroed
  // The anchored pass: q = 8, a constant the compiler folds into window_candidates (no byte masks).
  const FilterView filter{s_filter, kAnchored ? kAnchorBytes : q, log2_bits};
  const HotTrie trie{s_image, hot, warm, tables};
  const unsigned lane = threadIdx.x % 32;
  // One walk from `position`, reported as the pass wants it (active: there is one).
  unsigned found = 0;
  unsigned long long next_slot = 0;
  const auto report = [&](bool active, auto walks) { report_round<kPass>(out, active, walks, temp, next_slot, found); };
  const auto walk_from = [&](std::size_t position, auto on_record) {
    if constexpr (kAnchored) {
      verify_anchor(anchors, position, n, TextWords{text}, on_record);
    } else {
      pfac_walk(
          trie, position, n, [&](std::size_t i) { return text[i]; },
          [&](std::int32_t terminal, std::size_t end) { on_record(terminal, position, end); });
    }
  };
  // The queued walks of the count pass; with kHot, a hot pattern's occurrence counts in shared memory.
  const auto count_from = [&](bool active, std::size_t position) {
    if constexpr (kHot) {
      if (!active) return;
      walk_from(position, [&](std::uint32_t terminal, std::size_t, std::size_t end) {
        if (end <= out.seen) return;
        if (terminal & kHotTerminal) {
          atomicAdd(&s_hot_counts[terminal & ~kHotTerminal], 1u);
        } else {
          atomicAdd(&out.terminal_counts[terminal], 1ull);
        }
      });
    } else {
      report(active, [&](auto on_record) { walk_from(position, on_record); });
    }
  };
  const std::size_t tiles = (positions + kTile - 1) / kTile;
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const std::size_t tile_start = tile * kTile;
    found = 0;
    if constexpr (kPass == Pass::write) next_slot = out.tile_offsets[tile];
    unsigned queued = 0;  // the warp's queue (count pass), the same in all its lanes
    // The thread's window of each round, loaded a round ahead: its loads are in flight while the thread
    // filters and queues the round before (most of a filter's stalls were its first use of the words).
    const auto window_first = [&](unsigned round) {
      return tile_start + (std::size_t{round} * kThreads + threadIdx.x) * kWindowPositions;
    };
    std::uint32_t ahead[kWindowWords];
    if (window_first(0) < positions) load_window(text, window_first(0), ahead);
    for (unsigned round = 0; round < kWindows; ++round) {
      const unsigned offset = (round * kThreads + threadIdx.x) * kWindowPositions;  // the window's, in the tile
      const std::size_t first = tile_start + offset;
      std::uint32_t words[kWindowWords];  // this round's window (first < positions)
#pragma unroll
      for (unsigned k = 0; k < kWindowWords; ++k) words[k] = ahead[k];
      if (round + 1 < kWindows && window_first(round + 1) < positions)
        load_window(text, window_first(round + 1), ahead);
      // HOLE(18-multi-pattern, v3): the thread's 16 positions through the filter, from its window in registers.
      std::uint32_t candidates = 0;
      if (first < positions) {
        candidates = window_candidates(filter, words);
        if (positions - first < kWindowPositions) candidates &= (1u << (positions - first)) - 1;
      }
      // END HOLE
      if constexpr (kPass == Pass::count) {
        // Queue the candidates that pass the global filter too, where there is one (the shared filter's
        // hash with more bits; never in the anchored pass, whose filter holds the anchors), as offsets in
        // the tile, in order...
        std::uint32_t kept = candidates;
        if (!kAnchored && fine.words != nullptr) {
          kept = 0;
          for_each_bit(candidates, [&](unsigned j) {
            if (may_start(fine, text + first + j)) kept |= 1u << j;
          });
        }
        // A round without a candidate in the warp (most, with few patterns) leaves the queue as it is.
        if (__any_sync(kFullWarp, kept != 0)) {
          const unsigned mine = static_cast<unsigned>(__popc(static_cast<int>(kept)));
          const unsigned inclusive = warp_inclusive_sum(mine);
          unsigned at = queued + inclusive - mine;
          for_each_bit(kept, [&](unsigned j) { s_queue[at++] = static_cast<std::uint16_t>(offset + j); });
          queued += __shfl_sync(kFullWarp, inclusive, 31);
          __syncwarp();  // the queue is written
          // ...and walk them 32 at a time, from its top.
          while (queued >= 32) {
            queued -= 32;
            const std::size_t position = tile_start + s_queue[queued + lane];
            __syncwarp();  // read before the next round's candidates overwrite it
            count_from(true, position);
          }
        }
      } else {
        // The other passes walk each thread's candidates in position order (the write pass's order:
        // thread after thread, round after round).
        report(candidates != 0,
               [&](auto on_record) { for_each_bit(candidates, [&](unsigned j) { walk_from(first + j, on_record); }); });
      }
    }
    if constexpr (kPass == Pass::count) {
      // The fewer than 32 left.
      const bool active = lane < queued;
      const std::size_t position = active ? tile_start + s_queue[lane] : 0;
      __syncwarp();  // read before the next tile's candidates overwrite it
      count_from(active, position);
    }
    finish_tile<kPass>(out, tile, found, temp);
  }
  if constexpr (kHot) {
    // The block's hot counts (at most its positions: under 2^32 for any text a GPU holds) into the global ones.
    __syncthreads();
    for (std::uint32_t slot = threadIdx.x; slot < anchors.hot_slots; slot += kThreads) {
      if (s_hot_counts[slot] != 0) atomicAdd(&out.terminal_counts[anchors.hot_terminals[slot]], s_hot_counts[slot]);
    }
  }
}

// The most filter bits that fit beside the rest of v3's shared memory on the current device.
unsigned device_filter_log2_bits(std::size_t image_bytes) {
  int device = 0, optin = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t used = image_bytes + kQueueBytes + sizeof(BlockSumsTemp<kThreads>);
  const std::size_t room = static_cast<std::size_t>(optin) > used ? static_cast<std::size_t>(optin) - used : 0;
  unsigned bits = 5;
  while (bits < kMaxSharedFilterLog2Bits && (std::size_t{1} << (bits + 1)) / 8 <= room) ++bits;
  return bits;
}

class V3Set final : public PfacSet {
 public:
  V3Set(const std::vector<ByteView>& patterns, ByteView sample, cudaStream_t stream)
      : PfacSet(patterns, stream), hot_(build_hot_image(trie(), kHotBudget)), image_(to_device(hot_.words, stream)) {
    if (patterns.empty()) return;
    // Both filters set the top bits of the same hash: a gram that passes the fine one passes the other.
    const unsigned fine_bits = filter_log2_bits(patterns.size(), kMaxGlobalFilterLog2Bits);
    // The shared filter's bits leave room for the hot image and, in the anchored pass of a set that gets
    // hot slots (one anchor a distinct pattern: below), the hot counters.
    const bool counters = trie().shortest >= kAnchorBytes && hot_slots(trie().terminal_count()) > 0;
    filter_ = build_prefix_filter(
        patterns,
        std::min(fine_bits, device_filter_log2_bits(std::max(hot_.bytes(), counters ? kHotCounterBytes : 0))));
    if (fine_bits > filter_.log2_bits) {
      fine_ = build_prefix_filter(patterns, fine_bits);
      fine_words_ = to_device(fine_.words, stream);
    }
    filter_words_ = to_device(filter_.words, stream);
    // Anchors for the count pass when every pattern has 8 bytes or more (anchor_table.hpp).
    if (trie().shortest >= kAnchorBytes) {
      anchors_ = build_anchor_table(trie(), patterns, filter_.log2_bits, sample);
      anchor_filter_ = to_device(anchors_.filter.words, stream);
      anchor_buckets_ = to_device(anchors_.bucket_first, stream);
      anchor_entries_ = to_device(anchors_.entries, stream);
      anchor_words_ = to_device(anchors_.words, stream);
      hot_terminals_ = to_device(anchors_.hot_terminals, stream);
    }
  }

 private:
  std::size_t tile_positions() const override { return kTile; }
  void enqueue(Pass pass, const std::uint8_t* text, std::size_t n, std::size_t positions, const Output& out,
               cudaStream_t stream) override {
    const bool anchored = pass == Pass::count && !anchors_.entries.empty();
    const bool hot = anchored && !anchors_.hot_terminals.empty();
    const auto kernel = hot                             ? pfac_v3_kernel<Pass::count, true, true>
                        : anchored                      ? pfac_v3_kernel<Pass::count, true>
                        : pass == Pass::count           ? pfac_v3_kernel<Pass::count, false>
                        : pass == Pass::count_per_block ? pfac_v3_kernel<Pass::count_per_block, false>
                                                        : pfac_v3_kernel<Pass::write, false>;
    const PrefixFilter& filter = anchored ? anchors_.filter : filter_;
    const std::uint32_t* filter_words = anchored ? anchor_filter_.data() : filter_words_.data();
    // An anchor may lie at any position with 8 bytes after it, past the last start of a pattern.
    const std::size_t tested = anchored ? n - (kAnchorBytes - 1) : positions;
    const std::size_t beside_filter = hot ? kHotCounterBytes : anchored ? 0 : hot_.bytes();
    const std::size_t shared = filter.bytes() + beside_filter + kQueueBytes;
    const unsigned grid = tile_grid(kernel, kThreads, shared, tiles(tested));
    const FilterView fine{fine_.words.empty() ? nullptr : fine_words_.data(), fine_.q, fine_.log2_bits};
    const AnchorView anchors{anchors_.log2_buckets,  anchor_buckets_.data(),
                             anchor_entries_.data(), anchor_words_.data(),
                             hot_terminals_.data(),  static_cast<std::uint32_t>(anchors_.hot_terminals.size())};
    kernel<<<grid, kThreads, shared, stream>>>(text, n, tested, filter_words, filter.q, filter.log2_bits, fine, anchors,
                                               image_.data(), hot_.hot, hot_.warm, device_tables(), out);
    CUDA_CHECK_LAUNCH();
  }

  HotImage hot_;
  DeviceBuffer<std::uint32_t> image_;
  PrefixFilter filter_, fine_;  // fine_: empty when the shared filter has all the bits it would
  DeviceBuffer<std::uint32_t> filter_words_, fine_words_;
  AnchorTable anchors_;  // no entries: the count pass walks from the prefix filter's candidates
  DeviceBuffer<std::uint32_t> anchor_filter_, anchor_buckets_;
  DeviceBuffer<AnchorEntry> anchor_entries_;
  DeviceBuffer<std::uint64_t> anchor_words_;
  DeviceBuffer<std::uint32_t> hot_terminals_;
};

std::unique_ptr<GpuPatternSet> build(const std::vector<ByteView>& patterns, ByteView sample, cudaStream_t stream) {
  return std::make_unique<V3Set>(patterns, sample, stream);
}

}  // namespace

const GpuMultiVersion v3{
    "v3",
    "q-gram filter over 16 positions a thread in registers, then a compare of anchored patterns (count) or v2's walk",
    build};

}  // namespace cudamatch::lesson18
