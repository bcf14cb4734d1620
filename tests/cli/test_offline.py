"""``rummy-bot simulate`` and ``rummy-bot demo`` run without a token or Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.offline import wilson


def test_simulate_plays_games_and_prints_results(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--variant", "51", "--mode", "2v2", "--games", "2", "--seed", "4"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "r51 2v2, 2 games" in out and "strong" in out and "easy" in out
    assert "CPU per computer turn" in out and "rounds per game" in out
    assert "2/2 games" in err  # the progress line


def test_simulate_refuses_an_unknown_strength(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "strong,godlike", "--games", "1"]) == 2
    assert "godlike" in capsys.readouterr().err


def test_demo_writes_pictures_of_a_game(tmp_path: Path) -> None:
    assert main(["demo", "--out", str(tmp_path), "--variant", "simple", "--seed", "2"]) == 0
    pictures = sorted(tmp_path.glob("*.png"))
    assert any("deal-table" in p.name for p in pictures)
    assert any("round-end-scores" in p.name for p in pictures)
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pictures)


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson(80, 100)
    assert 0.70 < low < 0.80 < high < 0.88
    assert wilson(0, 0) == (0.0, 1.0)
