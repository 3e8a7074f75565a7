// Lesson 08 - constant memory. Tests tagged [todo] check the starter's TODOs (the constant-memory
// versions), which must fail each one; the global and shared versions are given and pass in both
// tracks. [ptx] marks the checks of the compiled constant-memory kernels, which need no GPU: a kernel
// that reads its pattern or table from global memory gives the right counts and fails them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <regex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/brute_force.hpp"
#include "common/buffers.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "constant_memory.hpp"
#include "ptx_text.hpp"

using namespace cudamatch;
using cudamatch::testing::compiled_kernel;

namespace {

// count(text, n, host pattern, m, count): one version of the count, the pattern given on the host.
using Count =
    std::function<void(const std::uint8_t*, std::size_t, const std::vector<std::uint8_t>&, unsigned long long*)>;
// sum(text, n, host table, sum): one version of the lookup sum.
using Sum =
    std::function<void(const std::uint8_t*, std::size_t, const std::vector<std::uint32_t>&, unsigned long long*)>;

Count device_pattern_count(void (*count)(const std::uint8_t*, std::size_t, const std::uint8_t*, unsigned,
                                         unsigned long long*, cudaStream_t)) {
  return [count](const std::uint8_t* text, std::size_t n, const std::vector<std::uint8_t>& pattern,
                 unsigned long long* result) {
    DeviceBuffer<std::uint8_t> d_pattern(pattern.size());
    d_pattern.upload(pattern.data(), pattern.size());
    count(text, n, d_pattern.data(), static_cast<unsigned>(pattern.size()), result, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
  };
}

const Count kCountConstant = [](const std::uint8_t* text, std::size_t n, const std::vector<std::uint8_t>& pattern,
                                unsigned long long* result) {
  set_constant_pattern(pattern.data(), static_cast<unsigned>(pattern.size()));
  count_matches_constant(text, n, static_cast<unsigned>(pattern.size()), result);
  CUDA_CHECK(cudaDeviceSynchronize());
};

Sum device_table_sum(void (*sum)(const std::uint8_t*, std::size_t, const std::uint32_t*, unsigned long long*,
                                 cudaStream_t)) {
  return [sum](const std::uint8_t* text, std::size_t n, const std::vector<std::uint32_t>& table,
               unsigned long long* result) {
    DeviceBuffer<std::uint32_t> d_table(table.size());
    d_table.upload(table.data(), table.size());
    sum(text, n, d_table.data(), result, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
  };
}

const Sum kSumConstant = [](const std::uint8_t* text, std::size_t n, const std::vector<std::uint32_t>& table,
                            unsigned long long* result) {
  set_constant_table(table.data());
  lookup_sum_constant(text, n, result);
  CUDA_CHECK(cudaDeviceSynchronize());
};

// The count of `pattern` in `text` by `count`, into a poisoned device word.
unsigned long long gpu_count(const Count& count, const std::vector<std::uint8_t>& text,
                             const std::vector<std::uint8_t>& pattern) {
  DeviceBuffer<std::uint8_t> d_text(text.size() + 1);  // + 1: a buffer even for an empty text
  d_text.fill_bytes(0xA5);
  if (!text.empty()) d_text.upload(text.data(), text.size());
  DeviceBuffer<unsigned long long> d_count(1);
  d_count.fill_bytes(0xFF);
  count(d_text.data(), text.size(), pattern, d_count.data());
  unsigned long long found = 0;
  d_count.download(&found, 1);
  return found;
}

std::uint64_t cpu_count(const std::vector<std::uint8_t>& text, const std::vector<std::uint8_t>& pattern) {
  return brute_force_count(ByteView(text.data(), text.size()), ByteView(pattern.data(), pattern.size()));
}

// Texts of odd sizes (none a multiple of a warp, a block or the grid), over alphabets of 2 (long partial
// matches), 4 (DNA) and 256 (NUL and bytes >= 0x80) symbols, with patterns drawn from them (so that they
// occur) at the lengths of the edges: 1, a warp, the longest.
void check_counts(const Count& count) {
  Rng rng(808);
  for (const unsigned alphabet : {2u, 4u, 256u}) {
    for (const std::size_t n :
         {std::size_t{1}, std::size_t{31}, std::size_t{1000}, std::size_t{70001}, std::size_t{1} << 20 | 5}) {
      const std::vector<std::uint8_t> text = random_bytes(n, alphabet, rng.next());
      for (const unsigned m : {1u, 2u, 3u, 17u, 32u, 33u, kMaxPattern}) {
        if (m > n) continue;
        const std::size_t at = rng.below(n - m + 1);
        const std::vector<std::uint8_t> pattern(text.begin() + static_cast<std::ptrdiff_t>(at),
                                                text.begin() + static_cast<std::ptrdiff_t>(at + m));
        INFO("alphabet " << alphabet << ", n " << n << ", m " << m);
        CHECK(gpu_count(count, text, pattern) == cpu_count(text, pattern));
      }
    }
  }
}

// The edges of the window range: a pattern as long as the text (one window), one byte longer (none), a
// match at the very end and at the very start, an empty text, and a pattern that overlaps itself.
void check_count_edges(const Count& count) {
  const std::vector<std::uint8_t> text = {'a', 'b', 'a', 'b', 'a', 0x00, 0xFF, 'a', 'b', 'a'};
  CHECK(gpu_count(count, text, text) == 1);
  CHECK(gpu_count(count, {'x', 'y'}, {'x', 'y', 'z'}) == 0);
  CHECK(gpu_count(count, {}, {'a'}) == 0);
  CHECK(gpu_count(count, text, {'a', 'b', 'a'}) == 3);  // overlapping: at 0, 2 and 7
  CHECK(gpu_count(count, text, {0x00, 0xFF}) == 1);
  CHECK(gpu_count(count, text, {'b', 'a'}) == 3);  // the last at n - 2
  const std::vector<std::uint8_t> same(100003, 'q');
  CHECK(gpu_count(count, same, std::vector<std::uint8_t>(kMaxPattern, 'q')) == 100003 - kMaxPattern + 1);
}

// The sum of table[b] over the bytes of `text`, by `sum`, into a poisoned device word.
unsigned long long gpu_sum(const Sum& sum, const std::vector<std::uint8_t>& text,
                           const std::vector<std::uint32_t>& table) {
  DeviceBuffer<std::uint8_t> d_text(text.size() + 16);  // poisoned bytes after the text must not count
  d_text.fill_bytes(0xA5);
  if (!text.empty()) d_text.upload(text.data(), text.size());
  DeviceBuffer<unsigned long long> d_sum(1);
  d_sum.fill_bytes(0xFF);
  sum(d_text.data(), text.size(), table, d_sum.data());
  unsigned long long total = 0;
  d_sum.download(&total, 1);
  return total;
}

std::uint64_t cpu_sum(const std::vector<std::uint8_t>& text, const std::vector<std::uint32_t>& table) {
  std::uint64_t total = 0;
  for (const std::uint8_t b : text) total += table[b];
  return total;
}

std::vector<std::uint32_t> random_table(std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::uint32_t> table(kTableSize);
  for (auto& entry : table) entry = static_cast<std::uint32_t>(rng.next());  // full 32-bit entries
  return table;
}

// Sizes around the 16-byte words (0, 1, 15, 16, 17) and odd large ones, over every byte value and over
// DNA; each with its own random table.
void check_sums(const Sum& sum) {
  Rng rng(818);
  for (const unsigned alphabet : {4u, 256u}) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17},
                                std::size_t{4097}, std::size_t{1} << 22 | 13}) {
      const std::vector<std::uint8_t> text = random_bytes(n, alphabet, rng.next());
      const std::vector<std::uint32_t> table = random_table(rng.next());
      INFO("alphabet " << alphabet << ", n " << n);
      CHECK(gpu_sum(sum, text, table) == cpu_sum(text, table));
    }
  }
  // Every entry counts where it should: a table of distinct powers-of-two-like values and every byte once.
  std::vector<std::uint8_t> every(256);
  std::vector<std::uint32_t> table(kTableSize);
  for (unsigned b = 0; b < 256; ++b) every[b] = static_cast<std::uint8_t>(255 - b), table[b] = b * 1000003u + 7u;
  CHECK(gpu_sum(sum, every, table) == cpu_sum(every, table));
}

