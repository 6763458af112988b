"""What bots and the simulation lab know about BattleForge: the party's prospects, a hint for
ordering actions, and the measures of a game.

:func:`evaluate` scores a position from 0 (lost) to 1 (won). Its currency is Thor's *work*:
the raw Damage the champions' attacks still have to roll to destroy his six Faces, planned the
way Thor's Passive ("reduce the Damage that would be dealt by 1 for each other Face that is
Destroyed") rewards: first bring every Face down to its last Health Point while the Passive is
small, then destroy them one by one, each needing one attack of 1, 2, ... 6 Damage (see
:func:`thor_work`). Everything else is priced in the same unit: Health (nearly linear, steeper
near a Knockout, a spare life while the First Champion marker is red), Fury (Upgrades: red dice,
Boons, cubes), the Points of Interest, time left, and what the champions can still do: each
champion who still has a turn this round is given the best plan of their remaining Actions
(move next to a Face or a minion, relocate cubes onto a pile, attack with it, rolling the best
part of the pool; :func:`turn_plan`), and every champion the worth of their piles for the next
round. So a one-decision-ahead search sees the value of setting up a turn, not only of Damage
already done. In the last round only destroying Thor counts.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from meadhall.core.protocol import Action

if TYPE_CHECKING:
    from .state import BattleForgeState

# ---------------------------------------------------------------------------- the unit prices
CHIP_ATTACK = 3.0
"""Typical net Damage of an attack while Faces are brought down (the Passive's toll per
attack is weighed against it in :func:`thor_work`)."""
HEALTH_LINEAR = 0.25
"""Work units per Health Point: every point lost must be healed with Actions that could
have attacked."""
HEALTH_KO = 4.0
"""Extra worth of the last Health Points, which keep a champion from a Knockout."""
HEALTH_SCALE = 3.0
GREY_FACTOR = 3.0
"""How much steeper the last Health Points count once one more Knockout loses the game."""
SPARE_LIFE = 22.0
"""A red First Champion marker: the party can survive one Knockout."""
ROUND_VALUE = 3.5
"""A round left on the Rounds track."""
POI_VALUE = 14.0
"""The Points of Interest: losing the last ones loses the game."""
POI_SCALE = 1.5
FURY_VALUE = 0.6
"""A Fury Point (Upgrades: red dice, Boons, cubes, Berserker Form)."""
MINION_VALUE = 1.5
"""A minion's Health left that still hunts the Points of Interest."""
FINAL_BONUS = 40.0
"""Extra worth of destroying the last Face (the game is won), so that plans pile for it."""
LAST_ROUND_SHARE = 0.1
"""Share of everything but Thor's Faces counted in the last round (only a win counts then)."""
NOW = 0.85
"""Share of the planned attacks of this round's remaining turns counted now."""
NEXT = 0.45
"""Share of a pile's next-round attack counted now (Thor moves, minions strike first)."""
WOUND_SHARE = 0.3
"""Share of a kill's worth that a wound short of it counts (the minion may be hit again)."""
MELEE_SHARE = 0.6
"""A Melee pile's share of its attack next round (it reaches one Face where a Ranged pile
reaches three)."""
MOVE_REACH = 6
"""Areas beyond which a planned Move Action is not considered."""
POSITION_VALUE = 0.6
POSITION_RANGE = 6.0
SCALE = 220.0
"""Work units spanning the score from 0 to 1."""

EXPOSURE_WEIGHT = 1.0
"""How much of the Damage a champion is exposed to in the next Ironborn Phase counts now."""
ORDER = {"melee": 0, "ranged": 0, "heal": 2, "ritual": 3, "move": 4, "skill": 1,
         "relocate": 5, "taunt": 6}

FACE_SIDES = {"miss": (0, 0), "counter": (0, 1), "damage": (1, 0), "double": (2, 0),
              "heal": (0, 0), "double_heal": (0, 0)}
"""Damage and Counterattack of each die side (section "Dice Sides")."""


# ---------------------------------------------------------------------------- dice
@lru_cache(maxsize=8192)
def outcomes(white: tuple[str, ...], red: tuple[str, ...], green: tuple[str, ...],
             w: int, r: int, g: int, mode: str) -> tuple[tuple[int, float, float], ...]:
    """The Damage an attack rolls with ``w`` white, ``r`` red and ``g`` green dice (the faces
    given), after the target Face's dice effect (``mode``: ``red`` turns the attacker's worst
    white or red die to Counterattack, ``blue`` turns Counterattacks into Damage, ``green``
    suffers none): ``(damage, probability, probability of a Counterattack)`` per damage."""
    dist = _dist(white, red, green, w, r, g, mode == "blue")
    out: dict[int, list[float]] = {}
    for (d, c, lo), q in dist.items():
        if mode == "red" and lo < 3:
            d, c = d - lo, 1
        if mode == "green":
            c = 0
        slot = out.setdefault(d, [0.0, 0.0])
        slot[0] += q
        slot[1] += q * c
    return tuple((d, v[0], v[1]) for d, v in sorted(out.items()))


@lru_cache(maxsize=8192)
def _dist(white: tuple[str, ...], red: tuple[str, ...], green: tuple[str, ...],
          w: int, r: int, g: int, blue: bool) -> dict[tuple[int, int, int], float]:
    """The roll of ``w`` white, then ``r`` red, then ``g`` green dice, one die at a time:
    (damage, counterattack rolled, lowest damage among white and red dice; 3: none) ->
    probability. Each pool is the pool one die smaller plus that die, so every pool a search
    asks for costs one die's step (the same sums in the same order as rolling the whole pool
    die by die: the same numbers bit for bit). Never changed once made."""
    if g:
        prev, faces, wr = _dist(white, red, green, w, r, g - 1, blue), green, False
    elif r:
        prev, faces, wr = _dist(white, red, green, w, r - 1, 0, blue), red, True
    elif w:
        prev, faces, wr = _dist(white, red, green, w - 1, 0, 0, blue), white, True
    else:
        return {(0, 0, 3): 1.0}
    p = 1.0 / len(faces)
    sides = []
    for f in faces:
        fd, fc = FACE_SIDES.get(f, (0, 0))
        if blue and fc:
            fd, fc = 1, 0
        sides.append((fd, fc))
    nxt: dict[tuple[int, int, int], float] = {}
    get = nxt.get
    for (d, c, lo), q in prev.items():
        for fd, fc in sides:
            key = (d + fd, c | fc, (lo if lo < fd else fd) if wr else lo)
            nxt[key] = get(key, 0.0) + q * p
    return nxt


def dice_faces(s: BattleForgeState) -> tuple[tuple[str, ...], ...]:
    """The white, red and green dice's faces (section "Dice")."""
    d = s.content.dice
    return tuple(d["white"].faces), tuple(d["red"].faces), tuple(d["green"].faces)


FACE_MODE = {"red": "red", "blue": "blue", "green": "green"}


# ---------------------------------------------------------------------------- Thor's work
@lru_cache(maxsize=65536)
def thor_work(left: tuple[int, ...], k: int) -> float:
    """Raw Damage still to roll to destroy the standing Faces (Health ``left`` each) with
    ``k`` Faces destroyed: bringing each down to 1 costs its Health above 1, dearer by the
    Passive's toll on each attack; then destroying them one by one needs attacks of
    ``k + 1``, ``k + 2``, ... Damage (section "The Faces of Thor", Thor's Passive)."""
    n = len(left)
    if not n:
        return -FINAL_BONUS
    chip = sum(x - 1 for x in left)
    return chip * (1.0 + k / CHIP_ATTACK) + n * k + n * (n + 1) / 2


def thor_state(s: BattleForgeState) -> tuple[tuple[int, ...], int]:
    """Health left per Face in the printed order (0: destroyed) and the Faces destroyed."""
    hp = s.face_health()
    destroyed = s.thor["destroyed"]
    dmg = s.thor["damage"]
    if destroyed:
        left = tuple([0 if f in destroyed else max(1, hp - dmg[f])
                      for f in s.content.god.faces])
    else:
        # (x if x > 1 else 1 is max(1, x) for ints, without the call)
        left = tuple([x if x > 1 else 1 for x in [hp - dmg[f] for f in s.content.god.faces]])
    return left, len(destroyed)


