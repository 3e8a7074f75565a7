"""Tests of check_readme_words.py: it passes on the real tree and fails, naming the README and its
counts, on a copy of one lesson's README made too long in a temporary folder (the real tree is only
read).

    python3 -m unittest -v test_check_readme_words      (from tools/course)
"""
import json
import pathlib
import shutil
import subprocess
import tempfile
import unittest

from course_checks import ROOT, run_check

from check_readme_words import LIMIT, count_words

LESSON = "00-measuring"
README = f"lessons/{LESSON}/README.md"


def run_checker(root):
    return run_check("check_readme_words.py", root)


class CountWordsTest(unittest.TestCase):

    def test_comments_count_raw_but_not_visible(self):
        self.assertEqual(count_words("one <!-- fig:x -->two<!-- /fig --> three\n"), (7, 3))

    def test_comment_spanning_lines_and_unclosed_comment(self):
        self.assertEqual(count_words("a <!--\nb c\n--> d <!-- e f"), (9, 2))

    def test_raw_count_is_wc_w_on_every_readme(self):
        wc = shutil.which("wc")
        if not wc:
            self.skipTest("no wc on this machine")
        for lesson in json.loads((ROOT / "lessons" / "course.json").read_text(encoding="utf-8"))["lessons"]:
            path = ROOT / "lessons" / lesson / "README.md"
            expected = int(subprocess.run([wc, "-w", str(path)], capture_output=True, text=True, check=True,
                                          env={"LC_ALL": "C"}).stdout.split()[0])
            self.assertEqual(count_words(path.read_text(encoding="utf-8"))[0], expected, lesson)


class CheckReadmeWordsTest(unittest.TestCase):

    def setUp(self):
        """A course of one lesson: lesson 00's README, copied."""
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="check_readme_words."))
        self.addCleanup(shutil.rmtree, self.root)
        (self.root / "lessons" / LESSON).mkdir(parents=True)
        shutil.copy(ROOT / README, self.root / README)
        (self.root / "lessons" / "course.json").write_text(json.dumps({"lessons": [LESSON]}), encoding="utf-8")

    def pad(self, raw=None, visible=None):
        """Appends words to the copy until it has `raw` raw words, inside an HTML comment (the visible
        words stay), or `visible` visible words; returns the new (raw, visible) counts."""
        path = self.root / README
        text = path.read_text(encoding="utf-8")
        before_raw, before_visible = count_words(text)
        if raw is not None:
            padding = " ".join(["hidden"] * (raw - before_raw - 2))
            text += f"\n<!-- {padding} -->\n"
        else:
            text += "\n" + " ".join(["shown"] * (visible - before_visible)) + "\n"
        path.write_text(text, encoding="utf-8")
        return count_words(text)

    def test_real_tree_passes(self):
        status, output = run_checker(ROOT)
        self.assertEqual(status, 0, output)
        self.assertIn(f"within {LIMIT:,} words; the largest", output)

    def test_readme_at_the_limit_passes(self):
        raw, visible = self.pad(raw=LIMIT)
        self.assertEqual(raw, LIMIT)
        status, output = run_checker(self.root)
        self.assertEqual(status, 0, output)
        self.assertIn(f"{README}: {LIMIT} (wc -w), {visible} visible", output)

    def test_visible_words_over_the_limit_fail(self):
        raw, visible = self.pad(visible=LIMIT + 1)
        self.assertEqual(visible, LIMIT + 1)
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        self.assertEqual(output, f"{README}: {raw} words (wc -w), {visible} visible (HTML comments removed): "
                         f"over {LIMIT:,}\n")

    def test_comment_words_alone_over_the_limit_fail(self):
        raw, visible = self.pad(raw=LIMIT + 1)
        self.assertEqual(raw, LIMIT + 1)
        self.assertLessEqual(visible, LIMIT)
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        self.assertIn(f"{README}: {raw} words (wc -w), {visible} visible", output)

    def test_missing_readme_fails(self):
        (self.root / README).unlink()
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        self.assertIn(f"{README}: missing", output)


if __name__ == "__main__":
    unittest.main()
