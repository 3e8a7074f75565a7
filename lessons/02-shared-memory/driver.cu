// Lesson 02 - shared memory: the experiment. Times the naive and the tiled matrix multiply and cuBLAS
// SGEMM, the ceiling, on the same matrices; each version is checked before and after it is timed.
//
//   ./build/default/bin/02-shared-memory [--shape M K N] [--size N] [--reps R] [--warmup W] [--json FILE]
//
// With neither --shape nor --size it runs the classic 2000x3000 by 3000x5000 product, then a square
// 4096 one; with either, only the shapes given (ncu.sh runs --size 2048 alone).
#include <cublas_v2.h>

#include <cstdint>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/cli_parse.hpp"
#include "common/driver.hpp"
#include "common/generators.hpp"
#include "common/report.hpp"
#include "common/results_json.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "matmul.hpp"
#include "matmul_check.hpp"

using namespace cudamatch;

namespace {

void cublas_check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + ": " + cublasGetStatusString(status));
}

class Cublas {
 public:
  Cublas() {
    cublas_check(cublasCreate(&handle_), "cublasCreate");
    // Plain FP32 arithmetic, as in our kernels. CUBLAS_DEFAULT_MATH never uses reduced precision for
    // SGEMM: TF32 tensor cores (CUBLAS_TF32_TENSOR_OP_MATH) and BF16x9 emulation are opt-in, and the
    // check after each run would reject TF32's 10-bit mantissas.
    cublas_check(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  }
  ~Cublas() { cublasDestroy(handle_); }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;

  // C = A B for the row-major matrices of matmul.hpp. cuBLAS is column-major, where a row-major
  // matrix reads as its transpose; so it computes C^T = B^T A^T: "B times A" with M and N swapped.
  void sgemm(const float* A, const float* B, float* C, int M, int K, int N, cudaStream_t stream) const {
    const float one = 1.0f;
    const float zero = 0.0f;
    cublas_check(cublasSetStream(handle_, stream), "cublasSetStream");
    cublas_check(cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N), "cublasSgemm");
  }

 private:
  cublasHandle_t handle_ = nullptr;
};

struct Shape {
  int M, K, N;
};

struct Version {
  std::string id;  // the row's id in the results file
  std::string name;
  std::function<void(cudaStream_t)> run;
  std::string note;
  std::optional<TimingStats> time = {};  // empty when its product was wrong
};

constexpr int kPoison = 0xFF;  // every byte 0xFF: C starts as NaN, so an unwritten element is wrong

