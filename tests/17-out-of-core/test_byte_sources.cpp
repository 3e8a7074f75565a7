// Lesson 17 - host buffers, files and pipes as inputs of the streamed search (no GPU needed).
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "engine/stream/byte_source.hpp"
#include "engine/stream/chunk_plan.hpp"
#include "common/file_io.hpp"
#include "common/generators.hpp"
#include "temp_files.hpp"

using namespace cudamatch;
using cudamatch::testing::temp_path;

namespace {

// Every window of `plan` read from `source`, in chunk order, against the bytes of `text`.
void check_windows(ByteSource& source, const ChunkPlan& plan, const std::vector<std::uint8_t>& text) {
  std::vector<std::uint8_t> window(plan.window_bytes());
  for (std::uint64_t k = 0; k <= plan.chunks(text.size()); ++k) {
    const std::size_t bytes = source.read(plan.offset(k), window.data(), window.size());
    const std::size_t expected = plan.window_bytes(k, text.size());
    INFO("chunk " << k << " of " << plan.chunks(text.size()) << ", window " << plan.window_bytes());
    REQUIRE(bytes == expected);
    CHECK(std::equal(window.begin(), window.begin() + static_cast<long>(bytes),
                     text.begin() + static_cast<long>(plan.offset(k))));
  }
}

}  // namespace

TEST_CASE("a host buffer and a file give every window, the last one short", "[source]") {
  const std::string path = temp_path("windows");
  for (std::size_t n : {0, 1, 4095, 4096, 4097, 3 * 4096 + 11}) {
    const auto text = cudamatch::random_bytes(n, 256, n);
    cudamatch::write_file(path, text);
    for (std::size_t m : {1, 2, 17}) {
      const ChunkPlan plan = plan_chunks(m, 4096, 2, 0);
      MemorySource memory(text);
      check_windows(memory, plan, text);
      FileSource file(path);
      CHECK(file.size() == n);
      check_windows(file, plan, text);
    }
  }
  std::remove(path.c_str());
}

TEST_CASE("a file is read by several threads at once", "[source]") {
  const std::string path = temp_path("threads");
  const auto text = cudamatch::random_bytes(100000, 256, 5);
  cudamatch::write_file(path, text);
  FileSource file(path);
  std::vector<int> right(4, 0);
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&, t] {
      std::vector<std::uint8_t> piece(1000);
      for (std::size_t at = static_cast<std::size_t>(t) * 1000; at < text.size(); at += 4000) {
        const std::size_t got = file.read(at, piece.data(), piece.size());
        right[static_cast<std::size_t>(t)] +=
            got == 1000 && std::equal(piece.begin(), piece.end(), text.begin() + static_cast<long>(at));
      }
    });
  }
  for (std::thread& r : readers) r.join();
  CHECK(right == std::vector<int>{25, 25, 25, 25});
  std::remove(path.c_str());
}

TEST_CASE("a pipe is read front to back, the overlap from a kept copy", "[source]") {
  for (std::size_t m : {1, 2, 9, 5000}) {
    const auto text = cudamatch::random_bytes(5 * 4096 + 3, 256, m);
    const ChunkPlan plan = plan_chunks(m, 4096, 2, 0);
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    // The whole text fits in the pipe's buffer (64 KiB on Linux): written in odd-sized pieces, then closed.
    for (std::size_t at = 0; at < text.size(); at += 777) {
      const std::size_t piece = std::min<std::size_t>(777, text.size() - at);
      REQUIRE(::write(ends[1], text.data() + at, piece) == static_cast<ssize_t>(piece));
    }
    ::close(ends[1]);
    SequentialSource pipe(ends[0], "a pipe", plan.overlap());
    CHECK_FALSE(pipe.random_access());
    CHECK_FALSE(pipe.size().has_value());
    check_windows(pipe, plan, text);
    ::close(ends[0]);
  }
}

TEST_CASE("a pipe refuses to go back, and files that cannot be read say which and why", "[source]") {
  const std::string path = temp_path("back");
  cudamatch::write_file(path, cudamatch::random_bytes(10000, 256, 1));
  const int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  SequentialSource stream(fd, "standard input", 3);
  std::vector<std::uint8_t> window(100);
  CHECK(stream.read(0, window.data(), 100) == 100);
  CHECK(stream.read(97, window.data(), 100) == 100);  // the 3 kept bytes, then new ones
  CHECK_THROWS_WITH(stream.read(50, window.data(), 100), Catch::Contains("standard input is read front to back"));
  ::close(fd);
  std::remove(path.c_str());
  CHECK_THROWS_WITH(FileSource(temp_path("missing")), Catch::Contains("No such file"));
  CHECK_THROWS_WITH(FileSource("/"), Catch::Contains("/: Is a directory"));
}
