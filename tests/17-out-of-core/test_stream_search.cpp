// Lesson 17 - every version of the streamed search against the CPU, with 4 KiB chunks so that small
// inputs cross many chunk edges; [todo] marks the tests of the starter's TODOs (v1, v2). The matcher
// is the given brute force (engine/brute_force_v0.cu, lesson 11's v0): these tests are about the streaming, not the
// kernel.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/brute_force.hpp"
#include "common/file_io.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "engine/brute_force_v0.hpp"
#include "engine/stream/stream_search.hpp"
#include "gpu_matcher_checks.hpp"
#include "stream_versions.hpp"
#include "temp_files.hpp"
#include "version_checks.hpp"

using namespace cudamatch;
using namespace lesson17;
using cudamatch::testing::register_test_case;
using cudamatch::testing::temp_path;
using Bytes = std::vector<std::uint8_t>;

namespace {

constexpr std::size_t kChunk = 4096;

const StreamVersion& version(int number) { return stream_versions().at(static_cast<std::size_t>(number)); }

// Small chunks; v2 with several readers and a ring of `slots`.
StreamOptions small_chunks(unsigned readers = 3, std::size_t slots = 0) {
  StreamOptions options;
  options.chunk_bytes = kChunk;
  options.readers = readers;
  options.slots = slots;
  return options;
}

// `source` (holding `text`) searched in both modes: the count and the positions (in order, each once)
// must be the CPU brute force's.
void check_stream(const StreamVersion& v, StreamSearcher& searcher, ByteSource& source, const Bytes& text,
                  const Bytes& pattern) {
  const std::vector<std::uint64_t> expected = brute_force_find_all(text, pattern);
  INFO(v.name << ": n " << text.size() << ", m " << pattern.size() << ", chunk " << searcher.plan().chunk_bytes << ", "
              << searcher.slots() << " slots, " << searcher.readers() << " readers, " << expected.size()
              << " occurrences");
  CHECK(searcher.count(v, source) == expected.size());
  std::vector<std::uint64_t> found;
  const std::uint64_t count = searcher.positions(
      v, source, [&](const std::vector<std::uint64_t>& p) { found.insert(found.end(), p.begin(), p.end()); });
  CHECK(count == expected.size());
  CHECK(found == expected);
}

void check_memory(const StreamVersion& v, StreamSearcher& searcher, const Bytes& text, const Bytes& pattern) {
  MemorySource source(text);
  check_stream(v, searcher, source, text, pattern);
}

// `pattern` written over `text` at `at` (where it fits).
void plant(Bytes& text, const Bytes& pattern, std::size_t at) {
  if (at + pattern.size() <= text.size())
    std::copy(pattern.begin(), pattern.end(), text.begin() + static_cast<long>(at));
}

// A random text of n bytes over a small alphabet with `pattern` planted at 0, at n - m, and straddling
// every chunk edge (ending 1, m / 2 and m - 1 bytes past it).
Bytes text_with_edges(std::size_t n, const Bytes& pattern, std::size_t chunk, std::uint64_t seed) {
  Bytes text = random_bytes(n, 4, seed);
  const std::size_t m = pattern.size();
  plant(text, pattern, 0);
  if (n >= m) plant(text, pattern, n - m);
  for (std::size_t edge = chunk; edge < n; edge += chunk) {
    for (std::size_t past : {std::size_t{1}, m / 2, m - 1}) {
      if (past >= 1 && past < m && edge >= m - past) plant(text, pattern, edge - (m - past));
    }
  }
  return text;
}

void around_the_chunk_size(const StreamVersion& v) {
  const bool quick = testing::quick_tests();
  const std::vector<std::size_t> lengths =
      quick ? std::vector<std::size_t>{1, 7} : std::vector<std::size_t>{1, 2, 7, 33};
  // (readers, slots): one reader, several, more readers than slots, the fewest slots.
  const std::vector<std::pair<unsigned, std::size_t>> rings = {{1, 2}, {3, 0}, {4, 3}};
  Rng rng(1301);
  for (std::size_t m : lengths) {
    const auto [readers, slots] = rings[m % rings.size()];
    std::vector<std::size_t> sizes = {kChunk - 1, kChunk, kChunk + 1, 5 * kChunk + 7};
    for (std::size_t k : {1, 2, 3}) {  // where the number of chunks changes: k * C + m - 1
      for (std::size_t n : {k * kChunk + m - 2, k * kChunk + m - 1, k * kChunk + m, k * kChunk - m}) sizes.push_back(n);
    }
    if (quick) sizes.resize(6);
    const Bytes pattern = random_bytes(m, 4, rng.next());
    StreamSearcher searcher(brute_force_v0, pattern, small_chunks(readers, slots));
    for (std::size_t n : sizes) check_memory(v, searcher, text_with_edges(n, pattern, kChunk, rng.next()), pattern);
  }
}

void edge_inputs(const StreamVersion& v) {
  const auto check = [&](const Bytes& text, const Bytes& pattern) {
    StreamSearcher searcher(brute_force_v0, pattern, small_chunks());
    check_memory(v, searcher, text, pattern);
  };
  // All-equal text: an occurrence at every position, across every edge; m = 1 and a few more.
  const Bytes same(3 * kChunk + 5, 'a');
  for (std::size_t m : {1, 3, 17}) check(same, Bytes(m, 'a'));
  // NUL and 0xFF bytes, straddling every edge.
  const Bytes binary = {0x00, 0xFF, 0x00, 0xFF, 0x80};
  Bytes text = text_with_edges(4 * kChunk + 9, binary, kChunk, 3);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i % 3 == 0) text[i] = 0x00;
    if (i % 5 == 0) text[i] = 0xFF;
  }
  for (std::size_t edge = kChunk; edge < text.size(); edge += kChunk) plant(text, binary, edge - 2);
  check(text, binary);
  // m - 1 longer than a chunk: the chunk grows to m - 1 (the overlap rule).
  const Bytes text_long = random_bytes(3 * 5000 + 17, 2, 4);
  const Bytes long_pattern(text_long.begin() + 4000, text_long.begin() + 9000);
  check(text_long, long_pattern);
  check(text_long, Bytes(text_long.begin() + 100, text_long.begin() + 100 + kChunk + 1));  // m - 1 == C
  check(text_long, text_long);                                                             // m == n
  check(Bytes(text_long.begin(), text_long.end() - 1), text_long);                         // m > n
  check(Bytes(10, 'a'), Bytes(11, 'a'));                                                   // m > n
  check(Bytes{}, Bytes{'a'});                                                              // an empty input
}

