"""Event codes the Sea of Plunder engine logs, and how `simkit replay` narrates them.

A log row is (round, seat, code, a, b, c); the meaning of a, b, c is given per code.
"""

from simkit.games.sea_of_plunder import state as S

TURN = 1  # a = turn number
DRAW = 2  # a = card, b = 0 deck / 1 pile
EVENT = 3  # a = event card being resolved
PLAY = 4  # a = card, b = ship, c = option * 4 + rotation (+ 16 when a compass was spent)
DISCARD = 5  # a = card, b = pirate moved by the Discard Bonus, c = as PLAY
SHIP_MOVE = 6  # a = ship, b = from square, c = to square
PIRATE_MOVE = 7  # a = pirate, b = from, c = to
ISLAND_MOVE = 8  # a = -, b = from, c = to
TREASURE = 9  # a = seat (-1 = the pirates), b = square, c = new total
ISLAND_PLACED = 10  # a = square, b = 1 if stacked on an island
PLACE_SKULL = 11  # a = 1 if the pirates were paid
PLACE_ON_PIRATE = 12  # a = square
PLACE_ON_SHIP = 13  # a = square, b = seat that draws
GOOD = 14  # a = colour, b = 0 port / 1 combo port / 2 set-up or power
BRIBE = 15  # a = colour returned
DEBT = 16  # a = new total
STEAL = 17  # a = victim seat, b = card
BONUS_DRAW = 18  # a = card drawn for an interaction or a placement
COMPASS = 19  # a = tokens left (spent one)
STRATEGIST = 20  # a = roll (-1 skull), b = 1 if spared
END_TRIGGER = 21  # a = end reason
SCORE = 22  # a = score, b = rank, c = 1 if winner
POWER = 23  # a = power
RESHUFFLE = 24  # a = cards shuffled back into the deck
BROKEN_COMPASS = 25  # a = 0 "equal or more" / 1 "equal or fewer", b = own hand size
NO_PLAY = 26  # a = 0 play phase / 1 discard phase: no legal card
CARGO = 27  # a = seat taken from, b = card
COMBO_PLACED = 28  # a = square
BONUS_MOVE = 29  # a = power, b = from, c = to
TIE_ROLL = 30  # a = roll
SMUGGLE = 31  # a = colour
COMPASS_GAIN = 32  # a = tokens now

_cache: dict = {}


def _names(component_set: str = "standard") -> dict:
    """Card and colour names of a component set (a deck of another size numbers cards differently)."""
    if component_set not in _cache:
        from simkit.games.sea_of_plunder.components import load

        comp = load(component_set)
        _cache[component_set] = {"cards": [c.name for c in comp.cards], "colours": list(comp.colours)}
    return _cache[component_set]


def card_name(card: int, component_set: str = "standard") -> str:
    names = _names(component_set)
    n = len(names["cards"])
    if card >= n:
        return f"{names['colours'][card - n]} Good"
    return names["cards"][card] if card >= 0 else "nothing"


_card_name = card_name


def _sq(square: int) -> str:
    from simkit.games.sea_of_plunder.components import square_name

    return square_name(square) if square >= 0 else "-"


def _orientation(c: int) -> str:
    option, rot = (c & 15) // 4, c & 3
    parts = [f"X {option + 1}"]
    if rot:
        parts.append(f"turned {90 * rot}°")
    if c & 16:
        parts.append("compass spent")
    return ", ".join(parts)


def describe_event(row, context=None) -> str:
    """One narrated line for a log row; the context's rules name the component set played."""
    rnd, seat, code, a, b, c = (int(x) for x in row)
    who = "pirates" if seat < 0 else f"seat {seat}"
    component_set = ((context or {}).get("rules") or {}).get("components", "standard")
    colours = _names(component_set)["colours"]

    def card_name(card: int) -> str:
        return _card_name(card, component_set)

    text = {
        TURN: lambda: f"--- turn {a}: seat {seat} ---",
        DRAW: lambda: f"{who} draws {card_name(a)} from the {'pile' if b else 'deck'}",
        EVENT: lambda: f"event {card_name(a)} resolves",
        PLAY: lambda: f"{who} plays {card_name(a)} (ship {b}, {_orientation(c)})",
        DISCARD: lambda: f"{who} discards {card_name(a)}; Discard Bonus moves pirate {b} ({_orientation(c)})",
        SHIP_MOVE: lambda: f"ship {a} sails {_sq(b)} -> {_sq(c)}",
        PIRATE_MOVE: lambda: f"pirate {a} sails {_sq(b)} -> {_sq(c)}",
        ISLAND_MOVE: lambda: f"a Treasure Island drifts {_sq(b)} -> {_sq(c)}",
        TREASURE: lambda: (f"the pirates collect a Treasure{' at ' + _sq(b) if b >= 0 else ''} ({c} in the dish)"
                           if a < 0 else f"seat {a} collects a Treasure at {_sq(b)} (now {c})"),
        ISLAND_PLACED: lambda: f"new Treasure Island at {_sq(a)}{' (stacked)' if b else ''}",
        PLACE_SKULL: lambda: "placement dice show the skull" + (": the pirates gain a Treasure" if a else ""),
        PLACE_ON_PIRATE: lambda: f"placement roll {_sq(a)} hits a pirate: the pirates gain a Treasure",
        PLACE_ON_SHIP: lambda: f"placement roll {_sq(a)} hits seat {b}'s ship: seat {b} draws",
        GOOD: lambda: f"{who} takes a {colours[a]} Good" + ("" if b == 0 else " (combo port)" if b == 1 else ""),
        BRIBE: lambda: f"{who} bribes a pirate with a {colours[a]} Good",
        DEBT: lambda: f"{who} takes a Debt token (now {a})",
        STEAL: lambda: f"{who} steals {card_name(b)} from seat {a}",
        BONUS_DRAW: lambda: f"{who} draws {card_name(a)}",
        COMPASS: lambda: f"{who} spends a Magical Compass ({a} left)",
        STRATEGIST: lambda: f"{who} (Strategist) rolls {'skull' if a < 0 else a + 1}: " + ("spared" if b else "not spared"),
        END_TRIGGER: lambda: f"game end triggered ({S.END_REASONS[a]}): the round is finished",
        SCORE: lambda: f"{who} scores {a} (rank {b}){' - wins' if c else ''}",
        POWER: lambda: f"{who} is dealt {S.POWER_NAMES[a]}",
        RESHUFFLE: lambda: f"the pile is shuffled into a new deck ({a} cards)",
        BROKEN_COMPASS: lambda: f"{who} calls '{'equal or fewer' if a else 'equal or more'}' than {b} cards",
        NO_PLAY: lambda: f"{who} has no card to {'discard' if a else 'play'}",
        CARGO: lambda: f"{who} takes {card_name(b)} from seat {a} (Cargo Adrift)",
        COMBO_PLACED: lambda: f"the Combo Port Island is placed at {_sq(a)}",
        BONUS_MOVE: lambda: f"{who} ({S.POWER_NAMES[a]}) bonus move {_sq(b)} -> {_sq(c)}",
        TIE_ROLL: lambda: f"{who} rolls {a + 1} for tie-breaker 4",
        SMUGGLE: lambda: f"{who} (Smuggler) takes a {colours[a]} Good at the end",
        COMPASS_GAIN: lambda: f"{who} gains a Magical Compass ({a} now)",
    }.get(code)
    return f"r{rnd:>3} " + (text() if text else f"{who} code {code} ({a}, {b}, {c})")
