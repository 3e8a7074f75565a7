// Lesson 01 - coalescing. [todo] marks the tests of the starter's TODO (the coalesced 2-D kernel).
#include <catch2/catch.hpp>

#include <functional>
#include <stdexcept>
#include <vector>

#include "add_check.hpp"
#include "coalescing.hpp"
#include "common/buffers.hpp"
#include "common/generators.hpp"

using namespace cudamatch;

namespace {

constexpr std::size_t kGuard = 256;  // floats after the output that must stay poisoned

using Add2d = std::function<void(const float*, const float*, float*, int, int)>;

// Runs `add` on fresh random rows x cols inputs with a poisoned output; checks every element and the
// guard band after it.
void check_2d(const Add2d& add, int rows, int cols, std::uint64_t seed) {
  INFO(rows << " x " << cols);
  const std::size_t n = static_cast<std::size_t>(rows) * cols;
  const auto a = random_floats(n + kGuard, seed), b = random_floats(n + kGuard, seed + 1);
  DeviceBuffer<float> da(n + kGuard), db(n + kGuard), dc(n + kGuard);
  da.upload(a.data(), a.size());
  db.upload(b.data(), b.size());
  dc.fill_bytes(0xFF);
  add(da.data(), db.data(), dc.data(), rows, cols);
  std::vector<float> c(n + kGuard);
  dc.download(c.data(), c.size());
  CHECK(count_add_errors(a, b, c.data(), 0, n) == 0);
  const std::vector<std::uint8_t> guard(reinterpret_cast<const std::uint8_t*>(c.data() + n),
                                        reinterpret_cast<const std::uint8_t*>(c.data() + n + kGuard));
  CHECK(guard == std::vector<std::uint8_t>(kGuard * sizeof(float), 0xFF));
}

const std::vector<std::pair<int, int>> kShapes = {{1, 1},     {1, 33},     {33, 1},   {7, 31},   {32, 32}, {33, 65},
                                                  {255, 257}, {1000, 999}, {3, 5000}, {4099, 3}, {65, 31}};

}  // namespace

TEST_CASE("the coalesced 2-D add is correct for any shape", "[gpu][todo]") {
  std::uint64_t seed = 10;
  for (const auto& [rows, cols] : kShapes) {
    check_2d([](const float* a, const float* b, float* c, int r, int k) { add_2d_coalesced(a, b, c, r, k); }, rows,
             cols, seed += 2);
  }
}

TEST_CASE("the strided 2-D add is correct for any shape", "[gpu]") {
  std::uint64_t seed = 50;
  for (const auto& [rows, cols] : kShapes) {
    check_2d([](const float* a, const float* b, float* c, int r, int k) { add_2d_strided(a, b, c, r, k); }, rows, cols,
             seed += 2);
  }
}

TEST_CASE("the 1-D add writes exactly the n elements after the offset, aligned or not", "[gpu]") {
  std::uint64_t seed = 90;
  for (std::size_t offset : {0, 1, 3, 31, 32}) {
    for (std::size_t n : {0, 1, 31, 32, 33, 1000003}) {
      INFO("offset " << offset << ", n " << n);
      const std::size_t total = offset + n + kGuard;
      const auto a = random_floats(total, ++seed), b = random_floats(total, ++seed);
      DeviceBuffer<float> da(total), db(total), dc(total);
      da.upload(a.data(), total);
      db.upload(b.data(), total);
      dc.fill_bytes(0xFF);
      add_1d(da.data(), db.data(), dc.data(), n, offset);
      std::vector<float> c(total);
      dc.download(c.data(), total);
      CHECK(count_add_errors(a, b, c.data(), offset, n) == 0);
      std::size_t touched = 0;  // poisoned floats are 0xFFFFFFFF, a NaN that no add produces here
      for (std::size_t i = 0; i < total; ++i) {
        if ((i < offset || i >= offset + n) && !(c[i] != c[i])) ++touched;
      }
      CHECK(touched == 0);
    }
  }
}

TEST_CASE("a matrix too large for gridDim.y is refused, not launched wrong", "[coalescing]") {
  // The strided launch puts columns on gridDim.y, the coalesced one rows.
  CHECK_THROWS_AS(add_2d_strided(nullptr, nullptr, nullptr, 1, kMaxExtentY + 1, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(add_2d_coalesced(nullptr, nullptr, nullptr, kMaxExtentY + 1, 1, nullptr), std::invalid_argument);
}
