#include "version_checks.hpp"

#include <catch2/catch.hpp>

#include "common/brute_force.hpp"
#include "gpu_matcher_checks.hpp"

namespace cudamatch::testing {

namespace {

// Runs a registered test case.
class Invoker final : public Catch::ITestInvoker {
 public:
  explicit Invoker(std::function<void()> run) : run_(std::move(run)) {}
  void invoke() const override { run_(); }

 private:
  std::function<void()> run_;
};

}  // namespace

void register_test_case(const std::string& name, const std::string& tags, std::function<void()> run) {
  // Catch2 copies the name and the tags, and owns the invoker from here on.
  const Catch::AutoReg registered(new Invoker(std::move(run)), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                                  Catch::NameAndTags{name, tags});
}

namespace {

void check_errors(const GpuAlgorithm& algorithm) {
  const DeviceText text(std::vector<std::uint8_t>{'a'});
  const DevicePattern empty(ByteView{});
  CHECK_THROWS_AS(gpu_count(algorithm.best(), text, empty), EmptyPatternError);
  const auto versions = static_cast<int>(algorithm.versions.size());
  CHECK_THROWS_WITH(algorithm.version(versions), Catch::Contains("v0 to v" + std::to_string(versions - 1)));
}

}  // namespace

const Edges& chunked_tile_edges(int number) {
  static const Edges chunks{"chunk edges", {256, 4096}};
  static const Edges tiles{"tile edges", {68, 17408}};
  return number < 2 ? chunks : tiles;
}

VersionChecks::VersionChecks(const GpuAlgorithm& algorithm, std::uint64_t seed,
                             const std::function<const Edges&(int number)>& edges,
                             const std::vector<VersionCheck>& more) {
  for (std::size_t n = 0; n < algorithm.versions.size(); ++n) {
    const GpuVersion& version = algorithm.versions[n];
    const auto number = static_cast<int>(n);
    const std::string tags = number == 0 ? "[gpu]" : "[gpu][todo]";
    const auto name = [&](const std::string& what) { return std::string(version.name) + " " + what; };
    register_test_case(name("equals the CPU brute force on random texts and patterns"), tags,
                       [&version, edges, seed, number] { random_cases(version, edges(number).at, seed + number); });
    register_test_case(name("handles all-equal texts, " + edges(number).name + ", whole-text patterns"), tags,
                       [&version, edges, number] { edge_cases(version, edges(number).at); });
    for (const VersionCheck& check : more) {
      register_test_case(name(check.name), tags, [&version, run = check.check, number] { run(version, number); });
    }
  }
  register_test_case("an empty pattern is an error, a version that does not exist is named", "[gpu]",
                     [&algorithm] { check_errors(algorithm); });
}

void check_batch_counts(const GpuVersion& version, const std::vector<std::uint8_t>& text,
                        const std::vector<std::vector<std::uint8_t>>& patterns) {
  const DeviceText device_text(text);
  std::vector<DevicePattern> device_patterns;
  std::vector<const DevicePattern*> batch;
  device_patterns.reserve(patterns.size());
  for (const auto& p : patterns) batch.push_back(&device_patterns.emplace_back(p));
  const std::vector<std::uint64_t> counts = gpu_count_batch(version, device_text, batch);
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    INFO("m " << patterns[p].size());
    CHECK(counts[p] == brute_force_count(text, patterns[p]));
  }
}

}  // namespace cudamatch::testing
