"""The heuristic's added judgements (slots 22-25: unlock, payout, exposure, control_rivals): each
changes a hand-built destination when on, and at its off value 0 leaves every score as the
presets have it (they hold 0, so their games are unchanged: the golden replays)."""

import numpy as np
import pytest

from .harness import S, Table, bot

N_SPACES = 24


def bare_table(players=2, here="Twin Wrecks", hold=None):
    """Seat 0 at `here` with three ready dice and a rum, every other ship far away, no treasure on
    the board, no Burial Bonus in play, no Navy; seat 0's weights all 0 but greed 2 and a bank
    threshold it cannot reach, so a space is worth its treasure less 0.6 a lane (and the few
    actions that have a flat worth)."""
    t = Table(players=players, strategies="hoarder", seed=3)
    for name, *_ in t.comp.spaces:
        for k in range(2):
            t.set_slot(name, None, k)
    t.st[S.PUBLIC_BONUS] = -1
    t.st[S.NAVY_POS] = -1
    far = ["Southern Raid", "Raid", "Rum Runners"]  # over three lanes from Twin Wrecks
    for s in range(players):
        t.seat(s)[S.PRIVATE_N] = 0
        t.put(s, here if s == 0 else far[s - 1])
    t.set_dice(0, ["red", "blue", "teal"])
    t.seat(0)[S.RUM] = 1
    t.hold(0, unbound=hold if hold is not None else {"red": 1})
    t.F[1, 1: bot.N_WEIGHTS] = 0.0
    t.weights(0, W_GREED=2.0, W_BANK=40.0)
    return t


def decide(t, seat=0, phase=0):
    """The heuristic's destination (a space name) and every space's score, on copies of the
    policy's rows and stream."""
    F, rng = t.F.copy(), t.rng.copy()
    dest = bot.heuristic_destination(t.P, t.T, t.K, F, rng, np.int64(seat), np.int64(phase), np.int64(t.players))
    return t.comp.spaces[int(dest)][0], F[0, :N_SPACES].copy()


# ------------------------------------------------------------------ payout
def payout_table(rival_controls: bool):
    """Rum Cove (NE, one lane) and Guardian's Reef (SE, two lanes) each hold a new colour."""
    t = bare_table()
    t.set_slot("Rum Cove", "pink")
    t.set_slot("Guardian's Reef", "pink")
    if rival_controls:
        t.T[S.CONTROL, S.CTRL_REGION0 + 1] = 1  # seat 1 controls the NE Region
    return t


def test_payout_steers_away_from_a_region_a_rival_controls():
    t = payout_table(rival_controls=True)
    assert decide(t)[0] == "Rum Cove"  # off: the nearer treasure
    t.weights(0, W_PAYOUT=1.0)
    assert decide(t)[0] == "Guardian's Reef"  # its controller would draw a treasure at Rum Cove


def test_payout_counts_only_a_rival_controller():
    t = payout_table(rival_controls=False)
    t.T[S.CONTROL, S.CTRL_REGION0 + 1] = 0  # seat 0's own Region pays nobody else
    t.weights(0, W_PAYOUT=1.0)
    assert decide(t)[0] == "Rum Cove"


def test_payout_off_leaves_every_score_as_before():
    assert (decide(payout_table(True))[1] == decide(payout_table(False))[1]).all()


# ------------------------------------------------------------------ exposure
def exposure_table(rival_near: bool):
    """From Raid: Crew Spirit Die (one lane, three from the rival at Storm Harbour) and Explore
    (two lanes, four from it) each hold a new colour; seat 0 carries one unbound red."""
    t = bare_table(here="Raid")
    t.set_slot("Crew Spirit Die", "pink")
    t.set_slot("Explore", "pink")
    t.put(1, "Storm Harbour" if rival_near else "Southern Raid")
    return t


def test_exposure_keeps_unburied_treasure_out_of_a_rivals_reach():
    t = exposure_table(rival_near=True)
    assert decide(t)[0] == "Crew Spirit Die"
    t.weights(0, W_EXPOSURE=1.0)
    assert decide(t)[0] == "Explore"


def test_exposure_ignores_a_rival_out_of_reach_and_an_empty_hold():
    t = exposure_table(rival_near=False)
    t.weights(0, W_EXPOSURE=1.0)
    assert decide(t)[0] == "Crew Spirit Die"
    t = exposure_table(rival_near=True)
    t.hold(0, unbound={}, bound={"red": 1})  # bound treasure cannot be stolen; the pink is still at stake
    t.weights(0, W_EXPOSURE=1.0)
    on = decide(t)[1][t.space("Crew Spirit Die")]
    t.weights(0, W_EXPOSURE=0.0)
    off = decide(t)[1][t.space("Crew Spirit Die")]
    # one treasure at stake, one rival whose 1 attack die meets 1 defence die: 1 / (1 + 1 + 0.5)
    assert off - on == pytest.approx(1.0 * 1 * 0.4)


def test_exposure_counts_the_navy_at_sunset_only():
    t = exposure_table(rival_near=False)
    t.st[S.NAVY_POS] = t.space("Coral Harbour")  # two lanes from Crew Spirit Die, three from Explore
    t.st[S.NAVY_CARD] = 0
    t.weights(0, W_EXPOSURE=3.0)
    assert decide(t, phase=0)[0] == "Crew Spirit Die"  # the Navy hunts at Night, after Sunset
    assert decide(t, phase=1)[0] == "Explore"