def work_of(left: tuple[int, ...], k: int) -> float:
    return thor_work(tuple(sorted(x for x in left if x > 0)), k)


def best_roll(left: tuple[int, ...], k: int, face: int, yellow: bool, mode: str,
              dice: tuple[tuple[str, ...], ...], w: int, r: int, g: int, price: float
              ) -> float:
    """The best of the dice a champion may roll from a pool of ``w`` white, ``r`` red and
    ``g`` green ("Champions roll as many and whatever dice they want from the resulting set
    (minimum 1)"): expected work removed less the Counterattack priced at ``price``.

    The best over every sub-pool is the best of the pool itself and of the best rolls of the
    pools one die smaller (which cover every smaller sub-pool), so a pool one die larger than
    one already asked costs a few lookups instead of a loop over all its sub-pools. A maximum
    of the same numbers is the same number whatever the order it is taken in (none is a NaN
    or a negative zero: a gain is a sum starting at 0.0, less a product of non-negatives).
    The answers are kept per Thor, Face, dice and price (:func:`_best_table`) by the pool's
    :func:`pool_key`."""
    table = _best_table(left, k, face, yellow, mode, dice, price)
    found = table.get((w << 12) | (r << 6) | g)
    if found is None:
        found = _best_in(table, _gains(left, k, face, yellow, mode, dice), left, k, face,
                         yellow, mode, dice, w, r, g, price)
    return found


def pool_key(w: int, r: int, g: int) -> int:
    """A pool of dice as one int (a dict of ints stays out of the garbage collector's way)."""
    return (w << 12) | (r << 6) | g


@lru_cache(maxsize=16384)
def _best_table(left: tuple[int, ...], k: int, face: int, yellow: bool, mode: str,
                dice: tuple[tuple[str, ...], ...], price: float) -> dict[int, float]:
    """:func:`best_roll` of each pool already asked, by :func:`pool_key`."""
    return {}


def _best_in(table: dict[int, float], gains: dict[int, tuple[float, float]],
             left: tuple[int, ...], k: int, face: int, yellow: bool, mode: str,
             dice: tuple[tuple[str, ...], ...], w: int, r: int, g: int, price: float
             ) -> float:
    key = (w << 12) | (r << 6) | g
    found = gains.get(key)
    if found is None:
        found = gains[key] = _attack_gain(left, k, face, yellow, mode, dice, w, r, g)
    gain, counter = found
    best = gain - counter * price
    if w + r + g > 1:
        if w:
            x = table.get(key - 4096)
            if x is None:
                x = _best_in(table, gains, left, k, face, yellow, mode, dice, w - 1, r, g,
                             price)
            if x > best:
                best = x
        if r:
            x = table.get(key - 64)
            if x is None:
                x = _best_in(table, gains, left, k, face, yellow, mode, dice, w, r - 1, g,
                             price)
            if x > best:
                best = x
        if g:
            x = table.get(key - 1)
            if x is None:
                x = _best_in(table, gains, left, k, face, yellow, mode, dice, w, r, g - 1,
                             price)
            if x > best:
                best = x
    table[key] = best
    return best


def best_roll_plain(left: tuple[int, ...], k: int, face: int, yellow: bool, mode: str,
                    dice: tuple[tuple[str, ...], ...], w: int, r: int, g: int, price: float
                    ) -> float:
    """:func:`best_roll` as a loop over every sub-pool (what tests compare it with)."""
    best = -1e9
    for nw in range(w + 1):
        for nr in range(r + 1):
            for ng in range(g + 1):
                if nw + nr + ng == 0:
                    continue
                gain, counter = _attack_gain(left, k, face, yellow, mode, dice, nw, nr, ng)
                best = max(best, gain - counter * price)
    return best


@lru_cache(maxsize=4096)
def _gains(left: tuple[int, ...], k: int, face: int, yellow: bool, mode: str,
           dice: tuple[tuple[str, ...], ...]) -> dict[int, tuple[float, float]]:
    """:func:`attack_gain` of each pool already computed for this Thor, Face and dice, by
    :func:`pool_key`."""
    return {}


@lru_cache(maxsize=4096)
def _removed(left: tuple[int, ...], k: int, face: int) -> dict[int, float]:
    """Work removed by ``net`` Damage on Face number ``face``, per ``net`` already asked (and
    under 0 the work still to do, :func:`work_of`)."""
    return {}


def attack_gain(left: tuple[int, ...], k: int, face: int, yellow: bool, mode: str,
                dice: tuple[tuple[str, ...], ...], w: int, r: int, g: int
                ) -> tuple[float, float]:
    """(expected work removed, chance of a Counterattack) of an attack on Face number
    ``face`` with these dice; the Passive reduces the Damage by the other destroyed Faces,
    then the Yellow Face caps it at 2 (ruling 13b)."""
    gains = _gains(left, k, face, yellow, mode, dice)
    key = (w << 12) | (r << 6) | g
    found = gains.get(key)
    if found is None:
        found = gains[key] = _attack_gain(left, k, face, yellow, mode, dice, w, r, g)
    return found


def _attack_gain(left: tuple[int, ...], k: int, face: int, yellow: bool, mode: str,
                 dice: tuple[tuple[str, ...], ...], w: int, r: int, g: int
                 ) -> tuple[float, float]:
    removed = _removed(left, k, face)
    gain = 0.0
    seq, counter = _nets(dice, w, r, g, mode, k, yellow)
    for net, p in seq:
        worth = removed.get(net)
        if worth is None:
            rest = left[face] - net
            after = list(left)
            after[face] = max(0, rest)
            base = removed.get(0)  # work_of(left, k), kept under net 0 (never asked)
            if base is None:
                base = removed[0] = work_of(left, k)
            worth = removed[net] = base - work_of(tuple(after), k + (1 if rest <= 0 else 0))
        gain += p * worth
    return gain, counter


@lru_cache(maxsize=16384)
def _nets(dice: tuple[tuple[str, ...], ...], w: int, r: int, g: int, mode: str, k: int,
          yellow: bool) -> tuple[tuple[tuple[int, float], ...], float]:
    """What :func:`_attack_gain` reads of an attack's :func:`outcomes` whatever Thor's Health:
    each net Damage above 0 (the Passive's ``k`` taken off, the Yellow Face's cap) with its
    probability, in the order of the outcomes, and the chance of a Counterattack (summed in
    that order)."""
    seq = []
    counter = 0.0
    for d, p, pc in outcomes(*dice, w, r, g, mode):
        counter += pc
        net = max(0, d - k)
        if yellow:
            net = min(net, 2)
        if net > 0:
            seq.append((net, p))
    return tuple(seq), counter


def attack_gain_plain(left: tuple[int, ...], k: int, face: int, yellow: bool, mode: str,
                      dice: tuple[tuple[str, ...], ...], w: int, r: int, g: int
                      ) -> tuple[float, float]:
    """:func:`attack_gain` from the outcomes themselves, nothing remembered (what tests
    compare it with)."""
    gain = 0.0
    counter = 0.0
    for d, p, pc in outcomes(*dice, w, r, g, mode):
        counter += pc
        net = max(0, d - k)
        if yellow:
            net = min(net, 2)
        if net <= 0:
            continue
        rest = left[face] - net
        after = list(left)
        after[face] = max(0, rest)
        gain += p * (work_of(left, k) - work_of(tuple(after), k + (1 if rest <= 0 else 0)))
    return gain, counter


