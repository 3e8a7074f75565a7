// The dispatch table (dispatch.hpp): the alphabet classifier, the lookup by backend, alphabet, text size
// and m, the table's entries against the matchers this build has, and the matchers it picks against brute
// force. The tests read the table as generated from dispatch.json, whatever it holds; which matcher it
// names where is dispatch_table.py's business (checked against the CSVs by `--check`).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>

#include "common/brute_force.hpp"
#include "common/corpus.hpp"
#include "common/file_io.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "dispatch.hpp"
#include "engine/device_text.hpp"
#include "gpu_backend.hpp"
#include "pattern_set.hpp"
#include "temp_files.hpp"

using namespace cudamatch;
using namespace cudamatch::cli;
using cudamatch::testing::temp_path;

namespace {

const std::array<AlphabetClass, 3> kClasses = {AlphabetClass::small, AlphabetClass::text, AlphabetClass::wide};

std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

// A sample of `letters` byte values, `each` of each.
std::array<std::uint64_t, 256> uniform_counts(unsigned letters, std::uint64_t each) {
  std::array<std::uint64_t, 256> counts{};
  for (unsigned b = 0; b < letters; ++b) counts[b] = each;
  return counts;
}

// The tables of one backend and alphabet, smallest text first.
std::vector<const DispatchTable*> tables_of(Backend backend, AlphabetClass alphabet) {
  std::vector<const DispatchTable*> found;
  for (const DispatchTable& t : dispatch_tables()) {
    if (t.backend == backend && t.alphabet == alphabet) found.push_back(&t);
  }
  std::sort(found.begin(), found.end(), [](auto* a, auto* b) { return a->text_bytes < b->text_bytes; });
  return found;
}

// English-like bytes: words of a few letters and spaces, with their skewed frequencies.
std::vector<std::uint8_t> english_like(std::size_t n, std::uint64_t seed) {
  const std::string letters = "eeeeeeetttttaaaaooooiiinnnsssrrhhldcumfpgwybvkxjqz";
  Rng rng(seed);
  std::vector<std::uint8_t> text(n);
  for (std::uint8_t& b : text)
    b = rng.below(6) == 0 ? ' ' : static_cast<std::uint8_t>(letters[rng.below(letters.size())]);
  return text;
}

}  // namespace

TEST_CASE("the alphabet class: effective letters <= 6 small, <= 64 text, more wide, at the thresholds", "[cli]") {
  CHECK(classify_counts(uniform_counts(1, 10)).alphabet == AlphabetClass::small);
  CHECK(classify_counts(uniform_counts(6, 1000)).alphabet == AlphabetClass::small);
  CHECK(classify_counts(uniform_counts(7, 1000)).alphabet == AlphabetClass::text);
  CHECK(classify_counts(uniform_counts(64, 3)).alphabet == AlphabetClass::text);
  CHECK(classify_counts(uniform_counts(65, 3)).alphabet == AlphabetClass::wide);
  CHECK(classify_counts(uniform_counts(256, 256)).alphabet == AlphabetClass::wide);
  CHECK(classify_counts(uniform_counts(256, 256)).effective_letters == Approx(256.0));
  CHECK(classify_counts(uniform_counts(256, 256)).sampled == 65536);
  // Four letters, one of them rare, are fewer than four effective ones: 1 / (3 * 0.33^2 + 0.01^2).
  std::array<std::uint64_t, 256> skewed{};
  skewed['a'] = skewed['c'] = skewed['g'] = 33;
  skewed['t'] = 1;
  CHECK(classify_counts(skewed).effective_letters == Approx(1.0 / (3 * 0.33 * 0.33 + 0.0001)));
  // Nothing sampled: text, the middle class.
  CHECK(classify_counts({}).alphabet == AlphabetClass::text);
  CHECK(classify_counts({}).effective_letters == 0.0);
}

