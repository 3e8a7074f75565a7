#!/usr/bin/env python3
"""Checks that every relative link of the course's Markdown files names a file or folder of the tree:
`[text](path)` and `![alt](path)`, resolved from the file's folder (from the tree's root where it
starts with '/'), a `#fragment` or `?query` ignored. Links to other sites (a scheme such as https:) and
to a place in the same file (`#...`) are not checked; code (fenced blocks and `inline spans`) and HTML
comments hold no links.

    tools/course/check_links.py [--root DIR]

The files: in a git checkout, the Markdown files git tracks and the untracked ones it does not ignore;
elsewhere every *.md below DIR outside hidden and build folders. Prints one line per broken link
(`file:line: target`) and exits 1, or a one-line summary and exits 0.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from regions import fenced_spans  # noqa: E402

CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target) or ![alt](target): text with brackets one level deep; the target in <...> (spaces
# allowed) or up to whitespace, with parentheses one level deep; an optional "title", 'title' or (title).
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(?:<([^>\n]*)>|((?:[^()\s]|\([^()\s]*\))+))"
                  r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def git_markdown_files(root: pathlib.Path):
    """The Markdown files git tracks below `root`, the root of a checkout, and the untracked ones it does
    not ignore; None where `root` is no checkout's root or there is no git."""
    try:
        inside = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-prefix"], capture_output=True,
                                text=True, check=False)
        listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "-co", "--exclude-standard", "--", "*.md"],
                                capture_output=True, check=False)
    except OSError:
        return None
    if inside.returncode != 0 or inside.stdout.strip() != "" or listed.returncode != 0:
        return None
    names = [name for name in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if name]
    return sorted(root / name for name in names if (root / name).is_file())


def markdown_files(root: pathlib.Path):
    """The Markdown files to check, sorted: git's (git_markdown_files), else every *.md below `root` outside
    hidden folders and build folders (build, build-*)."""
    files = git_markdown_files(root)
    if files is not None:
        return files
    skipped = lambda part: part.startswith(".") or part == "build" or part.startswith("build-")  # noqa: E731
    return sorted(path for path in root.rglob("*.md")
                  if not any(skipped(part) for part in path.relative_to(root).parts[:-1]))


def outside_comments(line: str, in_comment: bool):
    """(the parts of `line` outside HTML comments, whether a comment is still open at its end)."""
    kept = ""
    while line:
        if in_comment:
            end = line.find("-->")
            if end < 0:
                return kept, True
            line, in_comment = line[end + 3:], False
        else:
            start = line.find("<!--")
            if start < 0:
                return kept + line, False
            kept, line, in_comment = kept + line[:start], line[start + 4:], True
    return kept, in_comment


def links(text: str):
    """(line number, target) of every link outside code (regions.fenced_spans: the fenced blocks the
    course's rendered regions skip too; inline spans) and HTML comments."""
    fenced = fenced_spans(text)
    in_comment = False
    start = 0  # the line's offset in text
    for number, line in enumerate(text.split("\n"), 1):
        at, start = start, start + len(line) + 1
        if any(begin <= at < end for begin, end in fenced):
            continue
        line, in_comment = outside_comments(CODE_SPAN.sub("", line), in_comment)
        for match in LINK.finditer(line):
            yield number, match.group(1) if match.group(1) is not None else match.group(2)


def relative_links(root: pathlib.Path, path: pathlib.Path):
    """(line, target, whether it names something in the tree) of the links of `path` into the tree: a
    path from the file's folder, or from the root where it starts with '/'; a #fragment or ?query is not
    part of it."""
    for number, target in links(path.read_text(encoding="utf-8", errors="replace")):
        if SCHEME.match(target) or target.startswith("#"):
            continue
        relative = urllib.parse.unquote(re.split(r"[#?]", target, maxsplit=1)[0])
        named = pathlib.Path(os.path.normpath(root / relative.lstrip("/") if relative.startswith("/")
                                              else path.parent / relative))  # links inside the tree kept
        yield number, target, named.exists() and (named == root or root in named.parents)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parents[2],
                        help="the course's root folder (default: this checkout)")
    root = parser.parse_args(argv).root.resolve()
    files = markdown_files(root)
    problems = []
    count = 0
    for path in files:
        for line, target, exists in relative_links(root, path):
            count += 1
            if not exists:
                problems.append(f"{path.relative_to(root).as_posix()}:{line}: {target}")
    if not files:
        print(f"check_links: no Markdown file below {root}")
        return 1
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_links: {len(problems)} of {count} relative links name nothing")
        return 1
    print(f"check_links: {count} relative links in {len(files)} Markdown files, each names a file or folder")
    return 0


if __name__ == "__main__":
    sys.exit(main())
