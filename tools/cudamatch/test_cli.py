"""End-to-end tests of `cudamatch search` and `cudamatch bench`, run as a user runs them.

The binary comes from $CUDAMATCH (CTest sets it). Python's bytes.find is the independent oracle.
Run: CUDAMATCH=build/ci/bin/cudamatch python3 -m unittest -v test_cli   (from tools/cudamatch)
"""
import csv
import os
import random
import subprocess
import tempfile
import unittest

BINARY = os.environ.get("CUDAMATCH", "cudamatch")
DATA = os.environ.get("CUDAMATCH_DATA", "")
ALGORITHMS = ["bf", "kmp", "bm", "sunday", "epsm", "ssef"]


def occurrences(text, pattern):
    found, i = [], text.find(pattern)
    while i >= 0:
        found.append(i)
        i = text.find(pattern, i + 1)
    return found


def run(*args, stdin=None):
    return subprocess.run([BINARY, *args], input=stdin, capture_output=True, timeout=600)


def has_gpu():
    return run("info").returncode == 0


# In a student-track build the CUDA backend runs the starter's kernels: unfinished ones give wrong
# results, and the lessons' [todo] tests are where those are graded.
STARTER_KERNELS = os.environ.get("CUDAMATCH_TRACK") == "student"


class SearchTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def file(self, name, data):
        path = os.path.join(self.dir.name, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def offsets(self, result):
        return [int(line) for line in result.stdout.split()]

    def test_prints_every_overlapping_offset(self):
        path = self.file("t", b"aaaa needle aaa")
        result = run("search", "--backend", "cpu", "aa", path)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.offsets(result), [0, 1, 2, 12, 13])
        self.assertEqual(result.stderr, b"")

    def test_no_match_exits_1_silently(self):
        result = run("search", "--backend", "cpu", "zebra", self.file("t", b"no such animal"))
        self.assertEqual((result.returncode, result.stdout, result.stderr), (1, b"", b""))

    def test_several_files_are_prefixed_and_counted(self):
        a, b = self.file("a", b"xyxy"), self.file("b", b"y")
        result = run("search", "--backend", "cpu", "y", a, b)
        self.assertEqual(result.stdout.decode().split(), [f"{a}:1", f"{a}:3", f"{b}:0"])
        result = run("search", "--backend", "cpu", "-c", "y", a, b)
        self.assertEqual(result.stdout.decode().split(), [f"{a}:2", f"{b}:1"])
        result = run("search", "--backend", "cpu", "-c", "-b", "y", a)
        self.assertEqual(result.stdout, b"2\n")

    def test_binary_patterns_from_hex_and_from_a_file(self):
        data = bytes(range(256)) * 3 + b"\x00\xff\x00\xff"
        path = self.file("bin", data)
        expected = occurrences(data, b"\x00\xff")
        self.assertEqual(self.offsets(run("search", "--backend", "cpu", "--hex", "00ff", path)), expected)
        pattern = self.file("pattern", b"\xfe\xff\x00")
        self.assertEqual(self.offsets(run("search", "--backend", "cpu", "-f", pattern, path)),
                         occurrences(data, b"\xfe\xff\x00"))

    def test_every_algorithm_gives_the_same_answer(self):
        rng = random.Random(5)
        data = bytes(rng.choice(b"ab") for _ in range(5000))
        path = self.file("ab", data)
        for m in (1, 3, 8, 16, 17, 32, 40):
            pattern = data[100:100 + m]
            expected = occurrences(data, pattern)
            for algorithm in ALGORITHMS + ["ssef:v0"]:
                result = run("search", "--backend", "cpu", "-a", algorithm, "--hex", pattern.hex(), path)
                self.assertEqual(self.offsets(result), expected, f"{algorithm} m={m}")

    def test_matches_across_chunk_edges_are_found_once(self):
        rng = random.Random(6)
        data = bytes(rng.choice(b"abc") for _ in range(20000))
        path = self.file("abc", data)
        for m, chunk in ((1, 1), (2, 7), (5, 5), (33, 64), (100, 1000)):
            pattern = data[999:999 + m]
            result = run("search", "--backend", "cpu", "--chunk-bytes", str(chunk), "--hex", pattern.hex(), path)
            self.assertEqual(self.offsets(result), occurrences(data, pattern), f"m={m} chunk={chunk}")

    def test_standard_input(self):
        result = run("search", "--backend", "cpu", "ab", "-", stdin=b"abcab")
        self.assertEqual(self.offsets(result), [0, 3])

    def test_errors_are_one_line_and_exit_2(self):
        good = self.file("good", b"abc")
        cases = {
            "missing file": ["search", "--backend", "cpu", "a", os.path.join(self.dir.name, "missing")],
            "directory": ["search", "--backend", "cpu", "a", self.dir.name],
            "empty pattern": ["search", "--backend", "cpu", "", good],
            "bad hex": ["search", "--backend", "cpu", "--hex", "0g", good],
            "odd hex": ["search", "--backend", "cpu", "--hex", "abc", good],
            "unknown algorithm": ["search", "--backend", "cpu", "-a", "grep", "a", good],
            "unknown version": ["search", "--backend", "cpu", "-a", "kmp:v7", "a", good],
            "unknown cuda version": ["search", "--backend", "cuda", "-a", "bf:v9", "a", good],
            "unknown backend": ["search", "--backend", "tpu", "a", good],
            "no file": ["search", "--backend", "cpu", "a"],
            "empty pattern file": ["search", "--backend", "cpu", "-f", self.file("empty", b""), good],
        }
        for name, args in cases.items():
            result = run(*args)
            self.assertEqual(result.returncode, 2, f"{name}: {result.stderr}")
            lines = result.stderr.decode().strip().splitlines()
            self.assertGreaterEqual(len(lines), 1, name)
            self.assertTrue(lines[0].startswith("cudamatch") or lines[0].startswith("--") or "required" in lines[0]
                            or "Run with" in result.stderr.decode(), f"{name}: {lines}")
            self.assertNotIn(b"Traceback", result.stderr)
            self.assertNotIn(b"terminate called", result.stderr, name)

    def test_a_missing_file_does_not_stop_the_others(self):
        good = self.file("good", b"abab")
        result = run("search", "--backend", "cpu", "ab", os.path.join(self.dir.name, "missing"), good)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stdout.decode().split(), [f"{good}:0", f"{good}:2"])
        self.assertIn(b"No such file", result.stderr)

    @unittest.skipIf(has_gpu(), "a GPU is present: the default backend is the GPU (GpuBackendTest)")
    def test_without_a_backend_the_cpu_is_used_and_said_once(self):
        result = run("search", "b", self.file("t", b"abcb"))
        self.assertEqual(self.offsets(result), [1, 3])
        self.assertEqual(len(result.stderr.decode().strip().splitlines()), 1)
        self.assertIn(b"searching on the CPU", result.stderr)

    @unittest.skipUnless(DATA and os.path.exists(os.path.join(DATA, "bible.txt")), "corpora not fetched")
    def test_corpora_agree_with_an_independent_oracle(self):
        rng = random.Random(7)
        for name in ("bible.txt", "E.coli", "world192.txt"):
            path = os.path.join(DATA, name)
            with open(path, "rb") as f:
                text = f.read()
            for m in (1, 2, 5, 12, 16, 31, 64, 300):
                start = rng.randrange(len(text) - m)
                pattern = text[start:start + m]
                result = run("search", "--backend", "cpu", "--hex", pattern.hex(), path)
                self.assertEqual(self.offsets(result), occurrences(text, pattern), f"{name} m={m}")


