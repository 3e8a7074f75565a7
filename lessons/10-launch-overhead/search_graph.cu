// Lesson 10: the given search that captures the searches into a graph and replays it (SearchGraph,
// graph_search.hpp), and `cudamatch`'s count through it (graph_count). Shared by both tracks and not
// editable: the counts and the capture and launch counters that the tests and the driver check come
// from here; what a student writes (graph_search.cu) is the work a replay queues, its capture and
// the update of the executable graph.
#include <stdexcept>
#include <string>

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

std::uint64_t graph_count(const GpuVersion& version, const DeviceText& text, const DevicePattern& pattern) {
  thread_local std::vector<std::unique_ptr<SearchGraph>> searches;  // one per version
  for (const auto& search : searches) {
    if (&search->version() == &version) {
      return search->count(text, ByteView(pattern.host().data(), pattern.host().size()));
    }
  }
  searches.push_back(std::make_unique<SearchGraph>(version));
  return searches.back()->count(text, ByteView(pattern.host().data(), pattern.host().size()));
}

}  // namespace cudamatch::lesson10