# ---------------------------------------------------------------------------- attack options
class Pricer:
    """Per content and Thor's state (his Faces' Health left and the Faces destroyed): the work
    an attack of a given pool removes from a given Face, remembered (see :func:`pricer_of`)."""

    def __init__(self, s: BattleForgeState, left: tuple[int, ...] | None = None,
                 k: int = 0) -> None:
        self.faces = s.content.god.faces
        self.left, self.k = thor_state(s) if left is None else (left, k)
        self.dice = dice_faces(s)
        self.counter = float(s.content.god.counter)
        self.memo: dict[tuple[Any, ...], float] = {}
        self.face_memo: dict[tuple[Any, ...], float] = {}
        self.minion_memo: dict[tuple[Any, ...], float] = {}
        self.planners: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        """What a :class:`Planner` reads of a champion board, Boons, Attributes and Health
        price with this Thor, by those (see :meth:`Planner.__init__`)."""
        self.work = work_of(self.left, self.k)
        """The work still to do on Thor (:func:`work_of`)."""

    def face_value(self, face: str, w: int, r: int, g: int, hp_price: float
                   ) -> float:
        """Work removed minus the Counterattack's Health (priced) of an attack on ``face``
        (kept per Face, pool and price)."""
        key = (face, w, r, g, hp_price)
        found = self.face_memo.get(key)
        if found is None:
            found = self.face_memo[key] = self._face_value(face, w, r, g, hp_price)
        return found

    def _face_value(self, face: str, w: int, r: int, g: int, hp_price: float) -> float:
        i = self.faces.index(face)
        if self.left[i] <= 0:
            return 0.0
        if face == "purple":
            w += 1
        if face == "orange":
            # "removes 1 die of their choice": the weakest die goes.
            if g:
                g -= 1
            elif w:
                w -= 1
            else:
                r -= 1
        if w + r + g <= 0:
            return 0.0
        return best_roll(self.left, self.k, i, face == "yellow", FACE_MODE.get(face, ""),
                         self.dice, w, r, g, round(self.counter * hp_price, 1))

    def best(self, faces: tuple[str, ...], w: int, r: int, g: int, hp_price: float) -> float:
        """The best of :meth:`face_value` over ``faces`` (0 for none)."""
        key = (faces, w, r, g, hp_price)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = max((self.face_value(f, w, r, g, hp_price)
                                          for f in faces), default=0.0)
        return found


PRICERS: dict[tuple[int, tuple[int, ...], int], tuple[Any, Pricer]] = {}
""":class:`Pricer` per content (kept alive with it, so that its id stays its own) and Thor's
state: a search evaluates many positions with the same Thor."""


def pricer_of(s: BattleForgeState) -> Pricer:
    """The :class:`Pricer` of ``s``'s content and Thor (shared by every position with them)."""
    left, k = thor_state(s)
    key = (id(s.content), left, k)
    found = PRICERS.get(key)
    if found is None or found[0] is not s.content:
        if len(PRICERS) >= PLANS_MAX:
            PRICERS.clear()
        found = PRICERS[key] = (s.content, Pricer(s, left, k))
    return found[1]


