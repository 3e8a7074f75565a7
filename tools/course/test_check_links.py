"""Tests of check_links.py: it passes on the real tree, and on small trees in a temporary folder (not
git checkouts) it names each broken link with its file and line and ignores what is not a link into
the tree.

    python3 -m unittest -v test_check_links      (from tools/course)
"""
import pathlib
import re
import shutil
import tempfile
import unittest

from course_checks import ROOT, run_check


def run_checker(root):
    return run_check("check_links.py", root)


class CheckLinksTest(unittest.TestCase):

    def setUp(self):
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="check_links."))
        self.addCleanup(shutil.rmtree, self.root)
        (self.root / "docs" / "data").mkdir(parents=True)
        (self.root / "docs" / "data" / "run.csv").write_text("a,b\n", encoding="utf-8")
        (self.root / "README.md").write_text("# Course\n", encoding="utf-8")

    def write(self, name, text):
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def test_real_tree_passes(self):
        status, output = run_checker(ROOT)
        self.assertEqual(status, 0, output)
        counts = re.match(r"check_links: (\d+) relative links in (\d+) Markdown files, each names a file or folder$",
                          output.strip())
        self.assertIsNotNone(counts, output)
        self.assertGreater(int(counts.group(1)), 300, output)  # the course's READMEs and results link a lot
        self.assertGreater(int(counts.group(2)), 40, output)

    def test_no_markdown_fails(self):
        (self.root / "README.md").unlink()
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        self.assertIn("no Markdown file", output)

    def test_links_that_resolve_pass(self):
        self.write("docs/results.md", "[data](data/run.csv), [folder](data/), [up](../README.md#course),\n"
                   "![plot](data/run.csv \"a title\"), [here](#results), [site](https://example.org/x.md)\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 0, output)
        self.assertIn("check_links: 4 relative links in 2 Markdown files", output)

    def test_a_broken_link_is_named_with_its_line(self):
        self.write("docs/results.md", "first line\n[data](run.csv) and [ok](data/run.csv)\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        self.assertEqual(output, "docs/results.md:2: run.csv\ncheck_links: 1 of 2 relative links name nothing\n")

    def test_a_broken_fragment_target_fails_and_a_fragment_alone_does_not(self):
        self.write("lessons/a/README.md", "[gone](../../docs/missing.md#part) [anchor](#part)\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        self.assertIn("lessons/a/README.md:1: ../../docs/missing.md#part", output)

    def test_code_and_comments_hold_no_links(self):
        self.write("HINTS.md", "Call it with `[&](std::size_t) { ++found; }`.\n\n```cpp\nsearch([&](auto) {});\n```\n"
                   "~~~\n[x](nowhere.md)\n~~~\n<!-- [y](gone.md)\n[z](gone.md) -->\n"
                   "````\n```\n[w](inner.md)\n````\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 0, output)

    def test_comments_end_where_they_end(self):
        self.write("HINTS.md", "`<!--` starts a comment\n[a](gone-a.md)\n<!-- a\n[b](gone-b.md)\nb --> [c](gone-c.md)\n"
                   "x <!-- [d](gone-d.md) --> [e](gone-e.md)\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        for reported in ("2: gone-a.md", "5: gone-c.md", "6: gone-e.md"):
            self.assertIn(f"HINTS.md:{reported}", output)
        for hidden in ("gone-b.md", "gone-d.md"):
            self.assertNotIn(hidden, output)

    def test_titles_brackets_and_parentheses(self):
        (self.root / "docs" / "f(1).md").write_text("x\n", encoding="utf-8")
        (self.root / "docs" / "a b.md").write_text("x\n", encoding="utf-8")
        self.write("docs/ok.md", "[t](f(1).md 'T') [u](<a b.md> \"U\") [see [1]](f(1).md) [v](f(1).md (V))\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 0, output)
        self.assertIn("4 relative links", output)
        self.write("docs/bad.md", "[see [1]](g(2).md) [w](<no such.md>)\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        self.assertIn("docs/bad.md:1: g(2).md", output)
        self.assertIn("docs/bad.md:1: no such.md", output)

    def test_links_after_code_are_checked(self):
        self.write("HINTS.md", "```cpp\nint x;\n```\n````md\n```\n[a](in.md)\n```\n````\n[b](after.md)\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        self.assertIn("HINTS.md:9: after.md", output)
        self.assertNotIn("in.md", output)

    def test_encoded_bracketed_and_rooted_targets(self):
        (self.root / "docs" / "data" / "a b.csv").write_text("x\n", encoding="utf-8")
        self.write("docs/ok.md", "[s](data/a%20b.csv) [t](<data/a%20b.csv>) [r](/docs/data/run.csv) [q](data/run.csv?plain=1)\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 0, output)
        outside = self.root.parent / (self.root.name + "-outside.md")  # a file beside the tree, not in it
        outside.touch()
        self.addCleanup(outside.unlink)
        self.write("docs/bad.md", f"[u](/data/run.csv) [v](../../{outside.name})\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 1, output)
        self.assertIn("docs/bad.md:1: /data/run.csv", output)
        self.assertIn(f"docs/bad.md:1: ../../{outside.name}", output)

    def test_build_and_hidden_folders_are_not_read(self):
        self.write("build/dev/notes.md", "[x](nowhere.md)\n")
        self.write(".deps/pkg/README.md", "[x](nowhere.md)\n")
        status, output = run_checker(self.root)
        self.assertEqual(status, 0, output)


if __name__ == "__main__":
    unittest.main()
