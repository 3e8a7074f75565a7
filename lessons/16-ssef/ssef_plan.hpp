// Lesson 16: how SSEF cuts the text into blocks and the pattern into table entries. Every version
// shares this plan; the host builds it from the pattern (ssef_plan.cpp) and the kernels take it by value.
//
// The text is cut into blocks of B bytes aligned to its start. Every occurrence of a pattern of length
// m >= 2B - 1 contains L = floor((m - B + 1) / B) >= 1 whole blocks, so SSEF examines only every L-th
// block: the blocks at o = 0, step, 2 step, ... with step = B L. A block's fingerprint is 16 bits
// taken from its bytes; the table maps a fingerprint to the pattern offsets r < step whose B bytes
// p[r, r + B) have it, and the examined block at o proposes the alignments s = o - r of its bucket.
// Since r < step, every alignment s is proposed by exactly one examined block, the first one inside
// the occurrence, so no occurrence is found twice.
//
// Block sizes (as the CPU reference common/matchers/ssef.cpp, which keeps fingerprints of 16 bits):
//   m >= 31: B = 16, one chosen bit of each byte (the published SSEF, which needs m >= 32);
//   15..30:  B = 8, two chosen bits of each byte;   7..14: B = 4, four chosen bits of each byte;
//   3..6:    B = 2, the two bytes themselves;
//   1, 2:    B = 1, the byte itself (L = m). The CPU reference hands these to EPSM; the GPU versions
//            keep one algorithm for every m.
// The bits come from the pattern's statistics (ssef_fingerprint_bits, common/matchers/ssef.hpp): the
// bit whose 0/1 split over the pattern bytes is the most even first. The published fixed bit 7 is 0 in
// every ASCII byte: all English or DNA blocks then share one fingerprint and the filter passes every
// block (the side program 16-ssef-filter counts it).
//
// The table holds at most kMaxEntries offsets, so that the GPU can sort them in one block's shared
// memory (ssef_table.cu): for m > 4111 L stays at 256 (a block examined every 4096 bytes). Any L' <= L
// keeps the argument above (a block at offset r < B L' <= m - B + 1 of an occurrence lies inside it).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/byte_view.hpp"

namespace cudamatch::lesson16 {

constexpr std::uint32_t kBuckets = 65536;  // 16-bit fingerprints
constexpr std::uint32_t kMaxEntries = 4096;

struct Plan {
  std::uint32_t block;   // B: 1, 2, 4, 8 or 16 bytes
  std::uint32_t stride;  // L: every L-th block is examined
  std::uint32_t step;    // B L: bytes from one examined block to the next, and the number of table entries
  // B >= 4: the fingerprint's bit u B + q is bit bits[u] of the block's byte q (u < 16 / B, q < B).
  std::uint8_t bits[4];
  // The same fingerprint computed four bits at a time from the block's 32-bit words: its bits 4i..4i+3
  // are bit nibble_bit[i] of the four bytes of the block's word nibble_word[i] (fingerprint_in_vector).
  std::uint8_t nibble_word[4];
  std::uint8_t nibble_bit[4];
};

// The plan for `pattern` (m >= 1), with the fingerprint bits chosen from its bytes.
Plan make_plan(ByteView pattern);

// The plan for a pattern of length m >= 1 with the given bits (16 / B of them for B >= 4, ignored
// for B <= 2): the published bit 7 against the chosen one (16-ssef-filter, the tests).
Plan make_plan_with_bits(std::size_t m, const std::vector<int>& bits);

// The fingerprint of the B bytes at `block`, by the definition above (the host's reference).
std::uint32_t fingerprint(const Plan& plan, const std::uint8_t* block);

// v0's table, built on the host: bucket f is the list head[f], next[head[f]], ... (-1 ends it), the
// offsets r with fingerprint f in decreasing order.
struct LinkedTable {
  std::vector<std::int32_t> head;  // kBuckets entries
  std::vector<std::int32_t> next;  // plan.step entries
};
LinkedTable build_linked_table(const Plan& plan, ByteView pattern);

// The compressed-sparse-row table of v1 and v2, here as the host's reference for the GPU build:
// bucket f holds entries[offsets[f], offsets[f + 1]), decreasing; nonempty has bit f of word f / 32 set
// when bucket f holds an entry.
struct HostCsrTable {
  std::vector<std::uint32_t> nonempty;  // kBuckets / 32
  std::vector<std::uint32_t> offsets;   // kBuckets + 1
  std::vector<std::uint32_t> entries;   // plan.step
};
HostCsrTable build_csr_table(const Plan& plan, ByteView pattern);

// What the filter lets through on one text (host count, for the lesson's table and the tests).
struct FilterCounts {
  std::uint64_t examined = 0;    // blocks fingerprinted
  std::uint64_t hits = 0;        // of them, blocks whose bucket is not empty
  std::uint64_t proposed = 0;    // alignments proposed by the buckets (inside the text): verifications
  std::uint64_t same_block = 0;  // of them, alignments whose block equals the pattern bytes it faces
  std::uint64_t occurrences = 0;
};
FilterCounts count_filter(const Plan& plan, ByteView pattern, ByteView text);

// ---- Shared by the host and the kernels -------------------------------------------------------------

// The offset of the last examined block in a text of n >= m bytes: a block must lie inside the text,
// and a block past (n - m) + step - 1 could only propose alignments past n - m. Examined blocks:
// o = 0, step, ..., up to it (last_block / step + 1 of them).
__host__ __device__ inline std::size_t last_block(const Plan& plan, std::size_t n, std::size_t m) {
  const std::size_t inside_text = n - plan.block;
  const std::size_t useful = n - m + plan.step - 1;
  return inside_text < useful ? inside_text : useful;
}

__host__ __device__ inline std::uint32_t word_at(const uint4& v, unsigned k) {
  return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}

// Bit `bit` of each of the four bytes of `word`, gathered into four bits (byte q to bit q): the four
// bits, masked to bit 0 of their bytes, sit at bits 0, 8, 16, 24; the multiplication adds copies of
// the word shifted by 7, 14, 21 and 28, which put byte q's bit at 28 + q without two copies ever
// landing on one bit (no carries).
__host__ __device__ inline std::uint32_t gather_bit(std::uint32_t word, unsigned bit) {
  return (((word >> bit) & 0x01010101u) * 0x10204080u) >> 28;
}

// The fingerprint of the block that starts at byte `at` (a multiple of B) of the 16 bytes in `v`.
__host__ __device__ inline std::uint32_t fingerprint_in_vector(const Plan& plan, const uint4& v, unsigned at) {
  const std::uint32_t word = word_at(v, at / 4);
  if (plan.block == 1) return (word >> (8 * (at % 4))) & 0xffu;
  if (plan.block == 2) return (word >> (8 * (at % 4))) & 0xffffu;
  std::uint32_t fp = 0;
  for (unsigned i = 0; i < 4; ++i) {
    fp |= gather_bit(word_at(v, at / 4 + plan.nibble_word[i]), plan.nibble_bit[i]) << (4 * i);
  }
  return fp;
}

}  // namespace cudamatch::lesson16
