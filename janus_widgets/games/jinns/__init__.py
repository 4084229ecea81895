"""Jinns of the Lake (Les Djinns du Lac, Claude Leroy, Cosmoludo): the rules engine.

The rules are in ``seeds/jinns.md`` (rule IDs ``JI-*``); the engine, the state and the
position builder are in :mod:`janus_widgets.games.jinns.rules`.
"""
