// Lesson 06 - streams.
// STARTER: complete the TODOs in run_async_v1 and run_async_v2.
#include "schedules.hpp"

void run_sequential(Pipeline& pipeline, std::size_t n, cudaStream_t stream) {
  const Chunk all{0, n};
  pipeline.copy_to_device(all, stream);
  pipeline.compute(all, stream);
  pipeline.copy_to_host(all, stream);
}

void run_async_v1(Pipeline& pipeline, const std::vector<Chunk>& chunks, const std::vector<cudaStream_t>& streams) {
  // TODO(06-streams, version 1): one chunk after the other, each on its own stream.
  //   For chunk i, take stream s = streams[i % streams.size()] and queue on it, in this order:
  //   pipeline.copy_to_device(chunk, s), pipeline.compute(chunk, s), pipeline.copy_to_host(chunk, s).
  //   Work in one stream runs in order; work in different streams may overlap, so chunk i's kernel
  //   can run while chunk i+1 is being copied in.
  (void)pipeline, (void)chunks, (void)streams;
}

void run_async_v2(Pipeline& pipeline, const std::vector<Chunk>& chunks, const std::vector<cudaStream_t>& streams) {
  // TODO(06-streams, version 2): the same stages, queued stage by stage.
  //   Three loops over the chunks, each chunk i on streams[i % streams.size()]: first every
  //   copy_to_device, then every compute, then every copy_to_host. Within each stream the order of a
  //   chunk's stages is unchanged; only the order of issue across streams differs from version 1.
  (void)pipeline, (void)chunks, (void)streams;
}
