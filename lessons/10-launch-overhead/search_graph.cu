// Lesson 10: the given search that captures the searches into a graph and replays it (SearchGraph,
// graph_search.hpp), and `cudamatch`'s counts through it (graph_count, graph_count_batch). Shared by
// both tracks and not editable: the counts and the capture and launch counters that the tests and the
// driver check come from here; what a student writes (graph_search.cu) is the work a replay queues,
// its capture and the update of the executable graph.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cuda_check.hpp"
#include "graph_search.hpp"

namespace cudamatch::lesson10 {

SearchGraph::SearchGraph(const GpuVersion& version, Wait wait) : version_(version), wait_(wait) {}

std::uint64_t SearchGraph::count(const DeviceText& text, ByteView pattern) {
  return count_batch(text, {pattern}).front();
}

std::vector<std::uint64_t> SearchGraph::count_batch(const DeviceText& text, const std::vector<ByteView>& patterns) {
  std::vector<std::uint64_t> found(patterns.size(), 0);
  if (patterns.empty()) return found;
  const std::size_t m = patterns.front().size;
  for (ByteView p : patterns) {
    if (p.size == 0) throw EmptyPatternError();
    if (p.size != m) throw std::invalid_argument("SearchGraph::count_batch: the patterns differ in length");
  }
  if (m > text.size()) return found;

  const bool same_slots = slots_ && slots_->count() == patterns.size() && slots_->m() == m;
  if (!same_slots || text.data() != text_data_ || text.size() != text_size_ || !exec_) {
    counts_.ensure(patterns.size());
    if (!same_slots) slots_ = std::make_unique<PatternSlots>(patterns.size(), m);
    graph_.reset(capture_searches(version_, text, *slots_, counts_, stream_.get()));
    if (!graph_) throw UnfinishedGraphSearch("capture_searches returned no graph");
    if (count_nodes(graph_.get()).kernels == 0) {
      graph_.reset();
      throw UnfinishedGraphSearch("the captured graph has no kernel (enqueue_searches queued nothing)");
    }
    instantiate_or_update(exec_, graph_.get());
    if (!exec_) throw UnfinishedGraphSearch("instantiate_or_update left no executable graph");
    text_data_ = text.data();
    text_size_ = text.size();
    ++captures_;
  }
  slots_->stage(patterns);
  const unsigned long long expected = counts_.sequence() + 1;
  CUDA_CHECK(cudaGraphLaunch(exec_.get(), stream_.get()));
  ++launches_;
  if (wait_ == Wait::poll) {
    counts_.poll_until(expected, stream_.get());
  } else {
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }
  if (counts_.sequence() != expected) {
    // The stream finished without an error (a failed one threw above): the graph holds no publish.
    throw UnfinishedGraphSearch("the graph did not publish the counts (sequence " + std::to_string(counts_.sequence()) +
                                ", expected " + std::to_string(expected) + ")");
  }
  for (std::size_t p = 0; p < patterns.size(); ++p) found[p] = counts_.host()[1 + p];
  return found;
}

namespace {

// One SearchGraph per version and host thread, replayed from search to search.
SearchGraph& graph_of(const GpuVersion& version) {
  thread_local std::vector<std::unique_ptr<SearchGraph>> searches;
  for (const auto& search : searches) {
    if (&search->version() == &version) return *search;
  }
  searches.push_back(std::make_unique<SearchGraph>(version));
  return *searches.back();
}

ByteView host_bytes(const DevicePattern& pattern) { return {pattern.host().data(), pattern.host().size()}; }

}  // namespace

std::uint64_t graph_count(const GpuVersion& version, const DeviceText& text, const DevicePattern& pattern) {
  return graph_of(version).count(text, host_bytes(pattern));
}

std::vector<std::uint64_t> graph_count_batch(const GpuVersion& version, const DeviceText& text,
                                             const std::vector<const DevicePattern*>& patterns) {
  std::vector<ByteView> bytes;
  bytes.reserve(patterns.size());
  for (const DevicePattern* pattern : patterns) bytes.push_back(host_bytes(*pattern));
  return graph_of(version).count_batch(text, bytes);
}

}  // namespace cudamatch::lesson10
