"""The bots read the components they play with: a ship fight's odds come from the ship deck's
printed healths (ships.toml, counted into K[HEALTHS0 + deck]), not from healths typed into the bot. Under
`alt-strong-routes` (6 Trade Route ships of health 4 and 16 of health 5, against 11 and 11) a
Trade Route fight is worth less to the bot, by exactly what those healths give."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.set_sail import components
from strategies import set_sail as bot

from .harness import COMP, S, Table

ALT = "alt-strong-routes"


def odds(healths, bonus: int) -> tuple[float, float]:
    """(P(d6 + bonus >= health), mean Supply lost) over a deck's cards, worked out here."""
    win = np.mean([min(1.0, max(0.0, (7 + bonus - h) / 6)) for h in healths])
    lost = np.mean([np.mean([max(0, h - r - bonus) for r in range(1, 7)]) for h in healths])
    return float(win), float(lost)


def table(components_set: str, cannons: int) -> Table:
    """A 2-player position where seat 0 has no goal to lean toward (no silver, no cards, a full
    Supply), so a water tile's value is the value of what happens there; the rival's pieces sit
    on a port, out of reach of a raid."""
    t = Table(players=2, seed=5, strategies="tuned", overrides={"components": components_set})
    me = t.seat(0)
    me[S.SILVER] = 0
    me[S.SUPPLY] = 10
    me[S.UPG0 + S.CANNON] = cannons
    port = COMP.types.index(S.SUPPLY_PORT)
    t.put(1, 0, port)
    t.put(1, 1, port)
    return t


def tile_values(t: Table) -> np.ndarray:
    out = np.zeros(S.MAX_TILES)
    bot.tile_values(t.P, t.T, t.K, t.F[1], np.int64(0), out)
    return out


def test_the_alternative_set_changes_only_the_trade_route_deck():
    base, alt = components.load(), components.load(ALT)
    assert alt.ships[S.DW] == base.ships[S.DW]
    assert sorted(base.ships[S.TR]) == [4] * 11 + [5] * 11
    assert sorted(alt.ships[S.TR]) == [4] * 6 + [5] * 16
    for comp in (base, alt):
        (K,) = components.compile_arrays(comp, Table(players=2).values, 2)
        for deck in (S.DW, S.TR):
            assert list(K[S.HEALTHS0 + deck, : S.MAX_HEALTH]) == [comp.ships[deck].count(h) for h in range(S.MAX_HEALTH)]


@pytest.mark.parametrize("components_set", ["standard", ALT])
@pytest.mark.parametrize("cannons", [0, 1, 2, 3])
def test_fight_odds_are_the_decks_healths(components_set, cannons):
    t = table(components_set, cannons)
    comp = components.load(components_set)
    for deck in (S.DW, S.TR):
        win, lost = bot.ship_odds(t.K, np.int64(deck), np.int64(cannons))
        assert (win, lost) == pytest.approx(odds(comp.ships[deck], cannons), abs=1e-12)


def test_standard_odds_are_the_base_sets_exactly():
    """Under the standard set the odds are the figures the bot held before it read the deck
    (health 3; half 4 and half 5), to the bit: the standard games stay the same."""
    t = table("standard", 1)
    assert bot.ship_odds(t.K, np.int64(S.DW), np.int64(1)) == (bot.win_chance(1, 3.0), bot.expected_shortfall(1, 3))
    win, lost = bot.ship_odds(t.K, np.int64(S.TR), np.int64(1))
    assert win == 0.5 * (bot.win_chance(1, 4.0) + bot.win_chance(1, 5.0))
    assert lost == 0.5 * (bot.expected_shortfall(1, 4) + bot.expected_shortfall(1, 5))


@pytest.mark.parametrize("cannons", [0, 1])
def test_a_trade_route_fight_is_worth_what_the_alternative_healths_give(cannons):
    std, alt = table("standard", cannons), table(ALT, cannons)
    rows = [r for r in range(S.T_ROWS) if r != S.DECK0 + S.TR]
    assert (std.T[rows] == alt.T[rows]).all()  # the same position; only the Trade Route deck differs
    v_std, v_alt = tile_values(std), tile_values(alt)
    n = len(COMP.names)
    types = np.array(COMP.types)
    route = types[:n] == S.ROUTE
    assert route.any()
    # every other tile is valued as before; a Trade Route tile lower
    assert (v_std[:n][~route] == v_alt[:n][~route]).all()
    assert (v_alt[:n][route] < v_std[:n][route]).all()
    # a route tile's value is P(win) x (the fight's pay) - Supply lost (risk 1 with a full Supply):
    # the pay, read off the standard position, with the alternative healths' odds gives its value there
    win_std, lost_std = odds(components.load().ships[S.TR], cannons)
    win_alt, lost_alt = odds(components.load(ALT).ships[S.TR], cannons)
    t = int(np.flatnonzero(route)[0])
    pay = (v_std[t] + lost_std) / win_std
    assert v_alt[t] == pytest.approx(win_alt * pay - lost_alt, abs=1e-9)


@pytest.mark.parametrize("price", [1, 2])
def test_supply_is_valued_at_the_supply_price(price):
    """What the Supply Port is worth: the Supply the seat can pay for at supply_price silver a
    token (3 silver: 3 tokens at 1, 1.5 at 2), toward the 5 it lacks, plus the running-out bonus."""
    t = Table(players=2, seed=5, strategies="tuned", overrides={"supply_price": price})
    t.F[1, bot.W_SAFE] = 6.0
    me = t.seat(0)
    me[S.SILVER] = 3
    me[S.SUPPLY] = 1
    port = COMP.types.index(S.SUPPLY_PORT)
    assert tile_values(t)[port] == 2.0 * min(5.0, 3 / price) + 6.0
