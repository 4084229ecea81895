"""The shared widget shell and canvas helpers.

``GameWidget`` (ipywidgets + ipycanvas) is imported on first use, so the pure
drawing code (:mod:`.drawing`) stays importable without a notebook.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GameWidget"]


def __getattr__(name: str) -> Any:
    if name == "GameWidget":
        from .shell import GameWidget
        return GameWidget
    raise AttributeError(name)
