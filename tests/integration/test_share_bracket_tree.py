"""The bracket image of ``share bracket`` is a drawn tree (issue 28; rules T4c, T4d): rounds as columns,
each match a box with both names and their scores, the winner's line to the next round.

The images are read back with OCR (Debian's ``tesseract-ocr``, word boxes in TSV) and compared with the
bracket data they are drawn from: every match's two names are found with their own score beside them, a
later round stands to the right of the round before it, and a match sits between the two matches that
feed it.
"""

from __future__ import annotations

import datetime as dt
import difflib
import random
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from clubdesk.pairing.elimination import double_elimination, single_elimination
from clubdesk.pairing.types import Entrant
from clubdesk.reports.bracket import from_bracket
from clubdesk.reports.data import BracketData, ReportHeader
from tests.integration.test_share import digits, plain, png_size

NAMES = (
    "Ayşe Yılmaz",
    "İsmail Güneş",
    "Peña Gómez",
    "Budi Santoso",
    "Çağla Öztürk",
    "Núñez Doğan",
    "Şule Kılıç",
    "Oğuz Aydın",
)


@dataclass(frozen=True)
class Word:
    text: str
    x: int
    y: int  # the centre of the word's box
    line: tuple[int, int, int]  # tesseract's (block, paragraph, line)


