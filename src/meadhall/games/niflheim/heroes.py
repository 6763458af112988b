"""Hero activation: intent, movement actions and their MP costs, special actions, locked heroes
(Action Phase, Movement - Heroes, Movement Actions (MA) - MP Cost, Special Actions)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from meadhall.core import grid
from meadhall.core.errors import IllegalAction
from meadhall.core.grid import Sq
from meadhall.core.protocol import Event
from meadhall.games.niflheim import combat, skills, undead
from meadhall.games.niflheim import sections as S
from meadhall.games.niflheim.board import BLOCKS_MOVE, Board, name, sq
from meadhall.games.niflheim.figures import INTENTS, MP, Hero
from meadhall.games.niflheim.names import SUPPLY, SUPPLY_ID, names
from meadhall.games.niflheim.rolls import d12
from meadhall.games.niflheim.undead import reveal, zoc

if TYPE_CHECKING:
    from meadhall.games.niflheim.state import NiflheimState

DOOR_COST = {"normal": 1, "increased": 2}
PICKUP_COST = {"normal": 1, "increased": 2}
EXIT_STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
GEAR_SLOTS = 4
BELT = 3
HUSKARL_ITEMS = 2
HUSKARL_SUPPLY_LIMIT = {"healing_salves": 3, "holy_water": 3}


class Step(NamedTuple):
    """One way to enter a square: cost in MP, whether it burns, and the side square passed."""

    to: Sq
    cost: int
    burn: bool
    past: Sq | None


Way = tuple[Sq | None, int, bool]
"""A way into a square: the side square passed (None: orthogonal), MP cost, burns."""

Entry = tuple[Sq, Sq | None, Sq | None, int, tuple[tuple[Step, ...], ...]]
"""A step out of a square, figures not considered: (square, the side squares of a diagonal,
cheapest cost, the steps to offer for each case of its side squares being free: index 1 when
only the first is, 2 when only the second is, 3 when both are; an orthogonal step: one case)."""


def _offered(b: Sq, ways: list[Way]) -> tuple[Step, ...]:
    """The ways into ``b`` a player really chooses between: a way that is worse in every
    respect (more MP and no less burn) is left out, and of equal ways the first is kept."""
    out: list[Step] = []
    for side, cost, burn in ways:
        if any(c <= cost and bu <= burn and (c, bu) != (cost, burn) for _, c, bu in ways):
            continue
        if any(o.cost == cost and o.burn == burn for o in out):
            continue
        out.append(Step(b, cost, burn, side))
    return tuple(out)


def _ways(board: Board, at: Sq) -> list[Entry]:
    """The steps out of ``at`` that terrain and red lines allow, figures not considered
    (see :data:`Entry`). Kept with the board."""
    key = ("hero ways", at)
    got = board.cache.get(key)
    if got is not None:
        return got  # type: ignore[no-any-return]
    terrain = board.terrain
    out: list[Entry] = []
    for b in board.n8[at]:
        tb = terrain[b]
        if tb in BLOCKS_MOVE or board.step_walled(at, b):
            continue
        hind = 1 if tb == "%" else 0
        if b[0] == at[0] or b[1] == at[1]:
            out.append((b, None, None, 1 + hind, ((Step(b, 1 + hind, tb == "^", None),),)))
            continue
        s1, s2 = (b[0], at[1]), (at[0], b[1])
        # One movement into or past hindering terrain pays its +1 once (see rulings).
        ways: list[Way] = [(side, 2 + (1 if hind or terrain[side] == "%" else 0),
                            tb == "^" or terrain[side] == "^")
                           for side in (s1, s2) if terrain[side] not in BLOCKS_MOVE]
        if ways:
            cases = tuple(_offered(b, [w for w in ways if w[0] in free])
                          for free in ((), (s1,), (s2,), (s1, s2)))
            out.append((b, s1, s2, min(w[1] for w in ways), cases))
    return board.remember(key, out)  # type: ignore[no-any-return]


def rate(h: Hero) -> str:
    """Normal MP cost when stationary or walking, increased when running."""
    return "increased" if h.intent == "running" else "normal"


def steps(s: NiflheimState, h: Hero) -> list[Step]:
    """Every square the hero may enter now, with each distinct cost the player may choose.
    Remembered for the position (the answer is shared: never change it)."""
    at = h.at
    assert at is not None
    mp = h.mp
    if mp <= 0:
        return []
    key = (s.board, h.id, at, mp)
    memo = s._hsteps
    if memo is not None and memo[0] == key:
        return memo[1]
    occ = s.occupancy()
    z: dict[Sq, set[int]] | None = None
    out: list[Step] = []
    for b, s1, s2, cheapest, cases in _ways(s.board, at):
        if cheapest > mp or b in occ:
            continue
        if s1 is None:
            out.append(cases[0][0])
            continue
        if z is None:
            z = zoc(s)
        z1, z2 = z.get(s1), z.get(s2)
        if z1 and z2 and any(u1 != u2 for u1 in z1 for u2 in z2):
            continue  # never diagonally between two squares covered by different ZOCs
        for st in cases[(s1 not in occ) + 2 * (s2 not in occ)]:
            if st.cost <= mp:
                out.append(st)
    s._hsteps = (key, out)
    return out


def step_text(all_steps: list[Step], st: Step) -> str:
    same = [x for x in all_steps if x.to == st.to]
    base = f"move {name(st.to)}"
    if len(same) > 1 and st.past is not None:
        return f"{base} past {name(st.past)}"
    return base


_TEXTS: dict[tuple[Step, ...], tuple[list[str], dict[str, Step]]] = {}
"""The action texts of lists of steps (:func:`step_texts`); steps are plain values."""


def step_texts(all_steps: list[Step]) -> tuple[list[str], dict[str, Step]]:
    """Each step's action text (:func:`step_text`) in order, and the first step of each text,
    remembered by the steps."""
    key = tuple(all_steps)
    got = _TEXTS.get(key)
    if got is None:
        if len(_TEXTS) > 20_000:
            _TEXTS.clear()
        texts = [step_text(all_steps, x) for x in all_steps]
        first: dict[str, Step] = {}
        for t, x in zip(texts, all_steps, strict=True):
            first.setdefault(t, x)
        got = _TEXTS[key] = (texts, first)
    return got


def fits(s: NiflheimState, h: Hero, item: str) -> bool:
    """Gear Slots: four gear slots (from scenarios 3 and 4: three slots and the belt, which holds
    three one-handed or small items); huskarls carry 2 gear and/or weapons in all; a weapon also
    fits an empty Ready Weapon slot."""
    arm = s.content.armoury
    d = arm[item]
    if d.zero_space:
        return True
    if h.huskarl:
        return sum(1 for i in h.items() if not arm[i].zero_space) < HUSKARL_ITEMS
    if d.kind == "weapon" and h.ready is None:
        return True
    items = [i for i in h.gear if not arm[i].zero_space] + [item]
    if not s.belt_rules():
        return len(items) <= GEAR_SLOTS

    def beltable(i: str) -> bool:
        return arm[i].one_handed or arm[i].small

    big = [i for i in items if not beltable(i)]
    small = len(items) - len(big)
    return len(big) <= GEAR_SLOTS - 1 and small <= BELT + (GEAR_SLOTS - 1 - len(big))


def specials_here(s: NiflheimState, h: Hero) -> list[str]:
    """Special actions the scenario offers on or adjacent to the hero's square."""
    out = []
    for label, sp in s.scenario.specials.items():
        if label in s.done:
            continue
        q = sq(sp.square)
        if q == h.at and not sp.figure or s.board.adjacent(q, h.at):
            out.append(f"{sp.action} {label}")
    return out


