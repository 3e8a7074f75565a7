#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace cudamatch::cli {

Progress::Progress(std::size_t total) : total_(total), enabled_(::isatty(STDERR_FILENO) == 1 && total > 0) {}

Progress::~Progress() {
  if (enabled_) std::fputs("\r\033[K", stderr);  // leave a clean line for what follows
}

void Progress::advance(const std::string& label) { set(done_ + 1, label); }

void Progress::set(std::size_t done, const std::string& label) {
  done_ = std::min(done, total_);
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (done_ < total_ && now - last_draw_ < std::chrono::milliseconds(100)) return;  // at most 10 redraws a second
  last_draw_ = now;
  draw(label);
}

void Progress::draw(const std::string& label) {
  constexpr int kWidth = 30;
  const double fraction = static_cast<double>(done_) / static_cast<double>(total_);
  const int filled = static_cast<int>(fraction * kWidth);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double remaining = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0.0;
  std::fprintf(stderr, "\r\033[K[%.*s%*s] %3d%%  %s  (%.0f s left)", filled,
               "==============================", kWidth - filled, "", static_cast<int>(100 * fraction), label.c_str(),
               remaining);
  std::fflush(stderr);
}

}  // namespace cudamatch::cli
