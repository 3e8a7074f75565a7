// A progress bar on stderr for long runs: redrawn in place on a terminal, silent otherwise (so logs
// and pipes get no control characters).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace cudamatch::cli {

class Progress {
 public:
  // `total` steps; the bar is shown only when stderr is a terminal.
  explicit Progress(std::size_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // One more step done; `label` says what is running now.
  void advance(const std::string& label);
  // `done` steps done (e.g. bytes), at most `total`.
  void set(std::size_t done, const std::string& label);

 private:
  void draw(const std::string& label);
  std::size_t total_;
  std::size_t done_ = 0;
  bool enabled_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace cudamatch::cli
