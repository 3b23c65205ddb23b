"""Preferans for AI research: PettingZoo, Gymnasium and OpenSpiel faces, and fast self-play.

Needs the ``[rl]`` extra (numpy, gymnasium, pettingzoo; open-spiel for
:mod:`preferans.env.openspiel`).  The core package never imports this one.

* :func:`env` / :func:`raw_env` — the PettingZoo AEC environment (:mod:`.aec`);
* :class:`SingleAgentEnv` — Gymnasium, one learning seat against bots (:mod:`.single`),
  also registered as ``gymnasium.make("preferans/Preferans-v0")``;
* :class:`BatchSelfPlay` — many deals stepped at once, numpy in and out (:mod:`.batch`);
* :mod:`.openspiel` — importing it registers ``python_preferans`` with OpenSpiel;
* :mod:`.encoding` — the observation vector (docs/env.md).
"""

import gymnasium

from .aec import PreferansAEC, env, raw_env
from .batch import BatchSelfPlay, BatchStep, random_actions
from .config import EnvConfig, EnvError
from .encoding import OBS_SIZE, encode
from .single import SingleAgentEnv

__all__ = [
    "OBS_SIZE",
    "BatchSelfPlay",
    "BatchStep",
    "EnvConfig",
    "EnvError",
    "PreferansAEC",
    "SingleAgentEnv",
    "encode",
    "env",
    "random_actions",
    "raw_env",
]

if "preferans/Preferans-v0" not in gymnasium.registry:
    gymnasium.register(id="preferans/Preferans-v0", entry_point="preferans.env.single:SingleAgentEnv")
