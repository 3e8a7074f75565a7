// Lesson 04 - vectorized loads. Device-to-device copies of n ints that differ only in the width of
// each thread's accesses: 4, 8 or 16 bytes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

// dst[i] = src[i] for i < n, one int per thread: 4-byte loads and stores.
void copy_int(const int* src, int* dst, std::size_t n, cudaStream_t stream = nullptr);
// The same with one int2 (8 bytes) per thread.
void copy_int2(const int* src, int* dst, std::size_t n, cudaStream_t stream = nullptr);
// The same with one int4 (16 bytes) per thread.
void copy_int4(const int* src, int* dst, std::size_t n, cudaStream_t stream = nullptr);
// All three accept any n and any int-aligned src and dst: a vector access needs its address aligned
// to the vector's size, so the ints before the first aligned address and after the last whole vector
// are copied one by one, and when src and dst are not equally misaligned (no vector boundary is
// common to both) the copy falls back to 4-byte accesses.
