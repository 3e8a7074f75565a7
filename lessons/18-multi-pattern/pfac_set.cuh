// Lesson 18 - multi-pattern search: the pattern set of the PFAC versions (v1, v2, v3), given. It builds
// the trie (pfac_tables.hpp), keeps its tables on the device, and runs a version's kernel in the passes
// of pfac_passes.cuh: count (per terminal, then per pattern) and find_all (count per tile, scan, write).
// A version provides its kernel launch and the positions of its tiles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/buffers.hpp"
#include "engine/multi_matcher.hpp"
#include "engine/search_passes.cuh"
#include "pfac_passes.cuh"
#include "pfac_tables.hpp"

namespace cudamatch::lesson18 {

class PfacSet : public GpuPatternSet {
 public:
  // Builds the trie of `patterns` and copies its tables to the device (check_patterns' errors).
  PfacSet(const std::vector<ByteView>& patterns, cudaStream_t stream);

  PatternCounts count(const DeviceText& text, std::size_t seen, cudaStream_t stream) final;
  void find_all(const DeviceText& text, std::uint64_t base, std::vector<PatternMatch>& out, cudaStream_t stream) final;

  const PfacTrie& trie() const { return trie_; }

 protected:
  // Queues one pass of the version's kernel over the positions [0, positions) of `text` (n bytes), in
  // tiles of tile_positions() positions, tile t's results at index t.
  virtual void enqueue(Pass pass, const std::uint8_t* text, std::size_t n, std::size_t positions, const Output& out,
                       cudaStream_t stream) = 0;
  virtual std::size_t tile_positions() const = 0;

  std::size_t tiles(std::size_t positions) const { return (positions + tile_positions() - 1) / tile_positions(); }
  TrieView device_tables() const { return {first_child_.data(), edge_byte_.data(), terminal_.data()}; }

 private:
  // The positions where an occurrence may begin: 0 .. n - shortest (none without patterns, or when
  // every pattern is longer than the text).
  std::size_t positions_in(std::size_t n) const;
  Output output() const;

  PfacTrie trie_;
  DeviceBuffer<std::int32_t> first_child_;
  DeviceBuffer<std::uint8_t> edge_byte_;
  DeviceBuffer<std::int32_t> terminal_;
  DeviceBuffer<std::int32_t> terminal_first_;
  DeviceBuffer<std::uint32_t> terminal_patterns_;
  // Reused between searches, grown on demand.
  DeviceBuffer<unsigned long long> terminal_counts_;
  DeviceBuffer<unsigned long long> tile_counts_;
  DeviceBuffer<unsigned long long> tile_offsets_;
  DeviceBuffer<PatternMatch> matches_;
};

// A host vector on the device (at least one element, so that an empty table is a valid pointer).
template <class T>
DeviceBuffer<T> to_device(const std::vector<T>& host, cudaStream_t stream) {
  DeviceBuffer<T> device(host.empty() ? 1 : host.size());
  if (!host.empty()) device.upload(host.data(), host.size(), stream);
  return device;
}

}  // namespace cudamatch::lesson18
