"""The widget's keyboard and its page stylesheet (a small anywidget).

ipywidgets has no key events for a whole widget. ipycanvas sends the canvas's keys,
but only while the canvas has the focus, and it swallows every key there, Tab
included (a keyboard user could not leave the canvas). ipyevents listens only while
the mouse is over a widget and takes the focus on hover, which fails the keyboard
and screen-reader users this is for. So :class:`Keyboard` is a few lines of our own
JavaScript through anywidget (a well-kept library for exactly that): it makes the
whole game widget focusable (Tab reaches it; a click on the canvas focuses it too),
listens to key presses anywhere inside it, sends the keys the game uses to Python,
and leaves every other key to the element that has the focus (typing in a box,
changing a menu, pressing a focused button with Enter or Space, Tab out of the
canvas).

It also keeps the canvas quiet: ipycanvas would send every mouse move (and mouse up,
mouse out, wheel and touch) over the canvas to the kernel, though the shell listens only to
mouse down; each such message makes the kernel busy and JupyterLab redraw its busy marks,
which delays the answer to the next click. These events stop at the game widget.

It also carries the stylesheet of the game widget: the canvas scaled to the space it
has, legal moves that wrap instead of being cut, labels that show in full, and the
"big" mode for projectors.

>>> k = Keyboard(label="Jactus")
>>> pressed = []
>>> k.on_key(pressed.append)
>>> k._handle_custom_msg({"key": "ArrowLeft"}, [])      # what the browser sends
>>> k._handle_custom_msg({"key": "q"}, [])              # not ours: ignored
>>> pressed
['ArrowLeft']
"""

from __future__ import annotations

from collections.abc import Callable

import anywidget
import traitlets

__all__ = ["Keyboard", "KEYS", "STYLESHEET"]

#: The keys the game widget answers (``KeyboardEvent.key`` names) and what they do.
KEYS = {
    "ArrowLeft": "one move back",
    "ArrowRight": "one step forward (or the dice's or a bot's move)",
    "Home": "go to the start",
    "End": "go to the last move",
    " ": "start or stop autoplay",
    "Enter": "play the selected move",
    "ArrowUp": "select the previous legal move",
    "ArrowDown": "select the next legal move",
}

_ESM = """
const KEYS = new Set(%(keys)s);

// Keys an element uses itself: typing, menus, sliders, check boxes. A radio button (the
// legal moves) keeps its arrows but lets Enter play the move it selected.
function ownsKey(target, key) {
  if (!target || !target.tagName) return false;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable) return true;
  if (tag === "INPUT") return !(target.type === "radio" && key === "Enter");
  return false;
}

// ipycanvas sends every mouse move, mouse up, mouse out, wheel and touch event over the
// canvas to the kernel; the shell listens only to mouse down. Each message keeps the kernel
// busy and makes JupyterLab redraw its busy and idle marks, which delays the answer to the
// click itself: so these events stop at the game widget, before they reach the canvas
// (the page still scrolls on the wheel, and a click still reaches ipycanvas).
const QUIET = ["mousemove", "mouseup", "mouseout", "wheel", "touchstart", "touchmove",
               "touchend", "touchcancel"];
function quiet(event) {
  if (event.target && event.target.tagName === "CANVAS") event.stopPropagation();
}

function render({ model, el }) {
  el.classList.add("janus-keys");
  let root = null;
  const onKey = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (event.key === "Tab") {
      // ipycanvas cancels every key on the canvas; let Tab move the focus on.
      if (target && target.tagName === "CANVAS") event.stopPropagation();
      return;
    }
    if (!KEYS.has(event.key) || ownsKey(target, event.key)) return;
    const onButton = target && target !== root && target.tagName === "BUTTON";
    if (onButton && (event.key === " " || event.key === "Enter")) return;  // press it
    event.preventDefault();
    event.stopPropagation();
    model.send({ key: event.key });
  };
  let tries = 0;
  const attach = () => {
    root = el.isConnected ? el.closest(".janus-widget") : null;
    if (!root) {
      if (tries++ < 600) requestAnimationFrame(attach);
      return;
    }
    if (!root.hasAttribute("tabindex")) root.setAttribute("tabindex", "0");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", model.get("label"));
    root.setAttribute("aria-keyshortcuts", "ArrowLeft ArrowRight Home End Space Enter ArrowUp ArrowDown");
    root.addEventListener("keydown", onKey, true);
    for (const type of QUIET) root.addEventListener(type, quiet, {capture: true, passive: true});
  };
  attach();
  model.on("change:label", () => root && root.setAttribute("aria-label", model.get("label")));
  return () => {
    if (!root) return;
    root.removeEventListener("keydown", onKey, true);
    for (const type of QUIET) root.removeEventListener(type, quiet, {capture: true});
  };
}
export default { render };
""" % {"keys": repr(sorted(KEYS))}

