#include "engine/stream/registered_file.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "common/cuda_check.hpp"

namespace cudamatch {

std::uint64_t SpanPlan::end(std::uint64_t span) const {
  return std::min<std::uint64_t>(file_bytes, (span + 1) * span_bytes);
}

SpanPlan SpanPlan::whole_pages(std::uint64_t file_bytes, std::size_t span_bytes, std::size_t page_bytes) {
  const std::size_t pages = (std::max<std::size_t>(span_bytes, 1) + page_bytes - 1) / page_bytes;
  return {file_bytes, pages * page_bytes};
}

std::uint64_t SpanPlan::spans_before(std::uint64_t offset) const {
  return offset >= file_bytes ? spans() : offset / span_bytes;
}

namespace {

// cudaHostRegister's flags for a read-only mapping; portable: the registrar threads and the caller may
// use different contexts of the process.
constexpr unsigned kRegisterFlags = cudaHostRegisterReadOnly | cudaHostRegisterPortable;

std::string cuda_text(cudaError_t status) { return cudaGetErrorString(status); }

}  // namespace

std::unique_ptr<RegisteredFile> RegisteredFile::open(const FileSource& file, cudaStream_t copy_stream,
                                                     std::size_t window_bytes, unsigned threads, std::size_t lookahead,
                                                     std::string* why_not, std::size_t span_bytes) {
  const auto refuse = [why_not](const std::string& reason) {
    if (why_not != nullptr) *why_not = reason;
    return nullptr;
  };
  int device = 0;
  int supported = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrHostRegisterReadOnlySupported, device));
  if (supported == 0) return refuse("the GPU cannot copy from read-only registered host memory");
  const std::uint64_t bytes = file.size().value_or(0);
  if (bytes == 0) return refuse(file.path() + " is empty");
  void* mapping = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, file.descriptor(), 0);
  if (mapping == MAP_FAILED) return refuse(file.path() + ": mmap: " + std::strerror(errno));

  const SpanPlan spans = SpanPlan::whole_pages(bytes, span_bytes, static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)));
  // A window of W bytes crosses at most ceil((W - 1) / span) + 1 spans; the registrars must be allowed
  // that many ahead of the released ones, or the copy of a window would wait for spans never registered.
  const std::size_t crossed = (std::max<std::size_t>(window_bytes, 1) + spans.span_bytes - 1) / spans.span_bytes + 1;
  std::unique_ptr<RegisteredFile> registered(
      new RegisteredFile(static_cast<std::uint8_t*>(mapping), spans, copy_stream, std::max(lookahead, crossed)));
  registered->device_ = device;
  // The first span here, so that a driver that refuses such memory sends the caller back to reading.
  const cudaError_t first =
      cudaHostRegister(registered->mapping_, static_cast<std::size_t>(spans.end(0)), kRegisterFlags);
  if (first != cudaSuccess) {
    cudaGetLastError();  // the refusal is reported, not left for the next CUDA call
    return refuse("cudaHostRegister of " + file.path() + ": " + cuda_text(first));
  }
  registered->state_[0] = Span::registered;
  registered->next_ = 1;
  registered->ready_ = 1;
  for (unsigned t = 0; t < std::max(1u, threads); ++t)
    registered->threads_.emplace_back([r = registered.get()] { r->registrar(); });
  return registered;
}

RegisteredFile::RegisteredFile(std::uint8_t* mapping, SpanPlan spans, cudaStream_t copy_stream, std::size_t lookahead)
    : mapping_(mapping),
      spans_(spans),
      copy_stream_(copy_stream),
      lookahead_(lookahead),
      state_(static_cast<std::size_t>(spans.spans()), Span::waiting) {}

RegisteredFile::~RegisteredFile() {
  stop_and_join();
  // The copies queued from the registered pages must be done before the pages go; errors are ignored
  // here (a destructor), the caller's next CUDA call reports them.
  cudaStreamSynchronize(copy_stream_);
  for (const Release& release : to_release_) cudaEventDestroy(release.after);
  for (std::size_t s = 0; s < state_.size(); ++s) {
    if (state_[s] == Span::registered) cudaHostUnregister(mapping_ + spans_.begin(s));
  }
  ::munmap(mapping_, spans_.file_bytes);
}

void RegisteredFile::stop_and_join() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

