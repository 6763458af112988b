"""How the party stands, for search bots and the simulation lab: ``evaluate`` (0 lost .. 1 won),
``order_actions`` and what a designer measures.

The knowledge of the former private balance script lives here: the party heads for the
primary objective in its natural order (pick up the item to carry, perform the special actions
it needs, slay the undead it names, then leave by the exit), counted by the heroes' walking
distance over the map (doors cost the MP to open them, a locked door a whole activation);
readying a weapon, covering, keeping health and breaking locks count a little; a lost scenario
is 0 and a completed one 1. Bots call it on determinized states, so it may read everything.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from meadhall.core import grid
from meadhall.core.grid import Sq
from meadhall.core.protocol import CHANCE, PLAYERS, Action
from meadhall.games.niflheim.board import sq
from meadhall.games.niflheim.figures import MP, Hero

if TYPE_CHECKING:
    from meadhall.games.niflheim.state import NiflheimState

FAR = 99
STEP_COST = {".": 1, "/": 1, "%": 2, "+": 2, "^": 4, "L": 5}
"""The MP a hero pays to enter a square on the way to a goal: a closed door costs its opening,
a locked door stands for the special action that forces it, fire for the wound it burns."""

def walk_field(s: NiflheimState, goals: Iterable[Sq]) -> dict[Sq, int]:
    """MP from every square to the nearest goal over the map, figures ignored (diagonals 2, as
    the Movement Actions table prices them; a diagonal past two blocked squares is no step).
    Cached on terrain, red lines and goals: the map changes only when a door does."""
    board = s.board
    raw = ("walk as given", goals if goals.__class__ is tuple else tuple(goals))
    got = board.cache.get(raw)
    if got is not None:
        return got  # type: ignore[no-any-return]
    goal_t = tuple(sorted(set(raw[1])))
    key = ("walk", goal_t)
    got = board.cache.get(key)
    if got is not None:
        return board.remember(raw, got)  # type: ignore[no-any-return]
    dist: dict[Sq, int] = {}
    heap = [(0, g) for g in goal_t if board.inside(g) and board.at(g) in STEP_COST]
    heapq.heapify(heap)
    while heap:
        d, a = heapq.heappop(heap)
        if a in dist:
            continue
        dist[a] = d
        cost_a = STEP_COST[board.at(a)]
        for b in grid.neighbours(a, diagonal=True):
            if b in dist or not board.inside(b) or board.at(b) not in STEP_COST:
                continue
            if board.step_walled(a, b):
                continue
            diagonal = grid.is_diagonal(a, b)
            if diagonal and not any(board.at(q) in "./%^" for q in grid.side_squares(a, b)):
                continue
            # Moving from b to a costs entering a (the field is walked backwards).
            heapq.heappush(heap, (d + cost_a + (1 if diagonal else 0), b))
    board.remember(raw, dist)
    return board.remember(key, dist)


@lru_cache(maxsize=4096)
def _near(q: Sq, figure: bool) -> tuple[Sq, ...]:
    """Where a hero may act on ``q``: on or adjacent to it (only adjacent to a figure)."""
    return (*grid.neighbours(q), *(() if figure else (q,)))


def tasks(s: NiflheimState) -> tuple[int, int, list[tuple[tuple[Sq, ...], str | None]]]:
    """The primary objective as stages: (done, total, goals of the stages open now). Each goal
    is the squares that complete it and the hero who must reach them (``None``: any)."""
    sc = s.scenario
    obj = sc.objective
    done = total = 0
    open_: list[tuple[tuple[Sq, ...], str | None]] = []
    carrier: str | None = None
    if obj.carry:
        total += 1
        holders = [h for h in s.heroes.values() if h.status != "dead" and h.carries(obj.carry)]
        if holders:
            done += 1
            carrier = holders[0].id
        else:
            where = [q for q, items in s.items.items() if obj.carry in items]
            open_ += [(_near(q, False), None) for q in where]
    for label in obj.after:
        total += 1
        if label in s.done:
            done += 1
        else:
            sp = sc.specials[label]
            open_.append((_near(sq(sp.square), sp.figure), None))
    for kind in obj.kill:
        total += 1
        foes = [u for u in s.undead.values() if u.kind == kind]
        if not foes:
            done += 1
        else:
            open_ += [(tuple(grid.neighbours(u.at)), None) for u in foes]
    total += 1  # leaving by the exit
    if not open_ and done == total - 1:
        exits = tuple(sq(e.square) for e in sc.exits)
        open_.append((exits, carrier))
    return done, total, open_


def progress(s: NiflheimState) -> float:
    """Share of the primary objective done, the stage under way counted by how close the
    nearest able hero is (0..1)."""
    done, total, open_ = tasks(s)
    best = 0.0
    on_map = None
    for squares, who in open_:
        if who:
            heroes = [s.heroes[who]]
        else:
            if on_map is None:
                on_map = [h for h in s.heroes.values() if h.on_map]
            heroes = on_map
        field = walk_field(s, squares)
        for h in heroes:
            if not h.on_map:
                continue
            d = field.get(h.at, FAR)  # type: ignore[arg-type]
            best = max(best, 1.0 / (1.0 + d / 3.0))
    if s.active is not None and _special_ready(s, s.heroes[s.active]):
        best = max(best, 1.2)
    return min(1.0, (done + 0.8 * min(best, 1.2) / 1.2) / total)


def _special_ready(s: NiflheimState, h: Hero) -> bool:
    """The active hero stands stationary where a needed special action (or a locked door on its
    way) can be performed now: the stage is as good as done."""
    if h.intent != "stationary" or h.acted or h.marker is not None or not h.on_map:
        return False
    needed = [lab for lab in s.scenario.objective.after if lab not in s.done]
    for lab in needed:
        sp = s.scenario.specials[lab]
        q = sq(sp.square)
        if grid.is_orthogonal(q, h.at) or (q == h.at and not sp.figure):  # type: ignore[arg-type]
            return True
    return any(s.board.at(d) == "L" for d in grid.neighbours(h.at))  # type: ignore[arg-type]


def health(s: NiflheimState) -> float:
    """The party's health, dead heroes counting nothing (0..1)."""
    present = [h for h in s.heroes.values() if h.status in ("active", "exited", "dead")]
    top = sum(h.max_health for h in present)
    return sum(max(0, h.health) for h in present if h.status != "dead") / top if top else 0.0


