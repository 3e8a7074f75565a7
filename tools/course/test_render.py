"""Tests of tools/course/render.py: it renders a small synthetic course, and --check fails on each kind
of staleness (a stale autograding.json, a lesson table missing a lesson, a figure edited by hand, a data
value changed, ...) in copies of that course and of the real tree. Every test works on a temporary copy."""

import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
RENDER = HERE / "render.py"
sys.path.insert(0, str(HERE))

from figures import short_gpu_name  # noqa: E402
from regions import MarkerError, find_regions  # noqa: E402
from results_data import csv_rows  # noqa: E402


def run_render(root: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(RENDER), "--root", str(root), *args], capture_output=True, text=True, check=False
    )


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_json(path: Path, value) -> None:
    write(path, json.dumps(value, indent=2) + "\n")


def driver_rows(v0_ms: dict, v1_ms: dict) -> list:
    rows = []
    for case, ms in v0_ms.items():
        rows.append({"case_id": case, "version_id": "v0", "median_ms": ms, "gbps": 1000 / ms, "valid": True})
        rows.append({"case_id": case, "version_id": "v1", "median_ms": v1_ms[case], "gbps": 1000 / v1_ms[case],
                     "valid": True})
    return rows


def lesson(title: str, needs: list, headline=None) -> dict:
    manifest = {"title": title, "teaches": f"what {title} teaches", "needs": needs, "hours": "1 h",
                "editable": ["a.cu"], "shared": [], "driver": "driver.cu", "rubric": "rubric.json"}
    if headline:
        manifest["headline"] = headline
    return manifest


def add_lesson(root: Path, lesson_id: str, manifest: dict, points: list) -> None:
    write_json(root / "lessons" / lesson_id / "lesson.json", manifest)
    items = [{"id": f"item{i}", "kind": "tests", "points": p} for i, p in enumerate(points)]
    write_json(root / "lessons" / lesson_id / "rubric.json", {"lesson": lesson_id, "items": items})


