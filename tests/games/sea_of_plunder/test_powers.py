"""The eight Player Power cards on hand-built positions (Card List: Player Power Cards)."""

from __future__ import annotations

from simkit.games.sea_of_plunder.events import card_name

from .harness import EV, N_CARDS, S, Table, kind_of, name_of, plain, score, sq

QUIET = """
      ABCDEFGHIJKLM
   1  p..p.........
   7  ......0......
  13  p..p.........
"""


def quiet(seed=1, players=4, power=None, seat=0):
    t = plain(players=players, seed=seed)
    t.layout(QUIET, clear_ports=False)
    if power is not None:
        t.set_power(seat, power)
    return t


# --------------------------------------------------------------------------- The Gambler
def test_gambler_halves_debt_toward_zero_by_default():
    """-7 Debt scores -3 (SOP-195, SOP-196; A37)."""
    t = plain()
    t.set_hand(0, [])
    t.seats[0, S.COMPASSES] = 0
    t.seats[0, S.DEBT] = 7
    assert score(t, 0) == -7
    t.set_power(0, S.GAMBLER)
    assert score(t, 0) == -3
    t.seats[0, S.DEBT] = 6
    assert score(t, 0) == -3


def test_gambler_rounding_down_reading():
    """gambler_rounding=down: -3.5 rounds down to -4 (SOP-X2)."""
    t = plain(overrides={"gambler_rounding": "down"})
    t.set_hand(0, [])
    t.seats[0, S.COMPASSES] = 0
    t.set_power(0, S.GAMBLER)
    t.seats[0, S.DEBT] = 7
    assert score(t, 0) == -4
    t.seats[0, S.DEBT] = 6
    assert score(t, 0) == -3


# --------------------------------------------------------------------------- Lucky Jill/Jack
def _lucky_turn(seed, hand):
    t = quiet(seed, power=S.LUCKY)
    t.set_hand(0, hand)
    t.set_pile_top("Magical Compass")  # an Event on the pile cannot be taken (A13)
    t.stack_deck(["Cursed Treasure", "Broken Compass"])
    start = int(t.pos[S.SHIP0])
    mark = t.mark()
    t.take_turn(0)
    return t, start, mark


def test_lucky_bonus_only_when_the_ship_did_not_move():
    """An unmoved ship may take up to 2 orthogonal steps at turn end (SOP-197, SOP-198; A10)."""
    bonus = 0
    for seed in range(30):
        t, start, mark = _lucky_turn(seed, ["Cursed Treasure", "Broken Compass"])
        own = [r for r in t.events(EV.SHIP_MOVE, mark) if r[3] == 0]
        moves = t.events(EV.BONUS_MOVE, mark)
        if moves:
            bonus += 1
            (row,) = moves
            assert row[3] == S.LUCKY and row[4] == start
            assert t.dist[start, row[5]] <= 2 and int(t.pos[S.SHIP0]) == row[5]
            assert t.codes(mark)[-1] in (EV.BONUS_MOVE, EV.EVENT)  # at the end of the turn
            assert len(own) == 1  # the bonus is the ship's only move
        else:
            assert int(t.pos[S.SHIP0]) == start and not own
    assert bonus >= 15
    moved = 0
    for seed in range(30):
        t, start, mark = _lucky_turn(seed, ["Three north", "Three east"])
        if kind_of(t.events(EV.PLAY, mark)[0][3]) == S.MAP:  # the ship moved: no bonus
            moved += 1
            assert not t.events(EV.BONUS_MOVE, mark)
        else:
            assert len(t.events(EV.BONUS_MOVE, mark)) <= 1
    assert moved >= 5


LUCKY_BOARD = """
      ABCDEFGHIJKLM
   1  p..p.........
   6  .......T.....
   7  ......0......
  13  p..p.........
"""


