"""The gaple engine: hands to a target, games to a match (RULES.md sections A and B, CONTRACTS.md §1).

:class:`GapleMatch` applies sheet entries (``clubdesk.games.gaple_entries``) one by one, validating each one
completely before anything changes, and scores each hand; :func:`score_match` gives the frozen
:class:`~clubdesk.games.gaple_results.MatchState`. :func:`replay_gaple` is the plain-dict face used by
``clubdesk.games.replay``.

Seats 0–3 in playing order (counter-clockwise, rule G5); side 0 = seats 0 and 2, side 1 = seats 1 and 3.
Messages and explanations number seats 1–4 and sides 1–2 (or use the seat names), as the paper sheet,
the screens and the other engines do; codes, indices and entry fields stay 0-based (CONTRACTS.md §1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clubdesk.games.errors import EntryError
from clubdesk.games.gaple_entries import (
    SEATS,
    Block,
    Entry,
    Out,
    Penalty,
    Redeal,
    SixDoubles,
    entry_to_dict,
    parse_entry,
    seat_label,
    side_label,
    side_of,
)
from clubdesk.games.gaple_results import GameState, HandKind, HandResult, MatchState, NextHand, state_to_dict
from clubdesk.games.ruleset import GapleParams
from clubdesk.i18n import _

__all__ = ["GapleMatch", "replay_gaple", "score_match"]

# ------------------------------------------------------------------------------------------------ engine


class GapleMatch:
    """A gaple match fed one entry at a time. ``apply`` validates an entry fully before changing anything."""

    def __init__(self, params: GapleParams | None = None, seat_names: Sequence[str] | None = None) -> None:
        self.params = params or GapleParams()
        if seat_names is not None and len(seat_names) != SEATS:
            raise ValueError("seat_names must name the four seats")
        self.seat_names = None if seat_names is None else tuple(seat_names)
        self._games: list[list[HandResult]] = []
        self._game_winners: list[int | None] = []
        self._totals = [0, 0]
        self._games_won = [0, 0]
        self._scored = [False, False]  # a side has scored in this match (GN4)
        self._warmup_pending = self.params.warmup  # rule G6
        self._game_over = False  # the current game has a winner; the next entry starts a new one
        self._count = 0
        # what the sheet needs next
        self._leader: int | None = None
        self._leader_rule: str | None = "G6" if self.params.opening_tiles and self.params.warmup else None
        self._opening_tile: str | None = "0-0" if self.params.opening_tiles and self.params.warmup else None

    # --------------------------------------------------------------------------------------- queries
    @property
    def finished(self) -> bool:
        return max(self._games_won) >= self.params.games_to_win

    @property
    def winner(self) -> int | None:
        for side in (0, 1):
            if self._games_won[side] >= self.params.games_to_win:
                return side
        return None

    def state(self) -> MatchState:
        games = tuple(
            GameState(tuple(hands), hands[-1].totals if hands else (0, 0), self._game_winners[g])
            for g, hands in enumerate(self._games)
        )
        nxt: NextHand | None = None
        if not self.finished:
            nxt = NextHand(
                game=len(self._games) if (self._game_over or not self._games) else len(self._games) - 1,
                warmup=self._warmup_pending,
                leader=self._leader,
                leader_rule=self._leader_rule,
                opening_tile=self._opening_tile,
                seat_change=self._game_over and self.params.seat_change,
                barred_leads=("0-0", "6-6") if self.params.double_lead_barred else (),
            )
        return MatchState(games, (self._games_won[0], self._games_won[1]), self.winner, self.finished, nxt)

    # --------------------------------------------------------------------------------------- apply
    def apply_raw(self, raw: Mapping[str, object]) -> HandResult:
        """Validate and apply a plain sheet entry (its index is the number of entries so far)."""
        return self._apply(parse_entry(self._count, raw, self.seat_names))

    def apply(self, entry: Entry) -> HandResult:
        """Validate and apply a typed entry (checked exactly like the plain sheet entry it stands for)."""
        return self._apply(parse_entry(self._count, entry_to_dict(entry), self.seat_names))

    def _apply(self, entry: Entry) -> HandResult:
        index = self._count
        if self.finished:
            raise EntryError(index, "match-finished", _("the match has already ended"))
        if isinstance(entry, SixDoubles) and not self.params.six_doubles_wins:
            raise EntryError(index, "not-in-ruleset", _("six doubles dealt is not a result in this ruleset"))
        p = self.params
        totals = list((0, 0) if self._game_over or not self._games else self._totals)
        game = len(self._games) if (self._game_over or not self._games) else len(self._games) - 1
        if isinstance(entry, Out):
            hand = self._out(index, game, entry, totals)
        elif isinstance(entry, Block):
            hand = self._block(index, game, entry, totals)
        elif isinstance(entry, Redeal):
            # rules G11, G14, B9, B10: the hand is dealt again and scores nothing
            hand = HandResult(
                index, game, HandKind.REDEAL, (0, 0), (totals[0], totals[1]), _("redeal: no score")
            )
        elif isinstance(entry, SixDoubles):
            hand = self._six_doubles(index, game, entry, totals)
        else:
            hand = self._penalty(index, game, entry, totals)
        # ---- commit (nothing above changed self) ----
        if game == len(self._games):
            self._games.append([])
            self._game_winners.append(None)
            self._game_over = False
        self._games[game].append(hand)
        self._totals = [hand.totals[0], hand.totals[1]]
        self._count += 1
        if hand.scorer is not None and hand.points[hand.scorer] + hand.fined[hand.scorer] > 0:
            self._scored[hand.scorer] = True  # rule GN4: the side has scored in this match
        if hand.kind in (HandKind.OUT, HandKind.BLOCK):
            self._warmup_pending = False
        self._update_next(entry, hand)
        winner = next((s for s in (0, 1) if hand.totals[s] >= p.target), None)  # rule GN3
        if winner is not None:
            self._game_winners[game] = winner
            self._games_won[winner] += 1
            self._game_over = True
            self._next_game_opening()
        return hand

    # --------------------------------------------------------------------------------------- scoring
    def _opening_min(self, side: int, total: int) -> int:
        """Rule GN4 (and B8): the value a side at 0 or less needs for its hand to count."""
        if total > 0:
            return 0
        return self.params.open_again_min if self._scored[side] else self.params.open_first_min

    def _score(
        self,
        index: int,
        game: int,
        kind: HandKind,
        scorer: int,
        pure: int,
        mult: int,
        totals: list[int],
        parts: list[str],
        fines: tuple[int, int] = (0, 0),
    ) -> HandResult:
        """Common tail of a scoring hand: warm-up, opening minimum, multiplier, burn, fines."""
        p = self.params
        names = self.seat_names
        if self._warmup_pending:
            # rule G6, G7: the first non-redeal hand of the match is the warm-up and scores nothing
            parts.append(_("warm-up hand: scores nothing"))
            return HandResult(
                index, game, kind, (0, 0), (totals[0], totals[1]), "; ".join(parts), pure, scorer, True, True
            )
        need = self._opening_min(scorer, totals[scorer])
        if p.open_on == "won":
            # rule B8 (open_on = "won"): tested on the points the hand actually gives, x2 included
            tested = pure * mult
        else:
            # rule GN4, GN5 (open_on = "pure"): tested on the pure value, before any x2
            tested = pure
        opened = tested >= need
        gain = pure * mult if opened else 0
        if need > 0:
            if p.open_on == "won" and mult != 1:
                # rule B8: say that the points won (after the x2) were tested, not the pure value
                if opened:
                    parts.append(_("{value} won ≥ {need}: opens").format(value=tested, need=need))
                else:
                    parts.append(_("{value} won < {need}: does not open").format(value=tested, need=need))
            elif opened:
                parts.append(_("opens (≥ {need})").format(need=need))
            else:
                parts.append(_("{pure} < {need}: does not open").format(pure=tested, need=need))
        other = 1 - scorer
        before = list(totals)
        totals[scorer] += gain
        burned: int | None = None
        if (
            p.burn
            and gain > 0
            and before[scorer] <= before[other]
            and totals[scorer] > totals[other]
            and totals[other] > 0
        ):
            # rule GN6: the overtaken score (behind or level before, strictly ahead after) is burned to 0
            burned = other
            totals[other] = 0
            msg = _("{a} overtakes: {b} burned to 0")
            parts.append(msg.format(a=side_label(scorer, names), b=side_label(other, names)))
        points = [0, 0]
        points[scorer] = gain
        fined = [0, 0]
        for side in (0, 1):
            if fines[side]:
                taken = self._deduct(totals, side, fines[side])
                fined[side] = taken
                points[side] -= taken
        return HandResult(
            index,
            game,
            kind,
            (points[0], points[1]),
            (totals[0], totals[1]),
            "; ".join(parts),
            pure,
            scorer,
            opened,
            False,
            burned,
            (fined[0], fined[1]),
        )

    def _deduct(self, totals: list[int], side: int, amount: int) -> int:
        """Take ``amount`` from a side's total, stopping at 0 unless allow_negative (G3, B7)."""
        if self.params.allow_negative:
            taken = amount
        else:
            taken = max(0, min(amount, totals[side]))
        totals[side] -= taken
        return taken

    def _out(self, index: int, game: int, e: Out, totals: list[int]) -> HandResult:
        p = self.params
        names = self.seat_names
        scorer = side_of(e.seat)
        opponents = ((e.seat + 1) % SEATS, (e.seat + 3) % SEATS)
        face = (
            e.pips[opponents[0]] + e.pips[opponents[1]]
        )  # rule GN1: both opponents' pips, not the partner's
        parts = [_("opponents {pips}").format(pips=face)]
        value = face
        fines = [0, 0]
        if p.caught_double == "count":
            # rules GS3, GS4: a dead 0-0 / 6-6 counts its special value, only in an opponent's hand (GN1)
            if e.dead_66 is not None and e.dead_66 in opponents:
                value += p.dead_66 - 12
                parts.append(_("6-6 dead ({value} instead of 12)").format(value=p.dead_66))
            if e.dead_00 is not None and e.dead_00 in opponents:
                value += p.dead_00
                parts.append(_("0-0 dead ({value})").format(value=p.dead_00))
        else:
            # rule B6: the side holding a caught 0-0 / 6-6 is fined; the count uses face values
            if e.dead_00 is not None:
                fines[side_of(e.dead_00)] += p.dead_00
            if e.dead_66 is not None:
                fines[side_of(e.dead_66)] += p.dead_66
        if e.last_tile is not None:
            bonus = p.out_00 if e.last_tile == "0-0" else p.out_66
            if p.out_double_mode == "plus":
                # rules GS5, GS6, GS7 and B6 (Reading): going out with 0-0 / 6-6 adds its value to the
                # normal count (seed 001: 40 left + 50 for 0-0 = 90; 35 + 100 for 6-6 = 135)
                value += bonus
                parts.append(_("out with {tile} (+{value})").format(tile=e.last_tile, value=bonus))
            else:
                # rule B6: going out with 0-0 / 6-6 is worth exactly that for the hand
                value = bonus
                parts = [_("out with {tile}: {value}").format(tile=e.last_tile, value=bonus)]
        text = " + ".join(parts)
        if len(parts) > 1:
            text += f" = {value}"
        out_parts = [text]
        mult = 1
        if e.two_ends and p.two_ends_mult != 1:
            # rule GS1/GS2: out on two ends multiplies the whole value, special values included
            mult = p.two_ends_mult
            out_parts.append(_("two ends ×{mult} = {value}").format(mult=mult, value=value * mult))
        for side in (0, 1):
            if fines[side]:
                msg = _("{side} fined {points} for a caught double")
                out_parts.append(msg.format(side=side_label(side, names), points=fines[side]))
        hand = self._score(
            index, game, HandKind.OUT, scorer, value, mult, totals, out_parts, (fines[0], fines[1])
        )
        return hand

    def _block(self, index: int, game: int, e: Block, totals: list[int]) -> HandResult:
        p = self.params
        names = self.seat_names
        blocker = e.seat
        duelled = (e.seat - 1) % SEATS  # rule G17, B5: duel against the player just before him in turn order
        count = sum(e.pips) - e.pips[blocker]  # rule GN2: all hands but the penggaple's; GS8: face values
        a, b = e.pips[blocker], e.pips[duelled]
        head = _("block: {blocker} {a} vs {duelled} {b}").format(
            blocker=seat_label(blocker, names), a=a, duelled=seat_label(duelled, names), b=b
        )
        if a == b and p.duel_tie == "replay":
            # rule B5: a drawn duel replays the hand
            text = head + ", " + _("tie → hand replayed")
            return HandResult(index, game, HandKind.REPLAY, (0, 0), (totals[0], totals[1]), text)
        if a < b:
            # rule GN2: the penggaple wins the duel (lower pip total): his pair scores the count
            scorer, mult = side_of(blocker), 1
            text = head + ", " + _("blocker wins; {count} to {side}")
            text = text.format(count=count, side=side_label(scorer, names))
        else:
            # rule GN2: the penggaple loses (higher total) -> duelled pair scores mult x count;
            # rule GN7: equal totals -> the penggaple loses, whatever the number of tiles
            scorer, mult = side_of(duelled), p.duel_loss_mult
            lost = _("tie → blocker loses") if a == b else _("blocker loses")
            text = head + ", " + lost + "; "
            if mult != 1:
                text += _("{mult} × {count} = {value} to {side}").format(
                    mult=mult, count=count, value=mult * count, side=side_label(scorer, names)
                )
            else:
                text += _("{count} to {side}").format(count=count, side=side_label(scorer, names))
        parts = [text]
        fines = [0, 0]
        if p.caught_double == "fine" and p.fine_in_block:
            # rule B6 (Reading): seed 001 has no exception like GS8, so a caught 0-0 / 6-6 is fined in a
            # blocked hand too; the count keeps the face values
            if e.dead_00 is not None:
                fines[side_of(e.dead_00)] += p.dead_00
            if e.dead_66 is not None:
                fines[side_of(e.dead_66)] += p.dead_66
            for side in (0, 1):
                if fines[side]:
                    msg = _("{side} fined {points} for a caught double")
                    parts.append(msg.format(side=side_label(side, names), points=fines[side]))
        return self._score(
            index, game, HandKind.BLOCK, scorer, count, mult, totals, parts, (fines[0], fines[1])
        )

    def _six_doubles(self, index: int, game: int, e: SixDoubles, totals: list[int]) -> HandResult:
        # rule B9 (Reading): six doubles dealt wins the current game: that side's total is set to the target
        side = side_of(e.seat)
        gain = max(0, self.params.target - totals[side])
        points = [0, 0]
        points[side] = gain
        totals[side] += gain
        text = _("six doubles dealt to {seat}: {side} wins the game").format(
            seat=seat_label(e.seat, self.seat_names), side=side_label(side, self.seat_names)
        )
        return HandResult(
            index,
            game,
            HandKind.SIX_DOUBLES,
            (points[0], points[1]),
            (totals[0], totals[1]),
            text,
            None,
            side,
        )

    def _penalty(self, index: int, game: int, e: Penalty, totals: list[int]) -> HandResult:
        # rule G3, B7: points taken from the side's running game score; it stops at 0 unless allow_negative
        taken = self._deduct(totals, e.side, e.points)
        points = [0, 0]
        points[e.side] = -taken
        side = side_label(e.side, self.seat_names)
        if e.points == 0:
            text = _("warning to {side}").format(side=side)
        elif taken == e.points:
            text = _("penalty: {side} loses {points}").format(side=side, points=e.points)
        else:
            text = _("penalty: {side} loses {points} (only {taken}: a score stops at 0)").format(
                side=side, points=e.points, taken=taken
            )
        return HandResult(index, game, HandKind.PENALTY, (points[0], points[1]), (totals[0], totals[1]), text)

    # --------------------------------------------------------------------------------------- next hand
    def _update_next(self, entry: Entry, hand: HandResult) -> None:
        if isinstance(entry, Out):
            # rules G9, B4 (and G6: the warm-up's winner leads the next hand): who went out leads next
            self._leader = entry.seat
            self._leader_rule = "G6" if hand.warmup else ("G9" if self.params.opening_tiles else "B4")
            self._opening_tile = None
        elif hand.kind is HandKind.BLOCK:
            # rule G8: the next hand is led by the tile of that block (whoever holds it)
            self._leader = None
            self._leader_rule = "G8"
            self._opening_tile = None
        # redeal, replayed hand, penalty: the suggestion stands

    def _next_game_opening(self) -> None:
        if self.params.opening_tiles:
            # rule G10: the first tile of the next game shows the games score (1-0, then 1-1)
            hi, lo = max(self._games_won), min(self._games_won)
            self._leader = None
            self._leader_rule = "G10"
            self._opening_tile = f"{hi}-{lo}"


# ------------------------------------------------------------------------------------------------- API


def score_match(
    entries: Sequence[Entry | Mapping[str, object]],
    params: GapleParams | None = None,
    seat_names: Sequence[str] | None = None,
) -> MatchState:
    """Score a whole sheet. Raises :class:`EntryError` at the first impossible entry."""
    match = GapleMatch(params, seat_names)
    for raw in entries:
        if isinstance(raw, Out | Block | Redeal | SixDoubles | Penalty):
            match.apply(raw)
        else:
            match.apply_raw(raw)
    return match.state()


def replay_gaple(entries: Sequence[Mapping[str, object]], params: GapleParams) -> dict[str, Any]:
    """``clubdesk.games.replay`` for the gaple family."""
    return state_to_dict(score_match(entries, params))
