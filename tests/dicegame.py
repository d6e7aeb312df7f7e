"""Dice race: a tiny test-only game that exercises every part of the engine contract.

It is registered for the test suite through SIMKIT_GAME_MODULES=tests.dicegame (see
conftest.py), so the toolkit is tested without depending on a real game.

Rules. Each seat is dealt a colour at random; the red seat starts with `red_bonus`
points. On a turn a seat rolls the die again and again, adding the faces to its turn
total, until it holds (banking the total) or rolls a 1 (a bust: the turn total is
lost). A seat holds as soon as banking would reach `target`. When a seat reaches the
target the round is played out (`last_chance`), so every seat has had as many turns;
then the highest score wins, ties broken by fewer rolls, and a tie that survives is
shared. A game still running after `round_cap` rounds ends as "round_cap".

Seat-0 rule knobs (the robustness tests' findings, tests/test_robustness.py): `first_seat_limit`
(0: off) makes the first seat's turns short: its turn total busts once past the limit, and
each turn it banks earns `first_seat_hold_bonus` more points, which helps a seat that holds
early and ruins one that holds late; `five_bonus` adds points to the first seat's turn total for
each 5 it rolls, so it does nothing with a die that has no 5.

Components. The d6's faces are a component file (dicegame_components/d6.txt); the
shipped alternative set `alt-loaded` replaces the 5 with a second 6.

Bots. Weights are (policy, hold_at, rollouts, hold_lead): policy 0 holds with probability 1/2
after each roll (`random`); policy 1 holds once the turn total reaches hold_at (hold_lead
instead while no rival is ahead, unless it is 0); policy 2
(`lookahead`) scores "hold" and "roll again" by `rollouts` playouts each, every seat
holding at hold_at in them, drawn from its own decision stream, and takes the better.
The last column of a strategy row is its noise (skill knob): the chance that a decision
is the random one instead. Designer knob: `head_start` gives each seat points at set-up.
Score trace: a seat's score after each round.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simkit.core.bots import LOOKAHEAD, RANDOM, BotParam
from simkit.core.components import ComponentSet, component_param
from simkit.core.errors import InputError
from simkit.core.game import END_REASON, RANK, ROUNDS, SCORE, TURNS, WINNER, Compiled, Game, Metric, Preset
from simkit.core.jit import jit
from simkit.core.kernels import noisy
from simkit.core.rng import CHANCE, randint, seed_streams, shuffle
from simkit.core.rules import DESIGNER_KNOB, Param, RuleSchema, Variant

COMPONENTS = Path(__file__).parent / "dicegame_components"
FILES = ("d6.txt",)

RULES = RuleSchema(
    game="dicegame",
    params=(
        Param("target", "int", 40, (10, 200), "points that end the game", "Dice race 1"),
        Param("round_cap", "int", 60, (1, 10_000), "rounds after which an unfinished game stops", "A1"),
        Param("die", "choice", "d6", ("d6", "d8"), "the die rolled", "Dice race 2"),
        Param("last_chance", "bool", True, (), "finish the round once a seat reaches the target", "Dice race 3"),
        Param("red_bonus", "int", 2, (0, 20), "head start of the seat dealt red", "Dice race 4"),
        Param("head_start", "ints", [0, 0, 0, 0], (0, 50, 4), "points each seat starts with, by seat",
              DESIGNER_KNOB),
        Param("first_seat_limit", "int", 0, (0, 60), "the first seat busts once its turn total passes this (0: no "
              "limit)", "Dice race 5"),
        Param("first_seat_hold_bonus", "int", 0, (0, 20), "points the first seat adds to each turn total it banks",
              "Dice race 5"),
        Param("five_bonus", "int", 0, (0, 20), "points the first seat adds to its turn total for each 5 it rolls",
              "Dice race 6"),
        component_param(COMPONENTS),
    ),
    variants=(
        Variant("quick", {"target": 20}, "a short race"),
        Variant("duel", {"target": 60}, "a long race for two", players=(2,)),
        Variant("sudden", {"last_chance": False}, "the first seat to reach the target wins at once"),
    ),
)

COLOURS = ("red", "green", "blue", "yellow")
END_REASONS = ("target", "round_cap")
TARGET_REACHED, ROUND_CAP = 0, 1  # codes of END_REASONS

# event codes: log rows are (round, seat, code, a, b, c)
DEAL = 0  # a: colour index
ROLL = 1  # a: face, b: turn total after the roll
BUST = 2  # a: turn total lost
HOLD = 3  # a: points banked, b: score after banking
END = 4  # a: end reason code

# game-metric and seat-metric columns after the contract's fixed ones
BUSTS, WINNING_COLOUR = 3, 4  # out_games; WINNING_COLOUR: 0 none, else 1 + colour
ROLLS_TOTAL, COLOUR = 3, 4  # out_seats


@jit
def _log(log, log_count, rnd, seat, code, a, b):
    k = log_count[0]
    if k < log.shape[0]:
        log[k, 0] = rnd
        log[k, 1] = seat
        log[k, 2] = code
        log[k, 3] = a
        log[k, 4] = b
        log[k, 5] = 0
        log_count[0] = k + 1


@jit
def _winner_share(score, rolls, seat, finished):
    """The seat's share of the win after the tie-breaker (fewer rolls); 0 if unfinished."""
    if not finished:
        return 0.0
    best = 0
    for t in range(score.shape[0]):
        if score[t] > score[best] or (score[t] == score[best] and rolls[t] < rolls[best]):
            best = t
    if score[seat] != score[best] or rolls[seat] != rolls[best]:
        return 0.0
    k = 0
    for t in range(score.shape[0]):
        if score[t] == score[best] and rolls[t] == rolls[best]:
            k += 1
    return 1.0 / k


