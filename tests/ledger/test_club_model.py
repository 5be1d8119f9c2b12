"""The whole club tested against its invariants: tests/ledger/club_model.py's machine, a
bounded number of random histories (LEDGER_MODEL_EXAMPLES, LEDGER_MODEL_STEPS)."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.ledger.club_model import ClubModel, env_int


@pytest.mark.django_db
def test_random_club_histories_keep_the_ledger_whole() -> None:
    examples = env_int("LEDGER_MODEL_EXAMPLES", 6)
    steps = env_int("LEDGER_MODEL_STEPS", 25)
    ClubModel.examples_run = ClubModel.steps_run = 0
    ClubModel.calls.clear()
    ClubModel.compared.clear()
    started = time.monotonic()
    run_state_machine_as_test(
        ClubModel,
        settings=settings(
            max_examples=examples,
            stateful_step_count=steps,
            deadline=None,
            # The same histories on every run, so that the suite stays green until the
            # code changes; `make soak` explores new ones.
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
    print(
        f"club model: {ClubModel.examples_run} examples of up to {steps} steps, "
        f"{ClubModel.steps_run} service calls, "
        f"{time.monotonic() - started:.1f} s: {dict(ClubModel.calls.most_common())}; "
        f"compared: {dict(ClubModel.compared)}"
    )
