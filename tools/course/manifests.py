"""The course as its manifests describe it: lessons/course.json (the lessons, in order) and, per lesson,
lessons/<id>/lesson.json and the rubric it names."""

import argparse
import json
from dataclasses import dataclass
from pathlib import Path


def lesson_number(lesson_id: str) -> str:
    """The two digits of a lesson id, the grader's --lessons takes them: "11" for "11-brute-force"."""
    return lesson_id.split("-", 1)[0]


@dataclass(frozen=True)
class Lesson:
    id: str  # the folder name, e.g. "11-brute-force"
    manifest: dict  # lessons/<id>/lesson.json
    rubric: dict  # lessons/<id>/<manifest["rubric"]>

    @property
    def number(self) -> str:
        return lesson_number(self.id)

    @property
    def needed_numbers(self) -> list:
        """The numbers of the lessons it needs (lesson.json "needs"), e.g. ["03", "11"]."""
        return [lesson_number(need) for need in self.manifest["needs"]]

    @property
    def points(self) -> int:
        return sum(item["points"] for item in self.rubric["items"])


COURSE_FILE = "lessons/course.json"
MANIFEST_GLOB = "lessons/*/lesson.json"


def read_json(path: Path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def load_course(root: Path) -> list:
    """Every lesson of lessons/course.json, in its order."""
    lessons = []
    for lesson_id in read_json(root / COURSE_FILE)["lessons"]:
        folder = root / "lessons" / lesson_id
        manifest = read_json(folder / "lesson.json")
        rubric = read_json(folder / manifest["rubric"])
        lessons.append(Lesson(lesson_id, manifest, rubric))
    return lessons


def lesson_arguments(description: str, argv=None):
    """The command line of a course check: [--root DIR] [LESSON_ID...]. Returns (root, the lessons to
    check: those named, every lesson of lessons/course.json by default); an id not in course.json is a
    usage error (exit 2)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2],
                        help="the course's root folder (default: this checkout)")
    parser.add_argument("lessons", nargs="*", help="lesson ids to check (default: every lesson in course.json)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    course = read_json(root / COURSE_FILE)["lessons"]
    unknown = [lesson for lesson in args.lessons if lesson not in course]
    if unknown:
        parser.error(f"not in {COURSE_FILE}: {', '.join(unknown)}")
    return root, args.lessons or course
