"""The committed measurements under docs/results/data/, loaded as rows of fields.

  <gpu>/<lesson-id>.json   a lesson driver's --json output (common/results_json.hpp): its "rows",
                           and the document's "device", "ceilings_gbps" and "launch_floor_ms";
  <gpu>/ncu/*.csv          raw `ncu --csv` output: one row per kernel launch and metric;
  <gpu>/*.csv              any other CSV with a header line (e.g. `cudamatch bench --csv`);
  <gpu>/**/*.txt           a program's printed output (e.g. the grader's): a figure names the lines
                           it reads with a regular expression whose named groups are the fields.

Numbers in CSV cells ("1,234.5" included) become floats; other cells stay strings."""

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

DATA_DIR = "docs/results/data"
TEXT_DEVICE = re.compile(r"NVIDIA [^,(\n]*[^,(\n ]")


class DataError(ValueError):
    pass


@dataclass
class Dataset:
    path: str  # relative to DATA_DIR
    rows: list
    document: dict = field(default_factory=dict)  # a driver file's fields other than "rows"
    text: str = ""  # a .txt file's text

    def device_names(self) -> set:
        """The GPU names this file records (the document's device, a "device" column of rows not run on
        the CPU backend, unless all are, or the first "NVIDIA ..." a text names)."""
        if "device" in self.document:
            return {self.document["device"]["name"]}
        if self.text:
            named = TEXT_DEVICE.search(self.text)
            return {named[0]} if named else set()
        gpu_rows = [row for row in self.rows if row.get("backend") != "cpu"] or self.rows  # bench CSVs: CPU rows too
        return {row["device"] for row in gpu_rows if isinstance(row.get("device"), str)}

    def matched_rows(self, pattern: str, section: str = "") -> list:
        """The rows of a text: one per line that pattern matches, its named groups as fields, with the
        groups of the last line before it that section matches (e.g. the plant a grader line is of)."""
        rows, current = [], {}
        for line in self.text.splitlines():
            heading = re.search(section, line) if section else None
            if heading:
                current = fields_of(heading)
            elif m := re.search(pattern, line):
                rows.append({**current, **fields_of(m)})
        return rows


def fields_of(match: re.Match) -> dict:
    return {k: number_or_text(v) for k, v in match.groupdict().items() if v is not None}


def number_or_text(cell: str):
    try:
        return float(cell.replace(",", ""))
    except ValueError:
        return cell


# ncu's units, as factors of the base unit of their kind.
UNIT_FACTORS = {
    "nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3, "second": 1.0, "ns": 1e-9, "us": 1e-6, "ms": 1e-3,
    "byte": 1.0, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
}


def in_base_unit(value, unit: str):
    """A number in ncu's unit as a number in the base unit (seconds, bytes); others as they are."""
    return value * UNIT_FACTORS[unit] if isinstance(value, float) and unit in UNIT_FACTORS else value


def csv_rows(text: str) -> list:
    """The rows of a CSV. ncu's output is one too: its own lines ("==PROF== ...") are dropped; with
    `--page raw` its second line gives each column's unit, and the details and summary pages have a
    "Metric Unit" column: either way the numbers are converted to base units (seconds, bytes)."""
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("==")]
    reader = csv.DictReader(io.StringIO("\n".join(lines)), skipinitialspace=True)
    rows = [{k: number_or_text(v) for k, v in row.items()} for row in reader]
    units = {}
    if rows and "ID" in rows[0] and rows[0]["ID"] == "":
        units = {k: v for k, v in rows.pop(0).items() if isinstance(v, str)}
    for row in rows:
        for column, unit in units.items():
            row[column] = in_base_unit(row[column], unit)
        for column in ("Metric Value", "Minimum", "Maximum", "Average"):  # the details and summary pages
            if column in row and "Metric Unit" in row:
                row[column] = in_base_unit(row[column], row["Metric Unit"])
    return rows


def load_dataset(data_dir: Path, relative: str) -> Dataset:
    path = data_dir / relative
    if not path.is_file():
        raise DataError(f"{DATA_DIR}/{relative} does not exist")
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        document = json.loads(text)
        rows = document.pop("rows", None)
        if not isinstance(rows, list):
            raise DataError(f"{DATA_DIR}/{relative}: no \"rows\" array")
        return Dataset(relative, rows, document)
    if path.suffix == ".csv":
        return Dataset(relative, csv_rows(text))
    if path.suffix == ".txt":
        return Dataset(relative, [], text=text)
    raise DataError(f"{DATA_DIR}/{relative}: not a .json, .csv or .txt file")


class DataStore:
    """Loads each data file once."""

    def __init__(self, root: Path):
        self.data_dir = root / DATA_DIR
        self._cache = {}

    def get(self, relative: str) -> Dataset:
        if relative not in self._cache:
            self._cache[relative] = load_dataset(self.data_dir, relative)
        return self._cache[relative]

    def device_names(self, relative: str) -> set:
        """The GPUs of a data file; a file that names none (ncu's CSV) takes those of the driver files
        beside it or one folder up (<gpu>/ncu/x.csv: the files of <gpu>/)."""
        names = self.get(relative).device_names()
        folder = Path(relative).parent
        for candidate in (folder, folder.parent):
            if names or str(candidate) == ".":
                break
            for path in sorted((self.data_dir / candidate).glob("*.json")):
                names |= self.get(str(path.relative_to(self.data_dir))).device_names()
        if not names:
            raise DataError(f"{DATA_DIR}/{relative}: no GPU named in it or in the driver files beside it")
        return names