TEST_CASE("the alphabet class of tiny texts, NUL and high bytes included", "[cli]") {
  CHECK(classify_alphabet(ByteView()).alphabet == AlphabetClass::text);
  CHECK(classify_alphabet(ByteView()).sampled == 0);
  CHECK(classify_alphabet(bytes_of("a")).alphabet == AlphabetClass::small);
  CHECK(classify_alphabet(bytes_of("aaaa")).alphabet == AlphabetClass::small);
  CHECK(classify_alphabet(bytes_of("acgtacgtacgt")).alphabet == AlphabetClass::small);
  CHECK(classify_alphabet(bytes_of("the quick brown fox")).alphabet == AlphabetClass::text);
  std::vector<std::uint8_t> every_byte(256);
  for (std::size_t b = 0; b < 256; ++b) every_byte[b] = static_cast<std::uint8_t>(255 - b);
  CHECK(classify_alphabet(every_byte).alphabet == AlphabetClass::wide);
  const std::vector<std::uint8_t> nul_and_ff = {0, 0xFF, 0, 0xFF, 0};
  CHECK(classify_alphabet(nul_and_ff).alphabet == AlphabetClass::small);
  CHECK(classify_alphabet(nul_and_ff).sampled == 5);
}

TEST_CASE("the sample: all of a short text, else 16 slices from the start to the end", "[cli]") {
  CHECK(sample_offsets(0) == std::vector<std::uint64_t>{0});
  CHECK(sample_offsets(kSampleSlices * kSliceBytes) == std::vector<std::uint64_t>{0});
  for (std::uint64_t n :
       {std::uint64_t{kSampleSlices * kSliceBytes + 1}, std::uint64_t{1} << 20, (std::uint64_t{1} << 36) + 12345}) {
    const std::vector<std::uint64_t> offsets = sample_offsets(n);
    REQUIRE(offsets.size() == kSampleSlices);
    CHECK(offsets.front() == 0);
    CHECK(offsets.back() + kSliceBytes == n);
    for (std::size_t k = 1; k < offsets.size(); ++k) CHECK(offsets[k] >= offsets[k - 1] + kSliceBytes);
  }
  // A 1 MB DNA text behind a 12 KB English header is small: the header is 3 of the 16 slices.
  std::vector<std::uint8_t> text = english_like(12 * 1024, 1);
  const auto dna = random_bytes(1 << 20, 4, 2);
  text.insert(text.end(), dna.begin(), dna.end());
  CHECK(classify_alphabet(text).alphabet == AlphabetClass::small);
  CHECK(classify_alphabet(text).sampled == kSampleSlices * kSliceBytes);
}

TEST_CASE("a file's class is read from the same sample, where it lies", "[cli]") {
  const std::string path = temp_path("sample");
  Rng rng(5);
  for (std::size_t n : {std::size_t{0}, std::size_t{7}, kSampleSlices * kSliceBytes, kSampleSlices * kSliceBytes + 1,
                        std::size_t{3} << 20}) {
    for (unsigned letters : {2u, 4u, 30u, 256u}) {
      const auto text = random_bytes(n, letters, rng.next());
      write_file(path, text);
      const AlphabetSample in_memory = classify_alphabet(text);
      const AlphabetSample from_file = classify_file(path);
      INFO("n " << n << ", " << letters << " letters");
      CHECK(from_file.alphabet == in_memory.alphabet);
      CHECK(from_file.sampled == in_memory.sampled);
      CHECK(from_file.effective_letters == in_memory.effective_letters);
    }
  }
  std::remove(path.c_str());
  CHECK_THROWS_AS(classify_file(path), FileError);
}

TEST_CASE("the corpora fall in their classes: E.coli small, bible.txt and world192.txt text, random bytes wide",
          "[cli]") {
  for (const CorpusSpec& spec : corpus_specs()) {
    const Corpus corpus = load_corpus(spec.name);  // a stand-in of the same kind when absent
    const AlphabetSample sample = classify_alphabet(corpus.bytes);
    INFO(spec.name << (corpus.synthetic ? " (synthetic stand-in)" : "") << ": " << sample.effective_letters
                   << " effective letters");
    CHECK(sample.alphabet == (spec.kind == CorpusKind::dna ? AlphabetClass::small : AlphabetClass::text));
  }
  CHECK(classify_alphabet(random_bytes(1 << 20, 256, 9)).alphabet == AlphabetClass::wide);
  CHECK(classify_alphabet(english_like(1 << 20, 3)).alphabet == AlphabetClass::text);
}

