"""A checkout of another revision beside this one, for the scripts that compare the two side by side."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


@contextmanager
def checkout(rev: str, tree: Path | None = None) -> Iterator[Path]:
    """`tree` when given (a checkout kept from an earlier run: its numba cache is then warm), else a
    new `git worktree` of `rev`, removed afterwards."""
    if tree is not None:
        yield tree
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(base), rev], check=True,
                       capture_output=True)
        try:
            yield base
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(base)], check=False,
                           capture_output=True)
