from collections.abc import Sequence

Layout = tuple[int, int, int] | tuple[int, int, int, int, Sequence[int]]

NO_TT: int
NO_EQUIV: int
NO_BOUNDS: int
NO_ORDER: int
NO_LAST: int
BISECT: int
NO_REL: int

class Engine:
    nodes: int
    @property
    def size(self) -> int: ...
    def __init__(self, size_mb: int = 16) -> None: ...
    def solve(
        self,
        hands: tuple[int, int, int],
        leader: int,
        trick: Sequence[int],
        trump: int,
        goal: int,
        focus: int,
        talon: Sequence[int],
        participates: bool = False,
        target: int = -1,
        flags: int = 0,
    ) -> int: ...
    def moves(
        self,
        hands: tuple[int, int, int],
        leader: int,
        trick: Sequence[int],
        trump: int,
        goal: int,
        focus: int,
        talon: Sequence[int],
        participates: bool = False,
        target: int = -1,
        flags: int = 0,
    ) -> list[tuple[int, int]]: ...
    def solve_many(
        self,
        hands: Sequence[Layout],
        leader: int,
        trick: Sequence[int],
        trump: int,
        goal: int,
        focus: int,
        talon: Sequence[int],
        participates: bool = False,
        target: int = -1,
        flags: int = 0,
    ) -> list[int]: ...
    def moves_many(
        self,
        hands: Sequence[Layout],
        leader: int,
        trick: Sequence[int],
        trump: int,
        goal: int,
        focus: int,
        talon: Sequence[int],
        participates: bool = False,
        target: int = -1,
        flags: int = 0,
    ) -> list[list[tuple[int, int]]]: ...
    def selfish_many(
        self,
        hands: Sequence[Layout],
        leader: int,
        trick: Sequence[int],
        trump: int,
        goal: int,
        focus: int,
        talon: Sequence[int],
        participates: bool = False,
        target: int = -1,
        flags: int = 0,
    ) -> list[list[tuple[int, int]]]: ...
    def reset(self) -> None: ...
