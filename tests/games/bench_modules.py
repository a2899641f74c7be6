"""The bench's scripts (bench/*.py) loaded as modules, for the tests of their scoring."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_bench(name: str) -> ModuleType:
    """``bench/<name>.py`` as the module ``bench_<name>`` (loaded once)."""
    key = f"bench_{name}"
    if key in sys.modules:
        return sys.modules[key]
    path = Path(__file__).resolve().parents[2] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(key, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module
