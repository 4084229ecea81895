"""Command line for teachers without notebooks.

    python -m janus_widgets games
    python -m janus_widgets rules jinns
    python -m janus_widgets simulate jinns --players 4 --games 500 --bots greedy,random
    python -m janus_widgets simulate jactus --set dog_throws=other --json
    python -m janus_widgets rules jactus --ruleset points
    python -m janus_widgets simulate jactus --ruleset "other edition" --players 3
    python -m janus_widgets notebooks --out my-notebooks/ [--edition teacher] [--force]
    python -m janus_widgets lessons --edition student --out class/ [--student-id ada]
    python -m janus_widgets lessons --format nbgrader --out course/source/lessons/
    python -m janus_widgets worksheet roman-dice --out roman.pdf [--answers] [--no-hints]
    python -m janus_widgets worksheet roman-dice --out roman.html [--paper letter] [--pdf]
    python -m janus_widgets serve [--host 127.0.0.1] [--port 8866] [--db classroom.sqlite]
    python -m janus_widgets classroom [--host 0.0.0.0] [--port 8866] [--db classroom.sqlite]
    python -m janus_widgets nbgrader generate_assignment lesson   # nbgrader, this env's
    python -m janus_widgets --version

``--bots`` gives one bot per seat, repeated round the table (random, greedy,
mcts or mcts:N with N from 1 to 100000; optimal for 2-player Jactus:
``--bots optimal,greedy --rotate``); the
default, greedy, plays games that end in every game (random Jactus players hardly ever
finish). ``--ruleset NAME`` starts from one of the game's named rulesets (``rules GAME``
lists them); ``--set NAME=VALUE`` changes a variant option (repeatable) on top of it. The
progress bar and any warning (more than 1% of the games hitting the cap) go to stderr,
the table or the JSON (every metric with its 95% interval) to stdout.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import games
from .resources import __version__


#: The bots of ``simulate`` unless --bots says otherwise.
DEFAULT_BOTS = "greedy"


def _value(text: str) -> object:
    """Read an option value: a Python literal (3, True, 'x') or else plain text."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _options(pairs: Sequence[str]) -> dict[str, object]:
    out = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise ValueError(f"--set {pair!r}: write NAME=VALUE, e.g. --set players=3")
        out[name.strip()] = _value(value.strip())
    return out


