"""Run a command and report its wall time and the peak resident memory of its whole process tree.

    .venv/bin/python benchmarks/peak_memory.py .venv/bin/simkit sweep experiments/big_grid.toml --jobs 2

Samples every 50 ms the resident set of the command and of every process it started (a
sweep's loky workers too) and prints the largest sum seen and the largest single process.
Big-grid memory figures are measured this way.
"""

from __future__ import annotations

import subprocess
import sys
import time

import psutil


def main(command: list[str]) -> int:
    began = time.perf_counter()
    proc = subprocess.Popen(command)
    root = psutil.Process(proc.pid)
    peak_sum = peak_one = 0
    while proc.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        sizes = []
        for p in tree:
            try:
                sizes.append(p.memory_info().rss)
            except psutil.NoSuchProcess:
                pass
        peak_sum, peak_one = max(peak_sum, sum(sizes)), max(peak_one, max(sizes, default=0))
        time.sleep(0.05)
    seconds = time.perf_counter() - began
    print(f"exit {proc.returncode}; {seconds:.1f} s; peak resident memory {peak_sum / 2**20:,.0f} MiB summed over the "
          f"process tree ({peak_one / 2**20:,.0f} MiB the largest process)", file=sys.stderr)
    return proc.returncode


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
