"""How good a Runaljod position is for the party, for the bots (``RunaljodGame.evaluate``) and
a most-promising-first ordering of the legal actions (``order_actions``).

The adventure is won by defeating the final enemy of the stage (C) card, the fourth tile, and
lost when the time token reaches the end marker (Victory or Defeat). So the evaluation rewards,
in this order: the exploration cards played (each new tile is a stage nearer the final enemy);
within a stage, the enemies' life removed (no enemy left discards the card so the heroes may
explore) and the heroes' walking distance to where they are needed (next to an enemy, or for
an archer or a seer in sight of one, and with the card gone, next to the last tile's exit);
on the final tile the final enemy's life removed; then the heroes' life (a fallen hero counts
nothing), the time left before the end marker, and small amounts for what helps later (face
up runes, skill cards, glory). A movement in progress counts the best square its points reach.

It folds in what the private balance script (``balance_bot.py``, removed) knew: attack first
(skill attacks, then the final or weakest enemy), help the fallen up, heal when hurt, explore
and search, spend face down runes on basic actions, buy attack skills, recover when fallen.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import repeat
from typing import TYPE_CHECKING

from meadhall.core import grid
from meadhall.core.grid import Sq
from meadhall.core.protocol import Action

from .describe import attack_odds
from .memo import content_cache
from .model import FACE_DAMAGE, POOL, Enemy

if TYPE_CHECKING:
    from .board import BoardMap
    from .model import Hero
    from .state import RunaljodState

STAGES = 4
"""Exploration cards of an adventure: the initial card, two basic cards and the stage card."""
ATTACK_SKILLS = ("war_cry", "frenzy", "spirit_bolt", "volley", "quick_shot", "cleave",
                 "shield_bash")
"""Skill cards the balance script bought first: attacks are how the party progresses."""
FAR = 30


def _open_steps(st: RunaljodState):
    """Steps between open squares of the board (obstacles block; figures are ignored: the
    distance is where a hero wants to be, not the route of this turn)."""
    t = st.terrain

    def step(s: Sq) -> Iterator[tuple[Sq, int]]:
        for n in grid.neighbours(s, diagonal=True):
            if t.get(n, "#") != "#":
                yield n, 2 if t.get(s) == "g" else 1
    return step


_FIELDS: dict[tuple, tuple[object, dict[Sq, float]]] = {}
"""Goal fields by board and by what decides the goals (the enemies' squares, whether the
card is still to beat): a search meets the same few again and again."""


def _goal_field(st: RunaljodState, h: Hero, ranged: bool,
                finals: list[Enemy] | None = None, goals: tuple | None = None
                ) -> dict[Sq, float]:
    """Walking distance to where the hero is needed now (cached: the field depends only on
    the board and the goals). ``finals``: the final enemies in play, and ``goals``:
    :func:`_goals_key` of the position, when the caller has them already."""
    board = st.board
    if finals is None:
        finals = [e for e in st.enemies if st.enemy_data(e).final]
    key = (id(board), ranged, goals if goals is not None else _goals_key(st, finals))
    hit = _FIELDS.get(key)
    if hit is not None and hit[0] is board:
        return hit[1]
    field = _compute_goal_field(st, finals, ranged)
    if len(_FIELDS) > 20_000:
        _FIELDS.clear()
    _FIELDS[key] = (board, field)
    return field


def _goals_key(st: RunaljodState, finals: list[Enemy]) -> tuple:
    """What decides the goals besides the board: whether the card is still to beat and
    explored further, and the squares of the enemies that matter (the final ones if any)."""
    return (bool(st.active_card), bool(len(st.exploration)),
            tuple((e.at,) if e.also is None else (e.at, e.also) for e in finals or st.enemies))


_NEAR4 = tuple((dx, dy) for dx in range(-4, 5) for dy in range(-4, 5))
"""The offsets of the squares at most 4 squares away (Chebyshev), the square itself included."""


def _compute_goal_field(st: RunaljodState, finals: list[Enemy], ranged: bool
                        ) -> dict[Sq, float]:
    t = st.terrain
    open_ = st.board.open
    goals: set[Sq] = set()
    if st.enemies:
        for e in finals or st.enemies:  # on the final tile, only the final enemy matters
            for q in e.squares:
                goals.update(n for n in grid.neighbours(q, diagonal=True)
                             if t.get(n, "#") != "#")
                if ranged:  # near enough to shoot (sight is left to the attack itself)
                    # the open squares within 4, read from the board's open set (the same
                    # squares as a scan of the whole terrain)
                    qx, qy = q
                    goals.update(s for s in [(qx + dx, qy + dy) for dx, dy in _NEAR4]
                                 if s in open_)
    if not goals or (not st.active_card and len(st.exploration)):
        last = st.tiles[-1]
        rows = st.content.tiles[last.tile].rows
        exits = [(last.x + x, y) for y, r in enumerate(rows) for x, ch in enumerate(r)
                 if ch == "x"]
        if exits and not (st.enemies and st.active_card):
            goals = {n for x in exits for n in [x, *grid.neighbours(x, diagonal=True)]
                     if t.get(n, "#") != "#"}
    if not goals:
        return {}
    return _distances(st.board, goals)


def _distances(bm: BoardMap, goals: set[Sq]) -> dict[Sq, int]:
    """Walking distance from the nearest goal to every open square up to :data:`FAR`: the
    steps of :func:`_open_steps` (leaving difficult terrain costs 2) read from the board's
    tables, in buckets by distance (Dial's algorithm; the same distances as Dijkstra's)."""
    steps, difficult = bm.leap, bm.difficult
    dist: dict[Sq, int] = dict.fromkeys(goals, 0)
    buckets: list[list[Sq]] = [list(goals)]
    get = dist.get
    d = 0
    while d < len(buckets):
        for n in buckets[d]:
            if dist[n] != d:
                continue  # reached more cheaply since it was queued
            nd = d + (2 if n in difficult else 1)
            if nd > FAR:
                continue
            for m, _ in steps[n]:
                if nd < get(m, FAR + 1):
                    dist[m] = nd
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(m)
        d += 1
    return dist


def _reachable(st: RunaljodState, h: Hero, points: int, keywords: tuple[str, ...]
               ) -> frozenset[Sq]:
    """Squares a movement in progress can still end on (:func:`_reach`), remembered for what
    decides them: the board, the hero's square, points and keywords, and where the bonfires,
    the other heroes and the enemies stand."""
    key = (st.board, h.id, h.at, h.captive, points, keywords, tuple(st.bonfires),
           tuple(o.at for o in st.heroes.values()),
           tuple((e.uid, e.kind, e.at, e.also, e.captor) for e in st.enemies))
    cache = content_cache(st.content, "reach")
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 20_000:
            cache.clear()
        hit = cache[key] = frozenset(_reach(st, h, points, keywords))
    return hit  # type: ignore[no-any-return]  # shared: never changed


def _reach(st: RunaljodState, h: Hero, points: int, keywords: tuple[str, ...]) -> set[Sq]:
    """Squares a movement in progress can still end on: those its points reach by the steps
    of the movement's own options (:meth:`hero_steps_fn`, cheapest first) where the hero may
    stop (:meth:`hero_end_test`)."""
    assert h.at is not None
    steps = st.hero_steps_fn(h, keywords)
    can_end = st.hero_end_test(h)
    best = {h.at: 0}
    buckets: list[list[Sq]] = [[h.at]]
    get = best.get
    d = 0
    while d < len(buckets):
        for s in buckets[d]:
            if best[s] != d:
                continue
            for n, c in steps(s):
                nd = d + c
                if nd <= points and nd < get(n, points + 1):
                    best[n] = nd
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(n)
        d += 1
    return {s for s in best if can_end(s)}


def _pending_attack(st: RunaljodState) -> tuple[Enemy, float] | None:
    """The target and expected damage of the best choice of an attack whose weapon and target
    are being declared (Attack step 1), if one is."""
    ask = st.ask
    if ask is None or ask.get("kind") != "target":
        return None
    h = st.heroes[ask["seat"]]
    best: tuple[Enemy, float] | None = None
    for text in ask["options"]:
        square, weapon = st.attack_what(text)
        e = st.enemy_at(square)
        if e is None:
            continue
        ed = st.enemy_data(e)
        it = st.content.items[weapon]
        dice = st.attack_pool(h, weapon, ask["reduced"], list(ask["extra"]),
                              list(ask["keywords"]))
        ups = [(u.cost, u.value) for i in h.equipment for u in st.content.items[i].upgrades
               if u.effect == "damage"]
        cheru = "cheru" in h.bonus and "range" not in it.keywords
        exp = _expected_damage(st, dice, ed.cancels, st.enemy_defence(e), ups,
                               ed.life - e.damage, cheru)
        if ed.final:
            exp *= 1.5  # the final enemy is the goal
        if best is None or exp > best[1]:
            best = (e, exp)
    return best


def _expected_damage(st: RunaljodState, dice: list[str], cancels: list[str], defence: int,
                     ups: list[tuple[int, int]], life: int, cheru: bool) -> float:
    """:func:`attack_odds`' expected damage, remembered for its arguments (a declared attack is
    evaluated on every sampled future)."""
    cache = content_cache(st.content, "attack odds")
    key = (tuple(dice), tuple(cancels), defence, tuple(ups), life, cheru)
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 20_000:
            cache.clear()
        hit = cache[key] = attack_odds(st.content, dice, set(cancels), defence, ups, life,
                                       cheru)[0]
    return hit


def _gear(st: RunaljodState, h: Hero) -> float:
    """The hero's equipment as the dice of its best weapon (expected damage, Range worth a
    die more) and its defence icons."""
    c = st.content
    best = 0.0
    for w in st.weapons(h):
        it = c.items[w]
        dmg = sum(sum(FACE_DAMAGE[f] for f in c.dice[d]) / len(c.dice[d]) for d in it.dice)
        best = max(best, dmg + (0.8 if "range" in it.keywords else 0))
    return best + 0.7 * st.hero_defence(h)


_RUNE_WORTH = {"side": 0.5, "up": 0.35, "down": 0.1}
"""What a rune in the destiny pool adds: sideways (a god's rune can be activated), face up
(skills and checks), face down."""


def _hero_worth(st: RunaljodState, h: Hero, cache: dict | None = None
                ) -> tuple[bool, int, float, float]:
    """(armed with a Range weapon, life value, :func:`_gear`, skill cards' worth): what
    depends only on the hero, its equipment and skills and whether its coloured life spaces
    are covered, computed once for each (shared by every state of the content; ``cache``:
    that cache, when the caller has it already)."""
    if cache is None:
        cache = content_cache(st.content, "hero worth")
    key = (h.id, h.damage < st.content.heroes[h.id].coloured, tuple(h.equipment), *h.skills)
    hit = cache.get(key)
    if hit is None:
        items = st.content.items
        hit = (any("range" in items[w].keywords for w in st.weapons(h)), st.hero_life(h),
               _gear(st, h), sum(1.5 if s in ATTACK_SKILLS else 1 for s in h.skills))
        if len(cache) > 4096:
            cache.clear()
        cache[key] = hit
    return hit


def evaluate(st: RunaljodState) -> float:
    """The party's prospects, 0 (lost) to 1 (won); see the module docstring."""
    o = st.outcome()
    if o.over:
        return 1.0 if o.result == "win" else 0.0
    c = st.content
    heroes = list(st.heroes.values())
    # Stages: the exploration cards played, and within the stage the enemies' life removed.
    stage = min(len(st.cards_played), STAGES) - 1
    kinds = c.enemies  # (st.enemy_data, read directly)
    finals = [e for e in st.enemies if kinds[e.kind].final]
    # an attack declared but not rolled yet counts its expected damage on its best target
    pending = _pending_attack(st) if st.ask is not None else None
    if finals:
        life = sum(kinds[e.kind].life for e in finals)
        within = (sum(e.damage for e in finals)
                  + (pending[1] if pending and pending[0] in finals else 0)) / life
    else:
        left = sum(kinds[e.kind].life - e.damage for e in st.enemies)
        left -= pending[1] if pending else 0
        within = 1 / (1 + left / 4)
        if not st.active_card:
            within = max(within, 0.8)
    # Position: each standing hero's distance to where it is needed.
    ask = st.ask
    pos = 0.0
    wcache = content_cache(c, "hero worth")
    worth = [_hero_worth(st, h, wcache) for h in heroes]
    goals = _goals_key(st, finals)
    for h, (ranged, _, _, _) in zip(heroes, worth, strict=True):
        if h.fallen or h.at is None:
            continue
        field = _goal_field(st, h, ranged, finals, goals)
        if ask is not None and ask.get("kind") == "move" and ask["seat"] == h.id:
            squares = _reachable(st, h, ask["points"], tuple(ask["keywords"])) or {h.at}
            d = min(map(field.get, squares, repeat(FAR, len(squares))), default=FAR)
        else:
            d = field.get(h.at, FAR)  # the nearest of the one square it stands on
        pos += 1 / (1 + d)
    pos /= len(heroes)
    progress = (stage + 0.7 * within + 0.3 * pos) / STAGES
    # Heroes: life (a fallen hero counts nothing), destiny, skills, glory.
    # a fallen hero counts less than nothing: standing up again moves the end marker
    life = sum(-0.3 if h.fallen else (w[1] - h.damage) / w[1]
               for h, w in zip(heroes, worth, strict=True)) / len(heroes)
    extras = 0.0
    for h, (_, _, gear, skills) in zip(heroes, worth, strict=True):
        extras += gear / 4
        # the sum of the pool's runes, added in the same order as sum() would
        pool = 0
        for r in h.runes:
            if r.place == POOL:
                pool += _RUNE_WORTH[r.side]
        extras += pool / 4
        extras += 0.15 * skills
        extras += 0.03 * h.glory + 0.1 * h.skill_points
    extras = min(1.0, extras / (3 * len(heroes)))
    track = c.altar.track
    time_left = ((st.end - st.time) % track) / track
    score = 0.6 * progress + 0.25 * (0.3 + 0.7 * life) + 0.12 * time_left + 0.03 * extras
    return max(0.01, min(0.99, score))


# Action kinds by promise, for search bots' move ordering (lower first).
_ORDER = (("skill ", ": attack "), ("attack ",), ("reduced attack ",), ("assist ",),
          ("invoke thor on every",), ("explore ",), ("search ",), ("invoke ",), ("skill ",),
          ("move ",), ("equip ", "give ", "use ", "buy "), ("2-player",), ("re-throw",),
          ("pass",), ("hand over",))


def _rank(st: RunaljodState, text: str) -> tuple[int, int]:
    for i, keys in enumerate(_ORDER):
        if i == 0 and text.startswith(keys[0]) and keys[1] in text:
            return i, 0
        if i and text.startswith(keys):
            rune = text.rpartition(" using ")[2] if " using " in text else ""
            h = st.heroes.get(st.active) if st.active else None
            r = h.rune(st.icon_of(rune)) if h is not None and rune else None
            # spend face down runes on basic actions, keep face up ones for skills and checks
            return i, 0 if r is None or not r.face_up else 1 if r.side == "up" else 2
    return len(_ORDER) - 2, 0


def order_actions(st: RunaljodState, actions: list[Action]) -> list[Action]:
    """Most promising first: attacks (skill attacks first), helping the fallen, Thor on every
    enemy, exploring, searching, powers and skills, movement, items; handing over and passing
    last; among basic actions those spending a face down rune first. Within the players'
    choices the engine's default comes first."""
    d = st.decision()
    if d is not None and d.default is not None:
        return sorted(actions, key=lambda a: a.text != d.default)
    if st.ask is not None:
        if st.ask.get("kind") == "prep":
            pref = {st.names.skill[s]: i for i, s in enumerate(ATTACK_SKILLS)}
            return sorted(actions, key=lambda a: pref.get(a.text[4:], len(pref)))
        return actions
    return sorted(actions, key=lambda a: _rank(st, a.text))


def health_left(st: RunaljodState) -> dict[str, float]:
    """Each hero's life left and, under ``enemies``, the enemies' life left, for the lab's
    damage dealt and taken."""
    out: dict[str, float] = {h.id: float(max(0, st.life_left(h))) for h in st.heroes.values()}
    out["enemies"] = float(sum(max(0, st.enemy_data(e).life - e.damage) for e in st.enemies))
    return out
