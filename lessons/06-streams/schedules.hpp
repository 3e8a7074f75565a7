// Lesson 06 - streams. The schedules the student writes: the order in which the stages of every
// chunk are queued, and on which streams. Each function only queues work; the caller synchronizes.
#pragma once

#include <vector>

#include "pipeline.hpp"

// Everything in one stream: all data over, one kernel, all results back. Nothing overlaps.
void run_sequential(Pipeline& pipeline, std::size_t n, cudaStream_t stream);

// Version 1: for each chunk, copy in, compute, copy out, all three on stream (chunk index mod the
// number of streams).
void run_async_v1(Pipeline& pipeline, const std::vector<Chunk>& chunks, const std::vector<cudaStream_t>& streams);

// Version 2: first every chunk's copy in, then every chunk's kernel, then every chunk's copy out, each
// chunk on the same stream as in version 1.
void run_async_v2(Pipeline& pipeline, const std::vector<Chunk>& chunks, const std::vector<cudaStream_t>& streams);
