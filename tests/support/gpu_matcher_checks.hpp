// The correctness checks every GPU matcher version must pass (lessons 11-16): the version against
// the CPU brute force, in count and positions mode, on seeded random inputs and on the edge cases
// where GPU matchers break (tile and chunk edges, all-equal texts, NUL and 0xFF, m > n).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/gpu_matcher.hpp"

namespace cudamatch::testing {

// Whether CUDAMATCH_TEST_QUICK=1 asks for the smaller test set of the sanitizer runs (compute-sanitizer
// makes the kernels 10-100x slower); lesson-specific tests may shrink their inputs by it too.
bool quick_tests();

// Searches `text` for `pattern` with `version` in both modes, the positions buffer poisoned and
// larger than needed, and compares with the CPU brute force (nothing may be written past the count).
void check_against_brute_force(const GpuVersion& version, const std::vector<std::uint8_t>& text,
                               const std::vector<std::uint8_t>& pattern);

// Random texts over alphabets of 2, 4, 26 and 256 letters, of sizes 1, 15, 100003 and around each
// of `edges` (e - 1, e, e + 1, 3e + 7: the version's block tile or thread chunk); patterns of every
// length that matters (1 to 4097, and around each edge), drawn from the text or random. With
// CUDAMATCH_TEST_QUICK=1 (the sanitizer runs) a subset: two alphabets, fewer sizes and lengths.
void random_cases(const GpuVersion& version, const std::vector<std::size_t>& edges, std::uint64_t seed);

// All-equal texts; occurrences planted at 0, at n - m and straddling each edge, with NUL and 0xFF
// bytes; the pattern equal to the text and one byte longer; a one-byte text. Quick (as above): short
// all-equal patterns and fewer planted lengths.
void edge_cases(const GpuVersion& version, const std::vector<std::size_t>& edges);

// Every m from 1 to last_handed + 2, where a version hands patterns of up to last_handed bytes to another
// kernel: texts over 2, 4 and 256 letters (100,003 bytes, no multiple of any tile), an occurrence drawn
// from the text and a random pattern; an all-equal text; both modes.
void lengths_around_hand_over(const GpuVersion& version, std::size_t last_handed, std::uint64_t seed);

}  // namespace cudamatch::testing
