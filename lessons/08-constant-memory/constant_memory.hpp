// Lesson 08 - constant memory. Two small kernels, each in three versions that differ only in where
// one small read-only array lives: __constant__ memory, shared memory, or global memory (read through
// L1 and the read-only path).
//
//   count_matches_*: how often a pattern occurs in a text (brute force, one window start per thread at
//     a time). In every step of the comparison all threads of a warp read the same pattern byte: the
//     broadcast case, the one constant memory is built for.
//   lookup_sum_*: the sum of table[b] over every byte b of a text (a 256-entry table of 32-bit values).
//     The threads of a warp read the entries of 32 different bytes at once: the divergent case, in
//     which constant memory serves one address per pass.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

inline constexpr unsigned kMaxPattern = 1024;  // the longest pattern: 1 KiB of the 64 KiB of constant memory
inline constexpr unsigned kTableSize = 256;    // one table entry per byte value

// --- The broadcast case: counting the occurrences of a pattern -------------------------------------
// Each writes the number of occurrences of pattern[0, m) in text[0, n) (overlapping ones included) to
// *count (device memory), in `stream`. Throw std::invalid_argument when m is 0 or above kMaxPattern.
// A text shorter than the pattern has no occurrence (*count = 0, no kernel launched).

// The pattern is read from global memory (`pattern` is a device pointer).
void count_matches_global(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, unsigned m,
                          unsigned long long* count, cudaStream_t stream = nullptr);
// Each block copies the pattern into shared memory first.
void count_matches_shared(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, unsigned m,
                          unsigned long long* count, cudaStream_t stream = nullptr);
// Copies host_pattern[0, m) to the pattern in constant memory (once per pattern, before the searches).
void set_constant_pattern(const std::uint8_t* host_pattern, unsigned m);
// The pattern is the one set_constant_pattern copied to constant memory; m is its length.
void count_matches_constant(const std::uint8_t* text, std::size_t n, unsigned m, unsigned long long* count,
                            cudaStream_t stream = nullptr);

// --- The divergent case: looking bytes up in a table ----------------------------------------------
// Each writes the sum of table[text[i]] for i in [0, n) to *sum (device memory), in `stream`. `text`
// must be 16-byte aligned (as cudaMalloc's pointers are): it is read 16 bytes at a time. Throw
// std::invalid_argument otherwise.

// The table (kTableSize entries, device memory) is read from global memory.
void lookup_sum_global(const std::uint8_t* text, std::size_t n, const std::uint32_t* table, unsigned long long* sum,
                       cudaStream_t stream = nullptr);
// Each block copies the table into shared memory first.
void lookup_sum_shared(const std::uint8_t* text, std::size_t n, const std::uint32_t* table, unsigned long long* sum,
                       cudaStream_t stream = nullptr);
// Copies host_table[0, kTableSize) to the table in constant memory.
void set_constant_table(const std::uint32_t* host_table);
// The table is the one set_constant_table copied to constant memory.
void lookup_sum_constant(const std::uint8_t* text, std::size_t n, unsigned long long* sum,
                         cudaStream_t stream = nullptr);
