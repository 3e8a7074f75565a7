// Lesson 10 - launch overhead and CUDA graphs: one search of a few megabytes, end to end, in a few
// microseconds. The search is any GPU version's count (engine/gpu_matcher.hpp; the lesson uses the
// engine's given brute force, `cudamatch` its best brute force). The pieces:
//   given (launch_steps.cu): the empty kernel, the mapped counters that a publish kernel copies the
//     counts into (host memory the GPU writes: no cudaMemcpy to read a count), the pinned staging
//     that the load kernel copies each search's pattern bytes from, the graph owners;
//   yours (graph_search.cu): the capture of the searches into one graph, its instantiation or update,
//     and the searches of a batch queued into that one graph;
//   given (search_graph.cu): SearchGraph, which captures with your functions and replays, and
//     graph_count and graph_count_batch, `cudamatch`'s counts through it.
// SearchGraph replays the graph it captured while the text, its length, the pattern length and the
// batch size stay the same: a new pattern is new bytes in the staging, not a new graph.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/buffers.hpp"
#include "common/byte_view.hpp"
#include "engine/device_text.hpp"
#include "engine/gpu_matcher.hpp"

namespace cudamatch::lesson10 {

// ---- given (launch_steps.cu) ----

// One empty kernel <<<1, 1>>> in `stream`: the cost of a launch with no work.
void launch_empty(cudaStream_t stream);

// Counters on the device, zero between searches, and the mapped host memory a publish kernel copies
// them to: host()[0] is a sequence number the publish kernel increments after writing the counts to
// host()[1 .. size]. Pinned and mapped (cudaHostAllocMapped): the GPU writes it over the link, the
// host reads it without a copy.
class MappedCounts {
 public:
  MappedCounts() = default;
  MappedCounts(const MappedCounts&) = delete;
  MappedCounts& operator=(const MappedCounts&) = delete;
  ~MappedCounts();
  // Room for `size` counters (keeps what is there when it has room already).
  void ensure(std::size_t size);
  unsigned long long* device() const { return device_.data(); }
  // The count of search p after the publish kernel ran: host()[1 + p]; host()[0] the sequence number.
  const volatile unsigned long long* host() const { return host_; }
  unsigned long long sequence() const { return host_[0]; }

  // Queues the publish kernel: counters 0 .. size - 1 to host()[1 ..], each set back to zero, then
  // the sequence number incremented. One small kernel instead of a memset before the search and a
  // cudaMemcpy after it.
  void enqueue_publish(std::size_t size, cudaStream_t stream) const;
  // Waits until host()[0] reaches `sequence` by polling the mapped memory (no CUDA call while it
  // spins); throws CudaError when `stream` failed, std::runtime_error after `timeout_s` seconds.
  void poll_until(unsigned long long sequence, cudaStream_t stream, double timeout_s = 10.0) const;

 private:
  DeviceBuffer<unsigned long long> device_;  // [0, size): counters; [size]: the sequence number
  unsigned long long* host_ = nullptr;
  unsigned long long* host_on_device_ = nullptr;
  std::size_t size_ = 0;
};

// Pattern slots for a batch of `count` patterns of m bytes: pinned host staging the host fills, and
// one DevicePattern per slot whose bytes the load kernel overwrites from the staging (fixed device
// addresses, so a graph that reads them can be replayed for new patterns).
class PatternSlots {
 public:
  PatternSlots(std::size_t count, std::size_t m);
  std::size_t count() const { return slots_.size(); }
  std::size_t m() const { return m_; }
  const DevicePattern& slot(std::size_t p) const { return slots_.at(p); }
  // Copies `patterns` (count() of them, m bytes each) into the staging: host work, no CUDA call.
  void stage(const std::vector<ByteView>& patterns);
  // Queues the load kernel: every staged pattern into its slot.
  void enqueue_load(cudaStream_t stream) const;

