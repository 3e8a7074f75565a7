#!/usr/bin/env python3
"""The dispatch table of `cudamatch`: which matcher `cudamatch search` runs without -a, and bench's auto
rows, chosen from `cudamatch bench` CSVs. It writes tools/cudamatch/dispatch.json, which the build
turns into C++ (tools/cudamatch/CMakeLists.txt) so that the CLI and the data are one fact.

  dispatch_table.py --date 2026-11-22 A.csv B.csv   the table from these CSVs (measured on that date)
  dispatch_table.py                                 again from the CSVs the committed table names (a
                                                    CSV changed since: its hash and date made again)
  dispatch_table.py --check                         changes nothing; exits 1 when the committed table is
                                                    not what its CSVs give (a CSV changed, the table was
                                                    edited by hand, or this script changed)

The rows: those of one matcher, correct, of a bench CSV: `ALGO:vN` on the cuda backend, `ALGO` (the CPU's
one version, v0) on the cpu backend; the peers, batched and replayed searches and the auto rows are not
candidates. Each CSV gives, per backend, one text-size regime (its corpora's median size in bytes: the
4 MB corpora, or the corpora repeated to 1 GiB with --mib 1024); `cudamatch` uses the regime nearest in
log scale to the size of the text one search gets. Each corpus has an alphabet class (the CSV's
`alphabet` column, written by `cudamatch bench` with the classifier of tools/cudamatch/dispatch.hpp, or
--alphabet CORPUS=CLASS for CSVs older than that column).

The choice, per (backend, regime, class) and measured m: the matcher whose worst ratio to the fastest
matcher of each corpus of the class, at that m, is highest (ties: the higher mean ratio, then the
name). A class measured on one corpus thus gets that corpus's fastest matcher at every measured m. The
ranges: a measured m's choice holds from it up to the next measured m (a matcher chosen at m was
measured there, and no matcher here is limited to short patterns, while several are designed from some
length on: SSEF, Boyer-Moore); the smallest measured m's also holds below it (every matcher answers
every m >= 1), the largest's beyond it. A class that no corpus measured takes the table of the nearest
class that was (in the order small, text, wide; the smaller on a tie), saying so ("like")."""

import argparse
import csv
import hashlib
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

TABLE_FILE = "tools/cudamatch/dispatch.json"
CLASSES = ("small", "text", "wide")  # the classifier's classes (AlphabetClass, tools/cudamatch/dispatch.hpp)
ALGORITHMS = ("bf", "kmp", "bm", "sunday", "epsm", "ssef")
GPU_MATCHER = re.compile(r"^(?P<algorithm>[a-z]+):v(?P<version>\d+)$")
SAME_REGIME = 2.0  # two CSVs of one backend whose sizes are closer than this factor would be one regime


class TableError(ValueError):
    pass


def root_default() -> Path:
    return Path(__file__).resolve().parents[2]


def matcher_of(row: dict):
    """(algorithm, version) of a row of one matcher, or None (peers, batched, replayed, auto rows)."""
    name = row["matcher"]
    if row["backend"] == "cpu":
        return (name, 0) if name in ALGORITHMS else None
    found = GPU_MATCHER.match(name)
    if found and found["algorithm"] in ALGORITHMS:
        return found["algorithm"], int(found["version"])
    return None


def matcher_name(backend: str, algorithm: str, version: int) -> str:
    return algorithm if backend == "cpu" else f"{algorithm}:v{version}"


def read_source(root: Path, source: dict) -> list:
    """The candidate rows of one CSV, each with its class, as dicts."""
    path = root / source["csv"]
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise TableError(f"{source['csv']}: {e.strerror}") from e
    named = source.get("alphabet", {})
    out = []
    for row in rows:
        matcher = matcher_of(row)
        if matcher is None or row["correct"] != "1":
            continue
        alphabet = row.get("alphabet") or named.get(row["corpus"])
        if alphabet is None:
            raise TableError(f"{source['csv']}: no alphabet column, and no --alphabet {row['corpus']}=CLASS")
        if alphabet not in CLASSES:
            raise TableError(f"{source['csv']}: corpus {row['corpus']}: unknown alphabet class {alphabet!r} "
                             f"(choose from {', '.join(CLASSES)})")
        out.append({"backend": row["backend"], "corpus": row["corpus"], "bytes": int(row["bytes"]),
                    "m": int(row["m"]), "matcher": matcher, "gbps": float(row["gbps"]),
                    "device": row["device"], "alphabet": alphabet})
    return out


