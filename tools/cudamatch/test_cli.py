"""End-to-end tests of `cudamatch search` and `cudamatch bench`, run as a user runs them.

The binary comes from $CUDAMATCH (CTest sets it). Python's bytes.find is the independent oracle.
Run: CUDAMATCH=build/ci/bin/cudamatch python3 -m unittest -v test_cli   (from tools/cudamatch)
"""
import csv
import os
import pty
import random
import re
import shutil
import subprocess
import tempfile
import unittest

BINARY = os.environ.get("CUDAMATCH", "cudamatch")
if os.sep in BINARY:
    BINARY = os.path.abspath(BINARY)  # the bench tests run it from other folders
DATA = os.environ.get("CUDAMATCH_DATA", "")
if DATA:
    os.environ["CUDAMATCH_DATA"] = DATA = os.path.abspath(DATA)
ALGORITHMS = ["bf", "kmp", "bm", "sunday", "epsm", "ssef"]


def occurrences(text, pattern):
    found, i = [], text.find(pattern)
    while i >= 0:
        found.append(i)
        i = text.find(pattern, i + 1)
    return found


def run(*args, stdin=None, cwd=None, env=None):
    return subprocess.run([BINARY, *args], input=stdin, capture_output=True, timeout=600, cwd=cwd, env=env)


def has_gpu():
    return run("info").returncode == 0


def hyperscan_built_in():
    """Whether this cudamatch has bench's hyperscan peer: the last line of --version says."""
    return re.match(r"^Hyperscan \d+\.\d+\.\d+ .*built in", run("--version").stdout.decode().splitlines()[-1]) is not None


