"""The README's library example is real code: run it and check what it prints."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_engine_example_plays_a_whole_game() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    assert blocks, "the README shows the engine in use"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "README.md", "exec"), {})
    printed = out.getvalue().splitlines()
    assert printed[0] == "As the dealer you start without drawing: lay melds or discard a card."
    assert printed[1].startswith("scores [") and "winning side [" in printed[1]
