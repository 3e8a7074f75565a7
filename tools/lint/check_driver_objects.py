#!/usr/bin/env python3
"""Checks that each lesson driver compiled once for both tracks (cmake/Lessons.cmake, `driver.<id>.objects`)
read no editable file: it is compiled with the starter's folder, so an editable header in it would put
the starter's code into the solutions track's driver. Reads what each object's compile read from Ninja's
record (`ninja -t deps`).

    check_driver_objects.py BUILD_DIR COURSE [NINJA]

Exit status: 0 none did, 1 one did (named), 2 the build has no such object or no record of it.
"""
import glob
import json
import os
import subprocess
import sys

MARKER = ".objects.dir/"


def editable_files(course):
    """Every file a submission may edit (lessons/<id>/<file> of each lesson.json), and solutions/."""
    files = set()
    for manifest in glob.glob(os.path.join(course, "lessons", "*", "lesson.json")):
        with open(manifest) as f:
            for name in json.load(f).get("editable", []):
                files.add(os.path.realpath(os.path.join(os.path.dirname(manifest), name)))
    return files


def objects_and_inputs(build, ninja):
    """{object: [the files its compile read]} for the drivers compiled once, from `ninja -t deps`."""
    listing = subprocess.run([ninja, "-C", build, "-t", "deps"], capture_output=True, text=True, check=True)
    objects, current = {}, None
    for line in listing.stdout.splitlines():
        if line and not line.startswith(" "):
            name = line.split(":")[0]
            current = name if MARKER in name and "/driver." in name else None
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
    solutions = os.path.realpath(os.path.join(course, "solutions")) + os.sep
    bad = 0
    for name, inputs in sorted(objects.items()):
        if not inputs:
            print(f"check_driver_objects: {name}: Ninja has no record of what its compile read")
            return 2
        read = sorted({path for path in inputs if path in editable or path.startswith(solutions)})
        for path in read:
            print(f"{name}: reads the editable file {os.path.relpath(path, course)}: a driver compiled once for"
                  " both tracks may include only given headers (or compile it per track in cmake/Lessons.cmake)")
        bad += bool(read)
    print(f"check_driver_objects: {len(objects)} drivers compiled once, {bad} reading an editable file")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
