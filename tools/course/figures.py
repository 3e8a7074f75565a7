"""Figures rendered from the committed data: the registry docs/results/figures/<namespace>.json.

A registry file is {"data": "<default data file>", "figures": {"<name>": <spec>, ...}}; the figure's id
is "<namespace>.<name>" (e.g. "07.v3_over_v0" from 07.json). Keys given beside "figures" are defaults
for every spec of the file. A spec is one of three kinds:

  a value   {"data": "h100/07-brute-force.json",      the data file, under docs/results/data/
             "rows": {"version_id": "v3", "case_id": "ecoli-m*"},   fields of the rows it uses
                                                      (fnmatch patterns on the fields' text)
             "value": "speedup",                      what each row gives (below)
             "baseline": {"version_id": "v0"},        for speedup/ratio: the row that differs only there
             "stat": "median",                        one (default: exactly one row), median, mean,
                                                      min, max, range ("lo-hi")
             "format": "{:.2f}", "unit": "x"}         str.format of each number; unit once at the end
  a phrase  {"text": "v3 {07.v3_over_v0} v0"}          other figures, by id, inside a sentence
  a table   {"table": {"for": {"m": ["2", "4"]},       one row per value (several keys: every mix)
                       "columns": [{"header": "m", "text": "{m}"},
                                   {"header": "v3 / v0", "rows": {"case_id": "ecoli-m{m}", ...}, ...}]}}
            a column is a value spec (keys of the table's spec are its defaults) or a "text"
            template; "{var}" in a column's text, rows and baseline is the row's value of var.

Values: a numeric field of the rows ("gbps", "median_ms", ncu's "Metric Value"); "share:<ceiling>"
(100 * gbps / the document's ceilings_gbps[<ceiling>]); "speedup" (baseline median_ms / median_ms);
"ratio:<field>" (field / the baseline's field); "ceiling:<name>" and "document:<field>" (the driver
file's own fields, no rows); "gpu" (the short GPU name, e.g. "H100") and "device" (the full name).
A row whose "valid" is false (or "correct" is 0) cannot be quoted."""

import fnmatch
import itertools
import re
import statistics
from dataclasses import dataclass
from pathlib import Path

from manifests import read_json
from results_data import DATA_DIR, DataError, DataStore

REGISTRY_DIR = "docs/results/figures"
REFERENCE = re.compile(r"\{([A-Za-z0-9_.-]+)\}")
STATS = {
    "median": statistics.median,
    "mean": statistics.fmean,
    "min": min,
    "max": max,
}


class FigureError(ValueError):
    pass


@dataclass(frozen=True)
class Rendered:
    text: str
    devices: frozenset  # the full names of the GPUs its data came from
    sources: tuple = ()  # the data files it was rendered from


def short_gpu_name(name: str) -> str:
    """"NVIDIA H100 80GB HBM3" -> "H100": without the vendor and the memory size that follows."""
    words = name.removeprefix("NVIDIA ").split()
    kept = list(itertools.takewhile(lambda w: not re.fullmatch(r"\d+GB", w), words))
    return " ".join(kept) or name


