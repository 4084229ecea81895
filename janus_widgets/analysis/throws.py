"""The faces of the Roman dice and a class's tallies of throws: kept with the table
server, which checks and pools what every student sends (:mod:`janus_widgets.table.throws`);
the lessons read them here under their old name."""

from ..table.throws import *  # noqa: F401,F403 - the lessons' name for the same functions
from ..table.throws import __all__  # noqa: F401
