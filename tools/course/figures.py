"""Figures rendered from the committed data: the registry docs/results/figures/<namespace>.json.

A registry file is {"data": "<default data file>", "figures": {"<name>": <spec>, ...}}; the figure's id
is "<namespace>.<name>" (e.g. "11.v3_over_v0" from 11.json). Keys given beside "figures" are defaults
for every spec of the file. A spec is one of four kinds:

  a value   {"data": "h100/11-brute-force.json",     the data file, under docs/results/data/
             "rows": {"id": "v3", "case": "e-coli-m*"},  the rows it uses: fnmatch patterns on the
                                                     fields' text (a list: any of them)
             "match": "^score: (?P<got>[0-9.]+)",    a .txt file's rows: each line this regex
                                                     matches, its named groups as the fields, with
             "section": "^(?P<plant>[a-z-]+):",      those of the line before it this one matches
             "value": "speedup",                     what each row gives (below)
             "baseline": {"id": "v0"},               speedup/ratio: the row that differs only there
             "per": {"by": ["case"], "stat": "max"}, optional: one row per group, its min or max
             "stat": "median",                       one (default: exactly one row), median, mean, min,
                                                     max, range ("lo-hi"), argmax/argmin (the row
                                                     with the largest/smallest value: its fields
                                                     can be named in the format), list (every row,
                                                     formatted with its fields, joined by ", ")
             "across": {"m": ["8", "16"]},           optional: the figure for each mix of these
             "across_stat": "range",                 variables, then this stat over them
             "divide_by": {<value spec>},            optional: divided by another value (inherits
             "minus": {<value spec>},                data, rows and value), or less another value
             "divide_into": 0.537,                   optional: then this number divided by it
             "scale": 1000, "offset": 0,             optional: then times a factor (ms -> us), plus
                                                     a constant
             "format": "{:.2f}", "unit": "x"}        str.format of each number ("{0}" and the row's
                                                     or variables' fields); unit once at the end
  a phrase  {"text": "v3 {11.v3_over_v0} v0",        other figures by id, row variables, and
             "parts": {"name": <value spec>}}        local parts, inside a sentence
  an excerpt {"data": "h100/driver/06-streams.txt",  lines of a printed output, as a code block
             "excerpt": {"from": "^timeline", "to": "^ +0 ms"}}
  a table   {"table": {"for": {"m": ["2", "4"]},     one row per value (several keys: every mix)
                       "columns": [{"header": "m", "text": "{m}"}, <column>, ...]}}
            a column is a value or phrase spec with a "header" ("align": left or right; "with":
            variables of its own; "missing": the text of a cell that has no row or no such
            number); the keys of the table's spec are defaults for its columns, and "{var}" in a
            column's rows, baseline, value and text is the row's value of var.

Values: a numeric field of the rows ("gbps", "median_ms", ncu's "Metric Value"); "share:<ceiling>"
(100 * gbps / the document's ceilings_gbps[<ceiling>]); "speedup" (baseline median_ms / median_ms);
"ratio:<field>" (field / the baseline's field); "rate:<amount>" (amount per second of median_ms,
e.g. FLOP/s); "largest:<pattern>" (the largest of a row's fields that match, the "*" part of its
name as the field "largest", e.g. ncu's top stall); "ceiling:<name>" and "document:<field>" (the
driver file's own fields, no rows); "text:<field>" (a field as it is, e.g. a line a program
printed); "gpu" (the short GPU name, e.g. "H100") and "device" (the full name). A row whose "valid"
is false (or "correct" is 0) cannot be quoted."""

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


class MissingNumber(FigureError):
    """No row, or a row without a number for the field (null: the driver did not measure it)."""


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
    """Whether every field of pattern matches the row's (a list of patterns: any of them)."""

    def field_matches(key, wanted):
        alternatives = wanted if isinstance(wanted, list) else [wanted]
        return key in row and any(fnmatch.fnmatchcase(cell_text(row[key]), p) for p in alternatives)

    return all(field_matches(key, wanted) for key, wanted in pattern.items())


