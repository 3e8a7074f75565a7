// What a submission can reach: the child environment, and the audit of the files its build read.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <algorithm>
#include <fstream>

#include "sandbox.hpp"
#include "temp_dir.hpp"

using namespace cudamatch::grade;
namespace fs = std::filesystem;

TEST_CASE("the child environment passes only the named variables", "[sandbox]") {
  const TempDir dir;
  setenv("CUDAMATCH_GRADE_TEST_TOKEN", "secret", 1);
  setenv("CUDA_VISIBLE_DEVICES", "0", 1);
  const char* outer_data = std::getenv("CUDAMATCH_DATA");
  const std::string saved_data = outer_data != nullptr ? outer_data : "";
  setenv("CUDAMATCH_DATA", "/outer", 1);  // the grader's own value: the child gets the one it is given
  const Environment environment = child_environment(dir.path() / "private", {{"CUDAMATCH_DATA", "/data"}});
  unsetenv("CUDAMATCH_GRADE_TEST_TOKEN");
  if (outer_data != nullptr) {
    setenv("CUDAMATCH_DATA", saved_data.c_str(), 1);
  } else {
    unsetenv("CUDAMATCH_DATA");
  }
  const auto value_of = [&](const std::string& name) -> std::string {
    for (const auto& [key, value] : environment) {
      if (key == name) return value;
    }
    return "(unset)";
  };
  CHECK(value_of("CUDAMATCH_GRADE_TEST_TOKEN") == "(unset)");
  CHECK(value_of("CUDA_VISIBLE_DEVICES") == "0");
  CHECK(value_of("HOME") == (dir.path() / "private" / "home").string());
  CHECK(value_of("TMPDIR") == (dir.path() / "private" / "tmp").string());
  CHECK(fs::is_directory(dir.path() / "private" / "tmp"));
  CHECK(value_of("CUDAMATCH_DATA") == "/data");
  CHECK(std::count_if(environment.begin(), environment.end(),
                      [](const auto& e) { return e.first == "CUDAMATCH_DATA"; }) == 1);
  for (const auto& [key, value] : environment) {
    const auto& passed = passed_variables();
    CHECK((std::find(passed.begin(), passed.end(), key) != passed.end() || key == "HOME" || key == "TMPDIR" ||
           key == "LC_ALL" || key == "CUDAMATCH_DATA"));
  }
}

TEST_CASE("ninja's record of what each compile read, for one lesson's objects", "[sandbox]") {
  const std::string listing =
      "CMakeFiles/lesson.11-brute-force.student.dir/lessons/11-brute-force/bf_v1.cu.o: #deps 3, deps mtime 1 (VALID)\n"
      "    /tmp/g/course/lessons/11-brute-force/bf_v1.cu\n"
      "    /course/solutions/11-brute-force/bf_v1.cu\n"
      "    ../course/common/x.hpp\n"
      "\n"
      "CMakeFiles/lesson.00-measuring.student.dir/lessons/00-measuring/saxpy.cu.o: #deps 1, deps mtime 1 (VALID)\n"
      "    /elsewhere/saxpy.cu\n";
  const NinjaDeps deps = parse_ninja_deps(listing, ".11-brute-force.student.dir/", "/tmp/g/build");
  CHECK(deps.inputs == std::vector<fs::path>{"/tmp/g/course/lessons/11-brute-force/bf_v1.cu",
                                             "/course/solutions/11-brute-force/bf_v1.cu",
                                             "/tmp/g/course/common/x.hpp"});
  CHECK(deps.recorded ==
        std::vector<std::string>{"CMakeFiles/lesson.11-brute-force.student.dir/lessons/11-brute-force/bf_v1.cu.o"});
  CHECK(parse_ninja_deps(listing, ".00-measuring.student.dir/", "/b").inputs ==
        std::vector<fs::path>{"/elsewhere/saxpy.cu"});
  const std::string stale =
      "CMakeFiles/lesson.00-measuring.student.dir/saxpy.cu.o: #deps 1, deps mtime 1 (STALE)\n    /x.h\n";
  CHECK(parse_ninja_deps(stale, ".00-measuring.student.dir/", "/b").recorded.empty());
}

