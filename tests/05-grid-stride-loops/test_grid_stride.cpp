// Lesson 05 - grid-stride loops. [todo] marks the tests of the starter's TODO (the grid-stride kernel).
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <vector>

#include "common/buffers.hpp"
#include "common/generators.hpp"
#include "common/saxpy_check.hpp"
#include "grid_stride.hpp"

using namespace cudamatch;

namespace {

constexpr std::size_t kGuard = 256;
using Saxpy = std::function<void(float, const float*, float*, std::size_t)>;

// y after `saxpy` on fresh inputs of n elements (plus a NaN guard band, which must survive).
std::vector<float> run(const Saxpy& saxpy, float a, const std::vector<float>& x, std::vector<float> y, std::size_t n) {
  std::memset(y.data() + n, 0xFF, kGuard * sizeof(float));
  DeviceBuffer<float> dx(x.size()), dy(y.size());
  dx.upload(x.data(), x.size());
  dy.upload(y.data(), y.size());
  saxpy(a, dx.data(), dy.data(), n);
  std::vector<float> out(y.size());
  dy.download(out.data(), out.size());
  CHECK(std::memcmp(out.data() + n, y.data() + n, kGuard * sizeof(float)) == 0);
  return out;
}

}  // namespace

TEST_CASE("the grid-stride SAXPY is right for every n", "[gpu][todo]") {
  const unsigned blocks = blocks_for_device(4);
  std::uint64_t seed = 500;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{31}, (std::size_t{1} << 20) + 3,
                        std::size_t{blocks} * 256 * 3 + 17}) {  // the last: three passes of the grid and a bit
    INFO("n = " << n);
    const auto x = random_floats(n + kGuard, ++seed);
    auto y0 = random_floats(n + kGuard, ++seed);
    std::memset(y0.data() + n, 0xFF, kGuard * sizeof(float));
    const auto y =
        run([&](float a, const float* dx, float* dy, std::size_t k) { saxpy_grid_stride(a, dx, dy, k, blocks, 256); },
            0.75f, x, y0, n);
    CHECK(count_saxpy_errors(0.75f, x, y0, y.data(), n) == 0);
  }
}

TEST_CASE("every launch shape of the grid-stride SAXPY gives the monolithic result, bit for bit", "[gpu][todo]") {
  const std::size_t n = 100003;
  const auto x = random_floats(n + kGuard, 77);
  const auto y0 = random_floats(n + kGuard, 78);
  const auto reference =
      run([](float a, const float* dx, float* dy, std::size_t k) { saxpy_monolithic(a, dx, dy, k); }, -1.25f, x, y0, n);
  REQUIRE(count_saxpy_errors(-1.25f, x, y0, reference.data(), n) == 0);
  const std::vector<std::pair<unsigned, unsigned>> shapes = {
      {1, 1}, {1, 32}, {3, 32}, {7, 33}, {blocks_for_device(1), 256}, {blocks_for_device(32), 256}, {1000, 1024}};
  for (const auto& [blocks, threads] : shapes) {
    INFO("<<<" << blocks << ", " << threads << ">>>");
    const auto y = run([&, b = blocks, t = threads](float a, const float* dx, float* dy,
                                                    std::size_t k) { saxpy_grid_stride(a, dx, dy, k, b, t); },
                       -1.25f, x, y0, n);
    CHECK(std::memcmp(y.data(), reference.data(), n * sizeof(float)) == 0);
  }
}

TEST_CASE("the monolithic SAXPY is right for every n", "[gpu]") {
  std::uint64_t seed = 900;
  for (std::size_t n : {std::size_t{1}, std::size_t{31}, (std::size_t{1} << 20) + 3}) {
    INFO("n = " << n);
    const auto x = random_floats(n + kGuard, ++seed);
    auto y0 = random_floats(n + kGuard, ++seed);
    const auto y =
        run([](float a, const float* dx, float* dy, std::size_t k) { saxpy_monolithic(a, dx, dy, k); }, 2.5f, x, y0, n);
    CHECK(count_saxpy_errors(2.5f, x, y0, y.data(), n) == 0);
  }
}
