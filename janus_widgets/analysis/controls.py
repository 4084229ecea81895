"""The controls a lesson page gives for every action its text asks for.

A lesson served by Voila has no cells to edit or run, so every "change the seed and run
again" is a :class:`SeedRun` (a seed box and a *Run* button) and every "write down your
guesses first" is a :class:`Predict` (one box per guess; the result shows only once every
box is filled). Both are ordinary ipywidgets, the same in JupyterLab and in Voila.

>>> shown = []
>>> run = SeedRun(lambda seed: shown.append(seed), seed=3)
>>> shown                              # it runs once with its first seed
[3]
>>> run.seed.value = 4
>>> run.button.click()
>>> shown
[3, 4]
>>> gate = Predict(["from a6", "from f6"], lambda: shown.append("result"))
>>> gate.button.disabled               # no result before both guesses
True
>>> gate.boxes[0].value, gate.boxes[1].value = "2", "5"
>>> gate.button.click()
>>> shown[-1], gate.guesses()
('result', {'from a6': '2', 'from f6': '5'})
>>> def place(values):
...     if not values["Dice:"].strip():
...         raise ValueError("write the dice first")
...     return f"placed {values['Dice:']}"
>>> setup = SetUp([("Dice:", "e.g. 6 6 6 6 2")], place)
>>> setup.button.click()
>>> setup.error
'write the dice first'
>>> setup.boxes[0].value = "1 2 3 4 5"
>>> setup.button.click()
>>> setup.error, setup.done
('', 1)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as w

__all__ = ["SEED_MAX", "Predict", "SeedRun", "SetUp"]

#: The largest seed a seed box takes (any whole number from 0 up to this).
SEED_MAX = 10**9


def _in_kernel() -> bool:
    """Whether this runs in a Jupyter kernel (outside one, ``clear_output`` prints)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and hasattr(shell, "kernel")


