// Reading the PTX that a lesson compiles for its host-side tests (cudamatch_add_lesson's PTX file,
// CUDAMATCH_PTX_FILE): checks of the compiled code that run without a GPU.
#pragma once

#include <string>
#include <vector>

namespace cudamatch::testing {

// The whole file at `path`; "" when it cannot be read.
std::string read_text(const std::string& path);

// The kernel of `ptx` whose mangled name contains every one of `name_parts`, from its `.entry` to the
// brace that closes its body; "" when there is none.
std::string ptx_entry(const std::string& ptx, const std::vector<std::string>& name_parts);

// ptx_entry of the PTX file at `path` (a lesson's CUDAMATCH_PTX_FILE); throws std::runtime_error, naming
// the file, when it cannot be read or holds no such kernel.
std::string compiled_kernel(const std::string& path, const std::vector<std::string>& name_parts);

}  // namespace cudamatch::testing