def build_course(root: Path) -> None:
    """Two lessons, one data file, a registry with every kind of figure, and documents quoting them."""
    write_json(root / "lessons/course.json", {"lessons": ["00-alpha", "01-beta"]})
    add_lesson(root, "00-alpha", lesson("Alpha", [], headline="00.headline"), [60, 40])
    rubric = json.loads((root / "lessons/00-alpha/rubric.json").read_text())
    rubric["items"][1].update({"id": "v1-speed", "name": "v1 at least 3x v0", "kind": "performance", "version": "v1",
                               "baseline": "v0", "floor": 1.1, "full_at": 3.0})
    write_json(root / "lessons/00-alpha/rubric.json", rubric)
    add_lesson(root, "01-beta", lesson("Beta", ["00-alpha"]), [50, 45])
    write_json(
        root / "docs/results/data/h100/00-alpha.json",
        {"lesson": "00-alpha", "device": {"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"},
         "ceilings_gbps": {"read": 3000.0, "copy": 2800.0}, "launch_floor_ms": 0.002,
         "rows": driver_rows({"m2": 2.0, "m4": 4.0, "m8": 8.0}, {"m2": 1.0, "m4": 1.0, "m8": 2.0})},
    )
    write(root / "docs/results/data/h100/ncu/00-alpha.csv",
          '==PROF== Connected to process 1\n"ID","Kernel Name","Metric Name","Metric Value"\n'
          '"0","v0_kernel","requests","61,718,528"\n"1","v1_kernel","requests","720,896"\n')
    speedup = {"rows": {"case_id": "m4", "version_id": "v1"}, "value": "speedup", "baseline": {"version_id": "v0"},
               "format": "{:.2f}", "unit": "x"}
    write_json(
        root / "docs/results/figures/00.json",
        {"data": "h100/00-alpha.json", "figures": {
            "speedup_m4": speedup,
            "speedup_median": {**speedup, "rows": {"case_id": "m*", "version_id": "v1"}, "stat": "median"},
            "share_range": {"rows": {"version_id": "v1"}, "value": "share:read", "stat": "range",
                            "format": "{:.1f}", "unit": "%"},
            "gpu": {"value": "gpu"},
            "requests": {"data": "h100/ncu/00-alpha.csv", "rows": {"Kernel Name": "v1_kernel"},
                         "value": "Metric Value", "format": "{:,.0f}"},
            "headline": {"text": "v1 {00.speedup_median} v0"},
            "v1-speed": {**speedup, "unit": "x (m = 4)"},
            "gap_us": {"rows": {"case_id": "m8", "version_id": "v0"}, "value": "median_ms",
                       "minus": {"rows": {"case_id": "m8", "version_id": "v1"}}, "scale": 1000, "format": "{:.0f}"},
            "floor_ms": {"value": "document:launch_floor_ms", "divide_into": 1.0, "format": "{:.0f}",
                         "unit": " launches per ms"},
            "per_second": {"rows": {"case_id": "m2", "version_id": "v1"}, "value": "rate:5e9", "scale": 1e-9,
                           "format": "{:.0f}", "unit": " G/s"},
            "results": {"table": {"for": {"m": ["2", "4", "8"]}, "columns": [
                {"header": "m", "text": "{m}"},
                {"header": "v1 GB/s", "rows": {"case_id": "m{m}", "version_id": "v1"}, "value": "gbps",
                 "format": "{:.1f}"},
                {**speedup, "header": "v1 / v0", "rows": {"case_id": "m{m}", "version_id": "v1"}}]}},
        }},
    )
    bench_rows = ["dna,2,bf:v0,cuda,0.040,100.0", "dna,2,bf:v3,cuda,0.010,400.0", "dna,2,bf,cpu,1.000,4.0",
                  "dna,4,bf:v0,cuda,0.050,80.0", "dna,4,bf:v3,cuda,0.020,200.0", "dna,4,bf,cpu,3.000,1.3"]
    write(root / "docs/results/data/h100/bench.csv", "device,corpus,m,matcher,backend,median_ms,gbps,correct\n"
          + "".join(f'"NVIDIA H100 80GB HBM3",{row},1\n' for row in bench_rows))
    fastest = {"rows": {"m": "{m}", "backend": "cuda"}, "value": "gbps", "stat": "argmax",
               "format": "{matcher} {0:.0f}"}
    versus_cpu = {"rows": {"m": "{m}", "backend": "cpu"}, "value": "median_ms", "stat": "min",
                  "divide_by": {"rows": {"m": "{m}", "backend": "cuda"}, "stat": "min"}, "format": "{:.0f}",
                  "unit": "x"}
    write_json(
        root / "docs/results/figures/tool.json",
        {"data": "h100/bench.csv", "figures": {
            "fastest": {"table": {"for": {"m": ["2", "4"]}, "columns": [
                {"header": "m", "text": "{m}"}, {**fastest, "header": "fastest GPU"},
                {"header": "GPU / CPU", "text": "{x} ({gpu} us)", "parts": {
                    "x": versus_cpu, "gpu": {**fastest, "value": "median_ms", "stat": "min", "scale": 1000,
                                             "format": "{:.0f}"}}}]}},
            "versus_cpu": {**versus_cpu, "across": {"m": ["2", "4"]}},
            "gpu_us": {"rows": {"backend": "cuda", "matcher": ["bf:v0", "bf:v3"]}, "value": "median_ms",
                       "per": {"by": ["m"], "stat": "min"}, "stat": "range", "scale": 1000, "format": "{:.0f}"},
        }},
    )
    write(root / "docs/results/data/h100/grader.txt",
          "# graded on an NVIDIA H100, 2026-11-24\nalpha: as expected (48.3333 of 100)\n"
          "  ok   07 a: expected full, got 15 of 15\n  ok   07 b: expected any, got 8.3333 of 25\n"
          "beta: as expected (70 of 100)\n  ok   07 a: expected 0, got 0 of 12\n")
    write_json(root / "docs/results/figures/grader.json", {"data": "h100/grader.txt", "figures": {
        "beta": {"match": "^(?P<plant>\\w+): as expected \\((?P<got>[0-9.]+) of (?P<max>[0-9.]+)\\)$",
                 "rows": {"plant": "beta"}, "value": "got", "format": "{got:.0f} of {max:.0f}"},
        "alpha_lost": {"section": "^(?P<plant>\\w+): ", "rows": {"plant": "alpha"}, "value": "got", "stat": "list",
                       "match": "^ +ok +\\S+ (?P<item>\\w+): expected \\w+, got (?P<got>[0-9.]+) of (?!(?P=got)$)"
                                "(?P<max>[0-9.]+)$", "format": "{item} {got:.3g} of {max:.0f}"},
        "gpu": {"value": "gpu"}}})
    write(root / "docs/tool.md",
          "GPU <!-- fig:tool.versus_cpu --><!-- /fig --> CPU; <!-- fig:tool.gpu_us --><!-- /fig --> us.\n\n"
          "<!-- table:tool.fastest -->\n<!-- /table -->\n\nOn the <!-- fig:grader.gpu --><!-- /fig -->: beta "
          "<!-- fig:grader.beta --><!-- /fig -->; alpha lost <!-- fig:grader.alpha_lost --><!-- /fig -->.\n")
    write(root / "README.md",
          "# Course\n\nOn the <!-- fig:00.gpu --><!-- /fig -->, v1 is <!-- fig:00.speedup_m4 -->?<!-- /fig --> v0 "
          "at m = 4.\n\n<!-- generated:lessons -->\n<!-- /generated -->\n\nThe syntax:\n\n```\n"
          "<!-- fig:00.nothing -->\n```\n\n- in a list:\n\n  ```\n  <!-- table:00.nothing -->\n  ```\n")
    write(root / "docs/course-map.md", "# Map\n\n<!-- generated:dependencies -->\n<!-- /generated -->\n\n"
          "<!-- generated:lessons-at-a-glance -->\n<!-- /generated -->\n\n"
          "### 00\n\n- **Needs:** <!-- generated:needs-00 --><!-- /generated -->.\n"
          "- **You edit:** <!-- generated:edit-00 --><!-- /generated -->.\n\n"
          "### 01\n\n- **Needs:** <!-- generated:needs-01 --><!-- /generated -->.\n"
          "- **You edit:** <!-- generated:edit-01 --><!-- /generated -->.\n")
    write(root / "docs/results/lesson-00.md",
          "# 00\n\n<!-- generated:thresholds-00 -->\n<!-- /generated -->\n\n"
          "v0 takes <!-- fig:00.gap_us --><!-- /fig --> us more at m = 8; <!-- fig:00.floor_ms --><!-- /fig -->; "
          "<!-- fig:00.per_second --><!-- /fig -->.\n")
    write(root / "lessons/00-alpha/README.md",
          "Median <!-- fig:00.speedup_median --><!-- /fig -->, <!-- fig:00.share_range --><!-- /fig --> of read, "
          "<!-- fig:00.requests --><!-- /fig --> requests.\n\n<!-- table:00.results -->\n<!-- /table -->\n")


