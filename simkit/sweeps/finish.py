"""A finished sweep's summary and report, built from its tables (docs/results.md).

The tables are written by simkit.sweeps.results, which knows nothing of what is read from
them; this module, above the analysis and the report, writes `summary.json`
(simkit.analysis.summary) and the report (simkit.report) at a sweep's end, again for
`simkit report DIR`, and what a sweep stopped while writing them left unwritten (a resume of a
complete folder). The summary builder and the report are imported when first needed: a sweep
without a report never loads matplotlib."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from simkit.core.errors import InputError
from simkit.core.files import fix_for, json_text, why, write_text
from simkit.sweeps.results import (
    Claim,
    check_tables,
    remember_summary,
    remove_leftovers,
    rerun_hint,
    verify_tables,
    write_final_tables,
)


def write_summary(folder: Path) -> dict:
    """Write summary.json from the tables; return it.

    The report and the terminal's headline then use it without parsing the file again (a
    10,000-cell grid's is 60 MB): Results.summary takes it while the file is the one written.
    """
    from simkit.analysis.summary import summarize

    summary = summarize(folder)
    path = Path(folder) / "summary.json"
    write_text(path, json_text(summary))
    remember_summary(path, summary)
    return summary


def rebuild_report(folder: Path) -> Path:
    """summary.json and the report again from the result tables (`simkit report`); returns report.html.

    The tables are checked first (check_tables); a table whose data turns out damaged while it
    is read, and a write that fails (a full disk), are one InputError each: the tables are
    never touched, and the files being rewritten keep their old contents (each is written
    through a temporary file and a rename).
    """
    from simkit import report

    folder = Path(folder)
    check_tables(folder)
    verify_tables(folder)
    claim = Claim(folder, f"simkit report {folder}")  # no sweep writes the folder meanwhile
    try:
        remove_leftovers(folder)
        return report.write_report(folder, write_summary(folder))
    except OSError as e:
        raise InputError(f"cannot write the report in {folder}: {why(e)}; the tables are untouched and the old "
                         f"summary and report kept: {fix_for(e)}, then: simkit report {folder}") from None
    except pl.exceptions.PolarsError as e:  # a table whose footer is whole but whose data is not
        raise InputError(f"cannot read the tables in {folder} ({str(e).splitlines()[0][:200]}); "
                         f"{rerun_hint(folder)}") from None
    finally:
        claim.release(remove=True)


def finish_complete(folder: Path, with_report: bool) -> list[str]:
    """What a sweep stopped while writing its summary or report left unwritten, written from the
    tables (`simkit sweep --out DIR --resume` of a complete folder); returns the files written.

    The tables are verified first (check_tables, verify_tables); leftovers of the stopped
    writes are removed. summary.json is written when missing, the report (with_report) when
    report.html, the last file written, is missing or the summary was written again.
    """
    folder = Path(folder)
    check_tables(folder)
    verify_tables(folder)
    resume = f"simkit sweep --out {folder} --resume"
    claim = Claim(folder, resume)
    wrote: list[str] = []
    try:
        remove_leftovers(folder)
        summary = None
        if not (folder / "summary.json").exists():
            summary = write_summary(folder)
            wrote.append("summary.json")
        if with_report and (wrote or not (folder / "report.html").exists()):
            from simkit import report

            report.write_report(folder, summary)
            wrote.append("report.html")
    except OSError as e:
        claim.release(remove=True)
        raise InputError(f"cannot write the summary and report in {folder}: {why(e)}; every table is written: "
                         f"{fix_for(e)}, then: {resume}") from None
    except pl.exceptions.PolarsError as e:
        claim.release(remove=True)
        raise InputError(f"cannot read the tables in {folder} ({str(e).splitlines()[0][:200]}); "
                         f"{rerun_hint(folder)}") from None
    except BaseException:
        claim.release(remove=True)
        raise
    claim.release(remove=True)
    return wrote


def finalise(folder: Path, cells: list[dict], starts: list[list[int]], spec_toml: str, manifest: dict,
             with_report: bool = True) -> None:
    """Write the final tables (results.write_final_tables), then the summary and report while
    the parts are deleted. A failure writing the summary or report is an InputError pointing to
    `simkit report DIR`, which writes both again from the tables."""
    folder = Path(folder)
    deleting = write_final_tables(folder, cells, starts, spec_toml, manifest)
    try:
        summary = write_summary(folder)
        if with_report:
            from simkit import report  # matplotlib and the report's modules: only when one is written

            report.write_report(folder, summary)
    except OSError as e:
        raise InputError(f"cannot write the summary and report in {folder}: {why(e)}; every table is written: "
                         f"{fix_for(e)}, then: simkit report {folder}") from None
    finally:
        deleting.join()