def _bots(text: str, game: object) -> list[str]:
    """The bot names of ``--bots``, one a seat, each checked (nothing is built yet: the
    optimal bot solves Jactus when it is made). A ``ValueError`` says what is allowed.

    >>> _bots("greedy, mcts:50", games.get("jinns"))
    ['greedy', 'mcts:50']
    >>> _bots(",,,", games.get("jinns"))
    Traceback (most recent call last):
    ...
    janus_widgets.core.errors.ArgumentError: --bots ',,,': entry 1 is empty; give one bot a seat, separated by commas, from: random, greedy, mcts, mcts:N (N playouts a move, 1 … 100000)
    """
    from .core.bots import bots_allowed, check_bot_name
    from .core.errors import ArgumentError
    names = [entry.strip() for entry in text.split(",")]
    for k, name in enumerate(names, start=1):
        if not name:
            raise ArgumentError("--bots", text, bots_allowed(game),
                                message=f"--bots {text!r}: entry {k} is empty; give one bot "
                                        "a seat, separated by commas, from: "
                                        + bots_allowed(game))
        try:
            check_bot_name(name, game)
        except ArgumentError as exc:
            where = f"--bots entry {k}" if len(names) > 1 else "--bots"
            raise ArgumentError("--bots", text, exc.allowed,
                                message=f"{where}: {exc}") from None
    return names


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (``janus-widgets …`` or ``python -m janus_widgets …``): its exit
    status. Output piped into a program that stops reading (``| head``) ends quietly."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # Python's advice: point stdout at devnull so its flush at exit cannot fail too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _prog() -> str:
    """How the user called us, for the usage lines."""
    called = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "janus-widgets" if called.startswith("janus-widgets") else "python -m janus_widgets"


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser (the guides' commands are checked against it).

    >>> build_parser().parse_args(["classroom", "--lesson", "roman-dice"]).lesson
    ['roman-dice']
    """
    parser = argparse.ArgumentParser(prog=_prog(),
                                     description="Play and study the four games "
                                                 "without a notebook.")
    parser.add_argument("--version", action="version",
                        version=f"janus_widgets {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the games: name, title and what each is "
                                 "(their options: rules GAME)")
    rules = sub.add_parser("rules", help="print a game's rulesets, variant options and "
                                          "rule IDs")
    rules.add_argument("game", choices=games.names())
    rules.add_argument("--ruleset", help="show the options of this ruleset (default: "
                                         "rulebook)")
    sim = sub.add_parser("simulate", help="play many seeded games and print the metrics")
    sim.add_argument("game", choices=games.names())
    sim.add_argument("--players", type=int, help="number of players")
    sim.add_argument("--games", type=int, default=200, help="how many games (default 200)")
    sim.add_argument("--bots", default=DEFAULT_BOTS,
                     help="comma-separated bots per seat: random, greedy, mcts, mcts:N "
                          "(N playouts a move, 1 … 100000), optimal (2-player Jactus) "
                          f"(default {DEFAULT_BOTS}: its games end in every game)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the whole run")
    sim.add_argument("--ruleset", help="start from this named ruleset (see: rules GAME)")
    sim.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                     help="change a variant option (repeatable)")
    sim.add_argument("--processes", type=int, default=1, help="local processes to use")
    sim.add_argument("--max-plies", type=int, default=20_000, help="cap per game")
    sim.add_argument("--rotate", action="store_true",
                     help="move the bots one seat on each game (compare bots, not seats)")
    sim.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _add_lesson_commands(sub)
    _add_server_commands(sub)
    return parser


def _main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["nbgrader"]:            # everything after it is nbgrader's
        return _nbgrader(argv[1:], _subcommand(parser, "nbgrader"))
    args = parser.parse_args(argv)
    if args.command == "notebooks":
        from .notebooks_cmd import main as notebooks_main
        return notebooks_main(args)
    if args.command in ("lessons", "worksheet"):
        return _lesson_command(args)
    if args.command == "serve":
        # One server a database: serve holds it as a classroom does (a second one on
        # it would overwrite the first's tables).
        from .classroom_cmd import run_holding, table_server_address
        from .table.server import main as serve_main
        args.questions = lesson_questions()
        args.hints = solver_hints()
        args.answer_check = answer_check()
        return run_holding(args.db, "serve", table_server_address(args),
                           lambda: serve_main(args))
    if args.command == "classroom":
        from .classroom_cmd import main as classroom_main
        args.questions = lesson_questions()
        args.hints = solver_hints()
        args.answer_check = answer_check()
        return classroom_main(args)

    if args.command == "games":
        for game in games.all_games():
            print(f"{game.name:12} {game.title:22} {game.summary}")
        return 0
    if args.command == "rules":
        game = games.get(args.game)
        try:
            chosen = game.ruleset(args.ruleset if args.ruleset is not None else "rulebook")
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        from .resources import SEEDS
        print(f"{game.title}: rules in {SEEDS / (game.name + '.md')} (IDs "
              f"{game.rule_prefix}-n)")
        print("Rulesets (--ruleset NAME):")
        width = max(len(r.name) for r in game.rulesets())
        for ruleset in game.rulesets():
            mark = "*" if ruleset is chosen else " "
            print(f" {mark}{ruleset.name:{width}}  {ruleset.note} (source: {ruleset.source})")
        print(f"Options of the {chosen.name!r} ruleset (--set NAME=VALUE):")
        variant = chosen.variant(game.Variant)
        for spec in game.Variant.options():
            value = getattr(variant, spec.name)
            differs = f" (rulebook: {spec.default!r})" if value != spec.default else ""
            print(f"  {spec.rule:6} {spec.name}={value!r}{differs}: {spec.doc}")
        return 0

    from .analysis.tournament import run_tournament
    try:
        bots = _bots(args.bots, games.get(args.game))
        options = _options(args.set)
        if args.players is not None:
            options["players"] = args.players
        variant = games.get(args.game).variant(ruleset=args.ruleset, **options)
        result = run_tournament(args.game, variant, bots=bots, games=args.games,
                                seed=args.seed,
                                max_plies=args.max_plies, processes=args.processes,
                                rotate_seats=args.rotate, progress=True)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for warning in result.warnings():
        print(f"warning: {warning}", file=sys.stderr)
    print(result.to_json() if args.json else result)
    return 0


def solver_hints() -> Callable[[Any], Any]:
    """The table server's hook for the Jactus solver's hint (the table layer imports no
    solver): a seat page's position → a panel, at tables whose teacher allows it."""
    from .analysis.hints import solver_panel
    return solver_panel


def answer_check() -> Callable[[str, str, Any, str], tuple[str, str]]:
    """The table server's hook that checks a student's answer again (the table layer
    imports no lesson): see :func:`janus_widgets.analysis.checking.verdict_of`."""
    from .analysis.checking import verdict_of
    return verdict_of


def lesson_questions() -> dict[str, set[str]]:
    """Every lesson's question ids (``{"jactus-odds": {"q1", …}}``): the table server
    takes exercise checks for these only.

    >>> "q1" in lesson_questions()["roman-dice"]
    True
    """
    from .analysis.checking import exercise_sets
    return {lesson: {exercise.key for exercise in exercises}
            for lesson, exercises in exercise_sets().items()}


def _add_server_commands(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="run the table server: one game at many screens, "
                                         "each seat told only its own (docs/"
                                         "classroom-server.md: 'notebooks --out DIR' "
                                         "writes docs/ too)")
    room = sub.add_parser("classroom", help="the table server and the class's pages (seat "
                                            "pages, the dashboard, the lessons' student "
                                            "editions) in Voila, at once")
    for p in (serve, room):
        p.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only; "
                            "0.0.0.0 for the class's network)")
        p.add_argument("--port", type=int, default=8866, help="port (default 8866)")
        p.add_argument("--db", default="classroom.sqlite",
                       help="SQLite file that keeps every table (default classroom.sqlite;"
                            " a restart brings every table back)")
        p.add_argument("--teacher-token-file", metavar="F",
                       help="read the teacher's token from F, or write a new one there "
                            "(default: the database's name + .token, so a restart keeps "
                            "the token; serve prints the token too, classroom never)")
        p.add_argument("--certfile", help="TLS certificate (serve https and wss)")
        p.add_argument("--keyfile", help="TLS private key (with --certfile)")
        p.add_argument("--bot-delay", type=float, default=0.4,
                       help="seconds a bot waits before it moves (default 0.4)")
    room.add_argument("--pages-port", type=int,
                      help="port of the pages (Voila; default: --port + 1)")
    room.add_argument("--pages", help="folder to write the pages to (default: "
                                      "classroom-pages beside the database)")
    room.add_argument("--dashboard-host", default="127.0.0.1",
                      help="address the teacher's dashboard listens on (default 127.0.0.1: "
                           "this machine only, out of the class's reach)")
    room.add_argument("--dashboard-port", type=int,
                      help="port of the teacher's dashboard (default: the pages' port + 1)")
    room.add_argument("--no-browser", action="store_true",
                      help="do not open the dashboard in this machine's browser (its "
                           "address, token and all, is in the database's name + "
                           ".dashboard.html, readable by you only; it is never printed)")
    room.add_argument("--lesson", action="append", metavar="NAME",
                      help="a lesson of the day (repeat for more): its pages are prepared "
                           "in advance, so that the whole class can open them at once "
                           "(the memory it takes is printed)")
    room.add_argument("--students", type=int, default=30,
                      help="pages of each --lesson kept ready (default 30)")
    room.add_argument("--verbose", action="store_true", help="show Voila's own log")


