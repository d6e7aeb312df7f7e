"""Event codes the Set Sail engine logs, and how `simkit replay` narrates them.

A log row is (round, seat, code, a, b, c); the meaning of a, b, c is given per code.
Amounts are signed changes, so a test can rebuild every seat's silver and Supply from
the log alone (the conservation check).
"""

import functools

from simkit.games.set_sail import state as S

TURN = 1  # a = turn number, b = movement budget
MOVE = 2  # a = piece, b = from tile, c = to tile
SILVER = 3  # a = change, b = reason (REASONS), c = silver now
SUPPLY = 4  # a = change, b = reason, c = Supply now
SHIP_FIGHT = 5  # a = deck (0 deep water, 1 trade route), b = health, c = roll total
SHIP_WON = 6  # a = deck, b = health
GOOD = 7  # a = good, b = +1 gained / -1 returned, c = reason
QUEST = 8  # a = kind (0 plunder, 1 trade, 2 treasure dug), b = card, c = VP now
MAP_BOUGHT = 9  # a = card
UPGRADE = 10  # a = upgrade, b = +1 bought / -1 lost
ATTACK = 11  # a = defender seat, b = attack total, c = tile
DEFEND = 12  # a = 0 fight / 1 flee, b = defence total, c = winner seat (-1 none)
STEAL = 13  # a = victim, b = card kind (0..2 goods, 3 + deck * 8 + health ship card)
RAN_OUT = 14  # a = times so far
RETREAT = 15  # a = piece, b = from, c = to
SHIPS_PAID = 16  # a = cards handed in, b = reason
RESHUFFLE = 17  # a = deck, b = cards
END_TRIGGER = 18  # a = VP
SCORE = 19  # a = VP, b = rank, c = 1 if winner
TRIM = 20  # a = quest kind, b = cards removed
OPEN = 21  # a = quest kind, b = slot, c = card (-1 empty)
TRADE = 22  # a = seller seat, b = ship cards bought, c = silver paid

# reasons for SILVER / SUPPLY / GOOD / SHIPS_PAID
R_FISH, R_FIGHT, R_QUEST, R_BUY, R_SELL, R_RUN_OUT, R_COMBAT, R_END, R_DIG, R_STEAL, R_DISCARD, R_TRADE = range(12)
REASONS = ("fishing", "ship fight", "quest", "purchase", "sale", "running out", "player combat",
           "end of turn", "treasure", "steal", "over capacity", "player trade")

@functools.lru_cache(maxsize=8)
def _names(components: str) -> tuple:
    from simkit.games.set_sail.components import load

    return load(components).names


def tile_names(context=None) -> tuple:
    """The tile names of the board the game was played on: the component set of the
    replayed rules (context["rules"]["components"]), else the standard board."""
    rules = (context or {}).get("rules") or {}
    return _names(rules.get("components", "standard"))


def tile_name(t: int, names: tuple | None = None) -> str:
    names = names if names is not None else tile_names()
    return names[t] if 0 <= t < len(names) else "-"


def _card(kind: int) -> str:
    if kind < S.N_GOODS:
        return S.GOOD_NAMES[kind]
    deck, health = divmod(kind - 3, S.MAX_HEALTH)
    return f"{'Deep Water' if deck == 0 else 'Trade Route'} ship ({health})"


def describe_event(row, context=None) -> str:
    """One narrated line for a log row."""
    rnd, seat, code, a, b, c = (int(x) for x in row)
    who = "-" if seat < 0 else f"seat {seat}"
    names = tile_names(context) if code in (MOVE, ATTACK, RETREAT) else ()
    decks = ("Deep Water", "Trade Route")
    text = {
        TURN: lambda: f"--- turn {a}: {who}, {b} movement ---",
        MOVE: lambda: f"{who} piece {a} sails {tile_name(b, names)} -> {tile_name(c, names)}",
        SILVER: lambda: f"{who} {'+' if a >= 0 else ''}{a} silver ({REASONS[b]}), now {c}",
        SUPPLY: lambda: f"{who} {'+' if a >= 0 else ''}{a} Supply ({REASONS[b]}), now {c}",
        SHIP_FIGHT: lambda: f"{who} fights a {decks[a]} ship of health {b}: rolls {c}",
        SHIP_WON: lambda: f"{who} takes the {decks[a]} ship card",
        GOOD: lambda: f"{who} {'gains' if b > 0 else 'returns'} a {S.GOOD_NAMES[a]} card ({REASONS[c]})",
        QUEST: lambda: (f"{who} completes a {S.QUEST_NAMES[a]} quest" if a < 2 else f"{who} digs up a treasure")
        + f" (card {b}), {c} VP",
        MAP_BOUGHT: lambda: f"{who} buys treasure map {a}",
        UPGRADE: lambda: f"{who} {'buys' if b > 0 else 'loses'} a {S.UPGRADE_NAMES[a]} upgrade",
        ATTACK: lambda: f"{who} attacks seat {a} at {tile_name(c, names)}: attack {b}",
        DEFEND: lambda: f"defender {'fights' if a == 0 else 'flees'}: {b}; "
        + ("no winner" if c < 0 else f"seat {c} wins"),
        STEAL: lambda: f"{who} steals a {_card(b)} card from seat {a}",
        RAN_OUT: lambda: f"{who} runs out of supplies ({a})",
        RETREAT: lambda: f"{who} piece {a} retreats {tile_name(b, names)} -> {tile_name(c, names)}",
        SHIPS_PAID: lambda: f"{who} hands in {a} ship card(s) ({REASONS[b]})",
        RESHUFFLE: lambda: f"the {decks[a]} discards ({b}) are shuffled into a new deck",
        END_TRIGGER: lambda: f"{who} reaches {a} VP: the round is finished",
        SCORE: lambda: f"{who} ends with {a} VP (rank {b}){' - wins' if c else ''}",
        TRIM: lambda: f"{b} {S.QUEST_NAMES[a]} quest cards removed",
        OPEN: lambda: f"open {S.QUEST_NAMES[a]} quest space {b}: " + ("empty" if c < 0 else f"card {c}"),
        TRADE: lambda: f"{who} buys {b} ship card(s) from seat {a} for {c} silver",
    }.get(code)
    return f"r{rnd:>3} " + (text() if text else f"{who} code {code} ({a}, {b}, {c})")
