"""Local HTTP servers speaking the Anthropic Messages and OpenAI chat-completions
protocols, recording every request, for tests of chunkwise.llm."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _QuietServer(ThreadingHTTPServer):
    """A stalled answer written after its client gave up (a timed-out call) fails in
    the handler's thread; socketserver prints that to stderr, into whichever test
    captures it then (test_tune's check that an error is one line failed so)."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


def _prompt_text(kind: str, body: dict[str, Any]) -> str:
    content = body["messages"][0]["content"]
    if kind == "anthropic":
        return "".join(block["text"] for block in content)
    return content


def default_answer(prompt: str) -> str:
    """An answer that depends on the chunk: its first words."""
    chunk = prompt.split("<chunk>\n", 1)[-1].split("\n</chunk>", 1)[0]
    return f"This chunk opens with {' '.join(chunk.split()[:4])}. It belongs to the test file."


class LLMServer:
    """``kind`` "anthropic" or "openai". ``script``: statuses to answer before the
    normal 200s (e.g. [429, 500]); ``answer(prompt)`` makes the text. ``stall``:
    seconds every request waits before its answer (a server that has stopped
    answering)."""

    def __init__(self, kind: str, answer: Callable[[str], str] = default_answer,
                 script: list[int] | None = None, stall: float = 0.0, retry_after: str = "0"):
        self.kind = kind
        self.retry_after = retry_after
        self.stall = stall
        self.answer = answer
        self.script = list(script or [])
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                started = time.monotonic()
                length = int(self.headers.get("content-length", 0))
                raw = self.rfile.read(length)
                body = json.loads(raw)
                with server.lock:
                    status = server.script.pop(0) if server.script else 200
                    record = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body,
                              "raw": raw, "status": status, "started": started}
                    server.requests.append(record)
                if status != 200:
                    payload = {"type": "error", "error": {"type": "rate_limit_error"
                               if status == 429 else "api_error", "message": f"status {status}"}}
                    self._send(status, payload, {"retry-after": server.retry_after})
                    record["ended"] = time.monotonic()
                    return
                time.sleep(0.02 + server.stall)  # so that overlapping calls would overlap
                prompt = _prompt_text(server.kind, body)
                text = server.answer(prompt)
                n_in, n_out = len(prompt) // 4, len(text) // 4
                if server.kind == "anthropic":
                    first = server.first_of(prompt)
                    cached = len(body["messages"][0]["content"][0]["text"]) // 4
                    payload = {
                        "id": "msg_test", "type": "message", "role": "assistant",
                        "model": body["model"], "content": [{"type": "text", "text": text}],  # type: ignore[list-item]
                        "stop_reason": "end_turn", "stop_sequence": None,  # type: ignore[dict-item]
                        "usage": {"input_tokens": n_in - cached, "output_tokens": n_out,
                                  "cache_creation_input_tokens": cached if first else 0,
                                  "cache_read_input_tokens": 0 if first else cached}}
                else:
                    payload = {
                        "id": "chatcmpl-test", "object": "chat.completion", "created": 1,  # type: ignore[dict-item]
                        "model": body["model"], "choices": [{  # type: ignore[list-item]
                            "index": 0, "finish_reason": "stop",
                            "message": {"role": "assistant", "content": text}}],
                        "usage": {"prompt_tokens": n_in, "completion_tokens": n_out,
                                  "total_tokens": n_in + n_out,
                                  "prompt_tokens_details": {"cached_tokens": n_in // 2}}}
                self._send(200, payload)
                record["ended"] = time.monotonic()

            def _send(self, status: int, payload: dict[str, Any],
                      headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        self.httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._seen: set[str] = set()

    def first_of(self, prompt: str) -> bool:
        prefix = prompt.split("</document>", 1)[0]
        with self.lock:
            new = prefix not in self._seen
            self._seen.add(prefix)
        return new

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> LLMServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def ok(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["status"] == 200]
