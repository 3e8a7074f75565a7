#include "um_counters.hpp"

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#if __has_include(<cupti.h>) && __has_include(<dlfcn.h>)
#define CUDAMATCH_HAVE_CUPTI 1
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <dlfcn.h>
#else
#define CUDAMATCH_HAVE_CUPTI 0
#endif

#if CUDAMATCH_HAVE_CUPTI

namespace {

#if CUPTI_API_VERSION >= 130000
using Record = CUpti_ActivityUnifiedMemoryCounter3;
#else
using Record = CUpti_ActivityUnifiedMemoryCounter2;
#endif

// The CUPTI functions this file calls, looked up in the library at run time.
struct Cupti {
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityConfigureUnifiedMemoryCounter) configure = nullptr;
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiGetResultString) result_string = nullptr;
};

Cupti cupti;
UmCounts tally;         // what the records delivered while counting add up to
bool counting = false;  // records delivered outside measure() are dropped

constexpr std::size_t kBufferBytes = 8 << 20;

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer == nullptr ? 0 : kBufferBytes;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cupti.next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER) continue;
    const auto* um = reinterpret_cast<const Record*>(record);
    if (!counting) continue;
    switch (um->counterKind) {
      case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD:
        tally.htod_bytes += um->value;
        break;
      case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH:
        tally.dtoh_bytes += um->value;
        break;
      case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT:
        tally.gpu_fault_groups += 1;
        break;
      case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT:
        tally.cpu_faults += 1;
        break;
      case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING:
        tally.thrashing += 1;
        break;
      case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING:
        tally.throttling += 1;
        break;
      default:
        break;
    }
  }
  std::free(buffer);
}

std::string error_text(CUptiResult result) {
  const char* text = nullptr;
  if (cupti.result_string == nullptr || cupti.result_string(result, &text) != CUPTI_SUCCESS || text == nullptr) {
    return "CUPTI error " + std::to_string(static_cast<int>(result));
  }
  return text;
}

// The places a CUDA Toolkit keeps libcupti: the loader's path first, then the toolkit's folders.
std::vector<std::string> library_candidates() {
  std::vector<std::string> names = {"libcupti.so", "libcupti.so.13", "libcupti.so.12"};
  std::vector<std::string> roots;
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* value = std::getenv(variable); value != nullptr && value[0] != '\0') roots.emplace_back(value);
  }
  roots.emplace_back("/usr/local/cuda");
  for (const std::string& root : roots) {
    for (const char* dir :
         {"/lib64/", "/extras/CUPTI/lib64/", "/targets/x86_64-linux/lib/", "/targets/sbsa-linux/lib/"}) {
      names.push_back(root + dir + "libcupti.so");
    }
  }
  return names;
}

template <class F>
bool look_up(void* library, const char* name, F& function) {
  function = reinterpret_cast<F>(dlsym(library, name));
  return function != nullptr;
}

}  // namespace

