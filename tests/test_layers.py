"""The core imports only the standard library, and never the layers above it."""

import subprocess
import sys
import textwrap

CORE = [
    "preferans", "preferans.cards", "preferans.rules", "preferans.actions", "preferans.auction",
    "preferans.deal", "preferans.observation", "preferans.result", "preferans.scoring",
    "preferans.pulka", "preferans.scorekeeper", "preferans.svg", "preferans.record",
]
ABOVE = ["preferans.solver", "preferans.bots", "preferans.env", "preferans.server", "preferans.tui",
         "preferans.analysis", "preferans.irregularities", "preferans.arena"]


def test_core_needs_only_the_standard_library():
    code = textwrap.dedent(
        f"""
        import sys, importlib, importlib.abc

        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == "preferans" or top.startswith("_"):
                    return None
                raise ImportError(f"core imported a non-standard module: {{name}}")

        sys.meta_path.insert(0, Block())
        for m in {CORE!r}:
            importlib.import_module(m)
        above = [m for m in {ABOVE!r} if m in sys.modules]
        assert not above, f"the core imported a layer above it: {{above}}"
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
