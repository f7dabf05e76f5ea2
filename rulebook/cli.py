"""The rules engine's command line (the contract in docs/rulebook-cli.md).

    python -m rulebook odds  EDITION ACTION [--cpu-seconds N] < query.json
    python -m rulebook roll  EDITION ACTION [--seed N | --dice 4,3,6] < query.json
    python -m rulebook table EDITION [TABLE [ROLL]]
    python -m rulebook bench

One JSON object on stdout and exit 0; bad input exits 2 with ``{"error": ...}`` on stderr.
"""

from __future__ import annotations

import io
import json
import math
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass

from rulebook import editions
from rulebook.dice import RandomDice, ScriptedDice, SeededDice, parse_dice
from rulebook.errors import RulesInputError
from rulebook.numbers import is_whole_number
from rulebook.query import load_query

USAGE = """\
Necromunda rules engine (Underhive Ledger)

usage:
  python -m rulebook odds  EDITION ACTION [--cpu-seconds N] < query.json
                                                          exact probabilities, within N seconds of CPU
  python -m rulebook roll  EDITION ACTION [--seed N | --dice 4,3,6] < query.json
                                                          one resolution, every die and step
  python -m rulebook table EDITION [TABLE [ROLL]]         a table row, a whole table, or the list
  python -m rulebook actions EDITION                      the actions an edition answers
  python -m rulebook bench                                time representative odds queries

EDITION is classic (the 1995 rulebook) or n18 (the 2018+ rules).
Output is one JSON object on stdout; bad input exits 2 with {"error": ...} on stderr.
"""


def _emit(obj: dict) -> int:
    json.dump(obj, sys.stdout, indent=2, sort_keys=False)
    sys.stdout.write("\n")
    return 0


def _fail(message: str) -> int:
    sys.stderr.write(json.dumps({"error": message}) + "\n")
    return 2


def _need(args: list[str], count: int, what: str) -> None:
    if len(args) < count:
        raise RulesInputError(what, "is required (see python -m rulebook --help)")


def _dice_source(options: list[str]):
    seed = dice = None
    rest = list(options)
    while rest:
        flag = rest.pop(0)
        if flag in ("--seed", "--dice") and not rest:
            raise RulesInputError(flag[2:], f"{flag} needs a value")
        if flag == "--seed":
            value = rest.pop(0)
            if not is_whole_number(value):
                raise RulesInputError("seed", f"must be a whole number, not {value!r}")
            seed = int(value)
        elif flag == "--dice":
            dice = parse_dice(rest.pop(0))
        else:
            raise RulesInputError("options", f"unknown option {flag!r}; use --seed N or --dice 4,3,6")
    if seed is not None and dice is not None:
        raise RulesInputError("dice", "give either --seed or --dice, not both")
    if dice is not None:
        return ScriptedDice(dice)
    if seed is not None:
        return SeededDice(seed)
    return RandomDice()


class OverBudget(Exception):
    """The CPU time ``--cpu-seconds`` allows ran out."""


def _cpu_budget(options: list[str]) -> int | None:
    """``--cpu-seconds N``: the most CPU time the answer may take (the process's own limit, so even a query
    the rules compute slowly cannot hold a machine); None without the option."""
    if not options:
        return None
    if options[0] != "--cpu-seconds" or len(options) != 2:
        raise RulesInputError("options", f"odds takes only --cpu-seconds N, got {' '.join(options)}")
    if not is_whole_number(options[1]) or not 1 <= int(options[1]) <= 3600:
        raise RulesInputError("cpu-seconds", f"must be a whole number of seconds from 1 to 3600, not {options[1]!r}")
    return int(options[1])