TEST_CASE("every backend has a table for every alphabet class, from m = 1 on without a gap", "[cli]") {
  for (Backend backend : {Backend::cpu, Backend::cuda}) {
    for (AlphabetClass alphabet : kClasses) {
      INFO((backend == Backend::cuda ? "cuda " : "cpu ") << alphabet_name(alphabet));
      const auto tables = tables_of(backend, alphabet);
      REQUIRE_FALSE(tables.empty());
      for (const DispatchTable* t : tables) {
        INFO(t->source);
        REQUIRE_FALSE(t->ranges.empty());
        CHECK(t->ranges.front().m_from == 1);
        CHECK(t->ranges.back().m_to == 0);
        for (std::size_t r = 1; r < t->ranges.size(); ++r) CHECK(t->ranges[r].m_from == t->ranges[r - 1].m_to + 1);
        CHECK((*t->like == '\0') != (*t->corpora == '\0'));  // measured, or borrowed from another class
      }
    }
  }
}

TEST_CASE("every table entry names a version this build has (the lessons' tables, the CPU's v0)", "[cli]") {
  for (const DispatchTable& t : dispatch_tables()) {
    for (const DispatchRange& range : t.ranges) {
      INFO(t.source << ": " << matcher_label(t.backend, range.algorithm, range.version) << " at m " << range.m_from);
      CHECK_NOTHROW(require_available(t.backend, range.algorithm, range.version));
      if (t.backend == Backend::cuda) {
        const GpuAlgorithm* gpu = gpu_algorithm(range.algorithm);
        REQUIRE(gpu != nullptr);
        CHECK(std::string(gpu->version(range.version).name) == "v" + std::to_string(range.version));
      }
    }
  }
}

TEST_CASE("the lookup: each range from its first m to its last, m beyond the table in the last", "[cli]") {
  for (const DispatchTable& t : dispatch_tables()) {
    INFO(t.source << " " << alphabet_name(t.alphabet));
    for (std::size_t r = 0; r < t.ranges.size(); ++r) {
      const DispatchRange& range = t.ranges[r];
      CHECK(&dispatch_range(t, range.m_from) == &range);
      if (range.m_to != 0) {
        CHECK(&dispatch_range(t, range.m_to) == &range);
        CHECK(&dispatch_range(t, range.m_to + 1) == &t.ranges[r + 1]);
      }
    }
    CHECK(&dispatch_range(t, 1) == &t.ranges.front());
    CHECK(&dispatch_range(t, 1 << 20) == &t.ranges.back());
    CHECK(&dispatch_range(t, std::numeric_limits<std::size_t>::max()) == &t.ranges.back());
  }
}

TEST_CASE("the lookup: the table of the text size nearest in log scale", "[cli]") {
  for (Backend backend : {Backend::cpu, Backend::cuda}) {
    for (AlphabetClass alphabet : kClasses) {
      const auto tables = tables_of(backend, alphabet);
      CHECK(&dispatch_table(backend, alphabet, 0) == tables.front());
      CHECK(&dispatch_table(backend, alphabet, 1) == tables.front());
      CHECK(&dispatch_table(backend, alphabet, std::uint64_t{1} << 50) == tables.back());
      for (const DispatchTable* t : tables) CHECK(&dispatch_table(backend, alphabet, t->text_bytes) == t);
      for (std::size_t k = 1; k < tables.size(); ++k) {  // either side of the geometric mean of two sizes
        const double middle =
            std::sqrt(static_cast<double>(tables[k - 1]->text_bytes) * static_cast<double>(tables[k]->text_bytes));
        CHECK(&dispatch_table(backend, alphabet, static_cast<std::uint64_t>(middle * 0.99)) == tables[k - 1]);
        CHECK(&dispatch_table(backend, alphabet, static_cast<std::uint64_t>(middle * 1.01)) == tables[k]);
      }
    }
  }
}

