"""MkDocs hook: fills the generated parts of the pages from the code, so they cannot go stale.

- `<!-- cli-reference -->` becomes the reference of every `simkit` command, generated from the
  typer app (typer's own documentation generator).
- `<!-- coverage: GAME -->` and `<!-- assumptions: GAME -->` become the game's rules coverage
  table and assumption register, rendered from its coverage.toml (simkit.coverage), the data
  tests/test_coverage.py checks against the code.
"""

import re

_MARK = re.compile(r"<!--\s*(coverage|assumptions):\s*([a-z_]+)\s*-->")
_CLI = "<!-- cli-reference -->"


def cli_reference() -> str:
    import typer
    import typer.cli

    from simkit.cli import app

    command = typer.main.get_command(app)
    text = typer.cli.get_docs_for_click(obj=command, ctx=typer.Context(command), name="simkit", title="simkit")
    body = text.split("\n", 1)[1]  # the page has its own title
    return body.replace("## `simkit ", "## `simkit ").replace("**Usage**:", "**Usage:**")


def on_page_markdown(markdown, page, config, files):
    from simkit import coverage

    if _CLI in markdown:
        markdown = markdown.replace(_CLI, cli_reference())

    def fill(m):
        cov = coverage.load(m.group(2))
        return coverage.render_rules(cov) if m.group(1) == "coverage" else coverage.render_assumptions(cov)

    return _MARK.sub(fill, markdown)
