#!/usr/bin/env python3
"""Renders what the course generates, from the manifests and the committed data:

  .github/classroom/autograding.json      from lessons/course.json and each lesson's lesson.json/rubric
  <!-- generated:NAME --> regions          the README's and the course map's lesson tables
  <!-- fig:ID --> and <!-- table:ID -->    every measured figure the Markdown files quote, from
                                          docs/results/data/ through docs/results/figures/
and it refuses a rubric note that quotes a measured figure (tools/course/rubric_notes.py).

  render.py            rewrites what is stale
  render.py --check    changes nothing; names every stale file or marker and exits 1

docs/results/README.md describes the markers, the data and the figure registry."""

import argparse
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import REGISTRY_DIR, FigureError, Registry  # noqa: E402
from generated import CLASSROOM_FILE, autograding_json, render_region, required_regions  # noqa: E402
from manifests import load_course  # noqa: E402
from regions import MarkerError, find_regions, replace_bodies  # noqa: E402
from rubric_notes import note_problems  # noqa: E402

SKIPPED_DIRS = {"node_modules", "cache"}  # cache: datasets/cache, the downloaded corpora; hidden folders too


@dataclass
class Outcome:
    expected: dict = field(default_factory=dict)  # relative path -> the text it should have
    stale: list = field(default_factory=list)  # one line per stale file or marker
    errors: list = field(default_factory=list)  # what could not be rendered at all


def markdown_files(root: Path) -> list:
    found = []
    for folder, dirs, files in os.walk(root):
        top = folder == str(root)
        dirs[:] = sorted(
            d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".") and not (top and d.startswith("build"))
        )
        found += [Path(folder, f).relative_to(root) for f in sorted(files) if f.endswith(".md")]
    return found


def first_difference(old: str, new: str) -> str:
    """'line N reads A, should read B' for the first line where old and new differ."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    for n, (a, b) in enumerate(zip(old_lines, new_lines), 1):
        if a != b:
            return f"line {n} reads {a.strip()!r}, should read {b.strip()!r}"
    n = min(len(old_lines), len(new_lines)) + 1
    if len(old_lines) < len(new_lines):
        return f"line {n} is missing: {new_lines[n - 1].strip()!r}"
    return f"line {n} should not be there: {old_lines[n - 1].strip()!r}"


def region_body(root: Path, path: Path, region, lessons, figures) -> str:
    if region.kind == "generated":
        try:
            return render_region(region.id, root, root / path, lessons, figures)
        except ValueError as error:
            raise FigureError(str(error)) from None
    if figures.is_table(region.id) != (region.kind == "table"):
        raise FigureError(f"figure {region.id} is a {'table' if region.kind == 'fig' else 'value'}: use a "
                          f"<!-- {'fig' if region.kind == 'table' else 'table'}:{region.id} --> marker")
    return figures.render(region.id).text


def render_markdown(root: Path, path: Path, lessons, figures, outcome: Outcome, required: dict) -> None:
    text = (root / path).read_text(encoding="utf-8")
    try:
        regions = find_regions(text)
    except MarkerError as error:
        outcome.errors.append(f"{path}: {error}")
        return
    for wanted in required.get(path.as_posix(), []):
        if not any(r.kind == "generated" and r.id == wanted for r in regions):
            outcome.errors.append(f"{path}: the <!-- generated:{wanted} --> region is missing")
    bodies = []
    for region in regions:
        try:
            body = region_body(root, path, region, lessons, figures)
        except FigureError as error:
            outcome.errors.append(f"{path}:{region.line}: {error}")
            body = region.body
        if body != region.body:
            if region.block:
                hint = first_difference(region.body, body)
                outcome.stale.append(f"{path}:{region.line}: {region.kind}:{region.id} is stale: {hint}")
            else:
                outcome.stale.append(
                    f"{path}:{region.line}: {region.kind}:{region.id} reads {region.body!r}, the data gives {body!r}"
                )
        bodies.append(body)
    if regions:
        outcome.expected[path.as_posix()] = replace_bodies(text, regions, bodies)


def render_tree(root: Path) -> Outcome:
    outcome = Outcome()
    lessons = load_course(root)
    figures = Registry(root)
    classroom = autograding_json(lessons)
    current = (root / CLASSROOM_FILE).read_text(encoding="utf-8") if (root / CLASSROOM_FILE).exists() else ""
    if current != classroom:
        outcome.stale.append(f"{CLASSROOM_FILE} is stale: {first_difference(current, classroom)}")
    outcome.expected[CLASSROOM_FILE] = classroom
    required = required_regions(lessons)
    for missing in sorted(name for name in required if not (root / name).is_file()):
        regions = ", ".join(f"<!-- generated:{name} -->" for name in required[missing])
        outcome.errors.append(f"{missing}: missing (it must hold the regions {regions})")
    for path in markdown_files(root):
        render_markdown(root, path, lessons, figures, outcome, required)
    outcome.errors += note_problems(lessons)
    for fig_id in sorted(set(figures.specs) - figures.used):
        outcome.errors.append(f"{REGISTRY_DIR}/{fig_id.split('.', 1)[0]}.json: figure {fig_id} is quoted nowhere")
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when anything is stale")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2], help="the course's root")
    args = parser.parse_args()
    root = args.root.resolve()
    outcome = render_tree(root)
    for line in outcome.errors:
        print(f"error: {line}")
    if args.check:
        for line in outcome.stale:
            print(f"stale: {line}")
        if outcome.stale or outcome.errors:
            print("run tools/course/render.py to regenerate (edit the manifests, data or figure registry, "
                  "not the rendered text)")
            return 1
        print(f"up to date: {CLASSROOM_FILE} and {len(outcome.expected) - 1} Markdown files with markers")
        return 0
    for relative, text in outcome.expected.items():
        path = root / relative
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"rewrote {relative}")
    return 1 if outcome.errors else 0


if __name__ == "__main__":
    sys.exit(main())
