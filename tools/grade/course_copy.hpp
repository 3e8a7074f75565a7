// A private copy of the course for grading a submission: the course's files without its build
// outputs, clones and caches (build/, .git/, .deps/, datasets/cache/) and without the reference
// solutions (solutions/), which a submission must not be able to include.
#pragma once

#include <filesystem>
#include <stdexcept>

namespace cudamatch::grade {

struct CourseCopyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Makes `copy` hold exactly the course's files. Only files whose content differs are written, so a
// kept build directory recompiles only what changed. `copy` must be new, empty, or an earlier copy
// (it carries a marker file): anything else is refused rather than overwritten.
void mirror_course(const std::filesystem::path& course, const std::filesystem::path& copy);

// Copies `from` over `to` unless `to` already has the same bytes; returns whether it wrote. A link or
// anything else at `to` is replaced, never written through.
bool copy_if_different(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace cudamatch::grade
