"""A bot program for the tests: it logs every message it receives and answers the last legal action."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

RECORDER = textwrap.dedent(
    """
    import json, os, sys
    log = open(sys.argv[1], "a", encoding="utf-8")
    answer_unasked = len(sys.argv) > 2 and sys.argv[2] == "chatty"
    for line in sys.stdin:
        msg = json.loads(line)
        log.write(json.dumps({"pid": os.getpid(), **msg}, ensure_ascii=False) + "\\n")
        log.flush()
        if msg["type"] == "hello":
            print("ok recorder preferans-bot/2", flush=True)
        elif msg["type"] == "observation":
            print(msg["observation"]["legal_actions"][-1], flush=True)
        elif msg["type"] == "result" and answer_unasked:
            print("thanks", flush=True)
        elif msg["type"] == "quit":
            break
    """
)


def recorder_bot(folder: Path) -> tuple[list[str], Path]:
    """The recorder's command line and its log (one JSON message a line, with the process id)."""
    path = folder / "recorder.py"
    path.write_text(RECORDER)
    return [sys.executable, str(path), str(folder / "log.jsonl")], folder / "log.jsonl"


def messages(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