@jit
def _add_face(params, seat, turn_total, face):
    """The turn total after a face that is not a 1: the first seat's 5s earn `five_bonus` (Dice
    race 6); past `first_seat_limit` the first seat busts (Dice race 5), returned as -1."""
    turn_total += face
    if seat == 0:
        if face == 5:
            turn_total += params.five_bonus
        if params.first_seat_limit > 0 and turn_total > params.first_seat_limit:
            return np.int64(-1)
    return turn_total


@jit
def _banked(params, seat, turn_total):
    """What a held turn total banks: the first seat's earns `first_seat_hold_bonus` more (Dice race 5)."""
    if seat == 0 and turn_total > 0:
        return turn_total + params.first_seat_hold_bonus
    return turn_total


@jit
def _playout(params, faces, rng, me, score, rolls, seat, turn_total, rnd, hold_at, hold):
    """Finish the game from seat's decision point, all dice from `me`'s stream (1 + me);
    `hold`: the decision taken now. Returns me's win share. Edits score and rolls."""
    n_faces = np.int64(faces.shape[0])
    players = score.shape[0]
    finished = False
    first = True
    while rnd <= params.round_cap:
        for s in range(seat if first else 0, players):
            if not first:
                turn_total = 0
            while not (first and hold):
                first = False
                face = faces[randint(rng, 1 + me, n_faces)]
                rolls[s] += 1
                if face == 1:
                    turn_total = 0
                    break
                turn_total = _add_face(params, s, turn_total, face)
                if turn_total < 0:  # past the first seat's limit (Dice race 5)
                    turn_total = 0
                    break
                if score[s] + turn_total >= params.target or turn_total >= hold_at:
                    break
            first = False
            score[s] += _banked(params, s, turn_total)
            if score[s] >= params.target:
                finished = True
                if params.last_chance == 0:
                    return _winner_share(score, rolls, me, True)
        if finished:
            break
        rnd += 1
    return _winner_share(score, rolls, me, finished)


@jit
def _holds(params, faces, rng, seat, weights, noise, score, rolls, turn_total, rnd, scratch):
    """The bot's one decision: hold now? Drawn from the seat's own stream."""
    if weights[0] == 0.0 or noisy(rng, seat, noise):
        return randint(rng, 1 + seat, np.int64(2)) == 0
    if weights[0] == 2.0:  # lookahead: playouts of hold and of one more roll, on the same dice
        value = np.zeros(2)
        saved = rng[1 + seat].copy()
        for _ in range(np.int64(weights[2])):
            for option in range(2):
                rng[1 + seat] = saved
                scratch[0, :] = score
                scratch[1, :] = rolls
                value[option] += _playout(params, faces, rng, seat, scratch[0], scratch[1], seat, turn_total,
                                          rnd, weights[1], option == 0)
            saved[:] = rng[1 + seat]
        if turn_total >= weights[1]:  # a tie goes to the heuristic's choice
            return value[0] >= value[1]
        return value[0] > value[1]
    hold_at = weights[1]
    if weights[3] > 0.0:  # hold_lead: another total while the seat leads (0: the same)
        leads = True
        for t in range(score.shape[0]):
            if t != seat and score[t] > score[seat]:
                leads = False
        if leads:
            hold_at = weights[3]
    return turn_total >= hold_at