def _subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of the command line's subcommand ``name`` (for its help)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]
    raise LookupError(f"the command line has no subcommands, so no {name!r}")


#: What asks ``nbgrader`` for its help (nbgrader's own options, and argparse's).
HELP_FLAGS = ("-h", "--help", "--help-all")
#: How to install nbgrader with the package.
NBGRADER_INSTALL = "pip install 'janus_widgets[nbgrader]'"


def _nbgrader(args: list[str], helper: argparse.ArgumentParser | None = None) -> int:
    """Run nbgrader with ``args`` in this environment, its ``bin`` first on ``PATH``
    (nbgrader calls ``alembic`` by name: from an environment that is not activated it
    fails with ``FileNotFoundError: 'alembic'``). ``--help`` (or no arguments) first
    shows the command's own help (``helper``'s), then nbgrader's if it is installed,
    else how to install it: help never needs nbgrader."""
    import importlib.util
    import os
    import subprocess
    installed = importlib.util.find_spec("nbgrader") is not None
    if not args or args[0] in HELP_FLAGS:
        if helper is not None:
            helper.print_help()
        if not installed:
            print(f"\nnbgrader is not installed in this environment: {NBGRADER_INSTALL}"
                  " (then this help goes on with nbgrader's own)")
            return 0
        print("\nnbgrader's own help:", flush=True)
        args = args or ["--help"]
    elif not installed:
        print(f"error: nbgrader is not installed in this environment: {NBGRADER_INSTALL} "
              "(janus-widgets nbgrader --help says what this command does)",
              file=sys.stderr)
        return 2
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": os.pathsep.join(p for p in (bin_dir,
                                                              os.environ.get("PATH")) if p)}
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], env=env).returncode


