"""``/rummy new`` offers the engine's common table options (and the turn timer), each with the
engine's own choices: declared once, from ``OptionSpec.common``; and whether the game gets a
thread of its own."""

from __future__ import annotations

from pathlib import Path

from bot.features.play.threads import THREAD_CHOICES
from bot.features.play.turn_timer import TIMER_CHOICES
from rummy_engine import OPTION_SPECS
from tests.discord.command_surface import registered_payload


async def test_new_offers_the_common_options_with_their_choices(tmp_path: Path) -> None:
    (rummy,) = [c for c in await registered_payload(tmp_path) if c["name"] == "rummy"]
    new = next(child for child in rummy["options"] if child["name"] == "new")
    options = {o["name"]: o for o in new["options"]}
    common = {spec.key: spec.choices for spec in OPTION_SPECS if spec.common}
    assert set(options) == {"variant", "mode", "language", "turn_timer", "thread", *common}
    for key, choices in {**common, "turn_timer": TIMER_CHOICES, "thread": THREAD_CHOICES}.items():
        assert not options[key].get("required", False)
        assert tuple(c["value"] for c in options[key]["choices"]) == choices, key
        assert options[key]["description"] and options[key]["description"] != "…", key