def legal(s: NiflheimState, h: Hero) -> list[str]:
    """The active hero's legal actions."""
    return list(_legal(s, h))


def only_end(s: NiflheimState, h: Hero) -> bool:
    """Is ending the activation the hero's only legal action? (Computed lazily: the first
    other action found answers.)"""
    if h.intent is not None and h.locked_by is None and h.rearranging is None \
            and not h.zoc_stop and h.mp > 0 and has_steps(s, h):
        return False  # a move comes first among the actions (see _legal)
    return next(_legal(s, h)) == "end activation"


def has_steps(s: NiflheimState, h: Hero) -> bool:
    """Is :func:`steps` not empty? The first step found answers: the rules ask this after
    every action of an activation (:func:`only_end`), and a search's look-ahead seldom lists
    the steps themselves afterwards. ``test_niflheim_memos.py`` compares it with
    :func:`steps` at every step of random games."""
    at = h.at
    assert at is not None
    mp = h.mp
    if mp <= 0:
        return False
    memo = s._hsteps
    if memo is not None and memo[0] == (s.board, h.id, at, mp):
        return bool(memo[1])
    occ = s.occupancy()
    z: dict[Sq, set[int]] | None = None
    for b, s1, s2, cheapest, cases in _ways(s.board, at):
        if cheapest > mp or b in occ:
            continue
        if s1 is None:
            return True
        if z is None:
            z = zoc(s)
        z1, z2 = z.get(s1), z.get(s2)
        if z1 and z2 and any(u1 != u2 for u1 in z1 for u2 in z2):
            continue
        for st in cases[(s1 not in occ) + 2 * (s2 not in occ)]:
            if st.cost <= mp:
                return True
    return False


