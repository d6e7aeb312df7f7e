"""The report as a list of blocks, written out as markdown (for CI summaries) and as one
self-contained HTML page (for people): inline CSS, plots embedded as base64 PNG, nothing
fetched from elsewhere.

Text may use `**bold**` for emphasis; everything else is taken literally.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: list[str]
    ordered: bool = False  # a ranked list: numbered


@dataclass(frozen=True)
class Table:
    """A table: `text_columns` leading columns of names, the rest figures, right-aligned so they line up."""

    header: list[str]
    rows: list[list[str]]
    text_columns: int = 1
    shades: list[list[str | None]] | None = None  # HTML background colour per cell (a heat-map table)


@dataclass(frozen=True)
class Plot:
    """A PNG under the report folder, by its path relative to that folder (e.g. plots/seats.png)."""

    path: str
    caption: str


@dataclass(frozen=True)
class Contents:
    """A table of contents: the level-2 headings that follow it, as links."""


Block = Heading | Paragraph | Bullets | Table | Plot | Contents

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?!\*)(.+?)(?<!\*)\*(?![*\w])")


MAX_ROWS = 200  # table rows and list items shown; a 10,000-cell grid keeps every figure in summary.json


def _shown(items: list) -> tuple[list, str]:
    """The first MAX_ROWS items, and a note saying how many were left out ('' if none)."""
    if len(items) <= MAX_ROWS:
        return items, ""
    return items[:MAX_ROWS], f"… {len(items) - MAX_ROWS:,} more not shown here; summary.json holds every one."


def anchor(text: str) -> str:
    """The id of a heading, as GitHub derives it: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-")


def _contents(blocks: list[Block], start: int) -> list[str]:
    return [block.text for block in blocks[start + 1:] if isinstance(block, Heading) and block.level == 2]


def to_markdown(blocks: list[Block], title: str) -> str:
    """GitHub-flavoured markdown; plots are linked by their relative path."""
    out: list[str] = [f"# {title}"]
    for index, block in enumerate(blocks):
        if isinstance(block, Contents):
            out.append("**Contents:** " + " · ".join(f"[{text}](#{anchor(text)})" for text in _contents(blocks, index)))
        elif isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}")
        elif isinstance(block, Paragraph):
            out.append(block.text)
        elif isinstance(block, Bullets):
            items, more = _shown(block.items)
            out.append("\n".join(f"{f'{n}.' if block.ordered else '-'} {item}" for n, item in enumerate(items, 1)))
            if more:
                out.append(more)
        elif isinstance(block, Table):
            align = ["---"] * block.text_columns + ["---:"] * (len(block.header) - block.text_columns)
            rows, more = _shown(block.rows)
            lines = [block.header, align, *rows]
            out.append("\n".join("| " + " | ".join(cell.replace("|", "\\|") for cell in line) + " |" for line in lines))
            if more:
                out.append(more)
        else:
            out.append(f"![{block.caption}]({block.path})")
    return "\n\n".join(out) + "\n"


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 72rem; margin: 2rem auto;
       padding: 0 1rem; color: #1d232a; line-height: 1.45; }
h1 { border-bottom: 2px solid #1d232a; padding-bottom: .3rem; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid #c9d1d9; padding-bottom: .2rem; }
div.table { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .88rem; }
nav.toc { font-size: .9rem; margin: 1rem 0; }
nav.toc ul { columns: 2 16rem; margin: .3rem 0; }
ol.headline li { margin-bottom: .35rem; }
th, td { border: 1px solid #c9d1d9; padding: .25rem .6rem; }
th { background: #f0f3f6; text-align: left; vertical-align: bottom; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; border: 1px solid #e1e4e8; }
figcaption { font-size: .88rem; color: #57606a; }
strong { color: #9a3412; }
"""


def _inline(text: str) -> str:
    return _ITALIC.sub(r"<em>\1</em>", _BOLD.sub(r"<strong>\1</strong>", html.escape(text)))


def _style(shade: str | None) -> str:
    return f' style="background:{shade}"' if shade else ""


def to_html(blocks: list[Block], title: str, folder: Path) -> str:
    """One HTML page; each plot is read from `folder` and embedded as a data URI."""
    body: list[str] = [f"<h1>{html.escape(title)}</h1>"]
    for index, block in enumerate(blocks):
        if isinstance(block, Contents):
            links = "".join(f'<li><a href="#{anchor(text)}">{html.escape(text)}</a></li>'
                            for text in _contents(blocks, index))
            body.append(f'<nav class=toc><strong>Contents</strong><ul>{links}</ul></nav>')
        elif isinstance(block, Heading):
            body.append(f'<h{block.level} id="{anchor(block.text)}">{_inline(block.text)}</h{block.level}>')
        elif isinstance(block, Paragraph):
            body.append(f"<p>{_inline(block.text)}</p>")
        elif isinstance(block, Bullets):
            tag = "ol class=headline" if block.ordered else "ul"
            items, more = _shown(block.items)
            body.append(f"<{tag}>" + "".join(f"<li>{_inline(item)}</li>" for item in items) + f"</{tag[:2]}>")
            if more:
                body.append(f"<p><em>{html.escape(more)}</em></p>")
        elif isinstance(block, Table):
            header = "".join(f"<th>{_inline(cell)}</th>" for cell in block.header)
            rows = []
            shown, more = _shown(block.rows)
            for number, row in enumerate(shown):
                shades = block.shades[number] if block.shades else [None] * len(row)
                cells = [
                    f"<td{' class=num' if column >= block.text_columns else ''}"
                    f"{_style(shade)}>{_inline(cell)}</td>"
                    for column, (cell, shade) in enumerate(zip(row, shades))
                ]
                rows.append("<tr>" + "".join(cells) + "</tr>")
            body.append(f"<div class=table><table><thead><tr>{header}</tr></thead><tbody>{''.join(rows)}</tbody>"
                        "</table></div>")
            if more:
                body.append(f"<p><em>{html.escape(more)}</em></p>")
        else:
            png = base64.b64encode((folder / block.path).read_bytes()).decode("ascii")
            body.append(
                f'<figure><img alt="{html.escape(block.caption)}" src="data:image/png;base64,{png}">'
                f"<figcaption>{html.escape(block.caption)}</figcaption></figure>"
            )
    return (
        "<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n"
        f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
