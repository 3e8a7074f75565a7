// Lesson 06 - streams. The three stages of processing data that lives on the host: copy a chunk to
// the GPU, compute on it, copy the result back. Each stage is queued on a stream the caller chooses;
// with a Timeline attached, each stage is bracketed by events so the schedule can be printed.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "timeline.hpp"

// A contiguous piece of the data: elements [first, first + count).
struct Chunk {
  std::size_t first = 0;
  std::size_t count = 0;
};

// [0, n) in pieces of `chunk` elements; the last one may be shorter. chunk must be > 0.
std::vector<Chunk> split_into_chunks(std::size_t n, std::size_t chunk);

// The computation: `iterations` steps of a 32-bit linear congruential generator on every element,
// out = f(in). Integer arithmetic, so the CPU reference is exact; the iteration count sets how long
// the kernel runs relative to the copies.
std::uint32_t compute_reference(std::uint32_t value, int iterations);

class Pipeline {
 public:
  // host_in and host_out should be pinned (cudaMallocHost) for copies to overlap with kernels;
  // dev_in and dev_out hold all n elements.
  Pipeline(const std::uint32_t* host_in, std::uint32_t* host_out, std::uint32_t* dev_in, std::uint32_t* dev_out,
           int iterations, Timeline* timeline = nullptr);

  void copy_to_device(const Chunk& chunk, cudaStream_t stream);  // host_in -> dev_in
  void compute(const Chunk& chunk, cudaStream_t stream);         // dev_in -> dev_out
  void copy_to_host(const Chunk& chunk, cudaStream_t stream);    // dev_out -> host_out

 private:
  const std::uint32_t* host_in_;
  std::uint32_t* host_out_;
  std::uint32_t* dev_in_;
  std::uint32_t* dev_out_;
  int iterations_;
  Timeline* timeline_;
};