def _legal(s: NiflheimState, h: Hero) -> Iterator[str]:
    """The active hero's legal actions, in order (ending the activation last)."""
    if h.intent is None:
        running = not (h.huskarl and h.health < h.max_health)
        yield from (f"declare {i}" for i in INTENTS if i != "running" or running)
        return
    if h.locked_by is not None:
        yield "end activation"  # a locked figure cannot use MAs or attack
        return
    at = h.at
    assert at is not None
    board = s.board
    if h.rearranging is not None:
        # "Once you performed a search action, you may immediately pick up any found items
        # and rearrange your inventory at no MP cost."
        q = sq(h.rearranging)
        if any(fits(s, h, i) for i in s.items.get(q, ())):
            yield f"pick up {h.rearranging}"
        if not h.acted:  # one change of readied weapons reaches any arrangement (see rulings)
            yield from swaps(s, h)
        yield "end activation"
        return
    if not h.zoc_stop and h.mp > 0:
        st = steps(s, h)
        yield from step_texts(st)[0]
        for e in s.scenario.exits:
            if sq(e.square) == at:
                yield f"exit {e.direction}"
        cost = DOOR_COST[rate(h)]
        for d in board.near[at]:
            ch = board.terrain[d]
            if ch == "+" and h.mp >= cost:
                yield f"open door {name(d)}"
            elif ch == "/" and h.mp >= cost and d not in s.occupancy() \
                    and name(d) not in s.forced:
                yield f"close door {name(d)}"
        if h.mp >= PICKUP_COST[rate(h)] and s.items:
            for q in (at, *board.near[at]):
                if any(fits(s, h, i) for i in s.items.get(q, ())):
                    yield f"pick up {name(q)}"
        if h.mp >= 2:
            n = names(s.content)
            for o in s.heroes.values():
                if o.id != h.id and o.on_map and board.adjacent(o.at, at):
                    for it in dict.fromkeys(h.items()):
                        if fits(s, o, it):
                            yield f"pass {n.item[it]} to {n.hero[o.id]}"
                    for kind, k in sorted(h.supplies.items()):
                        if k > 0 and can_share(h, o, kind):
                            yield f"pass {SUPPLY[kind]} to {n.hero[o.id]}"
        if s.scenario.attacks:
            yield from swaps(s, h)
    if h.free_step:
        occ = s.occupancy()
        yield from (f"rune step {name(q)}" for q in board.near[at]
                    if not board.blocks_move(q) and q not in occ)
    if s.scenario.attacks and h.marker is None:
        yield from (p.text for p in combat.plans(s, h))
        yield from combat.phial_targets(s, h)
    if h.intent == "stationary" and not h.acted and h.marker is None:
        yield from specials_here(s, h)
        # The rulebook's words; forced results are logged as "!force X", so no clash.
        yield from (f"force locked door {name(d)}" for d in board.near[at]
                    if board.terrain[d] == "L")
    yield "end activation"


def swaps(s: NiflheimState, h: Hero) -> list[str]:
    """Change readied weapon(s), one movement action for 1 MP: a gear weapon to the Ready
    slot, a one-handed weapon to the Off-Hand slot when the ready weapon is one-handed too, or
    two one-handed weapons into both slots at once (the MA table's "Change readied
    weapon(s)")."""
    out = []
    arm = s.content.armoury
    n = names(s.content)
    for w in dict.fromkeys(h.gear):
        if arm[w].kind != "weapon":
            continue
        out.append(f"ready {n.item[w]}")
        if arm[w].one_handed and h.ready and arm[h.ready].one_handed:
            out.append(f"ready {n.item[w]} off hand")
    out += [f"ready {n.item[x]} and {n.item[y]} off hand" for x, y in both_hands(s, h)]
    return out


def both_hands(s: NiflheimState, h: Hero) -> list[tuple[str, str]]:
    """Pairs of one-handed weapons the hero may ready in both slots at once, changing both
    (from gear slots, or swapping a readied one to the other hand)."""
    arm = s.content.armoury
    pool = [w for w in (*h.gear, h.ready, h.off_hand) if w and arm[w].kind == "weapon"
            and arm[w].one_handed]
    out = []
    for x in dict.fromkeys(pool):
        rest = list(pool)
        rest.remove(x)
        for y in dict.fromkeys(rest):
            if x != h.ready and y != h.off_hand:
                out.append((x, y))
    return out


