// Timing GPU work with CUDA events: warm-up runs first (module loading, first-touch and clock ramp
// stay out of the numbers), then N timed repetitions, each between its own pair of events, reported
// as median and minimum. Host clocks are not used: a kernel launch returns before the kernel runs.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace cudamatch {

struct TimingStats {
  double median_ms = 0.0;
  double min_ms = 0.0;
  double max_ms = 0.0;
  int reps = 0;
};

// Median, minimum and maximum of the samples (the median of an even count is the mean of the middle
// two). An empty sample gives all zeros.
TimingStats summarize_ms(std::vector<double> samples);

struct TimingOptions {
  int warmup = 3;               // untimed runs first, at least this many (0: none at all) ...
  double warmup_min_ms = 50.0;  // ... and for at least this long: an idle GPU's clocks take tens of
                                // milliseconds to ramp up, longer than a few runs of a short kernel
  int reps = 20;
  // Enqueued before every run, warm-up or timed, outside the timed interval: e.g. poisoning the
  // output, so that each timed run must write all of it again (a run that skips the work because the
  // output is already right is then caught by the check after timing).
  std::function<void(cudaStream_t)> before_each;
};

// Times `work(stream)`, which must enqueue its GPU work on `stream` and not synchronize.
TimingStats time_on_gpu(const std::function<void(cudaStream_t)>& work, const TimingOptions& options = {},
                        cudaStream_t stream = nullptr);

// One run of `work(stream)` between its own pair of events, no warm-up: for work that needs a fresh
// input each time (prepared, untimed, before the call). Waits for the stop event; milliseconds.
// `work` may synchronize (a search that reads its result back): the stop event is then recorded
// after the read-back.
double time_once_on_gpu(const std::function<void(cudaStream_t)>& work, cudaStream_t stream = nullptr);

}  // namespace cudamatch