void RegisteredFile::registrar() {
  cudaSetDevice(device_);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (!to_release_.empty()) {
      const Release release = to_release_.front();
      to_release_.pop_front();
      lock.unlock();
      cudaError_t status = cudaEventSynchronize(release.after);
      cudaEventDestroy(release.after);
      std::uint64_t done = release.first;  // spans [first, done) unregistered
      for (; done < release.last && status == cudaSuccess; ++done) {
        status = cudaHostUnregister(mapping_ + spans_.begin(done));
      }
      if (status != cudaSuccess && done > release.first) --done;  // the span whose unregistering failed
      lock.lock();
      // Only the spans unregistered here: the destructor unregisters the others (still registered).
      for (std::uint64_t s = release.first; s < done; ++s) state_[s] = Span::unregistered;
      if (status != cudaSuccess && !error_) {
        error_ = std::make_exception_ptr(CudaError(status, "cudaHostUnregister", __FILE__, __LINE__));
      }
      changed_.notify_all();
      continue;
    }
    if (next_ < state_.size() && next_ < released_ + lookahead_ && !error_) {
      const std::uint64_t span = next_++;
      state_[span] = Span::registering;
      lock.unlock();
      const cudaError_t status =
          cudaHostRegister(mapping_ + spans_.begin(span),
                           static_cast<std::size_t>(spans_.end(span) - spans_.begin(span)), kRegisterFlags);
      lock.lock();
      if (status == cudaSuccess) {
        state_[span] = Span::registered;
        while (ready_ < state_.size() && state_[ready_] != Span::waiting && state_[ready_] != Span::registering) {
          ++ready_;
        }
      } else {
        state_[span] = Span::waiting;
        if (!error_) error_ = std::make_exception_ptr(CudaError(status, "cudaHostRegister", __FILE__, __LINE__));
      }
      changed_.notify_all();
      continue;
    }
    changed_.wait(lock);
  }
}

void RegisteredFile::wait_registered(std::uint64_t end) {
  const std::uint64_t needed = end == 0 ? 0 : spans_.span_of(std::min(end, spans_.file_bytes) - 1) + 1;
  std::unique_lock<std::mutex> lock(mutex_);
  // A registrar's error first: after a refused span the registrars stop, so a later window may lie past
  // the lookahead only because nothing was released since (a file cut while it is searched).
  if (error_) std::rethrow_exception(error_);
  if (needed > released_ + lookahead_) {  // the registrars stop before `needed`: it would never come
    throw std::logic_error("RegisteredFile: waiting for " + std::to_string(needed) + " spans with " +
                           std::to_string(released_) + " released and a lookahead of " + std::to_string(lookahead_) +
                           " spans (a window longer than the one open() was given)");
  }
  changed_.wait(lock, [&] { return ready_ >= needed || error_; });
  if (error_) std::rethrow_exception(error_);
}

void RegisteredFile::copy_async(std::uint64_t offset, std::size_t bytes, std::uint8_t* device) {
  if (bytes == 0) return;
  if (offset > spans_.file_bytes || bytes > spans_.file_bytes - offset) {
    throw std::out_of_range("RegisteredFile: bytes [" + std::to_string(offset) + ", " + std::to_string(offset + bytes) +
                            ") of a file of " + std::to_string(spans_.file_bytes));
  }
  wait_registered(offset + bytes);
  for (std::uint64_t at = offset; at < offset + bytes;) {
    const std::uint64_t until = std::min<std::uint64_t>(offset + bytes, spans_.end(spans_.span_of(at)));
    CUDA_CHECK(cudaMemcpyAsync(device + (at - offset), mapping_ + at, static_cast<std::size_t>(until - at),
                               cudaMemcpyHostToDevice, copy_stream_));
    at = until;
  }
}

void RegisteredFile::release_before(std::uint64_t offset) {
  std::uint64_t upto = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    // Never a span not yet registered: a registrar could be registering it while another unregisters it.
    upto = std::min(spans_.spans_before(offset), ready_);
    if (upto <= released_) return;
  }
  cudaEvent_t after = nullptr;
  // Blocking: a registrar waiting for it sleeps instead of spinning on a core the readers and the
  // caller need.
  CUDA_CHECK(cudaEventCreateWithFlags(&after, cudaEventDisableTiming | cudaEventBlockingSync));
  const cudaError_t recorded = cudaEventRecord(after, copy_stream_);
  if (recorded != cudaSuccess) {
    cudaEventDestroy(after);
    CUDA_CHECK(recorded);
  }
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    to_release_.push_back({released_, upto, after});  // ready_ only grows: [released_, upto) still registered
    released_ = upto;
  }
  changed_.notify_all();
}

}  // namespace cudamatch