UmCounters::UmCounters(UmCounterSet set) {
  for (const std::string& name : library_candidates()) {
    library_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library_ != nullptr) break;
  }
  if (library_ == nullptr) {
    reason_ = "libcupti not found (set CUDA_HOME to the CUDA Toolkit, or use nsys)";
    return;
  }
  if (!look_up(library_, "cuptiActivityRegisterCallbacks", cupti.register_callbacks) ||
      !look_up(library_, "cuptiActivityConfigureUnifiedMemoryCounter", cupti.configure) ||
      !look_up(library_, "cuptiActivityEnable", cupti.enable) ||
      !look_up(library_, "cuptiActivityDisable", cupti.disable) ||
      !look_up(library_, "cuptiActivityFlushAll", cupti.flush_all) ||
      !look_up(library_, "cuptiActivityGetNextRecord", cupti.next_record) ||
      !look_up(library_, "cuptiGetResultString", cupti.result_string)) {
    reason_ = "libcupti lacks the activity API";
    return;
  }
  if (cupti.register_callbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS) {
    reason_ = "CUPTI refused its activity buffers";
    return;
  }
  // The counters must be configured after the driver is initialized (CUPTI answers NOT_READY before)
  // and before the CUDA context exists (a context created earlier reports nothing). Not every driver
  // offers thrashing and throttling: without them, the migrations and faults alone. Each refusal is
  // kept for the reason printed when every attempt fails.
  const auto configure = [set](bool with_thrashing) {
    std::vector<CUpti_ActivityUnifiedMemoryCounterKind> kinds = {
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH};
    if (set == UmCounterSet::all) {
      kinds.push_back(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT);
      kinds.push_back(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT);
    }
    if (with_thrashing) {  // never asked with the byte counters alone (attempt skips it)
      kinds.push_back(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING);
      kinds.push_back(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING);
    }
    std::vector<CUpti_ActivityUnifiedMemoryCounterConfig> config;
    for (const auto kind : kinds) {
      CUpti_ActivityUnifiedMemoryCounterConfig c{};
      c.scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
      c.kind = kind;
      c.deviceId = 0;
      c.enable = 1;
      config.push_back(c);
    }
    return cupti.configure(config.data(), static_cast<std::uint32_t>(config.size()));
  };
  std::string refusals;
  const auto attempt = [&](const char* when) {
    for (const bool with_thrashing : {true, false}) {
      if (with_thrashing && set == UmCounterSet::bytes) continue;  // one configuration only
      CUptiResult status = configure(with_thrashing);
      const char* step = "configure";
      if (status == CUPTI_SUCCESS) {
        step = "enable";
        status = cupti.enable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
      }
      if (status == CUPTI_SUCCESS) return true;
      refusals += std::string(refusals.empty() ? "" : "; ") + when +
                  (set == UmCounterSet::bytes ? ", byte counters, "
                   : with_thrashing           ? ", 6 counters, "
                                              : ", 4 counters, ") +
                  step + ": " + error_text(status);
    }
    return false;
  };
  // First before anything initialized the driver, then after cuInit (the driver API's, which creates no
  // context; the runtime's cudaGetDeviceCount may not initialize the driver the way CUPTI waits for).
  bool enabled = attempt("before cuInit");
  if (!enabled) {
    // The handle is not closed: the CUDA runtime holds the same library for the rest of the process.
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    decltype(&cuInit) cu_init = nullptr;
    if (driver != nullptr) look_up(driver, "cuInit", cu_init);
    const CUresult initialized = cu_init == nullptr ? CUDA_ERROR_NOT_FOUND : cu_init(0);
    if (initialized == CUDA_SUCCESS) {
      enabled = attempt("after cuInit");
    } else {
      refusals += "; cuInit: " + (cu_init == nullptr ? std::string("not found in libcuda.so.1")
                                                     : "CUresult " + std::to_string(static_cast<int>(initialized)));
    }
  }
  if (!enabled) {
    reason_ = "CUPTI refused the unified-memory counters (" + refusals + ")";
    return;
  }
  available_ = true;
}

UmCounters::~UmCounters() {
  if (available_) {
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    cupti.disable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
  }
  // The library stays loaded: CUPTI keeps threads and callbacks of its own until the process exits.
}

UmCounts UmCounters::measure(const std::function<void()>& work) {
  if (!available_) {
    work();
    return {};
  }
  // The driver hands its records over asynchronously: flush, let late ones arrive, flush again, both
  // before (what earlier work caused is dropped) and after `work`.
  const auto drain = [] {
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  };
  drain();
  tally = UmCounts{};
  counting = true;
  work();
  drain();
  counting = false;
  return tally;
}

#else  // no CUPTI headers at build time

UmCounters::UmCounters(UmCounterSet) : reason_("built without CUPTI's headers (cupti.h)") {}
UmCounters::~UmCounters() = default;
UmCounts UmCounters::measure(const std::function<void()>& work) {
  work();
  return {};
}

#endif
