"""English sentences of the lessons (``/rummy-learn lessons``).

A chapter's words are ``learn.<chapter>.title`` and ``learn.<chapter>.page`` (two to four
sentences under its picture); an exercise's question is ``learn.<chapter>.<n>``. The answers
and the explanations of wrong ones are not here: the engine computes them and words them
(its refusals), and the few sentences around them are the ``learn.answer.*`` ones.
"""

from __future__ import annotations

WORDS: dict[str, str] = {
    "command.lessons": "A private course you play: melds, the opening, a turn, the score…",
    # the frame of every page
    "learn.chapter": "**Chapter {number} of {count}: {title}**",
    "learn.exercise": "**{title}, exercise {number} of {count}**",
    "learn.picture": "Exercise {number}",
    "learn.start": "Press **Next** for the exercises.",
    "learn.right": "✅ Right!",
    "learn.wrong": "❌ Not quite:",
    "learn.again": "Try again.",
    "learn.shown": "The answer:",
    "learn.next": "Next",
    "learn.check": "Check",
    "learn.yes": "Yes",
    "learn.no": "No",
    "learn.again_button": "Start again",
    "learn.pick": "Pick cards…",
    "learn.choose": "Choose a value…",
    "learn.old_message": (
        "This lesson message is out of date and changed nothing: use the newest one, or "
        "/rummy-learn lessons to see where you are."
    ),
    "learn.not_yours": "This lesson belongs to someone else: /rummy-learn lessons opens your own.",
    "learn.answer_first": "Answer the exercise first: Next comes after it.",
    # answers (computed by the engine, worded here)
    "learn.answer.cards": "These cards make it: {cards}.",
    "learn.answer.is_run": "Yes: {cards} is a run.",
    "learn.answer.is_set": "Yes: {cards} is a set.",
    "learn.answer.count": "{parts}: {value} in all.",
    "learn.answer.opening": "One opening that works: {melds} ({value} points).",
    "learn.answer.allowed": "Yes, that move is allowed now.",
    "learn.not_a_run": "{cards} is a meld, but a set: this exercise asks for a run.",
    "learn.not_a_set": "{cards} is a meld, but a run: this exercise asks for a set.",
    "learn.not_a_meld": "{cards} is not a meld.",
    "learn.count.wrong": "These melds are not worth {value}.",
    "learn.pick_one": "Pick exactly one card (you picked {count}).",
    "learn.answer.frees": "{card} frees it: it is the card the joker stands for.",
    "learn.answer.penalty": "In hand, {cards} cost {value} points.",
    "learn.penalty.wrong": "These cards do not cost {value}.",
    "learn.answer.limit": "The game ends when a side reaches {value} points.",
    "learn.limit.wrong": "{value} is not the limit of this game.",
    "learn.score.wrong": "The winner does not score {value} here.",
    "learn.answer.gain": "The winner scores what the others hold: {value} points.",
    "learn.answer.rummy": "The others hold {gain} points, doubled for a rummy: {value}.",
    "learn.answer.bar": (
        "The first opening sets the bar for the other side: {opening} points, so each of them "
        "needs {value} to open."
    ),
    "learn.bar.wrong": "The other side does not need {value} to open here.",
    "learn.answer.side": (
        "Your partner pays nothing; the two opponents add theirs: {first} + {second} = {value}."
    ),
    "learn.side.wrong": "The other side does not pay {value} here.",
    "learn.answer.rami_sec": (
        "Yes: laying down all your cards but one goes out even below the opening's points. With "
        "nothing laid before, that is going rummy (rami sec): allowed, and it does not double "
        "what the others pay."
    ),
    # chapter 1: melds
    "learn.melds.title": "Melds",
    "learn.melds.page": (
        "A meld is 3 cards or more. A run follows in one suit (5♥ 6♥ 7♥); a set is one rank "
        "in different suits (9♠ 9♦ 9♣, 4 cards at most). The Ace is low (A 2 3) or high "
        "(Q K A), never both. A joker stands for the card it replaces, one per meld."
    ),
    "learn.melds.1": "Pick the cards that make a run, then press Check.",
    "learn.melds.2": "Pick the cards that make a set, then press Check.",
    "learn.melds.3": "Is K♥ A♥ 2♥ a meld?",
    "learn.melds.4": "Is Q♠ K♠ A♠ a meld?",
    "learn.melds.5": "Is 7♣ JK 9♣ a meld?",
    "learn.melds.6": "Is JK JK 4♦ a meld?",
    # chapter 2: the opening
    "learn.opening.title": "The opening",
    "learn.opening.page": (
        "Your first lay-down is your opening: in Rummy 51 its melds must be worth 51 points, in "
        "Rummy 71 they must be worth 71 and hold a run and a set without a joker. A card counts "
        "its number, a face card 10, an Ace 1 low or 11 high. A joker counts the card it stands "
        "for in Rummy 51 and nothing in Rummy 71. The other side's opening raises your bar to one "
        "point more; in 2 against 2, once your partner has opened, a run is enough for you."
    ),
    "learn.opening.1": "Rummy 51: what is this opening worth?",
    "learn.opening.2": "Rummy 51: what is this opening worth?",
    "learn.opening.3": "Rummy 71: what is this opening worth?",
    "learn.opening.4": "Rummy 51, you just drew 4♠: pick the cards of an opening, then press Check.",
    "learn.opening.5": (
        "Rummy 71, you just drew 4♠: pick the cards of an opening (71, a run and a set without "
        "a joker), then press Check."
    ),
    "learn.opening.6": (
        "Rummy 51: the other side opened with 60 points. May you open with 2♠ 3♠ 4♠, 5♥ 6♥ 7♥ "
        "and J♦ Q♦ K♦ (57 points)?"
    ),
    "learn.opening.7": (
        "Rummy 51, 2 against 2: your partner has opened. May you lay 5♥ 6♥ 7♥ alone (18 points)?"
    ),
    "learn.opening.8": (
        "Rummy 51, 2 against 2: nobody has opened, and you open with 7♥ 8♥ 9♥, Q♠ Q♦ Q♣ and "
        "3♦ 4♦ 5♦. What must each opponent's opening be worth now?"
    ),
    # chapter 3: a turn
    "learn.turn.title": "A turn",
    "learn.turn.page": (
        "Your turn starts with a draw: the top of the stock, or the top discard. Then you may "
        "lay melds, and you end by discarding one card. In Rummy 51 and 71 a discard you take "
        "must go on the table that turn: it cannot be thrown back."
    ),
    "learn.turn.1": "Rummy 51, your turn starts and the top discard is 7♠. May you discard 9♣ now?",
    "learn.turn.2": "Same moment: may you take the top discard (7♠)?",
    "learn.turn.3": "You drew 4♠ and have not opened. May you lay 5♥ 6♥ 7♥ alone?",
    "learn.turn.4": "You have opened and you took 7♠ from the discard pile. May you discard 7♠?",
    "learn.turn.5": "Same moment: may you discard 9♣ and keep 7♠ in your hand?",
    # chapter 4: adding to melds, swapping a joker
    "learn.add.title": "Adding to melds",
    "learn.add.page": (
        "Once you have opened, you may add cards from your hand to any meld on the table: at "
        "either end of a run, or a fourth suit to a set. Give the card a joker stands for and the "
        "joker is yours; a set's joker only when the set has four cards."
    ),
    "learn.add.1": "You have opened. Pick the cards that go on the table's run 5♥ 6♥ 7♥, then Check.",
    "learn.add.2": "Pick the card that frees the joker of 5♦ JK 7♦, then Check.",
    "learn.add.3": "May you give 9♠ to the set JK 9♦ 9♣ and take its joker?",
    "learn.add.4": "May you give Q♥ to the set JK Q♠ Q♦ Q♣ and take its joker?",
    # chapter 5: going out and the score
    "learn.score.title": "Going out and the score",
    "learn.score.page": (
        "A round ends when a player discards their last card. In Rummy 51 and 71 the others pay "
        "what they hold (a card its number, a face card 10, an Ace 11, a joker 20), or 100 if "
        "they laid nothing; in Simple every loser pays 100. In 2 against 2 the winner's partner "
        "pays nothing and the two opponents add up. The game ends when a side reaches its limit."
    ),
    "learn.score.1": "Rummy 51: someone went out and you hold these cards. You had laid melds. What do you pay?",
    "learn.score.2": "Same cards, but you had laid nothing this round. What do you pay?",
    "learn.score.3": (
        "Rummy 51, 2 against 2: you go out. The picture shows your partner's 8 cards, then the "
        "opponents' hands: one had laid melds (K♠ 4♦ left), the other had laid nothing. What "
        "does their team pay?"
    ),
    "learn.score.4": "The same round in Simple: what does their team pay?",
    "learn.score.5": "A game of Rummy 71, 2 against 2: at what score does it end?",
    "learn.score.6": "A game of Simple, 1 against 1: at what score does it end?",
    "learn.score.7": (
        "Rummy 51: you have not opened and you drew 6♥. May you lay A♣ 2♣ 3♣ 4♣ 5♣, 2♥ 2♦ 2♠, "
        "3♥ 3♦ 3♠ and 4♥ 5♥ 6♥ (45 points), to discard your last card, 9♦?"
    ),
    # chapter 6: Basic rummy
    "learn.basic.title": "Basic rummy",
    "learn.basic.page": (
        "Basic rummy is played with one pack and no joker, by 2 to 6 players. The Ace is low "
        "only (A 2 3). There is no opening: lay any meld. The winner scores what the others hold "
        "(a face card 10, an Ace 1), doubled when they go out all at once (rummy)."
    ),
    "learn.basic.1": "Basic rummy: is Q♥ K♥ A♥ a meld?",
    "learn.basic.2": "Basic rummy: is A♥ 2♥ 3♥ a meld?",
    "learn.basic.4": (
        "Basic rummy, 3 players: you went out all at once (rummy). The others hold K♠ 8♦ and "
        "Q♥ 10♣ 5♠. What do you score?"
    ),
    "learn.basic.3": "Basic rummy: someone went out and you hold these cards. What does the winner score from them?",
    # the end
    "learn.end.title": "**Course complete.**",
    "learn.end.ready": "You are ready for {variants}.",
    "learn.end.none": "Finish the chapters to know which rummy you are ready for.",
    "learn.end.practice": (
        "Practise at a table of your own against computers, with a coaching note after each of "
        "your turns: choose it below, and it is dealt in this channel."
    ),
    "practice.pick": "A practice table…",
    "practice.1v1": "{variant}: you against a computer",
    "practice.2v2": "{variant}: 2 against 2, with a computer partner",
    "practice.basic": "{variant}: you against 2 computers",
    "practice.opened": (
        "Your practice table is dealt below, coaching on: after each of your turns a short note "
        "comes with your hand. It counts for no rating."
    ),
    "practice.in_server": (
        "A practice table is dealt in a server's channel: open /rummy-learn lessons there and "
        "choose it again."
    ),
}
