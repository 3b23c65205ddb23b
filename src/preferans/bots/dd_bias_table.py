"""Real − double-dummy declarer tricks, counted: written by ``benchmarks/dd_bias.py``
from final-sochi.jsonl, final-leningrad.jsonl (do not edit by hand).

``COUNTS[situation][margin][shift]``: games whose defence was ``situation`` (open or closed,
one or two whisters), whose double-dummy tricks were ``margin`` over the contract (clipped
-3…2) and in which the declarer took ``shift`` tricks more than double-dummy
(clipped -3…3).
"""

COUNTS: dict[str, dict[int, dict[int, int]]] = {
    'closed0': {
        -1: {0: 6},
        0: {0: 70},
    },
    'closed1': {
        -2: {1: 3, 2: 2},
        -1: {-1: 6, 0: 57, 1: 36, 2: 3},
        0: {-1: 41, 0: 567, 1: 163, 2: 16},
        1: {-2: 3, -1: 43, 0: 403, 1: 46},
        2: {0: 30},
    },
    'closed2': {
        -3: {1: 4, 2: 1, 3: 1},
        -2: {-2: 1, -1: 3, 0: 34, 1: 61, 2: 16, 3: 1},
        -1: {-2: 2, -1: 42, 0: 254, 1: 208, 2: 73, 3: 14},
        0: {-2: 19, -1: 162, 0: 1768, 1: 801, 2: 137, 3: 7},
        1: {-3: 1, -2: 7, -1: 155, 0: 1184, 1: 301, 2: 33, 3: 1},
        2: {-3: 1, -2: 9, -1: 68, 0: 423, 1: 99, 2: 2},
    },
    'misere': {
        0: {0: 240},
        1: {-1: 26, 0: 10},
        2: {-1: 12, 0: 12},
    },
    'open1': {
        -3: {0: 1},
        -2: {0: 29, 1: 15, 2: 10, 3: 3},
        -1: {-1: 8, 0: 440, 1: 122, 2: 5},
        0: {-2: 5, -1: 23, 0: 2165, 1: 441, 2: 19},
        1: {-1: 46, 0: 2132, 1: 173, 2: 1},
        2: {-1: 31, 0: 1000, 1: 54},
    },
}
