// Rotated texts (common/rotated_text.hpp, common/device_rotation.hpp): the count computed from one
// period of the corpus against brute force on the materialized text, and the GPU's rotated texts
// against their definition.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "byte_strings.hpp"
#include "common/brute_force.hpp"
#include "common/device_rotation.hpp"
#include "engine/device_text.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "common/rotated_text.hpp"

using namespace cudamatch;

namespace {

using Bytes = std::vector<std::uint8_t>;

using testing::bytes;

// The definition, written out: text[i] = corpus[(offset + i) mod L].
Bytes materialized(const Bytes& corpus, std::size_t offset, std::size_t size) {
  Bytes text(size);
  for (std::size_t i = 0; i < size; ++i) text[i] = corpus[(offset + i) % corpus.size()];
  return text;
}

// The count from the period against brute force on the materialized text; "" when they agree.
std::string disagreement(const Bytes& corpus, const Bytes& pattern, std::size_t offset, std::size_t size) {
  const std::uint64_t want = brute_force_count(materialized(corpus, offset, size), pattern);
  const std::uint64_t got = CyclicOccurrences(corpus, pattern).count_in_rotation(offset, size);
  if (got == want) return "";
  return "L " + std::to_string(corpus.size()) + ", m " + std::to_string(pattern.size()) + ", offset " +
         std::to_string(offset) + ", N " + std::to_string(size) + ": counted " + std::to_string(got) +
         ", brute force " + std::to_string(want);
}

// A pattern of m bytes for a random case: from the cyclic corpus (it occurs, possibly across the wrap),
// or random bytes of the corpus's alphabet (it mostly does not).
Bytes random_pattern(const Bytes& corpus, std::size_t m, unsigned alphabet, Rng& rng) {
  if (rng.below(4) == 0) return random_bytes(m, alphabet, rng.next());
  return cyclic_bytes(corpus, static_cast<std::size_t>(rng.below(corpus.size())), m);
}

// A pattern length for a random case: short, 1, L, longer than the corpus, or longer than the text.
std::size_t random_length(std::size_t period, std::size_t size, Rng& rng) {
  switch (rng.below(6)) {
    case 0:
      return 1;
    case 1:
      return period;
    case 2:
      return period + 1 + static_cast<std::size_t>(rng.below(2 * period + 1));
    case 3:
      return size + 1 + static_cast<std::size_t>(rng.below(5));
    default:
      return 1 + static_cast<std::size_t>(rng.below(std::min<std::size_t>(period, 12)));
  }
}

}  // namespace

TEST_CASE("cyclic_bytes reads the corpus cyclically from the offset", "[rotated]") {
  const Bytes corpus = bytes("abcde");
  CHECK(cyclic_bytes(corpus, 0, 5) == corpus);
  CHECK(cyclic_bytes(corpus, 3, 9) == bytes("deabcdeab"));
  CHECK(cyclic_bytes(corpus, 4, 1) == bytes("e"));
  CHECK(cyclic_bytes(corpus, 12, 4) == bytes("cdea"));  // the offset is taken mod L
  CHECK(cyclic_bytes(corpus, 2, 0).empty());
  CHECK(cyclic_bytes(Bytes(), 0, 0).empty());
  CHECK_THROWS_AS(cyclic_bytes(Bytes(), 0, 1), std::invalid_argument);
  const Bytes binary = random_bytes(257, 256, 3);
  for (std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{256}, std::size_t{300}}) {
    CHECK(cyclic_bytes(binary, offset, 1001) == materialized(binary, offset, 1001));
  }
}

TEST_CASE("the cyclic occurrences are the offsets where the pattern starts, across the wrap too", "[rotated]") {
  const Bytes corpus = bytes("abcab");  // cyclically ...abcababcab...
  CHECK(CyclicOccurrences(corpus, bytes("ab")).offsets() == std::vector<std::uint64_t>{0, 3});
  CHECK(CyclicOccurrences(corpus, bytes("ba")).offsets() == std::vector<std::uint64_t>{4});         // wraps
  CHECK(CyclicOccurrences(corpus, bytes("babc")).offsets() == std::vector<std::uint64_t>{4});       // wraps
  CHECK(CyclicOccurrences(corpus, bytes("abcababca")).offsets() == std::vector<std::uint64_t>{0});  // m > L
  CHECK(CyclicOccurrences(corpus, bytes("abcab")).offsets() == std::vector<std::uint64_t>{0});      // m = L
  CHECK(CyclicOccurrences(corpus, bytes("x")).offsets().empty());
  CHECK(CyclicOccurrences(bytes("aaaa"), bytes("aaaaaaa")).offsets() == std::vector<std::uint64_t>{0, 1, 2, 3});
  CHECK_THROWS_AS(CyclicOccurrences(corpus, Bytes()), EmptyPatternError);
  CHECK_THROWS_AS(CyclicOccurrences(Bytes(), bytes("a")), std::invalid_argument);
}

