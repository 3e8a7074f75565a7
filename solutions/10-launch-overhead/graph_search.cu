// Lesson 10 - launch overhead and CUDA graphs: the searches captured into one graph and replayed.
// SOLUTION.
//
// A search of a 4 MB text takes the GPU about a microsecond or two; queued the plain way it costs
// several times that on the host's clock: a memset, a launch, a cudaMemcpy of the count and the
// synchronization each pay the driver's and the link's latency. Here the whole search (pattern load,
// search kernels, publish of the counts to mapped memory) is one graph, captured once and launched
// with one call per replay; a batch of B searches is the same graph with B searches in it. The
// search that captures and replays the graph (SearchGraph) is given, in search_graph.cu.
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

}  // namespace cudamatch::lesson10
