#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/ceilings.hpp"
#include "common/device_info.hpp"
#include "engine/device_text.hpp"
#include "common/generators.hpp"
#include "engine/gpu_matcher.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"

using namespace cudamatch;

TEST_CASE("bandwidth arithmetic", "[measurement]") {
  CHECK(gb_per_s(1'000'000'000, 1000.0) == Approx(1.0));
  CHECK(gb_per_s(3'000'000'000ull, 1.0) == Approx(3000.0));
  CHECK(gb_per_s(100, 0.0) == 0.0);  // a broken timer gives no bandwidth, not infinity
  CHECK(gb_per_s(100, -1.0) == 0.0);
  CHECK(percent_of(50.0, 200.0) == Approx(25.0));
  CHECK(percent_of(1.0, 0.0) == 0.0);
}

TEST_CASE("theoretical bandwidth from memory clock and bus width", "[measurement]") {
  DeviceInfo h100;
  h100.memory_clock_khz = 2619000;  // H100 SXM 80GB: HBM3 at 2619 MHz on a 5120-bit bus
  h100.memory_bus_bits = 5120;
  CHECK(h100.theoretical_bandwidth_gbps() == Approx(3352.3).epsilon(1e-4));
  DeviceInfo rtx2060;
  rtx2060.memory_clock_khz = 7001000;  // GDDR6 14 Gb/s on a 192-bit bus: 336 GB/s
  rtx2060.memory_bus_bits = 192;
  CHECK(rtx2060.theoretical_bandwidth_gbps() == Approx(336.0).epsilon(1e-3));
}

TEST_CASE("timing statistics: median, min, max", "[measurement]") {
  const TimingStats odd = summarize_ms({5.0, 1.0, 3.0});
  CHECK(odd.median_ms == 3.0);
  CHECK(odd.min_ms == 1.0);
  CHECK(odd.max_ms == 5.0);
  CHECK(odd.reps == 3);
  CHECK(summarize_ms({4.0, 1.0, 2.0, 3.0}).median_ms == 2.5);
  CHECK(summarize_ms({}).reps == 0);
}

TEST_CASE("tables align their columns", "[measurement]") {
  Table table({"version", "GB/s"});
  table.add_row({"coalesced", "2987.1"});
  table.add_row({"strided", "95.0"});
  std::ostringstream out;
  table.print(out);
  CHECK(out.str() == "version    GB/s\n-----------------\ncoalesced  2987.1\nstrided      95.0\n");
  CHECK_THROWS(table.add_row({"only one cell"}));
  CHECK(fixed(3.14159, 2) == "3.14");
}

TEST_CASE("device buffers round-trip bytes", "[measurement][gpu]") {
  const auto data = random_bytes(1000003, 256, 5);
  DeviceBuffer<std::uint8_t> buffer(data.size());
  buffer.upload(data.data(), data.size());
  std::vector<std::uint8_t> back(data.size());
  buffer.download(back.data(), back.size());
  CHECK(back == data);
}

// The window of lesson 17's streamed search: one allocation, refilled with texts of any size up to
// its capacity; after each the kernels' padding (to the next multiple of 16, plus 16) is zero again.
TEST_CASE("a device text with a capacity takes any text up to it, zero-padded after each", "[measurement][gpu]") {
  DeviceText text = DeviceText::with_capacity(100);
  CHECK(text.size() == 0);
  CHECK(text.capacity() >= 100);
  CudaStream stream;
  for (std::size_t n : {std::size_t{100}, std::size_t{37}, std::size_t{0}, std::size_t{64}, std::size_t{5}}) {
    INFO("n " << n);
    const auto bytes = random_bytes(n, 256, n + 1);
    std::vector<std::uint8_t> ones(n, 0xFF);  // texts of 0xFF first: stale bytes would show past n
    text.assign_async(ByteView(ones.data(), n), stream.get());
    text.assign_async(ByteView(bytes.data(), n), stream.get());
    stream.synchronize();
    CHECK(text.size() == n);
    const std::size_t padded_end = (n + 15) / 16 * 16 + 16;
    std::vector<std::uint8_t> back(padded_end);
    REQUIRE(cudaMemcpy(back.data(), text.data(), padded_end, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(std::vector<std::uint8_t>(back.begin(), back.begin() + static_cast<long>(n)) == bytes);
    CHECK(std::count(back.begin() + static_cast<long>(n), back.end(), std::uint8_t{0}) ==
          static_cast<long>(padded_end - n));
  }
  const std::vector<std::uint8_t> too_long(text.capacity() + 1, 'a');
  CHECK_THROWS_WITH(text.assign_async(ByteView(too_long.data(), too_long.size()), nullptr),
                    Catch::Contains("bytes into a text of"));
}

// Tagged [oom]: the failing cudaMalloc is the point, so sanitizer runs (which report every failing API
// call) leave this test out.
TEST_CASE("an allocation larger than the GPU fails with a clear out-of-memory message", "[measurement][gpu][oom]") {
  const DeviceInfo device = query_device();
  CHECK_THROWS_WITH(DeviceBuffer<std::uint8_t>(device.global_memory_bytes * 4), Catch::Contains("free of"));
  DeviceBuffer<int> after(16);  // the failed allocation left no sticky error behind
  CHECK(after.size() == 16);
}

// A match list larger than device memory: positions mode says how many occurrences there are and
// that count mode needs no such memory, instead of crashing. [oom] for the same reason as above.
TEST_CASE("positions that cannot fit in device memory are a clear error naming the count", "[measurement][gpu][oom]") {
  const DeviceInfo device = query_device();
  const std::uint64_t too_many = device.global_memory_bytes;  // x 8 bytes per position
  DeviceBuffer<std::uint64_t> positions(4);
  CHECK_THROWS_WITH(ensure_capacity(positions, too_many), Catch::Contains(std::to_string(too_many) + " occurrences") &&
                                                              Catch::Contains("count mode needs none"));
  ensure_capacity(positions, 1000);  // and the buffer is usable again
  CHECK(positions.size() >= 1000);
}

TEST_CASE("measured ceilings are physically plausible", "[measurement][gpu]") {
  const DeviceInfo device = query_device();
  INFO(device.name);
  CHECK(device.sm_count > 0);
  CHECK(device.l2_bytes > 0);
  const double peak = device.theoretical_bandwidth_gbps();
  REQUIRE(peak > 0.0);
  const std::size_t bytes = ceiling_buffer_bytes(device);
  CHECK(bytes >= 16 * device.l2_bytes);
  const double read = measure_device_read_gbps(bytes);
  const double copy = measure_device_copy_gbps(bytes);
  // Nothing beats the data sheet: a figure above it means a broken timer or byte count. (How close
  // to it a GPU gets is a benchmark's business, not a test's.)
  CHECK(read > 0.0);
  CHECK(copy > 0.0);
  CHECK(read <= 1.05 * peak);
  CHECK(copy <= 1.05 * peak);
}
