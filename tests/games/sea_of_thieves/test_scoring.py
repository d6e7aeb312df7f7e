"""Winning the Game: final scoring steps and the tie-breakers."""

from .harness import S, Table

RANK, WINNER = 1, 2


def scored(t):
    t.st[S.END_REASON] = S.END_REPUTATION
    t.call("final_scoring", players=t.players)
    return [(int(t.out[s, 0]), int(t.out[s, RANK]), int(t.out[s, WINNER])) for s in range(t.players)]


def bare(players=2):
    t = Table(players)
    for k in range(2 * players):
        t.empty_hold(k)
    for s in range(players):
        t.seat(s)[S.GOLD] = 0
    return t


def test_wealth_penalties_and_fleet_values():
    t = bare()
    t.seat(0)[S.REP] = 20
    t.seat(0)[S.GOLD] = 1499  # 2 full 500s
    t.ship(0)[S.TYPE] = S.GALLEON
    t.ship(1)[S.TYPE] = S.BRIGANTINE
    t.ship(1)[S.SPEC0] = 9
    t.ship(1)[S.SPEC_DOWN0] = 1  # a defeated special crew token still scores its card (A28)
    v = t.voyage("dig", "legendary")
    t.ship(0)[S.VOYAGE] = v
    t.set_voyage_hand(0, [t.voyage("fight", "legendary")])  # cards in hand do not count
    expect = 20 + 2 - int(t.K[S.V_PENALTY, v]) + 4 + 2 + int(t.K[S.C_REP, 9])
    assert scored(t)[0][0] == expect


def test_voyage_penalties_stop_at_zero_before_the_fleet_is_added():
    t = bare()
    t.seat(0)[S.REP] = 1
    t.ship(0)[S.VOYAGE] = t.voyage("sink", "legendary")  # penalty 3
    t.ship(1)[S.TYPE] = S.BRIGANTINE
    assert scored(t)[0][0] == 0 + 2  # max(0, 1 - 3) + 2 (A27)


def test_ties_go_to_treasure_tokens_then_loot_tokens_then_are_shared():
    t = bare(3)
    for s in range(3):
        t.seat(s)[S.REP] = 10
    t.give(0, S.LOOT_BAG, S.RESOURCE)
    t.give(4, S.TREASURE_BAG, S.TRINKET)
    assert scored(t) == [(10, 2, 0), (10, 3, 0), (10, 1, 1)]
    t = bare(3)
    for s in range(3):
        t.seat(s)[S.REP] = 10
    t.give(0, S.LOOT_BAG, S.RESOURCE)
    t.give(4, S.LOOT_BAG, S.CRATE)
    t.give(4, S.LOOT_BAG, S.CRATE)
    assert scored(t)[2] == (10, 1, 1) and scored(t)[0][1] == 2
    t = bare(2)
    for s in range(2):
        t.seat(s)[S.REP] = 7
    assert scored(t) == [(7, 1, 1), (7, 1, 1)]


def test_a_capped_game_has_no_winner():
    t = bare()
    t.seat(0)[S.REP] = 9
    t.st[S.END_REASON] = S.END_ROUND_CAP
    t.call("final_scoring", players=2)
    assert t.out[0, RANK] == 1 and t.out[:, WINNER].sum() == 0


# the state count behind each declared seat metric (GAME.seat_metrics, in order); reputation is the score
METRIC_SOURCES = {"gold": S.GOLD, "voyages_done": S.VOYAGES_DONE, "commissions": S.COMMISSIONS,
                  "sinkings": S.SINKINGS, "upgrades": S.UPGRADES, "monsters_defeated": S.MONSTERS,
                  "forts_raided": S.FORTS, "ships_sunk_by_hazards": S.HAZARD_SINKS}


def test_every_seat_metric_is_that_seats_own_count_under_its_own_name():
    """Each seat's counts differ from every other seat's and from each other (seat s, metric i
    holds 10 s + i + 1), so a count read from the wrong seat or written under another metric's
    name shows, at every player count and for the last seat as for the first."""
    from simkit.core.game import SEAT_COLUMNS
    from simkit.games.sea_of_thieves import GAME

    names = [m.name for m in GAME.seat_metrics]
    assert set(METRIC_SOURCES) == set(names) - {"reputation"}
    for players in (2, 3, 4):
        t = bare(players)
        for s in range(players):
            for i, name in enumerate(names):
                if name in METRIC_SOURCES:
                    t.seat(s)[METRIC_SOURCES[name]] = 10 * s + i + 1
        scored(t)
        for s in range(players):
            row = t.out[s, SEAT_COLUMNS:]
            assert row[names.index("reputation")] == t.out[s, 0]
            for i, name in enumerate(names):
                if name in METRIC_SOURCES:
                    assert row[i] == 10 * s + i + 1, (players, s, name, row[i])
