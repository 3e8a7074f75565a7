#!/usr/bin/env python3
"""Checks that no starter has drifted from its solution: outside the holes a student fills, every
editable file of every lesson (lessons/<id>/lesson.json "editable", lessons in lessons/course.json
order) is the same in lessons/<id>/ (the starter) and solutions/<id>/ (the solution), line for line.

The holes are marked in the solution files only, with two comment lines of their own:

    // HOLE(00-measuring, step 1): one thread per element.
    ...the solution's code...
    // END HOLE

The begin marker carries the text of the starter's TODO, which states what goes in the hole. In the
starter, the hole begins with that TODO line, `// TODO(00-measuring, step 1): one thread per
element.` (the same words after TODO as after HOLE), and ends where the given lines that follow the
hole in the solution begin; what lies between (the rest of the TODO comment, placeholder code) is the
student's. Holes do not nest, every HOLE has its END HOLE, and every editable file has at least one
hole. One more pair of lines may differ: the solution's header line `// SOLUTION.` stands for the
starter's `// STARTER: <what to complete>`.

    tools/course/check_starters.py [--root DIR] [LESSON_ID ...]

Prints one line per problem (file:line: what) and exits 1, or a one-line summary and exits 0.
"""
import difflib
import json
import pathlib
import re
import sys
from dataclasses import dataclass, field

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from manifests import lesson_arguments  # noqa: E402

BEGIN = re.compile(r"^\s*// HOLE\((?P<id>[^()]+)\): (?P<text>\S.*)$")
END = re.compile(r"^\s*// END HOLE$")
# Anything that looks like a marker must be one of the two above: a typo is an error, not code.
MARKER_LIKE = re.compile(r"^\s*//\s*(END[\s_]*)?HOLE\b")
SOLUTION_TRACK = "// SOLUTION."
STARTER_TRACK = re.compile(r"^// STARTER: \S")
TRACK_LINE = object()  # what both track lines compare as


@dataclass
class Hole:
    line: int  # the HOLE marker's line number in the solution
    todo: str  # the starter line that opens the hole, stripped: "// TODO(<id>): <text>"


@dataclass
class SplitSolution:
    """The solution cut at its holes: given[i] lies before holes[i]; given[-1] after the last hole."""

    given: list = field(default_factory=list)  # lists of (line number, text)
    holes: list = field(default_factory=list)


def split_solution(lines, path, problems):
    split = SplitSolution(given=[[]])
    open_hole = None
    for number, text in enumerate(lines, start=1):
        begin, end = BEGIN.match(text), END.match(text)
        if begin:
            if open_hole:
                problems.append(f"{path}:{number}: HOLE inside the hole opened at line {open_hole.line}")
                continue
            open_hole = Hole(number, f"// TODO({begin['id']}): {begin['text']}")
        elif end:
            if not open_hole:
                problems.append(f"{path}:{number}: END HOLE without a HOLE")
                continue
            split.holes.append(open_hole)
            split.given.append([])
            open_hole = None
        elif MARKER_LIKE.match(text):
            problems.append(f"{path}:{number}: unknown marker {text.strip()!r} "
                            "(markers are '// HOLE(<id>): <TODO text>' and '// END HOLE')")
        elif not open_hole:
            split.given[-1].append((number, text))
    if open_hole:
        problems.append(f"{path}:{open_hole.line}: HOLE never closed by an END HOLE")
    return split


def comparable(text, is_solution):
    stripped = text.strip()
    if stripped == SOLUTION_TRACK if is_solution else STARTER_TRACK.match(stripped):
        return TRACK_LINE
    return text


