// Lesson 17's v3, given: a file's pages registered span by span and copied straight to the device
// (engine/stream/registered_file.hpp). The span arithmetic runs without a GPU; the copies with small
// spans (one or three pages) so that windows cross many span edges, registrars are held to the fewest
// spans ahead, and released spans are unregistered while later ones are copied.
#include <catch2/catch.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/buffers.hpp"
#include "common/file_io.hpp"
#include "common/generators.hpp"
#include "engine/stream/registered_file.hpp"
#include "temp_files.hpp"

using namespace cudamatch;
using cudamatch::testing::temp_path;
using Bytes = std::vector<std::uint8_t>;

TEST_CASE("v3: spans cover the file once, the last one cut at its end", "[source]") {
  const SpanPlan spans{3 * 4096 + 5, 4096};
  CHECK(spans.spans() == 4);
  CHECK(spans.begin(3) == 3 * 4096);
  CHECK(spans.end(3) == 3 * 4096 + 5);
  CHECK(spans.end(2) == 3 * 4096);
  CHECK(spans.span_of(4095) == 0);
  CHECK(spans.span_of(4096) == 1);
  CHECK(spans.spans_before(0) == 0);
  CHECK(spans.spans_before(4095) == 0);
  CHECK(spans.spans_before(4096) == 1);
  CHECK(spans.spans_before(3 * 4096 + 4) == 3);
  CHECK(spans.spans_before(3 * 4096 + 5) == 4);  // the file's end: every span
  CHECK(SpanPlan{4096, 4096}.spans() == 1);
  CHECK(SpanPlan{0, 4096}.spans() == 0);
}

namespace {

// Windows of `window` bytes every `step` bytes (overlapping when window > step), copied from the
// registered pages of a file of n bytes with spans of `span` bytes, each compared with the file.
void check_copies(std::size_t n, std::size_t span, std::size_t window, std::size_t step, unsigned threads) {
  const std::string path = temp_path("registered");
  const Bytes text = random_bytes(n, 256, n + span + window + threads);
  write_file(path, text);
  FileSource file(path);
  CudaStream stream;
  std::string why_not;
  const std::unique_ptr<RegisteredFile> pages =
      RegisteredFile::open(file, stream.get(), window, threads, 1, &why_not, span);
  if (!pages && why_not.find("cannot copy from read-only") != std::string::npos) {
    WARN("not tested on this GPU: " << why_not);
    std::remove(path.c_str());
    return;
  }
  INFO("n " << n << ", span " << span << ", window " << window << ", step " << step << ", " << threads << " threads");
  REQUIRE(pages != nullptr);
  CHECK(pages->size() == n);
  DeviceBuffer<std::uint8_t> device(window);
  Bytes back(window);
  for (std::uint64_t offset = 0; offset < n; offset += step) {
    const std::size_t bytes = static_cast<std::size_t>(std::min<std::uint64_t>(window, n - offset));
    pages->release_before(offset);
    device.fill_bytes(0xA5);  // poisoned: a piece not copied shows
    pages->copy_async(offset, bytes, device.data());
    CUDA_CHECK(cudaMemcpyAsync(back.data(), device.data(), bytes, cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
    INFO("window at " << offset << ", " << bytes << " bytes");
    REQUIRE(
        std::equal(back.begin(), back.begin() + static_cast<long>(bytes), text.begin() + static_cast<long>(offset)));
  }
  std::remove(path.c_str());
}

}  // namespace

TEST_CASE("v3: windows copied from registered pages across span edges equal the file", "[gpu]") {
  // One-page spans, windows of two and a half pages every two pages (each window crosses two or three
  // spans), one registrar and four; three-page spans with windows shorter than a span; a file that ends
  // inside a page; a file of one byte.
  check_copies(10 * 4096 + 123, 4096, 2 * 4096 + 2048, 2 * 4096, 1);
  check_copies(10 * 4096 + 123, 4096, 2 * 4096 + 2048, 2 * 4096, 4);
  check_copies(20 * 4096, 3 * 4096, 4096 + 7, 4096, 3);
  check_copies(1, 4096, 16, 16, 2);
}

TEST_CASE("v3: an empty file is refused with the reason", "[gpu]") {
  const std::string path = temp_path("registered-empty");
  write_file(path, {});
  FileSource file(path);
  CudaStream stream;
  std::string why_not;
  CHECK(RegisteredFile::open(file, stream.get(), 4096, 1, 1, &why_not) == nullptr);
  CHECK(!why_not.empty());
  std::remove(path.c_str());
}
