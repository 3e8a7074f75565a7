// Lesson 18 - v3's anchors: where in each pattern its anchor lies (anchor_table.hpp says what the
// anchors are for; anchor_table.cpp builds the table around this choice).
// STARTER: complete the TODO(18-multi-pattern, ...) hole (README, steps).
#include "anchor_table.hpp"

namespace cudamatch::lesson18 {

// TODO(18-multi-pattern, v3): p's anchor: the offset of its 8-gram with the smallest count in `grams` (the first).
// The candidates are the offsets 0 to p.size - 8; grams.at(qgram_at(p.data + o, kAnchorBytes)) counts the
// 8-grams equal to the one at o in the set and in the text's sample (when the set is built with one).
// Offset 0, the prefix, finds every occurrence too, but lets as many positions through as the prefix
// filter does: that is what the anchors are for.
std::size_t anchor_offset(const ByteView& p, const GramCounts& grams) {
  (void)p, (void)grams;
  return 0;
}

}  // namespace cudamatch::lesson18