class CourseCopy(unittest.TestCase):
    """A rendered synthetic course in a temporary folder."""

    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="render-test-"))
        self.addCleanup(shutil.rmtree, self.root)
        build_course(self.root)
        rendered = run_render(self.root)
        self.assertEqual(rendered.returncode, 0, rendered.stdout + rendered.stderr)

    def check_fails_with(self, *expected: str) -> str:
        before = {p: p.read_bytes() for p in self.root.rglob("*") if p.is_file()}
        result = run_render(self.root, "--check")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        for text in expected:
            self.assertIn(text, result.stdout)
        after = {p: p.read_bytes() for p in self.root.rglob("*") if p.is_file()}
        self.assertEqual(before, after, "--check must not write")
        return result.stdout

    def edit(self, relative: str, old: str, new: str) -> None:
        path = self.root / relative
        text = path.read_text(encoding="utf-8")
        self.assertIn(old, text)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")


class RenderedCourse(CourseCopy):
    def test_rendered_course_passes_the_check(self):
        result = run_render(self.root, "--check")
        self.assertEqual(result.returncode, 0, result.stdout)

    def test_figures_are_rendered_from_the_data(self):
        readme = (self.root / "README.md").read_text()
        self.assertIn("On the <!-- fig:00.gpu -->H100<!-- /fig -->, v1 is <!-- fig:00.speedup_m4 -->4.00x", readme)
        lesson_readme = (self.root / "lessons/00-alpha/README.md").read_text()
        self.assertIn("Median <!-- fig:00.speedup_median -->4.00x<!-- /fig -->", lesson_readme)
        self.assertIn("<!-- fig:00.share_range -->16.7-33.3%<!-- /fig -->", lesson_readme)
        self.assertIn("<!-- fig:00.requests -->720,896<!-- /fig -->", lesson_readme)
        self.assertIn("| 4   |  1000.0 |   4.00x |", lesson_readme)
        self.assertIn("rendered by tools/course/render.py from docs/results/data/h100/00-alpha.json", lesson_readme)

    def test_picks_groups_ratios_and_parts(self):
        tool = (self.root / "docs/tool.md").read_text()
        self.assertIn("GPU <!-- fig:tool.versus_cpu -->100-150x<!-- /fig --> CPU", tool)
        self.assertIn("<!-- fig:tool.gpu_us -->10-20<!-- /fig --> us", tool)
        self.assertIn("| 2   |   bf:v3 400 | 100x (10 us) |", tool)
        self.assertIn("| 4   |   bf:v3 200 | 150x (20 us) |", tool)

    def test_lines_of_a_text_file(self):
        self.assertIn("On the <!-- fig:grader.gpu -->H100<!-- /fig -->: beta <!-- fig:grader.beta -->70 of 100"
                      "<!-- /fig -->; alpha lost <!-- fig:grader.alpha_lost -->b 8.33 of 25<!-- /fig -->.",
                      (self.root / "docs/tool.md").read_text())

    def test_thresholds_beside_what_the_solution_measured(self):
        results = (self.root / "docs/results/lesson-00.md").read_text()
        row = "| `v1-speed` | v1 at least 3x v0 | 1.1     | 3.0            | 4.00x (m = 4)         | 75%             |"
        self.assertIn(row, results)
        self.assertIn("v0 takes <!-- fig:00.gap_us -->6000<!-- /fig --> us more at m = 8; <!-- fig:00.floor_ms -->500 "
                      "launches per ms<!-- /fig -->; <!-- fig:00.per_second -->5000 G/s<!-- /fig -->.", results)

    def test_generated_files_follow_the_manifests(self):
        classroom = json.loads((self.root / ".github/classroom/autograding.json").read_text())
        self.assertEqual([(t["name"], t["points"]) for t in classroom["tests"]], [("00-alpha", 100), ("01-beta", 95)])
        self.assertIn("--lessons 01 ", classroom["tests"][1]["run"])
        course_map = (self.root / "docs/course-map.md").read_text()
        self.assertIn("| v1 4.00x v0 (H100) | -     | 1 h  |", course_map)
        self.assertIn("[`01-beta`](../lessons/01-beta/README.md)", course_map)
        self.assertIn("| 00    | 1 h  |", course_map)
        self.assertIn("### 00\n\n- **Needs:** <!-- generated:needs-00 -->nothing<!-- /generated -->.\n", course_map)
        self.assertIn("### 01\n\n- **Needs:** <!-- generated:needs-01 -->00<!-- /generated -->.\n"
                      "- **You edit:** <!-- generated:edit-01 -->`a.cu`<!-- /generated -->.\n", course_map)
        self.assertIn('```mermaid\ngraph TD\n  L00["00-alpha"] --> L01["01-beta"]\n```\n', course_map)

    def test_markers_in_code_blocks_are_text(self):
        self.assertIn("```\n<!-- fig:00.nothing -->\n```", (self.root / "README.md").read_text())