def test_lucky_steps_each_take_their_own_direction():
    """SOP-198 (A10): Lucky's two steps may go different ways. A Treasure Island one step north
    and one step east of the ship (H6 from G7) is reached by the bonus move: north then east,
    or east then north. Two steps the same way could only reach G5, I7, G9 or E7."""
    for seed in range(6):
        t = quiet(seed, power=S.LUCKY)
        t.layout(LUCKY_BOARD)
        t.set_strategy(0, "collector")
        t.set_active(0)
        mark = t.mark()
        t.call("bonus_move", seat=0, steps=2)
        (move,) = t.events(EV.BONUS_MOVE, mark)
        assert move[4] == sq("G7") and move[5] == sq("H6") and t.where("ship", 0) == "H6"
        assert [r[1] for r in t.events(EV.TREASURE, mark)].count(0) == 1  # pirates may gain on a re-roll
        assert t.seats[0, S.TREASURES] == 1


def test_lucky_random_steps_reach_diagonal_and_straight_squares():
    """SOP-198 (A10): with every choice random, two-step bonus moves end both two squares
    straight away and one square diagonally away: each step draws its own direction."""
    ends = set()
    for seed in range(120):
        t = quiet(seed, power=S.LUCKY)
        t.set_active(0)
        mark = t.mark()
        t.call("bonus_move", seat=0, steps=2)
        for move in t.events(EV.BONUS_MOVE, mark):
            ends.add(name_of(move[5]))
    assert {"F6", "H6", "F8", "H8"} <= ends  # one step N or S, one step E or W
    assert {"G5", "I7", "G9", "E7"} <= ends  # two steps the same way


def test_lucky_port_card_reentry_counts_as_moving():
    """A45: re-entering Rabakin with its card is a move, so no bonus."""
    played = 0
    for seed in range(40):
        t = plain(seed=seed)
        t.layout("""
              ABCDEFGHIJKLM
           1  p..p.........
           2  ......0......
          13  p..p.........
        """)
        t.set_power(0, S.LUCKY)
        t.set_hand(0, ["Rabakin"])
        t.set_pile_top("Magical Compass")
        t.stack_deck(["Cursed Treasure", "Broken Compass"])
        mark = t.mark()
        t.take_turn(0)
        if card_name(t.events(EV.PLAY, mark)[0][3]) == "Rabakin":
            played += 1
            assert not t.events(EV.BONUS_MOVE, mark)
    assert played >= 5


# --------------------------------------------------------------------------- The Navigator
def test_navigator_bonus_after_the_move_when_a_compass_is_spent():
    """SOP-199..SOP-202: one optional orthogonal step, after the triggering move, own ship only."""
    spent = 0
    for seed in range(40):
        t = quiet(seed, power=S.NAVIGATOR)
        t.set_active(0)
        card = t.set_hand(0, ["Three north"])[0]
        t.seats[0, S.COMPASSES] = 1
        start = int(t.pos[S.SHIP0])
        mark = t.mark()
        t.call("play_phase", seat=0)
        (play,) = t.events(EV.PLAY, mark)
        codes = t.codes(mark)
        if not play[5] & 16:
            assert EV.BONUS_MOVE not in codes and EV.COMPASS not in codes
            continue
        spent += 1
        end = t.trace(card, start, rotation=play[5] & 3)[-1]
        assert t.events(EV.SHIP_MOVE, mark)[0][5] == sq(end)
        assert EV.PIRATE_MOVE not in codes
        bonus = t.events(EV.BONUS_MOVE, mark)
        if bonus:
            assert codes.index(EV.BONUS_MOVE) > codes.index(EV.SHIP_MOVE)
            assert bonus[0][3] == S.NAVIGATOR and bonus[0][4] == sq(end)
            assert t.dist[sq(end), bonus[0][5]] <= 1
    assert spent >= 20


