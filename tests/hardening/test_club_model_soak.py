"""The club model (tests/ledger/club_model.py) for a time budget: `make soak` runs it on
SQLite and on PostgreSQL for LEDGER_MODEL_SOAK_SECONDS (30 minutes by default), and says
how many examples and steps it ran."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.ledger.club_model import ClubModel, env_int


@pytest.mark.soak
@pytest.mark.django_db
def test_the_club_model_holds_for_the_soak_budget() -> None:
    budget = env_int("LEDGER_MODEL_SOAK_SECONDS", 30 * 60)
    steps = env_int("LEDGER_MODEL_STEPS", 40)
    ClubModel.examples_run = ClubModel.steps_run = 0
    ClubModel.calls.clear()
    ClubModel.compared.clear()
    started = time.monotonic()
    rounds = 0
    # Batches of examples until the budget is spent: hypothesis has no time limit of its
    # own, and a failing batch stops the soak with its shrunk history.
    while time.monotonic() - started < budget:
        rounds += 1
        run_state_machine_as_test(
            ClubModel,
            settings=settings(
                max_examples=20,
                stateful_step_count=steps,
                deadline=None,
                database=None,
                phases=[Phase.generate, Phase.shrink],
                suppress_health_check=list(HealthCheck),
            ),
        )
    print(
        f"club model soak: {ClubModel.examples_run} examples of up to {steps} steps, "
        f"{ClubModel.steps_run} service calls in {time.monotonic() - started:.0f} s: "
        f"{dict(ClubModel.calls.most_common())}; compared: {dict(ClubModel.compared)}"
    )