def fill(template, variables: dict):
    """template (a string, or a dict of strings) with "{var}" replaced by the variables."""
    if isinstance(template, dict):
        return {k: fill(v, variables) for k, v in template.items()}
    if isinstance(template, list):
        return [fill(v, variables) for v in template]
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

    def number(self, fig_id: str) -> float:
        """The number a value figure renders (its first, for a range)."""
        spec = self.spec(fig_id)
        if "table" in spec or "text" in spec or spec.get("stat") == "list":
            raise FigureError(f"figure {fig_id} is not one number")
        return self._measure(spec, {})[0][0]

    def is_table(self, fig_id: str) -> bool:
        """Whether the figure is a block (a table or an excerpt), quoted between block markers."""
        return "table" in self.spec(fig_id) or "excerpt" in self.spec(fig_id)

    def render(self, fig_id: str) -> Rendered:
        """The text of a value, phrase or table figure (a table: its lines, each ending in a newline)."""
        if fig_id in self._rendering:
            raise FigureError(f"figure {fig_id} refers to itself")
        self._rendering.add(fig_id)
        try:
            spec = self.spec(fig_id)
            if "table" in spec:
                return self._table(spec)
            if "excerpt" in spec:
                return self._excerpt(spec)
            if "text" in spec:
                return self._phrase(spec, {})
            return self._value(spec, {})
        except (FigureError, DataError, KeyError, ValueError, ZeroDivisionError, StopIteration) as error:
            message = str(error) if isinstance(error, (FigureError, DataError)) else f"{type(error).__name__}: {error}"
            raise FigureError(message if message.startswith("figure ") else f"figure {fig_id}: {message}") from None
        finally:
            self._rendering.discard(fig_id)

    def _phrase(self, spec: dict, variables: dict) -> Rendered:
        """spec["text"] with {name} replaced: a part of spec["parts"], a row variable, or a figure by id."""
        defaults = {k: v for k, v in spec.items() if k not in ("text", "parts", "header", "align", "with")}
        parts = {}
        for ref in REFERENCE.findall(spec["text"]):
            if ref in spec.get("parts", {}):
                parts[ref] = self._value({**defaults, **spec["parts"][ref]}, variables)
            elif ref in variables:
                parts[ref] = Rendered(str(variables[ref]), frozenset())
            else:
                parts[ref] = self.render(ref)
        rendered = REFERENCE.sub(lambda m: parts[m[1]].text, spec["text"])
        devices = frozenset().union(*(p.devices for p in parts.values()))
        sources = tuple(sorted({s for p in parts.values() for s in p.sources}))
        return Rendered(rendered, devices, sources)

    def _value(self, spec: dict, variables: dict) -> Rendered:
        number_format, unit = spec.get("format", "{}"), spec.get("unit", "")
        if spec.get("stat") == "list":  # every row, each formatted with its own fields
            rows = self._candidates(spec, variables)
            text = ", ".join(number_format.format(v, **{**variables, **row_fields(row)}) for v, row in rows)
        else:
            values, fields = self._measure(spec, variables)
            texts = [number_format.format(v, **fields) for v in values]
            text = texts[0] if len(set(texts)) == 1 else "-".join(texts)  # a range "7.3-7.3" is "7.3"
        text += unit
        return Rendered(text, frozenset(self.store.device_names(spec["data"])), (spec["data"],))

    def _measure(self, spec: dict, variables: dict):
        """The figure's numbers (two for a range, else one) and the fields its format may name: the
        row variables and, when one row was picked, that row's fields."""
        if "across" in spec:
            inner = {k: v for k, v in spec.items() if k not in ("across", "across_stat")}
            candidates = [(self._measure(inner, {**variables, **mix})[0][0], None) for mix in expand(spec["across"])]
            return self._reduce({**spec, "stat": spec.get("across_stat", "range")}, candidates, dict(variables))
        candidates = self._candidates(spec, variables)
        if "per" in spec:
            candidates = reduce_groups(candidates, spec["per"])
        values, fields = self._reduce(spec, candidates, dict(variables))
        inherited = {k: v for k, v in spec.items() if k in ("data", "rows", "value")}
        if "divide_by" in spec:
            (divisor,), _ = self._measure({**inherited, **spec["divide_by"]}, variables)
            values = [v / divisor for v in values]
        if "minus" in spec:
            (other,), _ = self._measure({**inherited, **spec["minus"]}, variables)
            values = [v - other for v in values]
        if "divide_into" in spec:
            values = [spec["divide_into"] / v for v in values]
        scale, offset = spec.get("scale", 1), spec.get("offset", 0)
        return [v if isinstance(v, str) else v * scale + offset for v in values], fields

    def _reduce(self, spec: dict, candidates: list, fields: dict):
        """The numbers spec["stat"] makes of the (value, row) candidates, and the fields for the format."""
        stat = spec.get("stat", "one")
        if stat in ("one", "argmax", "argmin"):
            if stat == "one" and len(candidates) != 1:
                rows = fill(spec.get("rows"), fields)
                raise FigureError(f"{len(candidates)} rows match {rows}: name one, or give a stat")
            pick = max if stat == "argmax" else min
            value, row = candidates[0] if stat == "one" else pick(candidates, key=lambda c: c[0])
            fields.update(row_fields(row))
            values = [value]
        elif stat == "range":
            values = [min(c[0] for c in candidates), max(c[0] for c in candidates)]
        elif stat in STATS:
            values = [STATS[stat]([c[0] for c in candidates])]
        else:
            raise FigureError(f"unknown stat {stat!r}")
        return values, fields

    def _candidates(self, spec: dict, variables: dict) -> list:
        """(value, row) of each row the spec selects; row is None for a figure of the whole file."""
        relative = spec["data"]
        dataset = self.store.get(relative)
        spec = {**spec, "value": fill(spec["value"], variables)}  # a table may vary the value by row
        kind, _, argument = spec["value"].partition(":")
        if kind in ("gpu", "device"):
            devices = self.store.device_names(relative)
            if len(devices) != 1:
                raise FigureError(f"{relative} has several GPUs: {sorted(devices)}")
            (name,) = devices
            return [(short_gpu_name(name) if kind == "gpu" else name, None)]
        if kind == "ceiling":
            return [(dataset.document["ceilings_gbps"][argument], None)]
        if kind == "document":
            return [(dataset.document[argument], None)]
        pattern = fill(spec.get("rows", {}), variables)
        if "match" in spec:
            source = dataset.matched_rows(fill(spec["match"], variables), spec.get("section", ""))
        else:
            source = dataset.rows
        rows = [row for row in source if matches(row, pattern)]
        if not rows:
            raise MissingNumber(f"no row of {DATA_DIR}/{relative} matches {pattern}")
        if kind == "largest":
            return [largest_field(row, argument) for row in rows]
        return [(self._row_value(spec, variables, dataset, row, kind, argument), row) for row in rows]

    def _row_value(self, spec, variables, dataset, row, kind, argument):
        if kind == "speedup":
            return number(self._baseline(spec, variables, dataset, row), "median_ms") / number(row, "median_ms")
        if kind == "ratio":
            return number(row, argument) / number(self._baseline(spec, variables, dataset, row), argument)
        if kind == "share":
            return 100.0 * number(row, "gbps") / dataset.document["ceilings_gbps"][argument]
        if kind == "text":
            return str(row[argument])
        if kind == "rate":
            return float(argument) / (number(row, "median_ms") / 1e3)
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

    def _excerpt(self, spec: dict) -> Rendered:
        """The lines of a .txt data file from the first that matches excerpt["from"] to the first after it
        that matches excerpt["to"] (both included), as a fenced code block."""
        text = self.store.get(spec["data"]).text
        lines = text.splitlines()
        start = next(i for i, line in enumerate(lines) if re.search(spec["excerpt"]["from"], line))
        end = next(i for i in range(start, len(lines)) if re.search(spec["excerpt"]["to"], lines[i]))
        note = f"<!-- rendered by tools/course/render.py from {DATA_DIR}/{spec['data']}; do not edit -->\n"
        body = "\n".join(lines[start : end + 1])
        return Rendered(f"{note}```\n{body}\n```\n", frozenset(self.store.device_names(spec["data"])), (spec["data"],))

    def _table(self, spec: dict) -> Rendered:
        table = spec["table"]
        defaults = {k: v for k, v in spec.items() if k != "table"}
        columns = table["columns"]
        cells, devices, sources = [], set(), set()
        for variables in expand(table["for"]):
            row = []
            for column in columns:
                column_spec = {**defaults, **column}
                render = self._phrase if "text" in column_spec else self._value
                try:
                    rendered = render(column_spec, {**variables, **column.get("with", {})})
                except MissingNumber:
                    if "missing" not in column_spec:
                        raise
                    rendered = Rendered(column_spec["missing"], frozenset())
                devices |= rendered.devices
                sources |= set(rendered.sources)
                row.append(rendered.text)
            cells.append(row)
        files = ", ".join(f"{DATA_DIR}/{s}" for s in sorted(sources))
        note = f"<!-- rendered by tools/course/render.py from {files}; do not edit -->\n"
        merged = [{**defaults, **column} for column in columns]
        return Rendered(note + markdown_table(merged, cells), frozenset(devices), tuple(sorted(sources)))


