// The streamed search from a file's own pages (lesson 17's v3): the file is mapped read-only and its
// pages are registered with the CUDA driver (cudaHostRegister, read-only), so the copy engine reads the
// page cache itself. A read into a pinned buffer moves every byte through host memory twice before
// the link (page cache -> pinned buffer, then pinned buffer -> device); here once (page cache ->
// device), which leaves the host's memory bandwidth to the copy.
//
// Registering pins the pages: it costs host time per page and holds memory, so it is done span by
// span (disjoint, page-aligned ranges of the file) by registrar threads, a bounded number of spans
// ahead of the copies, and each span is unregistered once the copies that read it are done. A window
// that crosses a span edge is copied in one piece per span: one copy never reads two registrations.
#pragma once

#include <cuda_runtime.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/stream/byte_source.hpp"

namespace cudamatch {

// The spans of a file of `file_bytes` bytes: [s * span_bytes, (s + 1) * span_bytes), the last one cut
// at the file's end.
struct SpanPlan {
  std::uint64_t file_bytes = 0;
  std::size_t span_bytes = 1;

  std::uint64_t spans() const { return (file_bytes + span_bytes - 1) / span_bytes; }
  std::uint64_t begin(std::uint64_t span) const { return span * span_bytes; }
  std::uint64_t end(std::uint64_t span) const;
  // The span that holds byte `offset` (< file_bytes).
  std::uint64_t span_of(std::uint64_t offset) const { return offset / span_bytes; }
  // The spans wholly before `offset`: [0, spans_before(offset)).
  std::uint64_t spans_before(std::uint64_t offset) const;
};

class RegisteredFile {
 public:
  // Spans of 32 MiB: a multiple of the host's page size (4 KiB, or 2 MiB for huge pages) and several
  // chunk windows long, so few windows cross an edge.
  static constexpr std::size_t kDefaultSpanBytes = std::size_t{32} << 20;

  // The file `file` mapped, its first span registered and `threads` registrar threads started, which
  // keep at most `lookahead` spans registered (raised to the spans one window of `window_bytes` can
  // cross, plus one). The destructor waits for the work queued on `copy_stream`, then unregisters and
  // unmaps. Returns nullptr, with the reason in *why_not, where the GPU cannot copy from read-only
  // registered host memory (cudaDevAttrHostRegisterReadOnlySupported), the file is empty or cannot be
  // mapped, or the driver refuses the first registration: the caller then reads the file as before.
  static std::unique_ptr<RegisteredFile> open(const FileSource& file, cudaStream_t copy_stream,
                                              std::size_t window_bytes, unsigned threads, std::size_t lookahead,
                                              std::string* why_not, std::size_t span_bytes = kDefaultSpanBytes);
  ~RegisteredFile();
  RegisteredFile(const RegisteredFile&) = delete;
  RegisteredFile& operator=(const RegisteredFile&) = delete;

  std::uint64_t size() const { return spans_.file_bytes; }
  const SpanPlan& spans() const { return spans_; }

  // Waits until the bytes [0, end) are registered; rethrows a registrar's error.
  void wait_registered(std::uint64_t end);
  // Queues on the copy stream the copy of the file's bytes [offset, offset + bytes) to `device`, one
  // copy per span they cross, after waiting until those spans are registered.
  void copy_async(std::uint64_t offset, std::size_t bytes, std::uint8_t* device);
  // No copy queued from now on reads before `offset`: the spans wholly before it are unregistered once
  // the copies queued so far on the copy stream are done (an event recorded now).
  void release_before(std::uint64_t offset);

 private:
  RegisteredFile(std::uint8_t* mapping, SpanPlan spans, cudaStream_t copy_stream, std::size_t lookahead);
  void registrar();
  void stop_and_join();

  std::uint8_t* mapping_;
  SpanPlan spans_;
  cudaStream_t copy_stream_;
  std::size_t lookahead_;

  struct Release {
    std::uint64_t first, last;  // spans [first, last)
    cudaEvent_t after;          // the copies that read them are done
  };
  std::mutex mutex_;
  std::condition_variable changed_;
  enum class Span : char { waiting, registering, registered, unregistered };
  std::vector<Span> state_;         // per span
  std::uint64_t next_ = 0;          // the next span to register
  std::uint64_t ready_ = 0;         // spans [0, ready_) have been registered
  std::uint64_t released_ = 0;      // spans [0, released_) are released (unregistered, or to be)
  std::deque<Release> to_release_;  // handed to the registrars in order
  std::exception_ptr error_;
  bool stopping_ = false;
  int device_ = 0;  // the registrars' current device: the caller's
  std::vector<std::thread> threads_;
};

}  // namespace cudamatch
