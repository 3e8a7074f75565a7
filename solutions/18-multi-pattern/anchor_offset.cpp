// Lesson 18 - v3's anchors: where in each pattern its anchor lies (anchor_table.hpp says what the
// anchors are for; anchor_table.cpp builds the table around this choice).
// SOLUTION.
#include "anchor_table.hpp"

namespace cudamatch::lesson18 {

// HOLE(18-multi-pattern, v3): p's anchor: the offset of its 8-gram with the smallest count in `grams` (the first).
std::size_t anchor_offset(const ByteView& p, const GramCounts& grams) {
  std::size_t best = 0;
  std::uint32_t fewest = grams.at(qgram_at(p.data, kAnchorBytes));
  for (std::size_t o = 1; o + kAnchorBytes <= p.size; ++o) {
    const std::uint32_t equal = grams.at(qgram_at(p.data + o, kAnchorBytes));
    if (equal < fewest) best = o, fewest = equal;
  }
  return best;
}
// END HOLE

}  // namespace cudamatch::lesson18
