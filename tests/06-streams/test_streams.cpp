// Lesson 06 - streams. [todo] marks the tests of the starter's TODOs (the two asynchronous schedules).
#include <catch2/catch.hpp>

#include <functional>
#include <vector>

#include "common/buffers.hpp"
#include "common/random.hpp"
#include "schedules.hpp"

using namespace cudamatch;

namespace {

constexpr int kIterations = 7;

using Schedule = std::function<void(Pipeline&, std::size_t n)>;

// Runs `schedule` over n fresh random elements with poisoned outputs (host and device) and counts
// the elements whose result is not the CPU reference.
std::size_t count_wrong(const Schedule& schedule, std::size_t n, std::uint64_t seed) {
  PinnedBuffer<std::uint32_t> in(n), out(n);
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint32_t>(rng.next());
  std::fill(out.data(), out.data() + n, 0xA5A5A5A5u);
  DeviceBuffer<std::uint32_t> dev_in(n), dev_out(n);
  dev_out.fill_bytes(0x5A);
  Pipeline pipeline(in.data(), out.data(), dev_in.data(), dev_out.data(), kIterations);
  schedule(pipeline, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += out[i] != compute_reference(in[i], kIterations);
  return wrong;
}

// Every size around the chunk size, and 1 to 4 streams.
void check_schedule(void (*run)(Pipeline&, const std::vector<Chunk>&, const std::vector<cudaStream_t>&)) {
  std::vector<CudaStream> owned(4);
  constexpr std::size_t kChunk = 4096 + 3;
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