def _add_lesson_commands(sub: argparse._SubParsersAction) -> None:
    books = sub.add_parser("notebooks", help="write the tour, the game notebooks and the "
                                             "lessons into a folder of yours, ready for "
                                             "JupyterLab")
    books.add_argument("--out", required=True, help="the folder to write them to (made if "
                                                    "need be)")
    books.add_argument("--edition", choices=("student", "teacher"), default="student",
                       help="the lessons' edition (default student: no teacher notes or "
                            "answers; teacher: all, the answer key shown)")
    books.add_argument("--force", action="store_true",
                       help="replace files you changed since, or that this command did "
                            "not write, and another version's or edition's notebooks")
    grader = sub.add_parser(
        "nbgrader", usage="%(prog)s [--help] ARGS…", help="run nbgrader of this environment (its tools found without "
                         "activating it): nbgrader ARGS…",
        description="Run nbgrader, the grading tool, from this environment with ARGS: "
                    "this environment's programs come first on PATH, as nbgrader needs "
                    "(it calls alembic by name, which fails from an environment that is "
                    "not activated). Everything after 'nbgrader' is nbgrader's own, e.g. "
                    "nbgrader generate_assignment lesson. nbgrader comes with "
                    f"{NBGRADER_INSTALL}; the lessons as nbgrader source notebooks: "
                    "lessons --format nbgrader --out DIR.")
    grader.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS",
                        help="nbgrader's command and its options (nbgrader's own help "
                             "lists them)")
    lessons = sub.add_parser("lessons", help="write every lesson notebook in the student or "
                                             "the teacher edition, or as nbgrader source "
                                             "notebooks")
    lessons.add_argument("--edition", choices=("student", "teacher"),
                         help="student: no teacher notes, answers or outputs; teacher: all, "
                              "the answer key already shown (needed unless --format "
                              "nbgrader)")
    lessons.add_argument("--format", choices=("notebook", "nbgrader"), default="notebook",
                         help="notebook (default): the edition as Jupyter notebooks; "
                              "nbgrader: nbgrader source notebooks (solutions and "
                              "autograded test cells, points per exercise)")
    lessons.add_argument("--out", required=True, help="folder to write the notebooks to")
    lessons.add_argument("--student-id", help="give this student numbers of their own")
    lessons.add_argument("--source", help="folder of the lesson notebooks (default: the "
                                          "package's own)")
    sheet = sub.add_parser("worksheet", help="a printable worksheet (or answer key) of a "
                                             "lesson's exercises")
    sheet.add_argument("lesson", help="the lesson's file stem, e.g. roman-dice")
    sheet.add_argument("--out", required=True, help="the file to write: .pdf (printed with "
                                                    "headless Chromium) or .html")
    sheet.add_argument("--answers", action="store_true", help="the answer key, with the "
                                                              "working")
    sheet.add_argument("--no-hints", action="store_true", help="leave the hints out (a "
                                                               "test edition)")
    sheet.add_argument("--paper", choices=("a4", "letter"), default="a4",
                       help="paper size (default a4)")
    sheet.add_argument("--pdf", action="store_true", help="with an .html --out: also print "
                                                          "it to PDF beside it")
    sheet.add_argument("--student-id", help="this student's own numbers")
    sheet.add_argument("--source", help="folder of the lesson notebooks")


def _lesson_command(args: argparse.Namespace) -> int:
    from .analysis import lessons
    try:
        if args.command == "lessons":
            if args.format == "notebook" and args.edition is None:
                raise ValueError("give --edition student or --edition teacher (or "
                                 "--format nbgrader)")
            written = lessons.build_editions(args.edition or "student", args.out,
                                             student=args.student_id, folder=args.source,
                                             format=args.format)
            what = ("nbgrader source notebooks" if args.format == "nbgrader" else
                    f"{args.edition} edition")
            print(f"{len(written)} lessons, {what}, written to {args.out}")
            for path in written:
                print(f"  {path.name}")
            return 0
        files = lessons.write_worksheet(args.lesson, args.out, answers=args.answers,
                                        student=args.student_id, pdf=args.pdf,
                                        folder=args.source, hints=not args.no_hints,
                                        paper=args.paper)
    except (ValueError, FileNotFoundError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for path in files:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
