"""Component sets: which folder of component files a rule set plays with (DESIGN §2).

A game keeps its component files (boards, decks, dice) in `components/`: the base set,
called "standard". It may ship alternative sets as sub-folders `components/alt-<name>/`
that hold only the files that differ, and a designer may point at a folder of their own.
The choice is the rule parameter `components` (declared by `component_param`), so it is
selected, swept on shared seeds, recorded in cells and the manifest, and hashed into the
rules hash like any other rule.

A game's compile step opens the chosen set and reads its files through it::

    cset = ComponentSet.open(FOLDER, values["components"])
    text = cset.read_text("board.txt")   # the set's own file if it has one, else the base file
    raw = cset.raw(FILES)                # every file used, for the rules hash

The engine never sees the parameter: it only ever gets the compiled arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from simkit.errors import InputError, did_you_mean
from simkit.rules import Param

BASE = "standard"  # the base set: the files directly in components/
ALT_PREFIX = "alt-"
PARAM = "components"


def shipped(base: Path) -> tuple[str, ...]:
    """The set names a game ships: "standard" and every components/alt-<name>/ folder."""
    alts = sorted(p.name for p in Path(base).iterdir() if p.is_dir() and p.name.startswith(ALT_PREFIX))
    return (BASE, *alts)


def check_value(base: Path, value, where: str = "") -> str:
    """A valid `components` value: a shipped set's name, or a designer's folder as an absolute path."""
    place = f" (in {where})" if where else ""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"components{place} must be a set name or a folder, got {value!r}; "
                         f"shipped sets: {', '.join(shipped(base))}")
    names = shipped(base)
    if value in names:
        return value
    folder = Path(value).expanduser()
    if folder.is_dir():
        return str(folder.resolve())
    if folder.exists():
        raise InputError(f"components = {value}{place} is a file; give a folder of component files")
    raise InputError(f"unknown component set '{value}'{place}{did_you_mean(value, names)}; "
                     f"shipped sets: {', '.join(names)}, or give the path of a folder of your own")


def component_param(base: Path, meaning: str = "") -> Param:
    """The `components` rule parameter of a game whose base set lives in `base`."""
    names = shipped(base)
    return Param(PARAM, "components", BASE, (str(base), *names),
                 meaning or "component files: a shipped set (standard, alt-*) or a designer's folder",
                 "component sets (DESIGN §2)", validate=partial(check_value, Path(base)))


@dataclass(frozen=True)
class ComponentSet:
    """The files of one set: the set's own folder first, then the base folder."""

    name: str
    base: Path
    folder: Path  # equals base for the standard set

    @classmethod
    def open(cls, base: Path, value: str = BASE) -> ComponentSet:
        value = check_value(base, value)
        base = Path(base)
        folder = base if value == BASE else (base / value if value in shipped(base) else Path(value))
        return cls(value, base, folder)

    def path(self, file: str) -> Path:
        own = self.folder / file
        return own if own.exists() else self.base / file

    def where(self, file: str) -> str:
        """How errors name a file: relative to the game's components folder when shipped."""
        p = self.path(file)
        try:
            return str(p.relative_to(self.base.parent))
        except ValueError:
            return str(p)

    def read_text(self, file: str) -> str:
        p = self.path(file)
        try:
            return p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{self.where(file)}: not UTF-8 text; save it as UTF-8") from None
        except OSError as e:
            raise InputError(f"{self.where(file)}: cannot read it ({e.strerror})") from None

    def raw(self, files) -> bytes:
        """Every file's name and contents, in the given order: what the rules hash covers.

        A set folder holding a file the game does not read is refused: it is most likely a
        misspelt name whose contents would otherwise be silently ignored.
        """
        if self.folder != self.base:
            stray = sorted(p.name for p in self.folder.iterdir()
                           if p.is_file() and p.name not in files and p.suffix != ".md")
            if stray:
                raise InputError(f"{self.folder / stray[0]}: not a component file of this game; "
                                 f"expected any of: {', '.join(files)}")
        return b"".join(f.encode() + b"\0" + self.path(f).read_bytes() + b"\0" for f in files)