def ready_both(s: NiflheimState, h: Hero, x: str, y: str, events: list[Event],
               cost: int = 1, section: str = S.ONE_HANDED) -> None:
    """Ready ``x`` and ``y`` (one-handed) in the Ready and Off-Hand slots in one movement
    action; what they replace goes to gear slots."""
    if cost:
        h.mp -= cost
        h.acted = True
    old_ready, old_off = h.ready, h.off_hand
    gear = list(h.gear)
    for w, source in ((x, "off"), (y, "ready")):
        if w in gear:
            gear.remove(w)
        elif source == "off" and w == old_off:
            old_off = None  # the off-hand weapon moves to the Ready slot
        elif source == "ready" and w == old_ready:
            old_ready = None  # the ready weapon moves to the off hand
        else:
            raise ValueError(f"{h.name} does not carry {w}")
    gear += [w for w in (old_ready, old_off) if w]
    h.gear, h.ready, h.off_hand = gear, x, y
    arm = s.content.armoury
    how = "(1 MP)" if cost else "in the interim stage" if section == S.INTERIM \
        else "at no MP cost"
    events.append(Event("ready", f"{h.name} readies the {arm[x].name} and the {arm[y].name} in "
                        f"the off hand {how}", section, {"hero": h.id, "weapon": x}))


def declare(s: NiflheimState, h: Hero, intent: str, events: list[Event]) -> None:
    """Declare stationary / walking / running: 0 / 3 / 6 MP (5 Corruption: -1 MP)."""
    h.intent = intent
    h.mp = MP[intent]
    h.fate_mp = False
    extra = ""
    if h.corruption >= skills.CORRUPTION_MP and h.mp > 0:
        h.mp -= 1
        h.fate_mp = True
        extra = " (-1 MP for 5 Corruption)"
    events.append(Event("intent", f"{h.name} declares {intent}: {h.mp} MP{extra}",
                        S.ACTION_PHASE, {"hero": h.id, "intent": intent, "mp": h.mp}))
    if h.locked_by is not None:
        break_lock(s, h, events)


def break_lock(s: NiflheimState, h: Hero, events: list[Event]) -> None:
    """Locked Heroes: an H2H roll with a readied weapon's stun value (unarmed 10), with the
    intent's AM and a shield's +1; failure ends the activation. Of two readied weapons the one
    needing the lower roll is used (the off hand with its -2; see rulings, 17)."""
    assert h.intent is not None

    def value(w: str | None, off: bool) -> tuple[int, int]:
        wd = s.content.armoury[w] if w else None
        stun = wd.h2h[0] if wd and wd.kind == "weapon" and wd.h2h else combat.UNARMED[0]
        return stun, -2 if off else 0

    stun, off_am = min((value(w, off) for w, off in combat.readied(h)),
                       key=lambda v: v[0] - v[1])
    # The intent's AM and a wounded huskarl's -2, as on every attack (combat.attacker_ams).
    drm = sum(m for m, _ in combat.attacker_ams(h, None)) + off_am
    if skills.carries_shield(s, h):
        drm += 1
    drm += sum(m for m, _ in skills.passive(s, h, {"break_lock"}))
    need = combat.needed(stun, drm)
    roll = s.d12(f"{h.name}'s roll to break the lock ({f'{need}+' if need else 'nothing'} "
                 "breaks it)", S.ACTION_PHASE, drm)
    total = roll + drm
    data = {"hero": h.id, "roll": roll, "dice": [d12(roll, drm)]}
    if roll != 1 and total >= stun:
        h.locked_by = None
        events.append(Event("unlock", f"{h.name} rolls {roll} (modified {total} ≥ {stun}) and "
                            "breaks the lock", S.LOCKED, data))
        return
    events.append(Event("locked", f"{h.name} rolls {roll} (modified {total}, needs {stun}) and "
                        "stays locked: the activation ends", S.LOCKED, data))
    h.mp = 0
    end(s, h, events)


