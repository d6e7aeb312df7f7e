"""Reading and writing files so that a failure is one line and never a half-written file.

Every file simkit writes (result tables, summary, manifest, report, plots) goes through
`atomic_write`: the bytes go to a temporary name beside the target, which is then renamed
onto it, so a reader sees the old file or the whole new one, never a truncated one (a full
disk stops the write, not the rename). Every file simkit reads from a user (a spec, a
component file) goes through `read_text` and `parse_toml`: a size bound, and every way
reading can fail (a missing file, a dangling symlink, a name too long, a TOML nested too
deeply) becomes an InputError naming the file and what to do.
"""

from __future__ import annotations

import errno
import json
import os
import re
import tomllib
from contextlib import contextmanager, suppress
from pathlib import Path

from simkit.core.errors import InputError

TMP_SUFFIX = ".tmp"  # `.<name>.<pid>.tmp`: what a write stopped mid-way can leave (see remove_temporaries)
MAX_INPUT_BYTES = 16 * 1024 * 1024  # a spec or component file larger than this is a mistake, not a deck


def atomic_write(path: Path, write) -> None:
    """Call write(tmp_path), then rename tmp onto path: readers see the old file or the whole new one.

    On any failure the temporary file is removed and the target is left as it was; a failed
    write is an OSError (with its errno) whatever library did the writing.
    """
    path = Path(path)
    tmp = temporary(path)
    try:
        with os_errors(path):
            write(tmp)
        os.replace(tmp, path)
    finally:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def temporary(path: Path) -> Path:
    """The temporary name a write of `path` goes to before its rename: .<name>.<pid>.tmp beside it."""
    return path.with_name(f".{path.name}.{os.getpid()}{TMP_SUFFIX}")


@contextmanager
def os_errors(path: Path):
    """A failed write raised by a library as its own exception becomes the OSError it reports
    (polars: ComputeError "... File too large (os error 27)"), so callers catch OSError only."""
    try:
        yield
    except OSError:
        raise
    except Exception as e:
        code = re.search(r"\(os error (\d+)\)", str(e))
        if code is None:
            raise
        raise OSError(int(code[1]), os.strerror(int(code[1])), str(path)) from None


def json_text(data) -> str:
    """JSON as simkit writes its files: a table's keys one to a line, and each item of a list
    under a top-level key on a line of its own, written compactly.

    Readable line by line (a summary's cell per line), and fast: json's `indent` makes it
    fall back to its pure-Python encoder, minutes for the summary of a 10,000-cell grid;
    this keeps every value on the C encoder. `json.loads` reads it back unchanged.
    """
    def one(value) -> str:
        return json.dumps(value, default=str)

    if not isinstance(data, dict):
        return one(data) + "\n"
    lines = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            items = ",\n  ".join(one(item) for item in value)
            lines.append(f" {one(key)}: [\n  {items}\n ]")
        else:
            lines.append(f" {one(key)}: {one(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write_bytes(path: Path, data: bytes) -> None:
    atomic_write(path, lambda tmp: Path(tmp).write_bytes(data))


def save_figure(figure, path: Path, **options) -> Path:
    """A matplotlib figure as PNG, written atomically (the temporary name has no .png, so the format is given)."""
    import warnings

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():  # a label's emoji the font lacks is left out of the picture, not told 8 times
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=UserWarning)
        atomic_write(path, lambda tmp: figure.savefig(tmp, format="png", **options))
    return path


def remove_temporaries(folder: Path, deep: bool = True) -> None:
    """Delete what writes stopped mid-way left in a folder and (deep) its sub-folders (`.<name>.<pid>.tmp`).

    Only for a folder this process has claimed (simkit.sweeps.results.Claim): no other writer is at work in it.
    """
    import shutil

    found = Path(folder).rglob(f".*{TMP_SUFFIX}") if deep else Path(folder).glob(f".*{TMP_SUFFIX}")
    for path in list(found):
        if path.is_dir() and not path.is_symlink():  # joblib's temporary folder (simkit.sweeps.runner.JOBLIB_TEMP)
            shutil.rmtree(path, ignore_errors=True)
        else:
            with suppress(OSError):
                path.unlink(missing_ok=True)


