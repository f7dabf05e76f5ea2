"""``manage.py simulate_campaign``: a whole campaign played by the machine, its invariants checked after every step.

Exit status 0 with a summary as the last line when every invariant held; non-zero naming the first broken one.
By default everything it creates is rolled back at the end (``--keep`` keeps the players, gangs and campaign
to look at in the browser). See :mod:`tools.simulation`.
"""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from content.models import Edition
from tools.simulation import InvariantBroken, simulate
from tools.simulation.campaign import POLICIES
from tools.simulation.gangs import houses


class _RollBack(Exception):
    pass


class Command(BaseCommand):
    help = (
        "Play a whole campaign through the services with seeded server dice, checking the invariants after every step."
    )

    def add_arguments(self, parser):
        parser.add_argument("--edition", choices=Edition.values, default=Edition.N18)
        parser.add_argument("--gangs", type=int, default=8)
        parser.add_argument("--cycles", type=int, default=3)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--long-names", action="store_true", help="gangs, fighters and campaign with the longest names allowed"
        )
        parser.add_argument(
            "--policy",
            choices=POLICIES,
            default="mixed",
            help="battles played in the battle assistant, reported by hand, or either at random (default)",
        )
        parser.add_argument(
            "--keep", action="store_true", help="keep what the simulation created (default: roll it back)"
        )

    def handle(self, *args, edition, gangs, cycles, seed, long_names, keep, policy="mixed", **options):
        if gangs < 2 or cycles < 1:
            raise CommandError("A campaign needs at least two gangs and one cycle.")
        if not houses(edition):
            self.stdout.write(f"No {edition} house lists in the database: loading the content library first.")
            call_command("load_content", stdout=self.stdout)
        out = self.stdout.write if options["verbosity"] > 1 else (lambda line: None)
        try:
            with transaction.atomic():
                result = simulate(
                    edition=edition,
                    gangs=gangs,
                    cycles=cycles,
                    seed=seed,
                    long_names=long_names,
                    out=out,
                    policy=policy,
                )
                if not keep:
                    raise _RollBack
        except _RollBack:
            pass
        except InvariantBroken as broken:
            raise CommandError(str(broken)) from None
        if result.refusals and options["verbosity"] > 1:
            self.stdout.write(f"{len(result.refusals)} moves refused by the services:")
            for line in result.refusals:
                self.stdout.write(f"  {line}")
        self.stdout.write(result.per_cycle())
        self.stdout.write(result.summary())
