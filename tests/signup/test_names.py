"""One person, however their name is typed (ledger/formats/names.py): the identity the
sign-up and the enrolment by paste match on."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.formats.names import close_matches, find_same, name_key, same_person


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Niccolo Della Gherardesca", "Niccolò Della Gherardesca"),
        ("niccolò della gherardesca", "NICCOLO DELLA GHERARDESCA"),
        ("Della Gherardesca Niccolò", "Niccolò Della Gherardesca"),
        ("Rosa D'Amico", "Rosa Damico"),
        ("Rosa D’Amico", "D'amico  Rosa"),
        ("Anna-Maria Ricci", "Annamaria Ricci"),
        ("  Lucia   Gambacorti ", "Gambacorti Lucia"),
        ("Zoë Løvaas", "Zoe Lovaas"),
    ],
)
def test_the_same_person_whatever_the_case_accents_apostrophes_and_order(a: str, b: str) -> None:
    assert same_person(a, b)
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Mario Rossi", "Maria Rossi"),
        ("Mario Rossi", "Mario Rossi Bianchi"),
        ("Niccolò Della Gherardesca", "Nicolò Della Gherardesca"),
        ("", ""),
        ("!!!", "???"),
    ],
)
def test_different_names_are_different_people(a: str, b: str) -> None:
    assert not same_person(a, b)


def test_a_close_name_is_a_did_you_mean_and_a_far_one_is_not() -> None:
    known = [(n, n) for n in ["Nicolò Della Gherardesca", "Mario Rossi Bianchi", "Anna Verdi"]]
    assert close_matches("Niccolò Della Gherardesca", known) == ["Nicolò Della Gherardesca"]
    assert close_matches("Mario Rossi", known) == ["Mario Rossi Bianchi"]
    assert close_matches("Dellagherardesca Nicolò", known) == ["Nicolò Della Gherardesca"]
    assert close_matches("Giulia Neri", known) == []
    # Another number is another person, one letter more or less is a question.
    assert close_matches("Giocatore 33", [("Giocatore 0", 0), ("Giocatore 3", 3)]) == [3]
    # The same person is found, not asked about.
    assert close_matches("Anna Verdi", known) == []
    assert find_same("verdi anna", known) == "Anna Verdi"
    assert find_same("Anna Verde", known) is None


@given(st.lists(st.text(alphabet="abcèéòàù' -", min_size=1, max_size=8), min_size=1, max_size=4))
def test_the_order_of_the_words_never_counts(parts: list[str]) -> None:
    assert name_key(" ".join(parts)) == name_key(" ".join(reversed(parts)))
