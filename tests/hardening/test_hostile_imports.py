"""What members really upload: spreadsheets saved in the wrong encoding, huge cells, binary junk,
and names written to attack whoever opens our CSV exports in a spreadsheet. An import never
crashes (the job ends done, with every refused line and its reason, or is refused whole with a
sentence saying what to fix), and the exports never hand a spreadsheet a formula."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.clubs.errors import Invalid
from ledger.clubs.models import Entry, ImportJob, Membership, Player, Result
from ledger.clubs.transfer.imports import MAX_ROW_CHARS, create_job, run_job


def names(people, n=2):
    return "|".join(p.name for p in people.extra[:n])


def upload(people, raw: bytes, fmt="csv"):
    job = create_job(
        user=people.users["scorekeeper"],
        club=people.club,
        filename=f"results.{fmt}",
        raw=raw,
        fmt=fmt,
        language="en",
    )
    return run_job(job.pk)


def good_line(people, key="k1"):
    return f"coppa,A,{names(people)},3|4,{key}\n"


HEADER = "competition,table,players,scores,key\n"


def test_a_file_neither_utf8_nor_windows_1252_is_refused_with_the_byte_to_fix(
    people, manual_competition
):
    raw = (HEADER + "coppa,Caffè,").encode("latin-1") + b"\x9d|Bruno,3|4,k1\n"
    with pytest.raises(Invalid) as caught:
        upload(people, raw)
    assert "UTF-8" in caught.value.message and "Windows-1252" in caught.value.message
    assert str(raw.index(b"\x9d")) in caught.value.message
    assert ImportJob.objects.count() == 0


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_utf16_or_utf32_file_is_refused_as_not_utf8(people, manual_competition, encoding):
    raw = (HEADER + good_line(people)).encode(encoding)
    with pytest.raises(Invalid) as caught:
        upload(people, raw)
    assert "UTF-8" in caught.value.message
    assert Result.objects.count() == 0


def test_a_utf8_file_with_a_byte_order_mark_is_read(people, manual_competition):
    job = upload(people, (HEADER + good_line(people)).encode("utf-8-sig"))
    assert (job.status, job.imported, job.errors) == ("done", 1, [])


def test_a_cell_far_beyond_the_csv_module_limit_is_one_refused_line(people, manual_competition):
    huge = "x" * (csv.field_size_limit() + 10)
    content = (
        HEADER + good_line(people, "k1") + f"coppa,{huge},a|b,1|1,k2\n" + good_line(people, "k3")
    )
    job = upload(people, content.encode())
    assert job.status == "done", job.errors
    assert job.imported == 2
    assert [e["line"] for e in job.errors] == [3]
    assert str(MAX_ROW_CHARS) in job.errors[0]["message"] or "long" in job.errors[0]["message"]


def test_a_cell_just_over_our_limit_is_refused_by_line(people, manual_competition):
    content = HEADER + f"coppa,{'y' * (MAX_ROW_CHARS + 1)},{names(people)},1|1,k2\n"
    job = upload(people, content.encode())
    assert job.status == "done"
    assert job.imported == 0
    assert [e["line"] for e in job.errors] == [2]


def test_a_huge_jsonl_line_is_refused_by_line(people, manual_competition):
    content = '{"competition": "coppa", "junk": "' + "z" * 300_000 + '"}\n'
    job = upload(people, content.encode(), fmt="jsonl")
    assert job.status == "done"
    assert [e["line"] for e in job.errors] == [1]


def test_nul_bytes_are_refused_as_not_utf8_text(people, manual_competition):
    raw = (HEADER + "coppa,A\x00B,x|y,1|1,k1\n").encode()
    with pytest.raises(Invalid) as caught:
        upload(people, raw)
    assert "NUL" in caught.value.message and "UTF-8" in caught.value.message


def test_control_characters_are_reported_by_line_not_crashed_on(people, manual_competition):
    content = HEADER + "coppa,A\x01B,\x02|\x7f,1|1,k1\n" + good_line(people, "k2")
    job = upload(people, content.encode())
    assert job.status == "done", job.errors
    assert job.imported == 1
    assert [e["line"] for e in job.errors] == [2]


def test_an_unterminated_quote_swallowing_the_file_is_reported(people, manual_competition):
    content = HEADER + 'coppa,"A,' + names(people) + ",1|1,k1\n" + good_line(people, "k2") * 3
    job = upload(people, content.encode())
    assert job.status == "done"
    assert job.imported == 0
    assert job.errors


def test_thousands_of_junk_lines_end_in_a_bounded_error_list(people, manual_competition, settings):
    content = HEADER + "".join(f"nowhere,{i},x|y,1|1,k{i}\n" for i in range(3000))
    job = upload(people, content.encode())
    # A file of junk stops at its budget of refused rows (test_import_budgets.py).
    assert job.status == "failed" and job.errors[0].get("stopped")
    assert (job.total, job.imported) == (3000, 0)
    assert 0 < len(job.errors) <= settings.LEDGER_IMPORT_MAX_REFUSED + 2 <= 1000


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(junk=st.binary(max_size=400), fmt=st.sampled_from(["csv", "jsonl"]))
def test_binary_junk_is_refused_or_reported_never_a_crash(people, manual_competition, junk, fmt):
    try:
        job = upload(people, junk, fmt=fmt)
    except Invalid as exc:
        # Refused whole, saying what an import takes.
        assert "UTF-8" in exc.message or "competition" in exc.message, exc.message
        return
    assert job.status == "done", job.errors
    assert all(isinstance(e["line"], int) and e["message"] for e in job.errors)


# --- exports: a spreadsheet must never run what a member typed ---------------------------

HOSTILE = [
    '=HYPERLINK("http://evil.example","clic")',
    "+SUM(1+1)*cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "\t=1+1",
    "\r=1+1",
]


def _rows(response) -> list[list[str]]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def _assert_no_formula(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            if cell[:1] in ("=", "+", "@", "\t", "\r"):
                pytest.fail(f"formula-like cell reached the export: {cell!r}")
            if cell.startswith("-"):
                float(cell)  # only plain negative numbers may start with a minus


def test_hostile_names_and_labels_are_neutralised_in_both_csv_exports(
    people, manual_competition, client
):
    hostile_players = []
    for name in HOSTILE[:4]:
        player = Player.objects.create(name=name)
        Membership.objects.create(club=people.club, player=player)
        hostile_players.append(player)
    lines = [HEADER]
    for i, name in enumerate(HOSTILE):
        # Players by id: two of the hostile names contain the | that separates players.
        pair = f"{hostile_players[i % 4].pk}|{hostile_players[(i + 1) % 4].pk}"
        label = name.replace('"', '""')
        lines.append(f'coppa,"{label}",{pair},-3|5,h{i}\n')
    job = upload(people, "".join(lines).encode())
    assert job.imported == len(HOSTILE), job.errors
    base = f"/c/{people.club.slug}/{manual_competition.slug}/"
    standings = _rows(client.get(base + "standings.csv"))
    journal = _rows(client.get(base + "journal.csv"))
    _assert_no_formula(standings)
    _assert_no_formula(journal)
    # The text is kept (behind an apostrophe) and the numbers stay numbers.
    assert {r[2] for r in standings[1:]} >= {"'" + n for n in HOSTILE[:4]}
    assert {r[3] for r in journal[1:]} == {"'" + n for n in HOSTILE}
    assert "-3.00" in {r[7] for r in journal[1:]}
    assert Entry.objects.count() == 2 * len(HOSTILE)
