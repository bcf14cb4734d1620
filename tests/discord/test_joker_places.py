"""Issue 10 on Discord: the hand panel arranges a selection that has one legal order and asks
when a joker could sit low or high; a joker added to a run names its end (typed or asked), and
the swap that follows takes the card the chosen end gave the joker."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import World, has_table_buttons
from tests.discord.test_play_flow import R51_HANDS, _pick_id, _values, scripted


def _select(message: Any, suffix: str) -> dict[str, Any]:
    """The select of ``message`` whose custom_id ends with ``suffix`` (``:arrange``…)."""
    rows = message.components
    return next(
        c for row in rows for c in row["components"] if c["custom_id"].split(":")[3] == suffix
    )


def _first_joker(panel: Any) -> str:
    """One joker's card-menu value (two jokers are two options)."""
    options = _select(panel.response, "pick")["options"]
    return str(next(o["value"] for o in options if o["value"].endswith(":JK")))


async def open_panel(world: World, hand: str) -> Any:
    await scripted(world, "r51", "1v1", [hand, R51_HANDS[1]])
    table_message = next(m for m in reversed(world.public_messages()) if has_table_buttons(m))
    return await world.players[0].click(table_message, label="Show my hand")


async def test_panel_asks_between_arrangements_and_arranges_a_single_one(world: World) -> None:
    alice = world.players[0]
    panel = await open_panel(world, "10s Js Qs Ks Qh Kh JK 5d JK 7d 2c")
    wanted = [*_values(panel, ["10s", "Js", "Qs", "Ks", "Qh", "Kh"]), _first_joker(panel)]
    await alice.select(panel.response, wanted, custom_id=_pick_id(panel))
    await alice.click(panel.response, label="Lay as meld(s)")
    assert not (await world.table()).require_game().table, "nothing laid before the answer"
    assert "can go on the table in 2 ways" in panel.response.content
    question = _select(panel.response, "arrange")
    labels = {o["label"] for o in question["options"]}
    assert labels == {"10♠ J♠ Q♠ K♠ | JK Q♥ K♥", "10♠ J♠ Q♠ K♠ | Q♥ K♥ JK"}
    low = next(o["value"] for o in question["options"] if o["label"].endswith("JK Q♥ K♥"))
    await alice.select(panel.response, [low], custom_id=question["custom_id"])
    game = (await world.table()).require_game()
    hearts = game.table[1].meld
    assert [c.text for c in hearts.cards] == ["JK", "Qh", "Kh"]
    assert hearts.stands_for[0].text == "Jh", "the joker stands for J♥, as chosen"
    # 5♦ JK 7♦ can only be read one way: laid at once, the joker in the gap
    picked = [*_values(panel, ["5d", "7d"]), _first_joker(panel)]
    await alice.select(panel.response, picked, custom_id=_pick_id(panel))
    await alice.click(panel.response, label="Lay as meld(s)")
    game = (await world.table()).require_game()
    assert [c.text for c in game.table[2].meld.cards] == ["5d", "JK", "7d"]


async def test_a_joker_added_to_a_run_names_its_end(world: World) -> None:
    alice = world.players[0]
    panel = await open_panel(world, "10s Js Qs Ks 5h 5d 5c JK 9s As 2c")
    opened = await alice.slash(world.channel, "rummy lay", melds="10s Js Qs Ks | 5h 5d 5c")
    assert opened.ephemeral, "the old typed notation still lays melds"
    assert len((await world.table()).require_game().table) == 2
    refused = await alice.slash(world.channel, "rummy add", meld=1, cards="JK")
    assert "either end of meld 1: low, as 9♠, or high, as A♠" in refused.response.content
    assert "JK" in [c.text for c in (await world.table()).require_game().hands[0]]
    # the panel asks instead of refusing
    panel = await alice.slash(world.channel, "rummy hand")
    await alice.select(panel.response, _values(panel, ["JK"]), custom_id=_pick_id(panel))
    add = _select(panel.response, "addto")
    await alice.select(panel.response, ["1"], custom_id=add["custom_id"])
    assert "The joker can go at either end of meld 1" in panel.response.content
    question = _select(panel.response, "addend")
    assert {o["label"] for o in question["options"]} == {"Low end, as 9♠", "High end, as A♠"}
    assert len(question["custom_id"]) <= 100
    await alice.select(panel.response, ["low"], custom_id=question["custom_id"])
    meld = (await world.table()).require_game().table[0].meld
    assert [c.text for c in meld.cards] == ["JK", "10s", "Js", "Qs", "Ks"]
    # the joker stands for 9♠: A♠ cannot free it, 9♠ can
    wrong = await alice.slash(world.channel, "rummy swap", meld=1, card="As")
    assert wrong.ephemeral and "As" in [
        c.text for c in (await world.table()).require_game().hands[0]
    ]
    assert (await world.table()).require_game().table[0].meld == meld
    swapped = await alice.slash(world.channel, "rummy swap", meld=1, card="9s")
    assert swapped.ephemeral
    game = (await world.table()).require_game()
    assert [c.text for c in game.table[0].meld.cards] == ["9s", "10s", "Js", "Qs", "Ks"]
    assert "JK" in [c.text for c in game.hands[0]]


async def test_typed_add_takes_the_end_option(world: World) -> None:
    alice = world.players[0]
    await open_panel(world, "10s Js Qs Ks 5h 5d 5c JK 9s 3h 2c")
    await alice.slash(world.channel, "rummy lay", melds="10s Js Qs Ks | 5h 5d 5c")
    added = await alice.slash(world.channel, "rummy add", meld=1, cards="JK", end="high")
    assert added.ephemeral
    meld = (await world.table()).require_game().table[0].meld
    assert [c.text for c in meld.cards] == ["10s", "Js", "Qs", "Ks", "JK"]
    assert meld.stands_for[-1].text == "As"
