// Lesson 10 - launch overhead and CUDA graphs: the searches captured into one graph and replayed.
// SOLUTION.
//
// A search of a 4 MB text takes the GPU about a microsecond or two; queued the plain way it costs
// several times that on the host's clock: a memset, a launch, a cudaMemcpy of the count and the
// synchronization each pay the driver's and the link's latency. Here the whole search (pattern load,
// search kernels, publish of the counts to mapped memory) is one graph, captured once and launched
// with one call per replay; a batch of B searches is the same graph with B searches in it.
#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"
#include "graph_search.hpp"

namespace cudamatch::lesson10 {

void enqueue_searches(const GpuVersion& version, const DeviceText& text, const PatternSlots& slots,
                      const MappedCounts& counts, cudaStream_t stream) {
  // HOLE(10-launch-overhead, batch): every pattern of the batch searched, then one publish of all the counts.
  slots.enqueue_load(stream);
  for (std::size_t p = 0; p < slots.count(); ++p)
    version.enqueue_count(text, slots.slot(p), counts.device() + p, stream);
  counts.enqueue_publish(slots.count(), stream);
  // END HOLE
}

cudaGraph_t capture_searches(const GpuVersion& version, const DeviceText& text, const PatternSlots& slots,
                             const MappedCounts& counts, cudaStream_t stream) {
  // HOLE(10-launch-overhead, capture): capture what enqueue_searches queues into a graph.
  cudaGraph_t graph = nullptr;
  // Thread-local mode: another host thread's unsafe calls (cudaMalloc, ...) do not break this capture.
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    enqueue_searches(version, text, slots, counts, stream);
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);  // leave the stream usable
    if (graph != nullptr) cudaGraphDestroy(graph);
    throw;
  }
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  return graph;
  // END HOLE
}

void instantiate_or_update(GraphExec& exec, cudaGraph_t graph) {
  // HOLE(10-launch-overhead, update): update the executable graph in place, instantiate when it cannot be.
  if (exec) {
    cudaGraphExecUpdateResultInfo info{};
    if (cudaGraphExecUpdate(exec.get(), graph, &info) == cudaSuccess) return;
    cudaGetLastError();  // the refused update is not an error of the next call
  }
  cudaGraphExec_t fresh = nullptr;
  CUDA_CHECK(cudaGraphInstantiateWithFlags(&fresh, graph, 0));
  exec.reset(fresh);
  // END HOLE
}

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
    instantiate_or_update(exec_, graph_.get());
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
    throw std::runtime_error("SearchGraph: the graph did not publish the counts (sequence " +
                             std::to_string(counts_.sequence()) + ", expected " + std::to_string(expected) + ")");
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
