// Lesson 04 - vectorized loads. [todo] marks the tests of the starter's TODO (copy_vector_kernel).
#include <catch2/catch.hpp>

#include <functional>
#include <regex>
#include <vector>

#include "common/buffers.hpp"
#include "common/random.hpp"
#include "ptx_text.hpp"
#include "vector_copy.hpp"
#include "vector_plan.hpp"

using namespace cudamatch;
using cudamatch::testing::ptx_entry;
using cudamatch::testing::read_text;

namespace {

using Copy = std::function<void(const int*, int*, std::size_t)>;

// Copies n ints from src_offset to dst_offset (in ints) inside poisoned buffers and checks that
// exactly dst[dst_offset, dst_offset + n) changed, to the source values.
void check_copy(const Copy& copy, std::size_t n, std::size_t src_offset, std::size_t dst_offset, Rng& rng) {
  INFO("n " << n << ", src offset " << src_offset << ", dst offset " << dst_offset << " ints");
  constexpr std::size_t kGuard = 64;
  const std::size_t total = n + kGuard;
  std::vector<int> src(total), dst(total);
  for (auto& v : src) v = static_cast<int>(rng.next());
  DeviceBuffer<int> dsrc(total), ddst(total);
  dsrc.upload(src.data(), total);
  ddst.fill_bytes(0xA5);
  copy(dsrc.data() + src_offset, ddst.data() + dst_offset, n);
  ddst.download(dst.data(), total);
  std::size_t wrong = 0, stray = 0;
  for (std::size_t i = 0; i < total; ++i) {
    const bool inside = i >= dst_offset && i < dst_offset + n;
    if (inside && dst[i] != src[i - dst_offset + src_offset]) ++wrong;
    if (!inside && static_cast<unsigned>(dst[i]) != 0xA5A5A5A5u) ++stray;
  }
  CHECK(wrong == 0);
  CHECK(stray == 0);
}

void check_all_shapes(const Copy& copy) {
  Rng rng(404);
  for (std::size_t n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 1000, 1000003}) {
    for (std::size_t src_offset : {0, 1, 2, 3}) {
      for (std::size_t dst_offset : {0, 1, 2, 3}) check_copy(copy, n, src_offset, dst_offset, rng);
    }
  }
}

}  // namespace

TEST_CASE("the copy plan splits any n into an aligned middle and scalar edges", "[vector]") {
  alignas(16) static int buffer[64];
  // Both aligned: all vectors, then the remainder.
  VectorPlan p = plan_vector_copy(buffer, buffer + 32, 11, 16);
  CHECK((p.head == 0 && p.vectors == 2 && p.tail == 3));
  // Both one int past a 16-byte boundary: three scalars until the boundary.
  p = plan_vector_copy(buffer + 1, buffer + 33, 11, 16);
  CHECK((p.head == 3 && p.vectors == 2 && p.tail == 0));
  // Fewer ints than the way to the boundary: all head.
  p = plan_vector_copy(buffer + 1, buffer + 33, 2, 16);
  CHECK((p.head == 2 && p.vectors == 0 && p.tail == 0));
  // Misaligned differently: no common vector boundary, all scalar.
  p = plan_vector_copy(buffer + 1, buffer + 34, 100, 16);
  CHECK((p.head == 100 && p.vectors == 0 && p.tail == 0));
  // int2 works where int4 cannot.
  p = plan_vector_copy(buffer + 2, buffer + 32, 9, 8);
  CHECK((p.head == 0 && p.vectors == 4 && p.tail == 1));
  p = plan_vector_copy(buffer, buffer, 0, 16);
  CHECK((p.head == 0 && p.vectors == 0 && p.tail == 0));
}

TEST_CASE("copy_int copies any n at any offset", "[gpu]") {
  check_all_shapes([](const int* s, int* d, std::size_t n) { copy_int(s, d, n); });
}

TEST_CASE("copy_int2 copies any n at any offset", "[gpu][todo]") {
  check_all_shapes([](const int* s, int* d, std::size_t n) { copy_int2(s, d, n); });
}

TEST_CASE("copy_int4 copies any n at any offset", "[gpu][todo]") {
  check_all_shapes([](const int* s, int* d, std::size_t n) { copy_int4(s, d, n); });
}

TEST_CASE("the compiled int4 and int2 kernels use 16- and 8-byte loads and stores", "[todo][ptx]") {
  const std::string ptx = read_text(CUDAMATCH_PTX_FILE);
  INFO("PTX: " << CUDAMATCH_PTX_FILE);
  REQUIRE(ptx.find(".entry") != std::string::npos);
  const std::string int4_kernel = ptx_entry(ptx, {"copy_vector_kernel", "int4"});
  const std::string int2_kernel = ptx_entry(ptx, {"copy_vector_kernel", "int2"});
  REQUIRE_FALSE(int4_kernel.empty());
  REQUIRE_FALSE(int2_kernel.empty());
  // ld.global.nc.v4.u32 (read-only path) or ld.global.v4.u32; st.global.v4.u32.
  CHECK(std::regex_search(int4_kernel, std::regex(R"(ld\.global(\.nc)?\.v4\.)")));
  CHECK(std::regex_search(int4_kernel, std::regex(R"(st\.global\.v4\.)")));
  CHECK(std::regex_search(int2_kernel, std::regex(R"(ld\.global(\.nc)?\.v2\.)")));
  CHECK(std::regex_search(int2_kernel, std::regex(R"(st\.global\.v2\.)")));
}
