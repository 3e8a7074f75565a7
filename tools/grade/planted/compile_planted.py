#!/usr/bin/env python3
"""Compiles every planted file of the plants that need a GPU (expected.json's "gpu": true), with the
command the build uses for the starter's file of the same name (compile_commands.json of a build of the
student track). Those plants are graded only on a GPU machine; this catches, without a GPU, a plant
that no longer compiles after the code it edits changed (it would then prove nothing: a submission
that does not compile scores 0 for any reason).

    compile_planted.py BUILD_DIR [COURSE]

Exit status: 0 every planted file compiles, 1 one does not (its compiler's message is printed), 2 the
build has no compile command for a planted file (not a build of the student track).
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

import check_planted

MARKER = "PLANTED"


def planted_files(plant_dir):
    """The course-relative paths of the files in PLANT_DIR that hold a planted change."""
    for folder, _, names in os.walk(plant_dir):
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith((".cu", ".cpp")):
                with open(path, errors="replace") as f:
                    if MARKER in f.read():
                        yield os.path.relpath(path, plant_dir)


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: compile_planted.py BUILD_DIR [COURSE]", file=sys.stderr)
        return 2
    build = os.path.abspath(sys.argv[1])
    course = os.path.abspath(sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = {os.path.realpath(entry["file"]): entry for entry in json.load(f)}
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["bash", os.path.join(course, "tools", "grade", "planted", "plant.sh"), work, course],
                       check=True, capture_output=True)
        for name, plant in check_planted.expectations().items():
            if not plant["gpu"]:
                continue  # graded end to end without a GPU (tools/grade/tests/test_grade_program.py)
            files = list(planted_files(os.path.join(work, name)))
            if not files:
                print(f"{name}: no file holds the {MARKER} marker: plant.sh no longer plants it")
                failed += 1
            for relative in files:
                entry = commands.get(os.path.realpath(os.path.join(course, relative)))
                if entry is None:
                    print(f"{name}: {relative}: no compile command in {build} (a build of the student track?)")
                    return 2
                argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
                argv = [os.path.join(work, name, relative) if os.path.realpath(a) == os.path.realpath(entry["file"])
                        else a for a in argv]
                argv[argv.index("-o") + 1] = os.path.join(work, name + ".o")
                result = subprocess.run(argv, cwd=entry["directory"], capture_output=True, text=True)
                print(f"{name}: {relative}: {'compiles' if result.returncode == 0 else 'DOES NOT COMPILE'}")
                if result.returncode != 0:
                    print(result.stdout + result.stderr)
                    failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
