// Lesson 02 - shared memory. Tests tagged [todo] check the TODO of the starter (the tiled kernel),
// which must fail each one; the naive kernel is given and passes in both tracks. [large] marks the
// 2000x3000x5000 cases: under a second each on an H200, but more than a minute under
// compute-sanitizer racecheck, so sanitizer runs may leave them out ("[gpu]~[large]"). [ptx] marks
// the check of the compiled tiled kernel, which needs no GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <regex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/buffers.hpp"
#include "common/generators.hpp"
#include "matmul.hpp"
#include "matmul_check.hpp"
#include "ptx_text.hpp"

using namespace cudamatch;

namespace {

using Matmul = void (*)(const float*, const float*, float*, int, int, int, cudaStream_t);

struct Shape {
  int M, K, N;
};

// Mostly not multiples of the tile: partial tiles of C, partial last phases along K, a single row
// or column, a K shorter than one tile and one much longer; and two exact multiples.
const std::vector<Shape> kSmallShapes = {{1, 1, 1},     {17, 33, 5},  {31, 32, 33}, {32, 32, 32},  {33, 1, 65},
                                         {100, 257, 3}, {64, 64, 64}, {1, 1000, 1}, {129, 65, 257}};
// The driver's classic shape, checked on a sample of C.
constexpr Shape kLargeShape{2000, 3000, 5000};

constexpr std::size_t kGuard = 256;      // floats after C that no kernel may touch
constexpr unsigned char kPoison = 0xFF;  // every byte 0xFF: a NaN float

bool all_bytes_are(const float* values, std::size_t count, unsigned char byte) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(values);
  for (std::size_t b = 0; b < count * sizeof(float); ++b) {
    if (bytes[b] != byte) return false;
  }
  return true;
}

// Runs `matmul` on fresh random A and B (seeds `seed` and `seed + 1`) into a NaN-poisoned C followed
// by a NaN guard band; checks the elements of C that `coverage` selects, and that the guard band is
// untouched.
void check_matmul(Matmul matmul, Shape s, std::uint64_t seed, MatmulCoverage coverage) {
  INFO("M x K x N = " << s.M << " x " << s.K << " x " << s.N);
  const std::size_t c_size = static_cast<std::size_t>(s.M) * s.N;
  const std::vector<float> A = random_floats(static_cast<std::size_t>(s.M) * s.K, seed);
  const std::vector<float> B = random_floats(static_cast<std::size_t>(s.K) * s.N, seed + 1);
  DeviceBuffer<float> dA(A.size()), dB(B.size()), dC(c_size + kGuard);
  dA.upload(A.data(), A.size());
  dB.upload(B.data(), B.size());
  dC.fill_bytes(kPoison);
  matmul(dA.data(), dB.data(), dC.data(), s.M, s.K, s.N, nullptr);
  std::vector<float> C(c_size + kGuard);
  dC.download(C.data(), C.size());
  CHECK(count_matmul_errors(A.data(), B.data(), C.data(), s.M, s.K, s.N, coverage) == 0);
  CHECK(all_bytes_are(C.data() + c_size, kGuard, kPoison));
}

void check_small_shapes(Matmul matmul, std::uint64_t seed) {
  for (const Shape& s : kSmallShapes) {
    check_matmul(matmul, s, seed, MatmulCoverage::all);
    seed += 2;
  }
}

// K = 0: C = A B is an M x N matrix of zeros. A and B are one poisoned float each, so that a kernel
// that reads them anyway writes NaN.
void check_empty_inner_dimension(Matmul matmul) {
  for (const Shape& s : {Shape{1, 0, 1}, Shape{45, 0, 70}}) {
    INFO("M x K x N = " << s.M << " x 0 x " << s.N);
    const std::size_t c_size = static_cast<std::size_t>(s.M) * s.N;
    DeviceBuffer<float> dA(1), dB(1), dC(c_size + kGuard);
    dA.fill_bytes(kPoison);
    dB.fill_bytes(kPoison);
    dC.fill_bytes(kPoison);
    matmul(dA.data(), dB.data(), dC.data(), s.M, 0, s.N, nullptr);
    std::vector<float> C(c_size + kGuard);
    dC.download(C.data(), C.size());
    CHECK(all_bytes_are(C.data(), c_size, 0));  // +0.0f everywhere
    CHECK(all_bytes_are(C.data() + c_size, kGuard, kPoison));
  }
}

}  // namespace

TEST_CASE("naive: matmul_naive matches the float64 reference on small odd shapes", "[gpu][naive]") {
  check_small_shapes(matmul_naive, 200);
}

TEST_CASE("naive: matmul_naive matches the float64 reference on 2000x3000x5000 by sampling", "[gpu][naive][large]") {
  check_matmul(matmul_naive, kLargeShape, 300, MatmulCoverage::sample);
}

TEST_CASE("naive: matmul_naive with K of 0 writes a zero matrix", "[gpu][naive]") {
  check_empty_inner_dimension(matmul_naive);
}

TEST_CASE("step 1: matmul_tiled matches the float64 reference on small odd shapes", "[gpu][todo][step1]") {
  check_small_shapes(matmul_tiled, 400);
}

TEST_CASE("step 1: matmul_tiled matches the float64 reference on 2000x3000x5000 by sampling",
          "[gpu][todo][step1][large]") {
  check_matmul(matmul_tiled, kLargeShape, 500, MatmulCoverage::sample);
}

