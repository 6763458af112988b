"""The checks a loaded Midhalla position must pass (docs/formats/midhalla.md): the types of
every field (a pydantic model, so a wrong type names its field), then the rules' invariants on
the assembled state (ids known, map tiles joined consistently, counts and values within the
rulebook's limits, a pending decision that is the one the rules would ask).

Every violation is a :class:`ContentError` naming the field and the rule.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr

from meadhall.core.content import ContentModel, validate
from meadhall.core.errors import ContentError
from meadhall.core.migrate import position_migration, retire_choice_texts
from meadhall.games.midhalla import sections as S
from meadhall.games.midhalla.board import DELTA, GATE, OPPOSITE
from meadhall.games.midhalla.content import Content, Effect
from meadhall.games.midhalla.vocabulary import _chapter_ops, _shared_ops, max_enemies, max_traps

Side = Literal["N", "E", "S", "W"]
Count = Field(default=None, ge=0, le=999)
PHASES = ("setup", "exploration", "preparation", "spawn", "position", "combat", "rewards",
          "epilogue", "aftermath", "interlude", "roster", "over")
ENDED = ("aftermath", "interlude", "roster", "over")
MAX_COORD = 100
"""No dungeon reaches further from the gate: a chapter places a few dozen tiles at most."""


class TileP(ContentModel):
    at: tuple[StrictInt, StrictInt]
    paths: dict[Side, StrictStr] = Field(default_factory=dict)
    links: dict[Side, StrictStr] = Field(default_factory=dict)
    fortified: StrictBool = False
    curses: StrictInt = Field(0, ge=0, le=99)
    token: Literal["plus1", "elite", "none"] | None = None


class HeroP(ContentModel):
    id: StrictStr | None = None
    hp: StrictInt | None = Field(None, ge=0, le=99)
    max_hp: StrictInt | None = Field(None, ge=1, le=99)
    top: list[StrictStr] | None = Field(None, min_length=1, max_length=6)
    bottom: list[StrictStr] | None = Field(None, min_length=1, max_length=6)
    tile: StrictStr | None = None
    top_at: StrictInt | None = Field(None, ge=0, le=5)
    bottom_at: StrictInt | None = Field(None, ge=0, le=5)
    exhausted: list[StrictStr] | None = Field(None, max_length=2)
    ults_used: list[StrictStr] | None = None
    items: list[StrictStr] | None = None
    used_items: list[StrictStr] | None = None
    armor: StrictInt | None = Count
    retaliate: StrictInt | None = Count
    bleed: StrictInt | None = Count
    acted: StrictBool | None = None
    level: StrictInt | None = Field(None, ge=0, le=3)
    follower: StrictBool | None = None


class EnemyP(ContentModel):
    id: StrictStr | None = None
    card: StrictStr
    tile: StrictStr
    hp: StrictInt | None = Field(None, ge=1, le=999)
    max_hp: StrictInt | None = Field(None, ge=1, le=999)
    bleed: StrictInt | None = Count
    evasion: StrictBool | None = None
    slow: Literal["", "slowed", "immune"] | None = None
    rotation: StrictInt | None = Field(None, ge=-1, le=20)


class TrapP(ContentModel):
    id: StrictStr | None = None
    kind: StrictStr
    tile: StrictStr
    hp: StrictInt | None = Field(None, ge=0, le=99)
    level: StrictInt | None = Field(None, ge=1, le=9)
    special: StrictStr | None = None


class DeckP(ContentModel):
    name: StrictStr | None = None
    pile: list[StrictStr] = Field(default_factory=list)
    top: list[StrictStr] = Field(default_factory=list)
    bottom: list[StrictStr] = Field(default_factory=list)
    discard: list[StrictStr] = Field(default_factory=list)
    reshuffle: StrictBool | None = None


class ChoiceP(ContentModel):
    kind: StrictStr
    seat: StrictStr
    prompt: StrictStr
    section: StrictStr
    options: list[tuple[StrictStr, Any]] = Field(min_length=1)
    default: StrictStr | None = None
    ctx: dict[str, Any] = Field(default_factory=dict)


class CombatP(ContentModel):
    step: Literal["enemies", "traps", "heroes"]
    order: list[StrictStr]
    i: StrictInt = Field(ge=0, le=999)
    done: list[StrictStr] = Field(default_factory=list)
    cur: StrictStr | None = None
    sub: StrictStr = ""
    left: StrictInt = Field(0, ge=0, le=99)
    action: Any = None
    moved: StrictStr | None = None
    then: StrictStr | None = None
    moves: StrictInt = Field(0, ge=0, le=99)
    snapshot: StrictStr | None = None


class HeroTurnP(ContentModel):
    hero: StrictStr
    stage: Literal["top", "bottom", "after"]
    queue: list[Effect] = Field(default_factory=list)
    pierce: StrictBool = False
    source: StrictStr = ""


class RewardsP(ContentModel):
    step: Literal["quests", "ultimates", "tokens", "level", "gains"]
    refreshed: list[StrictStr] = Field(default_factory=list)


class LevelUpP(ContentModel):
    level: StrictInt = Field(ge=1, le=3)
    pool: list[StrictStr]
    todo: list[StrictStr]
    card: StrictStr | None = None


class TallyP(ContentModel):
    kills: StrictInt = Field(0, ge=0, le=9999)
    traps_lost: StrictInt = Field(0, ge=0, le=9999)
    kos: StrictInt = Field(0, ge=0, le=9999)
    rounds: StrictInt = Field(0, ge=0, le=99999)
    replays: StrictInt = Field(0, ge=0, le=99999)


class PartyP(ContentModel):
    unlocks: dict[StrictStr, list[StrictStr]]
    new: list[tuple[StrictStr, StrictStr]] = Field(default_factory=list)
    completed: list[StrictStr] = Field(default_factory=list)
    events: dict[StrictStr, dict[StrictStr, StrictStr]] = Field(default_factory=dict)
    fate: StrictInt = 0
    ended: dict[str, Any] | None = None


class PositionP(ContentModel):
    """Every key of a Midhalla ``position``; all optional when written by hand."""

    chapter: StrictStr | None = None
    phase: Literal[PHASES] | None = None  # type: ignore[valid-type]
    cycle: StrictInt | None = Field(None, ge=1, le=3)
    result: tuple[Literal["win", "loss"], StrictStr] | None = None
    explored_in_cycle: StrictInt | None = Field(None, ge=0, le=99)
    timer: StrictInt | None = Field(None, ge=0, le=99)
    gate_hp: StrictInt | None = None
    silver: StrictInt | None = Count
    runestones: StrictInt | None = Count
    components: list[StrictStr] | None = None
    cart: list[StrictStr] | None = None
    tiles: dict[StrictStr, TileP] | None = Field(None, min_length=1, max_length=99)
    heroes: dict[StrictStr, HeroP] | None = None
    enemies: dict[StrictStr, EnemyP] | None = None
    traps: dict[StrictStr, TrapP] | None = None
    decks: dict[StrictStr, DeckP] | None = None
    gifts: list[StrictStr] | None = None
    quests: list[tuple[StrictStr, StrictStr]] | None = None
    story: list[StrictStr] | None = None
    script: list[dict[str, Any]] | None = None
    here: StrictStr | None = None
    exploring: tuple[StrictStr, Side] | None = None
    choice: ChoiceP | None = None
    combat: CombatP | None = None
    hero_turn: HeroTurnP | None = None
    rewards: RewardsP | None = None
    levelup: LevelUpP | None = None
    curses_to_place: StrictInt | None = Field(None, ge=0, le=99)
    epilogue_read: StrictBool | None = None
    tally: TallyP | None = None
    ending: dict[str, Any] | None = None
    record: list[tuple[StrictStr, Literal["win", "loss"]]] | None = None
    roster: list[StrictStr] | None = Field(None, max_length=4)
    next_chapter: StrictStr | None = None
    party: PartyP | None = None
    party_start: PartyP | None = None
    next_id: StrictInt | None = None
    """Accepted and ignored: positions written before ids were reused carry it."""


def check_types(p: Any) -> None:
    """The position's keys and types (a wrong type names its field, never Python's message)."""
    if not isinstance(p, dict):
        raise ContentError("", "", "the position must be an object (a JSON dict)")
    validate(PositionP, p, "")


# ----------------------------------------------------------------- the rules' invariants
def _fail(field: str, reason: str) -> ContentError:
    return ContentError("", field, reason)


_OPS: dict[int, tuple[Content, frozenset[str]]] = {}


def _content_ops(content: Content) -> frozenset[str]:
    """Every instruction the content can queue, as canonical JSON (for ``script``); worked
    out once per content object."""
    got = _OPS.get(id(content))
    if got is None or got[0] is not content:
        ops = [*_shared_ops(content)]
        for cid in content.chapters:
            ops.extend(_chapter_ops(content, cid))
        got = _OPS[id(content)] = (content, frozenset(json.dumps(o, sort_keys=True)
                                                      for o in ops))
    return got[1]


def op_known(content: Content, op: dict[str, Any], chapter: str) -> bool:
    name = op.get("op")
    if name == "_explored" and set(op) == {"op"}:
        return True
    if name == "verse" and set(op) == {"op", "id"}:
        return op["id"] in content.chapters[chapter].verses
    if name == "global" and set(op) == {"op", "n"}:
        return str(op["n"]) in content.printed.global_events
    base = {k: v for k, v in op.items() if k != "spare"}
    if "spare" in op and (name != "damage_heroes" or not isinstance(op["spare"], str)):
        return False
    return json.dumps(base, sort_keys=True) in _content_ops(content)


def check_state(st: Any) -> None:
    """The invariants of a loaded position (after :func:`check_types` and assembly)."""
    c: Content = st.content
    cat = c.cat
    p = c.printed
    chapter = c.chapters[st.chapter]
    over = st.phase in ENDED
    # -------------------------------------------------------------- phase and tracks
    if st.cycle > chapter.cycles:
        raise _fail("cycle", f"{chapter.name} has {chapter.cycles} cycles (Cycles and Phases)")
    if not 0 <= st.gate_hp <= p.gate_hp:
        raise _fail("gate_hp", f"the gate has 0 to {p.gate_hp} HP ({S.MAIN_AREA}: the D20 "
                    "starts at 20; a unit never gains more than its maximum)")
    if st.gate_hp == 0 and not over:
        raise _fail("gate_hp", f"a gate at 0 HP has lost the chapter ({S.GOAL}); the phase "
                    "must be one after the chapter's end")
    if over != (st.result is not None) and st.phase not in ("interlude", "roster"):
        raise _fail("result", "a chapter has a result exactly when it has ended (phase "
                    f"{st.phase!r})")
    if st.phase in ("interlude", "roster") and not st.setup.get("campaign"):
        raise _fail("phase", "the interlude between chapters exists only in a campaign")
    # -------------------------------------------------------------- the dungeon
    tiles = st.tiles
    if GATE not in tiles:
        raise _fail("tiles", f"the gate map tile {GATE!r} is missing ({S.GATE_TILE})")
    if not tiles[GATE].fortified:
        raise _fail(f"tiles.{GATE}.fortified", "the gate map tile is always fortified "
                    f"({S.FORTIFY})")
    seen: dict[tuple[int, int], str] = {}
    for tid, t in tiles.items():
        if not tid or tid != tid.strip():
            raise _fail(f"tiles.{tid}", "a map tile id must be a non-empty name")
        if abs(t.x) > MAX_COORD or abs(t.y) > MAX_COORD:
            raise _fail(f"tiles.{tid}.at", f"coordinates must lie within {MAX_COORD} tiles of "
                        "the gate")
        if (t.x, t.y) in seen:
            raise _fail(f"tiles.{tid}.at", f"map tile {tid} overlaps {seen[(t.x, t.y)]} "
                        f"({S.PLACING})")
        seen[(t.x, t.y)] = tid
        for side, other in t.links.items():
            o = tiles.get(other)
            if o is None:
                raise _fail(f"tiles.{tid}.links.{side}", f"unknown map tile {other!r}")
            dx, dy = DELTA[side]
            if (o.x, o.y) != (t.x + dx, t.y + dy):
                raise _fail(f"tiles.{tid}.links.{side}", f"map tile {other} does not lie on "
                            f"the {side} side of {tid} ({S.PLACING})")
            if o.links.get(OPPOSITE[side]) != tid:
                raise _fail(f"tiles.{other}.links.{OPPOSITE[side]}", f"a link must be given on "
                            f"both tiles: {tid} links {side} to {other}")
    curses = sum(t.curses for t in tiles.values())
    if curses > cat.curse_markers:
        raise _fail("tiles", f"{curses} curse markers on the map; the supply has "
                    f"{cat.curse_markers} ({S.FATE})")
    for tid, t in tiles.items():
        if t.curses and t.fortified:
            raise _fail(f"tiles.{tid}.curses", f"fortifying a map tile removes its curse "
                        f"({S.FORTIFY})")
    # -------------------------------------------------------------- heroes
    party = [h for h in st.heroes.values() if not h.follower]
    if not 1 <= len(party) <= 4:
        raise _fail("heroes", "a party has 1 to 4 heroes (Set up Player Areas)")
    if st.phase not in ("interlude", "roster") and sorted(h.id for h in party) != sorted(
            st.roster):
        raise _fail("roster", "the roster must name exactly the heroes of the position")
    for h in st.heroes.values():
        where = f"heroes.{h.id}"
        data = cat.heroes.get(h.id) or cat.followers.get(h.id)
        if data is None:
            raise _fail(where, "unknown hero or follower")
        if h.follower != (h.id in cat.followers):
            raise _fail(f"{where}.follower", "followers are the catalogue's followers")
        if h.max_hp != data.max_hp:
            raise _fail(f"{where}.max_hp", f"{data.name}'s maximum HP is {data.max_hp} (the "
                        "health rune on the tableau)")
        if not 0 <= h.hp <= h.max_hp:
            raise _fail(f"{where}.hp", f"HP between 0 and {h.max_hp} ({S.HP}: a unit can "
                        "never gain more than its maximum HP)")
        if h.tile is not None:
            if h.tile not in tiles:
                raise _fail(f"{where}.tile", f"unknown map tile {h.tile!r}")
            if h.ko:
                raise _fail(f"{where}.tile", f"a KO hero is removed from the board ({S.HP})")
        for row in ("top", "bottom"):
            for sid in getattr(h, row):
                if sid not in cat.skills:
                    raise _fail(f"{where}.{row}", f"unknown skill {sid!r}")
            at = getattr(h, f"{row}_at")
            if at is not None and at >= len(getattr(h, row)):
                raise _fail(f"{where}.{row}_at", f"the {row} row has "
                            f"{len(getattr(h, row))} skills")
        for slot in h.exhausted:
            if slot not in st._slots(h):
                raise _fail(f"{where}.exhausted", f"unknown skill slot {slot!r} (top:0 ...)")
        if len(set(h.exhausted)) != len(h.exhausted):
            raise _fail(f"{where}.exhausted", "a skill is exhausted once")
        ults = cat.heroes[h.id].ultimates if h.id in cat.heroes else []
        for u in h.ults_used:
            if u not in ults:
                raise _fail(f"{where}.ults_used", f"{u!r} is not an ultimate of {data.name}")
        for i in h.items:
            if i not in cat.items:
                raise _fail(f"{where}.items", f"unknown item {i!r}")
        if h.follower and h.items:
            raise _fail(f"{where}.items", f"followers carry no items ({S.FOLLOWERS})")
        for i in h.used_items:
            if i not in h.items:
                raise _fail(f"{where}.used_items", f"{i!r} is not one of the hero's items")
    # -------------------------------------------------------------- enemies and traps
    limit = max_enemies(c, list(c.chapters) if st.setup.get("campaign") else [st.chapter])
    for eid, e in st.enemies.items():
        where = f"enemies.{eid}"
        if not (eid.startswith("e") and eid[1:].isdigit() and 1 <= int(eid[1:]) <= limit):
            raise _fail(where, f"enemy standees are e1 to e{limit}")
        data = cat.enemies.get(e.card)
        if data is None:
            raise _fail(f"{where}.card", f"unknown enemy {e.card!r}")
        if e.tile not in tiles:
            raise _fail(f"{where}.tile", f"unknown map tile {e.tile!r}")
        if not 1 <= e.hp <= e.max_hp:
            raise _fail(f"{where}.hp", f"an enemy on the board has 1 to {e.max_hp} HP "
                        f"({S.HP}: enemies with 0 HP are defeated)")
        base = data.hp[len(party) - 1]
        if not base <= e.max_hp <= base + cat.curse_markers * (len(party) - 1):
            raise _fail(f"{where}.max_hp", f"{data.name}'s maximum HP is {base} for "
                        f"{len(party)} player(s), plus curse markers ({S.SPAWN})")
        if e.rotation >= max(1, len(data.actions)) or (not data.actions and e.rotation != -1):
            raise _fail(f"{where}.rotation", "the boss tracker is -1 (before the first turn) "
                        f"or one of the boss's {len(data.actions)} action boxes")
        if e.evasion and not data.evasion:
            raise _fail(f"{where}.evasion", f"{data.name} has no evasion")
    tlimit = max_traps(c)
    per_kind: dict[str, int] = {}
    for tid, t in st.traps.items():
        where = f"traps.{tid}"
        if not (tid.startswith("t") and tid[1:].isdigit() and 1 <= int(tid[1:]) <= tlimit):
            raise _fail(where, f"trap miniatures are t1 to t{tlimit}")
        trap = cat.traps.get(t.kind)
        if trap is None:
            raise _fail(f"{where}.kind", f"unknown trap {t.kind!r}")
        if t.tile not in tiles:
            raise _fail(f"{where}.tile", f"unknown map tile {t.tile!r}")
        if not 1 <= t.level <= len(trap.levels):
            raise _fail(f"{where}.level", f"a {trap.name} has levels 1 to {len(trap.levels)}")
        top = trap.levels[t.level - 1].hp
        if not 0 <= t.hp <= top:
            raise _fail(f"{where}.hp", f"a level {t.level} {trap.name} has 0 to {top} HP")
        if t.special is not None and t.special not in cat.special_upgrades:
            raise _fail(f"{where}.special", f"unknown special upgrade {t.special!r}")
        per_kind[t.kind] = per_kind.get(t.kind, 0) + 1
        if per_kind[t.kind] > trap.stock:
            raise _fail("traps", f"more {trap.name}s than its stock of {trap.stock} "
                        f"({S.BUILD})")
    for tid in tiles:
        if st._traps_on(tid) > p.max_traps_per_tile:
            raise _fail("traps", f"more than {p.max_traps_per_tile} traps on map tile {tid} "
                        f"({S.BUILD})")
    # -------------------------------------------------------------- resources and cards
    for i, k in enumerate(st.components):
        if k not in cat.components:
            raise _fail(f"components[{i}]", f"unknown trap component {k!r}")
    for i, item in enumerate(st.cart):
        if item not in cat.items or cat.items[item].kind == "unique":
            raise _fail(f"cart[{i}]", f"{item!r} is not a common or rare item ({S.CART})")
    for i, item in enumerate(st.gifts):
        if item not in cat.items or cat.items[item].kind != "unique":
            raise _fail(f"gifts[{i}]", f"{item!r} is not a unique item ({S.ITEM_TYPES})")
    cards = {"enemy": cat.enemies, "elite": cat.enemies, "items": cat.items,
             "components": cat.components, "tier1": cat.tier1, "tier2": cat.tier2,
             "chapter": chapter.chapter_events, "level1": cat.skills, "level2": cat.skills,
             "level3": cat.skills}
    for name, deck in st.decks.items():
        if name not in cards:
            raise _fail(f"decks.{name}", f"unknown deck; the decks are {', '.join(cards)}")
        for part in ("pile", "top", "bottom", "discard"):
            for card in getattr(deck, part):
                if card not in cards[name]:
                    raise _fail(f"decks.{name}.{part}", f"unknown card {card!r}")
    for i, (deck, card) in enumerate(st.quests):
        ev = (chapter.chapter_events.get(card) if deck == "chapter"
              else getattr(cat, deck, {}).get(card) if deck in ("tier1", "tier2") else None)
        if ev is None or ev.quest is None:
            raise _fail(f"quests[{i}]", f"{deck} {card} is not a quest card ({S.QUESTS})")
    for i, verse in enumerate(st.story):
        if verse not in chapter.verses:
            raise _fail(f"story[{i}]", f"{chapter.name} has no verse {verse!r}")
    for i, op in enumerate(st.script):
        if not op_known(c, op, st.chapter):
            raise _fail(f"script[{i}]", "not an instruction of this game's campaign book, "
                        "events or global events")
    if st.here is not None and st.here not in tiles:
        raise _fail("here", f"unknown map tile {st.here!r}")
    if st.exploring is not None:
        tid, side = st.exploring
        if tid not in tiles or side not in tiles[tid].paths:
            raise _fail("exploring", f"{tid} has no path on its {side} side")
    # -------------------------------------------------------------- the party sheet
    _check_party(st, "party", st.party)
    _check_party(st, "party_start", json.loads(st.party_start))
    for i, (cid, _) in enumerate(st.record):
        if cid not in c.chapters:
            raise _fail(f"record[{i}]", f"unknown chapter {cid!r}")
    if st.next_chapter is not None and st.next_chapter not in c.chapters:
        raise _fail("next_chapter", f"unknown chapter {st.next_chapter!r}")
    # -------------------------------------------------------------- automated sequences
    _check_sequences(st)


def _check_party(st: Any, field: str, party: dict[str, Any]) -> None:
    cat = st.content.cat
    kinds = {"classes": cat.heroes, "traps": cat.traps, "items": cat.items,
             "components": cat.components, "special_upgrades": cat.special_upgrades,
             "lore": cat.lore}
    for kind, have in party["unlocks"].items():
        if kind in kinds:
            for x in have:
                if x not in kinds[kind]:
                    raise _fail(f"{field}.unlocks.{kind}", f"unknown {kind} {x!r}")
        elif kind not in ("chapters", "decisions"):
            raise _fail(f"{field}.unlocks.{kind}", "unknown kind of unlock (Types of Unlocks)")
    track = cat.fate_track
    if not track[0] <= party["fate"] <= track[-1]:
        raise _fail(f"{field}.fate", f"the fate scale runs from {track[0]} to {track[-1]} "
                    f"({S.FATE})")
    for x in party.get("completed", []):
        if x not in st.content.chapters:
            raise _fail(f"{field}.completed", f"unknown chapter {x!r}")
    for deck in party.get("events", {}):
        if deck not in ("tier1", "tier2"):
            raise _fail(f"{field}.events.{deck}", "the evolving event decks are tier1, tier2")


def _check_sequences(st: Any) -> None:
    ids = {*st.heroes, *st.enemies, *st.traps}
    cb = st.cb
    if st.phase == "combat" and cb is None and st.choice is not None:
        raise _fail("combat", "a combat position needs where combat stands (combat)")
    if cb is not None:
        if st.phase != "combat":
            raise _fail("combat", "combat state outside Phase 3: Combat")
        if cb["order"] != list(st.topo.tao()):
            raise _fail("combat.order", f"the tile activation order of these map tiles is "
                        f"{', '.join(st.topo.tao())} ({S.TAO})")
        if cb["i"] > len(cb["order"]):
            raise _fail("combat.i", "past the end of the tile activation order")
        for x in cb["done"]:
            if x not in ids and not (x.startswith(("e", "t")) and x[1:].isdigit()):
                raise _fail("combat.done", f"unknown piece {x!r}")
        if cb.get("cur") is not None and cb["cur"] not in ids and not (
                cb["cur"][:1] in "et" and cb["cur"][1:].isdigit()):
            raise _fail("combat.cur", f"unknown piece {cb['cur']!r}")
        if cb["step"] == "heroes" and cb.get("cur") is not None:
            raise _fail("combat.cur", "heroes act through hero_turn, not combat.cur")
        if cb.get("sub") not in ("", "start", "target", "fast", "move", "end"):
            raise _fail("combat.sub", "unknown step of an enemy's activation")
        snap = cb.get("snapshot")
        if snap is not None and cb["step"] != "heroes":
            raise _fail("combat.snapshot", "only step 3.3 keeps its starting position")
    ht = st.ht
    if ht is not None:
        if cb is None or cb["step"] != "heroes":
            raise _fail("hero_turn", "a hero's turn happens in step 3.3")
        h = st.heroes.get(ht["hero"])
        if h is None or h.ko or not h.tile:
            raise _fail("hero_turn.hero", "the hero taking a turn stands on the board")
    rw = st.rw
    if rw is not None:
        if st.phase != "rewards":
            raise _fail("rewards", "the rewards steps happen in Phase 4: Rewards")
        for x in rw.get("refreshed", []):
            if x not in st.heroes:
                raise _fail("rewards.refreshed", f"unknown hero {x!r}")
    elif st.phase == "rewards" and st.choice is not None:
        raise _fail("rewards", "a rewards position needs the step it stands at (rewards)")
    lv = st.lv
    if lv is not None:
        for s in [*lv["pool"], *([lv["card"]] if lv.get("card") else [])]:
            if s not in st.content.cat.skills:
                raise _fail("levelup", f"unknown skill {s!r}")
        for x in lv["todo"]:
            if x not in st.heroes or st.heroes[x].follower:
                raise _fail("levelup.todo", f"{x!r} is not a hero of the party")
        if lv.get("card") and not lv["todo"]:
            raise _fail("levelup.card", "a skill being placed belongs to the next hero")


@position_migration("midhalla", 1)
def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 (2026-11-29) to 2: the pending decision's options are written with today's
    action texts (printed names instead of ids)."""
    return retire_choice_texts(data, "midhalla", "choice")