def reach_faces(s: BattleForgeState, area: str, long_reach: bool = False
                ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Standing Faces a Melee and a Ranged Attack reach from ``area`` (Attacking Thor; Ranged
    Attack: the Face toward the area and its neighbours, two more with Gunnar's skill)."""
    if not s.thor_adjacent(area):
        return (), ()
    d = s.board.direction(s.thor_area, area)
    if d is None:
        return (), ()
    faces = s.content.god.faces
    destroyed = s.thor["destroyed"]
    i = faces.index(s.face_at(d))
    melee = (faces[i],) if faces[i] not in destroyed else ()
    spread = 2 if long_reach else 1
    ranged = tuple(dict.fromkeys(
        faces[(i + j) % 6] for j in range(-spread, spread + 1)
        if faces[(i + j) % 6] not in destroyed))
    return melee, ranged


# ---------------------------------------------------------------------------- planning a turn
Rondel = tuple[int, ...]


def spread(cnt: Rondel, i: int) -> Rondel:
    """Cube counts after the Three Steps on space ``i``: its cubes go 1 by 1 clockwise."""
    out = list(cnt)
    n = out[i]
    out[i] = 0
    for j in range(1, n + 1):
        out[(i + j) % 6] += 1
    return tuple(out)


Reach = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""From one Area: the Faces a Melee and a Ranged Attack reach, and the minions they reach."""


class Planner:
    """The best use of a champion's remaining Actions this turn, in work units: move to an
    Area from which a pile reaches a standing Face or a minion, relocate cubes onto a pile,
    attack with it; the rondel left at the end is worth its next-round attack (:data:`NEXT`)."""

    NEXT_PILES: dict[tuple[Any, ...], tuple[tuple[int, int, int, float], ...]] = {}
    """The piles :meth:`_next_round` reads, in its order (Ranged, then Melee spaces), per
    signature: (place * 64, space, Boon bonus, share)."""

    def __init__(self, s: BattleForgeState, cid: str, pricer: Pricer, hp_price: float,
                 kills: dict[str, tuple[int, float, float]], later: float,
                 proto: tuple[Any, ...] | None = None) -> None:
        """``proto``: the champion's board, Boons and Attributes as :func:`plan_key` writes
        them and the Health price (rounded), under which the rest is kept per Thor
        (``Pricer.planners``)."""
        self.s = s
        self.later = later
        self.p = pricer
        self.kills = kills
        self.memo: dict[tuple[Any, ...], float] = {}
        self.reach_keys: dict[str, tuple[Any, ...]] = {}
        if proto is not None:
            found = pricer.planners.get(proto)
            if found is not None and found[-1] is not None and len(found[-1]) < PLANS_MAX:
                (self.hp, self.melee, self.ranged, self.bonus, self.bonus_items,
                 self.melee_bonus, self.ranged_bonus, self.piles, self.attack_space, self.red,
                 self.green, self.move_attr, self.next_faces, self.next_memo, self.pile_memo,
                 self.next_piles, self.fixed) = found
                return
        self._make(s, cid, pricer, hp_price)
        if proto is not None:
            if len(pricer.planners) >= PLANS_MAX:
                pricer.planners.clear()
            pricer.planners[proto] = (
                self.hp, self.melee, self.ranged, self.bonus, self.bonus_items,
                self.melee_bonus, self.ranged_bonus, self.piles, self.attack_space, self.red,
                self.green, self.move_attr, self.next_faces, self.next_memo, self.pile_memo,
                self.next_piles, self.fixed)

    def _make(self, s: BattleForgeState, cid: str, pricer: Pricer, hp_price: float) -> None:
        self.hp = round(hp_price, 1)
        c = s.champs[cid]
        (self.melee, self.ranged, self.bonus, self.bonus_items, self.melee_bonus,
         self.ranged_bonus, self.piles, self.attack_space) = _piles(s.content.boards[c.board],
                                                                    c.boons)
        self.red = c.attrs["red"]
        self.green = c.attrs["green"]
        self.move_attr = c.attrs["movement"]
        self.next_faces = tuple(f for f in s.content.god.faces if f not in s.thor["destroyed"])
        # everything next_round reads besides the rondel: its results are shared by every
        # plan with the same champion board, Boons, dice and Thor
        sig = (id(s.content), tuple(self.melee), tuple(self.ranged), self.bonus_items,
               self.red, self.green,
               self.hp, self.next_faces, pricer.left, pricer.k, pricer.counter)
        book = NEXT_ROUNDS.get(sig)
        if book is None or book[0] is not s.content:
            if len(NEXT_ROUNDS) >= PLANS_MAX:
                NEXT_ROUNDS.clear()
            book = NEXT_ROUNDS[sig] = (s.content, {}, {}, {})
        self.next_memo: dict[Rondel, float] = book[1]
        # A pile's share of its next-round attack, by the pile's place in next_piles and its
        # cubes (number * 64 + cubes: an int key keeps the dict out of the garbage
        # collector's way): what _next_round takes the best of, each computed once.
        self.pile_memo: dict[int, float] = book[3]
        self.next_piles = self.NEXT_PILES.get(sig)
        if self.next_piles is None:
            if len(self.NEXT_PILES) >= PLANS_MAX:
                self.NEXT_PILES.clear()
            self.next_piles = self.NEXT_PILES[sig] = tuple(
                (j * 64, i, bonus, share) for j, (i, bonus, share) in enumerate(
                    [(i, bonus, 1.0) for i, bonus in self.ranged_bonus]
                    + [(i, bonus, MELEE_SHARE) for i, bonus in self.melee_bonus]))
        # Plans that stay in one Area read, besides the signature, only what can be attacked
        # from it (the Faces, and the Health, worth and Counterattack of the minions): shared
        # by every plan with the same signature, whatever the rest of the board.
        self.fixed: dict[tuple[Any, ...], float] = book[2]
        if len(self.fixed) >= PLANS_MAX:
            self.fixed.clear()

    def reach_key(self, here: str, pos: Reach) -> tuple[Any, ...]:
        """What a plan that stays in ``here`` reads of the board."""
        found = self.reach_keys.get(here)
        if found is None:
            kills = self.kills
            found = self.reach_keys[here] = (self.later, pos[0], pos[1],
                                             tuple([kills[m] for m in pos[2]]),
                                             tuple([kills[m] for m in pos[3]]))
        return found

    def minion_value(self, mid: str, w: int, r: int, g: int) -> float:
        """A kill's worth times its chance, a wound's share of it, less the Counterattack."""
        kill_key = self.kills[mid]
        key = (kill_key, w, r, g, self.hp)
        memo = self.p.minion_memo
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._minion_value(kill_key, w, r, g)
        return found

    def _minion_value(self, kill_key: tuple[int, float, float], w: int, r: int, g: int
                      ) -> float:
        left, worth, counter = kill_key
        kill = wound = pc = 0.0
        for d, p, q in outcomes(*self.p.dice, w, r, g, ""):
            pc += q
            if d >= left:
                kill += p
            else:
                wound += p * d / left
        return (kill + WOUND_SHARE * wound) * worth - pc * counter * self.hp

    def attack_options(self, cnt: Rondel, pos: Reach, extra_red: int
                       ) -> list[tuple[float, int]]:
        out = []
        r = self.red + extra_red
        g = self.green
        hp = self.hp
        p = self.p
        best_get = p.memo.get  # p.best, its memo read here
        minion_get = p.minion_memo.get  # self.minion_value, its memo read here
        kills = self.kills
        for piles, faces, minions in ((self.melee_bonus, pos[0], pos[2]),
                                      (self.ranged_bonus, pos[1], pos[3])):
            if not faces and not minions:
                continue
            for i, bonus in piles:
                n = cnt[i]
                if n:
                    w = n + bonus
                    v = best_get((faces, w, r, g, hp))
                    if v is None:
                        v = p.best(faces, w, r, g, hp)
                    for mid in minions:
                        m = minion_get((kills[mid], w, r, g, hp))
                        if m is None:
                            m = self.minion_value(mid, w, r, g)
                        if m > v:  # max(v, m): the first of equals
                            v = m
                    out.append((v, i))
        return out

    def next_round(self, cnt: Rondel) -> float:
        """A pile's worth next round, wherever Thor then stands: the best Face a Ranged pile
        could reach, a Melee pile at a share (it reaches one Face of three)."""
        found = self.next_memo.get(cnt)
        if found is None:
            found = self.next_memo[cnt] = self._next_round(cnt)
        return found

    def _next_round(self, cnt: Rondel) -> float:
        best = 0.0
        memo = self.pile_memo
        for j, i, bonus, share in self.next_piles:
            n = cnt[i]
            if n:
                v = memo.get(j + n)
                if v is None:
                    v = memo[j + n] = self._pile_next(n + bonus, share)
                if v > best:  # max(best, v)
                    best = v
        return best

    def _pile_next(self, w: int, share: float) -> float:
        """A pile of ``w`` white dice's share of its best attack on a standing Face."""
        return share * self.p.best(self.next_faces, w, self.red, self.green, self.hp)

    def next_round_plain(self, cnt: Rondel) -> float:
        """:meth:`_next_round` without its memos (what tests compare it with)."""
        best = 0.0
        faces = self.next_faces
        for piles, share in ((self.ranged_bonus, 1.0), (self.melee_bonus, MELEE_SHARE)):
            for i, bonus in piles:
                if cnt[i]:
                    w = cnt[i] + bonus
                    v = share * self.p.best(faces, w, self.red, self.green, self.hp)
                    if v > best:  # max(best, v)
                        best = v
        return best

    def value(self, cnt: Rondel, r: int, here: str, extra_red: int,
              positions: dict[str, Reach], moves: dict[str, int], movable: bool) -> float:
        """Best worth of ``r`` Actions left from Area ``here``."""
        if r <= 0:
            # No Action left: the piles' worth next round, wherever the champion stands (what
            # the memo below would keep for any Area).
            found = self.next_memo.get(cnt)
            if found is None:
                found = self.next_round(cnt)
            return self.later * found
        pos = positions.get(here, NOWHERE)
        if movable:
            memo = self.memo
            key: tuple[Any, ...] = (cnt, r, here, extra_red)
        else:
            memo = self.fixed
            key = (self.reach_key(here, pos), cnt, r, extra_red)
        found = memo.get(key)
        if found is not None:
            return found
        nr = self.next_memo.get(cnt)
        if nr is None:
            nr = self.next_round(cnt)
        best = self.later * nr
        if r > 0:
            # (Each ``if x > best: best = x`` is ``best = max(best, x)``.)
            # sorted(self.attack_options(...), reverse=True)[:2]: the two best (value, space)
            opts = self.attack_options(cnt, pos, extra_red)
            if len(opts) > 2:
                top = max(opts)
                opts.remove(top)
                opts = [top, max(opts)]
            elif len(opts) == 2 and opts[0] < opts[1]:
                opts.reverse()
            next_get = self.next_memo.get
            later = self.later
            # the rondels one Action leads to from cnt, kept (see RONDELS)
            steps = RONDELS.get(cnt)
            if steps is None:
                if len(RONDELS) >= PLANS_MAX:
                    RONDELS.clear()
                steps = RONDELS[cnt] = [None] * 12
            for v, i in opts:
                if v > 0:
                    after = steps[i]
                    if after is None:
                        after = steps[i] = spread(cnt, i)
                    if r == 1:
                        # value(..., 0, ...) inline: the piles' worth next round
                        nr = next_get(after)
                        if nr is None:
                            nr = self.next_round(after)
                        x = v + later * nr
                    else:
                        x = v + self.value(after, r - 1, here, 0, positions, moves, False)
                    if x > best:
                        best = x
            # Relocate 2 cubes onto the best pile, from the smallest other spaces.
            if opts:
                i = opts[0][1]
            else:
                piles = [j for j in self.piles if cnt[j]]
                i = max(piles, key=cnt.__getitem__) if piles else -1
            if i >= 0:
                after = steps[6 + i]
                if after is None:
                    after = steps[6 + i] = relocated(cnt, i)
                if after:
                    if r == 1:
                        nr = next_get(after)
                        if nr is None:
                            nr = self.next_round(after)
                        x = later * nr
                    else:
                        x = self.value(after, r - 1, here, extra_red, positions, moves, False)
                    if x > best:
                        best = x
            if movable and r >= 2:
                # One Move Action to an Area to attack from: the smallest space that is
                # enough (a Move Action gives the space's cubes plus the Movement Attribute,
                # minimum 1, in Movement Points); among equals the first space that is not a
                # Melee or Ranged pile, else the first.
                attack = self.attack_space
                for target, dist in moves.items():
                    need = max(1, dist - self.move_attr)
                    j = -1
                    jk = (0, False)
                    for k in range(6):
                        n = cnt[k]
                        if n >= need and (j < 0 or (n, attack[k]) < jk):
                            j, jk = k, (n, attack[k])
                    if j < 0:
                        continue
                    after = steps[j]
                    if after is None:
                        after = steps[j] = spread(cnt, j)
                    x = self.value(after, r - 1, target, extra_red, positions, moves, False)
                    if x > best:
                        best = x
        memo[key] = best
        return best


NOWHERE: Reach = ((), (), (), ())

RONDELS: dict[Rondel, list[Any]] = {}
"""Per rondel (cube counts): the counts after the Three Steps on each space (:func:`spread`,
places 0-5) and after relocating 2 cubes onto each space (:func:`relocated`, places 6-11;
``()`` when no cube moves), each worked out when first asked (read only)."""


def relocated(cnt: Rondel, i: int) -> Rondel:
    """Cube counts after relocating 2 cubes onto space ``i`` from the smallest other spaces
    (``()`` if no other space has a cube)."""
    donors = sorted([j for j in range(6) if j != i and cnt[j]], key=cnt.__getitem__)
    out = list(cnt)
    moved = 0
    for j in donors:
        while out[j] and moved < 2:
            out[j] -= 1
            out[i] += 1
            moved += 1
    return tuple(out) if moved else ()

_PILES: dict[tuple[Any, ...], tuple[Any, ...]] = {}
"""What :class:`Planner` reads of a champion board and its Boons (see :func:`_piles`)."""


def _piles(board: Any, boons: list[dict[str, Any] | None]) -> tuple[Any, ...]:
    """Of a champion board with these Boons: its Melee and Ranged spaces (lists), each space's
    Boon bonus per attack (what ``boon_bonus`` gives; a dict and its items), the Melee and
    Ranged spaces with their bonus, the piles (Ranged then Melee spaces) and whether each
    space is a pile; kept per board and Boons (read only)."""
    key = (id(board), *[(b["level"], b["symbol"]) if b else None for b in boons])
    found = _PILES.get(key)
    if found is None or found[0] is not board:
        melee = list(_icon_spaces(board, "melee"))
        ranged = list(_icon_spaces(board, "ranged"))
        bonus = {}
        for i, b in enumerate(boons):
            for k in ("melee", "ranged"):
                bonus[(i, k)] = b["level"] if b and b["symbol"] == k else 0
        if len(_PILES) >= PLANS_MAX:
            _PILES.clear()
        found = _PILES[key] = (board, (
            melee, ranged, bonus, tuple(bonus.items()),
            tuple((i, bonus[(i, "melee")]) for i in melee),
            tuple((i, bonus[(i, "ranged")]) for i in ranged),
            (*ranged, *melee), tuple(j in ranged or j in melee for j in range(6))))
    return found[1]  # type: ignore[no-any-return]


def kill_values(s: BattleForgeState, sides: dict[int, Any] | None = None
                ) -> dict[str, tuple[int, float, float]]:
    """Per active minion: (Health left, worth of destroying it, its Counterattack): the Fury
    it gives and the Point of Interest hunter it removes (a champion hunter stands up again
    soon: counting the Damage it would not deal made the champions chase kills instead of
    Thor). ``sides`` is :func:`minion_sides` of ``s`` when the caller has it."""
    if sides is None:
        sides = minion_sides(s)
    out = {}
    hunt = s.scenario_poi == "flame"
    for m in s.minions.values():
        if m.area is None:
            continue
        side = sides[m.type]
        worth = FURY_VALUE * side.fury
        if side.target != "champions" and hunt:
            worth += MINION_VALUE * (side.health - m.damage)
        out[m.id] = (side.health - m.damage, worth, float(side.counter))
    return out


def minion_sides(s: BattleForgeState) -> dict[int, Any]:
    """The side up of each type's Minion card."""
    return {k: s.minion_side(k) for k in (1, 2, 3)}


def reach_from(s: BattleForgeState, area: str, long_reach: bool) -> Reach:
    """What a champion in ``area`` can attack: Faces of Thor and minions."""
    melee, ranged = reach_faces(s, area, long_reach)
    near = {area, *s.board.adjacent(area)}
    here = tuple(m.id for m in s.minions.values() if m.area == area)
    around = tuple(m.id for m in s.minions.values() if m.area in near)
    return melee, ranged, here, around


NEXT_ROUNDS: dict[tuple[Any, ...], tuple[Any, dict[Rondel, float]]] = {}
""":meth:`Planner.next_round` by everything it reads but the rondel (the content kept alive
with its results, so that its id stays its own)."""
PLANS: dict[tuple[int, int], tuple[Any, Any, dict[tuple[Any, ...], dict[Any, Any]]]] = {}
"""Plans already made per content and map (kept alive here, so their ids stay theirs), by
everything a plan reads (Thor, the minions and the round first, then the champion's board and
turn): a search evaluates the same champion in the same position many times."""
PLANS_MAX = 50_000


def plan_book(s: BattleForgeState, pricer: Pricer, kills: dict[str, tuple[int, float, float]],
              figures: tuple[tuple[Any, ...], ...] | None = None,
              kill_items: tuple[Any, ...] | None = None) -> dict[Any, Any]:
    """The plans already made (:data:`PLANS`) in positions that share with ``s`` everything a
    plan reads but the champion's own board and turn: Thor, the minions, the last round."""
    book = PLANS.get((id(s.content), id(s.board)))
    if book is None:
        book = PLANS[(id(s.content), id(s.board))] = (s.content, s.board, {})
    t = s.thor
    if figures is None:
        figures = tuple([(m.area, m.damage, m.type) for m in s.minions.values()])
    common = (pricer.left, t["area"], t["rot"], t["activated"], figures,
              tuple(kills.items()) if kill_items is None else kill_items, last_round(s))
    books = book[2]
    plans = books.get(common)
    if plans is None:
        if len(books) >= PLANS_MAX // 8:
            books.clear()
        # The plans, and under the key None what can be attacked from each Area
        # (reach_from reads only Thor, the minions and the map, all in the key).
        plans = books[common] = {None: {}}
    return plans


def turn_plan(s: BattleForgeState, cid: str, pricer: Pricer, prices: dict[str, float],
              kills: dict[str, tuple[int, float, float]], actions: int,
              plans: dict[Any, Any] | None = None, key: tuple[Any, ...] | None = None
              ) -> float:
    """The worth champion ``cid`` can expect from ``actions`` Actions from the current
    position this turn (and their piles' worth next round); ``plans`` is the position's
    :func:`plan_book` and ``key`` the plan's :func:`plan_key` when the caller has them
    already."""
    if plans is None:
        plans = plan_book(s, pricer, kills)
    if key is None:
        c = s.champs[cid]
        current = s.phase == "champions" and s.current() == cid
        key = plan_key(s, cid, tuple([len(sp) for sp in c.rondel]), actions,
                       round(prices[cid], 1), current)
    found = plans.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    if len(plans) >= PLANS_MAX:
        plans.clear()
        plans[None] = {}
    found = plans[key] = _turn_plan(s, cid, pricer, prices, kills, actions, plans[None],
                                    (s.champs[cid].board, key[4], key[5], key[6]))
    return found


def plan_key(s: BattleForgeState, cid: str, cnt: Rondel, actions: int, price: float,
             current: bool) -> tuple[Any, ...]:
    """Everything a plan of champion ``cid`` reads besides its plan book: the champion's
    cube counts ``cnt``, Area, Actions left, Boons, Attributes and Health price (rounded),
    and for the current champion the turn's Move and skill effects."""
    c = s.champs[cid]
    turn = s.turn
    return (cid, cnt, c.area, actions, tuple([tuple(b.values()) if b else () for b in c.boons]),
            tuple(c.attrs.values()), price,
            (turn.get("long_reach"), turn.get("add_red"), turn.get("moving"),
             turn.get("move")) if current else None)


def last_round(s: BattleForgeState) -> bool:
    """Is this the last Champions Phase (the next advance of the Twilight marker reaches the
    last space of the Rounds track and loses)?"""
    return s.phase == "champions" and s.twilight >= len(s.content.round_track) - 2


def _turn_plan(s: BattleForgeState, cid: str, pricer: Pricer, prices: dict[str, float],
               kills: dict[str, tuple[int, float, float]], actions: int,
               reaches: dict[Any, Any], proto: tuple[Any, ...] | None = None) -> float:
    """``reaches`` (the plan book's entry None) keeps what can be attacked from each Area,
    and each plan's Areas to act from (:func:`_plan_areas`)."""
    c = s.champs[cid]
    p = Planner(s, cid, pricer, prices[cid], kills, 0.0 if last_round(s) else NEXT / NOW,
                proto)
    cnt = tuple([len(sp) for sp in c.rondel])
    if actions <= 0:
        return p.later * p.next_round(cnt)
    current = s.phase == "champions" and s.current() == cid
    long_reach = current and bool(s.turn.get("long_reach"))
    extra_red = int(s.turn.get("add_red", 0)) if current else 0
    moving = current and s.turn.get("moving")
    # Everything _plan_areas reads is in the plan book's key but the champion's Area and the
    # turn's reach and Move: kept in the book by those.
    akey = ("areas", c.area, long_reach, bool(moving), s.turn.get("move", 0) if moving else 0)
    found = reaches.get(akey)
    if found is None:
        found = reaches[akey] = _plan_areas(s, c.area, long_reach, bool(moving), reaches)
    positions, moves, free = found
    return max(p.value(cnt, actions, a, extra_red, positions, moves, bool(moves))
               for a in free)


def _plan_areas(s: BattleForgeState, here: str, long_reach: bool, moving: bool,
                reaches: dict[Any, Any]) -> tuple[dict[str, Reach], dict[str, int], list[str]]:
    """For a champion in ``here``: what can be attacked from each Area worth acting from,
    the Move Actions to them (Areas walked, with the minions to leave), and the Areas to act
    from without an Action (``here``, and with a Move Action under way those its points
    reach). Read only once made."""
    targets = {m.area for m in s.minions.values() if m.area is not None}
    if s.thor["activated"]:
        targets.update(s.board.adjacent(s.thor_area))
    targets.discard(s.thor_area)
    def reach(a: str) -> Reach:
        found = reaches.get((a, long_reach))
        if found is None:
            found = reaches[(a, long_reach)] = reach_from(s, a, long_reach)
        return found

    positions: dict[str, Reach] = {here: reach(here)}
    moves: dict[str, int] = {}
    free = [here]
    dist = s.board.walking(here, s.thor_area)
    leave = [m.area for m in s.minions.values()].count(here)
    for a in targets:
        d = dist.get(a)
        if d is None or a == here or d + leave > MOVE_REACH:
            continue
        pos = reach(a)
        if not any(pos):
            continue
        positions[a] = pos
        if moving:
            # Reachable with this Move Action's points: no Action needed.
            if d + leave <= s.turn.get("move", 0):
                free.append(a)
        else:
            moves[a] = int(d) + leave
    return positions, moves, free


# ---------------------------------------------------------------------------- the rest
def dice_damage(dice: list[list[str]]) -> int:
    return sum(1 if d[1] == "damage" else 2 if d[1] == "double" else 0 for d in dice)


def attack_in_progress(s: BattleForgeState, pricer: Pricer) -> tuple[float, float] | None:
    """(expected work removed, chance of a Counterattack) of the attack being resolved on a
    Face of Thor, from its dice once rolled, else from its pool; ``None`` for no attack on
    Thor."""
    a = s.atk
    if not a or not a["target"].startswith("thor-"):
        return None
    face = a["target"][5:]
    faces = s.content.god.faces
    i = faces.index(face)
    if pricer.left[i] <= 0:
        return 0.0, 0.0
    if not a.get("dice"):
        # Not rolled yet: the champion will roll the best part of the pool, Counterattack
        # priced in.
        c = s.champs[a["c"]]
        price = health_price(c.health, not s.marker_red)
        return pricer.face_value(face, a["white"], a["red"], a["green"], price), 0.0
    faces_rolled = [d[1] for d in a["dice"]]
    stage = a.get("stage")
    dmg = dice_damage(a["dice"])
    counter = "counter" in faces_rolled
    if stage in ("manage", "pick", "window", "effects"):
        # The Face's own dice effect is still to come.
        if face == "red":
            wr = [FACE_SIDES.get(d[1], (0, 0))[0] for d in a["dice"] if d[0] in ("white", "red")]
            if wr:
                dmg -= min(wr)
                counter = True
        elif face == "blue":
            dmg += faces_rolled.count("counter")
            counter = False
    if face == "green":
        counter = False
    net = max(0, dmg - pricer.k)
    if face == "yellow":
        net = min(net, 2)
    left = list(pricer.left)
    rest = left[i] - net
    left[i] = max(0, rest)
    gain = work_of(pricer.left, pricer.k) - work_of(tuple(left),
                                                    pricer.k + (1 if rest <= 0 else 0))
    return gain, 1.0 if counter else 0.0


def minion_in_progress(s: BattleForgeState) -> tuple[str, float, float] | None:
    """(minion, expected Damage, chance of a Counterattack) of an attack on a minion."""
    a = s.atk
    if not a or a["target"] not in s.minions:
        return None
    if a.get("dice"):
        return a["target"], float(dice_damage(a["dice"])), \
            1.0 if any(d[1] == "counter" for d in a["dice"]) else 0.0
    dice = dice_faces(s)
    total = 0.0
    counter = 0.0
    for d, p, pc in outcomes(*dice, a["white"], a["red"], a["green"], ""):
        total += d * p
        counter += pc
    return a["target"], total, counter


def health_worth(h: float, grey: bool) -> float:
    """A champion's Health in work units: nearly linear, less a Knockout's threat that grows
    near 0 (three times as fast once one more Knockout loses)."""
    h = max(0.0, min(h, 15.0))
    ko = HEALTH_KO * (GREY_FACTOR if grey else 1.0)
    return HEALTH_LINEAR * h - ko * math.exp(-h / HEALTH_SCALE)


def health_price(h: float, grey: bool) -> float:
    """The work worth of one Health Point at Health ``h`` (the slope of :func:`health_worth`)."""
    h = max(0.0, h)
    ko = HEALTH_KO * (GREY_FACTOR if grey else 1.0)
    return HEALTH_LINEAR + ko / HEALTH_SCALE * math.exp(-h / HEALTH_SCALE)


def defense_blocks(s: BattleForgeState) -> dict[str, int]:
    """Per champion: the most Damage their best Defense space blocks (its cubes and Boon)."""
    out = {}
    boards = s.content.boards
    for cid, c in s.champs.items():
        rondel = c.rondel
        boons = c.boons
        best = 0
        for i in _icon_spaces(boards[c.board], "defense"):
            n = len(rondel[i])
            if n:
                b = boons[i]
                if b and b["symbol"] == "defense":
                    n += b["level"]
                if n > best:
                    best = n
        out[cid] = best
    return out


_ICON_SPACES: dict[tuple[int, str], tuple[Any, tuple[int, ...]]] = {}
"""The rondel spaces of a champion board that show an icon (the board kept alive with them, so
that its id stays its own)."""


def _icon_spaces(board: Any, icon: str) -> tuple[int, ...]:
    """The spaces (0-based) of champion board ``board`` that show ``icon``."""
    found = _ICON_SPACES.get((id(board), icon))
    if found is None or found[0] is not board:
        found = _ICON_SPACES[(id(board), icon)] = (
            board, tuple(i for i in range(6) if icon in board.rondel[i]))
    return found[1]


def pending_losses(s: BattleForgeState, blocks: dict[str, int] | None = None
                   ) -> dict[str, float]:
    """Health each champion is about to lose: Damage and Health losses queued but not yet
    resolved (a Defense Reaction may still block Damage, by the best defense space), and 2
    for every Frost Cube held (Frost Cubes cost 2 Health when used or at Frostbite);
    ``blocks`` is :func:`defense_blocks` of ``s`` when the caller has it."""
    out: dict[str, float] = {}
    for cid, c in s.champs.items():
        frost = c.centre.count("f")
        for sp in c.rondel:
            if "f" in sp:
                frost += sp.count("f")
        if frost:
            out[cid] = 2.0 * frost
    for t in s.tasks:
        kind = t.get("t")
        if kind != "damage" and kind != "lose":
            continue
        cid = t.get("c")
        if cid not in s.champs:
            continue
        n = float(t.get("n", 0))
        if kind == "damage" and t.get("stage", 0) < 2:
            if blocks is None:
                blocks = defense_blocks(s)
            n = max(0.0, n - blocks[cid])
        out[cid] = out.get(cid, 0.0) + n
    return out


def exposure(s: BattleForgeState, sides: dict[int, Any] | None = None,
             blocks: dict[str, int] | None = None) -> dict[str, float]:
    """Damage each champion can expect in the coming Ironborn Phase beyond what their best
    Defense space blocks: Thor's attack when next to him (the God cards strike the Areas
    around him) and every champion-hunting minion that reaches them with its Actions (Minion
    Attacks: the closest Champion, ties to the one who took their Turn first)."""
    if sides is None:
        sides = minion_sides(s)
    if blocks is None:
        blocks = defense_blocks(s)
    out = {}
    for cid, hs in _hits(s, sides).items():
        if hs:
            out[cid] = sum(hs) - min(blocks[cid], max(hs))
        else:
            out[cid] = 0 - min(blocks[cid], 0.0)
    return out



def _hits(s: BattleForgeState, sides: dict[int, Any]) -> dict[str, list[float]]:
    """The hits each champion can expect in the coming Ironborn Phase, before Defense (see
    :func:`exposure`): Thor's 3 when next to him, and each champion-hunting minion's Damage
    (+2 for Frost) on the closest champion it reaches, ties to the one who took their Turn
    first."""
    hits: dict[str, list[float]] = {c: [] for c in s.order}
    champs = s.champs
    if s.thor["activated"]:
        near = s.board.adjacent(s.thor_area)
        for cid in s.order:
            if champs[cid].area in near:
                hits[cid].append(3.0)
    seats = [(cid, champs[cid].area) for cid in s.turn_order()]
    walking = s.board.walking
    for m in s.minions.values():
        if m.area is None:
            continue
        side = sides[m.type]
        if side.target == "poi":
            continue
        dist = walking(m.area)
        reach = side.actions - 1 + max(side.range, 0)
        best_d = -1.0
        best_c = ""
        for cid, area in seats:
            d = dist.get(area)
            if d is not None and d <= reach and (best_c == "" or d < best_d):
                best_d, best_c = d, cid
        if best_c:
            hits[best_c].append(float(side.damage) + (2.0 if side.special == "frost" else 0.0))
    return hits


def poi_left(s: BattleForgeState) -> int:
    """Points of Interest still protecting the party: Heat and Sacred Flame tokens (The Last
    Flame) or Unlit Furnaces (Forge of Doom)."""
    if s.scenario_poi == "flame":
        kinds = list(s.tokens.values())
        return kinds.count("heat") + kinds.count("flame")
    return list(s.furnaces.values()).count(0)


def fury_worth(s: BattleForgeState, cid: str) -> float:
    """Fury gained, counting the Berserker track on from 8."""
    c = s.champs[cid]
    return float(c.fury)


DISTANCES: dict[tuple[int, str, str], tuple[Any, float]] = {}
""":func:`thor_distance` per map (kept alive with it), area and Thor's Area."""


def thor_distance(board: Any, area: str, thor: str) -> float:
    """Areas a champion in ``area`` walks to stand next to Thor in ``thor`` (20: none)."""
    key = (id(board), area, thor)
    found = DISTANCES.get(key)
    if found is None or found[0] is not board:
        dist = board.walking(area, thor)
        found = DISTANCES[key] = (board, min((dist.get(a, 20) for a in board.adjacent(thor)),
                                             default=20))
    return found[1]


def forget() -> None:
    """Drop everything the evaluation remembers across positions (plans, prices, dice
    outcomes, distances): the next evaluations compute afresh (tests compare the two)."""
    for memo in (PLANS, NEXT_ROUNDS, PRICERS, DISTANCES, _PILES, _ICON_SPACES, BOARDS,
                 Planner.NEXT_PILES, RONDELS):
        memo.clear()
    for f in (outcomes, _dist, thor_work, _best_table, _gains, _removed, _nets):
        f.cache_clear()


def evaluate(s: BattleForgeState) -> float:
    """The party's prospects, 0 (lost) to 1 (won); reads the whole (determinized) state."""
    o = s.outcome()
    if o.over:
        return 1.0 if o.result == "win" else 0.0
    return max(0.01, min(0.99, worth(s) / SCALE))


BOARDS: dict[tuple[int, int], tuple[Any, Any, dict[tuple[Any, ...], BoardParts],
                                   dict[tuple[bool, ...], dict[int, Any]]]] = {}
"""Per game's Minion cards and map (kept alive here, so that their ids stay theirs), by the
minions' figures, the Minion cards' sides, Thor's Area and activation and the champions'
Areas and order: what :func:`worth` reads of them (:class:`BoardParts`); and the Minion
cards' sides by the Overheated flags."""
BOARDS_MAX = 4096


class BoardParts:
    """What :func:`worth` computes from the minions, the Minion cards' sides, Thor's Area and
    activation and the champions' Areas and order alone: each active minion's
    :func:`kill_values`, the hunters of the Points of Interest (without an attack on a minion
    in progress), each champion's :func:`exposure` before their Defense (the sum and the
    largest of the hits), the closeness to Thor, and the plan books (:func:`plan_book`) by
    Thor's Faces, facing and the last round. Read only once made."""

    __slots__ = ("kills", "hunters", "hits", "position", "books", "figures", "kill_items")

    def __init__(self, s: BattleForgeState, sides: dict[int, Any],
                 figures: tuple[tuple[Any, ...], ...]) -> None:
        kills = kill_values(s, sides)
        hunters = 0.0
        for m in s.minions.values():
            if m.area is not None:
                side = sides[m.type]
                if side.target != "champions":
                    hunters -= MINION_VALUE * max(0.0, side.health - m.damage)
        self.kills = kills
        self.kill_items = tuple(kills.items())
        self.hunters = hunters
        self.figures = figures
        # exposure(s) before the blocks: per champion the sum and the largest of the hits
        hits = _hits(s, sides)
        champs = s.champs
        self.hits = {cid: (sum(hs), max(hs)) for cid, hs in hits.items() if hs}
        position = 0.0
        if s.thor["activated"]:
            for cid in s.order:
                position += POSITION_VALUE * (1 - min(thor_distance(s.board, champs[cid].area,
                                                                    s.thor_area),
                                                      POSITION_RANGE) / POSITION_RANGE)
        self.position = position
        self.books: dict[tuple[Any, ...], dict[Any, Any]] = {}


def board_of(s: BattleForgeState) -> tuple[BoardParts, dict[int, Any]]:
    """The :class:`BoardParts` of ``s`` (shared by every position with the same figures),
    and :func:`minion_sides` of ``s`` (kept per game's Minion cards and Overheated flags)."""
    cards = s._cards
    memo = BOARDS.get((id(cards), id(s.board)))
    if memo is None or memo[0] is not cards or memo[1] is not s.board:
        if len(BOARDS) >= 64:
            BOARDS.clear()
        memo = BOARDS[(id(cards), id(s.board))] = (cards, s.board, {}, {})
    over = s.overheated
    over_t = (over["1"], over["2"], over["3"])
    sides = memo[3].get(over_t)
    if sides is None:
        sides = memo[3][over_t] = {k: cards[k].overheated if over[str(k)] else cards[k].standard
                                   for k in (1, 2, 3)}
    boards = memo[2]
    figures = tuple([(m.area, m.damage, m.type) for m in s.minions.values()])
    champs = s.champs
    th = s.thor
    key = (figures, over_t, th["area"], th["activated"], s.first,
           tuple([(cid, champs[cid].area) for cid in s.order]))
    found = boards.get(key)
    if found is None:
        if len(boards) >= BOARDS_MAX:
            boards.clear()
        found = boards[key] = BoardParts(s, sides, figures)
    return found, sides


def worth(s: BattleForgeState, parts: dict[str, float] | None = None) -> float:
    """The position in work units (see the module's docstring); ``parts`` (if given)
    receives the share of each part. (The same sums in the same order as
    tests' ``worth_plain``, what the minions, Thor's Area and the champions' Areas decide read
    from the position's :class:`BoardParts`.)"""
    grey = not s.marker_red
    pricer = pricer_of(s)
    out = {} if parts is None else parts
    w0 = thor_work(tuple([s.face_health()] * 6), 0)
    work = pricer.work
    counter_risk: dict[str, float] = {}
    atk = s.atk
    pending = attack_in_progress(s, pricer) if atk else None
    if pending is not None:
        gain, counter = pending
        work -= gain
        counter_risk[atk["c"]] = counter * s.content.god.counter
    board, sides = board_of(s)  # and minion_sides(s)
    hit = minion_in_progress(s) if atk else None
    if hit is not None:
        side = sides[s.minions[hit[0]].type]
        counter_risk[atk["c"]] = hit[2] * side.counter
    out["thor"] = w0 - work

    # defense_blocks(s), each champion's cube counts (which plan_key reads) and
    # pending_losses(s, blocks): the Frost Cubes here, the queued losses below
    blocks = {}
    counts = {}
    losses: dict[str, float] = {}
    champs = s.champs
    boards = s.content.boards
    for cid, c in champs.items():
        rondel = c.rondel
        cnt = counts[cid] = tuple(map(len, rondel))
        frost = c.centre.count("f")
        for sp in rondel:
            if "f" in sp:
                frost += sp.count("f")
        if frost:
            losses[cid] = 2.0 * frost
        boons = c.boons
        best = 0
        for i in _icon_spaces(boards[c.board], "defense"):
            n = cnt[i]
            if n:
                b = boons[i]
                if b and b["symbol"] == "defense":
                    n += b["level"]
                if n > best:
                    best = n
        blocks[cid] = best
    for task in s.tasks:
        kind = task.get("t")
        if kind != "damage" and kind != "lose":
            continue
        cid = task.get("c")
        if cid not in champs:
            continue
        n = float(task.get("n", 0))
        if kind == "damage" and task.get("stage", 0) < 2:
            n = max(0.0, n - blocks[cid])
        losses[cid] = losses.get(cid, 0.0) + n
    hits = board.hits
    prices = {}
    health = fury = 0.0
    for cid in s.order:
        c = champs[cid]
        found = hits.get(cid)
        # exposure(s)[cid]
        threat = found[0] - min(blocks[cid], found[1]) if found else 0 - min(blocks[cid], 0.0)
        h = c.health - counter_risk.get(cid, 0.0) - losses.get(cid, 0.0) - \
            EXPOSURE_WEIGHT * threat
        health += health_worth(h, grey)
        prices[cid] = health_price(c.health, grey)
        fury += FURY_VALUE * float(c.fury)  # fury_worth
    out["health"] = health
    out["fury"] = fury
    out["spare"] = 0.0 if grey else SPARE_LIFE

    kills = board.kills
    if hit is None:
        hunters = board.hunters
    else:
        hunters = 0.0
        for m in s.minions.values():
            if m.area is None:
                continue
            side = sides[m.type]
            if side.target != "champions":
                dmg = m.damage + (hit[1] if hit[0] == m.id else 0.0)
                hunters -= MINION_VALUE * max(0.0, side.health - dmg)

    # What the champions can still do: this round's remaining turns, then the next round.
    plans = 0.0
    last = last_round(s)
    t = s.thor
    bkey = (pricer.left, t["rot"], last)
    book = board.books.get(bkey)
    if book is None:
        book = board.books[bkey] = plan_book(s, pricer, kills, board.figures,
                                             board.kill_items)
    if s.phase == "champions":
        order = s.turn_order()
        pos = min(s.turn_pos, len(order) - 1)
        now = order[pos]  # s.current()
        for j, cid in enumerate(order):
            if j < pos or (j == pos and s.turn.get("over")):
                actions = 0
            elif j == pos:
                actions = int(s.turn.get("actions", 0))
            else:
                actions = 3
            key = plan_key(s, cid, counts[cid], actions, round(prices[cid], 1), cid == now)
            found = book.get(key)
            if found is None:
                found = turn_plan(s, cid, pricer, prices, kills, actions, book, key)
            plans += NOW * found
    else:
        for cid in s.order:
            key = plan_key(s, cid, counts[cid], 0, round(prices[cid], 1), False)
            found = book.get(key)
            if found is None:
                found = turn_plan(s, cid, pricer, prices, kills, 0, book, key)
            plans += NOW * found
    out["plans"] = plans

    # Points of Interest, and the minions that hunt them.
    out["poi"] = POI_VALUE * (1 - math.exp(-poi_left(s) / POI_SCALE))
    out["hunters"] = hunters

    # Closeness to Thor for the next round.
    out["position"] = board.position

    limit = len(s.content.round_track) - 1
    out["time"] = ROUND_VALUE * max(0, limit - s.twilight)
    if last:
        # Only destroying Thor this round can win now.
        for k in out:
            if k not in ("thor", "plans"):
                out[k] *= LAST_ROUND_SHARE
    return sum(out.values())


def order_actions(s: BattleForgeState, actions: list[Action]) -> list[Action]:
    """Attacks (on Thor's Faces first), skills, healing, rituals, moves, then the rest."""
    def key(a: Action) -> tuple[int, int]:
        words = a.text.split()
        rank = ORDER.get(words[0], 7) if words else 7
        face = 0 if " at Thor's " in a.text else 1
        return rank, face

    return sorted(actions, key=key)


def measures(s: BattleForgeState) -> dict[str, Any]:
    """Rounds; Thor's Faces destroyed and Health left, active minions, rounds short of the
    limit, knockouts, Points of Interest left; on a loss its trigger, final blow and margins."""
    hp = s.face_health()
    limit = len(s.content.round_track) - 1
    destroyed = len(s.thor["destroyed"])
    thor_left = sum(0 if f in s.thor["destroyed"] else hp - s.thor["damage"][f]
                    for f in s.content.god.faces)
    out: dict[str, Any] = {
        "rounds": min(s.round, limit),
        "faces_destroyed": destroyed,
        "thor_health_left": thor_left,
        "minions_left": sum(1 for m in s.minions.values() if m.area is not None),
        "rounds_short": max(0, limit - s.round),
        "knockouts": s.knockouts,
        "poi_left": poi_left(s),
    }
    o = s.outcome()
    if o.result == "loss":
        end = s.end or {}
        if s.conceded is not None:
            end = {"trigger": "conceded", "final_blow": None}
        out["trigger"] = end.get("trigger", "defeat")
        out["final_blow"] = end.get("final_blow")
        if end.get("advanced_by"):
            # a Knockout moved the Twilight marker onto the last space: what knocked out
            out["time_out_advanced_by"] = end["advanced_by"]
        out["margin_faces_left"] = 6 - destroyed
        out["margin_thor_health_left"] = thor_left
        out["margin_rounds_left"] = max(0, limit - s.round)
        out["margin_poi_left"] = poi_left(s)
    return out


def health_left(s: BattleForgeState) -> dict[str, float]:
    """Each champion's Health and, under ``enemies``, Thor's Health left on his standing
    Faces plus the active minions' Health left, for the lab's damage dealt and taken."""
    out: dict[str, float] = {cid: float(max(0, c.health)) for cid, c in s.champs.items()}
    hp = s.face_health()
    thor = sum(0 if f in s.thor["destroyed"] else hp - s.thor["damage"][f]
               for f in s.content.god.faces)
    minions = sum(max(0, s.minion_side(m.type).health - m.damage) for m in s.minions.values()
                  if m.area is not None)
    out["enemies"] = float(thor + minions)
    return out