class BenchTest(unittest.TestCase):
    def test_bench_writes_table_csv_and_plot(self):
        with tempfile.TemporaryDirectory() as d:
            csv_path, png = os.path.join(d, "b.csv"), os.path.join(d, "b.png")
            args = ["bench", "--corpora", "E.coli,bible.txt", "--lengths", "4,64", "--patterns", "3", "--csv", csv_path]
            try:
                import matplotlib  # noqa: F401
                args += ["--plot", png]
            except ImportError:
                png = None
            result = run(*args)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn(b"all correct", result.stdout)
            with open(csv_path) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(len(rows), 2 * 2 * (len(ALGORITHMS) + 2))
            self.assertTrue(all(r["correct"] == "1" and float(r["gbps"]) > 0 for r in rows))
            if png:
                self.assertGreater(os.path.getsize(png), 10000)

    def test_bench_without_corpora_uses_stand_ins_and_says_so(self):
        with tempfile.TemporaryDirectory() as d:
            result = run("bench", "--data", d, "--corpora", "world192.txt", "--lengths", "8", "--patterns", "2",
                         "--algorithms", "sunday", "--no-compare")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn(b"synthetic", result.stderr)
            self.assertIn(b"SYNTHETIC", result.stdout)

    def test_bench_rejects_bad_choices(self):
        for args in (["--algorithms", "grep"], ["--algorithms", "kmp:v1"], ["--compare", "awk"],
                     ["--backend", "cuda", "--algorithms", "bf:v9"],
                     ["--lengths", "0"]):
            result = run("bench", "--corpora", "E.coli", "--patterns", "1", *args)
            self.assertEqual(result.returncode, 2, f"{args}: {result.stderr}")


