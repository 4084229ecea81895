"""Janus (1993), the card game: rules (:mod:`.rules`), fixed tables (:mod:`.tables`)
and what each seat may know (:mod:`.views`). Registered as ``"janus-cards"``."""