class StaleCopies(CourseCopy):
    def test_stale_autograding_json(self):
        self.edit(".github/classroom/autograding.json", '"points": 95', '"points": 100')
        self.check_fails_with(
            "stale: .github/classroom/autograding.json is stale: line 21 reads '\"points\": 100', "
            "should read '\"points\": 95'"
        )

    def test_points_changed_in_a_rubric(self):
        rubric = self.root / "lessons/01-beta/rubric.json"
        value = json.loads(rubric.read_text())
        value["items"][0]["points"] = 55
        write_json(rubric, value)
        self.check_fails_with("autograding.json is stale", "'\"points\": 95', should read '\"points\": 100'")

    def test_lesson_table_missing_a_lesson(self):
        readme = self.root / "README.md"
        lines = readme.read_text().splitlines(keepends=True)
        readme.write_text("".join(line for line in lines if "`01-beta`" not in line))
        self.check_fails_with("stale: README.md:5: generated:lessons is stale: line 5 is missing")

    def test_a_lesson_added_to_the_course(self):
        add_lesson(self.root, "02-gamma", lesson("Gamma", ["01-beta"]), [100])
        write_json(self.root / "lessons/course.json", {"lessons": ["00-alpha", "01-beta", "02-gamma"]})
        self.check_fails_with("autograding.json is stale", "generated:lessons is stale",
                              "generated:lessons-at-a-glance is stale", "generated:dependencies is stale",
                              "the <!-- generated:edit-02 --> region is missing",
                              "the <!-- generated:needs-02 --> region is missing")

    def test_figure_edited_by_hand(self):
        self.edit("README.md", "<!-- fig:00.speedup_m4 -->4.00x", "<!-- fig:00.speedup_m4 -->4.10x")
        self.check_fails_with("stale: README.md:3: fig:00.speedup_m4 reads '4.10x', the data gives '4.00x'")

    def test_table_edited_by_hand(self):
        self.edit("lessons/00-alpha/README.md", "|   4.00x |", "|   4.20x |")
        self.check_fails_with("table:00.results is stale: line 5 reads")

    def test_data_value_changed(self):
        self.edit("docs/results/data/h100/00-alpha.json", '"median_ms": 4.0', '"median_ms": 5.0')
        self.check_fails_with("fig:00.speedup_m4 reads '4.00x', the data gives '5.00x'",
                              "table:00.results is stale: line 5 reads '| 4   |  1000.0 |   4.00x |', "
                              "should read '| 4   |  1000.0 |   5.00x |'")

    def test_csv_value_changed(self):
        self.edit("docs/results/data/h100/bench.csv", "dna,4,bf:v3,cuda,0.020", "dna,4,bf:v3,cuda,0.030")
        self.check_fails_with("fig:tool.versus_cpu reads '100-150x', the data gives '100x'",
                              "fig:tool.gpu_us reads '10-20', the data gives '10-30'")

    def test_ncu_value_changed(self):
        self.edit("docs/results/data/h100/ncu/00-alpha.csv", '"720,896"', '"720,897"')
        self.check_fails_with("fig:00.requests reads '720,896', the data gives '720,897'")

    def test_a_row_marked_not_valid_cannot_be_quoted(self):
        self.edit("docs/results/data/h100/00-alpha.json", '"valid": true', '"valid": false')
        self.check_fails_with("is marked not valid")

    def test_unknown_figure(self):
        self.edit("README.md", "fig:00.speedup_m4 -->", "fig:00.speedup_m5 -->")
        self.check_fails_with("error: README.md:3: figure 00.speedup_m5 is not in docs/results/figures/",
                              "figure 00.speedup_m4 is quoted nowhere")

    def test_marker_without_its_end(self):
        self.edit("README.md", "4.00x<!-- /fig -->", "4.00x")
        self.check_fails_with("error: README.md: line 3: a marker without its closing marker")

    def test_an_editable_file_added(self):
        manifest = self.root / "lessons/00-alpha/lesson.json"
        value = json.loads(manifest.read_text())
        value["editable"] = ["a.cu", "b.cu", "c.cpp"]
        write_json(manifest, value)
        self.check_fails_with("generated:edit-00 reads '`a.cu`', the data gives '`a.cu`, `b.cu` and `c.cpp`'")

    def test_a_lesson_with_nothing_to_edit(self):
        manifest = self.root / "lessons/01-beta/lesson.json"
        value = json.loads(manifest.read_text())
        value["editable"] = []
        write_json(manifest, value)
        self.check_fails_with('error: docs/course-map.md:27: lessons/01-beta/lesson.json: "editable" is missing '
                              'or empty')

    def test_a_lesson_without_its_edit_line(self):
        self.edit("docs/course-map.md", "<!-- generated:edit-01 -->`a.cu`<!-- /generated -->", "`a.cu`")
        self.check_fails_with("error: docs/course-map.md: the <!-- generated:edit-01 --> region is missing")

    def test_the_generated_region_removed(self):
        self.edit("docs/course-map.md", "<!-- generated:lessons-at-a-glance -->", "")
        self.check_fails_with("error: docs/course-map.md: the <!-- generated:lessons-at-a-glance --> region is missing")

    def test_a_row_matched_twice(self):
        self.edit("docs/results/figures/00.json", '"case_id": "m4"', '"case_id": "m*"')
        self.check_fails_with("3 rows match")

    def test_a_measured_figure_in_a_rubric_note(self):
        rubric = self.root / "lessons/01-beta/rubric.json"
        value = json.loads(rubric.read_text())
        value["items"][1]["note"] = "H200: 7.27x; 5.5 is 76% of that."
        write_json(rubric, value)
        self.check_fails_with("error: lessons/01-beta/rubric.json: the note of item1 names a measurement GPU ('H200')",
                              "the note of item1 quotes a measured ratio or share ('7.27x')")

    def test_rewrite_fixes_what_check_found(self):
        self.edit("README.md", "<!-- fig:00.speedup_m4 -->4.00x", "<!-- fig:00.speedup_m4 -->4.10x")
        self.assertEqual(run_render(self.root).returncode, 0)
        self.assertEqual(run_render(self.root, "--check").returncode, 0)


