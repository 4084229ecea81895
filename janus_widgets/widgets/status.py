"""The status line: what is true now, and nothing that no longer is.

Three parts, each from the position shown, never from memory:

* where the cursor is, whose turn it is (a bot's seat says so) and the scores, or at
  the end who won and why;
* the move that led to this position ("B (bot) played r145: …"), from what the
  viewpoint may know of it;
* the answer to the user's last action (a refusal names its rule). It belongs to the
  situation it answered: once the position, the line, the game or the selection
  changes, it is gone.

Beside it, for screen readers, a polite ``aria-live`` region (:class:`LiveRegion`)
holds the last move and the position's text form from the viewpoint shown.

>>> line = StatusLine()
>>> facts = StatusFacts(where="move 2/2", turn="<b>A</b> to move (human)",
...                     scores="A 0 · B 0", last="B (bot) played r1: pick up a 1")
>>> line.say("JA-6: choose at least one die", "refused", situation=("g", 2, None))
>>> line.show(facts, situation=("g", 2, None))
>>> "JA-6" in line.widget.value, line.message
(True, 'JA-6: choose at least one die')
>>> line.show(facts, situation=("g", 2, frozenset({0, 1})))   # two dice chosen now
>>> "JA-6" in line.widget.value, line.message
(False, 'B (bot) played r1: pick up a 1')
"""

from __future__ import annotations

import html
from collections.abc import Hashable
from dataclasses import dataclass

import anywidget
import ipywidgets as W
import traitlets

__all__ = ["StatusLine", "StatusFacts", "LiveRegion", "KINDS"]

#: Kinds of message and their colour (a refusal is also marked by its words).
KINDS = {"info": "#333333", "refused": "#b00020", "error": "#b00020"}


@dataclass(frozen=True)
class StatusFacts:
    """What the status line says about the position shown (HTML-safe text, except
    ``turn`` which may hold ``<b>``)."""

    where: str
    turn: str
    scores: str = ""
    last: str = ""
    note: str = ""              # a standing fact of the position ("B's bot waits")
    position: str = ""          # the position's text form, for the live region


_LIVE_ESM = """
function render({ model, el }) {
  el.classList.add("janus-live");
  el.setAttribute("role", "status");
  el.setAttribute("aria-live", "polite");
  const last = document.createElement("p");
  const position = document.createElement("pre");
  el.append(last, position);
  const update = () => {
    last.textContent = model.get("last");
    position.textContent = model.get("position");
  };
  update();
  model.on("change:last", update);
  model.on("change:position", update);
}
export default { render };
"""


class LiveRegion(anywidget.AnyWidget):
    """An ``aria-live`` region that stays in the page while its text changes (a screen
    reader announces the change; replacing the element would not be announced)."""

    _esm = traitlets.Unicode(_LIVE_ESM).tag(sync=True)
    last = traitlets.Unicode("").tag(sync=True)
    position = traitlets.Unicode("").tag(sync=True)


class StatusLine:
    """The status line (:attr:`widget`) and its live region (:attr:`live`)."""

    def __init__(self) -> None:
        self.widget = W.HTML(layout=W.Layout(min_height="44px", width="100%"))
        self.widget.add_class("janus-status")
        self.live = LiveRegion()
        self._text = ""
        self._kind = "info"
        self._for: Hashable = None
        self._situation: Hashable = object()
        self._facts = StatusFacts(where="", turn="")

    # ------------------------------------------------------------------ reading
    @property
    def message(self) -> str:
        """The answer to the user's last action while it still applies, else the move
        that led here ("" at the start); then the position's note, if any."""
        return " ".join(p for p in (self.answer or self._facts.last, self._facts.note) if p)

    @property
    def answer(self) -> str:
        """The answer to the user's last action, if it still applies."""
        return self._text if self._for == self._situation else ""

    @property
    def kind(self) -> str:
        """``info``, ``refused`` or ``error`` (of :attr:`answer`)."""
        return self._kind if self.answer else "info"

    # ------------------------------------------------------------------ writing
    def say(self, text: str, kind: str = "info", *, situation: Hashable) -> None:
        """Answer the user: ``text`` stays while the shell's situation is ``situation``."""
        if kind not in KINDS:
            raise ValueError(f"kind={kind!r}: use one of {', '.join(KINDS)}")
        self._text, self._kind, self._for = text, kind, situation
        self._render()

    def show(self, facts: StatusFacts, *, situation: Hashable) -> None:
        """Show the facts of the position; an answer for another situation is dropped."""
        self._facts = facts
        self._situation = situation
        if self._for != situation:
            self._text, self._for = "", None
        self._render()
        with self.live.hold_sync():
            self.live.last = ". ".join(p.rstrip(".") for p in (facts.last, _plain(facts.turn),
                                                                facts.note) if p)
            self.live.position = facts.position

    def _render(self) -> None:
        f = self._facts
        head = " · ".join(p for p in (html.escape(f.where, quote=False), f.turn,
                                      f"scores {html.escape(f.scores)}" if f.scores else "")
                          if p)
        parts = [f"<div class='janus-where'>{head}</div>"]
        if f.last:
            parts.append(f"<div class='janus-last'>{html.escape(f.last, quote=False)}</div>")
        answer = self.answer
        if answer:
            parts.append(f"<div class='janus-message janus-{self._kind}' style='color:"
                         f"{KINDS[self._kind]}'>{html.escape(answer, quote=False)}</div>")
        if f.note:
            parts.append(f"<div class='janus-note'>{html.escape(f.note, quote=False)}</div>")
        self.widget.value = "<div style='font-family:sans-serif'>" + "".join(parts) + "</div>"


def _plain(text: str) -> str:
    import re
    return html.unescape(re.sub(r"<[^>]+>", "", text))
