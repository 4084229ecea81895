"""Game sessions without a screen, and the table server that keeps one per game.

* :class:`Table` (:mod:`.local`): a game session in this process — the record and its
  lines, the seats (people or bots), proposals, the facts the status line states. A
  :class:`~janus_widgets.widgets.shell.GameWidget` draws one.
* :mod:`.narrate`: what a viewer is told of each move, one set of words for every kind
  of table.
"""

from .local import Table, viewpoint_choices
from .narrate import Facts, Told

__all__ = ["Table", "Facts", "Told", "viewpoint_choices"]
