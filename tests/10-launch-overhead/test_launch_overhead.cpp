// Lesson 10 - launch overhead and CUDA graphs. [todo] marks the tests of the starter's TODOs: the
// searches queued for one graph (batch), their capture (capture), the update in place (update). The
// point is checked without timing: the graph's nodes (one pattern load, the searches, one publish,
// nothing but kernels: no memset, no copy), one launch per batch, replays for new patterns without a
// new capture, and every count against the CPU brute force.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "common/brute_force.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "engine/brute_force_v0.hpp"
#include "graph_search.hpp"

using namespace cudamatch;
using namespace cudamatch::lesson10;

namespace {

// `count` patterns of m bytes, two in three cut from the text (many matches), the others from `noise`
// (which must hold at least m bytes; it stands in for the text when the text is shorter than m).
std::vector<ByteView> draw(const std::vector<std::uint8_t>& text, const std::vector<std::uint8_t>& noise, std::size_t m,
                           std::size_t count, Rng& rng) {
  REQUIRE(noise.size() >= m);
  std::vector<ByteView> patterns;
  for (std::size_t i = 0; i < count; ++i) {
    const std::vector<std::uint8_t>& from = (i % 3 == 2 || text.size() < m) ? noise : text;
    patterns.emplace_back(from.data() + rng.below(from.size() - m + 1), m);
  }
  return patterns;
}

// The kernel nodes one search of `version` adds to a graph (a version may launch more than one kernel).
std::size_t kernels_per_search(const GpuVersion& version, const DeviceText& text, std::size_t m) {
  PatternSlots one(1, m);
  MappedCounts counts;
  counts.ensure(1);
  CudaStream stream;
  CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  version.enqueue_count(text, one.slot(0), counts.device(), stream.get());
  cudaGraph_t raw = nullptr;
  CUDA_CHECK(cudaStreamEndCapture(stream.get(), &raw));
  const Graph graph(raw);
  return count_nodes(graph.get()).kernels;
}

}  // namespace

