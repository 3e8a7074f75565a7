#!/usr/bin/env python3
"""Checks that every lesson README (lessons/<id>/README.md, lessons in lessons/course.json order) is
short enough to read in one sitting: at most 2,000 words, counted two ways.

- raw: whitespace-separated tokens of the file, as `wc -w` counts them, so the markers of the rendered
  figures (`<!-- fig:... -->`) count too;
- visible: the same after removing every HTML comment (`<!-- ... -->`), which Markdown does not show.

    tools/course/check_readme_words.py [--root DIR] [LESSON_ID ...]

Prints one line per README over the limit (or missing) and exits 1, or a one-line summary with the
largest count and exits 0.
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from manifests import lesson_arguments  # noqa: E402

LIMIT = 2000
# An unclosed comment hides the rest of the file, as it does in HTML.
COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)


def count_words(text):
    """(raw, visible) word counts of a Markdown text. bytes.split() cuts at ASCII whitespace only, as
    `wc -w` does in the C locale (a no-break space does not end a word)."""
    raw = len(text.encode("utf-8").split())
    visible = len(COMMENT.sub("", text).encode("utf-8").split())
    return raw, visible


def main(argv=None):
    root, lessons = lesson_arguments(__doc__.split("\n\n")[0], argv)
    problems = []
    largest = None  # (raw, visible, shown path) of the README with the most raw words
    for lesson in lessons:
        path = root / "lessons" / lesson / "README.md"
        shown = path.relative_to(root).as_posix()
        if not path.is_file():
            problems.append(f"{shown}: missing (lesson {lesson} of lessons/course.json)")
            continue
        raw, visible = count_words(path.read_text(encoding="utf-8"))
        if raw > LIMIT or visible > LIMIT:
            problems.append(f"{shown}: {raw} words (wc -w), {visible} visible (HTML comments removed): "
                            f"over {LIMIT:,}")
        if largest is None or raw > largest[0]:
            largest = (raw, visible, shown)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    raw, visible, shown = largest
    print(f"check_readme_words: {len(lessons)} lesson READMEs within {LIMIT:,} words; "
          f"the largest, {shown}: {raw} (wc -w), {visible} visible")
    return 0


if __name__ == "__main__":
    sys.exit(main())
