"""The declarer's double-dummy margin at the first whisting call, counted: written by
``benchmarks/whist_layouts.py --write`` from p14base-7002-leningrad-3.jsonl,
base-7008-leningrad-3.jsonl, ts-7002-sochi-3.jsonl, base-7002-sochi-3.jsonl (do not edit by hand).

``MARGINS[rules]['true'][margin]``: games whose declarer's true double-dummy tricks were
``margin`` over his contract (clipped −3…+2); ``MARGINS[rules]['drawn'][margin]``: the
layouts the expert drew for those calls with that margin.
"""

MARGINS: dict[str, dict[str, dict[int, int]]] = {
    'leningrad': {
        'true': {-2: 8, -1: 38, 0: 188, 1: 145, 2: 21},
        'drawn': {-3: 3712, -2: 3008, -1: 3833, 0: 3871, 1: 2831, 2: 1945},
    },
    'sochi': {
        'true': {-2: 1, -1: 32, 0: 68, 1: 63, 2: 35},
        'drawn': {-3: 1591, -2: 1325, -1: 1911, 0: 1999, 1: 1490, 2: 1236},
    },
}
