// Lesson 00 - measuring. Tests tagged [todo] check a TODO of the starter, which must fail each one
// (step 1: the kernel, step 2: the byte count, step 3: the event timer).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>

#include "common/buffers.hpp"
#include "common/device_info.hpp"
#include "common/generators.hpp"
#include "saxpy.hpp"
#include "common/saxpy_check.hpp"

using namespace cudamatch;

TEST_CASE("step 2: saxpy_bytes_moved counts two reads and one write of 4 bytes per element", "[todo][step2]") {
  CHECK(saxpy_bytes_moved(0) == 0);
  CHECK(saxpy_bytes_moved(1) == 12);
  CHECK(saxpy_bytes_moved(1000) == 12000);
  CHECK(saxpy_bytes_moved(std::size_t{3} << 30) == 12ull * (3ull << 30));  // past 2^32 bytes
}

TEST_CASE("step 1: saxpy computes a*x+y on every element and writes nothing past n", "[gpu][todo][step1]") {
  constexpr std::size_t kGuard = 1024;  // floats past the end that must stay untouched
  std::uint64_t seed = 100;
  for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{255}, std::size_t{256}, std::size_t{257},
                        std::size_t{65537}, std::size_t{1000003}, (std::size_t{1} << 22) + 3}) {
    INFO("n = " << n);
    const float a = -2.5f + 0.25f * static_cast<float>(n % 7);
    const auto x = random_floats(n + kGuard, ++seed);
    auto y0 = random_floats(n + kGuard, ++seed);
    std::memset(y0.data() + n, 0xFF, kGuard * sizeof(float));  // NaN guard band
    DeviceBuffer<float> dx(n + kGuard), dy(n + kGuard);
    dx.upload(x.data(), x.size());
    dy.upload(y0.data(), y0.size());
    saxpy(a, dx.data(), dy.data(), n);
    std::vector<float> y(n + kGuard);
    dy.download(y.data(), y.size());
    CHECK(count_saxpy_errors(a, x, y0, y.data(), n) == 0);
    CHECK(std::memcmp(y.data() + n, y0.data() + n, kGuard * sizeof(float)) == 0);
  }
}

TEST_CASE("saxpy of zero elements launches nothing and changes nothing", "[gpu]") {
  DeviceBuffer<float> dy(4);
  dy.fill_bytes(0x7F);
  saxpy(2.0f, dy.data(), dy.data(), 0);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<std::uint8_t> bytes(16);
  CUDA_CHECK(cudaMemcpy(bytes.data(), dy.data(), 16, cudaMemcpyDeviceToHost));
  CHECK(bytes == std::vector<std::uint8_t>(16, 0x7F));
}

TEST_CASE("step 3: elapsed_ms_with_events times the kernel, not the launch", "[gpu][todo][step3]") {
  // Large enough that the kernel runs from DRAM for much longer than a launch takes.
  const std::size_t n = std::size_t{1} << 25;
  DeviceBuffer<float> dx(n), dy(n);
  dx.fill_bytes(0x3F);
  dy.fill_bytes(0x3F);
  const auto work = [&](cudaStream_t s) { saxpy(1.0001f, dx.data(), dy.data(), n, s); };
  elapsed_ms_with_events(work);  // warm-up
  const DeviceInfo device = query_device();
  const double fastest_possible_ms = 12.0 * n / (1.05 * device.theoretical_bandwidth_gbps() * 1e9) * 1e3;

  for (int rep = 0; rep < 3; ++rep) {
    CUDA_CHECK(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    const float events_ms = elapsed_ms_with_events(work);
    CUDA_CHECK(cudaDeviceSynchronize());
    const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    INFO("events " << events_ms << " ms, wall " << wall_ms << " ms, physical minimum " << fastest_possible_ms << " ms");
    // No faster than the memory allows (a launch-only or zero time fails here) ...
    CHECK(events_ms >= fastest_possible_ms);
    // ... and no longer than the whole call took on the host clock.
    CHECK(events_ms <= wall_ms + 0.05);
  }
}
