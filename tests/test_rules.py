"""simkit.core.rules: one declaration per parameter drives validation, listing and the engine tuple."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from simkit.core.errors import InputError
from simkit.core.rules import Param, RuleSchema, Variant, rules_hash

SCHEMA = RuleSchema(
    game="rules_test",
    params=(
        Param("gold", "int", 5, (0, 10), "starting gold", "Setup 1"),
        Param("rate", "float", 0.5, (0.0, 1.0), "a share", "A1"),
        Param("ghost", "bool", False, (), "ghost pirate module", "Modules"),
        Param("deck", "choice", "short", ("short", "long"), "which deck", "Setup 2"),
    ),
    variants=(
        Variant("rich", {"gold": 9}, "more gold"),
        Variant("poor", {"gold": 1}, "less gold"),
        Variant("spooky", {"ghost": True, "deck": "long"}, "ghosts", players=(3, 4)),
        Variant("duel", {"rate": 0.25}, "two players", players=(2, 3)),
    ),
)


@pytest.mark.parametrize(
    "name, value, expected",
    [("gold", 3, 3), ("gold", "7", 7), ("gold", 4.0, 4), ("rate", 1, 1.0), ("rate", "0.25", 0.25),
     ("ghost", True, True), ("ghost", "off", False), ("ghost", 1, True), ("deck", "long", "long")],
)
def test_check_casts(name, value, expected):
    out = SCHEMA.by_name[name].check(value, "")
    assert out == expected and type(out) is type(expected)


@pytest.mark.parametrize(
    "name, value, words",
    [("gold", 11, "out of range; allowed 0..10"), ("gold", -1, "0..10"), ("gold", 2.5, "must be an integer"),
     ("gold", True, "must be an integer"), ("gold", "x", "must be an integer"), ("rate", 1.5, "allowed 0.0..1.0"),
     ("rate", "lots", "must be a finite number"), ("ghost", "maybe", "true or false"), ("ghost", 2, "true or false"),
     ("deck", "shrot", "did you mean 'short'")],
)
def test_check_rejects(name, value, words):
    with pytest.raises(InputError, match=words.replace("(", r"\(").replace(".", r"\.")):
        SCHEMA.by_name[name].check(value, "spec.toml")


def test_validate_names_the_place_and_the_closest_name():
    with pytest.raises(InputError) as e:
        SCHEMA.validate({"golds": 3}, "spec.toml [[study]] 2")
    assert "'golds' in spec.toml [[study]] 2" in str(e.value) and "did you mean 'gold'" in str(e.value)


def test_variants_combine_and_clash():
    assert SCHEMA.resolve("rich") == {"gold": 9, "rate": 0.5, "ghost": False, "deck": "short"}
    assert SCHEMA.resolve("rich+spooky") == {"gold": 9, "rate": 0.5, "ghost": True, "deck": "long"}
    assert SCHEMA.resolve("rich", {"gold": 2}) == {"gold": 2, "rate": 0.5, "ghost": False, "deck": "short"}
    with pytest.raises(InputError, match="disagree on gold"):
        SCHEMA.resolve("rich+poor")
    with pytest.raises(InputError, match="did you mean 'rich'"):
        SCHEMA.resolve("ricj")
    assert SCHEMA.variant_players("standard") is None
    assert SCHEMA.variant_players("spooky+duel") == {3}
    assert SCHEMA.variant_names() == ["standard", "rich", "poor", "spooky", "duel"]


def test_bad_declarations_fail_at_import():
    with pytest.raises(InputError):
        RuleSchema("bad_default", (Param("n", "int", 20, (0, 10), "", "A1"),))
    with pytest.raises(InputError):
        RuleSchema("bad_variant", (Param("n", "int", 2, (0, 10), "", "A1"),), (Variant("v", {"m": 1}, ""),))
    with pytest.raises(ValueError, match="declared twice"):
        RuleSchema("twice", (Param("n", "int", 2, (0, 10), "", "A1"), Param("n", "int", 2, (0, 10), "", "A1")))


def test_engine_tuple_types():
    values = SCHEMA.resolve("spooky", {"rate": 1})
    t = SCHEMA.engine_tuple(values)
    assert t._fields == ("gold", "rate", "ghost", "deck")
    assert [type(v) for v in t] == [np.int64, np.float64, np.int64, np.int64]
    assert tuple(t) == (5, 1.0, 1, 1)  # bool -> 0/1, choice -> index


def test_engine_tuple_class_is_importable_for_numba_cache():
    """numba's cache pickles argument types by reference: the class must round-trip to itself."""
    assert pickle.loads(pickle.dumps(SCHEMA.tuple_type)) is SCHEMA.tuple_type
    from tests.dicegame import RULES

    assert pickle.loads(pickle.dumps(RULES.tuple_type)) is RULES.tuple_type


def test_listing():
    rows = SCHEMA.listing("rich")
    assert rows[0] == {"name": "gold", "default": 9, "allowed": "0..10", "meaning": "starting gold",
                       "source": "Setup 1"}
    assert [r["allowed"] for r in rows[1:]] == ["0.0..1.0", "true|false", "short|long"]


def test_rules_hash():
    values = SCHEMA.resolve()
    assert rules_hash("g", values) == rules_hash("g", dict(reversed(values.items())))
    assert rules_hash("g", values) != rules_hash("g", {**values, "gold": 6})
    assert rules_hash("g", values, b"board A") != rules_hash("g", values, b"board B")


def test_a_list_parameter_is_checked_and_reaches_the_engine_as_one_field_per_entry():
    schema = RuleSchema("listy", (Param("gold", "ints", (6, 7, 8), (0, 10, 3), "gold by seat", "Setup 1"),))
    assert schema.tuple_type._fields == ("gold_1", "gold_2", "gold_3")
    assert tuple(schema.engine_tuple(schema.resolve("standard", {"gold": [1, 2, 3]}))) == (1, 2, 3)
    assert schema.listing()[0]["default"] == [6, 7, 8] and schema.listing()[0]["allowed"] == "3 x 0..10"
    for bad, words in (([1, 2], "list of 3"), ([1, 2, 11], "out of range"), (5, "list of 3"), ([1, 2, True], "list")):
        with pytest.raises(InputError, match=words):
            schema.validate({"gold": bad})