def first_difference(given, window, free_head):
    """Where `window` (starter lines) first departs from `given` (solution lines): a pair of indexes,
    or None when they agree. With free_head, the window may begin with lines of its own (the hole)."""
    want = [comparable(text, True) for _, text in given]
    have = [comparable(text, False) for _, text in window]
    if (have[len(have) - len(want):] if free_head else have) == want and len(have) >= len(want):
        return None
    matcher = difflib.SequenceMatcher(None, want, have, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if free_head and i1 == 0:
            if tag == "insert":
                continue  # the hole's own lines
            if tag == "replace":
                j1 += max(0, (j2 - j1) - (i2 - i1))  # the hole's lines, then the changed given lines
        return i1, j1
    return len(want), len(have)  # not reached: the comparison above failed


def quote(lines, index):
    return repr(lines[index]) if index < len(lines) else "(end of file)"


def check_file(starter_path, solution_path, shown, problems):
    """Checks one editable file; returns the number of holes in its solution."""
    solution = solution_path.read_text(encoding="utf-8").split("\n")
    starter = starter_path.read_text(encoding="utf-8").split("\n")
    found = len(problems)
    split = split_solution(solution, shown(solution_path), problems)
    for number, text in enumerate(starter, start=1):
        if MARKER_LIKE.match(text):
            problems.append(f"{shown(starter_path)}:{number}: hole marker in a starter (markers belong in "
                            f"{shown(solution_path)})")
    if not split.holes and len(problems) == found:
        problems.append(f"{shown(solution_path)}:1: no hole: an editable file needs at least one "
                        "'// HOLE(<id>): <TODO text>' ... '// END HOLE'")
    if len(problems) > found:
        return len(split.holes)

    # Each hole opens, in the starter, at the first line after the previous one that is its TODO line.
    opens = []
    for hole in split.holes:
        start = opens[-1] + 1 if opens else 0
        at = next((i for i in range(start, len(starter)) if starter[i].strip() == hole.todo), None)
        if at is None:
            after = f" after its line {start}" if start else ""
            problems.append(f"{shown(solution_path)}:{hole.line}: the starter {shown(starter_path)} has no "
                            f"line {hole.todo!r}{after} to open this hole")
            return len(split.holes)
        opens.append(at)

    # given[0] fills the starter up to the first TODO; given[i] ends where hole i + 1 opens (or the file
    # ends), after the lines of hole i.
    bounds = [(0, opens[0])] + [(at + 1, end) for at, end in zip(opens, opens[1:] + [len(starter)])]
    for index, (given, (start, end)) in enumerate(zip(split.given, bounds)):
        window = [(start + k + 1, starter[start + k]) for k in range(end - start)]
        difference = first_difference(given, window, free_head=index > 0)
        if difference is None:
            continue
        i, j = difference
        starter_line = window[j][0] if j < len(window) else end + 1
        solution_line = given[i][0] if i < len(given) else (
            split.holes[index].line if index < len(split.holes) else len(solution) + 1)
        problems.append(f"{shown(starter_path)}:{starter_line}: given code differs from "
                        f"{shown(solution_path)}:{solution_line} (outside the holes): starter has "
                        f"{quote(starter, starter_line - 1)}, solution has {quote(solution, solution_line - 1)}")
    return len(split.holes)


def main(argv=None):
    root, lessons = lesson_arguments(__doc__.split("\n\n")[0], argv)

    def shown(path):
        return path.relative_to(root).as_posix()

    problems = []
    files = holes = 0
    for lesson in lessons:
        manifest = root / "lessons" / lesson / "lesson.json"
        for name in json.loads(manifest.read_text(encoding="utf-8")).get("editable", []):
            starter, solution = root / "lessons" / lesson / name, root / "solutions" / lesson / name
            missing = [path for path in (starter, solution) if not path.is_file()]
            for path in missing:
                problems.append(f"{shown(path)}:1: missing (an editable file of {shown(manifest)})")
            if not missing:
                files += 1
                holes += check_file(starter, solution, shown, problems)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_starters: {len(problems)} problem(s) in {files} editable file(s)")
        return 1
    print(f"check_starters: {files} editable files of {len(lessons)} lessons, {holes} holes: "
          "every starter equals its solution outside the holes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