def end(s: NiflheimState, h: Hero, events: list[Event]) -> None:
    """End the activation: an unused attack becomes a Cover marker (scenario 1, locked heroes:
    an Attacked marker)."""
    if h.marker is None:
        if s.scenario.attacks and h.locked_by is None and h.intent is not None:
            h.marker = f"cover {h.intent}"
            events.append(Event("cover", f"{h.name} did not attack and is covering "
                                f"({h.intent}: {combat.COVER_AM[h.intent]:+d} DRM)",
                                S.COVERING, {"hero": h.id}))
        else:
            h.marker = "attacked"
    h.activated = True
    h.mp = 0
    h.free_step = False
    h.rearranging = None
    if s.active == h.id:
        s.active = None


def why_illegal(s: NiflheimState, h: Hero, action: str) -> IllegalAction | None:
    """Name the rule behind common illegal hero actions."""
    ID = S.ID
    if h.locked_by is not None and h.intent is not None and action != "end activation":
        return IllegalAction(ID, S.LOCKED, f"{h.name} is locked: no MAs and no attack until the "
                             "lock is broken")
    if action.startswith("move ") and h.intent is not None:
        if h.zoc_stop:
            return IllegalAction(ID, S.ZOC, f"{h.name} moved into a zone of control and may "
                                 "not perform any further movement actions")
        try:
            to = grid.sq(action.split()[1])
        except ValueError:
            return None
        if grid.chebyshev(to, h.at) != 1:
            return IllegalAction(ID, S.MOVE_HEROES, "a move enters an adjacent or diagonally "
                                 "adjacent square")
        if s.board.blocks_move(to):
            return IllegalAction(ID, S.MOVE_HEROES, f"{name(to)} is obstructive terrain")
        if to in s.occupancy():
            return IllegalAction(ID, S.MOVE_HEROES, f"heroes may not move through a space "
                                 f"occupied by another figure ({name(to)})")
        if grid.is_diagonal(to, h.at):
            return IllegalAction(ID, S.MOVE_HEROES, "moving diagonally needs one side square "
                                 "unobstructed and unoccupied, not between two different ZOCs, "
                                 "and 2 MP (+1 hindering)")
        return IllegalAction(ID, S.MA_COST, f"{h.name} has only {h.mp} MP")
    words = action.split()
    if not words:
        return IllegalAction(ID, S.ACTION_PHASE, f"an empty action: {h.name} must choose one of "
                             "the legal actions")
    if action == "declare running" and h.huskarl and h.health < h.max_health:
        return IllegalAction(ID, "Huskarl", "a wounded huskarl may not declare running")
    if words[0] in ("move", "exit", "open", "close", "pick", "pass", "ready") and h.zoc_stop:
        return IllegalAction(ID, S.ZOC, f"{h.name} moved into a zone of control and may not "
                             "perform any further movement actions")
    if words[0] in ("move", "exit", "open", "close", "pick", "pass", "ready") \
            and h.locked_by is not None:
        return IllegalAction(ID, S.LOCKED, f"{h.name} is locked and cannot use MAs")
    if words[0] == "exit":
        return IllegalAction(ID, S.MOVE_HEROES, "heroes may only move off the map at an exit "
                             "point (green arrow), for 1 MP")
    if words[0] in ("open", "close"):
        return IllegalAction(ID, S.MA_COST, "to open or close a door the hero must be adjacent "
                             "to it and have 1 MP (2 when running); an occupied doorway cannot "
                             "be closed, nor a forced one")
    if words[0] == "pick":
        return IllegalAction(ID, S.MA_COST, "to pick up gear the hero must be on or adjacent "
                             "to its square, have 1 MP (2 when running) and a free slot")
    if words[0] == "attack" and s.scenario.attacks:
        if h.marker is not None:
            return IllegalAction(ID, S.ATTACK_ACTION, f"{h.name} has already used their attack "
                                 "(or covered) this round")
        return IllegalAction(ID, S.TARGET, "a valid target is a revealed undead within LOS and "
                             "range of a readied weapon (H2H values when adjacent; X: no ranged "
                             "attack)")
    if words[0] in ("rescue", "search"):
        return IllegalAction(ID, S.SPECIAL, "a special action needs a stationary hero who has "
                             "done nothing else this activation, on or adjacent to its square")
    if action.startswith("attack") and not s.scenario.attacks:
        return IllegalAction(ID, S.ACTION_PHASE, "in scenario 1 the heroes have no weapons "
                             "and always take an Attacked marker")
    return None


