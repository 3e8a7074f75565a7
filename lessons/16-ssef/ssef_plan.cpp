// Lesson 16: the plan and the host-built tables (ssef_plan.hpp says what they are).
#include "ssef_plan.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "common/matchers/ssef.hpp"

namespace cudamatch::lesson16 {

namespace {

std::uint32_t block_for(std::size_t m) { return m >= 31 ? 16 : m >= 15 ? 8 : m >= 7 ? 4 : m >= 3 ? 2 : 1; }

}  // namespace

Plan make_plan_with_bits(std::size_t m, const std::vector<int>& bits) {
  if (m == 0) throw std::invalid_argument("SSEF plan: the pattern is empty");
  Plan plan{};
  plan.block = block_for(m);
  const std::size_t stride = (m - plan.block + 1) / plan.block;
  plan.stride = static_cast<std::uint32_t>(std::min<std::size_t>(stride, kMaxEntries / plan.block));
  plan.step = plan.block * plan.stride;
  if (plan.block >= 4) {
    const unsigned per_byte = 16 / plan.block, words = plan.block / 4;
    if (bits.size() != per_byte) throw std::invalid_argument("SSEF plan: 16 / B fingerprint bits expected");
    for (unsigned u = 0; u < per_byte; ++u) {
      if (bits[u] < 0 || bits[u] > 7) throw std::invalid_argument("SSEF plan: a bit position is 0..7");
      plan.bits[u] = static_cast<std::uint8_t>(bits[u]);
    }
    // Nibble i = u * words + k is bit bits[u] of the 4 bytes of word k: bits u B + 4k .. u B + 4k + 3.
    for (unsigned i = 0; i < 4; ++i) {
      plan.nibble_word[i] = static_cast<std::uint8_t>(i % words);
      plan.nibble_bit[i] = plan.bits[i / words];
    }
  }
  return plan;
}

Plan make_plan(ByteView pattern) {
  const std::size_t m = pattern.size;
  const std::uint32_t block = m == 0 ? 1 : block_for(m);
  return make_plan_with_bits(
      m, block >= 4 ? ssef_fingerprint_bits(pattern, static_cast<int>(16 / block)) : std::vector<int>{});
}

std::uint32_t fingerprint(const Plan& plan, const std::uint8_t* block) {
  if (plan.block == 1) return block[0];
  if (plan.block == 2) return block[0] | static_cast<std::uint32_t>(block[1]) << 8;
  std::uint32_t fp = 0;
  for (unsigned u = 0; u < 16 / plan.block; ++u) {
    for (unsigned q = 0; q < plan.block; ++q) fp |= ((block[q] >> plan.bits[u]) & 1u) << (u * plan.block + q);
  }
  return fp;
}

LinkedTable build_linked_table(const Plan& plan, ByteView pattern) {
  LinkedTable table{std::vector<std::int32_t>(kBuckets, -1), std::vector<std::int32_t>(plan.step)};
  // Inserting r = 0, 1, ... at the head leaves each list in decreasing r.
  for (std::uint32_t r = 0; r < plan.step; ++r) {
    const std::uint32_t f = fingerprint(plan, pattern.data + r);
    table.next[r] = table.head[f];
    table.head[f] = static_cast<std::int32_t>(r);
  }
  return table;
}

HostCsrTable build_csr_table(const Plan& plan, ByteView pattern) {
  HostCsrTable table{std::vector<std::uint32_t>(kBuckets / 32, 0), std::vector<std::uint32_t>(kBuckets + 1, 0),
                     std::vector<std::uint32_t>(plan.step)};
  std::vector<std::uint32_t> of(plan.step);
  for (std::uint32_t r = 0; r < plan.step; ++r) {
    of[r] = fingerprint(plan, pattern.data + r);
    ++table.offsets[of[r] + 1];
    table.nonempty[of[r] / 32] |= 1u << (of[r] % 32);
  }
  for (std::uint32_t f = 0; f < kBuckets; ++f) table.offsets[f + 1] += table.offsets[f];
  std::vector<std::uint32_t> fill(table.offsets.begin(), table.offsets.end() - 1);
  for (std::uint32_t r = plan.step; r-- > 0;) table.entries[fill[of[r]]++] = r;  // decreasing r
  return table;
}

FilterCounts count_filter(const Plan& plan, ByteView pattern, ByteView text) {
  FilterCounts counts;
  const std::size_t m = pattern.size, n = text.size;
  if (m == 0 || m > n) return counts;
  const LinkedTable table = build_linked_table(plan, pattern);
  const std::size_t end = last_block(plan, n, m);
  for (std::size_t o = 0; o <= end; o += plan.step) {
    ++counts.examined;
    const std::int32_t first = table.head[fingerprint(plan, text.data + o)];
    if (first >= 0) ++counts.hits;
    for (std::int32_t r = first; r >= 0; r = table.next[static_cast<std::size_t>(r)]) {
      if (static_cast<std::size_t>(r) > o) continue;
      const std::size_t s = o - static_cast<std::size_t>(r);
      if (s > n - m) break;
      ++counts.proposed;
      if (std::memcmp(text.data + o, pattern.data + r, plan.block) != 0) continue;
      ++counts.same_block;
      if (std::memcmp(text.data + s, pattern.data, m) == 0) ++counts.occurrences;
    }
  }
  return counts;
}

}  // namespace cudamatch::lesson16