TEST_CASE("the compiled objects of a lesson, each of which needs a valid record", "[sandbox]") {
  const std::string targets =
      "CMakeFiles/lesson.11-brute-force.student.dir/lessons/11-brute-force/bf_v1.cu.o: CUDA_COMPILER__lesson\n"
      "CMakeFiles/ptx.11-brute-force.student.dir/lessons/11-brute-force/bf_v1.ptx: CUDA_COMPILER__ptx\n"
      "bin/test-11-brute-force: CXX_EXECUTABLE_LINKER__test\n"
      "CMakeFiles/lesson.00-measuring.student.dir/lessons/00-measuring/saxpy.cu.o: CUDA_COMPILER__lesson\n";
  CHECK(compiled_objects(targets, ".11-brute-force.student.dir/") ==
        std::vector<std::string>{"CMakeFiles/lesson.11-brute-force.student.dir/lessons/11-brute-force/bf_v1.cu.o",
                                 "CMakeFiles/ptx.11-brute-force.student.dir/lessons/11-brute-force/bf_v1.ptx"});
}

TEST_CASE("a path within a folder, by whole components", "[sandbox]") {
  CHECK(is_within("/usr/include/stdio.h", "/usr"));
  CHECK(is_within("/usr", "/usr"));
  CHECK(is_within("/srv/c/x", "/srv/"));
  CHECK_FALSE(is_within("/usrx/include", "/usr"));
  CHECK_FALSE(is_within("/usr", "/usr/include"));
  CHECK_FALSE(is_within("/opt/a", "/usr"));
}

TEST_CASE("a submission's compiles may read only the copy, the system and the libraries", "[sandbox]") {
  const std::vector<fs::path> allowed{"/course/build/grade-course", "/usr", "/course/.deps/root/usr"};
  const fs::path course = "/course";
  const auto outside = [&](const fs::path& input) { return !outside_roots({input}, allowed, course).empty(); };
  CHECK_FALSE(outside("/course/build/grade-course/lessons/11-brute-force/bf_v1.cu"));  // the copy, inside the course
  CHECK_FALSE(outside("/usr/include/stdio.h"));
  CHECK_FALSE(outside("/course/.deps/root/usr/include/CLI/CLI.hpp"));
  CHECK(outside("/course/solutions/11-brute-force/bf_v1.cu"));
  CHECK(outside("/course/lessons/11-brute-force/bf_v1.cu"));  // the course itself, not the copy
  CHECK(outside("/tmp/copied-at-run-time.cu"));
  CHECK(outside("/course/build/grade-course-sandbox/tmp/x.cu"));  // a sibling that only shares a prefix
  CHECK(outside("/usrx/include/y.h"));
  // A root given with a trailing '/' is no closer than the course inside it.
  CHECK(outside_roots({"/srv/c/solutions/x.cu"}, {"/srv/"}, "/srv/c").size() == 1);
}

TEST_CASE("what the sandbox user can read, when the grader runs as root", "[sandbox]") {
  const auto nobody = sandbox_user("nobody");
  if (!nobody) return;  // not root: no other user to check as
  const TempDir dir;
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::others_exec | fs::perms::others_read);
  fs::create_directories(dir.path() / "open" / "sub");
  std::ofstream(dir.path() / "open" / "sub" / "file") << "x";
  fs::create_directories(dir.path() / "closed" / "inner");
  std::ofstream(dir.path() / "closed" / "inner" / "file") << "x";
  fs::permissions(dir.path() / "closed", fs::perms::owner_all);  // o-rwx, as the grader asks of solutions/
  const ChildSetup child{{{"PATH", "/usr/bin:/bin"}}, nobody};
  CHECK(readable_inside(child, {dir.path() / "closed"}).empty());  // find meets a closed folder: no error
  CHECK(readable_inside(child, {dir.path() / "open", dir.path() / "closed"}) ==
        std::vector<std::string>{(dir.path() / "open" / "sub" / "file").string()});
  CHECK(inaccessible(child, {dir.path() / "open"}, {}).empty());
  CHECK(inaccessible(child, {dir.path() / "closed"}, {}) == std::vector<std::string>{(dir.path() / "closed").string()});
}
