"""The human report of a sweep folder: report.md, a self-contained report.html and
plots/*.png (docs/reading-a-report.md). It only reads result tables and summary.json
(docs/architecture.md, "Layers and imports")."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from simkit.analysis.tables import length_counts
from simkit.core.files import write_text
from simkit.report.render import to_html, to_markdown
from simkit.report.sections import build

__all__ = ["headline_lines", "write_report"]


def write_report(folder: Path, summary: dict | None = None) -> Path:
    """Write report.md, report.html and plots/ into a sweep folder; return report.html's path.

    Reads summary.json (already written by the caller; `summary`: its contents when the caller
    has them, as a 10,000-cell grid's file is large), manifest.json when present, and the
    game-length distribution from games.parquet by a lazy group-by.
    """
    folder = Path(folder)
    if summary is None:
        summary = json.loads((folder / "summary.json").read_text())
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else None
    rounds = length_counts(pl.scan_parquet(folder / "games.parquet"), "rounds")
    blocks = build(summary, rounds, manifest, folder / "plots")
    title = f"simkit report: {folder.name}"
    write_text(folder / "report.md", to_markdown(blocks, title))  # each through a temporary file and a rename
    html_path = folder / "report.html"
    write_text(html_path, to_html(blocks, title, folder))
    return html_path


def headline_lines(folder: Path, items: int | None = None, summary: dict | None = None) -> list[str]:
    """The report's headline as plain text for a terminal: the same sentences in the same order
    as the report's Headline section (both are `simkit.report.sections.headline_parts`; only the
    pointer to More findings is worded for the terminal), after a "Headline:" line. `items`:
    findings per game when not the report's (by default the report's, so the two agree).
    `summary`: the folder's summary.json when the caller has read it already (a 10,000-cell
    grid's is large)."""
    from simkit.report.sections import headline_text

    if summary is None:
        summary = json.loads((Path(folder) / "summary.json").read_text())
    return headline_text(summary, items)