# The peers `cudamatch bench` runs by default: what users pick instead of cudamatch.
PEERS = ["memmem", "std-bmh"] + (["hyperscan"] if hyperscan_built_in() else [])
HYPERSCAN_MISSING = ("Hyperscan not built in (to add it: apt-get install libhyperscan-dev, then configure and build "
                     "again)")


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
        self.assertEqual(self.offsets(run("search", "--backend", "cpu", "--raw-pattern-file", pattern, path)),
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
            "empty pattern file": ["search", "--backend", "cpu", "--raw-pattern-file", self.file("empty", b""), good],
            "empty hex": ["search", "--backend", "cpu", "--hex", "", good],
            "empty -e": ["search", "--backend", "cpu", "-e", "", good],
            "empty -f line": ["search", "--backend", "cpu", "-f", self.file("lines", b"a\n\nb\n"), good],
            "empty -f file": ["search", "--backend", "cpu", "-f", self.file("nolines", b""), good],
            "missing -f file": ["search", "--backend", "cpu", "-f", os.path.join(self.dir.name, "nope"), good],
            "bad color": ["search", "--backend", "cpu", "--color=sometimes", "a", good],
            "negative -m": ["search", "--backend", "cpu", "-m", "-1", "a", good],
            "-m not a number": ["search", "--backend", "cpu", "-m", "many", "a", good],
            "unknown option": ["search", "--backend", "cpu", "--frobnicate", "a", good],
            "grep's -v": ["search", "--backend", "cpu", "-v", "a", good],
            "-e without its pattern": ["search", "--backend", "cpu", good, "-e"],
            "no pattern": ["search", "--backend", "cpu"],
            "no file after -e": ["search", "--backend", "cpu", "-e", "a"],
            "--per-pattern without -c": ["search", "--backend", "cpu", "--per-pattern", "-e", "a", good],
            "--pattern-index with -o": ["search", "--backend", "cpu", "--pattern-index", "-o", "-e", "a", good],
            "unknown subcommand": ["frobnicate"],
        }
        for name, args in cases.items():
            result = run(*args)
            self.assertEqual(result.returncode, 2, f"{name}: {result.stderr}")
            lines = result.stderr.decode().strip().splitlines()
            self.assertEqual(len(lines), 1, f"{name}: {lines}")
            self.assertTrue(lines[0].startswith("cudamatch: "), f"{name}: {lines}")
            self.assertNotIn(b"Traceback", result.stderr)
            self.assertNotIn(b"terminate called", result.stderr, name)

    def test_error_lines_say_what_is_wrong(self):
        good = self.file("good", b"abc")
        cases = {
            ("--hex", "", good): "cudamatch: the pattern is empty",
            ("-e", "", good): "cudamatch: the pattern given with -e is empty",
            ("-f", self.file("lines", b"a\n\nb\n"), good): "line 2 is empty",
            ("--color=sometimes", "a", good): "'sometimes' is not one of auto, always, never",
            ("-v", "a", good): "grep's --invert-match selects lines without a match",
            ("-E", "a", good): "regular expressions are not supported",
            ("-w", "a", good): "not whole words or lines",
            # A file that cannot be read: the file and the reason, no "error:" before them.
            ("-f", os.path.join(self.dir.name, "nope"), good):
                f"cudamatch: cannot open '{os.path.join(self.dir.name, 'nope')}': No such file or directory",
        }
        for args, message in cases.items():
            result = run("search", "--backend", "cpu", *args)
            self.assertEqual(result.returncode, 2, args)
            self.assertEqual(len(result.stderr.decode().strip().splitlines()), 1, result.stderr)
            self.assertIn(message, result.stderr.decode(), args)

    def test_several_patterns_merge_in_offset_order_with_labels(self):
        path = self.file("t", b"abab")
        result = run("search", "--backend", "cpu", "-e", "b", "-e", "ab", path)
        self.assertEqual(result.stdout, b"0:ab\n1:b\n2:ab\n3:b\n")
        # a newline in -e separates patterns, as in grep; duplicates count once
        result = run("search", "--backend", "cpu", "-c", "-e", "b\nab", "-e", "b", path)
        self.assertEqual(result.stdout, b"4\n")

    def test_several_patterns_across_chunk_edges(self):
        rng = random.Random(9)
        data = bytes(rng.choice(b"ab") for _ in range(3000))
        path = self.file("ab", data)
        few = [data[10:11], data[20:23], data[40:49], data[100:117]]  # one pass each
        many = few + [data[i:i + rng.randint(1, 20)] for i in rng.sample(range(2900), 40)]  # one for all
        for patterns in (few, many):
            args = []
            for p in patterns:
                args += ["-e", p.decode()]
            expected = sorted(((o, -len(p), p) for p in set(patterns) for o in occurrences(data, p)))
            for chunk in ("1", "7", "16", "100", "100000"):
                result = run("search", "--backend", "cpu", "--chunk-bytes", chunk, "-o", "-b", *args, path)
                self.assertEqual(result.stdout.decode().split(), [f"{o}:{p.decode()}" for o, _, p in expected],
                                 f"{len(patterns)} patterns, chunk {chunk}")
                count = run("search", "--backend", "cpu", "--chunk-bytes", chunk, "-c", *args, path)
                self.assertEqual(int(count.stdout), len(expected), f"{len(patterns)} patterns, chunk {chunk}")

    def texts_of_each_alphabet(self):
        """A file of each alphabet class (dispatch.hpp): 4 letters, English-like words, random bytes."""
        rng = random.Random(11)
        words = [b"the", b"of", b"and", b"lord", b"unto", b"shall", b"said", b"he", b"is", b"a", b"in"]
        return {
            "small": self.file("dna", bytes(rng.choice(b"acgt") for _ in range(70_000))),
            "text": self.file("words", b" ".join(rng.choice(words) for _ in range(15_000))),
            "wide": self.file("random", bytes(rng.getrandbits(8) for _ in range(70_000))),
        }

    def test_without_a_the_chosen_matcher_prints_what_brute_force_prints(self):
        for alphabet, path in self.texts_of_each_alphabet().items():
            with open(path, "rb") as f:
                data = f.read()
            for m in (1, 2, 3, 4, 5, 8, 15, 16, 17, 31, 32, 33, 64, 100, 1024, 1500):
                pattern = data[5000:5000 + m]
                for chunk in ("4096", "1000000"):
                    args = ["--backend", "cpu", "--chunk-bytes", chunk, "--hex", pattern.hex(), path]
                    chosen = run("search", *args)
                    self.assertEqual(chosen.returncode, 0, chosen.stderr)
                    self.assertEqual(chosen.stdout, run("search", "-a", "bf", *args).stdout, f"{alphabet} m={m}")
                    self.assertEqual(self.offsets(chosen), occurrences(data, pattern), f"{alphabet} m={m}")

    def test_verbose_says_which_matcher_runs_each_file_and_why(self):
        texts = self.texts_of_each_alphabet()
        files = [texts["small"], texts["text"], texts["wide"]]
        quiet = run("search", "--backend", "cpu", "-e", "acgt", "-e", "the lord", *files)
        result = run("search", "--backend", "cpu", "--verbose", "-e", "acgt", "-e", "the lord", *files)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, quiet.stdout)  # the matches are the same
        lines = result.stderr.decode().splitlines()
        self.assertEqual(len(lines), 3, lines)
        for line, path, alphabet in zip(lines, files, ("small", "text", "wide")):
            self.assertTrue(line.startswith(f"cudamatch: {path}: cpu, alphabet {alphabet} ("), line)
            self.assertRegex(line, r"effective letters in \d+ bytes sampled\), \d+-byte text: the table measured on ")
            # the lengths 4 and 8 in one range of the table or in two ("4-15", "16+": to the end)
            self.assertRegex(line, r": m = 4(, 8)? in \d+(-\d+|\+) -> (bf|kmp|bm|sunday|epsm|ssef) "
                                   r"\(measured at m = [\d, ]+\)")
            self.assertRegex(line, r"(m = 4, 8|; m = 8) in ")
            self.assertTrue(line.endswith("; one pass each for the 2 patterns"), line)
        self.assertIn("no corpus of this class: the ", lines[2])  # no wide corpus was measured
        named = run("search", "--backend", "cpu", "--verbose", "-a", "sunday", "acgt", texts["small"])
        self.assertEqual(named.stderr.decode(), f"cudamatch: {texts['small']}: cpu: sunday, as -a names it\n")
        named = run("search", "--backend", "cpu", "--verbose", "-a", "sunday", "-e", "acgt", "-e", "gg", texts["small"])
        self.assertEqual(named.stderr.decode(), f"cudamatch: {texts['small']}: cpu: sunday, as -a names it, "
                                                "one pass each for the 2 patterns\n")
        many = run("search", "--backend", "cpu", "--verbose", *[f"-e{w}" for w in "abcdefghijklmnopqrstu"],
                   texts["text"])
        self.assertIn("cpu: one Aho-Corasick pass for the 21 patterns", many.stderr.decode())
        stdin = run("search", "--backend", "cpu", "--verbose", "acgt", "-", stdin=b"acgtacgt")
        self.assertTrue(stdin.stderr.decode().startswith("cudamatch: (standard input): cpu, alphabet small ("),
                        stdin.stderr)

    def test_pattern_index_labels_matches_and_per_pattern_counts_each(self):
        path = self.file("t", b"abab\x00\xff")
        patterns = self.file("p", b"b\nab\nb\nzz\n\x00\xff\n")  # line 3 repeats line 1: reported as index 0
        result = run("search", "--backend", "cpu", "--pattern-index", "-f", patterns, path)
        self.assertEqual(result.stdout, b"0:1\n1:0\n2:1\n3:0\n4:4\n")
        result = run("search", "--backend", "cpu", "-c", "--per-pattern", "-f", patterns, path)
        self.assertEqual(result.stdout, b"b:2\nab:2\nzz:0\n\x00\xff:1\n")  # in the order given, zeros too
        result = run("search", "--backend", "cpu", "-c", "--per-pattern", "--pattern-index", "-f", patterns, path)
        self.assertEqual(result.stdout, b"0:2\n1:2\n3:0\n4:1\n")
        self.assertEqual(run("search", "--backend", "cpu", "-c", "-f", patterns, path).stdout, b"5\n")  # grep's -c
        # -e before -f in the count; -i makes "B" a repeat of "b"; one pattern gets its index too
        result = run("search", "--backend", "cpu", "-i", "--pattern-index", "-e", "B", "-f", patterns, path)
        self.assertEqual(result.stdout, b"0:2\n1:0\n2:2\n3:0\n4:5\n")
        self.assertEqual(run("search", "--backend", "cpu", "--pattern-index", "ab", path).stdout, b"0:0\n2:0\n")
        # with file names, -m and --no-overlap: the counts of what is reported
        result = run("search", "--backend", "cpu", "-c", "--per-pattern", "-H", "-m", "3", "-e", "b", "-e", "ab", path)
        self.assertEqual(result.stdout.decode().splitlines(), [f"{path}:b:1", f"{path}:ab:2"])
        result = run("search", "--backend", "cpu", "-c", "--per-pattern", "--no-overlap", "-e", "b", "-e", "ab", path)
        self.assertEqual(result.stdout, b"b:0\nab:2\n")
        self.assertEqual(run("search", "--backend", "cpu", "-q", "-c", "--per-pattern", "-e", "b", path).stdout, b"")

    def test_per_pattern_counts_across_chunk_edges(self):
        rng = random.Random(12)
        data = bytes(rng.choice(b"ab\x00") for _ in range(3000))
        path = self.file("ab", data)
        for count in (4, 40):  # one pass each, one pass for all
            chosen = [data[i:i + rng.randint(1, 12)] for i in rng.sample(range(2980), count)]
            patterns = self.file("p", b"".join(p + b"\n" for p in chosen))
            firsts = {}
            for index, p in enumerate(chosen):
                firsts.setdefault(p, index)
            expected = [f"{i}:{len(occurrences(data, p))}" for p, i in firsts.items()]
            labelled = sorted((o, -len(p), i) for p, i in firsts.items() for o in occurrences(data, p))
            for chunk in ("1", "13", "100000"):
                result = run("search", "--backend", "cpu", "--chunk-bytes", chunk, "-c", "--per-pattern",
                             "--pattern-index", "-f", patterns, path)
                self.assertEqual(result.stdout.decode().split(), expected, f"{count} patterns, chunk {chunk}")
                result = run("search", "--backend", "cpu", "--chunk-bytes", chunk, "--pattern-index", "-f", patterns,
                             path)
                self.assertEqual(result.stdout.decode().split(), [f"{o}:{i}" for o, _, i in labelled])

    def test_no_subcommand_shows_usage_and_exits_2(self):
        result = run()
        self.assertEqual(result.returncode, 2)
        err = result.stderr.decode()
        self.assertTrue(err.startswith("cudamatch: a subcommand is required"), err)
        for sub in ("search", "bench", "info"):
            self.assertIn(sub, err)

    def test_version(self):
        result = run("--version")
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.decode().splitlines()
        self.assertEqual(len(lines[:3]), 3, lines)
        self.assertRegex(lines[0], r"^cudamatch \d+\.\d+\.\d+ ")
        self.assertRegex(lines[1], r"^CUDA runtime \d+\.\d+$")
        self.assertTrue(lines[2].startswith("CUDA driver"), lines)
        devices = lines[3:-1]
        self.assertTrue(devices and all(line.startswith("GPU ") for line in devices) or
                        devices == [devices[0]] and devices[0].startswith("no CUDA device"), lines)
        self.assertEqual(devices[0].startswith("GPU "), has_gpu())
        self.assertTrue(lines[-1] == HYPERSCAN_MISSING or hyperscan_built_in(), lines)

    def test_search_help_has_examples(self):
        result = run("search", "--help")
        self.assertEqual(result.returncode, 0)
        self.assertIn(b"Examples:", result.stdout)
        self.assertIn(b"--no-overlap", result.stdout)

    def test_the_manual_page_names_every_option(self):
        manual = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "cudamatch.1")
        with open(manual) as f:
            page = f.read()
        for command, at_least in (("search", 20), ("bench", 15)):
            options = set()  # the first column of the option lines: "  -e,--regexp PATTERN ..."
            for line in run(command, "--help").stdout.decode().splitlines():
                if re.match(r"^ +-", line):
                    options.update(re.findall(r"--?[a-zA-Z][a-z-]*", line.split("  ", 2)[1].split(" ")[0]))
            self.assertGreater(len(options), at_least, command)
            for option in options:
                self.assertIn("\\fB" + option.replace("-", "\\-"), page, f"{command} {option}")
        rendered = None
        if shutil.which("man"):
            rendered = subprocess.run(["man", "--warnings", "-l", manual], capture_output=True,
                                      env={**os.environ, "MANWIDTH": "100"})
        # A minimized system's `man` (the GPU machines') is a stub that only says how to restore manuals.
        if rendered is not None and b"unminimize" not in rendered.stdout:
            self.assertEqual(rendered.returncode, 0, rendered.stderr)
            self.assertEqual(rendered.stderr, b"")
            self.assertIn(b"--no-overlap", rendered.stdout)

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


