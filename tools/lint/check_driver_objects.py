#!/usr/bin/env python3
"""Checks that each lesson driver compiled once for both tracks (cmake/Lessons.cmake, `driver.<id>.objects`)
read no editable file: it is compiled with the starter's folder, so an editable header in it would put
the starter's code into the solutions track's driver. Reads what each object's compile read from Ninja's
record (`ninja -t deps`).

    check_driver_objects.py BUILD_DIR COURSE [NINJA]

Exit status: 0 none did, 1 one did (named), 2 the build has no such object or no record of it.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "course"))
from manifests import load_course  # noqa: E402  (tools/course: the course's manifests, read one way)

MARKER = re.compile(r"(^|/)CMakeFiles/driver\.[^/]+\.objects\.dir/.*\.o$")


def editable_files(course):
    """Every file a submission may edit: lessons/<id>/<file> of each lesson's "editable"."""
    return {os.path.realpath(os.path.join(course, "lessons", lesson.id, name))
            for lesson in load_course(Path(course)) for name in lesson.manifest["editable"]}


def ninja(build, tool, program):
    return subprocess.run([program, "-C", build, "-t"] + tool, capture_output=True, text=True, check=True).stdout


def objects_and_inputs(build, program):
    """{object: [the files its compile read] or None without a valid record}, for the drivers compiled once:
    the objects `ninja -t targets all` lists, their inputs from `ninja -t deps` ("OBJECT: #deps N, deps
    mtime T (VALID)", then one indented input per line; a STALE record does not count)."""
    objects = {line.split(": ")[0]: None for line in ninja(build, ["targets", "all"], program).splitlines()
               if MARKER.search(line.split(": ")[0])}
    current = None
    for line in ninja(build, ["deps"], program).splitlines():
        if line and not line.startswith((" ", "\t")):
            name = line.split(": #deps ")[0]
            current = name if name in objects and line.endswith("(VALID)") else None
            if current:
                objects[current] = []
        elif current and line.strip():
            objects[current].append(os.path.realpath(os.path.join(build, line.strip())))
    return objects


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: check_driver_objects.py BUILD_DIR COURSE [NINJA]", file=sys.stderr)
        return 2
    build, course = (os.path.abspath(arg) for arg in sys.argv[1:3])
    objects = objects_and_inputs(build, sys.argv[3] if len(sys.argv) == 4 else "ninja")
    if not objects:
        print(f"check_driver_objects: no driver compiled once for both tracks in {build} (CUDAMATCH_TRACK=both?)")
        return 2
    editable = editable_files(course)
    bad = 0
    for name, inputs in sorted(objects.items()):
        if not inputs:
            print(f"check_driver_objects: {name}: Ninja has no valid record of what its compile read (built?)")
            return 2
        read = sorted({path for path in inputs if path in editable})
        for path in read:
            print(f"{name}: reads the editable file {os.path.relpath(path, course)}: a driver compiled once for"
                  " both tracks may include only given headers (or compile it per track in cmake/Lessons.cmake)")
        bad += bool(read)
    print(f"check_driver_objects: {len(objects)} drivers compiled once, {bad} reading an editable file")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