TEST_CASE("counts in rotated texts, by hand", "[rotated]") {
  const Bytes corpus = bytes("abc");
  const CyclicOccurrences ca(corpus, bytes("ca"));
  CHECK(ca.count_in_rotation(2, 7) == 2);  // "cabcabc"
  CHECK(ca.count_in_rotation(0, 7) == 2);  // "abcabca"
  CHECK(ca.count_in_rotation(0, 6) == 1);  // "abcabc"
  CHECK(ca.count_in_rotation(1, 2) == 0);  // "bc"
  CHECK(ca.count_in_rotation(2, 2) == 1);  // "ca"
  CHECK(ca.count_in_rotation(2, 1) == 0);  // shorter than the pattern
  CHECK(ca.count_in_rotation(5, 7) == 2);  // offset 5 is offset 2
  CHECK(ca.count_in_rotation(0, 0) == 0);
  const CyclicOccurrences long_a(bytes("a"), bytes("aaaa"));  // m > L: every window of a text of a's
  CHECK(long_a.count_in_rotation(0, 10) == 7);
  CHECK(long_a.count_in_rotation(0, 3) == 0);
  // A text of 1 GiB of one corpus byte: the arithmetic at the size the drivers use.
  CHECK(CyclicOccurrences(bytes("aaaa"), bytes("aa")).count_in_rotation(3, std::size_t{1} << 30) ==
        (std::uint64_t{1} << 30) - 1);
}

TEST_CASE("counts in rotated texts agree with brute force on the materialized text: edges", "[rotated]") {
  const std::vector<Bytes> corpora = {bytes("a"),
                                      bytes("aaaa"),
                                      bytes("ab"),
                                      bytes("abcab"),
                                      bytes("abab"),
                                      bytes("aabaa"),
                                      random_bytes(37, 2, 1),
                                      random_bytes(64, 256, 2),
                                      Bytes{0, 0x80, 0, 0xFF, 0x80}};
  for (const Bytes& corpus : corpora) {
    const std::size_t period = corpus.size();
    for (std::size_t offset : {std::size_t{0}, std::size_t{1}, period / 2, period - 1}) {
      for (std::size_t size :
           {std::size_t{0}, std::size_t{1}, period - 1, period, period + 1, 2 * period + 1, 7 * period + 3}) {
        // Every length 1 .. 2L + 2, each from every start in the cyclic corpus (wrap-around included).
        for (std::size_t m = 1; m <= 2 * period + 2; ++m) {
          for (std::size_t at = 0; at < period; ++at) {
            const std::string problem = disagreement(corpus, cyclic_bytes(corpus, at, m), offset, size);
            INFO(problem);
            REQUIRE(problem.empty());
          }
        }
      }
    }
  }
}

TEST_CASE("counts in rotated texts agree with brute force on the materialized text: random cases", "[rotated]") {
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    Rng rng(seed);
    const unsigned alphabet = std::vector<unsigned>{1, 2, 4, 256}[rng.below(4)];
    const std::size_t period = 1 + static_cast<std::size_t>(rng.below(rng.below(2) == 0 ? 8 : 200));
    const Bytes corpus = random_bytes(period, alphabet, rng.next());
    // Odd sizes, below the period, not a multiple of it, and several periods long.
    const std::size_t size = static_cast<std::size_t>(rng.below(rng.below(3) == 0 ? period + 2 : 7 * period + 50));
    const std::size_t offset = std::vector<std::size_t>{0, period - 1, static_cast<std::size_t>(rng.below(period)),
                                                        static_cast<std::size_t>(rng.below(3 * period))}[rng.below(4)];
    const Bytes pattern = random_pattern(corpus, random_length(period, size, rng), alphabet, rng);
    const std::string problem = disagreement(corpus, pattern, offset, size);
    INFO("seed " << seed << ": " << problem);
    REQUIRE(problem.empty());
  }
}

TEST_CASE("edits break occurrences, and the count after them agrees with brute force", "[rotated]") {
  std::size_t broken = 0;
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
    Rng rng(seed);
    const unsigned alphabet = std::vector<unsigned>{1, 2, 4, 256}[rng.below(4)];
    const std::size_t period = 1 + static_cast<std::size_t>(rng.below(rng.below(2) == 0 ? 8 : 200));
    const Bytes corpus = random_bytes(period, alphabet, rng.next());
    const std::size_t size = static_cast<std::size_t>(rng.below(7 * period + 50));
    const std::size_t offset = static_cast<std::size_t>(rng.below(3 * period));
    const Bytes pattern = random_pattern(corpus, random_length(period, size, rng), alphabet, rng);
    const CyclicOccurrences occurrences(corpus, pattern);
    std::vector<ByteEdit> edits = breaking_edits(corpus, occurrences, pattern, offset, size, 1 + rng.below(6), rng);
    for (const ByteEdit& edit : edits) {
      INFO("seed " << seed << ", edit at " << edit.at);
      REQUIRE(edit.at < size);
      REQUIRE(edit.value != cyclic_bytes(corpus, offset + edit.at, 1)[0]);  // a change, inside an occurrence
    }
    // And edits anywhere (a few of them near each other, at 0 and at the end), which may also create
    // occurrences.
    for (std::size_t k = 0; k < 3 && size > 0; ++k) {
      const std::uint64_t at = std::vector<std::uint64_t>{0, size - 1, rng.below(size)}[rng.below(3)];
      if (std::none_of(edits.begin(), edits.end(), [&](const ByteEdit& e) { return e.at == at; })) {
        edits.push_back({at, static_cast<std::uint8_t>(rng.below(alphabet == 256 ? 256 : alphabet + 1))});
      }
    }
    Bytes text = materialized(corpus, offset, size);
    for (const ByteEdit& edit : edits) text[edit.at] = edit.value;
    const std::uint64_t want = brute_force_count(text, pattern);
    const std::uint64_t got = count_after_edits(corpus, occurrences, pattern, offset, size, edits);
    INFO("seed " << seed << ": L " << period << ", m " << pattern.size() << ", N " << size << ", " << edits.size()
                 << " edits: counted " << got << ", brute force " << want);
    REQUIRE(got == want);
    broken += want < occurrences.count_in_rotation(offset, size);
  }
  CHECK(broken > 500);  // the edits do break occurrences, in many of the cases
}