// Runs one shape: checks, times and checks again each version, prints the table and adds its rows to
// `results` (case "MxKxN", labelled "M x K x N"). False when a version computed a wrong product.
bool run_shape(const RunContext& context, const Cublas& cublas, Shape s, TimingOptions timing, DriverResults& results) {
  const int M = s.M, K = s.K, N = s.N;
  const std::vector<float> A = random_floats(static_cast<std::size_t>(M) * K, 1);
  const std::vector<float> B = random_floats(static_cast<std::size_t>(K) * N, 2);
  DeviceBuffer<float> dA(A.size()), dB(B.size()), dC(static_cast<std::size_t>(M) * N);
  dA.upload(A.data(), A.size());
  dB.upload(B.data(), B.size());

  const double flops = 2.0 * M * K * N;
  const std::uint64_t min_bytes =
      4 * (static_cast<std::uint64_t>(M) * K + static_cast<std::uint64_t>(K) * N + static_cast<std::uint64_t>(M) * N);
  std::cout << "\nC = A B, A " << M << " x " << K << ", B " << K << " x " << N << ": " << fixed(flops / 1e9, 1)
            << " GFLOP, " << fixed(static_cast<double>(min_bytes) / 1e6, 1)
            << " MB to read and write at the least; median of " << timing.reps
            << (timing.reps == 1 ? " run\n" : " runs\n");

  std::vector<float> C(dC.size());
  const std::size_t checked = matmul_checked_elements(M, N, MatmulCoverage::sample).size();
  // Whether the product the last run left in C is right, on a sample of its elements.
  const auto product_is_right = [&](const std::string& version, const char* when) {
    dC.download(C.data(), C.size());
    const std::size_t errors = count_matmul_errors(A.data(), B.data(), C.data(), M, K, N, MatmulCoverage::sample);
    if (errors != 0) {
      std::cerr << version << ": " << errors << " of " << checked << " checked elements wrong " << when << " timing\n";
    }
    return errors == 0;
  };

  const float* a = dA.data();
  const float* b = dB.data();
  float* c = dC.data();
  std::vector<Version> versions = {
      {"naive", "naive", [=](cudaStream_t st) { matmul_naive(a, b, c, M, K, N, st); }, ""},
      {"tiled", "tiled", [=](cudaStream_t st) { matmul_tiled(a, b, c, M, K, N, st); }, ""},
      {"cublas", "cuBLAS SGEMM", [=, &cublas](cudaStream_t st) { cublas.sgemm(a, b, c, M, K, N, st); },
       "the ceiling: FP32, CUBLAS_DEFAULT_MATH"},
  };
  const Version& naive = versions[0];
  const Version& tiled = versions[1];
  const Version& sgemm = versions[2];
  bool all_right = true;
  // Every timed run writes a poisoned C: the check after timing sees what the last timed run wrote.
  timing.before_each = [&](cudaStream_t st) { CUDA_CHECK(cudaMemsetAsync(c, kPoison, dC.size() * sizeof(float), st)); };
  for (Version& v : versions) {
    dC.fill_bytes(kPoison);
    v.run(nullptr);
    if (!product_is_right(v.name, "before")) {
      all_right = false;
      continue;
    }
    const TimingStats time = time_on_gpu(v.run, timing);
    if (!product_is_right(v.name, "after")) {
      all_right = false;
      continue;
    }
    v.time = time;
  }

  const auto gflops = [&](const Version& v) { return v.time ? flops / v.time->median_ms / 1e6 : 0.0; };
  const double cublas_gflops = gflops(sgemm);
  Table table({"version", "median ms", "GFLOP/s", "% of cuBLAS", "GB/s", "% of copy", "note"});
  const ResultCase input{std::to_string(M) + "x" + std::to_string(K) + "x" + std::to_string(N),
                         std::to_string(M) + " x " + std::to_string(K) + " x " + std::to_string(N)};
  for (const Version& v : versions) {
    if (!v.time) {
      table.add_row({v.name, "-", "-", "-", "-", "-", "WRONG PRODUCT (see the message above)"});
      results.add({input, v.id, v.name, std::nullopt, std::nullopt, false});
      continue;
    }
    const double gbps = gb_per_s(min_bytes, v.time->median_ms);
    results.add({input, v.id, v.name, v.time->median_ms, gbps, true});
    table.add_row({v.name, fixed(v.time->median_ms, 3), fixed(gflops(v), 0),
                   fixed(percent_of(gflops(v), cublas_gflops), 1), fixed(gbps, 1),
                   fixed(percent_of(gbps, context.ceilings.device_copy_gbps), 2), v.note});
  }
  table.print(std::cout);
  if (naive.time && tiled.time) {
    std::cout << "tiled is " << fixed(naive.time->median_ms / tiled.time->median_ms, 2) << "x as fast as naive";
    if (sgemm.time) {
      std::cout << "; cuBLAS is " << fixed(tiled.time->median_ms / sgemm.time->median_ms, 2) << "x as fast as tiled";
    }
    std::cout << '\n';
  }
  return all_right;
}

int experiment(const std::vector<Shape>& shapes, TimingOptions timing, const std::string& json_path) {
  const RunContext context = measure_run_context(std::cout);
  DriverResults results("02-shared-memory", context.device, context.ceilings);
  std::cout << "GB/s counts the least traffic possible, A and B read once and C written once: "
               "(M K + K N + M N) x 4 bytes\n";
  const Cublas cublas;
  bool all_right = true;
  for (const Shape& s : shapes) all_right = run_shape(context, cublas, s, timing, results) && all_right;
  results.save(json_path);
  return all_right ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 02: naive and shared-memory tiled matrix multiply against cuBLAS SGEMM"};
  std::vector<int> shape;
  int size = 0;
  TimingOptions timing;
  std::string json_path;
  app.footer("Without --shape or --size: 2000 x 3000 by 3000 x 5000, then 4096 x 4096 by 4096 x 4096.");
  auto* shape_option = app.add_option("--shape", shape, "M K N: run A (M x K) by B (K x N) instead")
                           ->expected(3)
                           ->check(CLI::Range(1, 32768));
  auto* size_option =
      app.add_option("--size", size, "N: run a square N x N by N x N product instead")->check(CLI::Range(1, 32768));
  app.add_option("--reps", timing.reps, "timed repetitions")->check(CLI::Range(1, 10000))->capture_default_str();
  app.add_option("--warmup", timing.warmup, "untimed runs before them")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  add_json_option(app, json_path);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;

  std::vector<Shape> shapes;
  if (shape_option->count() > 0) shapes.push_back({shape[0], shape[1], shape[2]});
  if (size_option->count() > 0) shapes.push_back({size, size, size});
  if (shapes.empty()) shapes = {{2000, 3000, 5000}, {4096, 4096, 4096}};
  return run_driver("02-shared-memory", [&] { return experiment(shapes, timing, json_path); });
}
