"""The markers that delimit rendered text in Markdown files.

  inline figure:  <!-- fig:11.v3_over_v0 -->7.39x<!-- /fig -->          (on one line)
  inline part:    <!-- generated:edit-12 -->`a.cu`<!-- /generated -->   (on one line, inside other text)
  table figure:   <!-- table:11.results -->            (the markers on lines of their own,
                  | ... the table ... |                  the rendered lines between them)
                  <!-- /table -->
  generated part: <!-- generated:lessons --> ... <!-- /generated -->   (like a table: markers alone on their lines)

Markers inside fenced code blocks are text, not markers (docs show the syntax that way)."""

import re
from dataclasses import dataclass

INLINE = re.compile(r"<!-- (?P<kind>fig|generated):(?P<id>[^\s>]+) -->(?P<body>.*?)<!-- /(?P=kind) -->")
BLOCK = re.compile(
    r"^<!-- (?P<kind>table|generated):(?P<id>[^\s>]+) -->\n(?P<body>.*?)^<!-- /(?P=kind) -->$",
    re.MULTILINE | re.DOTALL,
)
OPENING = re.compile(r"<!-- (fig|table|generated):")
# A fence: 3 or more backticks (an info string after them holds none) or tildes, at the start of a line.
FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}(?=[^`\n]*$)|~{3,})(?P<info>[^\n]*)$", re.MULTILINE)


class MarkerError(ValueError):
    pass


@dataclass(frozen=True)
class Region:
    kind: str  # "fig", "table" or "generated"
    id: str
    body: str  # the text between the markers (a block's: whole lines, each ending in "\n")
    start: int  # offsets of the body in the text
    end: int
    opening: int  # offset of the opening marker
    line: int  # 1-based line of the opening marker
    block: bool  # markers on lines of their own (a table, a generated part), not inside a line


def fenced_spans(text: str) -> list:
    """(start, end) offsets of the fenced code blocks, their fence lines included. A block closes at a
    fence of the character that opened it, at least as long, with nothing after it (so a ``` line inside a
    ```` block is code); an unclosed block runs to the end."""
    spans = []
    opening = None
    for fence in FENCE.finditer(text):
        if opening is None:
            opening = fence
        elif (fence["fence"][0] == opening["fence"][0] and len(fence["fence"]) >= len(opening["fence"])
              and not fence["info"].strip()):
            spans.append((opening.start(), fence.end()))
            opening = None
    if opening is not None:
        spans.append((opening.start(), len(text)))
    return spans


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def find_regions(text: str) -> list:
    """Every marked region in text order; MarkerError names a marker that is not closed."""
    fenced = fenced_spans(text)

    def outside_code(offset):
        return not any(start <= offset < end for start, end in fenced)

    regions = []
    for pattern in (INLINE, BLOCK):
        for m in pattern.finditer(text):
            if outside_code(m.start()):
                start, end = m.start("body"), m.end("body")
                line = line_of(text, m.start())
                regions.append(Region(m["kind"], m["id"], m["body"], start, end, m.start(), line, pattern is BLOCK))
    regions.sort(key=lambda r: r.start)
    closed = {r.opening for r in regions}
    for m in OPENING.finditer(text):
        if outside_code(m.start()) and m.start() not in closed:
            raise MarkerError(f"line {line_of(text, m.start())}: a marker without its closing marker "
                              "(a table or generated marker must be alone on its line)")
    for before, after in zip(regions, regions[1:]):
        if after.opening < before.end:
            raise MarkerError(f"line {after.line}: a marker inside the region opened on line {before.line}")
    return regions


def replace_bodies(text: str, regions: list, bodies: list) -> str:
    """The text with each region's body replaced by the body at the same index."""
    pieces, last = [], 0
    for region, body in zip(regions, bodies):
        pieces += [text[last : region.start], body]
        last = region.end
    pieces.append(text[last:])
    return "".join(pieces)
