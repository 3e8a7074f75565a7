#include "temp_files.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstdlib>

namespace cudamatch::testing {

namespace {

std::string temp_root() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && dir[0] != '\0' ? dir : "/tmp";
}

}  // namespace

std::string make_temp_dir() {
  std::string pattern = temp_root() + "/cudamatch-XXXXXX";
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

std::string temp_path(const std::string& name) {
  return temp_root() + "/cudamatch-" + std::to_string(::getpid()) + "-" + name;
}

}  // namespace cudamatch::testing
