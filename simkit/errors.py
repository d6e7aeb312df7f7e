"""The one exception type for bad input: the CLI prints it as a single `error:` line."""


class InputError(Exception):
    """Bad input from a user: a spec, a parameter, a name, a path.

    The message says what is wrong and where, and ends with a hint when one helps.
    """


def did_you_mean(word: str, choices) -> str:
    """A ' (did you mean X?)' suffix naming the closest choice, or ''."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.5)
    return f" (did you mean '{close[0]}'?)" if close else ""


def unknown(kind: str, word: str, choices, where: str = "") -> InputError:
    """An InputError for an unknown name, listing the known ones."""
    known = ", ".join(sorted(str(c) for c in choices))
    place = f" in {where}" if where else ""
    return InputError(f"unknown {kind} '{word}'{place}{did_you_mean(word, choices)}; known: {known}")
