"""Pictures and animations of drawings, for slides and worksheets.

:func:`write_picture` writes one drawing as SVG (exact, any size) or PNG;
:func:`write_animation` writes a sequence of drawings (the positions of a line of play)
as an animated GIF (through Pillow, in the ``lab`` extra) or as an animated SVG (plain
SVG animation, which browsers and slide tools play, no library needed).

Given ``owner`` (the view it shows, as an owner tag: ``"seat-A"``, ``"full"``), a file
carries it (an SVG ``<metadata>``, a PNG text chunk, a GIF comment) and
:func:`file_owner` reads it back: a page never writes over another view's picture.

>>> import tempfile, pathlib
>>> from janus_widgets.drawing import Drawing
>>> frames = []
>>> for x in (10, 50, 90):
...     d = Drawing(120, 40, background="#ffffff")
...     d.circle(x, 20, 12, fill="#1f77b4")
...     frames.append(d)
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_picture(frames[0], folder / "one.svg").read_text()[:4]
'<svg'
>>> svg = write_animation(frames, folder / "moving.svg", fps=2).read_text()
>>> svg.count("<animate "), 'dur="1.5s"' in svg
(3, True)
>>> file_owner(write_picture(frames[0], folder / "mine.svg", owner="seat-A"))
'seat-A'
>>> file_owner(folder / "one.svg") is None          # written with no owner
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape, unescape
from pathlib import Path

from ..drawing import Drawing, render_svg, svg_body

__all__ = ["write_picture", "write_animation", "file_owner", "PICTURE_TYPES",
           "ANIMATION_TYPES"]

PICTURE_TYPES = (".svg", ".png")
ANIMATION_TYPES = (".gif", ".svg")
#: The key of the owner mark a written file carries.
OWNER_KEY = "janus-widgets view"
_SVG_OWNER = re.compile(r"<metadata>" + OWNER_KEY + r": ([^<]{1,80})</metadata>")


def _svg_with_owner(text: str, owner: str | None) -> str:
    """The SVG document with the owner mark just inside its ``<svg>`` tag."""
    if owner is None:
        return text
    at = text.index(">", text.index("<svg")) + 1
    return f"{text[:at]}<metadata>{OWNER_KEY}: {escape(owner)}</metadata>{text[at:]}"


def file_owner(path: str | Path) -> str | None:
    """The owner tag a picture or animation written here carries (``"seat-A"``), or
    None: no such file, no mark, or not a file these functions write."""
    target = Path(path)
    suffix = target.suffix.lower()
    try:
        if suffix == ".svg":
            with target.open(encoding="utf-8", errors="replace") as f:
                found = _SVG_OWNER.search(f.read(4096))
            return unescape(found.group(1)) if found else None
        if suffix in (".png", ".gif"):
            with _pillow().open(target) as image:  # type: ignore[attr-defined]
                if suffix == ".png":
                    mark = getattr(image, "text", {}).get(OWNER_KEY)
                else:
                    comment = image.info.get("comment", b"")
                    text = comment.decode("utf-8", "replace") if isinstance(
                        comment, bytes) else str(comment)
                    mark = text[len(OWNER_KEY) + 2:] if text.startswith(
                        OWNER_KEY + ": ") else None
            return mark if isinstance(mark, str) and mark else None
    except Exception:  # noqa: BLE001 - a file Pillow cannot read carries no mark
        return None
    return None


def _target(path: str | Path, allowed: tuple[str, ...], what: str) -> Path:
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in allowed:
        raise ValueError(f"{target.name!r}: a {what} is written as "
                         f"{' or '.join(allowed)}; give a file name ending so")
    if target.parent and not target.parent.exists():
        raise ValueError(f"cannot write {target}: the folder {target.parent} does not exist")
    return target


def _pillow() -> object:
    try:
        from PIL import Image
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise RuntimeError("PNG and GIF files need Pillow (janus_widgets installs it with "
                           "itself; this environment lacks it): pip install pillow") from exc
    return Image


def _image(drawing: Drawing, scale: float = 1.0) -> object:
    from .raster import rasterise
    return _pillow().fromarray(rasterise(drawing, scale))  # type: ignore[attr-defined]


def write_picture(drawing: Drawing, path: str | Path, *, scale: float = 1.0,
                  owner: str | None = None) -> Path:
    """Write ``drawing`` as ``.svg`` or ``.png`` (``scale`` pixels per drawing unit),
    marked as ``owner``'s if given (:func:`file_owner`)."""
    target = _target(path, PICTURE_TYPES, "picture")
    if target.suffix.lower() == ".svg":
        target.write_text(_svg_with_owner(render_svg(drawing), owner), encoding="utf-8")
    else:
        extra = {}
        if owner is not None:
            from PIL.PngImagePlugin import PngInfo
            extra["pnginfo"] = PngInfo()
            extra["pnginfo"].add_text(OWNER_KEY, owner)
        _image(drawing, scale).save(target, format="PNG", **extra)  # type: ignore[attr-defined]
    return target


def write_animation(drawings: Sequence[Drawing], path: str | Path, *, fps: float = 2.0,
                    scale: float = 1.0, owner: str | None = None) -> Path:
    """Write the drawings as frames of an animation that loops: ``.gif`` or ``.svg``,
    ``fps`` frames per second (0.1 to 30), marked as ``owner``'s if given
    (:func:`file_owner`)."""
    target = _target(path, ANIMATION_TYPES, "animation")
    if not drawings:
        raise ValueError("an animation needs at least one frame")
    if not 0.1 <= fps <= 30:
        raise ValueError(f"fps={fps!r}: use 0.1 to 30 frames per second")
    if target.suffix.lower() == ".svg":
        target.write_text(_svg_with_owner(animated_svg(drawings, fps), owner),
                          encoding="utf-8")
        return target
    frames = [_image(d, scale).convert("P", palette=1, colors=255)  # type: ignore[attr-defined]
              for d in drawings]
    extra = {} if owner is None else {"comment": f"{OWNER_KEY}: {owner}".encode()}
    frames[0].save(target, format="GIF", save_all=True, append_images=frames[1:],
                   duration=round(1000 / fps), loop=0, disposal=1, **extra)
    return target


def animated_svg(drawings: Sequence[Drawing], fps: float) -> str:
    """One SVG showing each drawing in turn for ``1 / fps`` seconds, looping."""
    width = max(d.width for d in drawings)
    height = max(d.height for d in drawings)
    n = len(drawings)
    total = n / fps
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}">']
    if drawings[0].title:
        out.append(f"<title>{escape(drawings[0].title)}</title>")
    for i, d in enumerate(drawings):
        if n == 1:
            out.append("<g>")
        else:
            # Visible from i/n to (i+1)/n of each loop, hidden the rest of the time.
            values, times = ["hidden", "visible", "hidden"], [0, i / n, (i + 1) / n]
            if i == 0:
                values, times = values[1:], [0, 1 / n]
            elif i == n - 1:
                values, times = values[:2], times[:2]
            # The first frame is visible without animation too (a static viewer).
            out.append(("<g>" if i == 0 else '<g visibility="hidden">')
                       + f'<animate attributeName="visibility" values="{";".join(values)}" '
                       f'keyTimes="{";".join(f"{t:.6g}" for t in times)}" dur="{total:g}s" '
                       'calcMode="discrete" repeatCount="indefinite"/>')
        out.extend(svg_body(d))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
