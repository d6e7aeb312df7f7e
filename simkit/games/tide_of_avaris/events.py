"""Event codes the Tide of Avaris engine logs, and how `simkit replay` narrates them.

A log row is (day, seat, code, a, b, c); seat -1 is the table (Night steps, the Navy).
"""

from simkit.games.tide_of_avaris import state as S

DAY = 1  # a = day, b = 1 on the final Day
ROLL = 2  # a = dice rolled, b = 1 if rerolled for gold, c = dice rerolled
TURN = 3  # a = 0 Sunrise / 1 Sunset, b = space, c = ready dice
MOVE = 4  # a = from, b = to, c = payment (PAY_*)
BRIBE = 5  # a = receiver (seat, or -2 the Navy), b = gold
COMBAT = 6  # seat attacks a = defender (seat, -2 Navy), b = wind (+1 attacker, -1 defender), c = navy card
BATTLE = 7  # a = attacker hits, b = defender hits, c = reroll number
STEAL = 8  # a = loser, b = treasures taken, c = half the loser's unbound
SINK = 9  # a = 1 treasure jettisoned / 0 a crew die, b = how many
RESPAWN = 10  # a = space
BURY = 11  # a = points, b = upper, c = lower
BONUS = 12  # a = burial bonus card, b = points, c = 1 private
ACTION = 13  # a = board action, b = space
COLLECT = 14  # a = colour, b = space
GAIN = 15  # a = colour (-1: gold instead), b = reason (R_*), c = gold
CONTROL = 16  # a = location (CTRL_*), b = sloops, c = previous controller
UPGRADE = 17  # a = track, b = new level, c = cost
NAVY_ROLL = 18  # a = face
NAVY_MOVE = 19  # a = from, b = to
NAVY_PLACE = 20  # a = card, b = space
WAGER = 21  # a = total, b = new position
TIDE = 22  # a = treasures placed, b = left in the bag, c = 1 if the bag ran out
END = 23  # a = end reason
SCORE = 24  # a = score, b = rank, c = 1 if winner
RELIC = 25  # a = card, b = effect, c = amount (1 for a rule-breaking relic)
EXPLORE = 26  # a = monster card
COMMAND = 27  # a = face, b = resource, c = amount
UNLOCK = 28  # a = endgame slot, b = token value
BIND = 29  # a = treasures bound
LOSS = 30  # a = colour taken, b = 1 onto the Navy card / 0 out of play
NAVY_ATTACK = 31  # the Navy attacks seat; a = card, b = wind
ENDGAME = 32  # a = bonus (-1 matching, -2 gold, else slot), b = points
WHIRLPOOL = 33  # a = from, b = to
RECYCLE = 34  # a = dice returned
RELOCATE = 35  # a = from, b = to
PRIVATE = 36  # a = burial bonus card drawn privately
REBUY = 37  # a = crew dice now

PAY_MATCH, PAY_TWO, PAY_ANY, PAY_RUM = 0, 1, 2, 3
PAYMENTS = ("a matching die", "two dice", "one die", "one rum")
R_REGION, R_EXPLORE, R_NAVY = 0, 1, 2
REASONS = ("region payout", "explore", "navy")
CONTROLS = ("Crew Spirit Die", "Marauder Spirit Die", "Guardian Spirit Die", "Region 1", "Region 2", "Region 3",
            "Region 4")


def _space(context, i: int) -> str:
    if i < 0:
        return "off the board"
    try:
        from simkit.games.tide_of_avaris import components

        value = (context or {}).get("rules", {}).get("components", "standard")
        return components.load(value).spaces[i][0]
    except Exception:  # noqa: BLE001 - narration never fails on a bad index
        return f"space {i}"


def _who(s: int) -> str:
    return {-2: "the Navy", -3: "the monster"}.get(s, f"seat {s}")


