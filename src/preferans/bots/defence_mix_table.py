"""How trick games were defended, counted: written by ``benchmarks/dd_bias.py --defence-write``
from p14base-7002-leningrad-3.jsonl, ts-7002-sochi-3.jsonl, base-7002-sochi-3.jsonl,
e12-7002-sochi-3.jsonl, four-2931-leningrad-4.jsonl (do not edit by hand).

``DEFENCE[rules][players][level][situation]``: trick games played out under the rules preset
``rules`` at a table of ``players`` whose contract was of ``level`` and whose defence was
``situation`` (as in :data:`.dd_bias_table.COUNTS`).
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