def why(e: OSError) -> str:
    """An OSError's cause in words, without the Python noise: 'No space left on device'."""
    return e.strerror or (errno.errorcode.get(e.errno, "") if e.errno else "") or str(e) or type(e).__name__


def fix_for(e: OSError) -> str:
    """What a user can do about an OSError raised while writing."""
    if e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "free some space"
    if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "make the folder writable again"
    if e.errno == errno.ENAMETOOLONG:
        return "choose a shorter path"
    return "fix the cause"


def expand_user(text: str, what: str) -> Path:
    """A path typed by a user, with ~ and ~user expanded; an unknown user is an InputError."""
    try:
        return Path(text).expanduser()
    except RuntimeError:  # Path.expanduser: "Could not determine home directory"
        user = text[1:].split("/", 1)[0] or "the current user"
        raise InputError(f"{what} {shown(text)}: cannot expand '~{user.lstrip('~')}': there is no such user's home "
                         "folder; write the path out in full") from None


def kind_of(path: Path, what: str) -> str:
    """'dir', 'file', 'missing' or 'broken' (a symlink to nothing, or a loop); other OSErrors are InputErrors."""
    path = Path(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        return "broken" if os.path.lexists(path) else "missing"
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "broken"
        if e.errno == errno.ENOTDIR:
            return "missing"
        raise InputError(f"{what} {shown(str(path))}: {why(e)}; {fix_for(e)}") from None
    import stat

    return "dir" if stat.S_ISDIR(st.st_mode) else "file"


def shown(text: str, limit: int = 120) -> str:
    """A path or value for an error line: long ones show their start and their size."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def read_text(path: Path, where: str, limit: int | None = MAX_INPUT_BYTES) -> str:
    """A user's text file (UTF-8, at most `limit` bytes, None: any size); every failure names `where` and the fix.

    A symbolic link must lead to a file: a dangling link or a loop is refused rather than
    read as missing (a game would then fall back to a file the user did not choose).
    """
    path = Path(path)
    state = kind_of(path, where)
    if state == "broken":
        raise InputError(f"{where}: a symbolic link to nothing ({shown(os.readlink(path))}) or a loop of links; "
                         "point it at a file, or remove it")
    if state == "missing":
        raise InputError(f"{where}: no such file")
    if state == "dir":
        raise InputError(f"{where}: is a folder, not a file")
    try:
        # O_NONBLOCK: opening a named pipe (FIFO) for reading would wait for a writer forever
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise InputError(f"{where}: cannot read it ({why(e)})") from None
    with open(fd, "rb") as f:
        import stat

        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(f"{where}: not a regular file ({_special(mode)}); only regular files are read as "
                             "specs and component files: give the path of a saved file")
        try:
            data = f.read(-1 if limit is None else limit + 1)
        except OSError as e:
            raise InputError(f"{where}: cannot read it ({why(e)})") from None
    if limit is not None and len(data) > limit:
        raise InputError(f"{where}: larger than {limit // (1024 * 1024)} MB; a spec or component file this large is "
                         "a mistake (check what was written into it)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{where}: not UTF-8 text (byte {e.start}); save it as UTF-8") from None


def _special(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    import stat

    for test, name in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def parse_toml(text: str, where: str) -> dict:
    """TOML text as a dict; malformed or too deeply nested text is an InputError naming `where`."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{where}: malformed TOML: {e}") from None
    except RecursionError:  # tomllib recurses once per level of nested arrays and inline tables
        raise InputError(f"{where}: arrays or tables nested too deeply to read (hundreds of levels); "
                         "check what was written into it") from None


def read_json(path: Path, fix: str) -> dict:
    """A JSON file simkit wrote (summary.json, manifest.json) as a dict; a damaged one is an InputError
    naming the file and `fix`."""
    try:
        data = json.loads(read_text(path, str(path), limit=None))
    except ValueError as e:
        raise InputError(f"{path} is damaged ({'empty' if not str(e) else e}); {fix}") from None
    if not isinstance(data, dict):
        raise InputError(f"{path} is damaged (not a JSON object); {fix}")
    return data

