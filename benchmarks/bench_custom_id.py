"""Measure decoding a click: ``from_custom_id`` of the table's button and select.

Why: every press of a table button or panel select is decoded by discord.py through the
registered dynamic item's ``from_custom_id`` before the move is played, so it is paid once per
move (against the 5 ms CPU budget of a move). Run:

    python benchmarks/bench_custom_id.py [--rounds 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# Allow running as a plain script from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

from bot.features.play.ui.widgets import bound_items


async def _router(interaction: discord.Interaction, click: Any) -> None:
    """Never called: the benchmark only decodes."""


async def per_call(factory: Any, item: discord.ui.Item[Any], rounds: int) -> float:
    """Microseconds per ``from_custom_id`` call (best of five batches)."""
    match = factory.__discord_ui_compiled_template__.fullmatch(item.custom_id)  # type: ignore[attr-defined]
    assert match is not None, item.custom_id
    batches = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(rounds):
            await factory.from_custom_id(None, item, match)
        batches.append((time.perf_counter() - start) / rounds * 1e6)
    return min(batches)


async def main(rounds: int) -> None:
    button_cls, select_cls = bound_items(_router)
    button = discord.ui.Button(label="Discard", custom_id="rummy:12345:67:discard:7h")
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="rummy:12345:67:addto:7h_8h",
        options=[discord.SelectOption(label=f"{n} · 4♥ 5♥ 6♥", value=str(n)) for n in range(1, 9)],
    )
    timings = {
        "button": await per_call(button_cls, button, rounds),
        "select": await per_call(select_cls, select, rounds),
    }
    for name, micros in timings.items():
        print(f"from_custom_id {name}: {micros:.2f} µs per click")
    print(f"mean: {statistics.mean(timings.values()):.2f} µs")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    asyncio.run(main(parser.parse_args().rounds))
