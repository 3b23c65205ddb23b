"""How trick games were defended, counted: written by ``benchmarks/dd_bias.py --defence-write``
from p14base-7002-leningrad-3.jsonl, ts-7002-sochi-3.jsonl, base-7002-sochi-3.jsonl,
e12-7002-sochi-3.jsonl, four-2931-leningrad-4.jsonl (do not edit by hand).

``DEFENCE[rules][players][level][situation]``: trick games played out under the rules preset
``rules`` at a table of ``players`` whose contract was of ``level`` and whose defence was
``situation`` (as in :data:`.dd_bias_table.COUNTS`).  ``CALLS[rules][players][level][first][second]``:
games whose first defender called ``first`` and the second then ``second``.
"""

DEFENCE: dict[str, dict[int, dict[int, dict[str, int]]]] = {
    'leningrad': {
        3: {
            6: {'closed1': 6, 'closed2': 67, 'open1': 715},
            7: {'closed1': 39, 'closed2': 79, 'open1': 260},
            8: {'closed1': 90, 'closed2': 27, 'open1': 187},
            9: {'closed1': 47, 'open1': 80},
            10: {'closed1': 5, 'open1': 9},
        },
        4: {
            6: {'closed2': 59, 'open1': 1286},
            7: {'closed1': 216, 'closed2': 232, 'open1': 524},
            8: {'closed1': 260, 'closed2': 63, 'open1': 131},
            9: {'closed1': 94, 'open1': 53},
            10: {'closed1': 46, 'open1': 3},
        },
    },
    'sochi': {
        3: {
            6: {'closed2': 573, 'open1': 734},
            7: {'closed1': 7, 'closed2': 138, 'open1': 26},
            8: {'closed2': 223},
            9: {'closed2': 120},
        },
    },
}

CALLS: dict[str, dict[int, dict[int, dict[str, dict[str, int]]]]] = {
    'leningrad': {
        3: {
            6: {'pass': {'half-whist': 1, 'whist': 50}, 'whist': {'pass': 670, 'whist': 67}},
            7: {'whist': {'pass': 299, 'whist': 79}},
            8: {'whist': {'pass': 277, 'whist': 27}},
            9: {'whist': {'pass': 127}},
            10: {'whist': {'pass': 14}},
        },
        4: {
            6: {'pass': {'half-whist': 8, 'whist': 103}, 'whist': {'pass': 1177, 'whist': 59}},
            7: {'pass': {'whist': 7}, 'whist': {'pass': 733, 'whist': 232}},
            8: {'pass': {'whist': 7}, 'whist': {'pass': 384, 'whist': 63}},
            9: {'whist': {'pass': 147}},
            10: {'whist': {'pass': 49}},
        },
    },
    'sochi': {
        3: {
            6: {'pass': {'half-whist': 33, 'whist': 208}, 'whist': {'pass': 517, 'whist': 573}},
            7: {'whist': {'pass': 33, 'whist': 138}},
            8: {'whist': {'whist': 223}},
            9: {'whist': {'whist': 120}},
        },
    },
}
