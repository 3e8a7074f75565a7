// Lesson 17 - the waits of v1 and v2. With small chunks and a fast kernel a missing wait between the
// copy stream, the search stream and the host goes unseen: the other side is done before it matters
// (and compute-sanitizer's racecheck does not see races between streams). Here a kernel that sleeps
// holds one stream back for kHold, far longer than the host takes to read and queue the whole input
// (four memcpys of 256 KiB and a few dozen CUDA calls):
//   - every search sleeps before it reads its window: a copy that does not wait for the last search
//     of its window (slot.searched) overwrites the window under that search;
//   - the copy stream sleeps before the first copy: a search that does not wait for its chunk's copy
//     (slot.copied) reads the poison the windows start with, and a thread (v1's loop, v2's readers)
//     that reads chunk k + 2 into the pinned buffer before chunk k's copy has read it
//     (cudaEventSynchronize) has that copy send chunk k + 2.
// Count mode shows every one of them (positions mode waits for each search, which hides some).
// The version is run with the test's own job (ring, matcher), as StreamSearcher would run it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/cuda_check.hpp"
#include "engine/brute_force_v0.hpp"
#include "engine/stream/stream_search.hpp"
#include "gpu_sleep.hpp"
#include "stream_versions.hpp"

using namespace cudamatch;
using namespace lesson17;
using namespace std::chrono_literals;
using Bytes = std::vector<std::uint8_t>;

namespace {

constexpr std::chrono::milliseconds kHold = 200ms;
constexpr std::size_t kChunks = 4;
constexpr std::size_t kChunk = 256 << 10;
constexpr std::size_t kSlots = 2;  // chunk k + 2 goes into chunk k's slot
constexpr unsigned kReaders = 2;   // v2's
constexpr std::size_t kStep = 1000;
constexpr std::uint8_t kPoison = 'z';

// Chunk k (m = 1: its window is the chunk) starts with (k + 1) * kStep occurrences of 'x'. A window
// that holds a later chunk, even in part, has at least as many occurrences, one that holds an earlier
// chunk or poison at most as many; each missing wait makes every search see the one or every search
// the other, and the first search certainly a different chunk or poison, so the total is wrong too.
Bytes input() {
  Bytes text(kChunks * kChunk, 'y');
  for (std::size_t k = 0; k < kChunks; ++k) std::fill_n(text.begin() + k * kChunk, (k + 1) * kStep, 'x');
  return text;
}

// `search`, each chunk's search queued after a sleep of `hold` on the search stream.
class SlowSearch final : public ChunkSearch {
 public:
  SlowSearch(std::unique_ptr<ChunkSearch> search, std::chrono::milliseconds hold)
      : ChunkSearch(ProgressSink{}), search_(std::move(search)), hold_(hold) {}
  std::uint64_t finish(cudaStream_t stream) override { return search_->finish(stream); }

 private:
  void run(const DeviceText& window, std::uint64_t offset, cudaStream_t stream) override {
    if (hold_ > 0ms) testing::gpu_sleep(stream, hold_);
    search_->search(window, offset, stream);
  }
  std::unique_ptr<ChunkSearch> search_;
  std::chrono::milliseconds hold_;
};

enum class Held { searches, first_copy };

// Runs `v` over input() in count mode (found null) or positions mode, appending to *found; returns
// the count. The windows start as poison; `held` says which stream sleeps.
std::uint64_t run_held(const StreamVersion& v, Held held, std::vector<std::uint64_t>* found) {
  const Bytes text = input();
  const Bytes pattern = {'x'};
  const ChunkPlan plan = plan_chunks(pattern.size(), kChunk, kSlots, 0);
  Staging staging(plan, kSlots);
  for (std::size_t s = 0; s < kSlots; ++s) {
    Slot& slot = staging.slot(s);
    std::fill_n(slot.host.data(), slot.host.size(), kPoison);
    slot.device.load(slot.host.data(), slot.host.size(), staging.copy_stream());
  }
  staging.synchronize();

  const DevicePattern device_pattern(pattern);
  DeviceBuffer<std::uint64_t> positions;
  const GpuVersion& matcher = brute_force_v0;
  SlowSearch search(found == nullptr ? count_search(matcher, device_pattern, staging.search_stream())
                                     : positions_search(matcher, device_pattern, positions,
                                                        [&](const std::vector<std::uint64_t>& p) {
                                                          found->insert(found->end(), p.begin(), p.end());
                                                        }),
                    held == Held::searches ? kHold : 0ms);
  MemorySource source(text);
  StreamJob job{source, plan, staging, search, kReaders};
  if (held == Held::first_copy) testing::gpu_sleep(staging.copy_stream(), kHold);
  v.run(job);
  staging.synchronize();
  return search.finish(staging.search_stream());
}

void check_waits(int version) {
  if (sync_after_launch()) WARN("CUDAMATCH_SYNC_LAUNCHES: every launch waits for the GPU, which hides missing waits");
  const StreamVersion& v = stream_versions().at(static_cast<std::size_t>(version));
  std::vector<std::uint64_t> expected;
  for (std::uint64_t k = 0; k < kChunks; ++k) {
    for (std::uint64_t i = 0; i < (k + 1) * kStep; ++i) expected.push_back(k * kChunk + i);
  }
  for (const Held held : {Held::searches, Held::first_copy}) {
    INFO(v.name << ", " << (held == Held::searches ? "every search" : "the first copy") << " held back "
                << kHold.count() << " ms; " << kChunks << " chunks of " << kChunk << " bytes, " << kSlots << " slots, "
                << expected.size() << " occurrences");
    CHECK(run_held(v, held, nullptr) == expected.size());
    std::vector<std::uint64_t> found;
    CHECK(run_held(v, held, &found) == expected.size());
    CHECK(found.size() == expected.size());
    CHECK((found == expected));  // not decomposed: Catch would print 10000 offsets
  }
}

}  // namespace

TEST_CASE("v1: a search or a copy held back finds every missing wait", "[gpu][todo][waits]") { check_waits(1); }
TEST_CASE("v2: a search or a copy held back finds every missing wait", "[gpu][todo][waits]") { check_waits(2); }
