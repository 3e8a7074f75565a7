#include "common/matchers/cpu_matcher.hpp"

#include "common/matchers/kernel_support.hpp"
#include "common/matchers/matcher_detail.hpp"

namespace cudamatch {

namespace {
struct NamedAlgorithm {
  Algorithm algorithm;
  const char* name;
};

constexpr NamedAlgorithm kAlgorithms[] = {
    {Algorithm::bf, "bf"},         {Algorithm::kmp, "kmp"},   {Algorithm::bm, "bm"},
    {Algorithm::sunday, "sunday"}, {Algorithm::epsm, "epsm"}, {Algorithm::ssef, "ssef"},
};
}  // namespace

const std::vector<Algorithm>& all_algorithms() {
  static const std::vector<Algorithm> algorithms = [] {
    std::vector<Algorithm> list;
    for (const auto& entry : kAlgorithms) list.push_back(entry.algorithm);
    return list;
  }();
  return algorithms;
}

const char* algorithm_name(Algorithm a) {
  for (const auto& entry : kAlgorithms) {
    if (entry.algorithm == a) return entry.name;
  }
  return "unknown";
}

std::optional<Algorithm> parse_algorithm(const std::string& name) {
  for (const auto& entry : kAlgorithms) {
    if (name == entry.name) return entry.algorithm;
  }
  return std::nullopt;
}

CpuMatcher::CpuMatcher(ByteView pattern) {
  if (pattern.size == 0) throw EmptyPatternError();
  pattern_.assign(pattern.data, pattern.data + pattern.size);
}

std::unique_ptr<CpuMatcher> make_cpu_matcher(Algorithm algorithm, ByteView pattern) {
  switch (algorithm) {
    case Algorithm::bf:
      return detail::make_bf_matcher(pattern);
    case Algorithm::kmp:
      return detail::make_kmp_matcher(pattern);
    case Algorithm::bm:
      return detail::make_bm_matcher(pattern);
    case Algorithm::sunday:
      return detail::make_sunday_matcher(pattern);
    case Algorithm::epsm:
      return detail::make_epsm_matcher(pattern, detail::simd_supported());
    case Algorithm::ssef:
      return detail::make_ssef_matcher(pattern, detail::simd_supported());
  }
  throw std::invalid_argument("unknown matcher algorithm");
}

namespace detail {
bool simd_supported() {
#if CUDAMATCH_MATCHERS_X86
  static const bool supported = __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("popcnt");
  return supported;
#else
  return false;
#endif
}
}  // namespace detail

}  // namespace cudamatch
