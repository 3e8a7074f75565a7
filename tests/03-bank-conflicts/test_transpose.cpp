// Lesson 03 - bank conflicts. Tests tagged [todo] check a TODO of the starter, which must fail each one
// (step 1: the tiled kernel, which both tile versions run; step 2: the padding).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/buffers.hpp"
#include "common/generators.hpp"
#include "transpose.hpp"
#include "transpose_check.hpp"

using namespace cudamatch;

namespace {

using TransposeFunction = void (*)(const float*, float*, std::size_t, std::size_t, cudaStream_t);

struct Shape {
  std::size_t rows;
  std::size_t cols;
};

// Single rows and columns, shapes just under and over one tile, one that is exactly a tile, one
// narrower than a tile, odd sizes of many tiles, a large square, and a tall thin one.
constexpr Shape kShapes[] = {{1, 1},   {1, 37}, {37, 1},     {31, 33},     {32, 32},
                             {33, 65}, {64, 8}, {1000, 777}, {2048, 2048}, {4099, 3}};

constexpr TransposeFunction kEveryVersion[] = {transpose_copy, transpose_naive_write_strided,
                                               transpose_naive_read_strided, transpose_tiled, transpose_padded};

constexpr std::size_t kGuard = 1024;  // floats after the output that must stay poisoned

std::vector<float> poison(std::size_t n) {
  std::vector<float> values(n);
  std::memset(values.data(), 0xFF, n * sizeof(float));
  return values;
}

// Runs `version` once per shape, each time on fresh random input into an output poisoned with 0xFF
// and followed by a guard band, and checks every output bit: the whole output written right, nothing
// written past it. `transposes`: whether the output must be `in` transposed or `in` itself (the copy).
void check_every_shape(TransposeFunction version, bool transposes, std::uint64_t seed) {
  const std::vector<float> guard = poison(kGuard);
  for (const Shape& shape : kShapes) {
    INFO(shape.rows << " x " << shape.cols << " input");
    const std::size_t n = shape.rows * shape.cols;
    const std::vector<float> in = random_floats(n, seed++);
    const std::vector<float> expected = transposes ? transpose_reference(in, shape.rows, shape.cols) : in;
    DeviceBuffer<float> din(n), dout(n + kGuard);
    din.upload(in.data(), n);
    dout.fill_bytes(0xFF);
    version(din.data(), dout.data(), shape.rows, shape.cols, nullptr);
    std::vector<float> out(n + kGuard);
    dout.download(out.data(), out.size());
    CHECK(count_mismatches(expected.data(), out.data(), n) == 0);
    CHECK(count_mismatches(guard.data(), out.data() + n, kGuard) == 0);
  }
}

}  // namespace

TEST_CASE("the CPU reference transposes and the comparison counts every differing bit") {
  const std::vector<float> in = {1, 2, 3, 4, 5, 6};  // 2 x 3
  CHECK(transpose_reference(in, 2, 3) == std::vector<float>{1, 4, 2, 5, 3, 6});
  const std::vector<float> odd = random_floats(37 * 5, 7);
  CHECK(transpose_reference(transpose_reference(odd, 37, 5), 5, 37) == odd);

  const std::vector<float> expected = {1.0f, 2.0f, 0.0f, 4.0f};
  std::vector<float> actual = expected;
  CHECK(count_mismatches(expected.data(), actual.data(), 4) == 0);
  actual[1] = poison(1)[0];  // an element the kernel never wrote
  actual[2] = -0.0f;         // == 0.0f as a float, but not the same bits
  CHECK(count_mismatches(expected.data(), actual.data(), 4) == 2);
}

TEST_CASE("shapes the grid cannot cover are refused before anything is launched") {
  const dim3 tallest = transpose_grid(kMaxTransposeRows, 1);
  CHECK(tallest.x == 1);
  CHECK(tallest.y == 65535);
  const std::size_t too_wide = (std::size_t{std::numeric_limits<int>::max()} + 1) * kTile;
  for (TransposeFunction version : kEveryVersion) {
    CHECK_THROWS_AS(version(nullptr, nullptr, kMaxTransposeRows + 1, 1, nullptr), std::invalid_argument);
    CHECK_THROWS_AS(version(nullptr, nullptr, 1, too_wide, nullptr), std::invalid_argument);
  }
}

TEST_CASE("zero rows or columns launch nothing and write nothing", "[gpu]") {
  constexpr std::size_t kCount = 64;
  const std::vector<float> poisoned = poison(kCount);
  DeviceBuffer<float> din(kCount), dout(kCount);
  din.fill_bytes(0);
  for (TransposeFunction version : kEveryVersion) {
    dout.fill_bytes(0xFF);
    for (const Shape& shape : {Shape{0, 0}, Shape{0, 5}, Shape{5, 0}}) {
      version(din.data(), dout.data(), shape.rows, shape.cols, nullptr);
    }
    std::vector<float> out(kCount);
    dout.download(out.data(), kCount);
    CHECK(count_mismatches(poisoned.data(), out.data(), kCount) == 0);
  }
}

TEST_CASE("transpose_copy (the ceiling) copies every shape exactly and writes nothing past it", "[gpu]") {
  check_every_shape(transpose_copy, false, 1000);
}

TEST_CASE("transpose_naive_write_strided transposes every shape exactly and writes nothing past it", "[gpu]") {
  check_every_shape(transpose_naive_write_strided, true, 2000);
}

TEST_CASE("transpose_naive_read_strided transposes every shape exactly and writes nothing past it", "[gpu]") {
  check_every_shape(transpose_naive_read_strided, true, 3000);
}

TEST_CASE("step 1: transpose_tiled (32x32 tile) transposes every shape exactly and writes nothing past it",
          "[gpu][todo][step1]") {
  check_every_shape(transpose_tiled, true, 4000);
}

TEST_CASE("step 1: transpose_padded (32x33 tile) transposes every shape exactly and writes nothing past it",
          "[gpu][todo][step1]") {
  check_every_shape(transpose_padded, true, 5000);
}

TEST_CASE("step 2: the padded tile takes 32 x 33 floats of shared memory and the plain one 32 x 32",
          "[gpu][todo][step2]") {
  CHECK(transpose_static_shared_bytes(false) == kTile * kTile * sizeof(float));
  CHECK(transpose_static_shared_bytes(true) == kTile * (kTile + 1) * sizeof(float));
}
