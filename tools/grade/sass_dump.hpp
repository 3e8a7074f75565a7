// Reading `cuobjdump -sass` output and judging a sass item: which instructions a kernel compiled to.
#pragma once

#include <string>
#include <vector>

#include "rubric.hpp"

namespace cudamatch::grade {

struct SassFunction {
  std::string arch;  // "sm_90"
  std::string name;  // demangled when it is a C++ name
  std::string code;
};

std::vector<SassFunction> parse_sass(const std::string& dump);

// The demangled form of a C++ symbol; the symbol itself when it is not one.
std::string demangle(const std::string& symbol);

struct SassJudgement {
  bool passed = false;
  std::string reason;
};

// Every function whose name contains check.function (one per architecture) must contain each of
// check.contains and none of check.absent; no such function at all fails.
SassJudgement judge_sass(const SassCheck& check, const std::vector<SassFunction>& functions);

}  // namespace cudamatch::grade
