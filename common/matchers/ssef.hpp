// SSEF's choice of fingerprint bits, exposed for tests and for the lesson on SSEF (16-ssef).
//
// SSEF summarizes a block of text by one bit of each byte. The published algorithm takes a fixed bit;
// bit 7 (what _mm_movemask_epi8 reads without a shift) is 0 in every ASCII byte, so on English or DNA
// every block has the same fingerprint and the filter passes everything. Here the bit comes from the
// pattern's statistics: the bit position whose 0/1 split over the pattern bytes is the most even.
#pragma once

#include <vector>

#include "common/byte_view.hpp"

namespace cudamatch {

// The bit position (0..7) whose 0/1 split over the bytes of `pattern` is the most even; the lowest
// such position on a tie (0 for an empty pattern or one whose bytes are all equal). For m >= 31 SSEF
// fingerprints each 16-byte block with this bit of its 16 bytes.
int ssef_fingerprint_bit(ByteView pattern);

// The `count` bit positions (1 <= count <= 8) that SSEF uses when it fingerprints blocks of 16/count
// bytes with `count` bits of each (the short-pattern extension, see ssef.cpp): chosen greedily, each
// one maximizing the entropy of the joint code of the chosen bits over the pattern bytes; the first
// is ssef_fingerprint_bit(pattern). For count == 8 they are all eight positions.
std::vector<int> ssef_fingerprint_bits(ByteView pattern, int count);

}  // namespace cudamatch
