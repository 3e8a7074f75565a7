// Lesson 09 - unified memory: what the driver migrated and how often the GPU and the CPU faulted, as
// the CUDA driver itself reports it through CUPTI's activity records (the unified-memory counters that
// `nsys profile --cuda-um-gpu-page-faults=true --cuda-um-cpu-page-faults=true` shows), for GPUs
// whose machine has no Nsight Systems. CUPTI is loaded at run time (dlopen), so the lesson builds and
// runs without it; the counters then say why they are unavailable.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

struct UmCounts {
  std::uint64_t htod_bytes = 0;        // migrated host to device (faults and prefetches)
  std::uint64_t dtoh_bytes = 0;        // migrated device to host (evictions, CPU faults, prefetches)
  std::uint64_t gpu_fault_groups = 0;  // GPU page faults, counted in the groups the driver serves together
  std::uint64_t cpu_faults = 0;        // CPU page faults on managed memory
  std::uint64_t thrashing = 0;         // regions the driver found moving back and forth
  std::uint64_t throttling = 0;        // times the driver throttled a processor to stop thrashing
};

// Which counters to enable: all of them, or the bytes migrated each way alone.
enum class UmCounterSet { all, bytes };

class UmCounters {
 public:
  // Loads CUPTI and enables the counters; available() is false, and reason() says why, when it cannot.
  // Construct it before the first CUDA call: the counters see the contexts created after it.
  explicit UmCounters(UmCounterSet set = UmCounterSet::all);
  ~UmCounters();
  UmCounters(const UmCounters&) = delete;
  UmCounters& operator=(const UmCounters&) = delete;

  bool available() const { return available_; }
  const std::string& reason() const { return reason_; }

  // The counts of what `work` caused: `work` must finish its GPU work (synchronize) before it returns.
  // Records of earlier work are flushed and dropped first. All zero when the counters are unavailable.
  UmCounts measure(const std::function<void()>& work);

 private:
  bool available_ = false;
  std::string reason_;
  void* library_ = nullptr;
};