def test_navigator_may_spend_on_a_multi_option_card_without_turning():
    """A10/SOP-X1, SOP-201: only the Navigator is offered a spend on a multi-X card, unturned."""
    t = quiet(power=S.NAVIGATOR)
    t.set_active(0)
    t.set_hand(0, ["Fork north or south"])
    t.seats[0, S.COMPASSES] = 1
    from simkit.games.sea_of_plunder import engine

    n = t.call("list_plays", seat=0)
    rows = [tuple(int(x) for x in t.buf[engine.CAND0 + i, :5]) for i in range(n)]
    assert sorted((r[2], r[3], r[4]) for r in rows) == [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1)]
    t.set_power(0, S.LUCKY)
    n = t.call("list_plays", seat=0)
    assert all(t.buf[engine.CAND0 + i, 4] == 0 and t.buf[engine.CAND0 + i, 3] == 0 for i in range(n))


def test_navigator_bonus_follows_the_discard_bonus():
    seen = 0
    for seed in range(60):
        t = quiet(seed, power=S.NAVIGATOR)
        t.set_active(0)
        t.set_hand(0, ["Three east"])
        t.seats[0, S.COMPASSES] = 1
        mark = t.mark()
        t.call("discard_phase", seat=0)
        codes = t.codes(mark)
        if EV.BONUS_MOVE in codes:
            seen += 1
            assert EV.COMPASS in codes and codes.index(EV.BONUS_MOVE) > codes.index(EV.PIRATE_MOVE)
    assert seen >= 10


# --------------------------------------------------------------------------- Odd Jane/Jon
def _dealt(power, players=4, variant="standard", tries=400):
    for seed in range(tries):
        t = Table(players=players, variant=variant, seed=seed)
        seats = [s for s in range(players) if t.seats[s, S.POWER] == power]
        if seats:
            return t, seats[0]
    raise AssertionError(f"power {power} never dealt")


def test_odd_starts_with_an_extra_action_or_map_card_and_compass():
    """SOP-203..SOP-205."""
    dealt = 0
    for seed in range(150):
        players = 2 + seed % 3
        t = Table(players=players, seed=seed)
        for s in range(players):
            deck_cards = [c for c in t.hand(s) if c < N_CARDS]
            assert all(kind_of(c) in (S.MAP, S.ACTION) for c in deck_cards)
            odd = t.seats[s, S.POWER] == S.ODD
            dealt += odd
            assert len(deck_cards) == (6 if odd else 5)
            assert t.seats[s, S.COMPASSES] == (2 if odd else 1)
    assert dealt > 20


# --------------------------------------------------------------------------- The Scallywag
def test_scallywag_is_the_only_player_with_a_starting_good():
    """SOP-206; A43."""
    t, s = _dealt(S.SCALLYWAG, 4)
    for o in range(4):
        goods = t.goods(o)
        if o == s:
            assert goods == [1 if c == s else 0 for c in range(4)]  # seat s starts on island s (A3)
        else:
            assert goods == [0, 0, 0, 0]
    assert t.goods_total() == [4, 4, 4, 4]


def test_scallywag_two_player_opponent_keeps_one_good():
    """SOP-207: in the two-player variant the opponent keeps one of its two Goods (A43)."""
    t, s = _dealt(S.SCALLYWAG, 2, "two_player")
    islands = {0: (0, 2), 1: (1, 3)}  # seat 0 blue+purple, seat 1 green+orange (A27)
    assert t.goods(s) == [1 if c in islands[s] else 0 for c in range(4)]
    other = 1 - s
    assert t.goods(other) == [1 if c == islands[other][0] else 0 for c in range(4)]
    t, s = _dealt(S.GAMBLER, 2, "two_player")
    if all(t.seats[o, S.POWER] != S.SCALLYWAG for o in range(2)):
        assert sum(t.goods(0)) == 2 and sum(t.goods(1)) == 2


# --------------------------------------------------------------------------- The Smuggler
def test_smuggler_takes_an_available_good_at_the_end():
    """SOP-208; A32."""
    t = plain()
    t.set_power(1, S.SMUGGLER)
    for c in ("blue", "green", "orange"):
        t.set_stock(c, 0)
    goods = t.goods(1)
    t.call("final_scoring")
    (row,) = t.events(EV.SMUGGLE)
    assert row[1] == 1 and row[3] == 2  # purple, the only colour left
    assert t.goods(1)[2] == goods[2] + 1 and t.stock("purple") == t.goods_total()[2] - sum(
        t.goods(s)[2] for s in range(4))
    t = plain()
    t.set_power(1, S.SMUGGLER)
    for c in ("blue", "green", "purple", "orange"):
        t.set_stock(c, 0)
    goods = t.goods(1)
    t.call("final_scoring")
    assert not t.events(EV.SMUGGLE) and t.goods(1) == goods


