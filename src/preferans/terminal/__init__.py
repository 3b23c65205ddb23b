"""Playing at the terminal: shared texts (English and Russian), the plain line mode, and the
full-screen Textual interface (:mod:`preferans.terminal.fullscreen`, behind the ``[tui]`` extra).

Only :mod:`preferans.terminal.fullscreen` imports Textual, so the plain mode works without it.
"""
