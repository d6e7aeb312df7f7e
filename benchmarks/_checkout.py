"""A checkout of another revision beside this one, for the scripts that compare the two side by side."""

from __future__ import annotations

import argparse
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
        done = subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(base), rev],
                              check=False, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"error: --base {rev}: no such revision to check out here "
                             f"({done.stderr.strip().splitlines()[-1:]}); give a commit or branch of this repository")
        try:
            yield base
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(base)], check=False,
                           capture_output=True)


def _setting(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def side_by_side_parser(doc: str) -> argparse.ArgumentParser:
    """The arguments of every script that compares this checkout with another revision: --base,
    --base-dir, --base-env (NAME=VALUE set for the base side only: `--base HEAD --base-dir .
    --base-env SIMKIT_NUMBA_PATCHES=0` compares this checkout with itself unpatched) and --games
    (every registered game unless given)."""
    from simkit import games as registry

    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the revision compared against (e.g. main, a commit)")
    parser.add_argument("--base-dir", type=Path, help="a checkout of the base to reuse instead of a new worktree")
    parser.add_argument("--base-env", action="append", default=[], type=_setting, metavar="NAME=VALUE",
                        help="an environment variable for the base side only (repeatable)")
    def games(text: str) -> str:
        unknown = [g for g in text.split(",") if g not in registry.ids()]
        if unknown:
            raise argparse.ArgumentTypeError(f"unknown game {unknown[0]!r}; the games: {', '.join(registry.ids())}")
        return text

    parser.add_argument("--games", type=games, default=",".join(registry.ids()), help="comma-separated game ids")
    return parser
