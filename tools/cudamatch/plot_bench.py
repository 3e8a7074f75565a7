#!/usr/bin/env python3
"""Plot a `cudamatch bench` CSV: GB/s against pattern length, one panel per corpus, one line per
matcher and backend; or a `cudamatch bench --multi` CSV (it has a pattern_count column): GB/s against
the number of patterns, one panel per corpus and kind of set. Usage: plot_bench.py BENCH.csv OUT.png"""
import csv
import sys
from collections import defaultdict

ALGORITHMS = ["bf", "kmp", "bm", "sunday", "epsm", "ssef"]


def is_auto(row):
    """Whether a row is an auto row ("auto" on the CPU, "auto:cuda"): the matcher the dispatch table picks."""
    return row["matcher"].split(":")[0] == "auto"


def is_peer(row):
    """Whether a row is a peer's (memmem, std-bmh, hyperscan: what users pick instead), a CPU row of none
    of the six algorithms and no auto row."""
    return row["backend"] == "cpu" and row["matcher"] not in ALGORITHMS and not is_auto(row)


def read_bandwidth(rows):
    """The device read bandwidth measured in the same run, from the GPU rows that carry it (their median)."""
    ceilings = sorted(float(r["gbps"]) * 100 / float(r["pct_of_read"]) for r in rows
                      if float(r.get("pct_of_read") or 0) > 0)
    return ceilings[len(ceilings) // 2] if ceilings else None


def finish(fig, axes, rows, png_path, title):
    """One legend for every panel's lines, the title, and the PNG."""
    handles, names = [], []
    for ax in axes:
        for h, n in zip(*ax.get_legend_handles_labels()):
            if n not in names:
                handles.append(h)
                names.append(n)
    fig.legend(handles, names, fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.suptitle(title + " on " + " and ".join(dict.fromkeys(r["device"] for r in rows)))
    fig.tight_layout()
    fig.savefig(png_path, dpi=120, bbox_inches="tight")


def plot_multi(plt, rows, png_path):
    """bench --multi: GB/s against the number of patterns; a column of panels per corpus, a row per kind of
    set (drawn from the corpus, random ones not in it); the GPU's versions solid, the CPU's rows dashed."""
    corpora = list(dict.fromkeys(r["corpus"] for r in rows))
    kinds = list(dict.fromkeys(r["kind"] for r in rows))
    fig, axes = plt.subplots(len(kinds), len(corpora), figsize=(5.5 * len(corpora), 4.0 * len(kinds)),
                             squeeze=False, sharex=True, sharey=True)
    for row_axes, kind in zip(axes, kinds):
        for ax, corpus in zip(row_axes, corpora):
            mine = [r for r in rows if r["corpus"] == corpus and r["kind"] == kind]
            for i, matcher in enumerate(dict.fromkeys(r["matcher"] for r in rows)):
                points = sorted((int(r["pattern_count"]), float(r["gbps"])) for r in mine if r["matcher"] == matcher)
                if not points:
                    continue
                backend = next(r["backend"] for r in mine if r["matcher"] == matcher)
                ax.plot([p for p, _ in points], [g for _, g in points], label=f"{matcher} ({backend})",
                        color=f"C{i}", marker="o", markersize=3, linestyle="-" if backend == "cuda" else "--")
            ceiling = read_bandwidth(mine)
            if ceiling:
                ax.axhline(ceiling, color="black", linestyle=":", linewidth=1, label="device read bandwidth (measured)")
            synthetic = any(r["synthetic"] == "1" for r in mine)
            ax.set_title(f"{corpus}{' (synthetic stand-in)' if synthetic else ''}: {kind} patterns")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.grid(True, which="both", alpha=0.3)
        row_axes[0].set_ylabel("GB/s (count of the whole set)")
    for ax in axes[-1]:
        ax.set_xlabel("patterns in the set (8-32 bytes each)")
    finish(fig, list(axes.flat), rows, png_path, "cudamatch bench --multi")


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
    if "pattern_count" in rows[0]:
        plot_multi(plt, rows, png_path)
        return
    corpora = list(dict.fromkeys(r["corpus"] for r in rows))
    series = defaultdict(list)  # (corpus, label) -> [(m, gbps)]
    peers = {r["matcher"] for r in rows if is_peer(r)}
    for r in rows:
        label = r["matcher"] if is_peer(r) else f'{r["matcher"]} ({r["backend"]})'
        series[(r["corpus"], label)].append((int(r["m"]), float(r["gbps"])))
    labels = list(dict.fromkeys(label for (_, label) in series))
    # One colour per algorithm; the line says which run of it: GPU v0 dashed, the GPU's best solid,
    # batched searches solid with square markers, the CPU dotted, the peers dashed, the auto rows thin black.
    palette = dict(zip(ALGORITHMS + ["memmem", "std-bmh", "hyperscan"],
                       ["C0", "C1", "C2", "C3", "C4", "C5", "C7", "C8", "C6"]))

    cpu_only = all(r["backend"] == "cpu" for r in rows)

    def style(label):
        name = label.split(" (")[0]
        algorithm = name.split(":")[0].split(" ")[0]
        colour = palette.get(algorithm, "C9")
        if algorithm == "auto":
            return dict(color="black", linestyle="-" if name == "auto:cuda" else ":", marker="x", markersize=4,
                        linewidth=1)
        if label in peers:
            return dict(color=colour, linestyle="--", marker=".", linewidth=1.2)
        if label.endswith("(cpu)"):
            return dict(color=colour, linestyle="-" if cpu_only else ":", marker=".", linewidth=1.2)
        if "batch" in name:
            return dict(color=colour, linestyle="-", marker="s", markersize=3, alpha=0.6)
        if name.endswith(":v0"):
            return dict(color=colour, linestyle="--", marker="o", markersize=3)
        return dict(color=colour, linestyle="-", marker="o", markersize=3, linewidth=2)

    fig, axes = plt.subplots(1, len(corpora), figsize=(5.5 * len(corpora), 4.5), squeeze=False, sharey=True)
    for ax, corpus in zip(axes[0], corpora):
        for label in labels:
            points = sorted(series.get((corpus, label), []))
            if points:
                ax.plot([m for m, _ in points], [g for _, g in points], label=label, **style(label))
        ceiling = read_bandwidth([r for r in rows if r["corpus"] == corpus])
        if ceiling:
            ax.axhline(ceiling, color="black", linestyle=":", linewidth=1, label="device read bandwidth (measured)")
        synthetic = any(r["corpus"] == corpus and r["synthetic"] == "1" for r in rows)
        ax.set_title(corpus + (" (synthetic stand-in)" if synthetic else ""))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("pattern length m (bytes)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("GB/s per search (median over patterns)")
    finish(fig, list(axes[0]), rows, png_path, "cudamatch bench")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
