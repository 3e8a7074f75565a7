#!/usr/bin/env python3
"""Tests for datasets/fetch.py, run as a user runs it (a subprocess).

They need neither the network nor the real corpus: each test builds a small
fake corpus with its own SHA256SUMS. Run from the repository root with
    python3 -m unittest discover -s datasets -p 'test_*.py'
or directly with python3 datasets/test_fetch.py. If CUDAMATCH_MIRROR names a
directory holding the real corpus, one more test fetches it with the real sums.
"""

import hashlib
import io
import os
import pathlib
import random
import subprocess
import sys
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "fetch.py")
NAMES = ("E.coli", "bible.txt", "world192.txt")
UNREACHABLE = "http://127.0.0.1:9/large.tar.gz"  # discard port: connection refused


class FetchTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = tmp.name
        self.mirror = os.path.join(self.root, "mirror")
        self.cache = os.path.join(self.root, "cache")
        os.mkdir(self.mirror)
        rng = random.Random(1234)
        self.data = {}
        for i, name in enumerate(NAMES):
            # random bytes, with NUL and bytes >= 0x80 certainly present
            body = b"\x00\xff\x80" + bytes(rng.randrange(256) for _ in range(3000 + 517 * i))
            self.data[name] = body
            with open(os.path.join(self.mirror, name), "wb") as f:
                f.write(body)
        self.sums = os.path.join(self.root, "SHA256SUMS")
        with open(self.sums, "w") as f:
            for name in NAMES:
                f.write(f"{hashlib.sha256(self.data[name]).hexdigest()}  {name}\n")

    def fetch(self, *args, cache=True, env=None):
        cmd = [sys.executable, SCRIPT, "--sums", self.sums]
        if cache:
            cmd += ["--cache", self.cache]
        run_env = {k: v for k, v in os.environ.items()
                   if k.lower() not in ("http_proxy", "https_proxy", "all_proxy",
                                        "cudamatch_data")}
        run_env.update(env or {})
        return subprocess.run(cmd + list(args), capture_output=True, text=True,
                              timeout=120, env=run_env)

    def assertFails(self, result, *fragments):
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(result.stdout, "")
        last = result.stderr.strip().splitlines()[-1]
        self.assertTrue(last.startswith("fetch.py: error: "), result.stderr)
        for fragment in fragments:
            self.assertIn(fragment, last)

    def assertCached(self, result, cache=None):
        cache = cache or self.cache
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(result.stdout.strip().splitlines()[-1], cache)
        self.assertEqual(sorted(os.listdir(cache)), sorted(NAMES))
        for name in NAMES:
            with open(os.path.join(cache, name), "rb") as f:
                self.assertEqual(f.read(), self.data[name], name)

    def assertCacheEmpty(self):
        leftovers = os.listdir(self.cache) if os.path.isdir(self.cache) else []
        self.assertEqual(leftovers, [])

    def make_archive(self, names, folder="large"):
        path = os.path.join(self.root, "large.tar.gz")
        with tarfile.open(path, "w:gz") as tar:
            for name in names:
                info = tarfile.TarInfo(f"{folder}/{name}" if folder else name)
                info.size = len(self.data[name])
                tar.addfile(info, io.BytesIO(self.data[name]))
        return pathlib.Path(path).as_uri()

    def corrupt(self, name):
        with open(os.path.join(self.mirror, name), "r+b") as f:
            f.seek(100)
            byte = f.read(1)
            f.seek(100)
            f.write(bytes([byte[0] ^ 1]))

    def test_mirror_success(self):
        result = self.fetch("--from", self.mirror)
        self.assertCached(result)
        self.assertIn("fetch.py: bible.txt: ok (", result.stderr)
        self.assertIn("sha256 verified", result.stderr)

    def test_second_run_skips_verified_files(self):
        self.assertCached(self.fetch("--from", self.mirror))
        result = self.fetch("--from", self.mirror)
        self.assertCached(result)
        for name in NAMES:
            self.assertIn(f"{name}: already in cache and verified, skipped", result.stderr)
        # a run that skips everything needs no source at all
        self.assertCached(self.fetch("--url", UNREACHABLE))

    def test_force_fetches_again(self):
        self.assertCached(self.fetch("--from", self.mirror))
        result = self.fetch("--from", self.mirror, "--force")
        self.assertCached(result)
        self.assertNotIn("skipped", result.stderr)

    def test_bad_cached_file_is_replaced(self):
        self.assertCached(self.fetch("--from", self.mirror))
        with open(os.path.join(self.cache, "E.coli"), "ab") as f:
            f.write(b"junk")
        result = self.fetch("--from", self.mirror)
        self.assertCached(result)
        self.assertIn("E.coli: cached copy fails verification", result.stderr)

    def test_check(self):
        self.assertFails(self.fetch("--check"), "E.coli (missing)")
        self.assertCached(self.fetch("--from", self.mirror))
        result = self.fetch("--check")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip().splitlines()[-1], self.cache)
        os.remove(os.path.join(self.cache, "bible.txt"))
        with open(os.path.join(self.cache, "world192.txt"), "ab") as f:
            f.write(b"x")
        self.assertFails(self.fetch("--check"), "bible.txt (missing)", "world192.txt (bad)")

    def test_cache_from_environment(self):
        result = self.fetch("--from", self.mirror, cache=False,
                            env={"CUDAMATCH_DATA": self.cache})
        self.assertCached(result)

    def test_checksum_mismatch_in_mirror(self):
        self.corrupt("bible.txt")
        result = self.fetch("--from", self.mirror)
        self.assertFails(result, "bible.txt", "checksum mismatch",
                         hashlib.sha256(self.data["bible.txt"]).hexdigest())
        self.assertCacheEmpty()

    def test_file_missing_from_mirror(self):
        os.remove(os.path.join(self.mirror, "world192.txt"))
        self.assertFails(self.fetch("--from", self.mirror), "world192.txt", "mirror")
        self.assertCacheEmpty()

    def test_mirror_does_not_exist(self):
        missing = os.path.join(self.root, "no-such-dir")
        self.assertFails(self.fetch("--from", missing), "does not exist", missing)
        self.assertCacheEmpty()

    def test_download_file_url(self):
        url = self.make_archive(NAMES)
        self.assertCached(self.fetch("--url", url))

    def test_download_flat_archive(self):
        self.assertCached(self.fetch("--url", self.make_archive(NAMES, folder=None)))

    def test_unreachable_url(self):
        result = self.fetch("--url", UNREACHABLE, "--timeout", "10")
        self.assertFails(result, UNREACHABLE, "--from")
        self.assertCacheEmpty()

    def test_archive_lacks_a_file(self):
        url = self.make_archive(["E.coli", "bible.txt"])
        self.assertFails(self.fetch("--url", url), "world192.txt", "archive")
        self.assertCacheEmpty()

    def test_not_an_archive(self):
        path = os.path.join(self.root, "large.tar.gz")
        with open(path, "wb") as f:
            f.write(b"this is not a tar archive\n" * 100)
        self.assertFails(self.fetch("--url", pathlib.Path(path).as_uri()), "not a tar archive")
        self.assertCacheEmpty()

    @unittest.skipUnless(os.path.isdir(os.environ.get("CUDAMATCH_MIRROR", "")),
                         "set CUDAMATCH_MIRROR to a mirror of the real corpus")
    def test_real_mirror(self):
        self.sums = os.path.join(HERE, "SHA256SUMS")
        result = self.fetch("--from", os.environ["CUDAMATCH_MIRROR"])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip().splitlines()[-1], self.cache)
        self.assertEqual(os.path.getsize(os.path.join(self.cache, "bible.txt")), 4047392)
        self.assertEqual(os.path.getsize(os.path.join(self.cache, "E.coli")), 4638690)
        self.assertEqual(os.path.getsize(os.path.join(self.cache, "world192.txt")), 2473400)
        self.assertEqual(self.fetch("--check").returncode, 0)


if __name__ == "__main__":
    unittest.main()
