#include "common/driver.hpp"

#include <exception>
#include <iostream>

#include "common/device_info.hpp"

namespace cudamatch {

int run_driver(const char* name, const std::function<int()>& experiment) {
  const DeviceAvailability devices = cuda_devices();
  if (devices.count == 0) {
    std::cerr << name << ": no CUDA device was found (" << devices.reason << ")\n";
    return 2;
  }
  try {
    return experiment();
  } catch (const std::exception& e) {
    std::cerr << name << ": error: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace cudamatch