TEST_CASE("the publish kernel copies the counters to mapped memory, zeroes them and bumps the sequence", "[gpu]") {
  MappedCounts counts;
  counts.ensure(70);
  CudaStream stream;
  std::vector<unsigned long long> values(70);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 1000 + 7 * i;
  CUDA_CHECK(cudaMemcpy(counts.device(), values.data(), 70 * sizeof(unsigned long long), cudaMemcpyHostToDevice));
  const unsigned long long before = counts.sequence();
  counts.enqueue_publish(70, stream.get());
  counts.poll_until(before + 1, stream.get());
  CHECK(counts.sequence() == before + 1);
  for (std::size_t i = 0; i < values.size(); ++i) CHECK(counts.host()[1 + i] == values[i]);
  std::vector<unsigned long long> after(70, 99);
  CUDA_CHECK(cudaMemcpy(after.data(), counts.device(), 70 * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  CHECK(std::all_of(after.begin(), after.end(), [](unsigned long long v) { return v == 0; }));
}

TEST_CASE("the load kernel copies staged patterns into their slots", "[gpu]") {
  for (std::size_t m : {std::size_t{1}, std::size_t{7}, std::size_t{129}, std::size_t{1000}}) {
    PatternSlots slots(5, m);
    std::vector<std::vector<std::uint8_t>> patterns;
    std::vector<ByteView> views;
    for (std::size_t p = 0; p < 5; ++p) {
      patterns.push_back(random_bytes(m, 256, 100 + p + m));
      views.emplace_back(patterns.back().data(), m);
    }
    slots.stage(views);
    slots.enqueue_load(nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (std::size_t p = 0; p < 5; ++p) {
      std::vector<std::uint8_t> back(m, 0xA5);
      CUDA_CHECK(cudaMemcpy(back.data(), slots.slot(p).data(), m, cudaMemcpyDeviceToHost));
      CHECK(back == patterns[p]);
    }
  }
}

TEST_CASE("a captured search is one graph of kernels: load, search, publish", "[gpu][todo]") {
  const auto text_bytes = random_bytes(100'003, 4, 10);
  const DeviceText text(text_bytes);
  for (std::size_t m : {std::size_t{1}, std::size_t{5}, std::size_t{64}}) {
    INFO("m = " << m);
    const std::size_t per_search = kernels_per_search(brute_force_v0, text, m);
    SearchGraph search(brute_force_v0);
    const std::uint64_t found = search.count(text, ByteView(text_bytes.data() + 17, m));
    CHECK(found == brute_force_count(text_bytes, ByteView(text_bytes.data() + 17, m)));
    REQUIRE(search.graph() != nullptr);
    const NodeCounts nodes = count_nodes(search.graph());
    CHECK(nodes.kernels == 1 + per_search + 1);  // the load, the search, the publish
    CHECK(nodes.others == 0);                    // no memset, no memcpy: the count arrives in mapped memory
    CHECK(search.captures() == 1);
    CHECK(search.launches() == 1);
  }
}

TEST_CASE("replays with new patterns give their counts without a new capture", "[gpu][todo]") {
  Rng rng(1010);
  const auto noise = random_bytes(70'000, 3, 11);
  for (std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{4099}, std::size_t{65'537}}) {
    const auto text_bytes = random_bytes(n, 3, 12 + n);
    const DeviceText text(text_bytes);
    for (std::size_t m : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{17}, n, n + 1}) {
      INFO("n = " << n << ", m = " << m);
      SearchGraph search(brute_force_v0);
      const auto patterns = draw(text_bytes, noise, m, 12, rng);
      for (ByteView p : patterns) CHECK(search.count(text, p) == brute_force_count(text_bytes, p));
      if (m <= n) {
        CHECK(search.captures() == 1);
        CHECK(search.launches() == 12);
      }
    }
  }
}

TEST_CASE("polling the mapped counts gives the same counts as synchronizing", "[gpu][todo]") {
  Rng rng(1011);
  const auto text_bytes = random_bytes(50'001, 2, 13);
  const auto noise = random_bytes(64, 2, 14);
  const DeviceText text(text_bytes);
  SearchGraph polled(brute_force_v0, Wait::poll);
  for (ByteView p : draw(text_bytes, noise, 6, 9, rng)) {
    const std::uint64_t found = polled.count(text, p);
    REQUIRE(found == brute_force_count(text_bytes, p));
  }
}

TEST_CASE("a new text or pattern length updates the executable graph in place", "[gpu][todo]") {
  Rng rng(1012);
  const auto noise = random_bytes(512, 256, 15);
  const auto long_bytes = random_bytes(20'011, 4, 16);
  const DeviceText long_text(long_bytes);
  const auto short_bytes = random_bytes(3'001, 4, 17);
  const DeviceText short_text(short_bytes);
  SearchGraph search(brute_force_v0);
  const ByteView first(long_bytes.data() + 5, 4);
  CHECK(search.count(long_text, first) == brute_force_count(long_bytes, first));
  const cudaGraphExec_t exec = search.exec();
  REQUIRE(exec != nullptr);
  // Another text and another pattern length: same topology, new kernel parameters. The executable graph
  // is checked after each capture: one instantiated anew may reuse the address of one freed before it,
  // so a check at the end alone could be fooled.
  for (const auto* bytes : {&short_bytes, &long_bytes, &short_bytes}) {
    const DeviceText& text = bytes == &short_bytes ? short_text : long_text;
    for (std::size_t m : {std::size_t{3}, std::size_t{9}}) {
      for (ByteView p : draw(*bytes, noise, m, 3, rng)) CHECK(search.count(text, p) == brute_force_count(*bytes, p));
      CHECK(search.exec() == exec);  // updated, never instantiated anew
    }
  }
  CHECK(search.captures() == 7);
}

TEST_CASE("instantiate_or_update moves a new graph's parameters into the executable graph", "[gpu][todo]") {
  const auto a_bytes = random_bytes(9'999, 2, 18);
  const auto b_bytes = random_bytes(7'777, 2, 19);
  const DeviceText a(a_bytes), b(b_bytes);
  PatternSlots slots(1, 3);
  MappedCounts counts;
  counts.ensure(1);
  CudaStream stream;
  const std::vector<ByteView> pattern{ByteView(b_bytes.data() + 100, 3)};
  slots.stage(pattern);
  GraphExec exec;
  Graph first(capture_searches(brute_force_v0, a, slots, counts, stream.get()));
  REQUIRE(first != nullptr);
  instantiate_or_update(exec, first.get());
  const cudaGraphExec_t handle = exec.get();
  Graph second(capture_searches(brute_force_v0, b, slots, counts, stream.get()));
  instantiate_or_update(exec, second.get());
  CHECK(exec.get() == handle);
  const unsigned long long expected = counts.sequence() + 1;
  CUDA_CHECK(cudaGraphLaunch(exec.get(), stream.get()));
  stream.synchronize();
  REQUIRE(counts.sequence() == expected);
  CHECK(counts.host()[1] == brute_force_count(b_bytes, pattern.front()));  // the second text's count
}

TEST_CASE("a batch is one graph with every search and one publish, launched once", "[gpu][todo]") {
  Rng rng(1013);
  const auto noise = random_bytes(2048, 4, 20);
  const auto text_bytes = random_bytes(40'009, 4, 21);
  const DeviceText text(text_bytes);
  for (std::size_t batch : {std::size_t{1}, std::size_t{2}, std::size_t{37}, std::size_t{64}, std::size_t{65}}) {
    for (std::size_t m : {std::size_t{1}, std::size_t{4}, std::size_t{33}}) {
      INFO("batch " << batch << ", m = " << m);
      const std::size_t per_search = kernels_per_search(brute_force_v0, text, m);
      SearchGraph search(brute_force_v0);
      for (int round = 0; round < 2; ++round) {  // the second round replays with new patterns
        const auto patterns = draw(text_bytes, noise, m, batch, rng);
        const std::vector<std::uint64_t> found = search.count_batch(text, patterns);
        REQUIRE(found.size() == batch);
        for (std::size_t p = 0; p < batch; ++p) CHECK(found[p] == brute_force_count(text_bytes, patterns[p]));
      }
      CHECK(search.launches() == 2);
      CHECK(search.captures() == 1);
      REQUIRE(search.graph() != nullptr);
      const NodeCounts nodes = count_nodes(search.graph());
      CHECK(nodes.kernels == 1 + batch * per_search + 1);
      CHECK(nodes.others == 0);
    }
  }
}

TEST_CASE("an empty pattern is an error, a pattern longer than the text finds nothing without a search", "[gpu]") {
  const auto text_bytes = random_bytes(10, 2, 22);
  const DeviceText text(text_bytes);
  SearchGraph search(brute_force_v0);
  CHECK_THROWS_AS(search.count(text, ByteView(text_bytes.data(), 0)), EmptyPatternError);
  const auto long_pattern = random_bytes(11, 2, 23);
  CHECK(search.count(text, long_pattern) == 0);
  CHECK(search.launches() == 0);
  const DeviceText empty(ByteView(text_bytes.data(), 0));
  CHECK(search.count(empty, ByteView(text_bytes.data(), 1)) == 0);
}

TEST_CASE("cudamatch's counts: graph_count and graph_count_batch give brute force's counts", "[gpu][todo]") {
  // The functions `cudamatch` calls (lesson.json, "graph_search"): one pattern per replay, and every
  // pattern of a length in one replay; patterns of two lengths in one batch are an error.
  Rng rng(1017);
  const auto noise = random_bytes(2048, 4, 24);
  const auto text_bytes = random_bytes(30'011, 4, 25);
  const DeviceText text(text_bytes);
  for (std::size_t m : {std::size_t{1}, std::size_t{5}, std::size_t{40}}) {
    for (int round = 0; round < 2; ++round) {  // the second round replays the graphs of the first
      const auto drawn = draw(text_bytes, noise, m, 37, rng);
      std::vector<DevicePattern> patterns;
      for (ByteView p : drawn) patterns.emplace_back(p);
      std::vector<const DevicePattern*> batch;
      for (const DevicePattern& p : patterns) batch.push_back(&p);
      const std::vector<std::uint64_t> found = graph_count_batch(brute_force_v0, text, batch);
      REQUIRE(found.size() == drawn.size());
      for (std::size_t p = 0; p < drawn.size(); ++p) {
        INFO("m = " << m << ", pattern " << p);
        const std::uint64_t expected = brute_force_count(text_bytes, drawn[p]);
        CHECK(found[p] == expected);
        if (p < 3) CHECK(graph_count(brute_force_v0, text, patterns[p]) == expected);
      }
    }
  }
  const DevicePattern one(ByteView(noise.data(), 1)), two(ByteView(noise.data(), 2));
  CHECK_THROWS_AS(graph_count_batch(brute_force_v0, text, {&one, &two}), std::invalid_argument);
  CHECK(graph_count_batch(brute_force_v0, text, {}).empty());
}
