"""The HTML report in a real browser (headless Chromium, the Debian package): it loads with
no console error, every image loads, the headline shows without scrolling, nothing is wider
than the window. The screenshot is kept as a test artefact in test-artefacts/ (or
$SIMKIT_ARTEFACTS). Without Chromium the test skips locally and fails under CI=true."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from simkit.analysis.summary import summarize
from simkit.report import write_report
from tests.browser import check_page, find_chromium
from tests.test_stats import write_sweep

ARTEFACTS = Path(os.environ.get("SIMKIT_ARTEFACTS", Path(__file__).resolve().parent.parent / "test-artefacts"))


@pytest.fixture(scope="module")
def chromium():
    found = find_chromium()
    if found:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail("chromium is missing in CI: .ci/run installs it (apt-get install -y chromium)")
    pytest.skip("chromium is not installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = write_sweep(tmp_path_factory.mktemp("browser") / "sweep")
    (folder / "summary.json").write_text(json.dumps(summarize(folder)))
    return write_report(folder)


def test_report_renders_in_chromium(chromium, report):
    shot = ARTEFACTS / "report-first-screen.png"
    found = check_page(report, shot, chromium)
    assert found.problems() == []
    assert found.images == report.read_text().count("<img ")
    assert found.images >= 5
    # a dominant strategy leads the headline (raider, in this hand-built sweep), then the round cap
    first, second = found.headline_text.splitlines()[:2]
    assert first.startswith("Dominant strategy, 3 players, standard: raider finishes ahead")
    assert second.startswith("3 players, standard: 25.0% of games hit the")  # the check keeps 200 characters
    assert shot.read_bytes().startswith(b"\x89PNG")


def test_the_browser_check_sees_a_broken_page(chromium, report, tmp_path):
    """The check can fail: a missing image, a script error and a headline pushed below the
    first screen are each reported."""
    page = report.read_text()
    broken = page.replace("<body>", '<body><div style="height:2000px"></div><img src="missing.png">'
                          "<script>console.error('boom')</script>", 1)
    path = tmp_path / "broken.html"
    path.write_text(broken)
    problems = "\n".join(check_page(path, None, chromium).problems())
    assert "image did not load" in problems
    assert "console error" in problems and "boom" in problems
    assert "headline is not visible" in problems
