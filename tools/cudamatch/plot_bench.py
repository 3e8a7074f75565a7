#!/usr/bin/env python3
"""Plot a `cudamatch bench` CSV: GB/s against pattern length, one panel per corpus, one line per
matcher and backend. Usage: plot_bench.py BENCH.csv OUT.png"""
import csv
import sys
from collections import defaultdict


def main(csv_path, png_path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_bench.py: matplotlib is not installed (Debian: apt-get install python3-matplotlib)")
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"plot_bench.py: {csv_path} has no measurements")
    corpora = list(dict.fromkeys(r["corpus"] for r in rows))
    series = defaultdict(list)  # (corpus, label) -> [(m, gbps)]
    for r in rows:
        label = r["matcher"] if r["backend"] == "cpu" and r["matcher"] in ("memmem", "std-bmh") else f'{r["matcher"]} ({r["backend"]})'
        series[(r["corpus"], label)].append((int(r["m"]), float(r["gbps"])))
    labels = list(dict.fromkeys(label for (_, label) in series))
    fig, axes = plt.subplots(1, len(corpora), figsize=(5.5 * len(corpora), 4.5), squeeze=False, sharey=True)
    for ax, corpus in zip(axes[0], corpora):
        for label in labels:
            points = sorted(series.get((corpus, label), []))
            if points:
                dashed = label in ("memmem", "std-bmh")
                ax.plot([m for m, _ in points], [g for _, g in points], marker="o", markersize=3,
                        linestyle="--" if dashed else "-", label=label)
        synthetic = any(r["corpus"] == corpus and r["synthetic"] == "1" for r in rows)
        ax.set_title(corpus + (" (synthetic stand-in)" if synthetic else ""))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("pattern length m (bytes)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("GB/s per search (median over patterns)")
    axes[0][-1].legend(fontsize=8, loc="best")
    fig.suptitle("cudamatch bench on " + " and ".join(dict.fromkeys(r["device"] for r in rows)))
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