def apply(s: NiflheimState, h: Hero, action: str, events: list[Event]) -> None:
    """Carry out one action of the active hero."""
    words = action.split()
    if words[0] == "declare":
        declare(s, h, words[1], events)
        return
    if words[0] == "end":
        events.append(Event("end", f"{h.name} ends their activation", S.ACTION_PHASE))
        end(s, h, events)
        return
    if words[0] == "move":
        choice = step_texts(steps(s, h))[1][action]
        move(s, h, choice, events)
        return
    if words[0] == "exit":
        exit_map(s, h, events)
        return
    if words[0] in ("open", "close"):
        q = grid.sq(words[2])
        h.mp -= DOOR_COST[rate(h)]
        h.acted = True
        s.board = s.board.with_square(q, "/" if words[0] == "open" else "+")
        events.append(Event("door", f"{h.name} {words[0]}s the door on {name(q)}",
                            S.MA_COST, {"hero": h.id, "door": name(q)}))
        reveal(s, events)
        return
    if words[0] == "pick":
        pick_up(s, h, grid.sq(words[2]), events)
        return
    if words[0] == "pass" and action[5:].split(" to ")[0] in SUPPLY_ID:
        what, who = action[5:].rsplit(" to ", 1)
        kind, to = SUPPLY_ID[what], s.heroes[names(s.content).hero_id[who]]
        h.mp -= 2
        h.acted = True
        h.supplies[kind] -= 1
        add_supplies(to, kind, 1)
        events.append(Event("pass", f"{h.name} passes 1 {kind.replace('_', ' ')} to {to.name} "
                            "(2 MP)", S.MA_COST, {"hero": h.id, "supply": kind}))
        return
    if words[0] == "pass":
        n = names(s.content)
        what, who = action[5:].rsplit(" to ", 1)
        item, to = n.item_id[what], s.heroes[n.hero_id[who]]
        h.mp -= 2
        h.acted = True
        take_item(h, item)
        receive(s, to, item)
        move_rune(h, to, item)
        events.append(Event("pass", f"{h.name} passes the {s.content.armoury[item].name} to "
                            f"{to.name} (2 MP)", S.MA_COST, {"hero": h.id, "item": item}))
        opts = ready_passed_options(s, to, item)
        if opts:
            s.ask_ready_passed(to, item, opts)
        return
    if words[0] == "ready":
        n = names(s.content)
        cost = 0 if h.rearranging is not None else 1
        h.acted = True
        off = action.endswith(" off hand")
        what = action[6:-9] if off else action[6:]
        if off and " and " in what and what not in n.item_id:
            x, y = what.split(" and ", 1)
            ready_both(s, h, n.item_id[x], n.item_id[y], events, cost)
            return
        ready(s, h, n.item_id[what], off, events, cost)
        return
    if words[0] in ("rescue", "search"):
        special(s, h, words[1], events)
        return
    if words[0] == "rune":
        h.free_step = False
        move(s, h, Step(grid.sq(words[2]), 0, s.board.fire(grid.sq(words[2])), None), events)
        return
    if words[0] == "force":
        force_door(s, h, grid.sq(words[3]), events)
        return
    if words[0] == "throw":
        kind = "greek_fire" if words[1] == "greek" else "holy_water"
        combat.throw_phial(s, h, grid.sq(words[-1]), events, kind)
        return
    if words[0] == "attack":
        plan = next(p for p in combat.plans(s, h) if p.text == action)
        combat.resolve(s, h, plan, events)
        return
    raise ValueError(f"unknown hero action {action!r}")


def move(s: NiflheimState, h: Hero, st: Step, events: list[Event]) -> None:
    """Enter a square, paying its MP; moving into a ZOC stops all further movement actions."""
    h.mp -= st.cost
    h.acted = True
    h.at = st.to
    s.moved()
    how = f" past {name(st.past)}" if st.past is not None else ""
    events.append(Event("move", f"{h.name} moves to {name(st.to)}{how} for {st.cost} MP "
                        f"({h.mp} left)", S.MOVE_HEROES,
                        {"hero": h.id, "to": name(st.to), "cost": st.cost}))
    if st.burn:
        events.append(Event("burn", f"{h.name} is burned by the fire: 1 wound", S.MOVE_EXAMPLES))
        s.wound_hero(h, events, S.MOVE_EXAMPLES, by="fire", by_type="fire")
        if not h.on_map:
            return
    z = zoc(s).get(st.to)
    if z:
        h.zoc_stop = True
        events.append(Event("zoc", f"{h.name} moved into the zone of control of undead "
                            f"{', '.join(str(i) for i in sorted(z))} and must stop", S.ZOC,
                            {"hero": h.id}))
    reveal(s, events)