class SeedRun(w.VBox):
    """A seed box, a *Run* button and the run's output under them.

    ``run(seed)`` displays the run's figures (tables, plots); it runs once at once with
    ``seed`` (unless ``run_now=False``) and again on every press of the button, replacing the figures. An error in ``run`` is shown in the output, never
    lost: ``SeedRun(lambda s: 1 / 0)`` shows the ZeroDivisionError under the button,
    and the button stays usable.
    """

    def __init__(self, run: Callable[[int], object], seed: int = 1, *,
                 label: str = "Run", run_now: bool = True, note: str = "") -> None:
        if not callable(run):
            raise TypeError(f"SeedRun needs a function of the seed, got {run!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= SEED_MAX:
            raise ValueError(f"a seed is a whole number from 0 to {SEED_MAX}, got {seed!r}")
        self._run = run
        self.seed = w.BoundedIntText(value=seed, min=0, max=SEED_MAX, description="Seed:",
                                     layout=w.Layout(width="14em"))
        self.button = w.Button(description=label, button_style="success", icon="play",
                               layout=w.Layout(width="auto"))
        self.output = w.Output()
        self.runs = 0
        self.error = ""
        self.button.on_click(lambda _b: self.run())
        row = [self.seed, self.button]
        if note:
            row.append(w.HTML(f"<span style='margin-left:0.5em'>{note}</span>"))
        super().__init__([w.HBox(row), self.output])
        self.add_class("janus-seed-run")
        if run_now:
            self.run()

    def run(self) -> None:
        """Run with the seed in the box, replacing the output."""
        self.button.disabled = True
        seed = int(self.seed.value)
        failed: Exception | None = None
        try:
            self.output.outputs = ()
            with self.output:
                if _in_kernel():             # the frontend's copy too (nbclient keeps one)
                    self.output.clear_output(wait=True)
                # caught here, inside: under IPython the Output would swallow it itself
                try:
                    self._run(seed)
                except Exception as exc:  # noqa: BLE001 - shown on the page below
                    failed = exc
            if failed is None:
                self.runs += 1
            else:
                self.error = (f"The run with seed {seed} failed: "
                              f"{type(failed).__name__}: {failed}")
                self.output.append_stdout(self.error + "\n")
        finally:
            self.button.disabled = False


class Predict(w.VBox):
    """Boxes for the student's guesses; the result shows once every box is filled.

    ``reveal()`` displays the result (it is not run before: the result is nowhere on the
    page until the guesses are in). After *Show the result* the guesses are kept, shown
    beside the result and can no longer be changed.
    """

    def __init__(self, labels: Sequence[str], reveal: Callable[[], object], *,
                 prompt: str = "Your guesses first:", button: str = "Show the result") -> None:
        labels = list(labels)
        if not labels or not all(isinstance(x, str) and x.strip() for x in labels):
            raise ValueError(f"Predict needs at least one named guess, got {labels!r}")
        if not callable(reveal):
            raise TypeError(f"Predict needs a function that shows the result, got {reveal!r}")
        self._reveal = reveal
        self.labels = labels
        self.boxes = [w.Text(placeholder="your guess", description=label,
                             style={"description_width": "initial"},
                             layout=w.Layout(width="auto"))
                      for label in labels]
        self.button = w.Button(description=button, disabled=True, icon="eye",
                               layout=w.Layout(width="auto"))
        self.status = w.HTML(self._waiting())
        self.output = w.Output()
        self.revealed = False
        for box in self.boxes:
            box.observe(self._typed, names="value")
        self.button.on_click(lambda _b: self.show())
        super().__init__([w.HTML(f"<b>{prompt}</b>"), *self.boxes,
                          w.HBox([self.button, self.status]), self.output])
        self.add_class("janus-predict")

    def _missing(self) -> list[str]:
        return [label for label, box in zip(self.labels, self.boxes) if not box.value.strip()]

    def _waiting(self) -> str:
        missing = self._missing() if hasattr(self, "boxes") else self.labels
        return ("<i>Write a guess in every box first (still empty: "
                + ", ".join(missing) + ").</i>") if missing else ""

    def _typed(self, _change: dict) -> None:
        if not self.revealed:
            self.button.disabled = bool(self._missing())
            self.status.value = self._waiting()

    def guesses(self) -> dict[str, str]:
        """The guesses as typed, by label."""
        return {label: box.value.strip() for label, box in zip(self.labels, self.boxes)}

    def show(self) -> None:
        """Show the result; refused (with the reason on the page) while a box is empty."""
        missing = self._missing()
        if missing:
            self.status.value = self._waiting()
            return
        if self.revealed:
            return
        self.revealed = True
        self.button.disabled = True
        for box in self.boxes:
            box.disabled = True
        self.status.value = "<i>Your guesses are kept: compare them with the result.</i>"
        with self.output:
            self._reveal()


class SetUp(w.VBox):
    """A small form: one text box per field, a button, and a line saying what happened.

    ``fields`` are ``(label, example)`` pairs (the example is the box's placeholder).
    The button calls ``apply({label: text})``, which does the work and returns what to
    say; a ``ValueError`` it raises is the reason the entry is refused, shown on the page
    (its message should name what was wrong and what is allowed) and kept in
    :attr:`error`. Nothing else is lost either: any other error is shown too, and the
    form stays usable.
    """

    def __init__(self, fields: Sequence[tuple[str, str]], apply: Callable[[dict[str, str]], str],
                 *, button: str = "Set up", prompt: str = "") -> None:
        fields = list(fields)
        if not fields or not all(isinstance(label, str) and label.strip()
                                 for label, _ in fields):
            raise ValueError(f"SetUp needs at least one named field, got {fields!r}")
        if not callable(apply):
            raise TypeError(f"SetUp needs a function that sets the entry up, got {apply!r}")
        self._apply = apply
        self.labels = [label for label, _ in fields]
        self.boxes = [w.Text(placeholder=example, description=label,
                             style={"description_width": "initial"},
                             layout=w.Layout(width="auto"))
                      for label, example in fields]
        self.button = w.Button(description=button, button_style="primary", icon="cog",
                               layout=w.Layout(width="auto"))
        self.status = w.HTML()
        self.status.add_class("janus-setup-status")
        self.error = ""
        self.done = 0
        self.button.on_click(lambda _b: self.set_up())
        parts: list[w.Widget] = [w.HTML(f"<b>{html.escape(prompt)}</b>")] if prompt else []
        super().__init__([*parts, w.HBox(self.boxes, layout=w.Layout(flex_flow="row wrap")),
                          w.HBox([self.button]), self.status])
        self.add_class("janus-setup")

    def values(self) -> dict[str, str]:
        """The entries as typed, by label."""
        return {label: box.value for label, box in zip(self.labels, self.boxes)}

    def set_up(self) -> bool:
        """Apply the entries; whether it worked (the reason is on the page if not)."""
        self.button.disabled = True
        try:
            said = self._apply(self.values())
        except ValueError as exc:
            self.error = str(exc)
            self.status.value = ("<div style='color:#b42318'><b>✘ Not set up:</b> "
                                 f"{html.escape(self.error)}</div>")
            return False
        except Exception as exc:  # noqa: BLE001 - shown on the page, the form stays usable
            self.error = f"{type(exc).__name__}: {exc}"
            self.status.value = ("<div style='color:#b42318'><b>✘ Something went wrong:</b> "
                                 f"{html.escape(self.error)}</div>")
            return False
        finally:
            self.button.disabled = False
        self.error = ""
        self.done += 1
        self.status.value = f"<div style='color:#1a7f37'><b>✔</b> {html.escape(str(said))}</div>"
        return True