def danger(s: NiflheimState, h: Hero) -> float:
    """How exposed a hero is: a lock, undead next to it (they lock and wound), undead one
    move away; stunned undead threaten little."""
    assert h.at is not None
    x, y = h.at
    d = 1.5 if h.locked_by is not None else 0.0
    for u in s.undead.values():
        ux, uy = u.at
        dx, dy = abs(ux - x), abs(uy - y)
        w = 0.3 if u.stunned else 1.0
        if dx + dy == 1:  # orthogonally adjacent
            d += w
        elif dx <= 1 and dy <= 1:  # within a king's move
            d += 0.3 * w
    return d * (2.0 if h.health <= 1 else 1.0)


def safety(s: NiflheimState) -> float:
    """Heroes out of the undead's reach, few undead on the map, covering and armed heroes
    (0..1)."""
    heroes = [h for h in s.heroes.values() if h.on_map]
    if not heroes:
        return 0.0
    exposed = sum(danger(s, h) for h in heroes) / len(heroes)
    threat = sum(0.5 if u.stunned else 1.0 for u in s.undead.values())
    cover = sum(1 for h in heroes if h.marker and h.marker.startswith("cover"))
    armed = sum(1 for h in heroes if h.ready)
    return (0.6 / (1.0 + exposed) + 0.3 / (1.0 + 0.3 * threat)
            + 0.05 * (cover + armed) / len(heroes))


