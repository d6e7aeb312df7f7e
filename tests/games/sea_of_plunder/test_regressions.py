"""Regression tests for defects found while the suite was written: each states the rule
(or line of the assumption register) the engine once broke and checks it now holds."""

from __future__ import annotations

from simkit.games.sea_of_plunder import state as S

from .harness import COMP, EV, plain


def test_two_player_lucky_bonus_may_move_either_ship():
    """Two Player Variant: "players may choose to move either one of their ships" (SOP-148);
    A27 binds the turn to the first ship *moved*. When no ship has moved (an Action was
    played), Lucky Jill/Jack's end-of-turn bonus should be free to use either ship.

    Diagnosis: engine.bonus_move takes `st[ACTIVE_SHIP]`, which take_turn leaves at -1 in the
    two-player variant until a ship moves, and then falls back to `first_ship(...)`: the bonus
    always moves the seat's first ship (ship 0 for seat 0), never ship 2. The Navigator's
    discard-phase bonus after an Action play has the same fallback."""
    ships = set()
    for seed in range(60):
        t = plain(players=2, variant="two_player", seed=seed)
        t.layout("""
              ABCDEFGHIJKLM
           1  p..p.........
           4  ..0.......2..
          10  ..1.......3..
          13  p..p.........
        """)
        t.set_power(0, S.LUCKY)
        t.set_hand(0, ["Cursed Treasure", "Broken Compass"])  # Action cards only: no ship moves
        t.set_pile_top("Magical Compass")
        t.stack_deck(["Cursed Treasure", "Broken Compass"])
        mark = t.mark()
        t.take_turn(0)
        if t.events(EV.BONUS_MOVE, mark):
            ships |= {r[3] for r in t.events(EV.SHIP_MOVE, mark)}
    assert ships == {0, 2}, f"the bonus only ever moved ship(s) {sorted(ships)}"


def test_map_cards_with_diagonal_steps_match_the_register():
    """A6 (coverage.toml) counts the Map designs with a diagonal step: five (the four two-step
    diagonals and "East, south-east, south"); the register once said four."""
    diagonal = {c.name for c in COMP.cards if c.kind == S.MAP and any(d % 2 for p in c.paths for d in p)}
    assert len(diagonal) == 5, sorted(diagonal)


def test_placement_onto_a_two_ship_player_draws_one_card():
    """Placing new Treasure Islands, 'Placed on a Player': the player draws *a* card
    (SOP-115). In the two-player variant one player may have both ships on the rolled square.

    The engine once drew a card per ship on the square; it now draws one per player (A41)."""
    hits = 0
    for seed in range(40):
        t = plain(players=2, variant="two_player", seed=seed)
        t.layout("""
              ABCDEFGHIJKLM
           1  p..p.........
           7  ......0......
          13  p..p.........
        """)
        t.put("ship", 2, "G7")  # seat 0's second ship on the same square
        for _ in range(200):
            t.set_islands(["A5"])
            mark = t.mark()
            t.call("place_island")
            rows = t.events(EV.PLACE_ON_SHIP, mark)  # one row per player hit by a roll
            if rows:
                hits += 1
                rolls = len(rows)
                draws = [r for r in t.events(EV.BONUS_DRAW, mark) if r[1] == 0]
                assert len(draws) == rolls, "one card per placement roll onto the player"
        if hits >= 3:
            break
    assert hits
