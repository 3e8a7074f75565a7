"""Tests of dispatch_table.py: --check passes on the real tree and fails on copies made stale on purpose
(a CSV changed, the table edited by hand) in a temporary folder; the choice of each entry, its ranges and
the classes no corpus measured, on small CSVs written here. The real tree is only read.

    python3 -m unittest -v test_dispatch_table      (from tools/course)
"""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

from course_checks import HERE, ROOT

import dispatch_table

HEADER = "device,corpus,synthetic,bytes,m,matcher,backend,patterns,median_ms,min_ms,gbps,pct_of_read,matches,correct"


def bench_csv(rows, alphabet_column=True):
    """A bench CSV from (corpus, alphabet, bytes, m, matcher, backend, gbps[, correct]) tuples."""
    lines = [HEADER + (",alphabet,chosen" if alphabet_column else "")]
    for corpus, alphabet, size, m, matcher, backend, gbps, *correct in rows:
        right = correct[0] if correct else 1
        line = f'"GPU X",{corpus},0,{size},{m},{matcher},{backend},5,1.0,1.0,{gbps},50.0,7,{right}'
        lines.append(line + (f",{alphabet}," if alphabet_column else ""))
    return "\n".join(lines) + "\n"


class DispatchTableTest(unittest.TestCase):

    def setUp(self):
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="dispatch_table."))
        self.addCleanup(shutil.rmtree, self.root)
        (self.root / "tools" / "cudamatch").mkdir(parents=True)

    def copy_real_tree(self):
        """The committed table and the CSVs it names, copied."""
        table = json.loads((ROOT / dispatch_table.TABLE_FILE).read_text(encoding="utf-8"))
        for source in table["sources"]:
            (self.root / source["csv"]).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / source["csv"], self.root / source["csv"])
        shutil.copy(ROOT / dispatch_table.TABLE_FILE, self.root / dispatch_table.TABLE_FILE)
        return table

    def make(self, *args, root=None):
        """(exit status, output) of dispatch_table.py ARGS over the copy (or `root`)."""
        result = subprocess.run([sys.executable, str(HERE / "dispatch_table.py"), "--root", str(root or self.root),
                                 *args], capture_output=True, text=True, check=False, cwd=self.root)
        return result.returncode, result.stdout + result.stderr

    def check(self, root=None):
        return self.make("--check", root=root)

    def write_csv(self, name, text):
        path = self.root / "data" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return str(path)

    def table(self):
        return json.loads((self.root / dispatch_table.TABLE_FILE).read_text(encoding="utf-8"))

    def test_real_tree_passes(self):
        status, output = self.check(root=ROOT)
        self.assertEqual(status, 0, output)
        self.assertIn("is what its CSVs give", output)

    def test_unchanged_copy_passes_and_remaking_it_changes_nothing(self):
        self.copy_real_tree()
        before = (self.root / dispatch_table.TABLE_FILE).read_text(encoding="utf-8")
        self.assertEqual(self.check()[0], 0)
        status, output = self.make()
        self.assertEqual(status, 0, output)
        self.assertEqual((self.root / dispatch_table.TABLE_FILE).read_text(encoding="utf-8"), before)

    def test_a_changed_csv_makes_the_table_stale(self):
        table = self.copy_real_tree()
        csv_path = self.root / table["sources"][0]["csv"]
        lines = csv_path.read_text(encoding="utf-8").splitlines(keepends=True)
        header = lines[0].rstrip("\n").split(",")
        fields = lines[1].rstrip("\n").split(",")  # the first row has no quoted comma after the device
        fields[header.index("correct")] = "0"  # one count marked wrong
        lines[1] = ",".join(fields) + "\n"
        csv_path.write_text("".join(lines), encoding="utf-8")
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertIn(f"{table['sources'][0]['csv']} changed since it was made", output)

    def test_remade_with_only_a_date_after_a_csv_changed_the_check_passes(self):
        # A new run committed in place of a CSV: the plain command takes its hash and date (here --date; in
        # the real tree the CSV's last commit), and the other CSV keeps the date it had.
        table = self.copy_real_tree()
        csv_path = self.root / table["sources"][1]["csv"]
        csv_path.write_text(csv_path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        self.assertEqual(self.check()[0], 1)
        status, output = self.make("--date", "2030-01-02")
        self.assertEqual(status, 0, output)
        status, output = self.check()
        self.assertEqual(status, 0, output)
        sources = self.table()["sources"]
        self.assertEqual(sources[0], table["sources"][0])
        self.assertEqual(sources[1]["measured"], "2030-01-02")
        self.assertNotEqual(sources[1]["sha256"], table["sources"][1]["sha256"])

    def test_without_a_date_a_changed_csv_takes_its_commit_date_once_committed(self):
        table = self.copy_real_tree()
        git = ["git", "-C", str(self.root), "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run([*git, "init", "-q"], check=True)
        subprocess.run([*git, "add", "."], check=True)
        subprocess.run([*git, "commit", "-q", "-m", "copy"], check=True)
        csv_path = self.root / table["sources"][1]["csv"]
        csv_path.write_text(csv_path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        # Not committed: the last commit's date is the old run's, so it is refused.
        status, output = self.make()
        self.assertEqual(status, 2, output)
        self.assertIn("changed since its last commit", output)
        subprocess.run([*git, "commit", "-q", "-a", "-m", "a new run"], check=True)
        status, output = self.make()
        self.assertEqual(status, 0, output)
        self.assertEqual(self.check()[0], 0)
        today = subprocess.run([*git, "log", "-1", "--format=%cs"], capture_output=True, text=True, check=True)
        self.assertEqual(self.table()["sources"][1]["measured"], today.stdout.strip())
        self.assertEqual(self.table()["sources"][0], table["sources"][0])

    def test_a_hand_edited_table_is_stale(self):
        self.copy_real_tree()
        path = self.root / dispatch_table.TABLE_FILE
        text = path.read_text(encoding="utf-8")
        edited = text.replace('"algorithm": "ssef"', '"algorithm": "kmp"', 1)
        self.assertNotEqual(edited, text)
        path.write_text(edited, encoding="utf-8")
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertIn("is stale: line", output)
        self.assertIn('"algorithm": "ssef"', output)

    def test_a_missing_csv_fails_the_check(self):
        table = self.copy_real_tree()
        (self.root / table["sources"][1]["csv"]).unlink()
        status, output = self.check()
        self.assertEqual(status, 1, output)
        self.assertIn(table["sources"][1]["csv"], output)

    def test_each_m_gets_the_fastest_the_class_worst_case_decides_and_ranges_cover_every_m(self):
        rows = []
        for m, dna, bible, world in ((2, "bf:v1", "bf:v1", "bf:v1"), (4, "epsm:v2", "bf:v1", "bf:v1"),
                                     (8, "epsm:v2", "bf:v1", "epsm:v2"), (16, "ssef:v0", "ssef:v0", "ssef:v0")):
            for name in ("bf:v1", "epsm:v2", "ssef:v0"):
                rows.append(("E.coli", "small", 4000, m, name, "cuda", 100 if name == dna else 50))
                other = 95 if m == 8 else 40
                rows.append(("bible.txt", "text", 4200, m, name, "cuda", 100 if name == bible else other))
                rows.append(("world192.txt", "text", 2500, m, name, "cuda", 100 if name == world else 60))
        rows.append(("E.coli", "small", 4000, 2, "bf:v1 batch", "cuda", 1000))  # not a single matcher
        rows.append(("E.coli", "small", 4000, 2, "auto:cuda", "cuda", 1000))
        rows.append(("E.coli", "small", 4000, 2, "kmp:v2", "cuda", 1000, 0))  # a wrong count
        status, output = self.make("--date", "2030-01-02", self.write_csv("b.csv", bench_csv(rows)))
        self.assertEqual(status, 0, output)
        table = self.table()
        self.assertEqual(table["sources"][0]["measured"], "2030-01-02")
        by_class = {t["alphabet"]: t for t in table["tables"]}
        self.assertEqual(set(by_class), {"small", "text", "wide"})
        small = [(r["m_from"], r["m_to"], r["algorithm"], r["version"], r["measured"])
                 for r in by_class["small"]["ranges"]]
        self.assertEqual(small, [(1, 3, "bf", 1, [2]), (4, 15, "epsm", 2, [4, 8]), (16, None, "ssef", 0, [16])])
        # At m = 8 bible.txt prefers bf and world192.txt epsm: bf is 0.6 of the best on world192.txt, epsm
        # 0.95 on bible.txt, so epsm, with its worst ratio.
        text = by_class["text"]["ranges"]
        self.assertEqual([(r["m_from"], r["algorithm"]) for r in text], [(1, "bf"), (8, "epsm"), (16, "ssef")])
        self.assertEqual(text[1]["worst_ratio"], 0.95)
        self.assertEqual(by_class["text"]["corpora"], ["bible.txt", "world192.txt"])
        self.assertEqual(by_class["text"]["text_bytes"], 4000)  # the median of the corpora's sizes
        self.assertEqual(by_class["wide"]["like"], "text")  # no wide corpus: the nearest class
        self.assertEqual(by_class["wide"]["ranges"], text)

    def test_cpu_rows_name_the_algorithm_and_v0_and_peers_are_left_out(self):
        rows = [("E.coli", "small", 4000, 2, "epsm", "cpu", 10), ("E.coli", "small", 4000, 2, "memmem", "cpu", 99),
                ("E.coli", "small", 4000, 2, "auto", "cpu", 99), ("E.coli", "small", 4000, 2, "ssef", "cpu", 5)]
        status, output = self.make("--date", "2030-01-02", self.write_csv("c.csv", bench_csv(rows)))
        self.assertEqual(status, 0, output)
        ranges = self.table()["tables"][0]["ranges"]
        self.assertEqual([(r["algorithm"], r["version"]) for r in ranges], [("epsm", 0)])
        self.assertEqual([t["like"] for t in self.table()["tables"] if "like" in t], ["small", "small"])

    def test_older_csvs_need_each_corpus_class_named(self):
        rows = [("E.coli", "small", 4000, 2, "epsm", "cpu", 10)]
        path = self.write_csv("old.csv", bench_csv(rows, alphabet_column=False))
        status, output = self.make("--date", "2030-01-02", path)
        self.assertEqual(status, 2, output)
        self.assertIn("no alphabet column, and no --alphabet E.coli=CLASS", output)
        status, output = self.make("--date", "2030-01-02", "--alphabet", "E.coli=dna", path)
        self.assertEqual(status, 2, output)
        self.assertIn("unknown alphabet class 'dna'", output)
        status, output = self.make("--date", "2030-01-02", "--alphabet", "E.coli=small", path)
        self.assertEqual(status, 0, output)
        self.assertEqual(self.table()["sources"][0]["alphabet"], {"E.coli": "small"})
        self.assertEqual(self.check()[0], 0)  # the class is kept for --check

    def test_two_csvs_of_one_backend_and_size_are_refused(self):
        rows = [("E.coli", "small", 4000, 2, "epsm", "cpu", 10)]
        a = self.write_csv("a.csv", bench_csv(rows))
        b = self.write_csv("b.csv", bench_csv(rows))
        status, output = self.make("--date", "2030-01-02", a, b)
        self.assertEqual(status, 2, output)
        self.assertIn("both measure the cpu backend", output)

    def test_a_csv_outside_the_repository_is_refused(self):
        outside = pathlib.Path(tempfile.mkdtemp(prefix="outside."))
        self.addCleanup(shutil.rmtree, outside)
        (outside / "x.csv").write_text(bench_csv([("E.coli", "small", 4000, 2, "epsm", "cpu", 10)]), encoding="utf-8")
        status, output = self.make("--date", "2030-01-02", str(outside / "x.csv"))
        self.assertEqual(status, 2, output)
        self.assertIn("not inside", output)


if __name__ == "__main__":
    unittest.main()
