"""Component sets: which folder of component files a rule set plays with
(docs/architecture.md, "The game package contract").

A game keeps its component files (boards, decks, dice) in `components/`: the base set,
called "standard". It may ship alternative sets as sub-folders `components/alt-<name>/`
that hold only the files that differ, and a designer may point at a folder of their own.
The choice is the rule parameter `components` (declared by `component_param`), so it is
selected, swept on shared seeds, recorded in cells and the manifest, and hashed into the
rules hash like any other rule.

A game's compile step opens the chosen set and reads its files through it::

    cset = ComponentSet.open(FOLDER, values["components"])
    text = cset.read_text("board.txt")   # the set's own file if it has one, else the base file
    deck = cset.read_toml("deck.toml")   # a dict that notes which keys the game reads
    header, rows = cset.read_csv("crew.csv")   # rows of exactly the header's width
    raw = cset.raw(FILES)                # last: every file used, for the rules hash

The engine never sees the parameter: it only ever gets the compiled arrays.

Strictness (nothing a designer writes is silently ignored or silently replaced):
- a file of the set that is a symbolic link must lead to a file: a dangling link or a loop
  is refused, never read as "missing" (which would play the base set's file instead);
- a key or table of a TOML file that the game never read is refused by `check_read` (which
  `raw` calls), naming the file, the table, the key and the nearest name the game does read
  (a misspelt section would otherwise change nothing);
- a CSV row must have exactly as many fields as the header, and a field at most
  MAX_CSV_FIELD characters;
- files are at most simkit.core.files.MAX_INPUT_BYTES, and error lines quote at most the start
  of a long value (simkit.core.errors.bounded).
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from simkit.core import files as fs
from simkit.core.errors import InputError, did_you_mean
from simkit.core.rules import Param

BASE = "standard"  # the base set: the files directly in components/
ALT_PREFIX = "alt-"
PARAM = "components"
MAX_CSV_FIELD = 1_000  # characters of one CSV field: a name, a number or an effect word


def shipped(base: Path) -> tuple[str, ...]:
    """The set names a game ships: "standard" and every components/alt-<name>/ folder."""
    alts = sorted(p.name for p in Path(base).iterdir() if p.is_dir() and p.name.startswith(ALT_PREFIX))
    return (BASE, *alts)


def check_value(base: Path, value, where: str = "") -> str:
    """A valid `components` value: a shipped set's name, or a designer's folder as an absolute path."""
    place = f" (in {where})" if where else ""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"components{place} must be a set name or a folder, got {fs.shown(repr(value))}; "
                         f"shipped sets: {', '.join(shipped(base))}")
    names = shipped(base)
    if value in names:
        return value
    folder = fs.expand_user(value, f"components{place}")
    state = fs.kind_of(folder, f"components{place}")
    if state == "dir":
        resolved = folder.resolve()
        try:
            str(resolved).encode("utf-8")
        except UnicodeEncodeError:  # a name of bytes that are not UTF-8: no spec.toml could record it
            raise InputError(f"components = {fs.shown(repr(value))}{place}: the folder's path is not UTF-8 text; "
                             "rename the folder (or a folder above it) to a UTF-8 name") from None
        if resolved != Path(base).resolve():  # the base folder holds the shipped alt-* sets
            _check_flat(resolved, value, place)
        return str(resolved)
    if state == "file":
        raise InputError(f"components = {fs.shown(value)}{place} is a file; give a folder of component files")
    if state == "broken":
        raise InputError(f"components = {fs.shown(value)}{place} is a symbolic link to nothing (or a loop of links); "
                         "point it at a folder of component files")
    raise InputError(f"unknown component set '{fs.shown(value)}'{place}{did_you_mean(value, names)}; "
                     f"shipped sets: {', '.join(names)}, or give the path of a folder of your own")


def _check_flat(folder: Path, value: str, place: str) -> None:
    """A designer's set is one folder of files: a subfolder holding files would be ignored (and the
    base set's files played instead), so it is refused, named."""
    try:
        subfolders = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    except OSError as e:
        raise InputError(f"components = {fs.shown(value)}{place}: cannot list the folder ({fs.why(e)})") from None
    for sub in subfolders:
        try:
            held = sorted(p.name for p in sub.iterdir() if not p.name.startswith(".") and p.suffix != ".md")
        except OSError:
            continue
        if held:
            raise InputError(f"components = {fs.shown(value)}{place}: the subfolder {fs.shown(str(sub))} holds "
                             f"{', '.join(held[:3])}{', ...' if len(held) > 3 else ''}, which would be ignored: a "
                             f"component set is the files directly in its folder; move them up, or give "
                             f"components = {fs.shown(str(sub))}")