@jit
def play_chunk(params, components, presets, seat_strategies, seeds, out_games, out_seats, log, log_count, trace):
    faces = components[0]
    n_faces = np.int64(faces.shape[0])
    players = seat_strategies.shape[1]
    noise_column = presets.shape[1] - 1
    rng = np.zeros((1 + players, 4), dtype=np.uint64)
    colour_order = np.zeros(len(COLOURS), dtype=np.int64)
    score = np.zeros(players, dtype=np.int64)
    rolls = np.zeros(players, dtype=np.int64)
    colour = np.zeros(players, dtype=np.int64)
    scratch = np.zeros((2, players), dtype=np.int64)
    head_start = (params.head_start_1, params.head_start_2, params.head_start_3, params.head_start_4)
    for g in range(seeds.shape[0]):
        seed_streams(rng, seeds[g])
        for k in range(colour_order.shape[0]):
            colour_order[k] = k
        shuffle(rng, CHANCE, colour_order, np.int64(colour_order.shape[0]))
        for s in range(players):
            colour[s] = colour_order[s]
            score[s] = (params.red_bonus if colour[s] == 0 else 0) + head_start[s]
            rolls[s] = 0
            _log(log, log_count, np.int64(0), np.int64(s), np.int64(DEAL), colour[s], np.int64(0))
        busts = np.int64(0)
        turns = np.int64(0)
        rnd = np.int64(0)
        finished = False
        while not finished and rnd < params.round_cap:
            rnd += 1
            for s in range(players):
                weights = presets[seat_strategies[g, s]]
                noise = weights[noise_column]
                turn_total = np.int64(0)
                while True:
                    face = faces[randint(rng, CHANCE, n_faces)]
                    rolls[s] += 1
                    if face == 1:
                        busts += 1
                        _log(log, log_count, rnd, np.int64(s), np.int64(BUST), turn_total, np.int64(0))
                        turn_total = 0
                        break
                    total = _add_face(params, s, turn_total, face)
                    if total < 0:  # past the first seat's limit (Dice race 5): a bust
                        busts += 1
                        _log(log, log_count, rnd, np.int64(s), np.int64(BUST), turn_total + face, np.int64(0))
                        turn_total = 0
                        break
                    turn_total = total
                    _log(log, log_count, rnd, np.int64(s), np.int64(ROLL), face, turn_total)
                    if score[s] + turn_total >= params.target or _holds(
                            params, faces, rng, s, weights, noise, score, rolls, turn_total, rnd, scratch):
                        break
                turn_total = _banked(params, s, turn_total)
                score[s] += turn_total
                turns += 1
                if turn_total > 0:
                    _log(log, log_count, rnd, np.int64(s), np.int64(HOLD), turn_total, score[s])
                if score[s] >= params.target:
                    finished = True
                    if params.last_chance == 0:
                        break
            if trace.shape[0] > 0 and rnd <= trace.shape[1]:
                for s in range(players):
                    trace[g, rnd - 1, s] = score[s]
        end = TARGET_REACHED if finished else ROUND_CAP
        _log(log, log_count, rnd, np.int64(-1), np.int64(END), np.int64(end), np.int64(0))
        out_games[g, ROUNDS] = rnd
        out_games[g, TURNS] = turns
        out_games[g, END_REASON] = end
        out_games[g, BUSTS] = busts
        out_games[g, WINNING_COLOUR] = 0
        for s in range(players):
            rank = np.int64(1)
            for t in range(players):  # better: more points, or as many in fewer rolls
                if score[t] > score[s] or (score[t] == score[s] and rolls[t] < rolls[s]):
                    rank += 1
            wins = 1 if finished and rank == 1 else 0
            out_seats[g, s, SCORE] = score[s]
            out_seats[g, s, RANK] = rank
            out_seats[g, s, WINNER] = wins
            out_seats[g, s, ROLLS_TOTAL] = rolls[s]
            out_seats[g, s, COLOUR] = colour[s]
            if wins:
                out_games[g, WINNING_COLOUR] = 1 + colour[s]