def test_smuggler_good_counts_in_the_score():
    t = plain(players=2)
    t.set_power(0, S.SMUGGLER)
    t.set_hand(0, ["good:green"])
    t.set_stock("green", 0)
    t.set_stock("orange", 0)
    t.set_stock("purple", 0)  # only blue left: green + blue = 3 points
    t.seats[0, S.COMPASSES] = 0
    t.call("final_scoring")
    assert t.out_seats[0, 0, 0] == 3


# --------------------------------------------------------------------------- The Strategist
def test_strategist_spared_on_8_to_13_and_pirates_gain_nothing():
    """SOP-209, SOP-210; A9: spared iff the number die shows 8..13 (a skull does not spare)."""
    spared = bribed = 0
    for seed in range(80):
        t = plain(seed=seed)
        t.set_power(0, S.STRATEGIST)
        t.set_hand(0, ["good:blue", "Three north"])
        t.st[S.PIRATE_TREASURES] = 2
        mark = t.mark()
        t.call("pirate_contact", seat=0)
        (roll,) = t.events(EV.STRATEGIST, mark)
        assert roll[4] == (1 if roll[3] >= 7 else 0)  # roll index 7..12 is the face 8..13
        assert t.st[S.PIRATE_TREASURES] == 2
        if roll[4]:
            spared += 1
            assert t.goods(0)[0] == 1 and t.seats[0, S.DEBT] == 0 and not t.events(EV.BRIBE, mark)
        else:
            bribed += 1
            assert t.goods(0)[0] == 0 and len(t.events(EV.BRIBE, mark)) == 1
    assert spared and bribed


def test_strategist_low_parameter_moves_the_threshold():
    for seed in range(40):
        t = plain(seed=seed, overrides={"strategist_low": 13})
        t.set_power(0, S.STRATEGIST)
        t.set_hand(0, [])
        mark = t.mark()
        t.call("pirate_contact", seat=0)
        (roll,) = t.events(EV.STRATEGIST, mark)
        assert roll[4] == (1 if roll[3] >= 12 else 0)
        assert t.seats[0, S.DEBT] == (0 if roll[4] else 1)


# --------------------------------------------------------------------------- The Thief
THIEF_BOARD = """
      ABCDEFGHIJKLM
   1  p..p.........
   5  ......1......
   7  ......0......
  13  p..p.........
"""


def _thief_table(power=S.THIEF, thief_contact="own_move"):
    t = plain(overrides={"thief_contact": thief_contact})
    t.layout(THIEF_BOARD)
    t.set_power(0, power)
    t.set_hand(1, ["Three north", "Three east"])
    return t


def test_thief_steals_on_a_pass_over_instead_of_drawing():
    """SOP-211, SOP-212."""
    t = _thief_table()
    t.set_active(0)
    deck_n = int(t.st[S.DECK_N])
    t.sail_ship(0, ["G6", "G5", "G4"])
    assert len(t.events(EV.STEAL)) == 1 and not t.events(EV.BONUS_DRAW)
    assert t.st[S.DECK_N] == deck_n and len(t.hand(1)) == 1
    # without the power the same pass-over draws from the deck
    t = _thief_table(power=-1)
    t.set_active(0)
    t.sail_ship(0, ["G6", "G5", "G4"])
    assert not t.events(EV.STEAL) and len(t.events(EV.BONUS_DRAW)) == 1
    assert t.st[S.DECK_N] == deck_n - 1 and len(t.hand(1)) == 2


