"""The coaching notes of the table tips as players read them, in English and French, with the
plural of the cards left and the names of the table (``bot/features/play/coaching.py``)."""

from __future__ import annotations

from bot.features.play.coaching import note_text, turn_note
from rummy_engine import Discard, parse_face
from tests.engine.test_tips import joker_position, layoff, played, two_v_two

NAMES = {0: "Alice", 1: "Bob", 2: "Chloé", 3: "Dan"}


def test_a_partner_close_to_going_out_is_named_in_the_note() -> None:
    steps, after = played(two_v_two("Ad 7s"), [layoff(0, "9h"), Discard(0, parse_face("Ks"))])
    note = turn_note(steps, after, 0)
    assert note_text(note, NAMES, "en") == (
        "Coach: your partner Chloé has 2 cards left, and this turn closed meld 1 to them: keep "
        "the table open for a partner close to going out."
    )
    assert note_text(note, NAMES, "fr") == (
        "Coach : il reste 2 cartes à votre partenaire Chloé, et ce tour lui a fermé la "
        "combinaison 1 : laissez la table ouverte à un partenaire près de finir."
    )


def test_a_joker_kept_names_the_opponent_and_the_meld_it_could_go_on() -> None:
    steps, after = played(joker_position("7s"), [Discard(0, parse_face("Ks"))])
    note = turn_note(steps, after, 0)
    assert note_text(note, NAMES, "en") == (
        "Coach: Bob has 1 card left and your JK costs 20 if they go out: it could have gone "
        "on meld 1."
    )
    assert note_text(note, NAMES, "fr").startswith("Coach : il reste 1 carte à Bob, et votre JK")
