"""simkit.sweeps.spec: TOML and options -> validated cells; every bad input is one InputError."""

from __future__ import annotations

import textwrap

import pytest

from simkit.core.errors import InputError
from simkit.sweeps import spec


def write(tmp_path, text: str, name: str = "study.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def ids(sweep) -> list[str]:
    return [c.id for c in sweep.cells]


def test_block_grid_is_the_cartesian_product(tmp_path):
    path = write(tmp_path, """
        name = "grid"
        seed = 7
        games = 500
        [[study]]
        game = "dicegame"
        players = [2, 3]
        variants = ["standard", "sudden"]
        set = { die = "d8" }
        grid = { target = [20, 30] }
        strategies = ["default", "bold,random"]
    """)
    sweep = spec.load(path)
    assert (sweep.name, sweep.seed) == ("grid", 7)
    assert len(sweep.cells) == 2 * 2 * 2 * 2
    first = sweep.cells[0]
    assert first.id == "dicegame-2p-standard-target=20-careful"
    assert first.overrides == {"die": "d8", "target": 20}  # the fixed key is not in the id: it does not vary
    assert first.lineup == ("careful",)  # "default" is the game's default preset
    assert {c.lineup for c in sweep.cells} == {("careful",), ("bold", "random")}
    assert all(c.games == 500 for c in sweep.cells)
    assert len(set(ids(sweep))) == len(sweep.cells)


def test_ids_name_only_what_varies():
    sweep = spec.load(game="dicegame", players="2,3", games=10)
    assert ids(sweep) == ["dicegame-2p-standard", "dicegame-3p-standard"]


def test_range_request_skips_counts_a_variant_does_not_allow():
    sweep = spec.load(game="dicegame", players="2-4", variant="standard,duel", games=10)
    assert ids(sweep) == ["dicegame-2p-standard", "dicegame-3p-standard", "dicegame-4p-standard", "dicegame-2p-duel"]
    omitted = spec.load(game="dicegame", variant="duel", games=10)  # no players: the variant's counts
    assert ids(omitted) == ["dicegame-2p-duel"]


def test_every_game_at_its_standard_counts(tmp_path):
    sweep = spec.load(write(tmp_path, '[[study]]\ngame = "*"\n'))
    dice = [c for c in sweep.cells if c.game == "dicegame"]
    assert [c.players for c in dice] == [2, 3, 4]
    assert all(c.games == spec.DEFAULT_GAMES and c.variant == "standard" for c in dice)


def test_every_game_plays_the_requested_counts_it_supports(tmp_path):
    sweep = spec.load(write(tmp_path, '[[study]]\ngame = "*"\nplayers = [4, 9]\n'))
    assert {c.players for c in sweep.cells} == {4}
    with pytest.raises(InputError, match="no game supports"):
        spec.load(write(tmp_path, '[[study]]\ngame = "*"\nplayers = 9\n'))


def test_options_override_the_spec(tmp_path):
    path = write(tmp_path, """
        name = "base"
        seed = 3
        games = 100
        [[study]]
        game = "dicegame"
        players = [2, 3, 4]
        grid = { target = [20, 30] }
        games = 50
    """)
    sweep = spec.load(path, players="2", set=["target=40", "die=d8"], games=9, seed=11, strategies="bold")
    assert sweep.seed == 11
    assert [(c.players, c.overrides, c.lineup, c.games) for c in sweep.cells] == [
        (2, {"target": 40, "die": "d8"}, ("bold",), 9)
    ]


def test_set_list_is_a_grid_and_values_are_toml():
    sweep = spec.load(game="dicegame", players=2, set=["target=[20,30]", "last_chance=false", "die=d8"], games=5)
    assert [c.overrides for c in sweep.cells] == [
        {"last_chance": False, "die": "d8", "target": 20},
        {"last_chance": False, "die": "d8", "target": 30},
    ]


def test_resolved_spec_reruns_the_same_cells(tmp_path):
    sweep = spec.load(game="dicegame", players="2-4", variant="standard,quick+sudden", set=["target=[20,30]"],
                      strategies=["careful,random", "bold"], games=12, seed=5)
    again = spec.load(write(tmp_path, sweep.to_toml(), "resolved.toml"))
    assert again.cells == sweep.cells
    assert again.seed == 5


def test_default_spec_is_every_game_at_10000():
    path = spec.default_spec_path()
    assert path is not None and path.name == "default.toml"
    sweep = spec.load()
    assert sweep.name == "default" and sweep.seed == 1
    assert {c.games for c in sweep.cells} == {10_000}


@pytest.mark.parametrize(
    "options, words",
    [
        ({"game": "dicegam"}, ["unknown game 'dicegam'", "did you mean 'dicegame'"]),
        ({"game": "dicegame", "variant": "quik"}, ["unknown variant", "did you mean 'quick'"]),
        ({"game": "dicegame", "set": ["targte=30"]}, ["unknown rule parameter", "did you mean 'target'"]),
        ({"game": "dicegame", "strategies": "carefull"}, ["unknown strategy", "did you mean 'careful'"]),
        ({"game": "dicegame", "set": ["target=5"]}, ["target", "out of range", "10..200"]),
        ({"game": "dicegame", "set": ["die=d7"]}, ["value for die", "did you mean 'd8'"]),
        ({"game": "dicegame", "set": ["target=abc"]}, ["target", "must be an integer"]),
        ({"game": "dicegame", "set": ["target"]}, ["--set expects key=value"]),
        ({"game": "dicegame", "players": 5}, ["2..4 players, not 5"]),
        ({"game": "dicegame", "players": "2,9"}, ["2..4 players, not 9"]),
        ({"game": "dicegame", "players": "two"}, ["--players expects"]),
        ({"game": "dicegame", "players": 3, "variant": "duel"}, ["variant duel", "for 2 players, not 3"]),
        ({"game": "dicegame", "players": 4, "set": ["target=12"]}, ["4 players need a target"]),
        ({"game": "dicegame", "variant": "quick+duel"}, ["disagree on target"]),
        ({"game": "dicegame", "games": 0}, ["games", ">= 1", "got 0"]),
        ({"game": "dicegame", "games": -5}, ["games", ">= 1"]),
        ({"game": "dicegame", "seed": -1}, ["seed", "0..2**64-1"]),
        ({"game": "dicegame", "seed": 1.5}, ["seed", "integer"]),
        ({"game": "dicegame", "precision": 0}, ["precision", "(0, 0.1]"]),
        ({"game": "dicegame", "name": "a/b"}, ["name", "letters"]),
        ({"game": "dicegame", "variant": "standard,standard"}, ["asked for twice"]),
    ],
)
def test_bad_options(options, words):
    with pytest.raises(InputError) as e:
        spec.load(**options)
    message = str(e.value)
    assert "\n" not in message
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    "text, words",
    [
        ('name = "x"\n[[study]\ngame = "dicegame"\n', ["study.toml:2:", "malformed TOML"]),
        ('seed = 1\ngames = "many"\n[[study]]\ngame = "dicegame"\n', ["games", ">= 1", "'many'"]),
        ('sed = 1\n[[study]]\ngame = "dicegame"\n', ["unknown spec key 'sed'", "study.toml:1", "did you mean 'seed'"]),
        ('seed = 1\n\n[[study]]\ngame = "dicegame"\ngird = { target = [20] }\n',
         ["unknown study key 'gird'", "study.toml:5", "did you mean 'grid'"]),
        ('[[study]]\ngame = "dicegame"\nvariant = "quick"\n', ["unknown study key 'variant'", "did you mean 'variants'"]),
        ('name = "x"\n', ["no [[study]] block"]),
        ('[[study]]\nplayers = [2]\n', ["needs game"]),
        ('[[study]]\ngame = "dicegame"\ngrid = { target = 20 }\n', ["grid.target", "list"]),
        ('[[study]]\ngame = "dicegame"\nset = { target = 20 }\ngrid = { target = [20] }\n', ["both set and grid"]),
        ('[[study]]\ngame = "dicegame"\nplayers = ["two"]\n', ["players", "whole numbers"]),
        ('[[study]]\ngame = "dicegame"\n[[study]]\ngame = "dicegame"\n', ["asked for twice", "[[study]] 1", "[[study]] 2"]),
        ('[[study]]\ngame = "dicegame"\nset = { round_cap = 0 }\n', ["round_cap", "out of range", "[[study]] 1"]),
    ],
)
def test_bad_spec_files(tmp_path, text, words):
    with pytest.raises(InputError) as e:
        spec.load(write(tmp_path, text))
    message = str(e.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_missing_spec_file(tmp_path):
    with pytest.raises(InputError, match="not found"):
        spec.load(tmp_path / "nope.toml")


def test_a_list_parameter_takes_a_flat_list_as_one_value_and_a_list_of_lists_as_a_grid():
    one = spec.load(game="sea_of_thieves", players=4, set=["starting_gold=[700,700,800,800]"], games=10)
    assert [c.overrides["starting_gold"] for c in one.cells] == [(700, 700, 800, 800)]
    grid = spec.load({"study": [{"game": "sea_of_thieves", "players": [4],
                                 "grid": {"starting_gold": [[600, 700, 800, 900], [750, 750, 750, 750]]}}]})
    assert [c.id for c in grid.cells] == ["sea_of_thieves-4p-standard-starting_gold=600-700-800-900",
                                          "sea_of_thieves-4p-standard-starting_gold=750-750-750-750"]
    with pytest.raises(InputError, match="list of 4"):
        spec.load(game="sea_of_thieves", players=4, set=["starting_gold=[700,700]"])