def load_d6(cset: ComponentSet) -> np.ndarray:
    """The d6's six faces from its file, each 1..20: a mistake names the file and line."""
    for number, line in enumerate(cset.read_text("d6.txt").splitlines(), 1):
        if line.strip() and not line.strip().startswith("#"):
            try:
                faces = [int(word) for word in line.split()]
            except ValueError:
                raise InputError(f"{cset.where('d6.txt')}:{number}: faces must be whole numbers") from None
            if len(faces) != 6 or not all(1 <= f <= 20 for f in faces):
                raise InputError(f"{cset.where('d6.txt')}:{number}: a d6 has 6 faces, each 1..20; got {line.strip()}")
            return np.array(faces, dtype=np.int64)
    raise InputError(f"{cset.where('d6.txt')}: no faces")


def compile_rules(values: dict, players: int) -> Compiled:
    """The die's faces are the one component; the d6 file and the die's name are what the rules hash sees."""
    cset = ComponentSet.open(COMPONENTS, values["components"])
    faces = load_d6(cset) if values["die"] == "d6" else np.arange(1, 9, dtype=np.int64)
    return Compiled(RULES.engine_tuple(values), (faces,), f"faces {values['die']}".encode() + cset.raw(FILES))


def check_players(players: int, values: dict) -> str | None:
    if players == 4 and values["target"] < 15:
        return "4 players need a target of at least 15"
    return None


def describe_event(row, context: dict) -> str:
    rnd, seat, code, a, b, _ = (int(x) for x in row)
    who = f"seat {seat} ({context['strategies'][seat]})" if seat >= 0 else ""
    if code == DEAL:
        return f"setup: {who} is dealt {COLOURS[a]}"
    if code == ROLL:
        return f"round {rnd}: {who} rolls {a}, turn total {b}"
    if code == BUST:
        return f"round {rnd}: {who} rolls a 1 and loses {a}"
    if code == HOLD:
        return f"round {rnd}: {who} holds, banking {a} for {b}"
    if code == END:
        return f"round {rnd}: game over ({END_REASONS[a]})"
    return f"round {rnd}: {who} event {code} ({a}, {b})"


GAME = Game(
    id="dicegame",
    title="Dice race (test game)",
    players=(2, 3, 4),
    rules=RULES,
    presets=(
        Preset("random", "holds at random after each roll", (0.0, 0.0, 0.0), RANDOM),
        Preset("careful", "holds once the turn total reaches 12", (1.0, 12.0, 0.0)),
        Preset("bold", "holds once the turn total reaches 25", (1.0, 25.0, 0.0)),
        Preset("lookahead", "plays out holding and rolling on, 100 times each on the same dice, and takes the better",
               (2.0, 12.0, 100.0), LOOKAHEAD),
    ),
    bot_params=(
        BotParam("hold_at", 1, 2, 60, "hold once the turn total reaches this (the lookahead's playouts too)",
                 integer=True),
        BotParam("rollouts", 2, 1, 1000, "playouts of each choice", integer=True, reader=LOOKAHEAD),
        BotParam("hold_lead", 3, 0, 60, "while leading (no rival ahead), hold at this total instead (0: hold_at)",
                 integer=True),
    ),
    default_strategy="careful",
    end_reasons=END_REASONS,
    game_metrics=(
        Metric("busts", "turns lost to a 1"),
        Metric("winning_colour", "colour of the sole or shared winner", ("none",) + COLOURS),
    ),
    seat_metrics=(
        Metric("rolls_total", "dice rolled by the seat"),
        Metric("colour", "colour dealt to the seat", COLOURS),
    ),
    compile=compile_rules,
    play_chunk=play_chunk,
    describe_event=describe_event,
    check_players=check_players,
)
