"""cudamatch-grade as a user runs it. CTest sets CUDAMATCH_GRADE (the program), CUDAMATCH_COURSE (this
source tree) and CUDAMATCH_GRADE_WORK (a scratch folder in the build tree).

ExitStatus: bad arguments and rubric errors exit 2, no course or no toolchain 3; nothing is built.
EndToEnd: lesson 00 submitted over a copy of the course, a correct submission (the solution's files)
and one that does not compile; both must give a valid results.json and JUnit XML. Then the planted
submissions that need no GPU (tools/grade/planted: includes of the reference, a link to it, a compile
error in one of two lessons) must score what expected.json says. Lesson 00 is built once; later builds
only recompile the changed files. Without a GPU the grade is incomplete: exit 3, and results.json says
so first. As root, the grader runs submissions as 'nobody', who must not be able to read solutions/:
the course graded is then a copy without it, as an instructor would ship it.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

GRADER = os.environ["CUDAMATCH_GRADE"]
COURSE = os.environ["CUDAMATCH_COURSE"]
WORK = os.environ["CUDAMATCH_GRADE_WORK"]
LESSON = "00-measuring"
PLANTED = os.path.join(COURSE, "tools", "grade", "planted")
sys.path.insert(0, PLANTED)
import check_planted  # noqa: E402


def gpu_present():
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


GRADED_STATUS = 0 if gpu_present() else 3  # 3: not a grade, the GPU items could not run


def graded_course():
    """The course the end-to-end tests grade: COURSE itself, or as root a copy without solutions/ in a
    folder every user can enter (what `nobody` must and must not read)."""
    if os.geteuid() != 0:
        return COURSE
    copy = os.path.join(WORK, "course")
    if not getattr(graded_course, "made", False):  # once per run, never a stale copy
        shutil.rmtree(copy, ignore_errors=True)
        os.makedirs(WORK, exist_ok=True)
        ignored = shutil.ignore_patterns("build", ".git", ".deps", "solutions")
        shutil.copytree(COURSE, copy, ignore=ignored, symlinks=True)
        for folder in (WORK, copy):
            os.chmod(folder, 0o755)
        graded_course.made = True
    return copy


def grade(*args, env=None):
    return subprocess.run([GRADER, *args], capture_output=True, text=True, env=env, timeout=1100)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


TESTS_ITEM = {"id": "t", "name": "n", "kind": "tests", "points": 1, "tests": "*"}


def fake_course(directory, editable):
    """A course tree with one lesson, its manifest and its rubric: enough for everything before the build."""
    write(os.path.join(directory, "CMakeLists.txt"), "")
    write(os.path.join(directory, "lessons", "course.json"), json.dumps({"lessons": [LESSON]}))
    write(os.path.join(directory, "lessons", LESSON, "saxpy.cu"), "")
    manifest = {"editable": editable, "rubric": "rubric.json"}
    write(os.path.join(directory, "lessons", LESSON, "lesson.json"), json.dumps(manifest))
    rubric = {"lesson": LESSON, "items": [TESTS_ITEM]}
    write(os.path.join(directory, "lessons", LESSON, "rubric.json"), json.dumps(rubric))


class ExitStatus(unittest.TestCase):
    def assert_refused(self, result, status, message, one_line=True):
        self.assertEqual(result.returncode, status, result.stderr)
        self.assertIn(message, result.stderr)
        if one_line:
            self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)

    def test_bad_arguments_exit_2(self):
        # CLI11's messages add a "Run with --help" line.
        self.assert_refused(grade("--bogus"), 2, "--bogus", one_line=False)
        self.assert_refused(grade("--track", "teachers"), 2, "teachers", one_line=False)
        self.assert_refused(grade("--track", "solutions", "--submission", "/tmp"), 2, "excludes", one_line=False)
        self.assert_refused(grade("--timeout", "0"), 2, "--timeout", one_line=False)
        self.assert_refused(grade("--course", COURSE, "--lessons", "99"), 2, "the course has no lesson 99")
        self.assert_refused(grade("--course", COURSE, "--lessons", "0-"), 2, "is not a lesson number")
        self.assert_refused(grade("--course", COURSE, "--submission", "/nonexistent/submission"), 2, "is not a directory")

    def test_a_rubric_error_exits_2_and_names_the_file(self):
        with tempfile.TemporaryDirectory() as course:
            fake_course(course, ["../saxpy.cu"])
            self.assert_refused(grade("--course", course), 2,
                                "rubric error: " + os.path.join(course, "lessons", LESSON, "lesson.json"))
            fake_course(course, ["saxpy.cu"])
            rubric = {"lesson": LESSON, "editable": ["saxpy.cu"], "items": [TESTS_ITEM]}
            write(os.path.join(course, "lessons", LESSON, "rubric.json"), json.dumps(rubric))
            self.assert_refused(grade("--course", course), 2,
                                "rubric error: " + os.path.join(course, "lessons", LESSON, "rubric.json"))

    def test_no_course_exits_3(self):
        self.assert_refused(grade("--course", "/nonexistent/course"), 3, "no cudamatch course at /nonexistent/course")

    def test_every_rubric_of_the_course_parses(self):
        # Rubrics are read before the toolchain is looked for: a rubric error would exit 2.
        env = dict(os.environ, PATH="/nonexistent")
        self.assert_refused(grade("--course", COURSE, "--track", "solutions", env=env), 3, "cmake not found")

    def test_no_toolchain_exits_3(self):
        with tempfile.TemporaryDirectory() as course:
            fake_course(course, ["saxpy.cu"])
            env = dict(os.environ, PATH="/nonexistent")
            self.assert_refused(grade("--course", course, env=env), 3, "cannot grade: cmake not found")


class EndToEnd(unittest.TestCase):
    rubric = json.loads(read(os.path.join(COURSE, "lessons", LESSON, "rubric.json")))
    editable = json.loads(read(os.path.join(COURSE, "lessons", LESSON, "lesson.json")))["editable"]

    def item_name(self, tests_spec):
        return next(LESSON + " " + item["name"] for item in self.rubric["items"] if item.get("tests") == tests_spec)

    def grade_submission(self, submission, label, lessons="00"):
        results = os.path.join(WORK, label + ".json")
        junit = os.path.join(WORK, label + ".xml")
        result = grade("--course", graded_course(), "--submission", submission, "--lessons", lessons, "--results",
                       results, "--junit", junit, "--build-dir", os.path.join(WORK, "build"), "--jobs", "1")
        data = json.loads(read(results))
        nothing_compiled = "no lesson compiled" in result.stderr
        self.assertEqual(result.returncode, 3 if nothing_compiled else GRADED_STATUS, result.stderr[-4000:])
        if result.returncode == 3:
            why = "no lesson compiled" if nothing_compiled else "no CUDA device"
            self.assertIn("not a grade: " + why, result.stderr)
            self.assertTrue(data["output"].startswith("NOT A GRADE: " + why), data["output"][:200])
        for number in lessons.split(","):
            self.assertRegex(result.stdout, "(?m)^" + number + "-")  # the table has the lesson's rows
        return data, ET.parse(junit).getroot()

    def submit(self, files, label):
        with tempfile.TemporaryDirectory() as submission:
            for path, text in files.items():
                write(os.path.join(submission, path), text)
            data, junit = self.grade_submission(submission, label)
        self.check_gradescope_fields(data)
        return data, junit

    def check_gradescope_fields(self, data):
        for key, kind in (("score", (int, float)), ("max_score", (int, float)), ("output", str), ("tests", list)):
            self.assertIsInstance(data[key], kind, key)
        self.assertEqual(len(data["tests"]), len(self.rubric["items"]))
        for test in data["tests"]:
            self.assertTrue(test["name"].startswith(LESSON + " "))
            self.assertIsInstance(test["score"], (int, float))
            self.assertIsInstance(test["max_score"], (int, float))
            self.assertLessEqual(test["score"], test["max_score"] + 1e-9)
            self.assertIn(test["status"], ("passed", "failed"))
            self.assertIsInstance(test["output"], str)
            self.assertEqual(test["visibility"], "visible")
            if test["output"].startswith("not run: "):
                self.assertEqual((test["score"], test["max_score"]), (0, 0))

    def test_1_a_correct_submission_gets_its_host_test_items(self):
        files = {f"lessons/{LESSON}/{name}": read(os.path.join(COURSE, "solutions", LESSON, name))
                 for name in self.editable}
        files["notes.txt"] = "not graded\n"
        data, junit = self.submit(files, "correct")
        tests = {test["name"]: test for test in data["tests"]}
        host = tests[self.item_name("[step2]")]  # a host test: it runs without a GPU
        self.assertGreater(host["max_score"], 0)
        self.assertEqual(host["score"], host["max_score"])
        self.assertEqual(host["status"], "passed")
        tests_items = [LESSON + " " + item["name"] for item in self.rubric["items"] if item["kind"] == "tests"]
        for name in tests_items:  # each passed, or did not run (no GPU)
            self.assertTrue(tests[name]["status"] == "passed" or tests[name]["output"].startswith("not run: "), tests[name])
        self.assertIn("ignored: 1 file", data["output"])
        self.assertIn("taken from the submission", data["output"])
        self.assertEqual(junit.tag, "testsuites")
        self.assertEqual([suite.get("name") for suite in junit.findall("testsuite")], [LESSON])

    def test_2_a_submission_that_does_not_compile_scores_0_with_the_compilers_message(self):
        saxpy = read(os.path.join(COURSE, "solutions", LESSON, "saxpy.cu")) + "\nthis line is not C++\n"
        data, junit = self.submit({f"lessons/{LESSON}/saxpy.cu": saxpy}, "does-not-compile")
        self.assertIn("NOT A GRADE: no lesson compiled", data["output"])
        self.assertEqual(data["score"], 0)
        self.assertGreater(data["max_score"], 0)
        failed = [test for test in data["tests"] if not test["output"].startswith("not run: ")]
        self.assertTrue(failed)
        for test in failed:
            self.assertEqual(test["score"], 0)
            self.assertIn("the lesson does not compile", test["output"])
            self.assertIn("saxpy.cu", test["output"])
            self.assertIn("error", test["output"])
        self.assertIn("does not compile", data["output"])
        failures = junit.findall("testsuite/testcase/failure")
        self.assertEqual(len(failures), len(failed))
        self.assertIn("error", failures[0].text)

    def test_3_planted_submissions_that_need_no_gpu_score_what_they_deserve(self):
        planted = os.path.join(WORK, "planted")
        shutil.rmtree(planted, ignore_errors=True)
        subprocess.run(["bash", os.path.join(PLANTED, "plant.sh"), planted, COURSE], check=True, capture_output=True)
        for name, plant in check_planted.expectations().items():
            if plant["gpu"]:
                continue
            with self.subTest(plant=name):
                data, _ = self.grade_submission(os.path.join(planted, name), "planted-" + name, plant["lessons"])
                lessons = sorted({test["name"].split(" ", 1)[0] for test in data["tests"]})
                lines, ok = check_planted.compare(name, data, check_planted.rubric_ids_of(COURSE, lessons))
                self.assertTrue(ok, "\n".join(lines) + "\n" + data["output"])
                if name.startswith("include-"):
                    self.assertIn("does not compile", data["output"])
                if name == "include-absolute":
                    self.assertIn("outside the submission's copy of the course", data["output"])
                if name == "symlink":
                    self.assertIn("rejected: lessons/00-measuring/saxpy.cu: a symbolic link", data["output"])


if __name__ == "__main__":
    unittest.main()
