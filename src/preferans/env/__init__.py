"""Preferans for AI research: PettingZoo, Gymnasium and OpenSpiel faces, and fast self-play.

Needs the ``[rl]`` extra (numpy, gymnasium, pettingzoo; open-spiel for
:mod:`preferans.env.openspiel`).  The core package never imports this one.

* :func:`env` / :func:`raw_env` — the PettingZoo AEC environment (:mod:`.aec`);
* :class:`SingleAgentEnv` — Gymnasium, one learning seat against bots (:mod:`.single`);
* :mod:`.batch` — :class:`~.batch.BatchSelfPlay`, many deals stepped at once;
* :mod:`.openspiel` — registers ``python_preferans`` with OpenSpiel;
* :mod:`.encoding` — the observation vector (docs/env.md).
"""

from .aec import PreferansAEC, env, raw_env
from .config import EnvConfig, EnvError
from .encoding import OBS_SIZE, encode

__all__ = ["OBS_SIZE", "EnvConfig", "EnvError", "PreferansAEC", "encode", "env", "raw_env"]
