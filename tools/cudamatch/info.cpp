// `cudamatch info`: the GPU, its theoretical bandwidth, and the bandwidth measured now.
#include <iostream>

#include "commands.hpp"
#include "common/bandwidth.hpp"
#include "common/ceilings.hpp"
#include "common/cuda_check.hpp"
#include "common/device_info.hpp"
#include "common/table.hpp"
#include "peers.hpp"

namespace cudamatch::cli {

namespace {

int run_info(int device_index) {
  const DeviceAvailability devices = cuda_devices();
  if (devices.count == 0) {
    std::cerr << "cudamatch: no CUDA device was found (" << devices.reason << ")\n";
    return kExitTrouble;
  }
  if (device_index < 0 || device_index >= devices.count) {
    std::cerr << "cudamatch: no CUDA device " << device_index << " (found " << devices.count << ")\n";
    return kExitTrouble;
  }
  CUDA_CHECK(cudaSetDevice(device_index));
  const DeviceInfo d = query_device(device_index);
  const Ceilings ceilings = measure_ceilings(d);
  const std::size_t bytes = ceilings.buffer_bytes;
  const double peak = ceilings.theoretical_gbps;
  const double copy = ceilings.device_copy_gbps;
  const double read = ceilings.device_read_gbps;
  const double h2d = measure_host_to_device_gbps(256 * kMiB);

  std::cout << "GPU " << d.index << ": " << d.name << " (compute capability " << d.cc_major << "." << d.cc_minor
            << ")\n\n";
  Table table({"property", "value", "note"});
  table.add_row({"multiprocessors", std::to_string(d.sm_count), ""});
  table.add_row({"L2 cache", fixed(static_cast<double>(d.l2_bytes) / kMiB, 1) + " MiB", ""});
  table.add_row({"global memory", fixed(static_cast<double>(d.global_memory_bytes) / kGiB, 1) + " GiB", ""});
  table.add_row({"memory clock x bus",
                 fixed(d.memory_clock_khz / 1e3, 0) + " MHz x " + std::to_string(d.memory_bus_bits) + " bit", ""});
  table.add_row({"theoretical bandwidth", fixed(peak, 0) + " GB/s", "2 x clock x bus width / 8"});
  table.add_row({"device copy (measured)", fixed(copy, 0) + " GB/s",
                 fixed(percent_of(copy, peak), 1) + "% of theoretical; cudaMemcpy D2D, read+write, " +
                     fixed(static_cast<double>(bytes) / kMiB, 0) + " MiB"});
  table.add_row({"device read (measured)", fixed(read, 0) + " GB/s",
                 fixed(percent_of(read, peak), 1) + "% of theoretical; int4 grid-stride read kernel"});
  table.add_row({"host to device (measured)", fixed(h2d, 1) + " GB/s", "pinned cudaMemcpy, 256 MiB"});
  table.print(std::cout);
  std::cout << "\nMedian of 20 timed runs after 3 warm-up runs, CUDA events. GB = 1e9 bytes.\n";
  return kExitOk;
}

std::string cuda_version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

}  // namespace

std::string version_text() {
  std::string text = std::string("cudamatch ") + CUDAMATCH_VERSION + " (" + CUDAMATCH_TRACK_NAME + " track)\n";
  int runtime = 0;
  text += "CUDA runtime " + (cudaRuntimeGetVersion(&runtime) == cudaSuccess ? cuda_version(runtime) : "unknown") + "\n";
  int driver = 0;
  if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) {
    text += "CUDA driver " + cuda_version(driver) + "\n";
  } else {
    text += "CUDA driver: none installed\n";
  }
  const DeviceAvailability devices = cuda_devices();
  if (devices.count == 0) text += "no CUDA device (" + devices.reason + ")";
  for (int i = 0; i < devices.count; ++i) {
    cudaDeviceProp p{};
    if (i > 0) text += "\n";
    if (cudaGetDeviceProperties(&p, i) == cudaSuccess) {
      text += "GPU " + std::to_string(i) + ": " + p.name + " (compute capability " + std::to_string(p.major) + "." +
              std::to_string(p.minor) + ")";
    } else {
      text += "GPU " + std::to_string(i) + ": cannot be queried";
      cudaGetLastError();
    }
  }
  return text + "\n" + hyperscan_status();
}

void add_info_command(CLI::App& app, std::function<int()>& run) {
  auto* info = app.add_subcommand("info", "Show the GPU, its theoretical bandwidth and the bandwidth measured now");
  auto device = std::make_shared<int>(0);
  info->add_option("-d,--device", *device, "CUDA device index")->capture_default_str();
  info->callback([&run, device] { run = [device] { return run_info(*device); }; });
}

}  // namespace cudamatch::cli
