// Lesson 13: Boyer-Moore over one thread's chunk of window starts, the loop every version runs: v0 with
// text, pattern and tables in global memory, v1 with pattern and tables in shared memory, v2 with the
// text there too. The pointers say where; the algorithm is the same.
#pragma once

#include <cstdint>

namespace cudamatch::lesson13 {

// Serial Boyer-Moore over the windows that start at text[0], text[1], ..., text[windows - 1] (the window
// at s is text[s, s + m)): calls on_match(s) for each occurrence, in increasing order. The tables are
// those of bm_tables.hpp. Offset is the type of s: 64-bit for chunks of the global text, 32-bit inside
// a shared-memory tile.
//
// Each window is compared right to left. After a mismatch at pattern index i against text byte c, the
// window moves by the larger of the bad-character shift i - last_index[c] and the good-suffix shift
// good_suffix[i]. After a match it moves by the period good_suffix[0], so overlapping occurrences are
// all found, and the first m - period bytes of the next window are known to match (Galil's rule): they
// are not compared again, which keeps a periodic text ("aaa...") linear instead of m compares per
// position.
template <class Offset, class OnMatch>
__device__ void boyer_moore_chunk(const std::uint8_t* text, Offset windows, const std::uint8_t* pattern, int m,
                                  const std::int32_t* last_index, const std::int32_t* good_suffix, OnMatch on_match) {
  const int period = good_suffix[0];
  int known = 0;  // pattern[0, known) matches the current window
  for (Offset s = 0; s < windows;) {
    int i = m - 1;
    std::uint8_t c;
    // Stops at the first mismatch (i its index, c the text byte), or with i < known: a match.
    while ((c = text[s + static_cast<Offset>(i)]) == pattern[i] && --i >= known) {}
    if (i < known) {
      on_match(s);
      s += static_cast<Offset>(period);
      known = m - period;
    } else {
      s += static_cast<Offset>(max(good_suffix[i], i - last_index[c]));
      known = 0;
    }
  }
}

}  // namespace cudamatch::lesson13
