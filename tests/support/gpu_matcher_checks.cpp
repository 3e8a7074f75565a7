#include "gpu_matcher_checks.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <set>

#include "common/brute_force.hpp"
#include "common/generators.hpp"
#include "byte_strings.hpp"
#include "common/random.hpp"

namespace cudamatch::testing {

void check_against_brute_force(const GpuVersion& version, const std::vector<std::uint8_t>& text,
                               const std::vector<std::uint8_t>& pattern) {
  const std::vector<std::uint64_t> expected = brute_force_find_all(text, pattern);
  INFO(version.name << ": n " << text.size() << ", m " << pattern.size() << ", expected " << expected.size()
                    << " matches");
  const DeviceText d_text(text);
  const DevicePattern d_pattern(pattern);
  REQUIRE(gpu_count(version, d_text, d_pattern) == expected.size());
  DeviceBuffer<std::uint64_t> positions(expected.size() + 8);
  positions.fill_bytes(0xFF);
  REQUIRE(gpu_positions(version, d_text, d_pattern, positions) == expected.size());
  std::vector<std::uint64_t> found(expected.size() + 8);
  positions.download(found.data(), found.size());
  CHECK(std::vector<std::uint64_t>(found.begin(), found.begin() + static_cast<long>(expected.size())) == expected);
  CHECK(std::all_of(found.begin() + static_cast<long>(expected.size()), found.end(),
                    [](std::uint64_t v) { return v == ~std::uint64_t{0}; }));
}

bool quick_tests() {
  const char* quick_env = std::getenv("CUDAMATCH_TEST_QUICK");
  return quick_env != nullptr && std::string(quick_env) == "1";
}

void random_cases(const GpuVersion& version, const std::vector<std::size_t>& edges, std::uint64_t seed) {
  const bool quick = quick_tests();
  Rng rng(seed);
  std::set<std::size_t> sizes = {1, 15, 100003};
  std::set<std::size_t> lengths =
      quick ? std::set<std::size_t>{1, 3, 5, 16, 255, 4097}
            : std::set<std::size_t>{1, 2, 3, 4, 5, 7, 16, 31, 64, 255, 1024, 4095, 4096, 4097};
  for (std::size_t e : edges) {
    sizes.insert(quick ? std::initializer_list<std::size_t>{e + 1}
                       : std::initializer_list<std::size_t>{e - 1, e, e + 1, 3 * e + 7});
    lengths.insert(quick ? std::initializer_list<std::size_t>{e + 1}
                         : std::initializer_list<std::size_t>{e - 1, e, e + 1});
  }
  const std::vector<unsigned> alphabets = quick ? std::vector<unsigned>{2, 256} : std::vector<unsigned>{2, 4, 26, 256};
  for (unsigned sigma : alphabets) {
    for (std::size_t n : sizes) {
      const auto text = random_bytes(n, sigma, rng.next());
      for (std::size_t m : lengths) {
        if (m == 0 || m > n + 1) continue;
        INFO("alphabet " << sigma);
        // Mostly a pattern from the text (it occurs), sometimes a random one (it mostly does not).
        const bool from_text = m <= n && rng.below(4) != 0;
        check_against_brute_force(
            version, text, from_text ? slice(text, rng.below(n - m + 1), m) : random_bytes(m, sigma, rng.next()));
      }
    }
  }
}

void edge_cases(const GpuVersion& version, const std::vector<std::size_t>& edges) {
  const std::size_t edge = *std::max_element(edges.begin(), edges.end());
  // All-equal text: an occurrence at every position, across every edge.
  // (Quick: without the long patterns, whose every window is compared in full.)
  const std::vector<std::uint8_t> same(3 * edge + 5, 'a');
  const std::vector<std::size_t> all_equal_lengths =
      quick_tests() ? std::vector<std::size_t>{1, 2, 17} : std::vector<std::size_t>{1, 2, 17, 4096, edge + 1};
  for (std::size_t m : all_equal_lengths) {
    if (m <= same.size()) check_against_brute_force(version, same, std::vector<std::uint8_t>(m, 'a'));
  }
  // Occurrences planted at 0, at n - m and straddling each edge, with NUL and 0xFF bytes.
  Rng rng(9);
  for (std::size_t m : quick_tests() ? std::vector<std::size_t>{2, 33} : std::vector<std::size_t>{2, 5, 8, 33, 1000}) {
    auto text = random_bytes(4 * edge + 3 + m, 26, rng.next());
    auto pattern = random_bytes(m, 256, rng.next());
    pattern[0] = 0x00;
    pattern[m - 1] = 0xFF;
    std::vector<std::size_t> places = {0, text.size() - m};
    for (std::size_t e : edges) {
      for (std::size_t k = 1; k <= 3; ++k) {
        for (std::size_t back : {std::size_t{1}, m / 2, m - 1}) {
          if (k * e >= back && k * e - back + m <= text.size()) places.push_back(k * e - back);
        }
      }
    }
    for (std::size_t at : places) std::copy(pattern.begin(), pattern.end(), text.begin() + static_cast<long>(at));
    check_against_brute_force(version, text, pattern);
  }
  // The pattern is the whole text; one byte longer than the text; a text of one byte.
  const auto text = random_bytes(5000, 4, 3);
  check_against_brute_force(version, text, text);
  check_against_brute_force(version, text, random_bytes(5001, 4, 4));
  check_against_brute_force(version, {'x'}, {'x'});
}

void lengths_around_hand_over(const GpuVersion& version, std::size_t last_handed, std::uint64_t seed) {
  for (std::size_t m = 1; m <= last_handed + 2; ++m) {
    for (unsigned sigma : {2u, 4u, 256u}) {
      const auto text = random_bytes(100003, sigma, seed + 10 * m + sigma);
      check_against_brute_force(version, text, slice(text, 77777, m));
      check_against_brute_force(version, text, random_bytes(m, sigma, seed + 100 + m));
    }
    check_against_brute_force(version, std::vector<std::uint8_t>(70001, 'a'), std::vector<std::uint8_t>(m, 'a'));
  }
}

}  // namespace cudamatch::testing
