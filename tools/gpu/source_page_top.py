#!/usr/bin/env python3
"""The SASS instructions of a kernel that its warps stalled on most, from Nsight Compute's source page.

The page is per instruction (hundreds of rows, some 60 columns): too large to keep in docs/results,
and its addresses change from run to run. This keeps what the results quote: per kernel, the stall
samples and instructions executed in all, then the TOP instructions with the most samples (their
offset from the kernel's first instruction, samples, share of all samples, times executed by a warp).

  ncu ... --section SourceCounters --import-source yes -o REPORT <program>
  ncu --import REPORT.ncu-rep --page source --csv --print-source sass > PAGE.csv
  tools/gpu/source_page_top.py PAGE.csv [--top 12] > SUMMARY.txt
"""
import argparse
import csv
import sys

SAMPLES = "Warp Stall Sampling (All Samples)"
EXECUTED = "Instructions Executed"


def kernels(rows):
    """(kernel name, header, instruction rows) for each kernel of the page."""
    found = []
    for row in rows:
        if not row:
            continue
        if row[0] == "Kernel Name":
            found.append([row[1], None, []])
        elif row[0] == "Address" and found:
            found[-1][1] = row
        elif found and found[-1][1] is not None and len(row) == len(found[-1][1]):
            found[-1][2].append(row)
    return found


def summary(name, header, rows, top):
    samples_at, executed_at, source_at = header.index(SAMPLES), header.index(EXECUTED), header.index("Source")
    first = int(rows[0][0], 16)
    samples = sum(int(r[samples_at]) for r in rows)
    executed = sum(int(r[executed_at]) for r in rows)
    lines = [f"kernel: {name}",
             f"instructions: {len(rows)}; warp instructions executed: {executed}; stall samples: {samples}",
             f"{'offset':>8} {'samples':>8} {'share':>7} {'executed':>10}  sass"]
    for r in sorted(rows, key=lambda r: -int(r[samples_at]))[:top]:
        share = 100.0 * int(r[samples_at]) / samples if samples else 0.0
        lines.append(f"{int(r[0], 16) - first:>#8x} {int(r[samples_at]):>8} {share:>6.1f}% {int(r[executed_at]):>10}  "
                     f"{r[source_at].strip()}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("page", help="the CSV of `ncu --import ... --page source --csv --print-source sass`")
    parser.add_argument("--top", type=int, default=12, help="instructions listed per kernel (default 12)")
    args = parser.parse_args()
    with open(args.page, newline="") as f:
        found = kernels(csv.reader(f))
    if not found or any(header is None or not rows for _, header, rows in found):
        sys.exit(f"source_page_top: {args.page}: no kernel with a source table (is it ncu's --page source --csv?)")
    print("\n\n".join(summary(name, header, rows, args.top) for name, header, rows in found))


if __name__ == "__main__":
    main()