TEST_CASE("step 1: matmul_tiled with K of 0 writes a zero matrix", "[gpu][todo][step1]") {
  check_empty_inner_dimension(matmul_tiled);
}

// The naive kernel's body in matmul_tiled_kernel passes the tests above: this one checks the point of
// the lesson, that the tiles go through shared memory.
TEST_CASE("step 1: the compiled tiled kernel stores tiles in shared memory, synchronizes and reads them back",
          "[todo][step1][ptx]") {
  const std::string ptx = testing::read_text(CUDAMATCH_PTX_FILE);
  INFO("PTX: " << CUDAMATCH_PTX_FILE);
  REQUIRE(ptx.find(".entry") != std::string::npos);
  const std::string tiled = testing::ptx_entry(ptx, {"matmul_tiled_kernel"});
  REQUIRE_FALSE(tiled.empty());
  CHECK(tiled.find("st.shared") != std::string::npos);
  CHECK(std::regex_search(tiled, std::regex(R"(\bbar(rier)?(\.cta)?\.sync\b)")));  // __syncthreads()
  CHECK(tiled.find("ld.shared") != std::string::npos);
}

TEST_CASE("both kernels launch nothing and write nothing when M or N is 0", "[gpu]") {
  DeviceBuffer<float> dA(16), dB(16), dC(kGuard);
  dA.fill_bytes(0);
  dB.fill_bytes(0);
  dC.fill_bytes(kPoison);
  for (Matmul matmul : {matmul_naive, matmul_tiled}) {
    CHECK_NOTHROW(matmul(dA.data(), dB.data(), dC.data(), 0, 4, 4, nullptr));
    CHECK_NOTHROW(matmul(dA.data(), dB.data(), dC.data(), 4, 4, 0, nullptr));
    CHECK_NOTHROW(matmul(dA.data(), dB.data(), dC.data(), 0, 0, 0, nullptr));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> C(kGuard);
  dC.download(C.data(), C.size());
  CHECK(all_bytes_are(C.data(), C.size(), kPoison));
}

TEST_CASE("both kernels reject negative sizes", "[args]") {
  for (Matmul matmul : {matmul_naive, matmul_tiled}) {
    CHECK_THROWS_AS(matmul(nullptr, nullptr, nullptr, -1, 4, 4, nullptr), std::invalid_argument);
    CHECK_THROWS_AS(matmul(nullptr, nullptr, nullptr, 4, -1, 4, nullptr), std::invalid_argument);
    CHECK_THROWS_AS(matmul(nullptr, nullptr, nullptr, 4, 4, -1, nullptr), std::invalid_argument);
  }
}

TEST_CASE("the error check accepts float rounding and rejects wrong values and NaN", "[check]") {
  // A 1 x 3 by 3 x 1 product whose float sum rounds: 1 + 2^-24 + 2^-24 is 1 in float arithmetic.
  const std::vector<float> A = {1.0f, 0x1.0p-24f, 0x1.0p-24f};
  const std::vector<float> B = {1.0f, 1.0f, 1.0f};
  double abs_sum = 0.0;
  const double exact = reference_element(A.data(), B.data(), 3, 1, 0, 0, &abs_sum);
  CHECK(exact == 1.0 + 0x1.0p-23);
  CHECK(abs_sum == exact);
  CHECK(matmul_element_ok(1.0f, exact, abs_sum, 3));               // left-to-right float sum
  CHECK(matmul_element_ok(1.0f + 0x1.0p-23f, exact, abs_sum, 3));  // exact, as a tree sum gives
  CHECK_FALSE(matmul_element_ok(1.0f + 0x1.0p-20f, exact, abs_sum, 3));
  CHECK_FALSE(matmul_element_ok(std::nanf(""), exact, abs_sum, 3));
  CHECK(matmul_element_ok(0.0f, 0.0, 0.0, 0));               // K = 0: exactly zero ...
  CHECK_FALSE(matmul_element_ok(0x1.0p-100f, 0.0, 0.0, 0));  // ... and nothing else

  const std::vector<float> C = {1.0f};
  CHECK(count_matmul_errors(A.data(), B.data(), C.data(), 1, 3, 1, MatmulCoverage::all) == 0);
}

TEST_CASE("the sampled check visits the corners and the last row and column and 2000 more elements", "[check]") {
  const auto elements = matmul_checked_elements(2000, 5000, MatmulCoverage::sample);
  const auto visits = [&](int i, int j) {
    return std::binary_search(elements.begin(), elements.end(), std::make_pair(i, j));
  };
  CHECK(visits(0, 0));
  CHECK(visits(0, 4999));
  CHECK(visits(1999, 0));
  CHECK(visits(1999, 4999));
  CHECK(visits(1999, 1234));
  CHECK(visits(1234, 4999));
  CHECK(elements.size() > 5000 + 2000 + 1900);  // few random draws repeat or land on the edges
  CHECK(elements == matmul_checked_elements(2000, 5000, MatmulCoverage::sample));  // deterministic
  CHECK(matmul_checked_elements(3, 4, MatmulCoverage::all).size() == 12);
  CHECK(matmul_checked_elements(0, 4, MatmulCoverage::sample).empty());
}