def grep(*args, stdin=None, cwd=None):
    """GNU grep in the C locale (bytes, ASCII case folding)."""
    return subprocess.run(["grep", *args], input=stdin, capture_output=True, timeout=60, cwd=cwd,
                          env={**os.environ, "LC_ALL": "C"})


# Lines of odd bytes where grep -a and cudamatch agree (grep's -o -b on non-overlapping matches).
ODD_TEXT = (b"the Cat sat\x00 on\xff the mat; cat\tCAT caT\r\n\x80abcabcab\xfe\n"
            b"aaaaa xAAx Aa\n\n\x00\x00cat\x00\nnothing here\ncatcatcat dog DOG dOg\n")


def gnu_grep():
    try:
        return b"GNU grep" in subprocess.run(["grep", "--version"], capture_output=True, timeout=60).stdout
    except OSError:
        return False


@unittest.skipUnless(gnu_grep(), "GNU grep is not installed: it is the oracle of these tests")
class GrepCompatTest(unittest.TestCase):
    """`cudamatch search` against GNU grep -F where their semantics agree (CPU backend)."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.text = self.file("odd", ODD_TEXT)

    def file(self, name, data):
        path = os.path.join(self.dir.name, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def same(self, ours, theirs, files, stdin=None, status=None):
        """`cudamatch search --backend cpu OURS FILES` prints and exits as `grep -a -F THEIRS FILES`."""
        mine = run("search", "--backend", "cpu", *ours, *files, stdin=stdin)
        grep_result = grep("-a", "-F", *theirs, *files, stdin=stdin)
        self.assertEqual(mine.stdout, grep_result.stdout, f"{ours} vs grep {theirs}")
        self.assertEqual(mine.returncode, grep_result.returncode, f"{ours}: {mine.stderr}")
        if status is not None:
            self.assertEqual(mine.returncode, status, ours)
        return mine

    def test_only_matching_with_offsets(self):
        for pattern in (b"cat", b"a", b"aa", b"\x00", b"\xff the", b"ab", b"zebra"):
            patterns = self.file("pattern", pattern + b"\n")  # grep -f: a NUL cannot be an argument
            self.same(["--no-overlap", "-o", "-b", "--hex", pattern.hex()], ["-o", "-b", "-f", patterns], [self.text])
            self.same(["--no-overlap", "-o", "--hex", pattern.hex()], ["-o", "-f", patterns], [self.text])
            self.assertEqual(run("search", "--backend", "cpu", "-o", "--hex", pattern.hex(), self.text).stderr, b"")

    def test_file_lists(self):
        hit = self.file("hit", b"a cat\ncat\n")
        miss = self.file("miss", b"a dog\n")
        for flag in ("-l", "-L"):
            for files in ([hit, miss], [miss], [hit], [miss, hit, miss]):
                self.same([flag, "cat"], [flag, "cat"], files)
        self.same(["-l", "-q", "cat"], ["-l", "-q", "cat"], [miss, hit], status=0)
        # grep's precedence: -l and -L over -c and -o, the last of -l and -L, -q over all; -m 0 reads nothing
        for flags in (["-l", "-c"], ["-L", "-o"], ["-l", "-L"], ["-L", "-l"], ["-L", "-q"], ["-L", "-m", "0"],
                      ["-l", "-m", "0"]):
            for files in ([hit, miss], [miss]):
                self.same([*flags, "cat"], [*flags, "cat"], files)
        # A folder operand without -r is not read ("Is a directory", exit 2), and grep (3.8) then takes it as a
        # file without a match: -c prints its 0, -L lists it (-m 0 too); -q still exits 0 on a match.
        folder = os.path.join(self.dir.name, "folder")
        os.mkdir(folder)
        for flags in (["-c"], ["-c", "-Z"], ["-l"], ["-L"], ["-L", "-m", "0"], ["-q"], ["-c", "-s"]):
            for files in ([folder, hit], [folder], [miss, folder]):
                self.same([*flags, "cat"], [*flags, "cat"], files)
        self.assertIn(b"Is a directory", run("search", "--backend", "cpu", "-c", "cat", folder).stderr)

    def test_recursive(self):
        tree = os.path.join(self.dir.name, "tree")
        for name, data in (("b/deep/x", b"cat\n"), ("b/y", b"dog\n"), ("a", b"cat\ncat\n"), ("c.txt", b"\x00cat\n")):
            os.makedirs(os.path.dirname(os.path.join(tree, name)), exist_ok=True)
            with open(os.path.join(tree, name), "wb") as f:
                f.write(data)
        os.symlink(os.path.join(tree, "a"), os.path.join(tree, "b", "link"))  # not followed inside a folder
        for flags, grep_flags in ((["-c"], ["-c"]), (["-l"], ["-l"]), (["-L"], ["-L"]),
                                  (["-o", "-b", "--no-overlap"], ["-o", "-b"])):
            one_a_line = self.file("lines", b"cat\nno\na cat\n")  # grep -c counts lines
            for files, cwd in (([tree], None), ([tree, one_a_line], None), ([], tree)):
                mine = run("search", "--backend", "cpu", "-r", *flags, "cat", *files, cwd=cwd)
                theirs = grep("-a", "-F", "-r", *grep_flags, "cat", *files, cwd=cwd)
                # grep walks a folder in the order it reads it; cudamatch in its names' order
                self.assertEqual(sorted(mine.stdout.splitlines()), sorted(theirs.stdout.splitlines()), (flags, files))
                self.assertEqual(mine.returncode, theirs.returncode, (flags, files, mine.stderr))
        names = run("search", "--backend", "cpu", "-r", "-l", "cat", cwd=tree).stdout
        self.assertEqual(names, b"a\nb/deep/x\nc.txt\n")
        self.same(["cat"], ["cat"], [tree], status=2)  # a folder without -r: one line, as grep's
        # -r with one file operand prints no names; a file named "-" below a folder is a file, not standard input
        self.same(["-r", "-c", "cat"], ["-r", "-c", "cat"], [os.path.join(tree, "a")], status=0)
        with open(os.path.join(tree, "-"), "wb") as f:
            f.write(b"cat\n")
        mine = run("search", "--backend", "cpu", "-r", "-l", "cat", cwd=tree, stdin=b"no")
        self.assertEqual(mine.stdout, b"-\na\nb/deep/x\nc.txt\n")
        # the output file inside the searched folder is not read, as grep refuses to
        with open(os.path.join(tree, "out"), "wb") as out:
            result = subprocess.run([BINARY, "search", "--backend", "cpu", "-r", "cat", "."], cwd=tree, stdout=out,
                                    stderr=subprocess.PIPE, timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr, b"cudamatch: ./out: input file is also the output\n")
        with open(os.path.join(tree, "out"), "rb") as f:
            self.assertEqual(sorted(f.read().splitlines()), sorted([b"./-:0", b"./a:0", b"./a:4", b"./b/deep/x:0",
                                                                   b"./c.txt:1"]))
        # standard input that is the output is refused too; -m 1 is not (grep's rule: it stops too soon)
        out = os.path.join(tree, "out")
        for flags, status, error in (([], 2, b"cudamatch: (standard input): input file is also the output\n"),
                                     (["-m", "1"], 1, b"")):  # read, and no match: it holds offsets
            with open(out, "rb") as given, open(out, "ab") as appended:
                result = subprocess.run([BINARY, "search", "--backend", "cpu", *flags, "cat", "-"], stdin=given,
                                        stdout=appended, stderr=subprocess.PIPE, timeout=60)
            self.assertEqual((result.returncode, result.stderr), (status, error), flags)

    def test_include_exclude_and_null(self):
        tree = os.path.join(self.dir.name, "tree")
        for name in ("a.txt", "b.log", "sub/c.txt", "sub/deep/d.txt", "skip/e.txt", "x.txt.bak"):
            os.makedirs(os.path.dirname(os.path.join(tree, name)), exist_ok=True)
            with open(os.path.join(tree, name), "wb") as f:
                f.write(b"cat\n")
        for filters in (["--include=*.txt"], ["--exclude=*.txt"], ["--include=*.txt", "--exclude=c*"],
                        ["--exclude=c*", "--include=*.txt"], ["--exclude-dir=deep", "--exclude-dir=sk*"],
                        ["--include", "*.log", "--exclude-dir", "sub"]):
            for flags, grep_flags in ((["-l"], ["-l"]), (["-c", "-Z"], ["-c", "-Z"]), (["-lZ"], ["-lZ"])):
                mine = run("search", "--backend", "cpu", "-r", *flags, *filters, "cat", tree)
                theirs = grep("-a", "-F", "-r", *grep_flags, *filters, "cat", tree)
                self.assertEqual(sorted(mine.stdout.replace(b"\0", b"\n").splitlines()),
                                 sorted(theirs.stdout.replace(b"\0", b"\n").splitlines()), (filters, flags))
                self.assertEqual(mine.returncode, theirs.returncode, (filters, flags, mine.stderr))
        # grep's operand rules: a missing operand is reported whatever the filters; --exclude-dir judges folder
        # operands (trailing slashes dropped from its glob); an operand matches from after any of its slashes
        missing = os.path.join(self.dir.name, "missing")
        sub, a_txt = os.path.join(tree, "sub"), os.path.join(tree, "a.txt")
        for args in (["--exclude=missing", missing, a_txt], ["-r", "--exclude-dir=deep/", tree],
                     ["--exclude-dir=sub", sub, a_txt], ["--include=*.log", sub, a_txt],
                     ["--exclude=sub/*", os.path.join(sub, "c.txt"), a_txt], ["-L", "-m", "0", missing, a_txt],
                     ["-r", "-m", "0", tree]):
            flags, files = [f for f in args if f.startswith("-") or f == "0"], [f for f in args if f.startswith("/")]
            mine = run("search", "--backend", "cpu", "-l", *flags, "cat", *files)  # (-L, given after, wins)
            theirs = grep("-a", "-F", "-l", *flags, "cat", *files)
            self.assertEqual(sorted(mine.stdout.splitlines()), sorted(theirs.stdout.splitlines()), args)
            self.assertEqual(mine.returncode, theirs.returncode, (args, mine.stderr))
        # -Z: the NUL takes the place of ':' after the name, and of the newline after a -l name
        self.assertEqual(run("search", "--backend", "cpu", "-rZ", "cat", os.path.join(tree, "sub", "deep")).stdout,
                         os.path.join(tree, "sub", "deep", "d.txt").encode() + b"\x000\n")

    def test_no_messages_and_fixed_strings(self):
        missing = os.path.join(self.dir.name, "missing")
        one_a_line = self.file("lines", b"cat\nno\na cat\n")  # grep -c counts lines
        mine = self.same(["-s", "-c", "cat"], ["-s", "-c", "cat"], [missing, one_a_line], status=2)
        self.assertEqual(mine.stderr, b"")
        self.same(["-F", "--no-overlap", "-o", "-b", "cat"], ["-o", "-b", "cat"], [self.text], status=0)

    def test_overlap_is_the_default_and_no_overlap_is_greps(self):
        path = self.file("a", b"aaaaa\n")
        self.assertEqual(run("search", "--backend", "cpu", "-o", "-b", "aa", path).stdout, b"0:aa\n1:aa\n2:aa\n3:aa\n")
        self.same(["--no-overlap", "-o", "-b", "aa"], ["-o", "-b", "aa"], [path], status=0)

    def test_ignore_case(self):
        for pattern in (b"cat", b"CAT", b"Dog", b"aA", b"t; c", b"\xe0"):
            self.same(["-i", "--no-overlap", "-o", "-b", "--hex", pattern.hex()], ["-i", "-o", "-b", "-e", pattern],
                      [self.text, self.file("high", b"\xc0\xe0\n")])

    def test_patterns_from_e_and_f(self):
        self.same(["--no-overlap", "-o", "-b", "-e", "cat", "-e", "dog", "-e", "catcat"],
                  ["-o", "-b", "-e", "cat", "-e", "dog", "-e", "catcat"], [self.text], status=0)
        patterns = self.file("patterns", b"cat\nab\n\xff the\nbca\n")
        self.same(["--no-overlap", "-o", "-b", "-f", patterns], ["-o", "-b", "-f", patterns], [self.text])
        self.same(["--no-overlap", "-o", "-b", "-i", "-f", patterns, "-e", "DOG"],
                  ["-o", "-b", "-i", "-f", patterns, "-e", "DOG"], [self.text])
        self.same(["-o", "-b", "--no-overlap", "-e", "ca\ndo"], ["-o", "-b", "-e", "ca\ndo"], [self.text])
        self.same(["-o", "-b", "--no-overlap", "-f", "-"], ["-o", "-b", "-f", "-"], [self.text], stdin=b"dog\nat\n")
        dashes = self.file("dashes", b"a -v b --x\n")
        self.same(["-o", "-b", "-e", "-v", "-e", "--x"], ["-o", "-b", "-e", "-v", "-e", "--x"], [dashes], status=0)
        self.same(["-o", "-b", "--", "-v"], ["-o", "-b", "--", "-v"], [dashes], status=0)

    def test_across_piece_edges(self):
        # Small pieces: matches of patterns of different lengths near a piece's end, --no-overlap's choice
        # and -m's stop carried from piece to piece; few patterns (one pass each) and many (one pass for all,
        # duplicates under -i among them).
        rng = random.Random(11)
        path = self.file("edges", bytes(rng.choice(b"aAbB\n") for _ in range(4000)))
        few = ["-e", "ab", "-e", "Ba", "-e", "aBa", "-e", "b", "-e", "abab"]
        many = self.file("many", b"".join(bytes(rng.choice(b"aAbB") for _ in range(rng.randint(1, 6))) + b"\n"
                                          for _ in range(30)))
        for patterns in (few, ["-f", many]):
            for chunk in ("1", "3", "7", "100"):
                for flags in (["-i"], []):
                    every = self.same(["--chunk-bytes", chunk, "--no-overlap", "-o", "-b", *flags, *patterns],
                                      ["-o", "-b", *flags, *patterns], [path], status=0)
                    # grep's -m counts lines; cudamatch's the first NUM matches
                    first = run("search", "--backend", "cpu", "--chunk-bytes", chunk, "--no-overlap", "-o", "-b",
                                "-m", "9", *flags, *patterns, path)
                    self.assertEqual(first.stdout.splitlines(), every.stdout.splitlines()[:9])
            self.same(["-q", *patterns], ["-q", *patterns], [path], status=0)

    def test_count_quiet_and_max_count(self):
        # grep counts lines: a file with at most one match per line
        lines = self.file("lines", b"cat\nxcat\ndog\n\x00cat\xff\nCAT\ncat\n")
        for args in (["cat"], ["-i", "cat"], ["-e", "cat", "-e", "dog"], ["zebra"]):
            self.same(["-c", *args], ["-c", *args], [lines])
            quiet = self.same(["-q", *args], ["-q", *args], [lines])
            self.assertEqual(quiet.stdout, b"")
            for m in ("0", "1", "2", "10"):
                self.same(["-m", m, "-c", *args], ["-m", m, "-c", *args], [lines])
                self.same(["-m", m, "-o", "-b", "--no-overlap", *args], ["-m", m, "-o", "-b", *args], [lines])
        # -c counts every match, several on a line too, like grep -o | wc -l
        expected = len(grep("-a", "-F", "-o", "cat", self.text).stdout.splitlines())
        self.assertEqual(run("search", "--backend", "cpu", "--no-overlap", "-c", "cat", self.text).stdout,
                         f"{expected}\n".encode())

    def test_quiet_still_says_match_after_an_error(self):
        missing = os.path.join(self.dir.name, "missing")
        self.same(["-q", "cat"], ["-q", "cat"], [self.text, missing], status=0)
        result = run("search", "--backend", "cpu", "-q", "cat", missing, self.text)
        self.assertEqual((result.returncode, result.stdout), (0, b""))
        self.assertEqual(len(result.stderr.decode().splitlines()), 1)

    def test_file_names(self):
        other, none = self.file("other", b"a cat\n"), self.file("none", b"dog\n")
        for flags in ([], ["-H"], ["-h"], ["-h", "-H"], ["-H", "-h"]):
            self.same([*flags, "-o", "-b", "--no-overlap", "cat"], [*flags, "-o", "-b", "cat"], [self.text])
            self.same([*flags, "-o", "-b", "--no-overlap", "cat"], [*flags, "-o", "-b", "cat"], [self.text, other])
            self.same([*flags, "-c", "cat"], [*flags, "-c", "cat"], [other, none])
            self.same([*flags, "-o", "cat"], [*flags, "-o", "cat"], ["-"], stdin=b"cat\n")

    def test_color(self):
        other = self.file("other", b"a cat\n\x00CAT\xff\ndog\n")  # one match a line at most, for -c
        for when in ("always", "never", "auto"):  # auto: stdout is a pipe here, so no colour
            for extra in (["-o", "-b"], ["-o"], ["-c"]):
                texts = [other] if extra == ["-c"] else [self.text, other]
                self.same([f"--color={when}", "--no-overlap", *extra, "cat"], [f"--color={when}", *extra, "cat"], texts)
                self.same([f"--color={when}", "--no-overlap", "-i", *extra, "cAt"],
                          [f"--color={when}", "-i", *extra, "cAt"], texts[:1])
        # auto colours a terminal (a pseudo-terminal here) unless TERM is dumb, like grep
        for term, coloured in (("xterm", True), ("dumb", False)):
            for args in (["--color=auto"], ["--color"]):
                main, side = pty.openpty()
                try:
                    subprocess.run([BINARY, "search", "--backend", "cpu", *args, "-o", "cat", other], stdout=side,
                                   timeout=60, env={**os.environ, "TERM": term}, check=True)
                    output = os.read(main, 4096)
                finally:
                    os.close(main)
                    os.close(side)
                self.assertEqual(b"\x1b[01;31m\x1b[Kcat\x1b[m\x1b[K" in output, coloured, (term, args, output))
        result = run("search", "--backend", "cpu", "--color", "cat", self.text)  # --color takes no separate WHEN
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn(b"\x1b", result.stdout)


def can_plot():
    """Whether the python3 that `cudamatch bench` runs can draw its plot."""
    probe = ["python3", "-c", "import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot"]
    return subprocess.run(probe, capture_output=True, timeout=120).returncode == 0


# The smallest bench that still has every kind of row: one corpus, two lengths, two patterns.
QUICK_BENCH = ["--corpora", "E.coli", "--lengths", "4,64", "--patterns", "2"]


class BenchTest(unittest.TestCase):
    """`cudamatch bench` on the CPU (GpuBackendTest has the GPU's), and the results folder it writes."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.cwd = self.dir.name  # where a bench without --out makes cudamatch-results/

    def path(self, *names):
        return os.path.join(self.dir.name, *names)

    def bench(self, *args, env=None):
        return run("bench", *args, cwd=self.cwd, env=env)

    def where(self, result):
        """The files the listing at the end of stdout names: {"table": ..., "csv": ..., "results": ...}."""
        lines = result.stdout.decode().splitlines()
        self.assertTrue(lines and lines[-1].startswith("results: ") and lines[-1].endswith("/"), lines[-4:])
        listing = {}
        for line in reversed(lines):
            key, _, value = line.partition(": ")
            if key not in ("table", "csv", "plot", "results"):
                break
            listing[key] = os.path.join(self.cwd, value)
        return listing

    def rows(self, csv_path):
        with open(csv_path, newline="") as f:
            return list(csv.DictReader(f))

    @unittest.skipIf(has_gpu(), "a GPU is present: the default runs it (GpuBackendTest)")
    def test_without_flags_the_cpu_runs_and_the_results_folder_is_named(self):
        result = self.bench(*QUICK_BENCH)
        self.assertEqual(result.returncode, 0, result.stderr)
        notes = [line for line in result.stderr.decode().splitlines() if "no CUDA device" in line]
        self.assertEqual(len(notes), 1, result.stderr)
        self.assertIn("benchmarking on the CPU only", notes[0])
        self.assertRegex(result.stdout.decode().splitlines()[-1], r"^results: cudamatch-results/bench-\d{8}-\d{6}/$")
        where = self.where(result)
        folder = where["results"]
        self.assertEqual(where["table"], os.path.join(folder, "bench.txt"))
        self.assertEqual(where["csv"], os.path.join(folder, "bench.csv"))
        with open(where["table"], "rb") as f:  # the tables as printed: stdout up to the listing
            self.assertEqual(f.read(), b"".join(result.stdout.splitlines(keepends=True)[:-len(where)]))
        self.assertIn(b"all correct", result.stdout)
        rows = self.rows(where["csv"])
        self.assertEqual(len(rows), 2 * (len(ALGORITHMS) + 1 + len(PEERS)))  # the six, the auto row, the peers
        self.assertTrue(all(r["correct"] == "1" and r["backend"] == "cpu" for r in rows))
        if can_plot():
            self.assertEqual(where["plot"], os.path.join(folder, "bench.png"))
            self.assertGreater(os.path.getsize(where["plot"]), 10000)
        # a second run of the same second gets a folder of its own
        again = self.bench(*QUICK_BENCH, "--algorithms", "ssef", "--no-compare")
        self.assertNotEqual(self.where(again)["results"], folder)

    def test_out_names_the_folder_and_csv_and_plot_can_go_elsewhere(self):
        out = self.path("runs", "first")  # made, parents too
        result = self.bench(*QUICK_BENCH, "--backend", "cpu", "--algorithms", "ssef", "--no-compare", "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.decode().splitlines()[-1], f"results: {out}/")
        self.assertEqual(sorted(os.listdir(out)), ["bench.csv", "bench.png", "bench.txt"] if can_plot()
                         else ["bench.csv", "bench.txt"])
        self.assertFalse(os.path.exists(self.path("cudamatch-results")))
        csv_path, png = self.path("b.csv"), self.path("b.png")
        result = self.bench(*QUICK_BENCH, "--backend", "cpu", "--out", out, "--csv", csv_path, "--plot", png)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.where(result)["csv"], csv_path)
        self.assertEqual(len(self.rows(csv_path)), 2 * (len(ALGORITHMS) + 1 + len(PEERS)))  # 1: the auto row
        self.assertEqual(len(self.rows(os.path.join(out, "bench.csv"))), 2)  # the first run's, left alone
        if can_plot():
            self.assertEqual(self.where(result)["plot"], png)
            self.assertGreater(os.path.getsize(png), 10000)

    def test_a_results_folder_that_cannot_be_written_is_one_line_and_exit_2(self):
        in_the_way = self.path("a-file")
        with open(in_the_way, "w") as f:
            f.write("not a folder")
        cases = {
            "folder under a file": ["--out", os.path.join(in_the_way, "results")],
            "folder is a file": ["--out", in_the_way],
            "csv in no folder": ["--csv", self.path("missing", "b.csv")],
            "plot in no folder": ["--plot", self.path("missing", "b.png")],
        }
        for name, args in cases.items():
            result = self.bench(*QUICK_BENCH, *args)  # no --backend: the no-GPU note must not come first
            self.assertEqual(result.returncode, 2, f"{name}: {result.stderr}")
            lines = result.stderr.decode().strip().splitlines()
            self.assertEqual(len(lines), 1, f"{name}: {lines}")
            self.assertTrue(lines[0].startswith("cudamatch: cannot "), f"{name}: {lines}")
            self.assertEqual(result.stdout, b"", name)
            self.assertEqual(sorted(os.listdir(self.dir.name)), ["a-file"], name)  # nothing made

    def test_without_matplotlib_or_python_the_table_and_csv_are_still_written(self):
        shadow = self.path("shadow", "matplotlib")  # a matplotlib that cannot be imported
        os.makedirs(shadow)
        with open(os.path.join(shadow, "__init__.py"), "w") as f:
            f.write("raise ImportError('no matplotlib here (a test)')\n")
        no_programs = self.path("empty-bin")
        os.makedirs(no_programs)
        cases = {"python3 cannot import matplotlib": {**os.environ, "PYTHONPATH": self.path("shadow")},
                 "python3 is not installed": {**os.environ, "PATH": no_programs}}
        for reason, env in cases.items():
            out = self.path(reason.replace(" ", "-"))
            result = self.bench(*QUICK_BENCH, "--backend", "cpu", "--algorithms", "ssef", "--no-compare", "--out",
                                out, env=env)
            self.assertEqual(result.returncode, 0, result.stderr)
            lines = [line for line in result.stderr.decode().splitlines() if not line.startswith("note: ")]
            self.assertEqual(len(lines), 1, lines)  # (notes say which corpora are stand-ins)
            self.assertTrue(lines[0].startswith(f"cudamatch: no plot drawn: {reason}; "), lines)
            self.assertIn("apt-get install python3-matplotlib", lines[0])
            self.assertIn("pip install matplotlib", lines[0])
            self.assertEqual(set(self.where(result)), {"table", "csv", "results"})
            self.assertEqual(sorted(os.listdir(out)), ["bench.csv", "bench.txt"])

    def test_the_progress_bar_on_a_terminal_is_cleared_before_the_tables(self):
        main, side = pty.openpty()
        try:
            bench = subprocess.Popen([BINARY, "bench", *QUICK_BENCH, "--backend", "cpu", "--out", self.path("r")],
                                     stdout=side, stderr=side)
            os.close(side)
            side = None
            output = b""
            while True:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the terminal's other end is closed: the bench is done
                    break
                if not chunk:
                    break
                output += chunk
            self.assertEqual(bench.wait(timeout=600), 0, output)
        finally:
            os.close(main)
            if side is not None:
                os.close(side)
        self.assertRegex(output, rb"\[=*\s*\] +\d+%  E\.coli m=4 ")
        self.assertIn(b"\r\x1b[KE.coli (", output)  # the bar's line cleared, then the first table

    def test_the_auto_row_runs_the_table_pick_and_is_compared_with_the_fastest(self):
        out = self.path("auto")
        result = self.bench("--backend", "cpu", "--corpora", "E.coli,bible.txt", "--lengths", "4,64", "--patterns",
                            "2", "--algorithms", "epsm,auto,ssef", "--no-peers", "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        rows = self.rows(os.path.join(out, "bench.csv"))
        self.assertEqual([r["matcher"] for r in rows], ["epsm", "ssef", "auto"] * 4)
        self.assertEqual({r["corpus"]: r["alphabet"] for r in rows}, {"E.coli": "small", "bible.txt": "text"})
        for r in rows:
            self.assertEqual(r["correct"], "1")
            self.assertEqual(r["chosen"] in ALGORITHMS, r["matcher"] == "auto", r)
        for corpus in ("E.coli", "bible.txt"):  # each auto row counted what the others counted
            for m in ("4", "64"):
                self.assertEqual(len({r["matches"] for r in rows if (r["corpus"], r["m"]) == (corpus, m)}), 1)
        stdout = result.stdout.decode()
        self.assertRegex(stdout, r"\nm +epsm +ssef +auto\n")
        self.assertIn("auto (the dispatch table's pick, as `cudamatch search` without -a picks it) against the fastest "
                      "single matcher of the cpu backend in this run", stdout)
        self.assertRegex(stdout, r"\n4 +\d+\.\d\d (epsm|ssef|bf|kmp|bm|sunday) / (epsm|ssef) ")
        # Timing on a shared machine: either verdict, but one of them.
        self.assertRegex(stdout, r"\nauto: (within 10% of the fastest at every m and corpus \(lowest: [^)]+\)\)|"
                                 r"more than 10% below the fastest at \d of 4:.*)\n")
        only = self.bench("--backend", "cpu", "--corpora", "E.coli", "--lengths", "8", "--patterns", "1",
                          "--algorithms", "auto", "--no-peers", "--out", self.path("only"))
        self.assertEqual(only.returncode, 0, only.stderr)
        self.assertEqual([r["matcher"] for r in self.rows(self.path("only", "bench.csv"))], ["auto"])

    def test_bench_without_corpora_uses_stand_ins_and_says_so(self):
        result = self.bench("--backend", "cpu", "--data", self.path("no-corpora"), "--corpora", "world192.txt",
                            "--lengths", "8", "--patterns", "2", "--algorithms", "sunday", "--no-compare")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(b"synthetic", result.stderr)
        self.assertIn(b"SYNTHETIC", result.stdout)

    def test_the_peers_run_beside_the_cpu_matchers_and_are_checked(self):
        out = self.path("r")
        result = self.bench(*QUICK_BENCH, "--backend", "cpu", "--algorithms", "ssef", "--peers", "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        rows = self.rows(os.path.join(out, "bench.csv"))
        self.assertEqual([r["matcher"] for r in rows], ["ssef", *PEERS] * 2)
        self.assertTrue(all(r["correct"] == "1" and r["backend"] == "cpu" for r in rows))
        for m in ("4", "64"):  # every row of a length counted the same (ssef's, checked against brute force)
            self.assertEqual(len({r["matches"] for r in rows if r["m"] == m}), 1, m)
        stdout = result.stdout.decode()
        self.assertRegex(stdout, r"\nm +ssef +" + " +".join(PEERS) + "\n")
        self.assertIn("; the peers, what users pick instead: " + ", ".join(PEERS) + ". Every count was checked: all "
                      "correct", stdout)
        notes = [line for line in result.stderr.decode().splitlines() if "hyperscan" in line]
        self.assertEqual(notes, [] if "hyperscan" in PEERS else [f"cudamatch: no hyperscan row: {HYPERSCAN_MISSING}"])

    def test_peers_named_run_in_that_order_and_the_old_spelling_still_works(self):
        for args, matchers in ((["--peers", "std-bmh,memmem"], ["ssef", "std-bmh", "memmem"]),
                               (["--compare", "memmem"], ["ssef", "memmem"]),
                               (["--no-peers"], ["ssef"]), (["--no-compare"], ["ssef"])):
            out = self.path(*args)
            result = self.bench(*QUICK_BENCH, "--backend", "cpu", "--algorithms", "ssef", *args, "--out", out)
            self.assertEqual(result.returncode, 0, f"{args}: {result.stderr}")
            self.assertNotIn(b"hyperscan", result.stderr)  # said only when the peers are not named
            self.assertEqual([r["matcher"] for r in self.rows(os.path.join(out, "bench.csv"))], matchers * 2, args)

    @unittest.skipIf(hyperscan_built_in(), "Hyperscan is built in")
    def test_asking_for_hyperscan_when_it_is_not_built_in_is_one_line_and_exit_2(self):
        result = self.bench(*QUICK_BENCH, "--backend", "cpu", "--peers", "memmem,hyperscan")
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stderr.decode(), f"cudamatch: --peers hyperscan: {HYPERSCAN_MISSING}\n")
        self.assertEqual(os.listdir(self.dir.name), [])

    def test_bench_rejects_bad_choices(self):
        for args in (["--algorithms", "grep"], ["--algorithms", "kmp:v1"], ["--compare", "awk"], ["--peers", "awk"],
                     ["--peers", "memmem", "--no-peers"],
                     ["--backend", "cuda", "--algorithms", "bf:v9"], ["--lengths", "0"], ["--corpora", "nope"]):
            result = self.bench("--corpora", "E.coli", "--patterns", "1", *args)
            self.assertEqual(result.returncode, 2, f"{args}: {result.stderr}")
            self.assertEqual(len(result.stderr.decode().strip().splitlines()), 1, f"{args}: {result.stderr}")
        self.assertEqual(os.listdir(self.dir.name), [])  # no results folder for a run that never started

    def test_multi_counts_sets_of_patterns_on_all_cores_and_checks_every_total(self):
        out = self.path("m")
        result = self.bench("--multi", "--backend", "cpu", "--corpora", "E.coli", "--set-sizes", "100,10", "--mib", "1",
                            "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.decode().splitlines()[-1], f"results: {out}/")
        rows = self.rows(os.path.join(out, "bench.csv"))
        self.assertEqual(list(rows[0]), ["device", "corpus", "synthetic", "bytes", "kind", "pattern_count", "min_m",
                                         "max_m", "matcher", "backend", "threads", "reps", "median_ms", "min_ms", "gbps",
                                         "pct_of_read", "matches", "correct"])
        matchers = ["aho-corasick"] + (["hyperscan"] if "hyperscan" in PEERS else [])
        # for each kind, the sizes in increasing order, each counted by every matcher
        self.assertEqual([(r["kind"], r["pattern_count"], r["matcher"]) for r in rows],
                         [(kind, size, m) for kind in ("drawn", "absent") for size in ("10", "100") for m in matchers])
        for r in rows:
            self.assertEqual((r["correct"], r["backend"], r["bytes"], r["corpus"]), ("1", "cpu", str(1 << 20), "E.coli"))
            self.assertTrue(8 <= int(r["min_m"]) <= int(r["max_m"]) <= 32, r)
            self.assertEqual(int(r["threads"]), os.cpu_count(), r)
            self.assertGreater(float(r["gbps"]), 0)
            # drawn patterns occur (at least where they were drawn), random ones never
            self.assertTrue(int(r["matches"]) >= int(r["pattern_count"]) if r["kind"] == "drawn" else r["matches"] == "0")
        for size in ("10", "100"):  # every matcher counted the same
            self.assertEqual(len({r["matches"] for r in rows if r["pattern_count"] == size and r["kind"] == "drawn"}), 1)
        stdout = result.stdout.decode()
        self.assertIn("E.coli, patterns of 8-32 bytes drawn from it (1048576 bytes, the corpus repeated", stdout)
        self.assertRegex(stdout, r"\npatterns +matches +" + " +".join(matchers) + "\n")
        self.assertIn("all correct", stdout)
        if can_plot():
            self.assertGreater(os.path.getsize(os.path.join(out, "bench.png")), 10000)

    def test_multi_options_and_peers(self):
        # the CPU's own size without --mib; --no-peers: Aho-Corasick alone; a default folder of its own
        result = self.bench("--multi", "--backend", "cpu", "--corpora", "E.coli", "--set-sizes", "10", "--no-peers")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertRegex(result.stdout.decode().splitlines()[-1], r"^results: cudamatch-results/bench-multi-\d{8}-\d{6}/$")
        rows = self.rows(self.where(result)["csv"])
        self.assertEqual([r["matcher"] for r in rows], ["aho-corasick"] * 2)
        self.assertGreater(int(rows[0]["bytes"]), 1 << 20)
        for args in (["--lengths", "8"], ["--patterns", "3"], ["--algorithms", "bf"], ["--algorithms", "auto"],
                     ["--batch"], ["--graph"],
                     ["--peers", "memmem"], ["--peers", "awk"], ["--set-sizes", "0"]):
            result = self.bench("--multi", "--backend", "cpu", "--corpora", "E.coli", *args)
            self.assertEqual(result.returncode, 2, f"{args}: {result.stderr}")
            self.assertEqual(len(result.stderr.decode().strip().splitlines()), 1, f"{args}: {result.stderr}")
        result = self.bench("--set-sizes", "10", "--backend", "cpu")  # --set-sizes belongs to --multi
        self.assertEqual(result.returncode, 2, result.stderr)
        for args in (["--skip-above", "-1"], ["--skip-above", "x"]):
            result = self.bench("--multi", "--backend", "cpu", "--corpora", "E.coli", *args)
            self.assertEqual(result.returncode, 2, f"{args}: {result.stderr}")
            self.assertEqual(len(result.stderr.decode().strip().splitlines()), 1, f"{args}: {result.stderr}")
        result = self.bench("--skip-above", "5", "--backend", "cpu")  # --skip-above belongs to --multi
        self.assertEqual(result.returncode, 2, result.stderr)

    def test_multi_skips_rows_slower_than_skip_above_for_the_larger_sets(self):
        # Every count takes longer than a microsecond: with --skip-above 0.000001 each row runs at the
        # first size only and is named as not run above it; with 0 every row runs at every size.
        sizes = ["--set-sizes", "10,20"]
        for skip, rows_per_row in (("0.000001", 1), ("0", 2)):
            result = self.bench("--multi", "--backend", "cpu", "--corpora", "E.coli", "--no-peers", *sizes,
                                "--skip-above", skip)
            self.assertEqual(result.returncode, 0, result.stderr)
            rows = self.rows(self.where(result)["csv"])
            self.assertEqual(sorted(int(r["pattern_count"]) for r in rows),
                             sorted([10, 20][:rows_per_row] * 2), skip)  # drawn and absent
            with open(self.where(result)["table"]) as f:
                report = f.read()
            not_run = [line for line in report.splitlines() if line.startswith("not run")]
            self.assertEqual(len(not_run), 2 if rows_per_row == 1 else 0, report)
            for line in not_run:
                self.assertIn("--skip-above", line)
                self.assertIn("above 10 patterns", line)

    @unittest.skipIf(has_gpu(), "a GPU is present")
    def test_asking_for_the_gpu_without_one_is_an_error(self):
        result = self.bench(*QUICK_BENCH, "--backend", "cuda")
        self.assertEqual(result.returncode, 2)
        self.assertRegex(result.stderr.decode(), r"^cudamatch: no CUDA device \(.*\); use --backend cpu\n$")


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

    def test_file_lists_and_folders_as_on_the_cpu(self):
        # -l stops a file's reading at its first match (the printer throws while a piece's matches are handed
        # over, after the GPU search of the piece), -r walks a folder
        other = os.path.join(self.dir.name, "sub", "other")
        os.makedirs(os.path.dirname(other))
        with open(other, "wb") as f:
            f.write(b"no needle here" * 1000)
        for flags in (["-r", "-l"], ["-r", "-L"], ["-r", "-c"], ["-r"]):
            for needle in self.needles:
                args = [*flags, "--chunk-bytes", "4096", "--hex", needle.hex(), self.dir.name]
                cpu = run("search", "--backend", "cpu", *args)
                gpu = run("search", "--backend", "cuda", *args)
                self.assertEqual((gpu.returncode, gpu.stdout), (cpu.returncode, cpu.stdout), (flags, needle, gpu.stderr))

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

    def test_several_patterns_and_ignore_case_print_what_the_cpu_prints(self):
        # -i searches a lowered copy of each piece, several patterns one after another: the same code as the
        # CPU backend's, with the GPU matchers (standard input too, which is then not streamed).
        with open(self.path, "rb") as f:
            data = f.read()
        # 25 patterns: the CPU searches them in one Aho-Corasick pass, the GPU in one pass each (-i too)
        rng = random.Random(25)
        many = os.path.join(self.dir.name, "many")
        with open(many, "wb") as f:
            f.write(b"".join(data[i:i + rng.randint(3, 12)] + b"\n" for i in rng.sample(range(len(data) - 12), 25)))
        for args in (["-i", "--hex", "4143"], ["-e", "ac", "-e", "gattaca", "-e", "c"], ["-i", "-o", "-b", "--no-overlap", "-e", "AC", "-e", "ACG"],
                     ["-m", "5", "-e", "ac"], ["-c", "-i", "-e", "GT", "-e", "t"], ["-o", "-b", "-f", many], ["-c", "-f", many],
                     ["-i", "--no-overlap", "-f", many]):
            for chunk in ("4096", "1000000"):
                cpu = run("search", "--backend", "cpu", "--chunk-bytes", chunk, *args, self.path)
                gpu = run("search", "--backend", "cuda", "--chunk-bytes", chunk, *args, self.path)
                self.assertEqual((gpu.returncode, gpu.stdout), (cpu.returncode, cpu.stdout), f"{args} {chunk}")
            piped = run("search", "--backend", "cuda", *args, "-", stdin=data)
            self.assertEqual(piped.stdout, run("search", "--backend", "cpu", *args, self.path).stdout, args)

    def test_many_patterns_in_one_pass_print_what_the_cpu_prints_across_pieces(self):
        # Several patterns on the GPU: one pass for all over each piece (lesson 18's best version, where the
        # build has it), against the CPU's Aho-Corasick; pieces of 4 KiB and more, patterns that repeat, that
        # are prefixes of others, with NUL and 0xff, longer than a piece; standard input (read in pieces too).
        with open(self.path, "rb") as f:
            data = f.read()
        rng = random.Random(22)
        chosen = [data[i:i + rng.randint(1, 32)] for i in rng.sample(range(len(data) - 32), 300)]
        chosen += [b"\x00", b"\x00\xff", b"\x00\xffa", b"\xff", chosen[0], chosen[5][:2], b"gattaca\xff" * 3, b"zzzz",
                   data[100:5100]]
        patterns = os.path.join(self.dir.name, "patterns")
        with open(patterns, "wb") as f:
            f.write(b"".join(p + b"\n" for p in chosen))
        for args in (["-f", patterns], ["-c", "-f", patterns], ["-c", "--per-pattern", "-f", patterns],
                     ["--pattern-index", "-f", patterns], ["-c", "--per-pattern", "--pattern-index", "-f", patterns],
                     ["-o", "-b", "-f", patterns], ["-e", "ac", "-e", "acg", "-e", "ac"], ["-i", "-c", "-f", patterns],
                     ["--no-overlap", "-m", "1000", "-f", patterns]):
            for chunk in ("4096", "65536", "1000000"):
                cpu = run("search", "--backend", "cpu", "--chunk-bytes", chunk, *args, self.path)
                gpu = run("search", "--backend", "cuda", "--chunk-bytes", chunk, *args, self.path)
                self.assertEqual(cpu.returncode, 0, cpu.stderr)
                self.assertEqual((gpu.returncode, gpu.stdout), (cpu.returncode, cpu.stdout), f"{args[:-1]} {chunk}")
                self.assertEqual(gpu.stderr, b"")
            piped = run("search", "--backend", "cuda", "--chunk-bytes", "4096", *args, "-", stdin=data)
            self.assertEqual(piped.stdout, run("search", "--backend", "cpu", *args, self.path).stdout, args[:-1])
        # --verbose names the path: lesson 18's best version in one pass where the build has it, else one pass each
        # with the dispatch table's matchers; -a: one pass each with the matcher it names
        multi = re.search(r"the GPU 2 or more in one pass \(multi-pattern (v\d+), lesson 18\)",
                          run("search", "--help").stdout.decode())
        distinct = len(dict.fromkeys(chosen))
        line = run("search", "--backend", "cuda", "--verbose", "-c", "-f", patterns, self.path).stderr.decode()
        if multi:
            self.assertEqual(line, f"cudamatch: {self.path}: cuda: one pass for the {distinct} patterns with multi-"
                                   f"pattern {multi.group(1)} (lesson 18's best; 2 or more on the GPU, without -a)\n")
        else:
            self.assertRegex(line, rf"^cudamatch: {re.escape(self.path)}: cuda, alphabet .*; one pass each for the "
                                   rf"{distinct} patterns\n$")
        line = run("search", "--backend", "cuda", "--verbose", "-a", "bf", "-c", "-f", patterns, self.path).stderr
        self.assertEqual(line.decode(), f"cudamatch: {self.path}: cuda: bf (its best version), as -a names it, "
                                        f"one pass each for the {distinct} patterns\n")

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
        # --graph: one search per replay; with --batch too, every pattern of a length in one graph.
        result = run("bench", "--backend", "cuda", "--graph", "--batch", "--corpora", "E.coli", "--lengths", "4,64",
                     "--patterns", "5", "--no-compare", "--algorithms", "bf", "--out", self.dir.name, "--csv",
                     os.path.join(self.dir.name, "g.csv"))
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(self.dir.name, "g.csv"), newline="") as f:
            rows = [r for r in csv.DictReader(f) if " graph" in r["matcher"]]
        best = f"bf:v{gpu_versions('bf')[-1]}"
        self.assertEqual({r["matcher"] for r in rows}, {f"{best} graph", f"{best} graph batch"})
        self.assertEqual(len(rows), 4)
        self.assertTrue(all(r["correct"] == "1" for r in rows))

    def test_bench_without_flags_runs_the_gpu_beside_the_cpu_with_batches(self):
        out = os.path.join(self.dir.name, "results")
        result = run("bench", "--corpora", "E.coli", "--lengths", "4,64", "--patterns", "3", "--no-compare",
                     "--algorithms", "bf", "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn(b"no CUDA device", result.stderr)
        self.assertIn(b"GPU speedup over the CPU reference", result.stdout)
        self.assertEqual(result.stdout.decode().splitlines()[-1], f"results: {out}/")
        with open(os.path.join(out, "bench.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        best = f"bf:v{gpu_versions('bf')[-1]}"
        self.assertEqual({r["matcher"] for r in rows}, {"bf:v0", best, f"{best} batch", "bf"})
        self.assertEqual(len(rows), 2 * 4)
        self.assertTrue(all(r["correct"] == "1" for r in rows))
        self.assertTrue(all(float(r["pct_of_read"]) > 0 for r in rows if r["backend"] == "cuda"))
        if can_plot():
            self.assertGreater(os.path.getsize(os.path.join(out, "bench.png")), 10000)

    def test_without_a_the_gpu_prints_what_brute_force_prints_and_verbose_names_the_choice(self):
        with open(self.path, "rb") as f:
            data = f.read()
        for m in (1, 2, 3, 4, 7, 8, 16, 31, 32, 64, 100, 1024, 1500):
            pattern = data[2000:2000 + m]
            for extra in ([], ["--stream-above", "0", "--chunk-bytes", "4096"]):  # pieces, and the stream
                args = [*extra, "--hex", pattern.hex(), self.path]
                chosen = run("search", "--backend", "cuda", "--verbose", *args)
                self.assertEqual(chosen.returncode, 0, chosen.stderr)
                self.assertEqual(chosen.stdout, run("search", "--backend", "cpu", "-a", "bf", *args).stdout,
                                 f"m={m} {extra}")
                line = chosen.stderr.decode()
                self.assertRegex(line, rf"^cudamatch: {re.escape(self.path)}: cuda, alphabet (small|text|wide) \(.*"
                                       rf": m = {m} in \d+(-\d+|\+) -> [a-z]+:v\d+ \(measured at m = [\d, ]+\)\n$")

    def test_bench_auto_row_on_the_gpu(self):
        out = os.path.join(self.dir.name, "results")
        result = run("bench", "--backend", "cuda", "--corpora", "E.coli", "--lengths", "4,64", "--patterns", "3",
                     "--algorithms", "auto,bf,epsm,ssef", "--no-peers", "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(out, "bench.csv"), newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["matcher"] == "auto:cuda"]
        self.assertEqual(len(rows), 2)
        self.assertTrue(all(r["correct"] == "1" and re.match(r"^[a-z]+:v\d+$", r["chosen"]) for r in rows), rows)
        self.assertIn(b"auto:cuda (the dispatch table's pick", result.stdout)
        self.assertRegex(result.stdout.decode(), r"\nauto:cuda: (within 10%|more than 10% below)")

    def test_bench_multi_runs_the_gpu_versions_beside_the_cpu_and_checks_them(self):
        out = os.path.join(self.dir.name, "multi")
        result = run("bench", "--multi", "--corpora", "E.coli", "--set-sizes", "10,1000", "--mib", "64", "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(out, "bench.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertTrue(all(r["correct"] == "1" for r in rows), [r for r in rows if r["correct"] != "1"])
        gpu_rows = [r for r in rows if r["backend"] == "cuda"]
        if b"no multi-pattern search on the GPU" in result.stderr:  # before lesson 18: the CPU rows alone
            self.assertEqual(gpu_rows, [])
            return
        self.assertEqual({r["matcher"] for r in gpu_rows} & {"multi:v0"}, {"multi:v0"})
        self.assertEqual(len(gpu_rows), 2 * 2 * len({r["matcher"] for r in gpu_rows}))
        self.assertTrue(all(float(r["pct_of_read"]) > 0 and r["bytes"] == str(64 << 20) for r in gpu_rows))
        self.assertIn(b"GPU best / aho-corasick", result.stdout)

    def test_bench_peers_sit_beside_the_gpu_in_both_tables(self):
        out = os.path.join(self.dir.name, "results")
        result = run("bench", "--backend", "cuda,cpu", "--corpora", "E.coli", "--lengths", "4,64", "--patterns", "3",
                     "--algorithms", "bf", "--peers", "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        headers = [line.split() for line in result.stdout.decode().splitlines() if line.startswith("m ")]
        self.assertEqual(len(headers), 3, headers)  # GB/s, microseconds, the speedup over the CPU
        for header in headers[:2]:
            self.assertEqual(header[-len(PEERS) - 1:], ["bf", *PEERS])
        with open(os.path.join(out, "bench.csv"), newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["matcher"] in PEERS]
        self.assertEqual(len(rows), 2 * len(PEERS))
        self.assertTrue(all(r["correct"] == "1" and r["backend"] == "cpu" for r in rows))


if __name__ == "__main__":
    unittest.main()