// A load from the constant state space: ld.const (ld.const.u8, ld.const.u32, ...).
const std::regex kConstLoad(R"(\bld\.const\.)");

}  // namespace

TEST_CASE("global: count_matches_global agrees with the CPU on random texts", "[gpu][global]") {
  check_counts(device_pattern_count(count_matches_global));
}

TEST_CASE("global: count_matches_global at the edges of the text", "[gpu][global]") {
  check_count_edges(device_pattern_count(count_matches_global));
}

TEST_CASE("shared: count_matches_shared agrees with the CPU on random texts", "[gpu][shared]") {
  check_counts(device_pattern_count(count_matches_shared));
}

TEST_CASE("shared: count_matches_shared at the edges of the text", "[gpu][shared]") {
  check_count_edges(device_pattern_count(count_matches_shared));
}

TEST_CASE("global: lookup_sum_global agrees with the CPU", "[gpu][global]") {
  check_sums(device_table_sum(lookup_sum_global));
}

TEST_CASE("shared: lookup_sum_shared agrees with the CPU", "[gpu][shared]") {
  check_sums(device_table_sum(lookup_sum_shared));
}

TEST_CASE("step 1: count_matches_constant agrees with the CPU on random texts", "[gpu][todo][step1]") {
  check_counts(kCountConstant);
}

TEST_CASE("step 1: count_matches_constant at the edges of the text", "[gpu][todo][step1]") {
  check_count_edges(kCountConstant);
}