def component_param(base: Path, meaning: str = "") -> Param:
    """The `components` rule parameter of a game whose base set lives in `base`."""
    names = shipped(base)
    return Param(PARAM, "components", BASE, (str(base), *names),
                 meaning or "component files: a shipped set (standard, alt-*) or a designer's folder",
                 "component sets (docs/guide.md)", validate=partial(check_value, Path(base)))


class Table(dict):
    """A table of a component TOML file that notes which keys the game's loader looked at.

    Reading a key (`t[k]`, `t.get(k)`, `k in t`) or every key (`items()`, `values()`) marks it;
    iterating the keys alone does not, so a loader that lists the keys to refuse unknown
    ones still sees every key it never reads refused by `ComponentSet.check_read`.
    """

    def __init__(self, items: dict, where: str, array: list | None = None):
        super().__init__(items)
        self.where = where  # "[crew]", "[[card]] 3": how errors name the table in its file
        self.looked: set = set()
        self.array = array  # the tables of the same array of tables, whose keys are valid names here too

    def __getitem__(self, key):
        self.looked.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.looked.add(key)
        return super().get(key, default)

    def __contains__(self, key):
        self.looked.add(key)
        return super().__contains__(key)

    def items(self):
        self.looked.update(super().keys())
        return super().items()

    def values(self):
        self.looked.update(super().keys())
        return super().values()

    def pop(self, key, *default):
        self.looked.add(key)
        return super().pop(key, *default)


def _tracked(value, path: str = "", where: str = ""):
    """A parsed TOML value with every table made a Table (recursively); lists stay lists.
    `path`: the dotted key path of the value ("upgrades.crew"), `where`: how errors name it."""
    def inner(key):
        return f"{path}.{key}" if path else str(key)

    if isinstance(value, dict):
        return Table({k: _tracked(v, inner(k), f"[{inner(k)}]") for k, v in value.items()}, where)
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        array: list = []
        for i, entry in enumerate(value):
            array.append(Table({k: _tracked(v, inner(k), f"[{inner(k)}]") for k, v in entry.items()},
                               f"[[{path}]] {i + 1}", array))
        return array
    if isinstance(value, list):
        return [_tracked(v, path, where) for v in value]
    return value


def _unread(table: Table, file: str) -> InputError | None:
    """An InputError for the first key of `table` (or of a table inside it) its game never read."""
    for key, value in dict.items(table):
        if key not in table.looked:
            known = set(table.looked)
            for other in table.array or ():
                known |= other.looked
            is_table = isinstance(value, dict) or (isinstance(value, list) and value
                                                    and all(isinstance(v, dict) for v in value))
            at = f"{file} {table.where}" if table.where else file
            if key in known:
                return InputError(f"{at}: '{key}' has no effect in this entry (it reads "
                                  f"{', '.join(sorted(map(str, table.looked))) or 'nothing else'}); remove it")
            names = sorted(map(str, known))
            return InputError(f"{at}: unknown {'table' if is_table else 'key'} '{key}'{did_you_mean(key, names)}; "
                              f"{'known here: ' + ', '.join(names) if names else 'this table takes no keys'}")
        nested = [value] if isinstance(value, Table) else [v for v in value if isinstance(v, Table)] \
            if isinstance(value, list) else []
        for inner in nested:
            problem = _unread(inner, file)
            if problem:
                return problem
    return None