#: The game widget's styles (scoped to ``.janus-widget``).
STYLESHEET = """
.janus-widget:focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
.janus-widget .janus-keys { display: none; }
.janus-widget .janus-stage canvas { display: block; width: 100% !important;
  height: auto !important; }
.janus-widget .janus-stage canvas:focus-visible { outline: 3px solid #1a73e8; }
.janus-widget .jupyter-button, .janus-widget .widget-toggle-button {
  overflow: visible; text-overflow: clip; }
.janus-widget .janus-moves label { height: auto; line-height: 1.3; white-space: normal;
  display: flex; flex-direction: row-reverse; justify-content: flex-end;
  align-items: flex-start; gap: 6px; padding: 3px 0; }
.janus-widget .janus-moves input { height: auto; margin-top: 2px; flex: none; }
.janus-widget .janus-status { line-height: 1.35; }
.janus-widget .janus-side > .jupyter-widgets,
.janus-widget .janus-stage > .jupyter-widgets { margin-left: 0; margin-right: 0; }
.janus-widget .janus-status .janus-last { color: #333; }
.janus-widget .janus-live { position: absolute; width: 1px; height: 1px; padding: 0;
  margin: -1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%);
  white-space: pre-wrap; border: 0; }
.janus-widget.janus-big .janus-status { font-size: 20px; }
.janus-widget.janus-big .janus-heading h3 { font-size: 26px; }
.janus-widget.janus-big .janus-stepbar .jupyter-button,
.janus-widget.janus-big .janus-stepbar .widget-toggle-button { font-size: 18px;
  height: 40px; line-height: 40px; }
.janus-widget.janus-big .janus-moves label, .janus-widget.janus-big select {
  font-size: 17px; }
"""


class Keyboard(anywidget.AnyWidget):
    """Sends the game keys pressed anywhere inside the ``.janus-widget`` it sits in."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    _css = traitlets.Unicode(STYLESHEET).tag(sync=True)
    #: What a screen reader says for the whole widget (its name and its keys).
    label = traitlets.Unicode("").tag(sync=True)

    def __init__(self, label: str = "", **kwargs: object) -> None:
        keys = "; ".join(f"{_key_name(k)}: {what}" for k, what in KEYS.items())
        super().__init__(label=f"{label} game. Keys: {keys}.", **kwargs)
        self._handlers: list[Callable[[str], None]] = []
        self.on_msg(self._on_message)

    def on_key(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(key)`` for each game key pressed (a name from :data:`KEYS`)."""
        self._handlers.append(handler)

    def _on_message(self, _widget: object, content: dict, _buffers: list) -> None:
        key = content.get("key") if isinstance(content, dict) else None
        if key in KEYS:
            for handler in self._handlers:
                handler(key)


def _key_name(key: str) -> str:
    return {"ArrowLeft": "left arrow", "ArrowRight": "right arrow", "ArrowUp": "up arrow",
            "ArrowDown": "down arrow", " ": "space"}.get(key, key)