class Pieces(unittest.TestCase):
    def test_short_gpu_names(self):
        self.assertEqual(short_gpu_name("NVIDIA H100 80GB HBM3"), "H100")
        self.assertEqual(short_gpu_name("NVIDIA H200"), "H200")
        self.assertEqual(short_gpu_name("NVIDIA GeForce RTX 2060"), "GeForce RTX 2060")

    def test_nested_markers_are_refused(self):
        with self.assertRaises(MarkerError):
            find_regions("<!-- table:a -->\n<!-- fig:b -->1<!-- /fig -->\n<!-- /table -->\n")

    def test_a_fence_closes_with_its_own_kind(self):
        # a ``` line inside a ```` block is code, so is a ~~~ line inside a ``` block: the markers stay text
        text = ("````md\n```\n<!-- fig:a.b -->1<!-- /fig -->\n```\n````\n```\n~~~\n<!-- fig:c.d -->2<!-- /fig -->\n```\n"
                "<!-- fig:e.f -->3<!-- /fig -->\n")
        self.assertEqual([r.id for r in find_regions(text)], ["e.f"])

    def test_ncu_units(self):
        raw = '"ID","Kernel Name","gpu__time_duration.sum","dram__bytes_read.sum"\n"","","usecond","Gbyte"\n' \
              '"0","k(int)","473.82","1.07"\n'
        (row,) = csv_rows(raw)
        self.assertEqual(row["Kernel Name"], "k(int)")
        self.assertAlmostEqual(row["gpu__time_duration.sum"], 473.82e-6)
        self.assertAlmostEqual(row["dram__bytes_read.sum"], 1.07e9, delta=1)
        details = '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n"0","k","t","msecond","1.5"\n'
        self.assertEqual(csv_rows(details)[0]["Metric Value"], 1.5e-3)

    def test_ncu_csv_numbers(self):
        rows = csv_rows('==PROF== x\n"Kernel Name","Metric Value"\n"k","1,234.5"\n==PROF== Disconnected\n')
        self.assertEqual(rows, [{"Kernel Name": "k", "Metric Value": 1234.5}])


