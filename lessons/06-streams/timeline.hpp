// A timeline of GPU work without Nsight Systems: an event before and after each operation, read
// after the work is done, printed as one row of characters per stream.
#pragma once

#include <cuda_runtime.h>

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

class Timeline {
 public:
  Timeline();
  ~Timeline();
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // Marks time zero on `stream` (call before queuing the work to be drawn).
  void start(cudaStream_t stream);
  // Brackets one operation: begin() before queuing it on `stream`, end() after.
  void begin(cudaStream_t stream, char symbol);
  void end(cudaStream_t stream);

  // One row per stream, `width` characters for the whole span: the operation's symbol where it ran.
  // Waits for the recorded work to finish.
  void print(std::ostream& out, int width = 100) const;

  // The operations in the order they were queued (the order of begin()), whether or not they ran yet.
  struct Queued {
    cudaStream_t stream;
    char symbol;
  };
  std::vector<Queued> issue_order() const;

 private:
  struct Span {
    cudaStream_t stream;
    char symbol;
    cudaEvent_t begin;
    cudaEvent_t end;
  };
  cudaEvent_t origin_ = nullptr;
  std::vector<Span> spans_;
};
