"""The committed measurements under docs/results/data/, loaded as rows of fields.

  <gpu>/<lesson-id>.json   a lesson driver's --json output (common/results_json.hpp): its "rows",
                           and the document's "device", "ceilings_gbps" and "launch_floor_ms";
  <gpu>/ncu/*.csv          raw `ncu --csv` output: one row per kernel launch and metric;
  <gpu>/*.csv              any other CSV with a header line (e.g. `cudamatch bench --csv`).

Numbers in CSV cells ("1,234.5" included) become floats; other cells stay strings."""

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path

DATA_DIR = "docs/results/data"


class DataError(ValueError):
    pass


@dataclass
class Dataset:
    path: str  # relative to DATA_DIR
    rows: list
    document: dict = field(default_factory=dict)  # a driver file's fields other than "rows"

    def device_names(self) -> set:
        """The GPU names this file records (the document's device, or a "device" column)."""
        if "device" in self.document:
            return {self.document["device"]["name"]}
        return {row["device"] for row in self.rows if isinstance(row.get("device"), str)}


def number_or_text(cell: str):
    try:
        return float(cell.replace(",", ""))
    except ValueError:
        return cell


def csv_rows(text: str) -> list:
    # ncu prints lines of its own ("==PROF== ...") around the CSV; a CSV line starts with a quote or
    # a header name, never with "==".
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("==")]
    return [{k: number_or_text(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO("\n".join(lines)))]


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
    raise DataError(f"{DATA_DIR}/{relative}: not a .json or .csv file")


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