TEST_CASE("counts in a rotated text of the corpora's size with patterns the drivers draw", "[rotated]") {
  // A corpus of a few hundred kB (the drivers' are 4-5 MB) and texts of several periods, not multiples
  // of it, with patterns drawn from the text as the experiment draws them.
  const Bytes corpus = random_bytes(300'007, 4, 11);
  Rng rng(12);
  for (std::size_t m :
       {std::size_t{1}, std::size_t{2}, std::size_t{8}, std::size_t{16}, std::size_t{64}, std::size_t{1024}}) {
    const std::size_t size = 1'000'003;
    const std::size_t offset = static_cast<std::size_t>(rng.below(corpus.size()));
    const std::size_t at = static_cast<std::size_t>(rng.below(size - m + 1));
    const Bytes pattern = cyclic_bytes(corpus, offset + at, m);
    const std::string problem = disagreement(corpus, pattern, offset, size);
    INFO(problem);
    CHECK(problem.empty());
  }
}

// The GPU's rotated texts: the bytes of the definition, the zero padding after them, and always the
// same allocation. [gpu]: skipped without a device.
TEST_CASE("rotated texts written on the GPU are the definition's bytes, zero-padded, in one allocation",
          "[rotated][gpu]") {
  const Bytes corpus = random_bytes(1013, 256, 21);  // NUL and bytes >= 0x80, an odd period
  const DeviceCorpus device_corpus(corpus);
  CHECK(device_corpus.size() == corpus.size());
  DeviceText text = DeviceText::with_capacity(5000);
  const std::uint8_t* const allocation = text.data();
  CudaStream stream;
  Rng rng(22);
  for (std::size_t size : {std::size_t{5000}, std::size_t{37}, std::size_t{0}, std::size_t{1013}, std::size_t{4999},
                           std::size_t{16}, std::size_t{1}, std::size_t{2048}}) {
    for (std::size_t offset :
         {std::size_t{0}, corpus.size() - 1, static_cast<std::size_t>(rng.below(corpus.size())), corpus.size() + 5}) {
      INFO("size " << size << ", offset " << offset);
      const Bytes ones(5000, 0xFF);  // a text of 0xFF first: stale bytes would show in the padding
      text.assign_async(ByteView(ones.data(), ones.size()), stream.get());
      device_corpus.write_rotation(text, offset, size, stream.get());
      stream.synchronize();
      CHECK(text.data() == allocation);
      CHECK(text.size() == size);
      const std::size_t padded_end = DeviceText::allocation_bytes(size);
      Bytes back(padded_end);
      REQUIRE(cudaMemcpy(back.data(), text.data(), padded_end, cudaMemcpyDeviceToHost) == cudaSuccess);
      CHECK(Bytes(back.begin(), back.begin() + static_cast<long>(size)) == materialized(corpus, offset, size));
      CHECK(std::count(back.begin() + static_cast<long>(size), back.end(), std::uint8_t{0}) ==
            static_cast<long>(padded_end - size));
    }
  }
  // Then edits: single bytes changed after the rotation.
  const std::vector<ByteEdit> edits = {{0, 0x00}, {17, 0x80}, {4999, 0xFF}, {2500, 'x'}};
  device_corpus.write_rotation(text, 7, 5000, stream.get(), edits);
  stream.synchronize();
  Bytes want = materialized(corpus, 7, 5000);
  for (const ByteEdit& edit : edits) want[edit.at] = edit.value;
  Bytes back(5000);
  REQUIRE(cudaMemcpy(back.data(), text.data(), back.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == want);
  CHECK_THROWS_AS(device_corpus.write_rotation(text, 0, 10, stream.get(), {{10, 1}}), std::out_of_range);
  CHECK_THROWS_AS(device_corpus.write_rotation(text, 0, text.capacity() + 1, stream.get()), std::length_error);
  CHECK_THROWS_AS(DeviceCorpus(Bytes()), std::invalid_argument);
}
