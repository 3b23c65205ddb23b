"""Computer opponents.  Every bot sees only its seat's observation."""

from .base import Bot
from .random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
