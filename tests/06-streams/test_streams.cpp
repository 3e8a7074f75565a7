// Lesson 06 - streams. [todo] marks the tests of the starter's TODOs (the two asynchronous schedules).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "common/buffers.hpp"
#include "common/random.hpp"
#include "schedules.hpp"

using namespace cudamatch;

namespace {

constexpr int kIterations = 7;
constexpr std::size_t kChunk = 4096 + 3;

using Schedule = std::function<void(Pipeline&, std::size_t n)>;
using AsyncSchedule = void (*)(Pipeline&, const std::vector<Chunk>&, const std::vector<cudaStream_t>&);

// Runs `schedule` over n fresh random elements with poisoned outputs (host and device) and counts
// the elements whose result is not the CPU reference; `timeline`, when given, records the stages.
std::size_t count_wrong(const Schedule& schedule, std::size_t n, std::uint64_t seed, Timeline* timeline = nullptr) {
  PinnedBuffer<std::uint32_t> in(n), out(n);
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint32_t>(rng.next());
  std::fill(out.data(), out.data() + n, 0xA5A5A5A5u);
  DeviceBuffer<std::uint32_t> dev_in(n), dev_out(n);
  dev_out.fill_bytes(0x5A);
  Pipeline pipeline(in.data(), out.data(), dev_in.data(), dev_out.data(), kIterations, timeline);
  schedule(pipeline, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += out[i] != compute_reference(in[i], kIterations);
  return wrong;
}

// Every size around the chunk size, and 1 to 4 streams.
void check_schedule(AsyncSchedule run) {
  std::vector<CudaStream> owned(4);
  std::uint64_t seed = 600;
  for (std::size_t n : {std::size_t{1}, kChunk - 1, kChunk, kChunk + 1, 5 * kChunk + 7, 40 * kChunk}) {
    for (std::size_t stream_count = 1; stream_count <= owned.size(); ++stream_count) {
      INFO("n " << n << ", chunk " << kChunk << ", " << stream_count << " streams");
      std::vector<cudaStream_t> streams;
      for (std::size_t s = 0; s < stream_count; ++s) streams.push_back(owned[s].get());
      const auto chunks = split_into_chunks(n, kChunk);
      CHECK(count_wrong([&](Pipeline& p, std::size_t) { run(p, chunks, streams); }, n, ++seed) == 0);
    }
  }
}

// The order in which a schedule queues the stages: "<stream index><symbol> " per stage, the symbol
// H (copy in), K (kernel) or D (copy out), e.g. "0H 0K 0D 1H ". Version 1 goes chunk by chunk,
// version 2 (by_stage) stage by stage; chunk i is on stream i mod the number of streams.
std::string expected_order(bool by_stage, std::size_t chunks, std::size_t streams) {
  std::string order;
  const auto queue = [&](std::size_t chunk, char stage) { order += std::to_string(chunk % streams) + stage + ' '; };
  if (by_stage) {
    for (char stage : {'H', 'K', 'D'}) {
      for (std::size_t i = 0; i < chunks; ++i) queue(i, stage);
    }
  } else {
    for (std::size_t i = 0; i < chunks; ++i) {
      for (char stage : {'H', 'K', 'D'}) queue(i, stage);
    }
  }
  return order;
}

std::string recorded_order(const Timeline& timeline, const std::vector<cudaStream_t>& streams) {
  std::string order;
  for (const Timeline::Queued& q : timeline.issue_order()) {
    const auto s = std::find(streams.begin(), streams.end(), q.stream);
    order += (s == streams.end() ? std::string("?") : std::to_string(s - streams.begin())) + q.symbol + ' ';
  }
  return order;
}

// Both versions compute the right results, so only the order of issue, which the pipeline's timeline
// records, tells them apart.
void check_issue_order(AsyncSchedule run, bool by_stage) {
  std::vector<CudaStream> owned(4);
  const std::size_t n = 5 * kChunk + 7;
  const auto chunks = split_into_chunks(n, kChunk);
  for (std::size_t stream_count = 1; stream_count <= owned.size(); ++stream_count) {
    INFO(chunks.size() << " chunks, " << stream_count << " streams");
    std::vector<cudaStream_t> streams;
    for (std::size_t s = 0; s < stream_count; ++s) streams.push_back(owned[s].get());
    Timeline timeline;
    CHECK(count_wrong([&](Pipeline& p, std::size_t) { run(p, chunks, streams); }, n, 700 + stream_count, &timeline) ==
          0);
    CHECK(recorded_order(timeline, streams) == expected_order(by_stage, chunks.size(), stream_count));
  }
}

}  // namespace

TEST_CASE("chunks cover all n elements exactly once, the last one possibly short", "[streams]") {
  CHECK(split_into_chunks(0, 10).empty());
  for (std::size_t n : {1, 9, 10, 11, 57}) {
    const auto chunks = split_into_chunks(n, 10);
    std::size_t next = 0;
    for (const Chunk& c : chunks) {
      CHECK(c.first == next);
      CHECK(c.count >= 1);
      CHECK(c.count <= 10);
      next += c.count;
    }
    CHECK(next == n);
    CHECK(chunks.size() == (n + 9) / 10);
  }
}

TEST_CASE("the computation's CPU reference is the generator it claims", "[streams]") {
  CHECK(compute_reference(12345u, 0) == 12345u);
  CHECK(compute_reference(0u, 1) == 1013904223u);
  CHECK(compute_reference(1u, 2) == (1664525u + 1013904223u) * 1664525u + 1013904223u);
}

TEST_CASE("the sequential schedule computes every element", "[gpu]") {
  CudaStream stream;
  for (std::size_t n : {std::size_t{1}, std::size_t{4099}, std::size_t{1} << 20}) {
    INFO("n " << n);
    CHECK(count_wrong([&](Pipeline& p, std::size_t k) { run_sequential(p, k, stream.get()); }, n, n) == 0);
  }
}

TEST_CASE("asynchronous version 1 computes every chunk, the last partial one included", "[gpu][todo]") {
  check_schedule(run_async_v1);
}

TEST_CASE("asynchronous version 2 computes every chunk, the last partial one included", "[gpu][todo]") {
  check_schedule(run_async_v2);
}

TEST_CASE("asynchronous version 1 queues each chunk's copy in, kernel and copy out before the next chunk's",
          "[gpu][todo][order]") {
  check_issue_order(run_async_v1, false);
}

TEST_CASE("asynchronous version 2 queues every copy in, then every kernel, then every copy out", "[gpu][todo][order]") {
  check_issue_order(run_async_v2, true);
}
