"""Save / load / export: the game record (save, load, upload), the earlier games of this
widget (restore one), and pictures and animations of the line shown.

>>> done = []
>>> panel = RecordsPanel("jactus", on_save=done.append, on_load=done.append,
...                      on_upload=done.append, on_restore=done.append,
...                      on_picture=done.append,
...                      on_animation=lambda path, fps: done.append((path, fps)))
>>> panel.save_button.click(); panel.picture_button.click(); panel.animation_button.click()
>>> done
['jactus-game.json', 'jactus-position.png', ('jactus-game.gif', 2.0)]
>>> panel.show_earlier(["1: jactus, 4 moves"])
>>> panel.previous_box.options, panel.previous_box.value
((('1: jactus, 4 moves', 0),), 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as W

from .controls import Quiet

__all__ = ["RecordsPanel"]


class RecordsPanel:
    """The Save / load tab (:attr:`widget`)."""

    def __init__(self, game_name: str, *, on_save: Callable[[str], None],
                 on_load: Callable[[str], None], on_upload: Callable[[bytes], None],
                 on_restore: Callable[[int], None], on_picture: Callable[[str], None],
                 on_animation: Callable[[str, float], None]) -> None:
        self._quiet = Quiet()
        wide = W.Layout(width="340px")
        self.path_box = W.Text(value=f"{game_name}-game.json", description="file",
                               layout=wide)
        self.save_button = W.Button(description="Save", icon="save",
                                    layout=W.Layout(width="auto"))
        self.load_button = W.Button(description="Load", icon="folder-open",
                                    layout=W.Layout(width="auto"))
        self.save_button.on_click(lambda _: on_save(self.path_box.value))
        self.load_button.on_click(lambda _: on_load(self.path_box.value))
        self.upload = W.FileUpload(accept=".json", multiple=False, description="Upload")
        self.upload.observe(self._quiet.unless(lambda c: on_upload(_content(c["new"]))
                                               if c["new"] else None), names="value")
        self.previous_box = W.Dropdown(options=[("(none yet)", -1)], value=-1,
                                       description="earlier", layout=wide)
        self.restore_button = W.Button(description="Restore", icon="undo",
                                       layout=W.Layout(width="auto"))
        self.restore_button.on_click(lambda _: on_restore(self.previous_box.value))
        self.picture_box = W.Text(value=f"{game_name}-position.png", description="picture",
                                  tooltip="The position as shown: .png or .svg",
                                  layout=wide)
        self.picture_button = W.Button(description="Save picture", icon="image",
                                       tooltip="Write the position as shown (.png or .svg)",
                                       layout=W.Layout(width="auto"))
        self.picture_button.on_click(lambda _: on_picture(self.picture_box.value))
        self.animation_box = W.Text(value=f"{game_name}-game.gif", description="animation",
                                    tooltip="The line shown, move by move: .gif or .svg",
                                    layout=wide)
        self.fps_box = W.BoundedFloatText(value=2.0, min=0.1, max=30, step=0.5,
                                          description="frames/s",
                                          layout=W.Layout(width="150px"))
        self.animation_button = W.Button(
            description="Save animation", icon="film",
            tooltip="Write the line shown, one frame per move (.gif or .svg)",
            layout=W.Layout(width="auto"))
        self.animation_button.on_click(
            lambda _: on_animation(self.animation_box.value, float(self.fps_box.value)))
        self.widget = W.VBox([
            W.HBox([self.path_box, self.save_button, self.load_button]),
            self.upload,
            W.HBox([self.previous_box, self.restore_button]),
            W.HTML("<b>Pictures for slides</b> (from the view shown)"),
            W.HBox([self.picture_box, self.picture_button]),
            W.HBox([self.animation_box, self.fps_box, self.animation_button])])

    def show_earlier(self, labels: Sequence[str]) -> None:
        """The earlier games' labels (the last one selected)."""
        with self._quiet:
            if labels:
                self.previous_box.options = [(label, i) for i, label in enumerate(labels)]
                self.previous_box.value = len(labels) - 1
            else:
                self.previous_box.options = [("(none yet)", -1)]
                self.previous_box.value = -1

    def clear_upload(self) -> None:
        """Forget the uploaded file (so the same file can be uploaded again)."""
        with self._quiet:
            self.upload.value = ()


def _content(files: object) -> bytes:
    item = files[0]  # type: ignore[index]
    content = item["content"] if isinstance(item, dict) else item.content
    return bytes(content)