def copy_of_the_tree(test: unittest.TestCase) -> Path:
    """The course's sources, documents and data in a temporary folder (no builds, no git)."""
    root = Path(tempfile.mkdtemp(prefix="render-tree-"))
    test.addCleanup(shutil.rmtree, root)
    ignored = shutil.ignore_patterns(".git", "build*", "cache", "*.o", "*.png")
    for entry in REPO.iterdir():
        hidden = entry.name.startswith(".") and entry.name != ".github"
        if hidden or entry.name == "datasets" or entry.name.startswith("build"):
            continue
        if entry.is_dir():
            shutil.copytree(entry, root / entry.name, ignore=ignored)
        else:
            shutil.copy2(entry, root / entry.name)
    return root


class RealTree(unittest.TestCase):
    """The committed tree passes --check, and copies of it broken in each way fail it."""

    def setUp(self):
        self.root = copy_of_the_tree(self)

    def check(self) -> subprocess.CompletedProcess:
        return run_render(self.root, "--check")

    def test_the_tree_is_up_to_date(self):
        result = self.check()
        self.assertEqual(result.returncode, 0, result.stdout)

    def test_stale_autograding_json(self):
        path = self.root / ".github/classroom/autograding.json"
        path.write_text(path.read_text().replace('"timeout": 30', '"timeout": 31', 1))
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn(".github/classroom/autograding.json is stale", result.stdout)

    def test_lesson_table_missing_a_lesson(self):
        path = self.root / "README.md"
        path.write_text("".join(l for l in path.read_text().splitlines(True) if "[`11-brute-force`]" not in l))
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("generated:lessons is stale", result.stdout)

    def test_figure_edited_by_hand(self):
        for path in sorted(self.root.rglob("*.md")):
            regions = [r for r in find_regions(path.read_text()) if r.kind == "fig"]
            if regions:
                text = path.read_text()
                region = regions[0]
                path.write_text(text[: region.start] + "9" + text[region.start :])
                result = self.check()
                self.assertEqual(result.returncode, 1)
                self.assertIn(f"fig:{region.id} reads '9", result.stdout)
                return
        self.skipTest("no inline figure in the tree yet")

    def test_data_value_changed(self):
        files = sorted((self.root / "docs/results/data").rglob("*.json"))
        if not files:
            self.skipTest("no driver data in the tree yet")
        for path in files:  # every row's time and rate moved by a different factor
            document = json.loads(path.read_text())
            for i, row in enumerate(document["rows"]):
                for key in ("median_ms", "gbps"):
                    if isinstance(row.get(key), float):
                        row[key] *= 1.0 + 0.1 * (i + 1) if key == "gbps" else 1.0 / (1.0 + 0.1 * (i + 1))
            write_json(path, document)
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("the data gives", result.stdout)


if __name__ == "__main__":
    unittest.main()
