"""Event codes the Sea of Troubles engine logs, and how `simkit replay` narrates them.

A log row is (round, seat, code, a, b, c).
"""

from simkit.games.sea_of_troubles import state as S

TURN = 1  # a = turn number, b = square, c = cards in hand
MOVE = 2  # a = from, b = to, c = cards played
PILLAGE = 3  # a = port, b = attack total, c = defence total
TREASURE = 4  # a = treasure id, b = reason (R_*), c = other seat (-1 none)
INFAMY = 5  # a = change, b = reason, c = tokens now
FIGHT = 6  # a = defender, b = 0 board / 1 shoot, c = attack cards
RESPONSE = 7  # a = -1 concede / type, b = defender cards, c = reveals before a concession (-1 none)
FIGHT_END = 8  # a = attack total, b = defence total, c = 0 attacker / 1 defender / 2 tie / 3 conceded
DAMAGE = 9  # a = damage now
DEATH = 10  # a = deaths so far
GHOST = 11  # a = square
BURY = 12  # a = treasure id, b = X, c = cards spent
DIG = 13  # a = X, b = card value drawn, c = treasure id (-1 none)
DELIVER = 14  # a = quest, b = treasure id, c = Infamy
BID = 15  # a = cards bid, b = total, c = 1 if the winner
STARTER = 16  # a = first seat, b = direction
END_TRIGGER = 17  # a = end reason
SCORE = 18  # a = score, b = rank, c = 1 if winner
RESHUFFLE = 19  # a = cards
FLEE = 20  # a = from, b = to
QUIRK = 21  # a = quirk id, b = 1 drawn blind / 0 taken face up, c = quirks left face up
GAMBLE = 22  # a = card value drawn, b = Infamy gained after the gamble
PLACE = 23  # a = square, b = X index

R_PILLAGE, R_FIGHT, R_QUEST, R_DIG, R_BURY, R_DELIVER, R_SUNK, R_START, R_SHOT = range(9)
REASONS = ("pillage", "fight", "quest", "dig", "bury", "delivery", "sunk", "start", "cannon win")


def quirk_name(q: int, context=None) -> str:
    """Quirk q's name in the component set the game was played with (the context's rules)."""
    from simkit.games.sea_of_troubles import components

    rules = (context or {}).get("rules") or {}
    quirks = components.load(rules.get("components", "standard")).quirks
    return repr(quirks[q][0]) if 0 <= q < len(quirks) else str(q)


def describe_event(row, context=None) -> str:
    rnd, seat, code, a, b, c = (int(x) for x in row)
    who = "-" if seat < 0 else f"seat {seat}"
    text = {
        TURN: lambda: f"--- turn {a}: {who} at square {b}, {c} cards ---",
        MOVE: lambda: f"{who} sails {a} -> {b} ({c} card(s))",
        PILLAGE: lambda: f"{who} pillages port {a}: {b} against {c}" + (" - success" if b > c else " - fails"),
        TREASURE: lambda: f"{who} treasure {a} ({REASONS[b]}" + (f", seat {c}" if c >= 0 else "") + ")",
        INFAMY: lambda: f"{who} {'+' if a >= 0 else ''}{a} Infamy ({REASONS[b]}), now {c}",
        FIGHT: lambda: f"{who} {'boards' if b == 0 else 'shoots'} seat {a} with {c} card(s)",
        RESPONSE: lambda: "defender concedes" if a < 0 else f"defender answers with {S.TYPE_NAMES[a]} ({b} cards)",
        FIGHT_END: lambda: f"fight {a} v {b}: " + ("attacker wins", "defender wins", "tie", "conceded")[c],
        DAMAGE: lambda: f"{who} takes damage, now {a}",
        DEATH: lambda: f"{who} is sunk ({a} dead)",
        GHOST: lambda: f"{who} returns as the Ghost Pirate at square {a}",
        BURY: lambda: f"{who} buries treasure {a} at X {b} ({c} cards)",
        DIG: lambda: f"{who} digs at X {a}: draws {b}" + (f", takes treasure {c}" if c >= 0 else ""),
        DELIVER: lambda: f"{who} delivers treasure {b} for quest {a}: +{c} Infamy",
        BID: lambda: f"{who} bids {a} card(s), total {b}" + (" - wins" if c else ""),
        STARTER: lambda: f"seat {a} starts, direction {'clockwise' if b > 0 else 'counter-clockwise'}",
        END_TRIGGER: lambda: f"end triggered: {S.END_REASONS[a]}; the round is finished",
        SCORE: lambda: f"{who} ends with {a} Infamy (rank {b}){' - wins' if c else ''}",
        RESHUFFLE: lambda: f"the discards ({a}) become the action deck",
        FLEE: lambda: f"{who} flees {a} -> {b}",
        QUIRK: lambda: f"{who} takes quirk {quirk_name(a, context)} " + ("blind" if b else "face up") + f" ({c} left face up)",
        PLACE: lambda: f"{who} places its ship on X {b} (square {a})",
        GAMBLE: lambda: f"{who} gambles on its Infamy: draws {a}, gains {b}",
    }.get(code)
    return f"r{rnd:>3} " + (text() if text else f"{who} code {code} ({a}, {b}, {c})")