def choose(rows: list, backend: str):
    """(matcher, worst ratio) for the rows of one (backend, regime, class, m): the matcher whose slowest
    ratio to each corpus's fastest is highest."""
    corpora = sorted({r["corpus"] for r in rows})
    best = {c: max(r["gbps"] for r in rows if r["corpus"] == c) for c in corpora}
    ratios = {}
    for r in rows:
        ratios.setdefault(r["matcher"], {})[r["corpus"]] = r["gbps"] / best[r["corpus"]]
    scored = sorted((matcher_name(backend, *m), min(by.values()), statistics.fmean(by.values()), m)
                    for m, by in ratios.items() if len(by) == len(corpora))
    _, worst, _, matcher = max(scored, key=lambda s: (s[1], s[2]))  # the first name of the ties
    return matcher, worst


def ranges_of(rows: list, backend: str) -> list:
    """The m ranges of one (backend, regime, class): one per run of measured lengths with one choice."""
    ranges = []
    lengths = sorted({r["m"] for r in rows})
    for i, m in enumerate(lengths):
        (algorithm, version), worst = choose([r for r in rows if r["m"] == m], backend)
        m_to = lengths[i + 1] - 1 if i + 1 < len(lengths) else None
        last = ranges[-1] if ranges else None
        if last and (last["algorithm"], last["version"]) == (algorithm, version):
            last["m_to"] = m_to
            last["measured"].append(m)
            last["worst_ratio"] = min(last["worst_ratio"], round(worst, 3))
        else:
            ranges.append({"m_from": 1 if i == 0 else m, "m_to": m_to, "algorithm": algorithm, "version": version,
                           "measured": [m], "worst_ratio": round(worst, 3)})
    return ranges


def nearest_measured(alphabet: str, measured: set) -> str:
    at = CLASSES.index(alphabet)
    return min(measured, key=lambda c: (abs(CLASSES.index(c) - at), CLASSES.index(c)))


def text_size(rows: list) -> int:
    """The size of a regime's texts: the median of its corpora's sizes (the lower of the middle two)."""
    return statistics.median_low(sorted({r["corpus"]: r["bytes"] for r in rows}.values()))


def build_table(root: Path, sources: list) -> dict:
    regimes = []  # (backend, source, rows)
    for source in sources:
        rows = read_source(root, source)
        for backend in sorted({r["backend"] for r in rows}):
            regimes.append((backend, source, [r for r in rows if r["backend"] == backend]))
    if not regimes:
        raise TableError("no rows of a single matcher in " + ", ".join(s["csv"] for s in sources))
    tables = []
    for backend, source, rows in regimes:
        size = text_size(rows)
        for other_backend, other, other_rows in regimes:
            other_size = text_size(other_rows)
            if other is not source and other_backend == backend and max(size, other_size) < SAME_REGIME * min(
                    size, other_size):
                raise TableError(f"{source['csv']} and {other['csv']} both measure the {backend} backend on texts "
                                 f"of about {size} bytes: name one of them")
        measured = {r["alphabet"] for r in rows}
        for alphabet in CLASSES:
            like = alphabet if alphabet in measured else nearest_measured(alphabet, measured)
            of_class = [r for r in rows if r["alphabet"] == like]
            table = {"backend": backend, "alphabet": alphabet, "text_bytes": size, "source": source["csv"],
                     "device": ", ".join(sorted({r["device"] for r in rows})),
                     "corpora": sorted({r["corpus"] for r in of_class}) if like == alphabet else []}
            if like != alphabet:
                table["like"] = like
            table["ranges"] = ranges_of(of_class, backend)
            tables.append(table)
    tables.sort(key=lambda t: (t["backend"], CLASSES.index(t["alphabet"]), t["text_bytes"]))
    return {
        "about": "The dispatch table of cudamatch: the matcher `cudamatch search` runs without -a, and bench's "
                 "auto rows. Generated by tools/course/dispatch_table.py from the CSVs of `sources`; do not edit "
                 "(README.md, `cudamatch search`, says how to measure it again).",
        "sources": sources,
        "tables": tables,
    }


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def git_date(root: Path, csv_path: str) -> str:
    """The date of the CSV's last commit, which must hold the CSV as it is now."""
    result = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%cs", "--", csv_path],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0 or not result.stdout.strip():
        raise TableError(f"{csv_path}: not committed, so no date: give the date it was measured with --date")
    changed = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", csv_path],
                             capture_output=True, text=True, check=False)
    if changed.returncode != 0 or changed.stdout.strip():
        raise TableError(f"{csv_path}: changed since its last commit, whose date would be the old run's: commit "
                         "it, or give the date it was measured with --date")
    return result.stdout.strip()


