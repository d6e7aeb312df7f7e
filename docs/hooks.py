"""MkDocs hook: fills the generated parts of the pages from the code, so they cannot go stale.

- `<!-- cli-reference -->` becomes the reference of every `simkit` command, generated from the
  typer app (typer's own documentation generator).
- `<!-- games-table -->` becomes the table of the shipped games: players, variants, component sets,
  how the rule inventory is answered and how many assumptions are registered.
- `<!-- coverage: GAME -->` and `<!-- assumptions: GAME -->` become the game's rules coverage
  table and assumption register, rendered from its coverage.toml (simkit.core.coverage), the data
  tests/test_coverage.py checks against the code.
"""

import re

_MARK = re.compile(r"<!--\s*(coverage|assumptions):\s*([a-z_]+)\s*-->")
_CLI = "<!-- cli-reference -->"
_GAMES = "<!-- games-table -->"


def cli_reference() -> str:
    import typer
    import typer.cli

    from simkit.commands.cli import app

    command = typer.main.get_command(app)
    text = typer.cli.get_docs_for_click(obj=command, ctx=typer.Context(command), name="simkit", title="simkit")
    body = text.split("\n", 1)[1]  # the page has its own title
    return body.replace("## `simkit ", "## `simkit ").replace("**Usage**:", "**Usage:**")


def games_table(folder: str = "") -> str:
    """The games table; `folder` prefixes each game page's link (the README's is docs/games/)."""
    from simkit import games
    from simkit.core import components, coverage

    rows = ["| game | players | variants | component sets | rules coverage | assumptions |",
            "|---|---|---|---|---|---|"]
    for game_id in sorted(p.name for p in (coverage.ROOT / "simkit" / "games").iterdir() if (p / "__init__.py").exists()):
        game, cov = games.get(game_id), coverage.load(game_id)
        sets = [s for s in components.shipped(games.folder(game_id) / "components") if s != components.BASE]
        players = f"{min(game.players)}–{max(game.players)}"
        rows.append(f"| [{game.title}]({folder}{game_id}.md) | {players} | {', '.join(game.rules.variant_names())} "
                    f"| {', '.join(f'`{s}`' for s in sets) or '—'} | {coverage.summary(cov)} "
                    f"| A1–A{len(cov.assumptions)} |")
    return "\n".join(rows) + "\n"


def on_page_markdown(markdown, page, config, files):
    from simkit.core import coverage

    if _CLI in markdown:
        markdown = markdown.replace(_CLI, cli_reference())
    if _GAMES in markdown:
        markdown = markdown.replace(_GAMES, games_table())

    def fill(m):
        cov = coverage.load(m.group(2))
        return coverage.render_rules(cov) if m.group(1) == "coverage" else coverage.render_assumptions(cov)

    return _MARK.sub(fill, markdown)