def largest_field(row: dict, pattern: str):
    """The largest of the row's numbers in fields that match pattern (one "*"), and the row with the
    part of that field's name the "*" stands for, as "largest" ("long scoreboard" for the stall
    "smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio" of "..._stalled_*.ratio")."""
    head, tail = pattern.split("*")
    numbers = {k: v for k, v in row.items() if fnmatch.fnmatchcase(k, pattern) and isinstance(v, float)}
    if not numbers:
        raise FigureError(f"no field of the row matches {pattern!r}")
    name = max(numbers, key=numbers.get)
    return numbers[name], {**row, "largest": name[len(head) : len(name) - len(tail)].replace("_", " ")}


def row_fields(row) -> dict:
    """The fields of a row a format can name ("{matcher}"); none for a figure of a whole file."""
    return {k: v for k, v in (row or {}).items() if k.isidentifier()}


def reduce_groups(candidates: list, per: dict) -> list:
    """One candidate per group of rows that agree on the fields per["by"]: the group's min or max row
    (per["stat"]), e.g. the fastest matcher at each corpus and m."""
    pick = {"min": min, "max": max}[per["stat"]]
    groups = {}
    for value, row in candidates:
        groups.setdefault(tuple(cell_text(row[f]) for f in per["by"]), []).append((value, row))
    return [pick(group, key=lambda c: c[0]) for group in groups.values()]


def number(row: dict, field: str) -> float:
    if row.get("valid") is False or row.get("correct") == 0:
        raise FigureError(f"row {row} is marked not valid: it cannot be quoted")
    value = row.get(field)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise MissingNumber(f"row {row} has no number {field!r}")
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
