#include "pfac_set.cuh"

#include <algorithm>

namespace cudamatch::lesson18 {

namespace {

// At least `count` elements in `buffer` (its contents are not kept).
template <class T>
void grow(DeviceBuffer<T>& buffer, std::size_t count) {
  if (buffer.size() < count) buffer = DeviceBuffer<T>(count);
}

// The records of one offset come out in the order the walk met their terminals (shorter patterns
// first); sorts each run of one offset by pattern. Runs of one record, the usual case, are left alone.
void order_within_offsets(std::vector<PatternMatch>::iterator begin, std::vector<PatternMatch>::iterator end) {
  while (begin != end) {
    auto run_end = std::find_if(begin, end, [&](const PatternMatch& m) { return m.offset != begin->offset; });
    if (run_end - begin > 1) std::sort(begin, run_end);
    begin = run_end;
  }
}

}  // namespace

PfacSet::PfacSet(const std::vector<ByteView>& patterns, cudaStream_t stream)
    : trie_(build_pfac_trie(patterns)),
      first_child_(to_device(trie_.first_child, stream)),
      edge_byte_(to_device(trie_.edge_byte, stream)),
      terminal_(to_device(trie_.terminal, stream)),
      terminal_first_(to_device(trie_.terminal_first, stream)),
      terminal_patterns_(to_device(trie_.terminal_patterns, stream)),
      terminal_counts_(std::max<std::size_t>(trie_.terminal_count(), 1)) {}

std::size_t PfacSet::positions_in(std::size_t n) const {
  return trie_.pattern_count() == 0 || trie_.shortest > n ? 0 : n - trie_.shortest + 1;
}

Output PfacSet::output() const {
  Output out{};
  out.terminal_first = terminal_first_.data();
  out.terminal_patterns = terminal_patterns_.data();
  return out;
}

PatternCounts PfacSet::count(const DeviceText& text, std::size_t seen, cudaStream_t stream) {
  PatternCounts counts;
  counts.per_pattern.assign(trie_.pattern_count(), 0);
  const std::size_t positions = positions_in(text.size());
  if (positions == 0) return counts;
  const std::size_t terminals = trie_.terminal_count();
  CUDA_CHECK(cudaMemsetAsync(terminal_counts_.data(), 0, terminals * sizeof(unsigned long long), stream));
  Output out = output();
  out.seen = seen;
  out.terminal_counts = terminal_counts_.data();
  enqueue(Pass::count, text.data(), text.size(), positions, out, stream);
  std::vector<unsigned long long> per_terminal(terminals);
  terminal_counts_.download(per_terminal.data(), terminals, stream);
  for (std::size_t p = 0; p < counts.per_pattern.size(); ++p) {
    counts.per_pattern[p] = per_terminal[static_cast<std::size_t>(trie_.terminal_of_pattern[p])];
    counts.total += counts.per_pattern[p];
  }
  return counts;
}

void PfacSet::find_all(const DeviceText& text, std::uint64_t base, std::vector<PatternMatch>& out,
                       cudaStream_t stream) {
  const std::size_t positions = positions_in(text.size());
  if (positions == 0) return;
  // One slot more than there are tiles: the scan's last entry is the total.
  const std::size_t slots = tiles(positions) + 1;
  grow(tile_counts_, slots);
  grow(tile_offsets_, slots);
  CUDA_CHECK(cudaMemsetAsync(tile_counts_.data(), 0, slots * sizeof(unsigned long long), stream));
  Output pass = output();
  pass.tile_counts = tile_counts_.data();
  enqueue(Pass::count_per_block, text.data(), text.size(), positions, pass, stream);
  const std::uint64_t total = scan_counts(tile_counts_.data(), tile_offsets_.data(), slots, stream);
  if (total == 0) return;
  grow(matches_, total);
  // Poison (offset and pattern all ones): a slot the write pass misses comes back as a record no search
  // makes, not as a plausible (0, 0) from fresh memory or a record left by the previous search. It
  // writes at device-memory speed what the download below moves over the slower host link.
  CUDA_CHECK(cudaMemsetAsync(matches_.data(), 0xff, total * sizeof(PatternMatch), stream));
  pass = output();
  pass.tile_offsets = tile_offsets_.data();
  pass.matches = matches_.data();
  pass.records = total;
  pass.base = base;
  enqueue(Pass::write, text.data(), text.size(), positions, pass, stream);
  const std::size_t old = out.size();
  out.resize(old + total);
  matches_.download(out.data() + old, total, stream);
  order_within_offsets(out.begin() + static_cast<std::ptrdiff_t>(old), out.end());
}

}  // namespace cudamatch::lesson18
