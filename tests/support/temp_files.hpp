// Places for the files the tests write, under $TMPDIR (else /tmp).
#pragma once

#include <string>

namespace cudamatch::testing {

// A fresh empty directory (mkdtemp); the test's REQUIRE fails when it cannot be made.
std::string make_temp_dir();

// A path for a file named `name` that no other test process uses (the process id is in it).
std::string temp_path(const std::string& name);

}  // namespace cudamatch::testing
