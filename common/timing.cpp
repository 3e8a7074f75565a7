#include "common/timing.hpp"

#include <algorithm>
#include <chrono>

#include "common/buffers.hpp"

namespace cudamatch {

TimingStats summarize_ms(std::vector<double> samples) {
  TimingStats stats;
  if (samples.empty()) return stats;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  stats.median_ms = n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  stats.min_ms = samples.front();
  stats.max_ms = samples.back();
  stats.reps = static_cast<int>(n);
  return stats;
}

TimingStats time_on_gpu(const std::function<void(cudaStream_t)>& work, const TimingOptions& options,
                        cudaStream_t stream) {
  const auto warmup_start = std::chrono::steady_clock::now();
  for (int i = 0;; ++i) {
    const double elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - warmup_start).count();
    if (i >= options.warmup && (options.warmup == 0 || elapsed_ms >= options.warmup_min_ms)) break;
    if (options.before_each) options.before_each(stream);
    work(stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  const int reps = std::max(options.reps, 1);
  std::vector<CudaEvent> starts(reps), stops(reps);
  for (int i = 0; i < reps; ++i) {
    if (options.before_each) options.before_each(stream);
    starts[i].record(stream);
    work(stream);
    stops[i].record(stream);
  }
  std::vector<double> samples;
  samples.reserve(reps);
  for (int i = 0; i < reps; ++i) samples.push_back(stops[i].elapsed_ms_since(starts[i]));
  return summarize_ms(std::move(samples));
}

double time_once_on_gpu(const std::function<void(cudaStream_t)>& work, cudaStream_t stream) {
  CudaEvent start, stop;
  start.record(stream);
  work(stream);
  stop.record(stream);
  return stop.elapsed_ms_since(start);
}

}  // namespace cudamatch
