"""Compares a grading run of a planted submission (plant.sh) with what it must score (expected.json).

  python3 check_planted.py NAME RESULTS.json       prints one line per item, expected against got;
                                                   exit 1 when an item scored what it must not
Items are named "<lesson> <item id>" as in results.json's tests; expected.json names them by item id,
or "<lesson>/*" for every item of a lesson: "zero" must score 0, "less" less than its points (a tests
item scores the share of its test cases that pass: a fault that fails some of them and not the
others), "any" anything, every other item its full points. A plant that needs a GPU ("gpu": true) must
be graded with one and with --sanitize --ncu: an item that did not run is then wrong whatever was
expected of it.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def expectations():
    with open(os.path.join(HERE, "expected.json")) as f:
        return json.load(f)["plants"]


def matches(patterns, lesson, item_id):
    return any(p == item_id or p == lesson + "/*" for p in patterns)


def compare(name, results, rubric_ids):
    """Lines "lesson item: expected X, got S of M" and whether every item scored as expected.
    rubric_ids maps each test name of results.json to (lesson, item id)."""
    plant = expectations()[name]
    lines, ok = [], True
    for test in results["tests"]:
        lesson, item_id = rubric_ids[test["name"]]
        got, most = test["score"], test["max_score"]
        if matches(plant["any"], lesson, item_id):
            want, right = "any", True
        elif matches(plant["zero"], lesson, item_id):
            want, right = "0", got == 0
        elif matches(plant.get("less", []), lesson, item_id):
            want, right = "less", got < most - 1e-6
        else:
            want, right = "full", abs(got - most) < 1e-6
        if most == 0 and got == 0 and test["output"].startswith("not run"):
            want = want + " (not run)"
            right = not plant["gpu"]  # without a GPU, only what ran is checked
        ok = ok and right
        lines.append(f"{'ok  ' if right else 'BAD '} {lesson} {item_id}: expected {want}, got {got:g} of {most:g}")
    return lines, ok


def rubric_ids_of(course, lessons_in_results):
    ids = {}
    for lesson in lessons_in_results:
        with open(os.path.join(course, "lessons", lesson, "rubric.json")) as f:
            for item in json.load(f)["items"]:
                ids[lesson + " " + item["name"]] = (lesson, item["id"])
    return ids


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    name, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        results = json.load(f)
    course = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
    lessons = sorted({t["name"].split(" ", 1)[0] for t in results["tests"]})
    lines, ok = compare(name, results, rubric_ids_of(course, lessons))
    print(f"{name}: {'as expected' if ok else 'NOT AS EXPECTED'} ({results['score']:g} of {results['max_score']:g})")
    for line in lines:
        print("  " + line)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
