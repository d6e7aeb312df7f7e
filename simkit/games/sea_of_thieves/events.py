"""Event codes the Sea of Thieves engine logs, and how `simkit replay` narrates them.

A log row is (round, seat, code, a, b, c); ships are numbered 2 * seat + 0/1 and named
"ship 0" / "ship 1" of their seat in the narration.
"""

from simkit.games.sea_of_thieves import state as S

TURN = 1  # a = turn number, b = gold, c = reputation
PLACE = 2  # a = ship, b = hex
RESPAWN = 3  # a = ship, b = hex, c = tile position rolled
ACTION = 4  # a = ship, b = action (A_*), c = action number in the turn
TASK = 5  # a = ship, b = task (T_*), c = hex after it
MOVE = 6  # a = ship, b = from, c = to
PUSH = 7  # a = ship pushed, b = from, c = to
DAMAGE = 8  # a = ship, b = damage now, c = 1 treacherous waters / 0 Open Fire
ROLL = 9  # a = ship, b = dice, c = successes
REROLL = 10  # a = ship, b = dice rerolled, c = fortune card discarded
FIGHT = 11  # a = ship, b = hex, c = skeletons left
LOOT = 12  # a = ship, b = token kind drawn (6 = skeleton), c = value
HAUL = 13  # a = ship, b = token kind, c = value
DEFEAT = 14  # a = ship, b = 0 crew / 1 special crew / -1 saved with a resource, c = face-up left
SELL = 15  # a = ship, b = tokens sold, c = gold
COMMISSION = 16  # a = ship, b = commissions, c = reputation
REPAIR = 17  # a = ship, b = damage removed, c = gold paid
UPGRADE = 18  # a = ship, b = new type, c = gold paid
HIRE = 19  # a = ship, b = special crew card, c = gold paid
SEEK = 20  # a = voyage card, b = 1 kept / 0 discarded, c = gold paid
VOYAGE_START = 21  # a = ship, b = voyage card
VOYAGE_PROGRESS = 22  # a = ship, b = voyage card, c = progress
VOYAGE_DONE = 23  # a = ship, b = voyage card, c = reward amount
VOYAGE_ABANDON = 24  # a = ship, b = voyage card, c = penalty
SINK = 25  # a = ship, b = hex, c = cargo left in the hex
RISING = 26  # a = ship, b = water now, c = gauge
FORTUNE_DRAW = 27  # a = cards drawn
FORTUNE_PLAY = 28  # a = card, b = effect, c = ship
REPUTATION = 29  # a = change, b = reputation now
END_TRIGGER = 30  # a = reputation
SCORE = 31  # a = final score, b = rank, c = 1 if winner
OPEN_FIRE = 32  # a = ship, b = target ship, c = damage
DISCARD = 33  # a = 0 fortune / 1 voyage, b = card
LAYOUT = 34  # a = hub position, b = tile face (tile = b // 2 + 1, side = "AB"[b % 2])
SWAP = 35  # a = from ship, b = to ship, c = token
# part 2: enemies, ocean hazards and events (seat = the Scurvy Knave where one decides, else -1)
ENEMY_TURN = 36  # a = enemy, b = its hex
ENEMY_MOVE = 37  # a = enemy, b = from, c = to
ENEMY_ATTACK = 38  # a = enemy, b = ship attacked, c = damage
ENEMY_GRAB = 39  # a = enemy, b = ship, c = crew grabbed
SUBMERGE = 40  # a = enemy, b = hex it left
ENEMY_SPAWN = 41  # a = enemy, b = hex, c = tile position rolled / Kraken: ship under it / fort: progress slot
ENEMY_DAMAGE = 42  # a = enemy, b = ship firing, c = damage on its card now
ENEMY_DEFEATED = 43  # a = enemy (defeated, or a skeleton ship sunk), b = ship, c = hex
KRAKEN_WOUND = 44  # a = ship, b = wounds
KRAKEN_WAITS = 45
TENTACLES = 46  # a = tentacle tokens on the Kraken card
FORT_WAVE = 47  # a = hex, b = progress slot now, c = ship
FORT_RAIDED = 48  # a = ship, b = hex, c = reputation
CAPTAIN_DEFEATED = 49  # a = ship, b = captain token, c = hex
CAPTAIN_SOLD = 50  # a = ship, b = reputation
EVENT_CARD = 51  # a = event card
HIGH_SEAS = 52  # a = High Seas effect, b = its argument
CORNER = 53  # a = Cutthroats' Corner effect, b = its argument
SANDS = 54  # a = from island hex, b = to island hex
FIRE_ENEMY = 55  # a = ship, b = enemy, c = damage