def ocr_words(path: Path) -> list[Word]:
    out = subprocess.run(
        ["tesseract", str(path), "-", "--psm", "6", "tsv"], capture_output=True, text=True, check=True
    ).stdout
    words = []
    for row in out.splitlines()[1:]:
        f = row.split("\t")
        if len(f) < 12 or not f[11].strip():
            continue
        left, top, width, height = (int(v) for v in f[6:10])
        words.append(
            Word(f[11].strip(), left + width // 2, top + height // 2, (int(f[2]), int(f[3]), int(f[4])))
        )
    return words


def find_name(words: list[Word], name: str) -> list[tuple[Word, list[Word]]]:
    """Each place ``name`` is read (a close match: OCR misreads a letter), with the words to its right on
    the same text row (within half a box row), nearest first."""
    want = plain(name).split()
    found = []
    for w in words:
        rest = sorted((v for v in words if abs(v.y - w.y) < 18 and v.x > w.x), key=lambda v: v.x)
        got = " ".join(plain(v.text) for v in [w, *rest][: len(want)])
        if difflib.SequenceMatcher(None, got, " ".join(want)).ratio() < 0.75:
            continue
        rest = rest[len(want) - 1 :]
        found.append((w, [v for v in rest if v.x - w.x < 420]))
    return found


def played(kind: str, n: int, seed: int = 7) -> BracketData:
    """A finished bracket of ``n`` entrants played through the pairing engine, with printed scores."""
    rng = random.Random(seed)
    entrants = [Entrant(id=str(i + 1), rating=2000 - 10 * i) for i in range(n)]
    b = single_elimination(entrants, third_place=True) if kind == "single" else double_elimination(entrants)
    scores: dict[str, tuple[str, str]] = {}
    while b.ready():
        for m in b.ready():
            a, c = b.sides(m.id)
            assert a is not None and c is not None
            win = a if rng.random() < 0.6 else c
            lose = str(rng.randrange(5))
            scores[m.id] = ("5", lose) if win == a else (lose, "5")
            b = b.record(m.id, win)
    return from_bracket(b, {str(i + 1): NAMES[i] for i in range(n)}, scores)


def draw(bd: BracketData, out: Path) -> list[Path]:
    from clubdesk.reports.bracket_image import bracket_tree
    from clubdesk.reports.images import render

    header = ReportHeader(club_name="Kadıköy Tavla Kulübü", event_name="Kış Eleme", date=dt.date(2025, 5, 4))
    return render(header, [bracket_tree(bd, header, "Bracket")], out, "bracket-1")


def score_after(hit: tuple[Word, list[Word]]) -> str:
    """The first number to the right of a name: its score (a lone O read for a zero)."""
    for v in hit[1]:
        d = digits(v.text)
        if d:
            return d
    return ""


def test_single_elimination_of_8_is_one_tree_with_every_name_and_score(tmp_path: Path) -> None:
    bd = played("single", 8)
    files = draw(bd, tmp_path)
    assert len(files) == 1 and png_size(files[0])[0] == 1080 and png_size(files[0])[1] <= 1350
    words = ocr_words(files[0])
    # rule T4c: a player plays one match a round; on the tree their k-th appearance from the left is round k
    # (the boxes: a name with a score; the champion's line under the tree has none)
    seen = {
        name: sorted((h for h in find_name(words, name) if score_after(h)), key=lambda h: h[0].x)
        for name in NAMES
    }
    where: dict[str, tuple[int, int]] = {}
    for m in bd.matches:
        col = m.round - 1
        ys = []
        for k in (0, 1):
            name = m.sides[k]
            assert name is not None
            hits = seen[name]
            assert len(hits) > col, (m.id, name, [(h[0].text, h[0].x) for h in hits])
            hit = hits[col]
            assert score_after(hit) == digits(m.score[k]), (m.id, name, m.score[k], [v.text for v in hit[1]])
            ys.append(hit[0].y)
            where[m.id] = (hit[0].x, sum(ys) // len(ys))
        assert abs(ys[0] - ys[1]) < 80, (m.id, ys)  # both sides in one box
    firsts = [m for m in bd.matches if m.bracket == "W" and m.round == 1]
    for m in bd.matches:  # the columns: each round to the right of the one before
        if m.bracket == "W" and m.round > 1:
            assert where[m.id][0] > max(where[f.id][0] for f in firsts) + 200
    for m in bd.matches:  # the tree: a match midway between the two matches whose winners it takes
        feeders = [f for f in bd.matches if f.next_match == m.id]
        if len(feeders) == 2:
            lo, hi = sorted(where[f.id][1] for f in feeders)
            assert lo < where[m.id][1] < hi, (m.id, lo, where[m.id][1], hi)
    champion = find_name(words, bd.champion or "")
    assert len(champion) == 4  # three matches and the line "Champion: …" under the tree


@pytest.mark.parametrize("n", [4, 8])
def test_double_elimination_shows_both_brackets_and_the_final(tmp_path: Path, n: int) -> None:
    bd = played("double", n)
    files = draw(bd, tmp_path)
    for f in files:
        width, height = png_size(f)
        assert width == 1080 and height <= 1350
    words = [ocr_words(f) for f in files]
    text = plain(" ".join(w.text for ws in words for w in ws))
    assert "winners'" in text and "losers'" in text and "final" in text  # rule T4d: both brackets
    for m in bd.matches:  # every match of the data: both names, each with its own score
        for k in (0, 1):
            name = m.sides[k]
            assert name is not None
            scores = {score_after(h) for ws in words for h in find_name(ws, name)}
            assert digits(m.score[k]) in scores, (m.id, name, m.score[k], scores)


def test_unplayed_matches_show_the_id_their_labels_name(tmp_path: Path) -> None:
    # round 1 played only: round 2 and the third-place match wait; "loser of W2-1" must be findable
    entrants = [Entrant(id=str(i + 1), rating=2000 - 10 * i) for i in range(8)]
    b = single_elimination(entrants, third_place=True)
    scores = {}
    for m in b.ready():
        a, _c = b.sides(m.id)
        assert a is not None
        scores[m.id] = ("5", "2")
        b = b.record(m.id, a)
    bd = from_bracket(b, {str(i + 1): NAMES[i] for i in range(8)}, scores)
    words = ocr_words(draw(bd, tmp_path)[0])
    text = " ".join(w.text for w in words)
    third = next(m for m in bd.matches if m.bracket == "3P")
    assert third.labels[0] and third.labels[0] in text  # the label ("loser of W2-1") is drawn
    for m in bd.matches:
        if m.round == 2 and m.bracket == "W":
            assert m.id in text.split(), (m.id, text)  # and the match it names shows its id
