#!/usr/bin/env python3
"""Fetch the Canterbury "large" corpus (bible.txt, E.coli, world192.txt) into a
local cache directory and verify every file against SHA256SUMS.

By default the canonical archive is downloaded; --from DIR copies the files from
a local mirror directory instead. Files already in the cache that verify are
kept. Nothing unverified is ever stored: each file is first written to a
temporary file inside the cache directory, and only when all of them verify are
they renamed into place. On success the cache directory is printed on stdout
(last line); progress and errors go to stderr. Exit status: 0 on success, 1 on
a failure (download, missing file, checksum mismatch, incomplete cache with
--check), 2 on bad usage.
"""

import argparse
import gzip
import hashlib
import os
import posixpath
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
import zlib

DEFAULT_URL = "https://corpus.canterbury.ac.nz/resources/large.tar.gz"
HERE = os.path.dirname(os.path.abspath(__file__))
CHUNK = 1 << 20
PROG = "fetch.py"


class FetchError(Exception):
    """An expected failure: reported as one line on stderr, no traceback."""


def log(msg):
    print(f"{PROG}: {msg}", file=sys.stderr, flush=True)


def read_sums(path):
    """Return {file name: sha256 hex digest} from a sha256sum-style file."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise FetchError(f"cannot read checksum file {path}: {e}")
    sums = {}
    for number, line in enumerate(lines, 1):
        if line.strip() and not line.lstrip().startswith("#"):
            digest, _, name = line.strip().partition(" ")
            name = name.strip().lstrip("*")  # "*" marks binary mode in sha256sum output
            if len(digest) != 64 or name != os.path.basename(name) or name in ("", ".", ".."):
                raise FetchError(f"{path}:{number}: malformed checksum line")
            sums[name] = digest.lower()
    if not sums:
        raise FetchError(f"{path}: no checksums found")
    return sums


def file_state(path, expected):
    """Return "ok", "missing" or "bad" for one cached file."""
    if not os.path.isfile(path):
        return "missing"
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(CHUNK), b""):
            h.update(block)
    return "ok" if h.hexdigest() == expected else "bad"


def cache_state(cache, sums):
    return {name: file_state(os.path.join(cache, name), sums[name]) for name in sums}


def stage(src, name, expected, cache, temps, origin):
    """Copy file object src to a verified temporary file in cache: (path, size)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=cache)
    temps.append(tmp)
    h, size = hashlib.sha256(), 0
    with os.fdopen(fd, "wb") as out:
        for block in iter(lambda: src.read(CHUNK), b""):
            h.update(block)
            out.write(block)
            size += len(block)
        out.flush()
        os.fsync(out.fileno())
    actual = h.hexdigest()
    if actual != expected:
        raise FetchError(f"{name}: checksum mismatch (from {origin}): expected sha256 "
                         f"{expected}, got {actual}; file not stored")
    os.chmod(tmp, 0o644)
    return tmp, size


def from_mirror(mirror, needed, sums, cache, temps):
    missing = [n for n in needed if not os.path.isfile(os.path.join(mirror, n))]
    if missing:
        raise FetchError(f"not found in mirror {mirror}: {', '.join(missing)}")
    staged = {}
    for name in needed:
        with open(os.path.join(mirror, name), "rb") as src:
            staged[name] = stage(src, name, sums[name], cache, temps, src.name)
    return staged


def download(url, cache, temps, timeout):
    """Download url to a temporary file in cache and return its path."""
    log(f"downloading {url}")
    fd, tmp = tempfile.mkstemp(prefix=".download.", suffix=".part", dir=cache)
    temps.append(tmp)
    with os.fdopen(fd, "wb") as out:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                for block in iter(lambda: response.read(CHUNK), b""):
                    out.write(block)
            return tmp
        except urllib.error.HTTPError as e:
            reason = f"HTTP {e.code} {e.reason}"
        except urllib.error.URLError as e:
            reason = str(e.reason)
        except (OSError, ValueError) as e:
            reason = str(e) or type(e).__name__
    raise FetchError(f"cannot download {url}: {reason}; without network access, "
                     f"use --from DIR with a local mirror of the corpus")


