#include "sass_dump.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <sstream>

#include "text.hpp"

namespace cudamatch::grade {

std::string demangle(const std::string& symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && name ? std::string(name.get()) : symbol;
}

std::vector<SassFunction> parse_sass(const std::string& dump) {
  std::vector<SassFunction> functions;
  std::string arch;
  std::istringstream lines(dump);
  for (std::string line; std::getline(lines, line);) {
    const std::string text = trim(line);
    if (text.rfind("code for ", 0) == 0) {
      arch = text.substr(9);
    } else if (text.rfind("Function : ", 0) == 0) {
      functions.push_back(SassFunction{arch, demangle(trim(text.substr(11))), ""});
    } else if (!functions.empty()) {
      functions.back().code += text;
      functions.back().code += '\n';
    }
  }
  return functions;
}

SassJudgement judge_sass(const SassCheck& check, const std::vector<SassFunction>& functions) {
  std::vector<std::string> problems;
  std::vector<std::string> checked;
  for (const auto& function : functions) {
    if (function.name.find(check.function) == std::string::npos) continue;
    checked.push_back(function.name + " [" + function.arch + "]");
    for (const auto& wanted : check.contains) {
      if (function.code.find(wanted) == std::string::npos) problems.push_back(checked.back() + " has no " + wanted);
    }
    for (const auto& unwanted : check.absent) {
      if (function.code.find(unwanted) != std::string::npos) problems.push_back(checked.back() + " has " + unwanted);
    }
  }
  if (checked.empty()) return SassJudgement{false, "no function named like \"" + check.function + "\" in the SASS"};
  if (!problems.empty()) return SassJudgement{false, join(problems, "; ")};
  std::vector<std::string> what;
  for (const auto& wanted : check.contains) what.push_back("has " + wanted);
  for (const auto& unwanted : check.absent) what.push_back("no " + unwanted);
  return SassJudgement{true, join(checked, ", ") + ": " + join(what, ", ")};
}

}  // namespace cudamatch::grade
