"""The design lab: pick a game, change one rule, run, read the table and the plots.

``DesignLab()`` is a small ipywidgets app (it also runs as a Voila page): a game
menu, the rule option to change and its new value, the bots, the number of
games, and a Run button that plays the rulebook variant and the changed one on
the same seeds and shows every metric side by side, with the paired difference and
its 95% interval, a ◆ where Holm's method finds the difference real at a 5%
family-wise error rate over all the metrics shown, the plots, and what the flaw
finder (:func:`find_flaws`, here for convenience) says about each variant, judged on
the lab's own games. Its progress bar is a widget of the page that stays.

>>> lab = DesignLab("jinns", games=20, bots="greedy")
>>> lab.choose("distance", "height")
>>> [row["variant"] for row in lab.run(show=False).table()]
['rulebook', 'distance=height']

The "change" menu also offers the game's other rulesets, a whole reading at once:

>>> lab.choose("ruleset", "newer edition")
>>> [row["variant"] for row in lab.run(show=False).table()]
['rulebook', 'newer edition']
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as W

from .. import games as registry
from ..core.bots import bot_names
from ..widgets.controls import variant_control
from .flaws import Flaw, FlawReport, find_flaws
from .tournament import VariantComparison, compare_variants

__all__ = ["DesignLab", "RULESET", "find_flaws", "Flaw", "FlawReport"]

#: The "change" menu's entry for a whole ruleset instead of one option.
RULESET = "ruleset"


class DesignLab(W.VBox):
    """Compare a game's rulebook variant with one rule changed."""

    def __init__(self, game: str = "jinns", *, games: int = 200, bots: str = "greedy",
                 seed: int = 0, processes: int = 1) -> None:
        super().__init__()
        self.result: VariantComparison | None = None
        self.processes = processes
        self.game_box = W.Dropdown(options=[(g.title, g.name) for g in registry.all_games()],
                                   value=game, description="game")
        self.option_box = W.Dropdown(description="change")
        self.value_holder = W.Box()
        # Bots that play every game (the lab switches games; "optimal" is Jactus only).
        everywhere = [b for b in bot_names()
                      if all(b in bot_names(g) for g in registry.all_games())]
        bot_choices = [b for b in everywhere if b != "mcts"] + ["mcts:50"]
        self.bots_box = W.Dropdown(options=bot_choices, value=bots, description="bots",
                                   tooltip="The bot playing every seat")
        self.games_box = W.IntSlider(value=games, min=10, max=2000, step=10,
                                     description="games", continuous_update=False)
        self.seed_box = W.IntText(value=seed, description="seed")
        self.run_button = W.Button(description="Run", icon="play", button_style="primary")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="games",
                                      layout=W.Layout(width="360px"))
        self.progress_text = W.HTML()
        self.output = W.Output()
        #: What the flaw finder said about each variant of the last run.
        self.flaws: dict[str, FlawReport] = {}
        self.game_box.observe(lambda _: self._game_changed(), names="value")
        self.option_box.observe(lambda _: self._option_changed(), names="value")
        self.run_button.on_click(lambda _: self.run())
        self.children = [
            W.HTML("<b>Design lab</b>: the rulebook game against the same game with one "
                   "rule changed, on the same seeds."),
            W.HBox([self.game_box, self.bots_box]),
            W.HBox([self.option_box, self.value_holder]),
            W.HBox([self.games_box, self.seed_box, self.run_button]),
            W.HBox([self.progress, self.progress_text]),
            self.output,
        ]
        self._game_changed()

    @property
    def game(self) -> Any:
        """The chosen game."""
        return registry.get(self.game_box.value)

    def _other_rulesets(self) -> list[str]:
        return [r.name for r in self.game.rulesets()[1:]]

    def _game_changed(self) -> None:
        specs = [s for s in self.game.Variant.options() if s.widget]
        options = [(f"{s.name} ({s.rule})", s.name) for s in specs]
        if self._other_rulesets():
            options.append(("ruleset (a whole reading)", RULESET))
        self.option_box.options = options
        self.option_box.value = specs[0].name
        self._option_changed()

    def _option_changed(self) -> None:
        name = self.option_box.value
        if name is None:
            return
        if name == RULESET:
            names = self._other_rulesets()
            self.value_control = W.Dropdown(options=names, value=names[0],
                                            layout=W.Layout(width="360px"))
        else:
            spec = next(s for s in self.game.Variant.options() if s.name == name)
            self.value_control = variant_control(spec, spec.default, width="360px")
        self.value_control.description = "to"
        self.value_holder.children = [self.value_control]

    def choose(self, option: str, value: Any, game: str | None = None) -> None:
        """Set the game (optional), the option to change and its new value (or
        ``"ruleset"`` and the name of one of the game's other rulesets)."""
        if game is not None:
            self.game_box.value = game
        names = [v for _, v in self.option_box.options]
        if option not in names:
            raise ValueError(f"{self.game.title} has no option {option!r}; the options "
                             f"are: {', '.join(names)}")
        self.option_box.value = option
        if option == RULESET:
            value = self.game.ruleset(value).name   # an unknown name is refused, clearly
        else:
            self.game.variant(**{option: value})  # a bad value is refused here, clearly
        self.value_control.value = value

    def _report(self, label: str, done: int, total: int) -> None:
        self.progress.max = max(1, total)
        self.progress.value = done
        self.progress_text.value = f"{escape(label)}: {done} of {total} games"

    def run(self, show: bool = True) -> VariantComparison:
        """Play both variants, look for flaws in each, and (with ``show``) display the
        table, the plots and the flaws."""
        game = self.game
        option, value = self.option_box.value, self.value_control.value
        if option == RULESET:
            changed, label = game.variant(ruleset=value), str(value)
        else:
            changed = game.variant(**{option: value})
            label = f"{option}={value}" if changed != game.Variant() else "rulebook (again)"
        variants = {"rulebook": game.Variant(), label: changed}
        bots = [self.bots_box.value]
        results = []
        for name, variant in variants.items():
            results.append(compare_variants(
                game, {name: variant}, bots=bots, n=self.games_box.value,
                seed=self.seed_box.value, processes=self.processes,
                progress=lambda done, total, name=name: self._report(name, done, total)))
        self.result = VariantComparison(game.name, list(variants),
                                        [r.results[0] for r in results])
        self.progress_text.value = "looking for flaws…"
        self.flaws = {}
        for name, result in zip(self.result.labels, self.result.results):
            # The lab's own games, judged by who played them (one bot at every seat).
            self.flaws[name] = find_flaws(game, result.variant, games=self.games_box.value,
                                          seed=self.seed_box.value, tournament=result,
                                          processes=self.processes)
        self.progress_text.value = f"done: {len(self.result.results)} × " \
                                   f"{self.games_box.value} games"
        if show:
            self.show()
        return self.result

    def show(self) -> None:
        """Display the last run in the lab: the table, the plots, the flaws."""
        from IPython.display import display

        from .metrics import require_matplotlib
        if self.result is None:
            return
        self.output.clear_output()
        with self.output:
            display(self.result)
            plt = require_matplotlib()
            figure = self.result.plot()
            display(figure)
            plt.close(figure)
            for report in self.flaws.values():
                display(report)