@dataclass(frozen=True)
class ComponentSet:
    """The files of one set: the set's own folder first, then the base folder."""

    name: str
    base: Path
    folder: Path  # equals base for the standard set
    documents: list = field(default_factory=list, compare=False, repr=False)  # (file, Table) read by read_toml

    @classmethod
    def open(cls, base: Path, value: str = BASE) -> ComponentSet:
        value = check_value(base, value)
        base = Path(base)
        folder = base if value == BASE else (base / value if value in shipped(base) else Path(value))
        return cls(value, base, folder)

    def path(self, file: str) -> Path:
        """The set's own file (even a broken link, which reading then refuses), else the base set's."""
        own = self.folder / file
        return own if os.path.lexists(own) else self.base / file

    def where(self, file: str) -> str:
        """How errors name a file: relative to the game's components folder when shipped."""
        p = self.path(file)
        try:
            return str(p.relative_to(self.base.parent))
        except ValueError:
            return fs.shown(str(p), 200)

    def read_text(self, file: str) -> str:
        return fs.read_text(self.path(file), self.where(file))

    def read_toml(self, file: str) -> Table:
        """A TOML file as Tables that note what the game reads (see Table); `raw` refuses the rest."""
        where = self.where(file)
        doc = _tracked(fs.parse_toml(self.read_text(file), where))
        self.documents.append((where, doc))
        return doc

    def read_csv(self, file: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
        """(header, [(line number, fields), ...]) of a CSV file, blank and '#' lines skipped.

        Every row has exactly as many fields as the header (an extra field is refused, not
        dropped), and a field has at most MAX_CSV_FIELD characters.
        """
        where = self.where(file)
        header: list[str] | None = None
        rows = []
        for number, line in enumerate(self.read_text(file).splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            limit = csv.field_size_limit()
            csv.field_size_limit(max(limit, len(line) + 1))  # the line bounds its fields; MAX_CSV_FIELD is ours
            try:
                fields = [f.strip() for f in next(csv.reader([line], strict=True))]
            except csv.Error as e:
                raise InputError(f"{where} line {number}: malformed CSV ({e})") from None
            finally:
                csv.field_size_limit(limit)
            long = next((i for i, f in enumerate(fields) if len(f) > MAX_CSV_FIELD), None)
            if long is not None:
                raise InputError(f"{where} line {number}: field {long + 1} is {len(fields[long]):,} characters "
                                 f"({fs.shown(fields[long], 40)}); a field is at most {MAX_CSV_FIELD:,}")
            if header is None:
                header = fields
                continue
            if len(fields) != len(header):
                raise InputError(f"{where} line {number}: {len(fields)} fields, but the header names "
                                 f"{len(header)} ({','.join(header)}); "
                                 f"{'a comma too many, or quote a field holding a comma' if len(fields) > len(header) else 'fill every column'}")
            rows.append((number, fields))
        if header is None:
            raise InputError(f"{where}: no header line")
        return header, rows

    def check_read(self) -> None:
        """Refuse a key or table of a TOML file (read through read_toml) that the game never looked at."""
        for where, doc in self.documents:
            problem = _unread(doc, where)
            if problem:
                raise problem

    def raw(self, files) -> bytes:
        """Every file's name and contents, in the given order: what the rules hash covers.

        Call it once the game has read every file: it calls check_read, and refuses a file in
        a set's folder that the game does not read (most likely a misspelt name, whose
        contents would otherwise be silently ignored).
        """
        self.check_read()
        if self.folder != self.base:
            stray = sorted(p.name for p in self.folder.iterdir()
                           if not p.is_dir() and p.name not in files and p.suffix != ".md")
            if stray:
                raise InputError(f"{self.folder / stray[0]}: not a component file of this game; "
                                 f"expected any of: {', '.join(files)}")
        return b"".join(f.encode() + b"\0" + self.read_text(f).encode() + b"\0" for f in files)
