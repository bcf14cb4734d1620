"""The README's library example is real code: run it and check what it prints."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def run_block(number: int) -> list[str]:
    """Execute the README's ``number``-th Python block; the lines it printed."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) > number, "the README shows the engine in use"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[number], "README.md", "exec"), {})
    return out.getvalue().splitlines()


def test_engine_example_plays_a_whole_game() -> None:
    printed = run_block(0)
    assert printed[0] == "As the dealer you start without drawing: lay melds or discard a card."
    assert printed[1].startswith("scores [") and "winning side [" in printed[1]


def test_position_example_builds_and_scores() -> None:
    assert run_block(1) == [
        "table worth 45",
        "As written the joker would follow A♥: a run cannot wrap. Did you mean JK Q♥ K♥ A♥?",
        "opening value 81",
        "seat 1 would pay 51",
        "if seat 0 went out now (0, 51)",
    ]