def test_a_thief_in_the_second_seat_steals_on_its_own_pass_over_too():
    """SOP-211, SOP-212 for seat 1: the Thief is whoever holds the power, not seat 0. Seat 1's ship
    passes over seat 0's on seat 1's turn and steals instead of drawing; without the power it
    draws."""
    for power, steals in ((S.THIEF, True), (-1, False)):
        t = plain(overrides={"thief_contact": "own_move"})
        t.layout(THIEF_BOARD)
        t.set_power(1, power)
        t.set_hand(0, ["Three north", "Three east"])
        t.set_active(1)
        t.sail_ship(1, ["G6", "G7", "G8"])
        if steals:
            (steal,) = t.events(EV.STEAL)
            assert (steal[1], steal[3]) == (1, 0) and not t.events(EV.BONUS_DRAW)
            assert len(t.hand(0)) == 1 and t.seats[1, S.STEALS] == 1
        else:
            assert not t.events(EV.STEAL) and len(t.events(EV.BONUS_DRAW)) == 1
            assert len(t.hand(0)) == 2


def test_thief_on_another_players_turn_follows_thief_contact():
    """A38/SOP-X3: a Thief moved on a rival's turn steals under own_move and any_contact,
    not under own_turn (which keeps the general no-reward-off-turn rule)."""
    for reading in ("own_move", "any_contact"):
        t = _thief_table(thief_contact=reading)
        t.set_active(2)
        t.sail_ship(0, ["G6", "G5"])
        (steal,) = t.events(EV.STEAL)
        assert steal[1] == 0 and steal[3] == 1, reading
    t = _thief_table(thief_contact="own_turn")
    t.set_active(2)
    t.sail_ship(0, ["G6", "G5"])
    assert not t.events(EV.STEAL) and not t.events(EV.BONUS_DRAW)


def _met_thief(reading, squares):
    """Seat 0 (no power) sails onto or over seat 1, The Thief, on seat 0's turn."""
    t = plain(overrides={"thief_contact": reading})
    t.layout(THIEF_BOARD)
    t.set_power(1, S.THIEF)
    t.set_hand(0, ["Three north", "Three east", "good:purple"])
    t.set_hand(1, ["Three south", "Three west"])
    t.set_active(0)
    t.sail_ship(0, squares)
    return t


def test_ship_moving_onto_the_thief_steals_back_only_under_any_contact():
    """A38: the default any_contact reading lets a Thief met by a rival's ship steal from it,
    after the mover's own steal; under own_move and own_turn only the mover steals."""
    for reading in ("own_move", "own_turn"):
        t = _met_thief(reading, ["G6", "G5"])  # seat 0 lands on the Thief
        (steal,) = t.events(EV.STEAL)
        assert steal[1] == 0 and steal[3] == 1, reading
        assert len(t.hand(0)) == 4 and len(t.hand(1)) == 1
    t = _met_thief("any_contact", ["G6", "G5"])
    first, second = t.events(EV.STEAL)
    assert (first[1], first[3]) == (0, 1) and (second[1], second[3]) == (1, 0)
    assert len(t.hand(0)) == 3 and len(t.hand(1)) == 2
    assert t.seats[1, S.STEALS] == 1 and t.seats[0, S.STEALS] == 1


def test_ship_passing_over_the_thief_draws_and_is_robbed_under_any_contact():
    """A38: a pass-over on the mover's turn draws for the mover (SOP-098); under any_contact
    the Thief steals from the mover as well."""
    t = _met_thief("own_move", ["G6", "G5", "G4"])
    assert not t.events(EV.STEAL) and len(t.events(EV.BONUS_DRAW)) == 1
    t = _met_thief("any_contact", ["G6", "G5", "G4"])
    (steal,) = t.events(EV.STEAL)
    assert (steal[1], steal[3]) == (1, 0) and len(t.events(EV.BONUS_DRAW)) == 1
    assert len(t.hand(0)) == 3 and len(t.hand(1)) == 3


def test_thief_reading_default_is_any_contact():
    """A38: the default reading (coverage.toml gives the reason)."""
    from simkit.games.sea_of_plunder import rules

    assert rules.SCHEMA.resolve("standard", {})["thief_contact"] == "any_contact"