def scenario_value(s: NiflheimState) -> float:
    """The prospects in the scenario under way (0..1)."""
    o = s.scenario_outcome()
    if o.over:
        return 1.0 if o.result == "win" else 0.0
    v = 0.03 + W[0] * progress(s) + W[1] * health(s) + W[2] * safety(s)
    if s.active is not None:
        v += 0.001 * s.heroes[s.active].mp  # MP still to spend are worth a little
    return max(0.01, min(0.99, v))


W = [0.7, 0.15, 0.1]
CAMPAIGN_LENGTH = 5
"""Scenarios of the campaign as meadhall plays it: 1, 2, 3 or 4, 33, 5."""


SETTLE_STEPS = 200
"""Players' choices taken by default when a look-ahead ends an activation (a safety net)."""


def _under_way(s: NiflheimState) -> bool:
    """A hero in the middle of an activation whose end the evaluation looks past (see
    :func:`activation_ended`)."""
    if s.active is None:
        return False
    h = s.heroes[s.active]
    if h.intent is None or (h.mp >= MP[h.intent] and not h.acted):
        return False  # a fresh declaration: its MP are still to be used (scored as they are)
    d = s.decision()
    # a table-mode question for a die's result is not the hero's to answer
    if d is None or d.seat in (PLAYERS, CHANCE):
        return False
    # a covering attack asked of a hero's seat is not an activation to end
    return s.choice is None or "end activation" in s.choice["options"]


def _under_way_now(s: NiflheimState) -> bool:
    """:func:`_under_way` of a position whose game is not over, the decision's seat read as
    ``NiflheimState._decision`` gives it, without building the decision (every evaluation of
    a search asks; ``test_niflheim_fast_paths.py`` compares the two at every step)."""
    if s.active is None:
        return False
    h = s.heroes[s.active]
    if h.intent is None or (h.mp >= MP[h.intent] and not h.acted):
        return False
    if s.pending is not None:
        return False  # a table-mode question for a die's result
    c = s.choice
    if c is not None:
        return (c.get("seat") or PLAYERS) not in (PLAYERS, CHANCE) \
            and "end activation" in c["options"]
    return (s.control.get(h.id, h.id) if s.players else h.id) not in (PLAYERS, CHANCE)


def activation_ended(s: NiflheimState) -> NiflheimState:
    """A hero in the middle of an activation (intent declared, MP or an action already
    spent): the position once it ends now and the undead have answered, up to the next
    decision that is not a players' choice with a default. Scoring this, rather than the
    position itself, puts every action of an activation on the horizon of the undead turn:
    otherwise ending the activation (after which the undead close in and strike) looks worse
    than any way of putting it off, and a one-ply bot wastes its MP readying weapons back
    and forth. Other positions are returned as they are."""
    if not _under_way(s):
        return s
    # The active hero's own decision with an intent declared always offers "end activation"
    # (heroes.legal lists it last in every case), so it is run without listing the others.
    # A search bot scores the same position on several sampled futures (copies differing
    # only in their generator): the steps before the first random draw are run once.
    return s.settled_after("end activation", SETTLE_STEPS)


def _settled_value(s: NiflheimState) -> float:
    """:func:`evaluate` of a position whose activation under way (if any) has ended."""
    o = s.outcome()
    if o.over:
        return 1.0 if o.result == "win" else 0.0
    if s.camp is None:
        return scenario_value(s)
    played = len(s.camp["played"])
    here = scenario_value(s) if s.segment not in ("interim", "retry", "new character") else 0.0
    if s.segment == "retry":
        here = 0.0
    return max(0.01, min(0.99, (played + here) / (CAMPAIGN_LENGTH + 1)))