def _ship(k: int) -> str:
    return f"seat {k // 2} ship {k % 2}"


def _enemy(e: int) -> str:
    return S.ENEMY_NAMES[e] if 0 <= e < S.N_ENEMIES else f"enemy {e}"


def describe_event(row, context=None) -> str:
    rnd, seat, code, a, b, c = (int(x) for x in row)
    who = "-" if seat < 0 else f"seat {seat}"
    text = {
        TURN: lambda: f"--- turn {a}: {who}, {b} gold, {c} reputation ---",
        PLACE: lambda: f"{_ship(a)} placed at hex {b}",
        RESPAWN: lambda: f"{_ship(a)} respawns at hex {b} (tile position {c})",
        ACTION: lambda: f"{_ship(a)}: action {c}, {S.ACTION_NAMES[b]}",
        TASK: lambda: f"{_ship(a)} crew task {S.TASK_NAMES[b]} (at hex {c})",
        MOVE: lambda: f"{_ship(a)} sails {b} -> {c}",
        PUSH: lambda: f"{_ship(a)} is pushed {b} -> {c}",
        DAMAGE: lambda: f"{_ship(a)} damaged ({('cannon fire', 'treacherous waters', 'a storm')[c]}), {b} now",
        ROLL: lambda: f"{_ship(a)} crew roll: {b} dice, {c} successes",
        REROLL: lambda: f"{_ship(a)} discards " + (f"fortune card {c}" if c >= 0 else f"kept event card {-100 - c}")
                        + f" to reroll {b} dice",
        FIGHT: lambda: f"{_ship(a)} fights a skeleton at hex {b} ({c} left)",
        LOOT: lambda: f"{_ship(a)} loots: {S.KIND_NAMES[b]}" + (f" ({c} gold)" if b != S.SKELETON else ""),
        HAUL: lambda: f"{_ship(a)} hauls a {S.KIND_NAMES[b]} ({c} gold)",
        DEFEAT: lambda: f"{_ship(a)} " + ("saves a crew member with a resource" if b < 0 else
                                           f"loses a {'special ' if b else ''}crew member") + f" ({c} face up)",
        SELL: lambda: f"{_ship(a)} sells {b} tokens for {c} gold",
        COMMISSION: lambda: f"{_ship(a)} claims {b} commission(s): +{c} reputation",
        REPAIR: lambda: f"{_ship(a)} repaired at the Outpost: {b} damage for {c} gold",
        UPGRADE: lambda: f"{_ship(a)} upgraded to a {S.SHIP_NAMES[b]} for {c} gold",
        HIRE: lambda: f"{_ship(a)} hires special crew card {b} for {c} gold",
        SEEK: lambda: f"{who} {'keeps' if b else 'returns'} voyage card {a}" + (f" for {c} gold" if b else ""),
        VOYAGE_START: lambda: f"{_ship(a)} starts voyage {b}",
        VOYAGE_PROGRESS: lambda: f"{_ship(a)} voyage {b}: progress {c}",
        VOYAGE_DONE: lambda: f"{_ship(a)} completes voyage {b} (reward {c})",
        VOYAGE_ABANDON: lambda: f"{_ship(a)} abandons voyage {b} (-{c} reputation)",
        SINK: lambda: f"{_ship(a)} sinks at hex {b}, {c} cargo left floating",
        RISING: lambda: f"{_ship(a)} takes on water: {b} of {c}",
        FORTUNE_DRAW: lambda: f"{who} draws {a} fortune card(s)",
        FORTUNE_PLAY: lambda: f"{who} plays fortune card {a} ({S.FORTUNE_EFFECTS[b]}) for {_ship(c)}",
        REPUTATION: lambda: f"{who} {'+' if a >= 0 else ''}{a} reputation, now {b}",
        END_TRIGGER: lambda: f"{who} reaches {a} reputation: the end is triggered, the round is finished",
        SCORE: lambda: f"{who} final score {a} (rank {b}){' - Pirate Legend!' if c else ''}",
        OPEN_FIRE: lambda: f"{_ship(a)} opens fire on {_ship(b)}: {c} damage",
        DISCARD: lambda: f"{who} discards {'voyage' if a else 'fortune'} card {b} at clean up",
        LAYOUT: lambda: f"hub position {a}: tile {b // 2 + 1} side {'AB'[b % 2]}",
        SWAP: lambda: f"{_ship(a)} passes a cargo token to {_ship(b)}",
        ENEMY_TURN: lambda: f"ocean hazards: the {_enemy(a)} takes its turn at hex {b}",
        ENEMY_MOVE: lambda: f"the {_enemy(a)} moves {b} -> {c}",
        ENEMY_ATTACK: lambda: f"the {_enemy(a)} attacks {_ship(b)}: {c} damage",
        ENEMY_GRAB: lambda: f"the {_enemy(a)} grabs {c} crew of {_ship(b)}",
        SUBMERGE: lambda: f"the {_enemy(a)} submerges at hex {b}",
        ENEMY_SPAWN: lambda: f"the {_enemy(a)} appears at hex {b}" + (
            f" (tile position {c})" if a in (S.MEGALODON, S.SKELETON_SLOOP, S.SKELETON_GALLEON) else
            f" under {_ship(c)}" if a == S.KRAKEN else f" (progress slot {c})"),
        ENEMY_DAMAGE: lambda: f"{_ship(b)} hits the {_enemy(a)}: {c} damage on its card",
        ENEMY_DEFEATED: lambda: f"the {_enemy(a)} " + ("sinks" if a in (S.SKELETON_SLOOP, S.SKELETON_GALLEON)
                                                     else "is defeated") + f" by {_ship(b)} at hex {c}",
        KRAKEN_WOUND: lambda: f"{_ship(a)} wounds the Kraken (three damage tokens): wound {b}",
        KRAKEN_WAITS: lambda: "the Kraken finds no ship to rise under and waits beside the board",
        TENTACLES: lambda: f"{a} tentacle token(s) on the Kraken card",
        FORT_WAVE: lambda: f"the fort at hex {a} is cleared by {_ship(c)}: progress slot {b}"
                           + (", a new wave rises" if b > 0 else ""),
        FORT_RAIDED: lambda: f"{_ship(a)} raids the skeleton fort at hex {b} (+{c} reputation)",
        CAPTAIN_DEFEATED: lambda: f"{_ship(a)} defeats a skeleton captain at hex {c}: captain's treasure",
        CAPTAIN_SOLD: lambda: f"{_ship(a)} sells captain's treasure: +{b} reputation",
        EVENT_CARD: lambda: f"event phase: the Scurvy Knave ({who}) draws event card {a}",
        HIGH_SEAS: lambda: f"high seas: {S.HIGH_SEAS[a]} ({b})",
        CORNER: lambda: f"cutthroats' corner for {who}: {S.CORNERS[a]} ({b})",
        SANDS: lambda: f"shifting sands: {who} moves a skeleton from hex {a} to hex {b}",
        FIRE_ENEMY: lambda: f"{_ship(a)} opens fire on the {_enemy(b)}: {c} hits",
    }.get(code)
    return f"r{rnd:>3} " + (text() if text else f"{who} code {code} ({a}, {b}, {c})")
