"""Every action of both editions, asked through ``rulebook.cli.run`` (in-process) with malformed JSON, answers as the contract
says (docs/rulebook-cli.md): exit 2 and one line of JSON ``{"error": ...}`` on stderr, never a traceback.

Queries are built by hypothesis from the field names the rules engine reads (found in its source, so new
fields are covered without editing this file), with values of the wrong type, missing fields and nested junk.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook import cli, editions

RULEBOOK = Path(__file__).resolve().parents[1]
FIELD_READ = re.compile(
    r"""\.(?:int|number|bool|str|choice|choices|sub|items|raw|has)\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']"""
    r"""|target_number\(\s*\w+,\s*["']([A-Za-z_][A-Za-z0-9_]*)["']"""
)


def field_names() -> list[str]:
    names = set()
    for path in RULEBOOK.rglob("*.py"):
        if "tests" not in path.parts:
            for match in FIELD_READ.finditer(path.read_text(encoding="utf-8")):
                names.add(match.group(1) or match.group(2))
    return sorted(names)


FIELDS = field_names()
ACTIONS = [(edition, name) for edition in editions.EDITIONS for name in sorted(editions.actions(edition))]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**9), 10**9)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["4+", "D6", "S+1", "1a", "", "-", "E", "T", "Sx3", "flak armour", "lasgun", "sword"])
)
junk = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4),
    max_leaves=10,
)
containers = st.lists(scalars, max_size=2) | st.dictionaries(st.sampled_from(FIELDS), scalars, max_size=2)
queries = st.dictionaries(st.sampled_from(FIELDS), junk, max_size=6)
not_objects = st.one_of(st.lists(junk, max_size=3), scalars)


def refused(answer: cli.Answer) -> None:
    assert answer.returncode == 2, answer.stdout
    assert answer.stdout == ""
    assert "Traceback" not in answer.stderr
    lines = answer.stderr.strip().splitlines()
    assert len(lines) == 1
    assert isinstance(json.loads(lines[0])["error"], str)


def answered_or_refused(answer: cli.Answer) -> None:
    """Junk can happen to be a well-formed query (every field optional): then it is answered."""
    if answer.returncode == 0:
        assert isinstance(answer.json(), dict) and answer.stderr == ""
    else:
        refused(answer)


FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(("edition", "action"), ACTIONS)
@FUZZ
@given(query=queries)
def test_junk_queries_are_answered_or_refused_never_a_traceback(edition, action, query):
    text = json.dumps(query)
    answered_or_refused(cli.run("odds", edition, action, stdin=text))
    answered_or_refused(cli.run("roll", edition, action, "--seed", "3", stdin=text))


@pytest.mark.parametrize(("edition", "action"), ACTIONS)
@settings(FUZZ, max_examples=8)
@given(query=st.fixed_dictionaries(dict.fromkeys(FIELDS, containers)))
def test_every_field_of_the_wrong_shape_is_refused(edition, action, query):
    # An action that needs nothing (it answers ``{}``) may ignore every field; any other reads a field it needs
    # and finds a list or an object of junk where a value belongs.
    check = answered_or_refused if cli.run("odds", edition, action, stdin="{}").returncode == 0 else refused
    check(cli.run("odds", edition, action, stdin=json.dumps(query)))
    check(cli.run("roll", edition, action, "--seed", "3", stdin=json.dumps(query)))


@pytest.mark.parametrize(("edition", "action"), ACTIONS)
@FUZZ
@given(query=not_objects)
def test_a_query_that_is_not_an_object_is_refused(edition, action, query):
    refused(cli.run("odds", edition, action, stdin=json.dumps(query)))


@pytest.mark.parametrize(("edition", "action"), ACTIONS)
@pytest.mark.parametrize("text", ["", "{", '{"a": }', "nul", "[1, 2", '{"BS": 4,}'])
def test_text_that_is_not_json_is_refused(edition, action, text):
    refused(cli.run("odds", edition, action, stdin=text))
