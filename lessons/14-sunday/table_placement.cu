// Lesson 14, side experiment: where the shift table lives. The same search (v2's staged tile, chunks of
// 68 window starts, windows compared byte by byte) with its table lookups served from shared memory,
// constant memory or global memory (through L1). Only the lookup differs, so the times say what a
// data-indexed lookup costs in each: constant memory serves a warp one address per pass.
//
//   ./build/default/bin/14-sunday-table-placement [--mib 256] [--lengths 4,16,64,256] [--reps 5]
#include <iostream>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/cli_parse.hpp"
#include "common/corpus.hpp"
#include "common/cuda_check.hpp"
#include "engine/device_text.hpp"
#include "common/driver.hpp"
#include "common/matchers/cpu_matcher.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"

using namespace cudamatch;

namespace {

enum class Place { shared, constant, global };

constexpr unsigned kThreads = 256;
constexpr unsigned kChunk = 68;
constexpr unsigned kTile = kThreads * kChunk;
constexpr unsigned kMaxLength = 1024;

__constant__ int c_shift[256];

template <Place kPlace>
__device__ int lookup(const int* s_shift, const int* __restrict__ g_shift, std::uint8_t c) {
  if constexpr (kPlace == Place::shared) return s_shift[c];
  if constexpr (kPlace == Place::constant) return c_shift[c];
  return g_shift[c];
}

template <Place kPlace>
__global__ void __launch_bounds__(kThreads)
    search_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                  unsigned m, const int* __restrict__ g_shift, unsigned long long* count) {
  __shared__ uint4 staged[(kTile + kMaxLength + 15) / 16];
  __shared__ int s_shift[256];
  __shared__ std::uint8_t s_pattern[kMaxLength];
  __shared__ unsigned block_count;
  const auto* s_text = reinterpret_cast<const std::uint8_t*>(staged);
  const std::size_t tile_start = static_cast<std::size_t>(blockIdx.x) * kTile;
  for (unsigned v = threadIdx.x; v < (kTile + m + 15) / 16; v += kThreads) {
    const uint4* source = reinterpret_cast<const uint4*>(text + tile_start);
    staged[v] = tile_start + 16 * v < n ? source[v] : make_uint4(0, 0, 0, 0);
  }
  for (unsigned j = threadIdx.x; j < m; j += kThreads) s_pattern[j] = pattern[j];
  s_shift[threadIdx.x] = g_shift[threadIdx.x];  // kThreads == 256: one entry each
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();

  const std::size_t last_in_text = n - m - tile_start;
  const auto last = static_cast<unsigned>(last_in_text < kTile ? last_in_text : kTile);
  const unsigned first = threadIdx.x * kChunk;
  const unsigned end = first + kChunk < last + 1 ? first + kChunk : last + 1;
  unsigned found = 0;
  for (unsigned s = first; s < end;) {
    unsigned j = 0;
    while (j < m && s_text[s + j] == s_pattern[j]) ++j;
    found += j == m;
    if (s == last) break;
    s += lookup<kPlace>(s_shift, g_shift, s_text[s + m]);
  }
  if (found > 0) atomicAdd(&block_count, found);
  __syncthreads();
  if (threadIdx.x == 0 && block_count > 0) atomicAdd(count, static_cast<unsigned long long>(block_count));
}

using Kernel = void (*)(const std::uint8_t*, std::size_t, const std::uint8_t*, unsigned, const int*,
                        unsigned long long*);
constexpr Kernel kKernels[] = {search_kernel<Place::shared>, search_kernel<Place::constant>,
                               search_kernel<Place::global>};

struct Options {
  std::size_t mib = 256;
  std::vector<unsigned> lengths = {4, 16, 64, 256};
  int reps = 5;
};

int experiment(const Options& o) {
  bool valid = true;
  for (const std::string corpus_name : {"E.coli", "bible.txt"}) {
    const Corpus corpus = load_corpus(corpus_name, default_data_dir(), &std::cerr);
    const std::vector<std::uint8_t> host = repeat_to(corpus.bytes, o.mib * kMiB);
    const DeviceText text(host);
    Table table({"m", "shared GB/s", "constant GB/s", "global GB/s"});
    for (const unsigned m : o.lengths) {
      const ByteView pattern_view(corpus.bytes.data() + corpus.bytes.size() / 3, m);
      const DevicePattern pattern(pattern_view);
      std::vector<int> shift(256, static_cast<int>(m + 1));
      for (unsigned j = 0; j < m; ++j) shift[pattern_view.data[j]] = static_cast<int>(m - j);
      DeviceBuffer<int> g_shift(256);
      g_shift.upload(shift.data(), shift.size());
      CUDA_CHECK(cudaMemcpyToSymbol(c_shift, shift.data(), 256 * sizeof(int)));
      const std::uint64_t expected = make_cpu_matcher(Algorithm::sunday, pattern_view)->count(host);
      DeviceBuffer<unsigned long long> count(1);
      const auto blocks = static_cast<unsigned>((text.size() - m) / kTile + 1);
      std::vector<std::string> cells = {std::to_string(m)};
      for (const Kernel kernel : kKernels) {
        const auto search = [&](cudaStream_t stream) {
          CUDA_CHECK(cudaMemsetAsync(count.data(), 0, sizeof(unsigned long long), stream));
          kernel<<<blocks, kThreads, 0, stream>>>(text.data(), text.size(), pattern.data(), m, g_shift.data(),
                                                  count.data());
          CUDA_CHECK_LAUNCH();
        };
        TimingOptions timing;
        timing.reps = o.reps;
        const double ms = time_on_gpu(search, timing).median_ms;
        unsigned long long found = 0;
        count.download(&found, 1);
        valid = valid && found == expected;
        cells.push_back(fixed(gb_per_s(host.size(), ms), 1));
      }
      table.add_row(cells);
    }
    std::cout << "\n"
              << corpus_name << (corpus.synthetic ? " (SYNTHETIC stand-in)" : "") << " repeated to " << o.mib
              << " MiB, GB/s of text, median of " << o.reps << " runs\n";
    table.print(std::cout);
  }
  if (!valid) std::cerr << "a count disagrees with the CPU\n";
  return valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 14 side experiment: Quick Search with its shift table in shared, constant or global memory"};
  Options o;
  add_mib_option(app, o.mib);
  add_lengths_option(app, o.lengths, kMaxLength);
  app.add_option("--reps", o.reps, "timed runs")->check(CLI::Range(1, 1000))->capture_default_str();
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  return run_driver("14-sunday-table-placement", [&] { return experiment(o); });
}
