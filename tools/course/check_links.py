#!/usr/bin/env python3
"""Checks that every relative link of the course's Markdown files names a file or folder that exists:
`[text](path)` and `![alt](path)`, resolved from the file's folder, a `#fragment` ignored. Links to
other sites (a scheme such as https:) and to a place in the same file (`#...`) are not checked; code
(fenced blocks and `inline spans`) holds no links.

    tools/course/check_links.py [--root DIR]

The files: in a git checkout, the Markdown files git tracks and the untracked ones it does not ignore;
elsewhere every *.md below DIR outside hidden and build folders. Prints one line per broken link
(`file:line: target`) and exits 1, or a one-line summary and exits 0.
"""
import argparse
import pathlib
import re
import subprocess
import sys
import urllib.parse

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target) or ![alt](target), the target up to whitespace or ')' (an optional "title" after it).
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def markdown_files(root: pathlib.Path):
    """The Markdown files to check, sorted."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-co", "--exclude-standard", "--", "*.md"],
                            capture_output=True, text=True, check=False)
    inside = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-prefix"], capture_output=True,
                            text=True, check=False)
    if listed.returncode == 0 and inside.returncode == 0 and inside.stdout.strip() == "":
        return sorted(root / name for name in listed.stdout.splitlines() if (root / name).is_file())
    skipped = lambda part: part.startswith(".") or part.startswith("build")  # noqa: E731
    return sorted(path for path in root.rglob("*.md")
                  if not any(skipped(part) for part in path.relative_to(root).parts[:-1]))


def links(text: str):
    """(line number, target) of every link outside code."""
    in_fence = None
    for number, line in enumerate(text.splitlines(), 1):
        fence = FENCE.match(line)
        if fence:
            in_fence = None if in_fence == fence.group(1) else (in_fence or fence.group(1))
            continue
        if in_fence:
            continue
        for match in LINK.finditer(CODE_SPAN.sub("", line)):
            yield number, match.group(1)


def relative_links(path: pathlib.Path):
    """(line, target, whether it names something) of the links of `path` into the tree."""
    for number, target in links(path.read_text(encoding="utf-8")):
        if SCHEME.match(target) or target.startswith("#"):
            continue
        relative = urllib.parse.unquote(target.split("#", 1)[0])
        yield number, target, (path.parent / relative).exists()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parents[2],
                        help="the course's root folder (default: this checkout)")
    root = parser.parse_args(argv).root.resolve()
    files = markdown_files(root)
    problems = []
    count = 0
    for path in files:
        for line, target, exists in relative_links(path):
            count += 1
            if not exists:
                problems.append(f"{path.relative_to(root).as_posix()}:{line}: {target}")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_links: {len(problems)} of {count} relative links name nothing")
        return 1
    print(f"check_links: {count} relative links in {len(files)} Markdown files, each names a file or folder")
    return 0


if __name__ == "__main__":
    sys.exit(main())