def test_exposure_off_leaves_every_score_as_before():
    assert (decide(exposure_table(True))[1] == decide(exposure_table(False))[1]).all()


# ------------------------------------------------------------------ unlock
def unlock_table(seat_leads: bool):
    """From Storm Harbour: the Old Vault (Unlock) and Smugglers' Raid (a new colour) one lane
    away. One seat leads every public standing an endgame bonus counts."""
    t = bare_table(here="Storm Harbour")
    t.set_slot("Smugglers' Raid", "pink")
    lead, trail = (0, 1) if seat_leads else (1, 0)
    for col in (S.BURIALS, S.FIGHTS_WON, S.N_RELICS, S.ATTACK):
        t.seat(lead)[col] = 2
        t.seat(trail)[col] = 0
    t.seat(trail)[S.SINKINGS] = 1
    t.seat(lead)[S.SINKINGS] = 0
    t.seat(lead)[S.CREW_N] = 6 if lead == 1 else 3
    t.seat(trail)[S.CREW_N] = 3 if lead == 1 else 2
    if lead == 0:
        t.set_dice(0, ["red", "blue", "teal"])
        t.set_dice(1, ["red", "blue"])
    t.hold(lead, unbound={c: 1 for c in ("red", "pink", "blue", "teal", "green", "yellow")})
    t.hold(trail, unbound={})
    t.weights(0, W_GREED=4.0)  # the pink is worth 4 (a duplicate for the leader, a first colour else)
    return t


def test_unlock_worth_follows_the_public_standing():
    lead, trail = unlock_table(True), unlock_table(False)
    assert bot.unlock_worth(lead.T, lead.K, np.int64(0), np.int64(2)) > 0
    assert bot.unlock_worth(trail.T, trail.K, np.int64(0), np.int64(2)) < 0


def test_unlock_goes_for_a_bonus_the_seat_leads():
    t = unlock_table(seat_leads=True)
    assert decide(t)[0] == "Smugglers' Raid"  # off: a flat 2 for the Unlock
    t.weights(0, W_UNLOCK=1.0)
    assert decide(t)[0] == "Old Vault"


def test_unlock_avoids_a_bonus_a_rival_leads():
    t = unlock_table(seat_leads=False)
    t.set_slot("Smugglers' Raid", None)
    assert decide(t)[0] == "Old Vault"  # off: the flat 2 beats staying put
    t.weights(0, W_UNLOCK=1.0)
    assert decide(t)[0] != "Old Vault"


def test_unlock_off_is_a_flat_two_whoever_leads():
    for leads in (True, False):
        t = unlock_table(leads)
        v = bot.action_value(t.P, t.T, t.K, t.F, np.int64(0), np.int64(S.ACT_UNLOCK), np.int64(t.space("Old Vault")),
                             np.int64(2))
        assert v == 2.0


# ------------------------------------------------------------------ control_rivals
def control_table(players):
    """From Twin Wrecks: Buy a Sea (Region control, one lane) or Rum Cove (a new colour, one lane)."""
    t = bare_table(players=players)
    t.set_slot("Rum Cove", "pink")
    t.weights(0, W_CONTROL=2.0)
    return t


def test_control_rivals_values_regions_more_at_a_bigger_table():
    t = control_table(4)
    assert decide(t)[0] == "Rum Cove"
    t.weights(0, W_CONTROL_TABLE=1.0)
    assert decide(t)[0] == "Buy a Sea"
    t = control_table(2)
    t.weights(0, W_CONTROL_TABLE=1.0)
    assert decide(t)[0] == "Rum Cove"  # one rival: as before


def test_control_rivals_off_leaves_every_score_as_at_two_players():
    four, two = control_table(4), control_table(2)
    assert (decide(four)[1] == decide(two)[1]).all()


def test_every_preset_holds_the_judgements_off():
    # but tuned, and the expert built on its row (test_expert: the same judgement as tuned)
    from simkit.games.tide_of_avaris import GAME

    for p in GAME.presets:
        if p.name in ("tuned", "expert"):
            continue
        row = GAME.strategy_table((p.name,))[0][GAME.preset_names().index(p.name)]
        assert (row[bot.W_UNLOCK: bot.W_CONTROL_TABLE + 1] == 0).all(), p.name


@pytest.mark.parametrize("seat", [0, 1])
def test_unlock_is_legal_while_any_of_the_four_endgame_cards_has_no_token(seat):
    """Unlock (TOA-X18): legal while a token is left and some endgame card still lacks one,
    whichever of the four it is; not once all four carry one, nor once the tokens are spent."""
    t = Table(players=4)
    vault = np.int64(t.space("Old Vault"))

    def legal():
        return bool(S.action_legal(t.P, t.T, t.K, np.int64(seat), np.int64(S.ACT_UNLOCK), vault, np.int64(4)))

    t.st[S.TOKENS_USED] = 0
    for empty in range(4):
        for j in range(4):
            t.T[S.ENDGAME, S.TOKEN_COL + j] = 0 if j == empty else 1
        assert legal(), empty
    t.T[S.ENDGAME, S.TOKEN_COL:S.TOKEN_COL + 4] = 1
    assert not legal()
    t.T[S.ENDGAME, S.TOKEN_COL + 2] = 0
    t.st[S.TOKENS_USED] = t.K[S.META, S.N_TOKENS]
    assert not legal()
