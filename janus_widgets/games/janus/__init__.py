"""Janus, the board game (Rudi Hoffmann, 1975): rules in ``rules.py``, components in ``components.py``."""
