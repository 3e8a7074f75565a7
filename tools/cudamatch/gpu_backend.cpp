#include "gpu_backend.hpp"

namespace cudamatch::cli {

namespace {

class GpuMatcher final : public CpuMatcher {
 public:
  GpuMatcher(const GpuVersion& version, ByteView pattern)
      : CpuMatcher(pattern), version_(version), pattern_(pattern), replay_(graph_replayable(version)) {}

  void find_all(ByteView text, std::uint64_t base, std::vector<std::uint64_t>& out) const override {
    if (text.size < pattern_.size()) return;
    const DeviceText device_text(text);
    const std::uint64_t count = gpu_positions(version_, device_text, pattern_, positions_);
    const std::size_t first = out.size();
    out.resize(first + count);
    if (count > 0) positions_.download(out.data() + first, count);
    for (std::size_t i = first; i < out.size(); ++i) out[i] += base;
  }

  std::uint64_t count(ByteView text) const override {
    if (text.size < pattern_.size()) return 0;
    const DeviceText device_text(text);
    return replay_ ? replayed_count(version_, device_text, pattern_) : gpu_count(version_, device_text, pattern_);
  }

 private:
  const GpuVersion& version_;
  DevicePattern pattern_;
  mutable DeviceBuffer<std::uint64_t> positions_;  // kept between pieces
  bool replay_;
};

}  // namespace

const GpuAlgorithm* gpu_algorithm(Algorithm algorithm) {
  for (const GpuAlgorithm* table : gpu_algorithms()) {
    if (table->algorithm == algorithm) return table;
  }
  return nullptr;
}

bool graph_replayable(const GpuVersion& version) {
  const GpuAlgorithm* bf = gpu_algorithm(Algorithm::bf);
  if (bf == nullptr) return false;
  for (const GpuVersion& v : bf->versions) {
    if (&v == &version) return true;
  }
  return false;
}

std::unique_ptr<CpuMatcher> make_gpu_matcher(const GpuVersion& version, ByteView pattern) {
  return std::make_unique<GpuMatcher>(version, pattern);
}

}  // namespace cudamatch::cli