def _limit_cpu(seconds: int) -> None:
    """Stop the answer once it has used ``seconds`` of CPU time: a profiling timer counts the process's CPU time
    from now, to the millisecond (the kernel's RLIMIT_CPU counts whole seconds from the start, so the time spent
    importing could stretch the budget by most of a second); the kernel's limit stays as the backstop should the
    interpreter not get to run the handler."""
    import resource
    import signal

    def over(signum, frame):
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGXCPU, signal.SIG_IGN)  # the kernel repeats it each second past the limit
        raise OverBudget(seconds)

    signal.signal(signal.SIGPROF, over)
    signal.signal(signal.SIGXCPU, over)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = math.ceil(used.ru_utime + used.ru_stime)
    resource.setrlimit(resource.RLIMIT_CPU, (spent + seconds + 1, spent + seconds + 5))


def _odds(args: list[str]) -> int:
    _need(args, 2, "action")
    action = editions.action(args[0], args[1])
    budget = _cpu_budget(args[2:])
    query = load_query(sys.stdin.read())
    if budget:
        _limit_cpu(budget)
    answer = action.odds(query)
    query.refuse_unknown()
    return _emit({"edition": args[0], "action": action.name, **answer})


def _roll(args: list[str]) -> int:
    _need(args, 2, "action")
    action = editions.action(args[0], args[1])
    source = _dice_source(args[2:])
    query = load_query(sys.stdin.read())
    result = action.roll(query, source)
    query.refuse_unknown()
    answer = {"edition": args[0], "action": action.name, **result, "dice": source.log()}
    if isinstance(source, ScriptedDice) and source.remaining:
        answer["unused_dice"] = source.remaining
    return _emit(answer)


def _table(args: list[str]) -> int:
    _need(args, 1, "edition")
    if len(args) == 1:
        tables = editions.tables(args[0])
        return _emit({"edition": args[0], "tables": {name: t.title for name, t in sorted(tables.items())}})
    table = editions.table(args[0], args[1])
    if len(args) == 2:
        return _emit({"edition": args[0], **table.as_json()})
    if len(args) > 3:
        raise RulesInputError("roll", f"give one roll, got {' '.join(args[2:])}")
    return _emit({"edition": args[0], **table.lookup(args[2])})


def _actions(args: list[str]) -> int:
    _need(args, 1, "edition")
    found = editions.actions(args[0])
    return _emit({"edition": args[0], "actions": {name: a.summary for name, a in sorted(found.items())}})


def _bench(args: list[str]) -> int:
    from rulebook.bench import run

    return _emit(run())


COMMANDS = {"odds": _odds, "roll": _roll, "table": _table, "actions": _actions, "bench": _bench}


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        sys.stdout.write(USAGE)
        return 0
    command, args = argv[0], argv[1:]
    if command not in COMMANDS:
        return _fail(f"command: unknown command {command!r}; use one of {', '.join(COMMANDS)}")
    try:
        return COMMANDS[command](args)
    except RulesInputError as exc:
        return _fail(str(exc))
    except RecursionError:
        return _fail("query: too deeply nested")
    except OverBudget as exc:
        return _fail(f"cpu-seconds: the answer needs more than the {exc.args[0]} CPU seconds allowed")
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        # A value of the wrong shape that slipped past the field checks: still the caller's input,
        # so answer as the contract says (exit 2, JSON) rather than with a traceback.
        return _fail(f"query: could not be read ({type(exc).__name__}: {exc})")
    except BrokenPipeError:
        # The reader went away (``| head``); nothing more to say.
        sys.stderr.close()
        return 0


@dataclass(frozen=True)
class Answer:
    returncode: int
    stdout: str
    stderr: str

    def json(self) -> dict:
        return json.loads(self.stdout if self.returncode == 0 else self.stderr)


def run(*args: str, stdin: str = "") -> Answer:
    """The command line in-process, for tools and tests: ``run("odds", "classic", "shoot", stdin=query)``.

    Same arguments, output and exit code as ``python -m rulebook`` (not thread-safe: it swaps
    the process's standard streams for the call).
    """
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = saved_stdin
    return Answer(code, out.getvalue(), err.getvalue())