def gpu_versions(algorithm):
    """The versions `search --backend cuda` accepts for `algorithm` (empty when it has none yet)."""
    versions = []
    for v in range(10):
        result = run("search", "--backend", "cuda", "-a", f"{algorithm}:v{v}", "-c", "--hex", "00", "/dev/null")
        if result.returncode == 2:
            break
        versions.append(v)
    return versions


@unittest.skipIf(STARTER_KERNELS, "student track: the CUDA backend runs the starter's kernels (graded by [todo] tests)")
@unittest.skipUnless(has_gpu(), "no CUDA device: the CUDA backend cannot run here")
class GpuBackendTest(unittest.TestCase):
    """Every GPU version against the CPU backend, as a user runs them."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        rng = random.Random(8)
        data = bytearray(rng.choice(b"acgt\x00\xff") for _ in range(300_001))
        self.needles = [b"ac", b"\x00\xffa", b"gattaca\xff", bytes(data[1000:1040])]
        for needle in self.needles:
            for at in (0, 4095, 4096 - len(needle) // 2, 65536 - 1, len(data) - len(needle)):
                data[at:at + len(needle)] = needle
        self.path = os.path.join(self.dir.name, "text")
        with open(self.path, "wb") as f:
            f.write(data)

    def test_every_version_prints_what_the_cpu_prints(self):
        tried = 0
        for algorithm in ("bf", "kmp", "bm", "sunday", "epsm", "ssef"):
            for v in gpu_versions(algorithm):
                for needle in self.needles:
                    for chunk in ("4096", "1000000"):
                        args = ["--hex", needle.hex(), "--chunk-bytes", chunk, self.path]
                        cpu = run("search", "--backend", "cpu", "-a", algorithm, *args)
                        gpu = run("search", "--backend", "cuda", "-a", f"{algorithm}:v{v}", *args)
                        self.assertEqual(gpu.returncode, cpu.returncode, gpu.stderr)
                        self.assertEqual(gpu.stdout, cpu.stdout, f"{algorithm}:v{v} {needle!r} chunk {chunk}")
                        count = run("search", "--backend", "cuda", "-a", f"{algorithm}:v{v}", "-c", *args)
                        self.assertEqual(int(count.stdout), len(cpu.stdout.split()))
                        tried += 1
        self.assertGreater(tried, 0)

    def test_streamed_search_prints_what_the_cpu_prints(self):
        # Lesson 17's stream, forced on a small file with 4 KiB chunks, and on standard input.
        with open(self.path, "rb") as f:
            data = f.read()
        stream = ["--stream-above", "0", "--chunk-bytes", "4096"]
        for algorithm in ALGORITHMS:
            for needle in self.needles:
                args = ["--hex", needle.hex(), self.path]
                cpu = run("search", "--backend", "cpu", "-a", algorithm, *args)
                gpu = run("search", "--backend", "cuda", "-a", algorithm, *stream, *args)
                self.assertEqual(gpu.returncode, cpu.returncode, gpu.stderr)
                self.assertEqual(gpu.stdout, cpu.stdout, f"{algorithm} {needle!r} streamed")
                self.assertEqual(gpu.stderr, b"")
                count = run("search", "--backend", "cuda", "-a", algorithm, "-c", *stream, *args)
                self.assertEqual(int(count.stdout), len(cpu.stdout.split()))
                piped = run("search", "--backend", "cuda", "-a", algorithm, "--chunk-bytes", "4096", "--hex",
                            needle.hex(), "-", stdin=data)
                self.assertEqual(piped.stdout, cpu.stdout, f"{algorithm} {needle!r} from standard input")

    def test_streamed_search_of_several_files_and_errors(self):
        other = os.path.join(self.dir.name, "other")
        with open(other, "wb") as f:
            f.write(b"ac" * 5000)
        missing = os.path.join(self.dir.name, "missing")
        args = ["--hex", "6163", self.path, missing, other]
        cpu = run("search", "--backend", "cpu", *args)
        gpu = run("search", "--backend", "cuda", "--stream-above", "0", "--chunk-bytes", "4096", *args)
        self.assertEqual((gpu.returncode, gpu.stdout), (cpu.returncode, cpu.stdout))
        self.assertEqual(gpu.returncode, 2)
        self.assertIn(b"No such file", gpu.stderr)
        self.assertEqual(len(gpu.stderr.decode().strip().splitlines()), 1)
        counts = run("search", "--backend", "cuda", "-c", "--stream-above", "0", *args)
        self.assertEqual(counts.stdout, run("search", "--backend", "cpu", "-c", *args).stdout)

    def test_the_default_on_a_gpu_machine_is_the_gpu(self):
        result = run("search", "-c", "--hex", self.needles[0].hex(), self.path)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, b"")

    def test_counts_replayed_from_a_graph_across_files_and_lengths(self):
        # Lesson 10: brute force's counts go through a CUDA graph, captured for one text length and
        # pattern length and replayed or updated for the next file; files of many sizes in one run.
        rng = random.Random(10)
        files = []
        for i, size in enumerate((1, 255, 256, 4097, 4097, 70_001)):
            files.append(os.path.join(self.dir.name, f"f{i}"))
            with open(files[-1], "wb") as f:
                f.write(bytes(rng.choice(b"ab") for _ in range(size)))
        for needle in (b"a", b"ab", b"abba", b"b" * 9):
            for version in [f"bf:v{v}" for v in gpu_versions("bf")]:
                args = ["-c", "--hex", needle.hex(), *files]
                cpu = run("search", "--backend", "cpu", *args)
                gpu = run("search", "--backend", "cuda", "-a", version, *args)
                self.assertEqual((gpu.returncode, gpu.stdout), (cpu.returncode, cpu.stdout), f"{version} {needle!r}")
                self.assertEqual(gpu.stderr, b"")

    def test_bench_graph_rows_are_checked(self):
        result = run("bench", "--backend", "cuda", "--graph", "--corpora", "E.coli", "--lengths", "4,64",
                     "--patterns", "5", "--no-compare", "--algorithms", "bf", "--csv", os.path.join(self.dir.name, "g.csv"))
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(self.dir.name, "g.csv"), newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["matcher"].endswith(" graph")]
        self.assertEqual({r["matcher"] for r in rows}, {f"bf:v{gpu_versions('bf')[-1]} graph"})
        self.assertEqual(len(rows), 2)
        self.assertTrue(all(r["correct"] == "1" for r in rows))

    def test_bench_gpu_and_cpu_with_batches(self):
        with tempfile.TemporaryDirectory() as d:
            csv_path = os.path.join(d, "b.csv")
            result = run("bench", "--backend", "cuda,cpu", "--batch", "--corpora", "E.coli", "--lengths", "4,64",
                         "--patterns", "3", "--no-compare", "--algorithms", "bf", "--csv", csv_path)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn(b"GPU speedup over the CPU reference", result.stdout)
            with open(csv_path, newline="") as f:
                rows = list(csv.DictReader(f))
            gpu_rows = [r for r in rows if r["backend"] == "cuda"]
            self.assertEqual({r["matcher"] for r in gpu_rows}, {"bf:v0", f"bf:v{gpu_versions('bf')[-1]}",
                                                                  f"bf:v{gpu_versions('bf')[-1]} batch"})
            self.assertTrue(all(r["correct"] == "1" for r in rows))
            self.assertTrue(all(float(r["pct_of_read"]) > 0 for r in gpu_rows))


if __name__ == "__main__":
    unittest.main()
