"""The one exception type for what a user must fix: the CLI prints it as a single `error:` line."""


MAX_MESSAGE = 800  # characters of an error line; a longer one keeps its start and its end


class InputError(Exception):
    """Bad input from a user (a spec, a parameter, a name, a path), or a failure the user can act on
    (a full disk, a lost scheduler).

    The message says what is wrong and where, and ends with a hint when one helps. A message
    longer than MAX_MESSAGE (one quoting a 2,000,000-face die, say) keeps its start (what and
    where) and its end (the hint), and says how many characters were left out between them.
    """

    def __init__(self, message: str = ""):
        super().__init__(bounded(str(message)))


def bounded(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` if it fits in `limit` characters, else its start and end around the size left out."""
    if len(text) <= limit:
        return text
    head, tail = text[: limit * 3 // 4], text[-(limit // 5):]
    return f"{head} … [{len(text) - len(head) - len(tail):,} characters left out] … {tail}"


def did_you_mean(word: str, choices) -> str:
    """A ' (did you mean X?)' suffix naming the closest choice, or ''."""
    import difflib

    if len(str(word)) > 200:  # a pasted blob is no misspelling (and would be slow to compare)
        return ""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.5)
    return f" (did you mean '{close[0]}'?)" if close else ""


def unknown(kind: str, word: str, choices, where: str = "") -> InputError:
    """An InputError for an unknown name, listing the known ones."""
    known = ", ".join(sorted(str(c) for c in choices))
    place = f" in {where}" if where else ""
    return InputError(f"unknown {kind} '{word}'{place}{did_you_mean(word, choices)}; known: {known}")