def new_sources(root: Path, csvs: list, alphabet: dict, date: str) -> list:
    sources = []
    for name in csvs:
        path = Path(name).resolve()
        try:
            relative = path.relative_to(root.resolve()).as_posix()
        except ValueError as e:
            raise TableError(f"{name}: not inside {root} (commit the CSV, then name it)") from e
        if not path.is_file():
            raise TableError(f"{name}: no such file")
        with open(path, newline="", encoding="utf-8") as f:
            corpora = sorted({row["corpus"] for row in csv.DictReader(f)})
        source = {"csv": relative, "measured": date or git_date(root, relative), "sha256": sha256(path)}
        named = {c: alphabet[c] for c in corpora if c in alphabet}
        if named:
            source["alphabet"] = named
        sources.append(source)
    return sources


def refreshed(root: Path, source: dict, date: str) -> dict:
    """A source of the committed table, with the hash and date of its CSV made again when the CSV changed
    since (a new run committed in its place); as it was otherwise."""
    path = root / source["csv"]
    digest = sha256(path) if path.is_file() else source["sha256"]
    if digest == source["sha256"]:
        return source
    return {**source, "measured": date or git_date(root, source["csv"]), "sha256": digest}


def render(table: dict) -> str:
    """JSON with two-space indents, each list of numbers and each m range on one line."""

    def dump(value, indent):
        pad = " " * indent
        if isinstance(value, dict) and "m_from" not in value:
            items = [f'{pad}  {json.dumps(k)}: {dump(v, indent + 2)}' for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + pad + "}"
        if isinstance(value, list) and value and isinstance(value[0], dict):
            return "[\n" + ",\n".join(pad + "  " + dump(v, indent + 2) for v in value) + "\n" + pad + "]"
        return json.dumps(value)

    return dump(table, 0) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csvs", nargs="*", metavar="CSV",
                        help="cudamatch bench CSVs, inside the repository (default: those the table names)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when the table is stale")
    parser.add_argument("--date", default="", help="when the CSVs were measured (default: their last commit's date)")
    parser.add_argument("--alphabet", action="append", default=[], metavar="CORPUS=CLASS",
                        help="the alphabet class of a corpus, for CSVs without an alphabet column")
    parser.add_argument("--root", type=Path, default=root_default(), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    out = args.root / TABLE_FILE
    try:
        alphabet = dict(a.split("=", 1) for a in args.alphabet if "=" in a)
        if len(alphabet) != len(args.alphabet):
            raise TableError("--alphabet takes CORPUS=CLASS")
        committed = out.read_text(encoding="utf-8") if out.is_file() else ""
        if args.csvs:
            sources = new_sources(args.root, args.csvs, alphabet, args.date)
        elif committed:
            sources = json.loads(committed)["sources"]
            if not args.check:
                sources = [refreshed(args.root, s, args.date) for s in sources]
        else:
            raise TableError(f"{TABLE_FILE} does not exist: name the bench CSVs to make it from")
        if args.check:
            stale = [s["csv"] for s in sources if (args.root / s["csv"]).is_file()
                     and sha256(args.root / s["csv"]) != s["sha256"]]
            if stale:
                raise TableError(f"{TABLE_FILE} is stale: {', '.join(stale)} changed since it was made; run "
                                 "python3 tools/course/dispatch_table.py and commit what it writes")
        text = render(build_table(args.root, sources))
    except (TableError, json.JSONDecodeError, KeyError) as e:
        print(f"dispatch_table.py: {e}", file=sys.stderr)
        return 1 if args.check else 2
    if args.check:
        if text != committed:
            old, new = committed.splitlines(), text.splitlines()
            at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
            print(f"dispatch_table.py: {TABLE_FILE} is stale: line {at + 1} should read "
                  f"{new[at].strip() if at < len(new) else '(nothing)'!r}; run python3 tools/course/dispatch_table.py "
                  "and commit what it writes", file=sys.stderr)
            return 1
        print(f"{TABLE_FILE} is what its CSVs give ({', '.join(s['csv'] for s in sources)})")
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {TABLE_FILE} from {', '.join(s['csv'] for s in sources)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