def evaluate(s: NiflheimState) -> float:
    """The party's prospects, 0 (lost) to 1 (won): the scenario's, or in a campaign the share
    of scenarios completed plus the one under way; a hero's activation under way is scored
    as ended (:func:`activation_ended`; the copies of one position a search bot scores share
    the scores of the positions it ends in, see :meth:`.NiflheimState.settled_value`)."""
    o = s.outcome()
    if o.over:
        return 1.0 if o.result == "win" else 0.0
    if _under_way_now(s):
        return s.settled_value("end activation", SETTLE_STEPS, _settled_value)
    # the copies of one position a search bot scores share the score (it reads no generator)
    memo = s.position_memo()
    if memo is None:
        return _settled_value(s)
    v = memo.get(_settled_value)
    if v is None:
        v = memo[_settled_value] = _settled_value(s)
    return v  # type: ignore[no-any-return]


ORDER = ("exit", "rescue", "search", "force", "pick", "attack", "cover:", "throw", "move",
         "declare", "ready", "open", "pass", "rune", "close")


def order_actions(s: NiflheimState, actions: list[Action]) -> list[Action]:
    """Objective steps first (exit, special actions, pick-ups), then attacks and moves that bring
    a hero closer to the objective, ending the activation last."""
    done, total, open_ = tasks(s)
    fields = [walk_field(s, squares) for squares, _ in open_]

    def rank(a: Action) -> tuple[int, int]:
        word = a.text.split(" ", 1)[0]
        kind = ORDER.index(word) if word in ORDER else len(ORDER)
        if word == "move" and fields:
            q = grid.sq(a.text.split()[1])
            return kind, min(f.get(q, FAR) for f in fields)
        return kind, 0

    return sorted(actions, key=rank)


def measures(s: NiflheimState) -> dict[str, Any]:
    """What the lab records: rounds; on a loss the trigger, the final blow and the margins; the
    objectives done, undead left and killed, heroes standing, corruption, knockouts."""
    done, total, _ = tasks(s)
    on_map = [u for u in s.undead.values()]
    chars = [h for h in s.heroes.values() if not h.huskarl]
    out: dict[str, Any] = {
        "rounds": s.round,
        "scenario": s.scenario_id,
        "objectives_done": done,
        "objectives_total": total,
        "secondary_done": sum(1 for o in s.scenario.secondary
                              if all(d in s.done for d in o.done)),
        "undead_left": len(on_map),
        "undead_killed": s.tally["kills"],
        "heroes_standing": sum(1 for h in s.heroes.values() if h.status != "dead"),
        "knockouts": len(s.tally["knockouts"]),
        "corruption": max((h.corruption for h in chars), default=0),
        "xp": sum(h.xp for h in s.heroes.values()),
    }
    if s.camp is not None:
        out["scenarios_played"] = len(s.camp["played"])
    o = s.outcome()
    if o.result == "loss":
        blows = s.tally["knockouts"]
        if s.conceded is not None:
            trigger = "conceded"
        elif s.camp is not None and s.camp.get("result"):
            ended = str(s.camp["result"][1]).startswith("the players ended")
            trigger = "ended_campaign" if ended else "gave_up"
        elif all(h.status == "dead" for h in s.heroes.values() if h.status != "reserve"):
            trigger = "heroes_killed"
        else:
            trigger = "left_map"
        out["trigger"] = trigger
        out["final_blow"] = blows[-1]["by_type"] if blows and trigger != "left_map" else None
        out["margin_objectives"] = round(done / total, 3)
        out["margin_undead_left"] = len(on_map)
        out["margin_heroes_standing"] = out["heroes_standing"]
    return out


def health_left(s: NiflheimState) -> dict[str, float]:
    """Each hero's health and, under ``enemies``, the undead's health left (HV less wounds;
    a face-down marker counts as a draugr), for the lab's damage dealt and taken."""
    out: dict[str, float] = {h.id: float(max(0, h.health)) for h in s.heroes.values()
                             if h.status != "reserve"}
    out["enemies"] = float(sum(max(0, s.content.undead[u.kind or "draugr"].hv - u.wounds)
                               for u in s.undead.values()))
    return out
