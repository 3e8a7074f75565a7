#include "engine/stream/chunk_search.hpp"

#include "common/cuda_check.hpp"

namespace cudamatch {

namespace {

class CountSearch final : public ChunkSearch {
 public:
  CountSearch(const GpuVersion& matcher, const DevicePattern& pattern, cudaStream_t stream, ProgressSink progress)
      : ChunkSearch(std::move(progress)), matcher_(matcher), pattern_(pattern) {
    CUDA_CHECK(cudaMemsetAsync(total_.data(), 0, total_.bytes(), stream));
  }

  std::uint64_t finish(cudaStream_t stream) override {
    unsigned long long total = 0;
    total_.download(&total, 1, stream);
    return total;
  }

 private:
  void run(const DeviceText& window, std::uint64_t, cudaStream_t stream) override {
    matcher_.enqueue_count(window, pattern_, total_.data(), stream);  // adds to the total
  }

  const GpuVersion& matcher_;
  const DevicePattern& pattern_;
  DeviceBuffer<unsigned long long> total_{1};
};

class PositionsSearch final : public ChunkSearch {
 public:
  PositionsSearch(const GpuVersion& matcher, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                  PositionsSink sink, ProgressSink progress)
      : ChunkSearch(std::move(progress)),
        matcher_(matcher),
        pattern_(pattern),
        positions_(positions),
        sink_(std::move(sink)) {}

  std::uint64_t finish(cudaStream_t stream) override {
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return total_;
  }

 private:
  void run(const DeviceText& window, std::uint64_t offset, cudaStream_t stream) override {
    const std::uint64_t count = gpu_positions(matcher_, window, pattern_, positions_, stream);
    if (count == 0) return;
    host_.resize(count);
    positions_.download(host_.data(), count, stream);
    for (std::uint64_t& p : host_) p += offset;
    total_ += count;
    sink_(host_);
  }

  const GpuVersion& matcher_;
  const DevicePattern& pattern_;
  DeviceBuffer<std::uint64_t>& positions_;
  PositionsSink sink_;
  std::vector<std::uint64_t> host_;
  std::uint64_t total_ = 0;
};

}  // namespace

std::unique_ptr<ChunkSearch> count_search(const GpuVersion& matcher, const DevicePattern& pattern, cudaStream_t stream,
                                          ProgressSink progress) {
  return std::make_unique<CountSearch>(matcher, pattern, stream, std::move(progress));
}

std::unique_ptr<ChunkSearch> positions_search(const GpuVersion& matcher, const DevicePattern& pattern,
                                              DeviceBuffer<std::uint64_t>& positions, PositionsSink sink,
                                              ProgressSink progress) {
  return std::make_unique<PositionsSearch>(matcher, pattern, positions, std::move(sink), std::move(progress));
}

}  // namespace cudamatch
