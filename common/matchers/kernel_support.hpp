// What the packed (SIMD) matcher kernels share: how they report matches, and the platform test.
//
// Internal to common/matchers/. This header is included by the files compiled with -msse4.2 -mpopcnt
// (epsm_sse.cpp, ssef_sse.cpp), so it deliberately uses no C++ library template or inline function:
// an inline function instantiated in such a file could be the copy the linker keeps for the whole
// program and then execute SSE4.2 instructions on a CPU that the run-time check said lacks them.
// Everything here is a plain struct or lives in an anonymous namespace.
#pragma once

#include <cstddef>
#include <cstdint>

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define CUDAMATCH_MATCHERS_X86 1
#else
#define CUDAMATCH_MATCHERS_X86 0
#endif

namespace cudamatch::detail {

// Where a kernel sends its matches: `flush` receives them in batches of increasing offsets (base
// already added). A null `flush` means "count only": the kernel then only returns the count.
struct MatchSink {
  void (*flush)(void* context, const std::uint64_t* offsets, std::size_t count) = nullptr;
  void* context = nullptr;
};

namespace {

// Collects a kernel's matches into a fixed batch on the stack (no allocation per match).
class Emitter {
 public:
  Emitter(MatchSink sink, std::uint64_t base) : sink_(sink), base_(base) {}
  Emitter(const Emitter&) = delete;
  Emitter& operator=(const Emitter&) = delete;

  bool counting_only() const { return sink_.flush == nullptr; }

  void add(std::size_t offset) {
    ++count_;
    if (sink_.flush != nullptr) {
      batch_[used_++] = base_ + offset;
      if (used_ == kBatch) flush();
    }
  }

  // Every set bit q of `mask` is an occurrence at offset first + q.
  void add_mask(std::uint64_t mask, std::size_t first) {
    if (sink_.flush == nullptr) {
      count_ += static_cast<std::uint64_t>(__builtin_popcountll(mask));
      return;
    }
    while (mask != 0) {
      add(first + static_cast<std::size_t>(__builtin_ctzll(mask)));
      mask &= mask - 1;
    }
  }

  // Flushes what is left and returns the number of matches.
  std::uint64_t finish() {
    flush();
    return count_;
  }

 private:
  static constexpr std::size_t kBatch = 256;

  void flush() {
    if (used_ != 0) sink_.flush(sink_.context, batch_, used_);
    used_ = 0;
  }

  MatchSink sink_;
  std::uint64_t base_;
  std::uint64_t count_ = 0;
  std::size_t used_ = 0;
  std::uint64_t batch_[kBatch];
};

}  // namespace
}  // namespace cudamatch::detail
