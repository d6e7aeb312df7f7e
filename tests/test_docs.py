"""The documentation: the site builds with every warning an error (a broken link, an anchor that
is gone or a page left out of the navigation fails), the README stays a short front page, no
reference text carries history (commit hashes belong in CHANGELOG.md and commit messages), game
READMEs are short indexes, and the code cites only documents the repository holds."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# a commit hash as git abbreviates it: 7 to 40 hex digits with at least one digit and one letter
HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", *patterns],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / p for p in out if (ROOT / p).is_file()]


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-4000:]
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text()
    for command in ("sweep", "check", "report", "tune", "train", "replay", "bench"):
        assert f"simkit {command}" in cli  # generated from the typer app, not written by hand
    assert "--until-decided" in cli


def test_the_readme_is_a_short_front_page():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines: reference material goes to docs/"
    text = "\n".join(lines)
    assert "make demo" in text and "make test" in text


@pytest.mark.parametrize("page", ["README.md", *sorted(str(p.relative_to(ROOT)) for p in tracked("docs/*.md"))])
def test_no_commit_hash_in_the_readme_or_a_reference_page(page):
    found = [(n, m.group()) for n, line in enumerate((ROOT / page).read_text().splitlines(), 1)
             for m in HASH.finditer(line)]
    assert found == [], f"{page}: commit hashes (line, hash) {found[:5]}: history goes to CHANGELOG.md"


def test_the_hash_pattern_finds_hashes_and_spares_words_and_checksums():
    assert HASH.findall("at 19ac9dd and 0eec379") == ["19ac9dd", "0eec379"]
    assert HASH.findall("a decade of 1234567 games, sha256 " + "ab12" * 16) == []


@pytest.mark.parametrize("readme", sorted(f"simkit/games/{p.parent.name}/README.md"
                                           for p in (ROOT / "simkit" / "games").glob("*/__init__.py")))
def test_a_game_readme_is_a_short_index(readme):
    lines = (ROOT / readme).read_text().splitlines()
    assert len(lines) <= 150, f"{readme} has {len(lines)} lines: the game's docs page holds the rest"
    assert "docs/games/" in "\n".join(lines)


def test_the_code_cites_only_documents_in_the_repository():
    """Documents named in code must be there: no design notes kept outside the repository."""
    outside = re.compile(r"\b(?:DESIGN|STYLE|DEVELOPERS)(?:\b|\.md)")
    # a document cited by path (docs/x.md, simkit/games/g/README.md) or by an upper-case name
    # (README.md, CHANGELOG.md); a bare lower-case name is a file a test or a command makes
    doc = re.compile(r"(?<![\w/.-])((?:[\w-]+/)+[\w-]+\.md|[A-Z][A-Z_]*\.md)\b")
    bad = []
    for path in tracked("*.py"):
        if path == Path(__file__).resolve():
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if outside.search(line):
                bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}")
            for name in doc.findall(line):
                here = [ROOT / name, path.parent / name, ROOT / "docs" / name]
                if not any(p.exists() for p in here):
                    bad.append(f"{path.relative_to(ROOT)}:{n}: cites {name}, which the repository lacks")
    assert bad == [], "\n".join(bad[:20]) + f"\n({len(bad)} in all)"


def test_the_readme_games_table_says_what_the_coverage_data_says():
    from simkit.core import coverage

    readme = (ROOT / "README.md").read_text()
    for game_dir in sorted((ROOT / "simkit" / "games").glob("*/__init__.py")):
        game_id = game_dir.parent.name
        cov = coverage.load(game_id)
        row = next((line for line in readme.splitlines() if f"(docs/games/{game_id}.md)" in line and "|" in line), None)
        assert row is not None, f"README.md's games table has no row for {game_id}"
        assert coverage.summary(cov) in row, f"{game_id}: the row should say '{coverage.summary(cov)}'"
        assert f"A1–A{len(cov.assumptions)}" in row
