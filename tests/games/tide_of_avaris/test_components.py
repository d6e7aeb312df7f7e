"""Component files are validated before any game is played: a mistake is one error naming the
file, the entry and the rule, and the shipped sets all load."""

import shutil

import pytest

from simkit.core.components import shipped
from simkit.core.errors import InputError
from simkit.games.tide_of_avaris import GAME, components

from .harness import S


@pytest.mark.parametrize("name", shipped(components.FOLDER))
def test_every_shipped_set_loads_and_compiles(name):
    comp = components.load(name)
    for players in (2, 3, 4):
        (K,) = components.compile_arrays(comp, GAME.rules.resolve("standard", {"components": name}), players)
        assert K[S.META, S.N_SPACES] == len(comp.spaces)
    assert comp.ship["upper"][3] == 10  # the 4th Upper space is worth 10 (Treasure Hold)
    assert comp.ship["bribe"][1] == 1  # position 2 bribes 1 gold (1. Move)


def designer(tmp_path, file, old, new):
    folder = tmp_path / "mine"
    folder.mkdir()
    text = (components.FOLDER / file).read_text()
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1))
    components.load.cache_clear()
    return str(folder)


@pytest.mark.parametrize("file,old,new,words", [
    ("board.toml", 'to = "Crew Spirit Die"', 'to = "Crew Spirt Die"', ["board.toml", "lane", "names no space",
                                                                       "did you mean"]),
    ("board.toml", 'slots = 1\naction = "raid"', 'slots = 3\naction = "raid"', ["board.toml", "space 1", "slots"]),
    ("board.toml", 'action = "bind"', 'action = "bnd"', ["board.toml", "Lashing Post", "action"]),
    ("dice.toml", 'number   = [2,', 'number   = [2, 3,', ["dice.toml", "[crew]", "number"]),
    ("dice.toml", '"defence", "defence", "wind"', '"wind", "wind", "wind"', ["dice.toml", "[combat]", "Battle"]),
    ("ship.toml", "upper = [1, 3, 6, 10,", "upper = [1, 3, 6, 9,", ["ship.toml", "[hold]", "worth 10"]),
    ("ship.toml", "bribe = [2, 1,", "bribe = [2, 2,", ["ship.toml", "[wager]", "1. Move"]),
    ("decks.toml", 'space = "Signal Tower"', 'space = "Nowhere"', ["decks.toml", "navy 1", "HMS Resolute", "space"]),
    ("decks.toml", 'effect = "no_bribe"', 'effect = "cannons"', ["decks.toml", "relic 1", "effect"]),
    # the worked examples a set must honour (test_worked_examples.py plays them on every shipped set)
    ("board.toml", "[[lane]]\n", '[[lane]]\nfrom = "Buy a Sea"\nto = "Sunken Bell"\nexit = "N"\nwind = "none"\n\n[[lane]]\n',
     ["board.toml", "Buy a Sea", "N diamond", "TOA-138"]),
    ("board.toml", 'to = "Explore"\nexit = "E"\nwind = "along"', 'to = "Explore"\nexit = "E"\nwind = "against"',
     ["board.toml", "Crew Spirit Die", "TOA-141"]),
    ("dice.toml", '"wind", "miss"]', '"wind", "wind"]', ["dice.toml", "[combat]", "miss", "TOA-223"]),
    ("dice.toml", 'resource = ["attack", "gold",', 'resource = ["attack", "rum",', ["dice.toml", "[crew]", "TOA-059"]),
    ("dice.toml", 'number   = [2,        1,      3,      4,', 'number   = [2,        1,      3,      6,',
     ["dice.toml", "[crew]", "TOA-152"]),
    ("ship.toml", "start_gold = [1,", "start_gold = [0,", ["ship.toml", "[wager]", "position 1", "TOA-036"]),
    ("decks.toml", "attack = 6  #", "attack = 3  #", ["decks.toml", "navy 1", "HMS Resolute", "TOA-241"]),
])
def test_a_bad_component_file_is_one_error_naming_file_entry_and_rule(tmp_path, file, old, new, words):
    folder = designer(tmp_path, file, old, new)
    with pytest.raises(InputError) as e:
        components.load(folder)
    msg = str(e.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg
    components.load.cache_clear()


def test_a_designer_folder_overlays_the_base_set(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(components.FOLDER / "alt-dice" / "dice.toml", folder / "dice.toml")
    comp = components.load(str(folder))
    assert comp.dice == components.load("alt-dice").dice
    assert comp.spaces == components.load("standard").spaces
    components.load.cache_clear()


def test_an_unreachable_space_is_refused(tmp_path):
    text = (components.FOLDER / "board.toml").read_text()
    folder = tmp_path / "mine"
    folder.mkdir()
    # cut the two lanes that reach Raid
    parts = text.split("[[lane]]")
    kept = [p for p in parts if not ('from = "Raid"' in p or 'to = "Raid"' in p)]
    (folder / "board.toml").write_text("[[lane]]".join(kept))
    with pytest.raises(InputError, match="unreachable: Raid"):
        components.load(str(folder))
    components.load.cache_clear()


# each deck's entry fields, in the order components.load keeps them, and the K row each lands in
DECK_ROWS = {
    "relics": (S.RELIC_EFFECT, S.RELIC_AMOUNT),
    "monsters": (S.MON_DICE, S.MON_ABILITY, S.MON_REWARD, S.MON_REWARD_N, S.MON_ON_WIN, S.MON_ON_WIN_N),
    "navy": (S.NAVY_ATTACK, S.NAVY_DEFENCE, S.NAVY_SPACE, S.NAVY_REWARD, S.NAVY_ON_WIN_N),
    "burial": (S.BB_KIND, S.BB_ARG, S.BB_POINTS),
    "endgame": (S.EG_KIND, S.EG_ARG),
}


@pytest.mark.parametrize("name", shipped(components.FOLDER))
def test_every_card_of_every_deck_keeps_its_own_values_in_the_compiled_table(name):
    """Card i's every printed value lands in column i of its row, for every card of every deck
    and every shipped set (a value read one card off would play another card's)."""
    comp = components.load(name)
    (K,) = components.compile_arrays(comp, GAME.rules.resolve("standard", {"components": name}), 4)
    counts = {"relics": S.N_RELIC_CARDS, "monsters": S.N_MONSTERS, "navy": S.N_NAVY, "burial": S.N_BURIAL,
              "endgame": S.N_ENDGAME}
    for deck, rows in DECK_ROWS.items():
        cards = comp.decks[deck]
        assert K[S.META, counts[deck]] == len(cards) > 1
        for i, card in enumerate(cards):
            assert [int(K[row, i]) for row in rows] == [int(v) for v in card], f"{name} {deck} card {i}"
    tokens = comp.decks["tokens"]
    assert [int(x) for x in K[S.TOKENS, : len(tokens)]] == [int(v) for v in tokens]