def exit_map(s: NiflheimState, h: Hero, events: list[Event]) -> None:
    """Move off the map at an exit point (1 MP); completes the objective when its conditions
    are met."""
    h.mp -= 1
    at = h.at
    h.at = None
    h.status = "exited"
    h.locked_by = None
    s.moved()
    obj = s.scenario.objective
    ok = (all(a in s.done for a in obj.after) and (obj.carry is None or h.carries(obj.carry))
          and not any(u.kind in obj.kill for u in s.undead.values()))
    events.append(Event("exit", f"{h.name} leaves the map at the exit point on "
                        f"{name(at)}", S.MOVE_HEROES, {"hero": h.id}))
    if ok:
        s.complete(h, events)
    if s.active == h.id:
        h.activated = True
        s.active = None


def move_rune(a: Hero, b: Hero, item: str) -> None:
    """"A runestone may not be removed from a weapon once affixed": it goes where the weapon
    goes (unless the giver still holds another, inscribed copy of the same weapon)."""
    if item in a.runes and not a.carries(item):
        b.runes[item] = a.runes.pop(item)


def take_item(h: Hero, item: str) -> None:
    if h.ready == item:
        h.ready = None
    elif h.off_hand == item:
        h.off_hand = None
    else:
        h.gear.remove(item)


def receive(s: NiflheimState, h: Hero, item: str) -> None:
    """A weapon goes to an empty Ready slot, anything else to a gear slot."""
    if s.content.armoury[item].kind == "weapon" and h.ready is None:
        h.ready = item
    else:
        h.gear.append(item)


def pick_up(s: NiflheimState, h: Hero, q: Sq, events: list[Event]) -> None:
    """Pick up any number of items on or adjacent to the hero for 1 MP / 2 MP (no MP after a
    search, for what was found)."""
    if h.rearranging is None:
        h.mp -= PICKUP_COST[rate(h)]
        h.acted = True
    got = []
    left = []
    runes = s.ground_runes.get(q, {})
    for it in s.items.get(q, []):
        if fits(s, h, it):
            receive(s, h, it)
            got.append(it)
            if it in runes and it not in h.runes:
                h.runes[it] = runes.pop(it)
        else:
            left.append(it)
    if q in s.ground_runes and not s.ground_runes[q]:
        del s.ground_runes[q]
    if left:
        s.items[q] = left
    else:
        s.items.pop(q, None)
    names = ", ".join(s.content.armoury[i].name for i in got) or "nothing (no free slot)"
    events.append(Event("pickup", f"{h.name} picks up {names} from {name(q)}",
                        S.MA_COST, {"hero": h.id, "items": got}))


def ready(s: NiflheimState, h: Hero, w: str, off: bool, events: list[Event],
          cost: int = 1, section: str | None = None) -> None:
    """Change readied weapon(s) for 1 MP (Ready Weapon, One-Handed Weapons); a passed weapon is
    readied for free (Passing Gear)."""
    if cost:
        h.mp -= cost
        h.acted = True
    h.gear.remove(w)
    if off:
        if h.off_hand:
            h.gear.append(h.off_hand)
        h.off_hand = w
    else:
        if h.ready:
            h.gear.append(h.ready)
        h.ready = w
        if h.off_hand and not s.content.armoury[w].one_handed:
            h.gear.append(h.off_hand)
            h.off_hand = None
    slot = "Off-Hand slot" if off else "Ready Weapon slot"
    how, sec = (("(1 MP)", S.READY) if cost else
                ("in the interim stage", section) if section is not None else
                ("at no MP cost after the search", S.SPECIAL) if h.rearranging is not None else
                ("at once, for free", S.PASSING))
    events.append(Event("ready", f"{h.name} puts the {s.content.armoury[w].name} in the {slot} "
                        f"{how}", sec, {"hero": h.id, "weapon": w}))


def ready_passed_options(s: NiflheimState, h: Hero, w: str) -> list[str]:
    """Passing Gear: "Passed weapons can be readied immediately for free (potentially swapping
    out an already readied weapon)": keep it in a gear slot, ready it, or ready it off hand."""
    if s.content.armoury[w].kind != "weapon" or w not in h.gear or h.ready in (None, w):
        return []
    n = names(s.content)
    who, what = n.hero[h.id], n.item[w]
    out = [f"{who} keeps {what} in a gear slot", f"{who} readies {what}"]
    arm = s.content.armoury
    if arm[w].one_handed and h.ready and arm[h.ready].one_handed and h.off_hand != w:
        out.append(f"{who} readies {what} off hand")
    return out


