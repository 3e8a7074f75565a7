#include "common/brute_force.hpp"

#include <cstring>

namespace cudamatch {

namespace {
template <class OnMatch>
void for_each_match(ByteView text, ByteView pattern, OnMatch on_match) {
  if (pattern.size == 0) throw EmptyPatternError();
  if (pattern.size > text.size) return;
  const std::size_t last = text.size - pattern.size;
  for (std::size_t i = 0; i <= last; ++i) {
    if (std::memcmp(text.data + i, pattern.data, pattern.size) == 0) on_match(i);
  }
}
}  // namespace

std::vector<std::uint64_t> brute_force_find_all(ByteView text, ByteView pattern) {
  std::vector<std::uint64_t> offsets;
  for_each_match(text, pattern, [&](std::size_t i) { offsets.push_back(i); });
  return offsets;
}

std::uint64_t brute_force_count(ByteView text, ByteView pattern) {
  std::uint64_t count = 0;
  for_each_match(text, pattern, [&](std::size_t) { ++count; });
  return count;
}

}  // namespace cudamatch
