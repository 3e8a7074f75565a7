// The brute-force matcher: the oracle that every other matcher, CPU or GPU, is tested against.
// Deliberately the simplest correct code: at every position, compare the whole window.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/byte_view.hpp"

namespace cudamatch {

// Thrown for an empty pattern: "every position matches" is not an answer any user wants.
class EmptyPatternError : public std::invalid_argument {
 public:
  EmptyPatternError() : std::invalid_argument("the pattern is empty") {}
};

// Every occurrence of `pattern` in `text`, overlapping ones included, as sorted 0-based byte
// offsets. A pattern longer than the text has no occurrence.
std::vector<std::uint64_t> brute_force_find_all(ByteView text, ByteView pattern);

// The number of occurrences, as brute_force_find_all(...).size().
std::uint64_t brute_force_count(ByteView text, ByteView pattern);

}  // namespace cudamatch
