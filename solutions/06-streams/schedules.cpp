// Lesson 06 - streams.
// SOLUTION.
#include "schedules.hpp"

void run_sequential(Pipeline& pipeline, std::size_t n, cudaStream_t stream) {
  const Chunk all{0, n};
  pipeline.copy_to_device(all, stream);
  pipeline.compute(all, stream);
  pipeline.copy_to_host(all, stream);
}

void run_async_v1(Pipeline& pipeline, const std::vector<Chunk>& chunks, const std::vector<cudaStream_t>& streams) {
  // HOLE(06-streams, version 1): one chunk after the other, each on its own stream.
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    cudaStream_t s = streams[i % streams.size()];
    pipeline.copy_to_device(chunks[i], s);
    pipeline.compute(chunks[i], s);
    pipeline.copy_to_host(chunks[i], s);
  }
  // END HOLE
}

void run_async_v2(Pipeline& pipeline, const std::vector<Chunk>& chunks, const std::vector<cudaStream_t>& streams) {
  // HOLE(06-streams, version 2): the same stages, queued stage by stage.
  for (std::size_t i = 0; i < chunks.size(); ++i) pipeline.copy_to_device(chunks[i], streams[i % streams.size()]);
  for (std::size_t i = 0; i < chunks.size(); ++i) pipeline.compute(chunks[i], streams[i % streams.size()]);
  for (std::size_t i = 0; i < chunks.size(); ++i) pipeline.copy_to_host(chunks[i], streams[i % streams.size()]);
  // END HOLE
}
