"""The Generator protocol (chat messages → streamed text and a Generation record) and the values it speaks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from vaultrag.core.model import Generation
from vaultrag.core.vocab import LLMFailure, ModelState
from vaultrag.errors import UserFacingError

# what `test_connection` asks: short, so a slow model answers within seconds
TEST_PROMPT = "Reply with one short sentence that says hello."
TEST_MAX_TOKENS = 24
SAMPLE_CHARS = 80


class LLMError(UserFacingError):
    """A language model failure outside an answer (listing models, settings) with its code (`kind`)."""

    def __init__(self, kind: LLMFailure, message: str, **details: object) -> None:
        super().__init__(message, None, **details)  # details: what words it (`wording.llm_failure`)
        self.kind = kind


@dataclass(frozen=True)
class Message:
    """One chat message: who says it and what."""

    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class Generated:
    """A finished (or failed, stopped, capped) answer: its text and how it went (`record.failure` when it failed;
    the text then holds the part received)."""

    text: str
    record: Generation


@dataclass(frozen=True)
class ConnectionTest:
    """What `test_connection` found: the model answered (latency, a one-line sample) or a coded failure."""

    model: str
    address: str
    latency_ms: float | None = None
    sample: str = ""
    failure: LLMFailure | None = None
    error: str = ""  # the failure in English words, for people
    details: dict[str, str] = field(default_factory=dict)  # what words the failure (`wording.llm_failure`)
    context: int | None = None  # the tokens (prompt + answer) the model gets, when its server says
    server: str = ""  # what answered, when its endpoints say: "Ollama", "LM Studio"

    @property
    def ok(self) -> bool:
        return self.failure is None


@dataclass(frozen=True)
class FoundServer:
    """A local server answering on this machine (the first run's offer)."""

    name: str
    base_url: str
    models: list[str] = field(default_factory=list)
    kind: str = ""  # what its endpoints say it is: ollama, lmstudio, openai ("" when not asked)


class Generator(Protocol):
    """A language model that writes answers. `generate` never raises for the model's own failures: they come back
    coded in `Generated.record` (`failure`, `error`), with the text received so far."""

    @property
    def model(self) -> str:
        """The model's name as its server or file names it ("" when none is set)."""
        ...

    @property
    def address(self) -> str:
        """Where the model runs (a server's URL, a file), for messages and the trace."""
        ...

    @property
    def max_tokens(self) -> int:
        """The longest answer in tokens when `generate` is given no cap (a longer one ends capped)."""
        ...

    def prepare(self, on_state: Callable[[ModelState], None] | None = None) -> None:
        """Make the model ready to answer, telling `on_state` what happens (LOADING or RESTARTING, then READY): a
        built-in model starts its server here; a server's model is ready at once. Raises LLMError (coded) when it
        cannot. `generate` makes sure too: calling it first only lets a window say "loading model…"."""
        ...

    def generate(self, messages: Sequence[Message], on_piece: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None, temperature: float | None = None,
                 max_tokens: int | None = None) -> Generated:
        """Stream the answer to `messages`: each piece of text goes to `on_piece` as it arrives; `cancel` (set from
        any thread) stops it between two pieces (status stopped). None: the configured temperature and cap."""
        ...

    def list_models(self) -> list[str]:
        """The models this backend can use (raises LLMError with advice when it cannot tell)."""
        ...

    def test_connection(self) -> ConnectionTest:
        """Ask the model for one short sentence: its latency and the sample, or why it failed."""
        ...


def connection_test(generator: Generator) -> ConnectionTest:
    """`test_connection` by generating TEST_PROMPT (a backend without a cheaper probe delegates here)."""
    got = generator.generate([Message("user", TEST_PROMPT)], temperature=0.0, max_tokens=TEST_MAX_TOKENS)
    r = got.record
    if r.failure is not None:
        return ConnectionTest(generator.model, generator.address, failure=r.failure, error=r.error,
                              details=r.failure_details)
    line = next((s.strip() for s in got.text.splitlines() if s.strip()), "")
    sample = line if len(line) <= SAMPLE_CHARS else line[: SAMPLE_CHARS - 1] + "…"
    return ConnectionTest(generator.model, generator.address, latency_ms=r.total_ms, sample=sample)
