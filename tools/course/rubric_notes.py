"""Rubric notes (lessons/*/rubric.json, "note") explain a threshold; the figures it was set from are
measured, so they live in docs/results/lesson-NN.md ("The grader's thresholds"), rendered from data. A
JSON string cannot carry a marker, so a note that quotes a measured figure would go stale unseen: this
check refuses one."""

import re

# What a measured figure looks like in a note: the measurement GPUs by name, a decimal ratio or share
# ("7.27x", "79.9%"), a count with thousands separators ("1,048,576").
MEASURED = [
    (re.compile(r"\bH[12]00\b"), "names a measurement GPU"),
    (re.compile(r"\d\.\d+ ?(x\b|%)"), "quotes a measured ratio or share"),
    (re.compile(r"\b\d{1,3}(,\d{3})+\b"), "quotes a measured count"),
]


def note_problems(lessons: list) -> list:
    """One line per rubric note (of an item or a bound) that quotes a measured figure."""
    problems = []
    for lesson in lessons:
        rubric_path = f"lessons/{lesson.id}/{lesson.manifest['rubric']}"
        for entry in lesson.rubric.get("bounds", []) + lesson.rubric["items"]:
            note = entry.get("note", "")
            for pattern, what in MEASURED:
                found = pattern.search(note)
                if found:
                    name = entry.get("id", f"bound {entry.get('ceiling', entry.get('row', ''))}")
                    problems.append(f"{rubric_path}: the note of {name} {what} ({found[0]!r}): measured figures "
                                    f"go to docs/results/lesson-{lesson.number}.md, rendered from data")
    return problems
