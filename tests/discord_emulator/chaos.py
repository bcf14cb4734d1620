"""Discord misbehaving on purpose: latency on every call and event, and faults Discord really
produces, by share or by schedule.

Why: on loopback the emulator answers in microseconds and fails only when a test says so;
real Discord answers in tens to hundreds of milliseconds, returns a 5xx or a route's 429 now
and then (sometimes after it carried the call out), drops gateway connections and lets an
interaction token go early. A :class:`Chaos` plan is set on the emulator
(``emu.chaos = Chaos(seed=1)``); its REST side is applied by the emulator's middleware to
every call, its gateway side to every dispatched event, and :attr:`Chaos.injected` counts
what it did by kind, for a report.

A rule matches calls by method and path pattern (``fnmatch``, the path without ``/api/v10``):
``times`` applies it to the next so many matching calls (a schedule, for a deterministic
test), ``share`` to that fraction of them (at random, from the plan's seed).
``carried_out`` makes Discord do the call first and fail only its answer (the case a client
cannot tell from a call never made).
"""

from __future__ import annotations

import fnmatch
import random
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum


class Fault(Enum):
    """What Discord answers instead of the call's own answer."""

    E500 = "500"
    E502 = "502"
    E503 = "503"
    E504 = "504"
    #: No answer: the connection hangs for the rule's ``hang`` seconds, then drops.
    TIMEOUT = "timeout"
    #: 429 on the call's route, with ``Retry-After``.
    ROUTE_429 = "route-429"
    #: 429 of the bot token's global bucket (``X-RateLimit-Global``), bot-token calls only.
    GLOBAL_429 = "global-429"
    #: An interaction token's webhook call refused as if the token had expired (401 / 50027).
    TOKEN_EXPIRED = "token-expired"

    @property
    def status(self) -> int:
        return int(self.value) if self.value.isdigit() else 0


class GatewayFault(Enum):
    """What Discord does to a gateway connection (``DiscordEmulator.gateway_fault``)."""

    CLOSE_1000 = "close 1000"
    CLOSE_1001 = "close 1001"
    #: Unknown error: the session may resume.
    CLOSE_4000 = "close 4000"
    #: Session timed out: it may not resume, the client identifies again.
    CLOSE_4009 = "close 4009"
    #: The TCP connection dropped, no close frame.
    DROP = "drop"
    INVALID_RESUMABLE = "invalid session, resumable"
    INVALID = "invalid session"


#: The 5xx faults, for a plan that wants "any server error".
SERVER_ERRORS = (Fault.E500, Fault.E502, Fault.E503, Fault.E504)


@dataclass(frozen=True)
class Latency:
    """A delay of ``fixed`` seconds plus or minus up to ``jitter`` (uniform), never below 0."""

    fixed: float = 0.0
    jitter: float = 0.0

    def draw(self, rng: random.Random) -> float:
        if not self.fixed and not self.jitter:
            return 0.0
        return max(0.0, self.fixed + rng.uniform(-self.jitter, self.jitter))


@dataclass
class Rule:
    """One fault, on the calls it matches; see the module's docstring."""

    fault: Fault
    method: str = "*"
    pattern: str = "*"
    share: float = 0.0
    times: int = 0
    carried_out: bool = False
    hang: float = 5.0
    retry_after: float = 0.5

    def matches(self, method: str, path: str) -> bool:
        return fnmatch.fnmatch(method, self.method) and fnmatch.fnmatch(path, self.pattern)


@dataclass
class Chaos:
    """The emulator's plan of misbehaviour (see the module's docstring)."""

    seed: int = 0
    #: Added to every REST call before it is handled.
    rest: Latency = Latency()
    #: Added to every gateway event before it is sent (events sent close together may then
    #: arrive in another order than they happened).
    gateway: Latency = Latency()
    rules: list[Rule] = field(default_factory=list)
    #: What was injected, by kind (``"500"``, ``"timeout"``…); whether Discord carried a
    #: call out first is on the emulator's record of it (``RequestRecord.fault``).
    injected: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def add(self, fault: Fault, method: str = "*", pattern: str = "*", **how: object) -> Rule:
        """A rule (``times=``, ``share=``, ``carried_out=``…), applied from now on."""
        rule = Rule(fault, method, pattern, **how)  # type: ignore[arg-type]
        self.rules.append(rule)
        return rule

    def rest_delay(self) -> float:
        return self.rest.draw(self.rng)

    def gateway_delay(self) -> float:
        return self.gateway.draw(self.rng)

    def pick(self, method: str, path: str, *, bot_token: bool) -> Rule | None:
        """The rule that strikes this call, if any (a scheduled one first), counted."""
        for rule in self.rules:
            if not rule.matches(method, path) or not _applies(rule.fault, path, bot_token):
                continue
            if rule.times > 0:
                rule.times -= 1
            elif not (rule.share and self.rng.random() < rule.share):
                continue
            self.injected[rule.fault.value] += 1
            return rule
        return None


def _applies(fault: Fault, path: str, bot_token: bool) -> bool:
    if fault is Fault.GLOBAL_429:
        return bot_token
    if fault is Fault.TOKEN_EXPIRED:
        return path.startswith("/webhooks/")
    return True