// Patterns from different places of the text: a shorter one after a longer one, then a longer one
// after a shorter one. `held` models the constant array after the sets so far. The REQUIREs make sure
// that each count tells the right pattern from what a wrong version would compare: the old bytes (a
// set_constant_pattern that wrote nothing), or the new pattern followed by the old bytes after it (a
// kernel that reads past m, into the longer pattern's stale tail).
TEST_CASE("step 1: a new pattern replaces the old one in constant memory, a shorter one its stale tail",
          "[gpu][todo][step1]") {
  const std::vector<std::uint8_t> text = random_bytes(100001, 4, 81);
  std::vector<std::uint8_t> held;
  for (const auto& [at, m] : std::vector<std::pair<std::size_t, std::size_t>>{{777, 40}, {5003, 5}, {20011, 12}}) {
    const auto first = text.begin() + static_cast<std::ptrdiff_t>(at);
    const std::vector<std::uint8_t> pattern(first, first + static_cast<std::ptrdiff_t>(m));
    INFO("m " << m);
    const std::uint64_t expected = cpu_count(text, pattern);
    if (!held.empty()) {
      const std::vector<std::uint8_t> old(held.begin(),
                                          held.begin() + static_cast<std::ptrdiff_t>(std::min(m, held.size())));
      REQUIRE(cpu_count(text, old) != expected);
      if (held.size() > m) {
        std::vector<std::uint8_t> with_stale_tail = pattern;
        with_stale_tail.insert(with_stale_tail.end(), held.begin() + static_cast<std::ptrdiff_t>(m), held.end());
        REQUIRE(cpu_count(text, with_stale_tail) != expected);
      }
    }
    CHECK(gpu_count(kCountConstant, text, pattern) == expected);
    if (held.size() < m) held.resize(m);
    std::copy(pattern.begin(), pattern.end(), held.begin());
  }
}

// The lesson's point, checked in the compiled code: count_constant_kernel has no pattern pointer, and
// a kernel that found its pattern in a __device__ (global) array instead would pass the counts above.
TEST_CASE("step 1: the compiled count_constant_kernel reads its pattern with ld.const", "[todo][step1][ptx]") {
  const std::string kernel = compiled_kernel(CUDAMATCH_PTX_FILE, {"count_constant_kernel"});
  CHECK(std::regex_search(kernel, kConstLoad));
}

TEST_CASE("step 2: lookup_sum_constant agrees with the CPU", "[gpu][todo][step2]") { check_sums(kSumConstant); }

TEST_CASE("step 2: a new table replaces the old one in constant memory", "[gpu][todo][step2]") {
  const std::vector<std::uint8_t> text = random_bytes(65537, 256, 82);
  for (std::uint64_t seed : {1u, 2u}) {
    const std::vector<std::uint32_t> table = random_table(seed);
    CHECK(gpu_sum(kSumConstant, text, table) == cpu_sum(text, table));
  }
}

TEST_CASE("step 2: the compiled lookup_constant_kernel reads its table with ld.const", "[todo][step2][ptx]") {
  const std::string kernel = compiled_kernel(CUDAMATCH_PTX_FILE, {"lookup_constant_kernel"});
  CHECK(std::regex_search(kernel, kConstLoad));
}

// The given kernels read their arrays from global and shared memory, never from constant memory: the
// comparison the driver makes is between placements.
// They are in given_placements.cu, compiled to PTX of its own (lessons/08-constant-memory/CMakeLists.txt).
TEST_CASE("the global and shared kernels do not read constant memory", "[ptx]") {
  for (const char* name :
       {"count_global_kernel", "count_shared_kernel", "lookup_global_kernel", "lookup_shared_kernel"}) {
    INFO(name);
    CHECK_FALSE(std::regex_search(compiled_kernel(CUDAMATCH_GIVEN_PTX_FILE, {name}), kConstLoad));
  }
  CHECK(compiled_kernel(CUDAMATCH_GIVEN_PTX_FILE, {"lookup_shared_kernel"}).find("ld.shared") != std::string::npos);
  CHECK(compiled_kernel(CUDAMATCH_GIVEN_PTX_FILE, {"count_shared_kernel"}).find("ld.shared") != std::string::npos);
}

TEST_CASE("every version rejects an empty pattern and one over kMaxPattern bytes", "[args]") {
  const std::vector<std::uint8_t> pattern(kMaxPattern + 1, 'a');
  CHECK_THROWS_AS(count_matches_global(nullptr, 10, nullptr, 0, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(count_matches_shared(nullptr, 10, nullptr, kMaxPattern + 1, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(count_matches_constant(nullptr, 10, 0, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(set_constant_pattern(pattern.data(), kMaxPattern + 1), std::invalid_argument);
  CHECK_THROWS_AS(set_constant_pattern(pattern.data(), 0), std::invalid_argument);
}

TEST_CASE("every lookup version rejects a text that is not 16-byte aligned", "[gpu]") {
  DeviceBuffer<std::uint8_t> text(64);
  DeviceBuffer<std::uint32_t> table(kTableSize);
  DeviceBuffer<unsigned long long> sum(1);
  CHECK_THROWS_AS(lookup_sum_global(text.data() + 1, 16, table.data(), sum.data()), std::invalid_argument);
  CHECK_THROWS_AS(lookup_sum_shared(text.data() + 3, 16, table.data(), sum.data()), std::invalid_argument);
  CHECK_THROWS_AS(lookup_sum_constant(text.data() + 8, 16, sum.data()), std::invalid_argument);
}
