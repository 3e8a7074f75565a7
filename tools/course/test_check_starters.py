"""Tests of check_starters.py: it passes on the real tree and fails, naming the place, on copies of
lesson 00 broken on purpose in a temporary folder (the real tree is only read).

    python3 -m unittest -v test_check_starters      (from tools/course)
"""
import json
import pathlib
import shutil
import tempfile
import unittest

from course_checks import ROOT, run_check

LESSON = "00-measuring"


def run_checker(root):
    return run_check("check_starters.py", root)


class CheckStartersTest(unittest.TestCase):

    def setUp(self):
        """A course of one lesson: lesson 00's manifest, starters and solutions, copied."""
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="check_starters."))
        self.addCleanup(shutil.rmtree, self.root)
        manifest = json.loads((ROOT / "lessons" / LESSON / "lesson.json").read_text(encoding="utf-8"))
        for track in ("lessons", "solutions"):
            (self.root / track / LESSON).mkdir(parents=True)
            for name in manifest["editable"]:
                shutil.copy(ROOT / track / LESSON / name, self.root / track / LESSON / name)
        shutil.copy(ROOT / "lessons" / LESSON / "lesson.json", self.root / "lessons" / LESSON / "lesson.json")
        (self.root / "lessons" / "course.json").write_text(json.dumps({"lessons": [LESSON]}), encoding="utf-8")

    def lines(self, track, name):
        return (self.root / track / LESSON / name).read_text(encoding="utf-8").split("\n")

    def write(self, track, name, lines):
        (self.root / track / LESSON / name).write_text("\n".join(lines), encoding="utf-8")

    def assert_fails_with(self, *expected):
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        for text in expected:
            self.assertIn(text, output)
        return output

    def test_real_tree_passes(self):
        status, output = run_checker(ROOT)
        self.assertEqual(status, 0, output)
        self.assertIn("every starter equals its solution outside the holes", output)

    def test_unbroken_copy_passes(self):
        status, output = run_checker(self.root)
        self.assertEqual(status, 0, output)

    def test_changed_given_line_fails_and_shows_both_sides(self):
        starter = self.lines("lessons", "saxpy.cu")
        at = next(i for i, line in enumerate(starter) if "<<<" in line)  # the launch: given code
        given = starter[at]
        starter[at] = given.replace("(a, x, y, n)", "(a, x, y, n - 1)")
        self.assertNotEqual(starter[at], given)
        self.write("lessons", "saxpy.cu", starter)
        output = self.assert_fails_with(f"lessons/{LESSON}/saxpy.cu:{at + 1}: given code differs from "
                                        f"solutions/{LESSON}/saxpy.cu:")
        self.assertIn(repr(starter[at]), output)
        self.assertIn(repr(given), output)

    def test_extra_given_line_is_named(self):
        starter = self.lines("lessons", "saxpy.cu")
        at = starter.index("}  // namespace")
        starter.insert(at, "constexpr int kUnused = 1;")
        self.write("lessons", "saxpy.cu", starter)
        self.assert_fails_with(f"lessons/{LESSON}/saxpy.cu:{at + 1}: given code differs",
                               "'constexpr int kUnused = 1;'")

    def test_todo_removed_from_starter_hole_fails(self):
        starter = self.lines("lessons", "measure.cpp")
        todo = "  // TODO(00-measuring, step 2): count the bytes."
        starter.remove(todo)
        self.write("lessons", "measure.cpp", starter)
        self.assert_fails_with(f"solutions/{LESSON}/measure.cpp:", f"has no line '{todo.strip()}'")

    def test_hole_text_drifted_in_solution_fails(self):
        solution = self.lines("solutions", "measure.cpp")
        at = next(i for i, line in enumerate(solution) if "// HOLE(00-measuring, step 2)" in line)
        solution[at] = solution[at].replace("count the bytes.", "count the bytes moved.")
        self.write("solutions", "measure.cpp", solution)
        self.assert_fails_with(f"solutions/{LESSON}/measure.cpp:{at + 1}: the starter",
                               "'// TODO(00-measuring, step 2): count the bytes moved.'")

    def test_unclosed_marker_fails(self):
        solution = self.lines("solutions", "measure.cpp")
        last_end = max(i for i, line in enumerate(solution) if line.strip() == "// END HOLE")
        opened = max(i for i, line in enumerate(solution[:last_end]) if "// HOLE(" in line)
        del solution[last_end]
        self.write("solutions", "measure.cpp", solution)
        self.assert_fails_with(f"solutions/{LESSON}/measure.cpp:{opened + 1}: HOLE never closed")

    def test_nested_marker_fails(self):
        solution = self.lines("solutions", "saxpy.cu")
        at = next(i for i, line in enumerate(solution) if "// HOLE(" in line)
        solution.insert(at + 1, "  // HOLE(00-measuring, step 1b): nested.")
        self.write("solutions", "saxpy.cu", solution)
        self.assert_fails_with(f"solutions/{LESSON}/saxpy.cu:{at + 2}: HOLE inside the hole opened at line {at + 1}")

    def test_unknown_marker_fails(self):
        solution = self.lines("solutions", "saxpy.cu")
        at = solution.index("  // END HOLE")
        solution[at] = "  // END_HOLE"
        self.write("solutions", "saxpy.cu", solution)
        self.assert_fails_with(f"solutions/{LESSON}/saxpy.cu:{at + 1}: unknown marker '// END_HOLE'")

    def test_end_without_begin_fails(self):
        solution = self.lines("solutions", "saxpy.cu")
        solution.insert(1, "// END HOLE")
        self.write("solutions", "saxpy.cu", solution)
        self.assert_fails_with(f"solutions/{LESSON}/saxpy.cu:2: END HOLE without a HOLE")

    def test_marker_in_starter_fails(self):
        starter = self.lines("lessons", "saxpy.cu")
        starter.insert(1, "// HOLE(00-measuring, step 1): one thread per element.")
        self.write("lessons", "saxpy.cu", starter)
        self.assert_fails_with(f"lessons/{LESSON}/saxpy.cu:2: hole marker in a starter")

    def test_file_without_hole_fails(self):
        solution = [line for line in self.lines("solutions", "saxpy.cu") if "HOLE" not in line]
        self.write("solutions", "saxpy.cu", solution)
        self.assert_fails_with(f"solutions/{LESSON}/saxpy.cu:1: no hole")

    def test_missing_solution_fails(self):
        (self.root / "solutions" / LESSON / "saxpy.cu").unlink()
        self.assert_fails_with(f"solutions/{LESSON}/saxpy.cu:1: missing")


if __name__ == "__main__":
    unittest.main()