// A file read with pread by several readers, and the same file read front to back as a pipe would
// be, against the CPU backend's matcher for the pattern length (EPSM below 16 bytes, SSEF from 16);
// an empty file.
void files_and_pipes(const StreamVersion& v) {
  const std::string path = temp_path("stream");
  for (std::size_t m : {5, 40}) {
    const Bytes pattern = random_bytes(m, 4, m);
    const Bytes text = text_with_edges(6 * kChunk + 123, pattern, kChunk, 7 + m);
    write_file(path, text);
    const auto cpu = make_cpu_matcher(m < 16 ? Algorithm::epsm : Algorithm::ssef, pattern);
    std::vector<std::uint64_t> expected;
    cpu->find_all(text, 0, expected);
    REQUIRE(expected == brute_force_find_all(text, pattern));
    StreamSearcher searcher(brute_force_v0, pattern, small_chunks());
    FileSource file(path);
    check_stream(v, searcher, file, text, pattern);
    for (const bool count_mode : {true, false}) {
      const int fd = ::open(path.c_str(), O_RDONLY);
      REQUIRE(fd >= 0);
      SequentialSource pipe(fd, "the file read front to back", pattern.size() - 1);
      std::vector<std::uint64_t> found;
      const std::uint64_t count =
          count_mode ? searcher.count(v, pipe) : searcher.positions(v, pipe, [&](const std::vector<std::uint64_t>& p) {
            found.insert(found.end(), p.begin(), p.end());
          });
      ::close(fd);
      CHECK(count == expected.size());
      if (!count_mode) CHECK(found == expected);
    }
  }
  write_file(path, {});  // an empty file
  StreamSearcher searcher(brute_force_v0, Bytes{'a'}, small_chunks());
  FileSource empty(path);
  check_stream(v, searcher, empty, Bytes{}, Bytes{'a'});
  std::remove(path.c_str());
}

// A source that fails at its third window.
class FailingSource final : public ByteSource {
 public:
  explicit FailingSource(const Bytes& text) : memory_(text) {}
  std::size_t read(std::uint64_t offset, std::uint8_t* into, std::size_t bytes) override {
    if (offset >= 2 * kChunk) throw FileError("the disk is on fire");
    return memory_.read(offset, into, bytes);
  }
  bool random_access() const override { return true; }
  std::optional<std::uint64_t> size() const override { return memory_.size(); }

 private:
  MemorySource memory_;
};

// A read error stops the search with that error, and the searcher works again afterwards.
void read_errors(const StreamVersion& v) {
  const Bytes pattern = {'a', 'b'};
  const Bytes text = text_with_edges(8 * kChunk, pattern, kChunk, 9);
  StreamSearcher searcher(brute_force_v0, pattern, small_chunks());
  FailingSource failing(text);
  CHECK_THROWS_WITH(searcher.count(v, failing), "the disk is on fire");
  CHECK_THROWS_WITH(searcher.positions(v, failing, [](const std::vector<std::uint64_t>&) {}), "the disk is on fire");
  check_memory(v, searcher, text, pattern);
}

}  // namespace

// The checks of every version, "vN: ..."; [todo] for the starter's v1 and v2.
const struct StreamVersionCases {
  StreamVersionCases() {
    for (std::size_t number = 0; number < stream_versions().size(); ++number) {
      const StreamVersion& v = stream_versions()[number];
      const std::string tags = number == 0 ? "[gpu]" : "[gpu][todo]";
      register_test_case(v.name + ": inputs around the chunk size, occurrences straddling every chunk edge", tags,
                         [&v] { around_the_chunk_size(v); });
      register_test_case(v.name + ": all-equal, binary, long patterns, m > n, an empty input", tags,
                         [&v] { edge_inputs(v); });
      register_test_case(v.name + ": files and pipes give what the CPU backend gives", tags,
                         [&v] { files_and_pipes(v); });
      register_test_case(v.name + ": a read error stops the search, the searcher works again", tags,
                         [&v] { read_errors(v); });
    }
  }
} stream_version_cases;

TEST_CASE("a device budget shrinks the chunks, and one too small for the pattern is refused", "[gpu]") {
  StreamOptions options = small_chunks();
  options.slots = 4;
  options.device_budget = 4 * 1024;  // 1 KiB per slot: windows of 1008 bytes
  const Bytes pattern = {'a', 'c', 'g'};
  StreamSearcher searcher(brute_force_v0, pattern, options);
  CHECK(searcher.plan().window_bytes() == 1008);
  check_memory(version(0), searcher, text_with_edges(10000, pattern, 1006, 11), pattern);
  CHECK_THROWS_WITH(StreamSearcher(brute_force_v0, Bytes(700, 'a'), options),
                    Catch::Contains("pattern of 700 bytes") && Catch::Contains("device budget"));
  CHECK_THROWS_AS(StreamSearcher(brute_force_v0, Bytes{}, options), EmptyPatternError);
}
