// A Catch2 2.x test name as a test spec that selects exactly that test: the characters that a spec
// gives a meaning (, [ ] ~ * " \) escaped. Shared by the tests' Catch2 main (which re-runs the host
// tests by name) and the grader (which runs each test case by name); header-only, with no dependency.
#pragma once

#include <string>

namespace cudamatch {

inline std::string exact_test_spec(const std::string& name) {
  std::string spec;
  for (char c : name) {
    if (c == ',' || c == '[' || c == ']' || c == '~' || c == '*' || c == '"' || c == '\\') spec += '\\';
    spec += c;
  }
  return spec;
}

}  // namespace cudamatch
