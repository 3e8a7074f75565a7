// Lesson 18, v0 (given): the baseline, one pass per pattern. Each pattern is searched on its own with the
// given brute force (engine/brute_force_v0.cu, lesson 11's v0) over the same device text, and the
// occurrences are merged into (offset, pattern) order on the host: P patterns cost P passes over the
// text, which is what the automaton of v1 removes.
#include <algorithm>

#include "engine/brute_force_v0.hpp"
#include "multi_gpu.hpp"
#include "pfac_tables.hpp"

namespace cudamatch::lesson18 {

namespace {

class OnePassEach final : public GpuPatternSet {
 public:
  OnePassEach(const std::vector<ByteView>& patterns, cudaStream_t stream) {
    check_patterns(patterns);
    patterns_.reserve(patterns.size());
    for (const ByteView& p : patterns) patterns_.emplace_back(p, stream);
  }

  PatternCounts count(const DeviceText& text, std::size_t seen, cudaStream_t stream) override {
    PatternCounts counts;
    counts.per_pattern.assign(patterns_.size(), 0);
    if (seen == 0 && !patterns_.empty()) {
      std::vector<const DevicePattern*> batch;
      for (const DevicePattern& p : patterns_) batch.push_back(&p);
      counts.per_pattern = gpu_count_batch(brute_force_v0, text, batch, stream);
    } else {
      for (std::size_t k = 0; k < patterns_.size(); ++k) {
        const std::size_t m = patterns_[k].size();
        for (std::uint64_t offset : positions_of(k, text, stream)) counts.per_pattern[k] += offset + m > seen;
      }
    }
    for (std::uint64_t c : counts.per_pattern) counts.total += c;
    return counts;
  }

  void find_all(const DeviceText& text, std::uint64_t base, std::vector<PatternMatch>& out,
                cudaStream_t stream) override {
    const std::size_t old = out.size();
    for (std::size_t k = 0; k < patterns_.size(); ++k) {
      for (std::uint64_t offset : positions_of(k, text, stream)) {
        out.push_back({base + offset, static_cast<std::uint32_t>(k)});
      }
    }
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(old), out.end());
  }

 private:
  // The sorted offsets of pattern k in `text`.
  std::vector<std::uint64_t> positions_of(std::size_t k, const DeviceText& text, cudaStream_t stream) {
    const std::uint64_t found = gpu_positions(brute_force_v0, text, patterns_[k], positions_, stream);
    std::vector<std::uint64_t> host(found);
    if (found > 0) positions_.download(host.data(), found, stream);
    return host;
  }

  std::vector<DevicePattern> patterns_;
  DeviceBuffer<std::uint64_t> positions_;
};

std::unique_ptr<GpuPatternSet> build(const std::vector<ByteView>& patterns, ByteView /*sample*/, cudaStream_t stream) {
  return std::make_unique<OnePassEach>(patterns, stream);
}

}  // namespace

const GpuMultiVersion v0{"v0", "one pass per pattern (lesson 11's brute force v0), merged on the host", build};

}  // namespace cudamatch::lesson18
