#include "track_build.hpp"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "sandbox.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace fs = std::filesystem;

namespace {

constexpr double kConfigureTimeout_s = 900;
constexpr double kBuildTimeout_s = 3600;

// Ninja's "[12/40] Building CUDA object ..." lines.
bool is_progress_line(const std::string& line) {
  static const std::regex progress(R"(^\[\d+/\d+\] )");
  return std::regex_search(line, progress);
}

}  // namespace

ProcessResult configure_track(const TrackBuild& build) {
  ProcessSpec spec = confined_spec(build.child);
  spec.argv = {build.tools.cmake.string(),
               "-S",
               build.source_dir.string(),
               "-B",
               build.build_dir.string(),
               "-G",
               "Ninja",
               "-DCMAKE_BUILD_TYPE=Release",
               "-DCUDAMATCH_TRACK=" + build.track};
  // The tools found, only on a first configure: a build directory that has them cached keeps its own
  // (a different compiler path would make CMake discard the whole cache).
  if (!fs::exists(build.build_dir / "CMakeCache.txt")) {
    spec.argv.push_back("-DCMAKE_MAKE_PROGRAM=" + build.tools.ninja.string());
    spec.argv.push_back("-DCMAKE_CUDA_COMPILER=" + build.tools.nvcc.string());
  }
  if (const char* archs = std::getenv("CUDAARCHS"); archs != nullptr && archs[0] != '\0') {
    spec.argv.push_back(std::string("-DCMAKE_CUDA_ARCHITECTURES=") + archs);
  }
  spec.timeout_s = kConfigureTimeout_s;
  spec.keep_bytes = 1 << 20;
  return run_process(spec);
}

std::vector<std::string> lesson_targets(const fs::path& course, const std::string& lesson, const std::string& track) {
  std::vector<std::string> targets;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(course / "tests" / lesson, error)) {
    if (entry.path().extension() == ".cpp") {
      targets.push_back("test." + lesson + "." + track);
      break;
    }
  }
  if (fs::exists(course / "lessons" / lesson / "driver.cu")) targets.push_back("driver." + lesson + "." + track);
  return targets;
}

namespace {

// Why the objects whose paths contain one of `markers` may not be used ("" when they may): the files
// their compiles read that lie outside the allowed roots.
std::string audit_inputs(const TrackBuild& build, const std::vector<std::string>& markers) {
  const auto ninja = [&](std::vector<std::string> tool) {
    ProcessSpec spec = confined_spec(build.child);  // the build folder is the sandbox user's
    spec.argv = {build.tools.ninja.string(), "-C", build.build_dir.string(), "-t"};
    spec.argv.insert(spec.argv.end(), tool.begin(), tool.end());
    spec.timeout_s = 300;
    spec.keep_bytes = std::size_t{256} << 20;
    spec.merge_stderr = false;
    return run_process(spec);
  };
  const ProcessResult listing = ninja({"deps"});
  const ProcessResult targets = ninja({"targets", "all"});
  if (!listing.exited_with(0) || !targets.exited_with(0)) {
    return "cannot list the files the build read (ninja -t deps " + listing.describe() + ", -t targets all " +
           targets.describe() + ")";
  }
  std::vector<fs::path> inputs;
  for (const auto& marker : markers) {
    const NinjaDeps deps = parse_ninja_deps(listing.output, marker, build.build_dir);
    for (const auto& object : compiled_objects(targets.output, marker)) {
      if (std::find(deps.recorded.begin(), deps.recorded.end(), object) == deps.recorded.end()) {
        return "the build has no valid record of what " + object + " read (ninja -t deps), so it cannot be trusted";
      }
    }
    inputs.insert(inputs.end(), deps.inputs.begin(), deps.inputs.end());
  }
  const auto outside = outside_roots(inputs, build.allowed_roots, *build.audit_course);
  if (outside.empty()) return "";
  std::vector<std::string> names;
  for (const auto& path : outside) {
    if (names.size() < 5 && std::find(names.begin(), names.end(), path.string()) == names.end())
      names.push_back(path.string());
  }
  return "the build read files from outside the submission's copy of the course, which a submission may not "
         "compile in: " +
         join(names, ", ") + (outside.size() > names.size() ? ", ..." : "");
}

}  // namespace

LessonBuildResult build_lesson(const TrackBuild& build, const std::string& lesson,
                               const std::vector<std::string>& targets, const std::vector<std::string>& uses) {
  LessonBuildResult result;
  if (targets.empty()) {
    result.ok = true;
    return result;
  }
  ProcessSpec spec = confined_spec(build.child);
  spec.argv = {build.tools.cmake.string(), "--build", build.build_dir.string(), "-j",
               std::to_string(build.jobs), "--target"};
  spec.argv.insert(spec.argv.end(), targets.begin(), targets.end());
  spec.timeout_s = kBuildTimeout_s;
  spec.keep_bytes = 1 << 20;
  const ProcessResult process = run_process(spec);
  result.ok = process.exited_with(0);
  if (!result.ok) {
    result.errors = first_error_lines(process.output, build.source_dir.string(), 40, 4000);
    if (!process.exited_with(1)) result.errors += "\n(the build " + process.describe() + ")";
  } else if (build.audit_course) {
    // Every object of the lesson's targets (its library, tests, driver, PTX), and the libraries of the
    // lessons it uses, which its targets link (their tests and drivers are not built here).
    std::vector<std::string> markers{"." + lesson + "." + build.track + ".dir/"};
    for (const auto& used : uses) markers.push_back("/lesson." + used + "." + build.track + ".dir/");
    result.errors = audit_inputs(build, markers);
    result.ok = result.errors.empty();
  }
  return result;
}

std::string first_error_lines(const std::string& log, const std::string& source_dir, std::size_t max_lines,
                              std::size_t max_chars) {
  std::vector<std::string> lines;
  {
    std::istringstream in(log);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  std::size_t first = lines.size();
  for (std::size_t i = 0; i < lines.size() && first == lines.size(); ++i) {
    if (lines[i].rfind("FAILED: ", 0) == 0) first = i;
  }
  if (first == lines.size()) {  // no compile step failed: CMake's or Ninja's own error
    static const std::regex error_line(R"((^|[\s:(])([Ee]rror|ERROR)\b)");
    for (std::size_t i = 0; i < lines.size() && first == lines.size(); ++i) {
      if (std::regex_search(lines[i], error_line)) first = i;
    }
  }
  if (first == lines.size()) return last_lines(log, max_lines, max_chars);
  std::string out;
  std::size_t kept = 0;
  const std::string prefix = source_dir.empty() ? "" : source_dir + "/";
  for (std::size_t i = first; i < lines.size() && kept < max_lines; ++i) {
    std::string line = lines[i];
    if (line.rfind("FAILED: ", 0) == 0) {
      ++i;  // and the command line that follows it
      continue;
    }
    if (is_progress_line(line) || line.rfind("ninja: build stopped", 0) == 0) continue;
    for (std::size_t at; !prefix.empty() && (at = line.find(prefix)) != std::string::npos;)
      line.erase(at, prefix.size());
    if (out.size() + line.size() + 1 > max_chars) break;
    out += line + "\n";
    ++kept;
  }
  return out;
}

}  // namespace cudamatch::grade
