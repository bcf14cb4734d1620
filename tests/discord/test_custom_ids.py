"""Every custom_id family's pattern finds again exactly what its builder wrote, and no other
family's: a press on any message the bot ever drew routes to the component that drew it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.features.learn.ui.lessons import BUTTON_IDS as LESSON_BUTTON_IDS
from bot.features.learn.ui.lessons import BUTTON_PRESSES, SELECT_PRESSES, LessonId
from bot.features.learn.ui.lessons import SELECT_IDS as LESSON_SELECT_IDS
from bot.features.play.actions import Action
from bot.features.play.ui.widgets import (
    BUTTON_ACTIONS,
    BUTTON_IDS,
    SELECT_ACTIONS,
    SELECT_IDS,
    TableId,
)
from bot.features.seasons.ui.answers import PAGE_IDS as SEASON_IDS
from bot.features.seasons.ui.answers import SeasonPageId
from bot.features.stats.ui.answers import PAGE_IDS as BOARD_IDS
from bot.features.stats.ui.answers import PageId
from bot.ui.custom_ids import CustomIdCodec

ids = st.integers(min_value=0, max_value=2**63)
words = st.text("abcdefghijklmnopqrstuvwxyz0123456789_", max_size=20)
sorts = st.sampled_from(["rating", "wins", "win_rate"])
families = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8)


def table_ids(actions: frozenset[Action]) -> st.SearchStrategy[TableId]:
    return st.builds(TableId, ids, ids, st.sampled_from(sorted(actions)), words)


def lesson_ids(presses: tuple[str, ...]) -> st.SearchStrategy[LessonId]:
    masks = st.integers(0, 2**25).map(str) | st.just("")
    return st.builds(
        LessonId, ids, families, st.integers(0, 99), ids, st.sampled_from(presses), masks
    )


FAMILIES: list[tuple[CustomIdCodec[Any], st.SearchStrategy[Any]]] = [
    (BUTTON_IDS, table_ids(BUTTON_ACTIONS)),
    (SELECT_IDS, table_ids(SELECT_ACTIONS)),
    (BOARD_IDS, st.builds(PageId, ids, families, sorts, st.integers(-1, 999), ids)),
    (SEASON_IDS, st.builds(SeasonPageId, ids, ids, families, sorts, st.integers(-1, 999), ids)),
    (LESSON_BUTTON_IDS, lesson_ids(BUTTON_PRESSES)),
    (LESSON_SELECT_IDS, lesson_ids(SELECT_PRESSES)),
]


@pytest.mark.parametrize(
    ("codec", "values"),
    FAMILIES,
    ids=lambda x: getattr(x, "prefix", "") + ("" if x is not LESSON_SELECT_IDS else ":select"),
)
@given(data=st.data())
def test_a_custom_id_decodes_to_what_built_it_and_to_no_other_family(
    codec: CustomIdCodec[Any], values: st.SearchStrategy[Any], data: st.DataObject
) -> None:
    value = data.draw(values)
    text = codec.build(value)
    match = re.fullmatch(codec.template, text)
    assert match is not None, text
    assert codec.decode(match) == value
    others = [other for other, _ in FAMILIES if other is not codec]
    assert [o.prefix for o in others if re.fullmatch(o.template, text)] == []


def test_a_default_argument_is_left_out_and_read_back() -> None:
    assert BUTTON_IDS.build(TableId(3, 0, Action.DRAW)) == "rummy:3:0:draw"
    assert BUTTON_IDS.build(TableId(3, 0, Action.REVIEW, "2")) == "rummy:3:0:review:2"
    match = re.fullmatch(BUTTON_IDS.template, "rummy:3:0:draw")
    assert match is not None and BUTTON_IDS.decode(match) == TableId(3, 0, Action.DRAW)


def test_an_unknown_sort_in_an_old_id_is_refused_by_the_decoder() -> None:
    match = re.fullmatch(BOARD_IDS.template, "rummy:lb:0:all:best:0:0")
    assert match is not None
    with pytest.raises(ValueError):
        BOARD_IDS.decode(match)