def cell_text(value) -> str:
    """A field as a pattern sees it: 2.0 as "2", true as "true"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def matches(row: dict, pattern: dict) -> bool:
    return all(key in row and fnmatch.fnmatchcase(cell_text(row[key]), p) for key, p in pattern.items())


def fill(template, variables: dict):
    """template (a string, or a dict of strings) with "{var}" replaced by the variables."""
    if isinstance(template, dict):
        return {k: fill(v, variables) for k, v in template.items()}
    return template.format_map(variables) if variables else template


def expand(loop) -> list:
    """The variables of each table row: {"a": [1, 2], "b": [3]} -> [{a: 1, b: 3}, {a: 2, b: 3}]."""
    if isinstance(loop, list):
        return loop
    keys = list(loop)
    return [dict(zip(keys, mix)) for mix in itertools.product(*(loop[k] for k in keys))]


class Registry:
    def __init__(self, root: Path):
        self.store = DataStore(root)
        self.specs = {}
        self.used = set()
        for path in sorted((root / REGISTRY_DIR).glob("*.json")):
            registry = read_json(path)
            defaults = {k: v for k, v in registry.items() if k != "figures"}
            for name, spec in registry["figures"].items():
                self.specs[f"{path.stem}.{name}"] = {**defaults, **spec}
        self._rendering = set()

    def spec(self, fig_id: str) -> dict:
        if fig_id not in self.specs:
            raise FigureError(f"figure {fig_id} is not in {REGISTRY_DIR}/")
        self.used.add(fig_id)
        return self.specs[fig_id]

    def is_table(self, fig_id: str) -> bool:
        return "table" in self.spec(fig_id)

    def render(self, fig_id: str) -> Rendered:
        """The text of a value, phrase or table figure (a table: its lines, each ending in a newline)."""
        if fig_id in self._rendering:
            raise FigureError(f"figure {fig_id} refers to itself")
        self._rendering.add(fig_id)
        try:
            spec = self.spec(fig_id)
            if "table" in spec:
                return self._table(spec)
            if "text" in spec:
                return self._phrase(spec["text"])
            return self._value(spec, {})
        except (FigureError, DataError, KeyError, ValueError, ZeroDivisionError) as error:
            message = str(error) if isinstance(error, (FigureError, DataError)) else f"{type(error).__name__}: {error}"
            raise FigureError(message if message.startswith("figure ") else f"figure {fig_id}: {message}") from None
        finally:
            self._rendering.discard(fig_id)

    def _phrase(self, text: str) -> Rendered:
        parts = {ref: self.render(ref) for ref in REFERENCE.findall(text)}
        rendered = REFERENCE.sub(lambda m: parts[m[1]].text, text)
        devices = frozenset().union(*(p.devices for p in parts.values()))
        sources = tuple(sorted({s for p in parts.values() for s in p.sources}))
        return Rendered(rendered, devices, sources)

    def _value(self, spec: dict, variables: dict) -> Rendered:
        relative = spec["data"]
        devices = frozenset(self.store.device_names(relative))
        values = self._numbers(spec, variables, devices)
        stat = spec.get("stat", "one")
        number_format, unit = spec.get("format", "{}"), spec.get("unit", "")
        if stat == "one":
            if len(values) != 1:
                raise FigureError(f"{len(values)} rows match {spec.get('rows')}: name one, or give a stat")
            text = number_format.format(values[0])
        elif stat == "range":
            text = "-".join(number_format.format(v) for v in (min(values), max(values)))
        elif stat in STATS:
            text = number_format.format(STATS[stat](values))
        else:
            raise FigureError(f"unknown stat {stat!r}")
        return Rendered(text + unit, devices, (relative,))

    def _numbers(self, spec: dict, variables: dict, devices: frozenset) -> list:
        dataset = self.store.get(spec["data"])
        kind, _, argument = spec["value"].partition(":")
        if kind in ("gpu", "device"):
            if len(devices) != 1:
                raise FigureError(f"{spec['data']} has several GPUs: {sorted(devices)}")
            (name,) = devices
            return [short_gpu_name(name) if kind == "gpu" else name]
        if kind == "ceiling":
            return [dataset.document["ceilings_gbps"][argument]]
        if kind == "document":
            return [dataset.document[argument]]
        pattern = fill(spec.get("rows", {}), variables)
        rows = [row for row in dataset.rows if matches(row, pattern)]
        if not rows:
            raise FigureError(f"no row of {DATA_DIR}/{spec['data']} matches {pattern}")
        return [self._row_value(spec, variables, dataset, row, kind, argument) for row in rows]

    def _row_value(self, spec, variables, dataset, row, kind, argument):
        if kind == "speedup":
            return number(self._baseline(spec, variables, dataset, row), "median_ms") / number(row, "median_ms")
        if kind == "ratio":
            return number(row, argument) / number(self._baseline(spec, variables, dataset, row), argument)
        if kind == "share":
            return 100.0 * number(row, "gbps") / dataset.document["ceilings_gbps"][argument]
        return number(row, spec["value"])

    def _baseline(self, spec, variables, dataset, row) -> dict:
        if "baseline" not in spec:
            raise FigureError(f"{spec['value']} needs a baseline")
        pattern = {key: cell_text(row[key]) for key in spec.get("rows", {})}
        pattern.update(fill(spec["baseline"], variables))
        found = [r for r in dataset.rows if matches(r, pattern)]
        if len(found) != 1:
            raise FigureError(f"{len(found)} baseline rows match {pattern} (one expected)")
        return found[0]

    def _table(self, spec: dict) -> Rendered:
        table = spec["table"]
        defaults = {k: v for k, v in spec.items() if k != "table"}
        columns = table["columns"]
        cells, devices, sources = [], set(), set()
        for variables in expand(table["for"]):
            row = []
            for column in columns:
                if "value" in column or ("value" in defaults and "text" not in column):
                    rendered = self._value({**defaults, **column}, variables)
                    devices |= rendered.devices
                    sources |= set(rendered.sources)
                    row.append(rendered.text)
                else:
                    row.append(fill(column["text"], variables))
            cells.append(row)
        files = ", ".join(f"{DATA_DIR}/{s}" for s in sorted(sources))
        note = f"<!-- rendered by tools/course/render.py from {files}; do not edit -->\n"
        return Rendered(note + markdown_table(columns, cells), frozenset(devices), tuple(sorted(sources)))


def number(row: dict, field: str) -> float:
    if row.get("valid") is False or row.get("correct") == 0:
        raise FigureError(f"row {row} is marked not valid: it cannot be quoted")
    value = row.get(field)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise FigureError(f"row {row} has no number {field!r}")
    return float(value)


def markdown_table(columns: list, cells: list) -> str:
    headers = [c["header"] for c in columns]
    right = [c.get("align", "left" if "text" in c else "right") == "right" for c in columns]
    widths = [max(len(h), 3, *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]

    def line(values):
        padded = (v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right))
        return "| " + " | ".join(padded) + " |\n"

    rule = "|" + "|".join("-" * (w + 1) + (":" if r else "-") for w, r in zip(widths, right)) + "|\n"
    return line(headers) + rule + "".join(line(r) for r in cells)