TEST_CASE("a plan without -a takes the table's matcher for each pattern, and says why in one line", "[cli]") {
  for (Backend backend : {Backend::cpu, Backend::cuda}) {
    for (AlphabetClass alphabet : kClasses) {
      const TextTraits text{AlphabetSample{alphabet, 5.0, 4096}, 4 << 20};
      const DispatchTable& table = dispatch_table(backend, alphabet, text.bytes);
      const std::vector<std::size_t> lengths = {1, 3, 8, 100, 5000};
      for (std::size_t m : lengths) {  // one pattern: the table's matcher on either backend
        const SearchPlan plan = plan_search(backend, {}, {m}, text);
        const DispatchRange& range = dispatch_range(table, m);
        CHECK(plan.pass == SearchPlan::Pass::each);
        CHECK(plan.matchers == std::vector<AlgorithmSpec>{{range.algorithm, range.version}});
        CHECK_THAT(plan.why, Catch::Contains(matcher_label(backend, range.algorithm, range.version)) &&
                                 !Catch::Contains("one pass"));
      }
      if (backend == Backend::cuda && chosen_multi_version() != nullptr) continue;  // one pass for all (below)
      const SearchPlan plan = plan_search(backend, {}, lengths, text);
      REQUIRE(plan.matchers.size() == lengths.size());
      CHECK(plan.pass == SearchPlan::Pass::each);
      for (std::size_t k = 0; k < lengths.size(); ++k) {
        const DispatchRange& range = dispatch_range(table, lengths[k]);
        CHECK(plan.matchers[k] == AlgorithmSpec{range.algorithm, range.version});
        CHECK_THAT(plan.why, Catch::Contains(matcher_label(backend, range.algorithm, range.version)));
      }
      CHECK(plan.why.find('\n') == std::string::npos);
      CHECK_THAT(plan.why, Catch::Contains(std::string("alphabet ") + alphabet_name(alphabet)) &&
                               Catch::Contains("5.0 effective letters") && Catch::Contains(table.source) &&
                               Catch::Contains("m = 1, 3") && Catch::Contains("5000") &&
                               Catch::EndsWith("; one pass each for the 5 patterns"));
    }
  }
  const SearchPlan named = plan_search(Backend::cuda, parse_algorithm_spec("kmp:v1"), {4, 9}, TextTraits{});
  CHECK(named.pass == SearchPlan::Pass::each);
  CHECK(named.matchers == std::vector<AlgorithmSpec>(2, AlgorithmSpec{Algorithm::kmp, 1}));
  CHECK(named.why == "cuda: kmp:v1, as -a names it, one pass each for the 2 patterns");
  CHECK(plan_search(Backend::cpu, parse_algorithm_spec("ssef"), {4}, TextTraits{}).why == "cpu: ssef, as -a names it");
  const SearchPlan many = plan_search(Backend::cpu, {}, std::vector<std::size_t>(kOnePassForAllFrom, 3), TextTraits{});
  CHECK(many.pass == SearchPlan::Pass::aho_corasick);
  CHECK(many.matchers.empty());
  CHECK(many.why == "cpu: one Aho-Corasick pass for the " + std::to_string(kOnePassForAllFrom) + " patterns (" +
                        std::to_string(kOnePassForAllFrom) + " or more on the CPU, without -a)");
  CHECK_FALSE(many.runs_as(plan_search(Backend::cpu, {}, {3}, TextTraits{})));
  CHECK(plan_search(Backend::cpu, {}, std::vector<std::size_t>(kOnePassForAllFrom - 1, 3), TextTraits{}).pass ==
        SearchPlan::Pass::each);
}

