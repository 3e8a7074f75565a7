#include "timeline.hpp"

#include <algorithm>
#include <ostream>

#include "common/cuda_check.hpp"
#include "common/table.hpp"

Timeline::Timeline() { CUDA_CHECK(cudaEventCreate(&origin_)); }

Timeline::~Timeline() {
  for (const Span& s : spans_) {
    cudaEventDestroy(s.begin);
    cudaEventDestroy(s.end);
  }
  cudaEventDestroy(origin_);
}

void Timeline::start(cudaStream_t stream) { CUDA_CHECK(cudaEventRecord(origin_, stream)); }

void Timeline::begin(cudaStream_t stream, char symbol) {
  Span span{stream, symbol, nullptr, nullptr};
  CUDA_CHECK(cudaEventCreate(&span.begin));
  CUDA_CHECK(cudaEventCreate(&span.end));
  CUDA_CHECK(cudaEventRecord(span.begin, stream));
  spans_.push_back(span);
}

void Timeline::end(cudaStream_t stream) {
  // The most recent unfinished span of this stream.
  for (auto it = spans_.rbegin(); it != spans_.rend(); ++it) {
    if (it->stream == stream) {
      CUDA_CHECK(cudaEventRecord(it->end, stream));
      return;
    }
  }
}

std::vector<Timeline::Queued> Timeline::issue_order() const {
  std::vector<Queued> order;
  for (const Span& s : spans_) order.push_back({s.stream, s.symbol});
  return order;
}

void Timeline::print(std::ostream& out, int width) const {
  struct Drawn {
    cudaStream_t stream;
    char symbol;
    float from, to;
  };
  std::vector<Drawn> drawn;
  std::vector<cudaStream_t> streams;
  float span_ms = 0.0f;
  for (const Span& s : spans_) {
    CUDA_CHECK(cudaEventSynchronize(s.end));
    float from = 0.0f, to = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&from, origin_, s.begin));
    CUDA_CHECK(cudaEventElapsedTime(&to, origin_, s.end));
    drawn.push_back({s.stream, s.symbol, from, to});
    span_ms = std::max(span_ms, to);
    if (std::find(streams.begin(), streams.end(), s.stream) == streams.end()) streams.push_back(s.stream);
  }
  if (drawn.empty() || span_ms <= 0.0f) return;
  for (std::size_t i = 0; i < streams.size(); ++i) {
    std::string row(static_cast<std::size_t>(width), '.');
    for (const Drawn& d : drawn) {
      if (d.stream != streams[i]) continue;
      const auto first = static_cast<std::size_t>(d.from / span_ms * (width - 1));
      const auto last = static_cast<std::size_t>(d.to / span_ms * (width - 1));
      for (std::size_t c = first; c <= last && c < row.size(); ++c) row[c] = d.symbol;
    }
    out << "stream " << i << " |" << row << "|\n";
  }
  out << "          0 ms" << std::string(static_cast<std::size_t>(std::max(width - 12, 1)), ' ')
      << cudamatch::fixed(span_ms, 2) << " ms\n";
}
