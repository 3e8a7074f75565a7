// Runs body(0), ..., body(count - 1) on up to `jobs` threads (in this thread when jobs is 1). Each
// index runs once; the calls return in any order, so body writes only its own result slot.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace cudamatch::grade {

template <class Body>
void run_parallel(std::size_t count, std::size_t jobs, const Body& body) {
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) body(i);
  };
  const std::size_t threads = std::min(jobs, count);
  if (threads <= 1) {
    work();
    return;
  }
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(work);
  for (auto& thread : pool) thread.join();
}

}  // namespace cudamatch::grade