TEST_CASE("several patterns on the GPU without -a: one pass of lesson 18's best version where the build has one",
          "[cli]") {
  const GpuMultiVersion* multi = chosen_multi_version();
  const SearchPlan two = plan_search(Backend::cuda, {}, {4, 9}, TextTraits{});
  if (multi == nullptr) {
    CHECK(two.pass == SearchPlan::Pass::each);
    CHECK(two.matchers.size() == 2);
  } else {
    CHECK(two.pass == SearchPlan::Pass::gpu_multi);
    CHECK(two.multi == multi);
    CHECK(two.matchers.empty());
    CHECK(two.why == std::string("cuda: one pass for the 2 patterns with multi-pattern ") + multi->name +
                         " (lesson 18's best; 2 or more on the GPU, without -a)");
    // whatever the lengths and the text: one pattern set for every file
    const TextTraits dna{AlphabetSample{AlphabetClass::small, 4.0, 4096}, std::uint64_t{1} << 30};
    CHECK(two.runs_as(plan_search(Backend::cuda, {}, {30, 2, 5000}, dna)));
    CHECK(plan_search(Backend::cuda, {}, std::vector<std::size_t>(kOnePassForAllFrom, 3), TextTraits{}).pass ==
          SearchPlan::Pass::gpu_multi);
  }
  // one pattern, -a, or the CPU: one pass each
  CHECK(plan_search(Backend::cuda, {}, {4}, TextTraits{}).pass == SearchPlan::Pass::each);
  CHECK(plan_search(Backend::cuda, parse_algorithm_spec("bf"), {4, 9}, TextTraits{}).pass == SearchPlan::Pass::each);
  CHECK(plan_search(Backend::cpu, {}, {4, 9}, TextTraits{}).pass == SearchPlan::Pass::each);
  CHECK_FALSE(two.runs_as(plan_search(Backend::cuda, {}, {4}, TextTraits{})));
}

TEST_CASE("the CPU matchers the table picks find what brute force finds, in texts of each class", "[cli]") {
  Rng rng(20);
  const std::map<AlphabetClass, std::vector<std::uint8_t>> texts = {{AlphabetClass::small, random_bytes(50000, 4, 1)},
                                                                    {AlphabetClass::text, english_like(50000, 2)},
                                                                    {AlphabetClass::wide, random_bytes(50000, 256, 3)}};
  for (const auto& [alphabet, text] : texts) {
    const TextTraits traits{classify_alphabet(text), text.size()};
    REQUIRE(traits.sample.alphabet == alphabet);
    for (std::size_t m : {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1000, 1025, 3000}) {
      const std::size_t at = rng.below(text.size() - m + 1);
      const std::vector<std::uint8_t> pattern(text.begin() + static_cast<long>(at),
                                              text.begin() + static_cast<long>(at + m));
      const SearchPlan plan = plan_search(Backend::cpu, {}, {m}, traits);
      const auto search = make_pattern_set(Backend::cpu, plan, {ByteView(pattern)});
      std::vector<Hit> found;
      search->find(text, 0, found);
      const std::vector<std::uint64_t> expected = brute_force_find_all(text, pattern);
      INFO(alphabet_name(alphabet) << " m " << m << ": " << plan.why);
      REQUIRE(found.size() == expected.size());
      for (std::size_t i = 0; i < found.size(); ++i) CHECK(found[i].offset == expected[i]);
    }
  }
}

TEST_CASE("every GPU matcher of the table finds what brute force finds, at both ends of its range", "[gpu]") {
  const auto text = random_bytes(300001, 4, 8);
  const DeviceText device_text(text);
  Rng rng(21);
  for (const DispatchTable& t : dispatch_tables()) {
    if (t.backend != Backend::cuda) continue;
    for (const DispatchRange& range : t.ranges) {
      const GpuVersion& version = gpu_algorithm(range.algorithm)->version(range.version);
      for (std::size_t m : {range.m_from, range.m_to == 0 ? std::size_t{4096} : range.m_to}) {
        const std::size_t at = rng.below(text.size() - m + 1);
        const std::vector<std::uint8_t> pattern(text.begin() + static_cast<long>(at),
                                                text.begin() + static_cast<long>(at + m));
        INFO(t.source << ": " << matcher_label(Backend::cuda, range.algorithm, range.version) << " m " << m);
        CHECK(gpu_count(version, device_text, DevicePattern(pattern)) == brute_force_count(text, pattern));
      }
    }
  }
}