def from_archive(url, needed, sums, cache, temps, timeout):
    archive = download(url, cache, temps, timeout)
    try:
        tar = tarfile.open(archive, "r:*")
    except tarfile.ReadError:
        raise FetchError(f"{url} is not a tar archive (plain, gzip, bzip2 or xz)")
    staged = {}  # members are found by base name, wherever they are in the archive
    try:
        with tar:
            for member in tar:
                name = posixpath.basename(member.name)
                if member.isfile() and name in needed and name not in staged:
                    staged[name] = stage(tar.extractfile(member), name, sums[name],
                                         cache, temps, url)
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as e:
        raise FetchError(f"damaged archive {url}: {' '.join(str(e).split())}")
    missing = [n for n in needed if n not in staged]
    if missing:
        raise FetchError(f"not found in archive {url}: {', '.join(missing)}")
    return staged


def check(cache, sums):
    state = cache_state(cache, sums)
    for name, status in state.items():
        size = os.path.getsize(os.path.join(cache, name)) if status != "missing" else 0
        log(f"{name}: " + {"ok": f"ok ({size} bytes, sha256 verified)",
                           "bad": "checksum mismatch", "missing": "missing"}[status])
    problems = [f"{n} ({s})" for n, s in state.items() if s != "ok"]
    if problems:
        raise FetchError(f"cache {cache} is incomplete: {', '.join(problems)}; "
                         f"run {PROG} to fetch the corpus")


def fetch(args, cache, sums, temps):
    if args.mirror is not None and not os.path.isdir(args.mirror):
        raise FetchError(f"mirror directory does not exist: {args.mirror}")
    os.makedirs(cache, exist_ok=True)
    state = cache_state(cache, sums)
    for name, status in state.items():
        if status == "ok" and not args.force:
            log(f"{name}: already in cache and verified, skipped")
        elif status == "bad":
            log(f"{name}: cached copy fails verification, fetching it again")
    needed = [n for n, s in state.items() if s != "ok" or args.force]
    if not needed:
        return
    if args.mirror is not None:
        staged = from_mirror(args.mirror, needed, sums, cache, temps)
    else:
        staged = from_archive(args.url, needed, sums, cache, temps, args.timeout)
    for name in needed:  # every file verified: only now move them into place
        tmp, size = staged[name]
        os.replace(tmp, os.path.join(cache, name))
        temps.remove(tmp)
        log(f"{name}: ok ({size} bytes, sha256 verified)")


def parse_args(argv):
    default_cache = os.environ.get("CUDAMATCH_DATA") or os.path.join(HERE, "cache")
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    source = p.add_mutually_exclusive_group()
    source.add_argument("--url", default=DEFAULT_URL,
                        help="archive (tar, tar.gz, ...) to download (default: %(default)s)")
    source.add_argument("--from", dest="mirror", metavar="DIR",
                        help="copy the files from this local mirror directory instead")
    p.add_argument("--cache", metavar="DIR", default=default_cache,
                   help="cache directory (default: $CUDAMATCH_DATA if set, "
                        "else datasets/cache beside this script; now %(default)s)")
    p.add_argument("--sums", metavar="FILE", default=os.path.join(HERE, "SHA256SUMS"),
                   help="checksum file (default: %(default)s)")
    p.add_argument("--force", action="store_true",
                   help="fetch again even if the cached files verify")
    p.add_argument("--check", action="store_true",
                   help="only verify the cache; exit 1 if a file is missing or bad")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                   help="network timeout (default: %(default)g)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    cache = os.path.abspath(args.cache)
    temps = []  # temporary files to delete whatever happens
    try:
        sums = read_sums(args.sums)
        if args.check:
            check(cache, sums)
        else:
            fetch(args, cache, sums, temps)
    except (FetchError, OSError) as e:
        log(f"error: {e}")
        return 1
    except KeyboardInterrupt:
        log("error: interrupted")
        return 130
    finally:
        for tmp in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    print(cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