def describe_event(row, context=None) -> str:
    day, seat, code, a, b, c = (int(x) for x in row)
    who = "-" if seat == -1 else _who(seat)
    col = S.COLOURS[a] if 0 <= a < S.N_COLOURS else "?"
    text = {
        DAY: lambda: f"=== Day {a}{' (the final Day)' if b else ''} ===",
        ROLL: lambda: f"{who} rolls {a} crew dice" + (f", pays to reroll {c}" if b else ""),
        TURN: lambda: f"--- {who} {'Sunrise' if a == 0 else 'Sunset'} turn at {_space(context, b)}, {c} dice ready",
        MOVE: lambda: f"{who} moves {_space(context, a)} -> {_space(context, b)} paying {PAYMENTS[c]}",
        BRIBE: lambda: f"{who} bribes {_who(a)} {b} gold",
        COMBAT: lambda: f"{who} attacks {_who(a)}" + {1: " with the wind", -1: " against the wind"}.get(b, ""),
        BATTLE: lambda: f"  battle: {a} hits against {b}" + (f" (reroll {c})" if c else ""),
        STEAL: lambda: f"{who} steals {b} of seat {a}'s treasure (half of unbound = {c}) and binds it",
        SINK: lambda: f"{who} sinks, jettisoning " + (f"all {b} treasure" if a else "a crew die"),
        RESPAWN: lambda: f"{who} returns to {_space(context, a)}",
        BURY: lambda: f"{who} buries: {a} points ({b} upper, {c} lower)",
        BONUS: lambda: f"{who} takes {'a private' if c else 'the'} burial bonus {a}: +{b}",
        ACTION: lambda: f"{who} takes the board action {S.ACTIONS[a]} at {_space(context, b)}",
        COLLECT: lambda: f"{who} collects a {col} treasure at {_space(context, b)}",
        GAIN: lambda: f"{who} gains " + (f"{c} gold (empty bag)" if a < 0 else f"a random {col} treasure")
        + f" ({REASONS[b]})",
        CONTROL: lambda: f"{who} takes the {CONTROLS[a]} with {b} sloops" + (f" from seat {c}" if c >= 0 else ""),
        UPGRADE: lambda: f"{who} upgrades {S.TRACKS[a]} to {b} (cost {c})",
        NAVY_ROLL: lambda: f"the Navy die shows {S.NAVY_FACES[a]}",
        NAVY_MOVE: lambda: f"the Navy moves {_space(context, a)} -> {_space(context, b)}",
        NAVY_PLACE: lambda: f"a new Navy ship (card {a}) is placed at {_space(context, b)}",
        WAGER: lambda: f"{who} wagers {a}: position {b + 1}",
        TIDE: lambda: f"the Rising Tide places {a} treasures, {b} left in the bag" + (" - the bag is empty" if c else ""),
        END: lambda: f"the game ends: {S.END_REASONS[a]}",
        SCORE: lambda: f"{who} ends with {a} Treasure Points (rank {b}){' - wins' if c else ''}",
        RELIC: lambda: f"{who} gains relic {a} ({S.RELIC_EFFECTS[b]}{f' +{c}' if b < S.N_BONUS_EFFECTS else ''})",
        EXPLORE: lambda: f"{who} explores and meets monster {a}",
        COMMAND: lambda: f"{who} commands a die for {c} {S.RESOURCES[b]}",
        UNLOCK: lambda: f"{who} unlocks endgame bonus {a} with the {b} token",
        BIND: lambda: f"{who} binds {a} treasure",
        LOSS: lambda: f"{who} loses a {col} treasure " + ("to the Navy" if b else "to the monster"),
        NAVY_ATTACK: lambda: f"the Navy attacks {who}" + {1: " with the wind", -1: " against the wind"}.get(b, ""),
        ENDGAME: lambda: f"{who} scores " + {-1: "Matching Colours", -2: "Gold"}.get(a, f"endgame bonus {a}")
        + f": +{b}",
        WHIRLPOOL: lambda: f"{who} rides the Whirlpool to {_space(context, b)}",
        RECYCLE: lambda: f"{who} recycles {a} dice",
        RELOCATE: lambda: f"{who} relocates the Navy {_space(context, a)} -> {_space(context, b)}",
        PRIVATE: lambda: f"{who} draws a private burial bonus",
        REBUY: lambda: f"{who} buys back a crew die ({a} now)",
    }.get(code)
    return f"d{day:>2} " + (text() if text else f"{who} code {code} ({a}, {b}, {c})")