 private:
  std::size_t m_;
  std::vector<DevicePattern> slots_;
  PinnedBuffer<std::uint8_t> staging_;  // count x m bytes, mapped
  std::uint8_t* staging_on_device_ = nullptr;
  DeviceBuffer<std::uint8_t*> destinations_;  // each slot's device bytes
};

// Owners of a graph and of an executable graph (reset(handle) replaces and destroys).
struct GraphDeleter {
  void operator()(cudaGraph_t graph) const { cudaGraphDestroy(graph); }
};
struct GraphExecDeleter {
  void operator()(cudaGraphExec_t exec) const { cudaGraphExecDestroy(exec); }
};
using Graph = std::unique_ptr<std::remove_pointer_t<cudaGraph_t>, GraphDeleter>;
using GraphExec = std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, GraphExecDeleter>;

// How many nodes of `graph` are kernels, and how many are anything else (memcpy, memset, host, ...).
struct NodeCounts {
  std::size_t kernels = 0;
  std::size_t others = 0;
};
NodeCounts count_nodes(cudaGraph_t graph);

// ---- yours (graph_search.cu) ----

// What one replay runs, queued in `stream`: the patterns loaded into their slots, one count search
// per slot with `version` into counts.device()[p], and one publish of all the counts.
void enqueue_searches(const GpuVersion& version, const DeviceText& text, const PatternSlots& slots,
                      const MappedCounts& counts, cudaStream_t stream);

// The work that enqueue_searches queues, captured from `stream` into a graph (nothing runs).
cudaGraph_t capture_searches(const GpuVersion& version, const DeviceText& text, const PatternSlots& slots,
                             const MappedCounts& counts, cudaStream_t stream);

// Makes `exec` run `graph`: instantiates it when `exec` is empty, else updates the executable graph in
// place (cudaGraphExecUpdate: same topology, new kernel parameters) and instantiates anew only when
// the update is refused.
void instantiate_or_update(GraphExec& exec, cudaGraph_t graph);

// ---- the search (search_graph.cu, given) ----

enum class Wait { synchronize, poll };

// Thrown by SearchGraph when the functions above are unfinished: capture_searches gave no graph, the
// graph holds no kernel, instantiate_or_update left no executable graph, or a replay that ran without
// a CUDA error published no counts. (A failed CUDA call throws CudaError instead.) `cudamatch` then
// counts with the engine's gpu_count (lesson.json, "graph_search" "unfinished").
class UnfinishedGraphSearch : public std::runtime_error {
 public:
  explicit UnfinishedGraphSearch(const std::string& what)
      : std::runtime_error("lesson 10's graph search is unfinished: " + what) {}
};

class SearchGraph {
 public:
  explicit SearchGraph(const GpuVersion& version, Wait wait = Wait::synchronize);

  // The number of occurrences of `pattern` in `text`. Replays the graph when the text (its address
  // and length), m and the batch size are those of the graph; captures (and updates) otherwise.
  // Throws EmptyPatternError for an empty pattern; a pattern longer than the text has no occurrence.
  // Throws UnfinishedGraphSearch when capture_searches, instantiate_or_update or enqueue_searches
  // is unfinished (see above).
  std::uint64_t count(const DeviceText& text, ByteView pattern);
  // The counts of patterns that all have the same length: one graph, one launch, one wait.
  std::vector<std::uint64_t> count_batch(const DeviceText& text, const std::vector<ByteView>& patterns);

  // For the tests and the driver: the graph last captured, how often the searches were captured and
  // launched.
  cudaGraph_t graph() const { return graph_.get(); }
  cudaGraphExec_t exec() const { return exec_.get(); }
  int captures() const { return captures_; }
  int launches() const { return launches_; }
  cudaStream_t stream() const { return stream_.get(); }
  const GpuVersion& version() const { return version_; }

 private:
  const GpuVersion& version_;
  Wait wait_;
  CudaStream stream_;
  MappedCounts counts_;
  std::unique_ptr<PatternSlots> slots_;  // the current batch size and m
  Graph graph_;
  GraphExec exec_;
  const std::uint8_t* text_data_ = nullptr;
  std::size_t text_size_ = 0;
  int captures_ = 0;
  int launches_ = 0;
  unsigned long long sequence_ = 0;
};

// `cudamatch`'s count of one pattern in a text on the GPU (lessons/10-launch-overhead/lesson.json,
// "graph_search"): a SearchGraph per version and host thread, replayed from search to search. Throws
// UnfinishedGraphSearch as SearchGraph::count does.
std::uint64_t graph_count(const GpuVersion& version, const DeviceText& text, const DevicePattern& pattern);

// `cudamatch`'s counts of several patterns of one length ("graph_search" "batch"): all their searches in
// one graph, one launch, one wait (SearchGraph::count_batch), with graph_count's SearchGraph of `version`.
// Throws as SearchGraph::count_batch does (std::invalid_argument for patterns of different lengths).
std::vector<std::uint64_t> graph_count_batch(const GpuVersion& version, const DeviceText& text,
                                             const std::vector<const DevicePattern*>& patterns);

}  // namespace cudamatch::lesson10