def special(s: NiflheimState, h: Hero, label: str, events: list[Event]) -> None:
    """A special action (rescue, search) takes the whole activation."""
    sp = s.scenario.specials[label]
    s.done.append(label)
    s.moved()
    found = []
    left = []
    for it in sp.items:
        # "you may immediately pick up any found items": only what fits the hero's slots; the
        # rest stays on the searched square to be picked up later (Gear Slots).
        if fits(s, h, it):
            receive(s, h, it)
            found.append(s.content.armoury[it].name)
        else:
            left.append(it)
    if left:
        s.items.setdefault(grid.sq(sp.square), []).extend(left)
        found.append("no room for " + ", ".join(s.content.armoury[i].name for i in left)
                     + f" (left on {sp.square})")
    for colour in sp.runestones:
        # "A weapon can only be infused with a runestone during the Interim stage": a found
        # runestone is kept by the party (the Party Control Sheet) until then (rulings, 25).
        if s.camp is not None:
            s.camp["runestones"].append(colour)
            found.append(f"a {colour} runestone (kept by the party for the interim stage)")
        else:
            found.append(f"a {colour} runestone (a single scenario has no interim stage to "
                         "inscribe it in)")
    for k, n in sp.supplies.items():
        got = add_supplies(h, k, n)
        text = f"{n} {k.replace('_', ' ')}"
        if got < n:
            text += (" (a huskarl has unlimited projectiles)" if k == "projectiles" else
                     f" ({n - got} more than a huskarl can carry are lost)")
        found.append(text)
    what = "rescues" if sp.action == "rescue" else "searches"
    extra = f": found {', '.join(found)}" if found else ""
    events.append(Event("special", f"{h.name} {what} {sp.name} ({label}){extra}. {sp.text}",
                        S.SPECIAL, {"hero": h.id, "special": label}))
    h.marker = "attacked"
    h.mp = 0
    q = sq(sp.square)
    if sp.action == "search" and (swaps(s, h) or any(fits(s, h, i) for i in s.items.get(q, ()))):
        h.rearranging = sp.square  # may pick up what was found and rearrange for free
    else:
        end(s, h, events)
    if sp.joins and sp.joins not in s.heroes:
        # Rescue a Prisoner: the freed huskarl joins and activates right after the rescuer.
        s.heroes[sp.joins] = s.new_hero(sp.joins, q)
        s.moved()
        s.next_active = sp.joins
        events.append(Event("join", f"{s.heroes[sp.joins].name} joins the party and may "
                            "activate at once", S.NEW_RULES_34, {"hero": sp.joins}))
        reveal(s, events)
    if sp.spawn:
        spots = undead.spawn_squares(s, q)
        if len(spots) > 1:
            s.ask_spawn(q, spots)
        elif spots:
            undead.place_marker(s, spots[0], events, S.SPECIAL)


def can_share(a: Hero, b: Hero, kind: str) -> bool:
    """Can ``a`` give ``b`` one of a supply? Huskarls "have unlimited projectiles, but cannot
    share them with the characters", and carry at most 3 salves and 3 phials (Huskarl)."""
    if kind == "projectiles" and (a.huskarl or b.huskarl):
        return False
    return supply_room(b, kind)


def supply_room(h: Hero, kind: str) -> bool:
    """Can the hero take one more of a supply? Huskarls "can carry up to 3 Healing Salves and
    3 Holy Water Phials" (and have unlimited projectiles, so never take any)."""
    if not h.huskarl:
        return True
    if kind == "projectiles":
        return False
    return h.supplies.get(kind, 0) < HUSKARL_SUPPLY_LIMIT.get(kind, 99)


def add_supplies(h: Hero, kind: str, n: int) -> int:
    """Add supplies; a huskarl takes only what its limits allow. Returns how many were taken
    (the rest is left behind)."""
    if h.huskarl:
        if kind == "projectiles":
            return 0
        have = h.supplies.get(kind, 0)
        h.supplies[kind] = min(HUSKARL_SUPPLY_LIMIT.get(kind, 99), have + n)
        return h.supplies[kind] - have
    h.supplies[kind] = h.supplies.get(kind, 0) + n
    return n


def force_door(s: NiflheimState, h: Hero, q: Sq, events: list[Event]) -> None:
    """Locked Doors: a special action forces a locked door open; it cannot be closed again."""
    s.board = s.board.with_square(q, "/")
    s.forced.append(name(q))
    events.append(Event("door", f"{h.name} forces the locked door on {name(q)} open",
                        S.NEW_RULES_34, {"hero": h.id, "door": name(q)}))
    h.marker = "attacked"
    end(s, h, events)
    reveal(s, events)
