"""The position format of Gates of Niflheim (docs/formats/niflheim.md) as a schema, and the
checks that refuse a position the rules cannot produce.

Every key is optional (what is left out comes from the scenario's setup). The schema names the
field of a wrong type; :func:`check` names the field and the rule of a value out of bounds.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from meadhall.core import grid
from meadhall.core.errors import ContentError
from meadhall.core.migrate import position_migration, retire_choice_texts

if TYPE_CHECKING:
    from meadhall.games.niflheim.state import NiflheimState

SEGMENTS = ("initiative", "choosing", "heroes", "undead", "end", "interim", "retry",
            "new character", "over")
STATUSES = ("active", "exited", "dead", "reserve")
MARKERS = ("cover stationary", "cover walking", "cover running", "attacked")
CHOICE_KINDS = ("coin", "initiative", "activate hero", "activate undead", "undead target",
                "undead move", "blue rune", "bow target", "spawn", "cover", "ready passed",
                "control", "interim", "retry", "next scenario", "new character")
MAX_MP = 6
MAX_CORRUPTION = 10


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HeroPosition(_Model):
    """A hero's dashboard (docs/formats/niflheim.md, Heroes)."""

    name: str | None = None
    huskarl: bool | None = None
    at: str | None = None
    status: Literal["active", "exited", "dead", "reserve"] = "active"
    health: int | None = None
    max_health: int | None = None
    intent: Literal["stationary", "walking", "running"] | None = None
    mp: int = 0
    marker: Literal["cover stationary", "cover walking", "cover running", "attacked"] | None = None
    activated: bool = False
    acted: bool = False
    zoc_stop: bool = False
    locked_by: int | None = None
    ready: str | None = None
    off_hand: str | None = None
    gear: list[str] = Field(default_factory=list)
    supplies: dict[str, int] = Field(default_factory=dict)
    xp: int = 0
    glory: int = 0
    runes: dict[str, str] = Field(default_factory=dict)
    skills: list[str] = Field(default_factory=list)
    free_step: bool = False
    fate_mp: bool = False
    rearranging: str | None = None


class UndeadPosition(_Model):
    id: int
    kind: str | None = None
    at: str
    wounds: int = 0
    stunned: bool = False
    activated: bool = False
    orange: bool = False
    mv: int | None = None
    """Written by views only (the move value in force); ignored when loading."""


class UndeadActivation(_Model):
    uid: int
    stage: Literal[0, 1] = 0
    stunned: int = 0
    moves: int = 0
    moved: int = 0


class Choice(BaseModel):
    """A players' choice waiting for an answer; kind-specific keys are kept as they are."""

    model_config = ConfigDict(extra="allow")
    kind: Literal["coin", "initiative", "activate hero", "activate undead", "undead target",
                  "undead move", "blue rune", "bow target", "spawn", "cover", "ready passed",
                  "control", "interim", "retry", "next scenario", "new character"]
    prompt: str
    section: str | None = None
    options: list[str] = Field(min_length=1)
    default: str | None = None


class Knockout(_Model):
    hero: str
    by: str = ""
    by_type: str = ""
    round: int = 1


class Tally(_Model):
    kills: int = Field(default=0, ge=0)
    knockouts: list[Knockout] = Field(default_factory=list)


class CampaignStart(_Model):
    """The heroes and records at the beginning of the scenario (what a retry restores)."""

    heroes: dict[str, HeroPosition] = Field(default_factory=dict)
    motes: list[int] = Field(default_factory=list)
    runestones: list[str] = Field(default_factory=list)


class CampaignRecord(_Model):
    """The Party Control Sheet (docs/formats/niflheim.md, Campaign); every key optional."""

    played: list[str] = Field(default_factory=list)
    interim_counts: dict[str, int] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    motes: list[int] = Field(default_factory=list)
    runestones: list[str] = Field(default_factory=list)
    healed: list[str] = Field(default_factory=list)
    start: CampaignStart | None = None
    result: list[str] | None = None
    resume: list[str] | None = None
    retries: dict[str, int] = Field(default_factory=dict)


class NiflheimPosition(_Model):
    """One scenario in play (docs/formats/niflheim.md)."""

    scenario: str = ""
    map: list[str] = Field(default_factory=list)
    legend: dict[str, str] = Field(default_factory=dict)
    walls: list[tuple[str, str]] = Field(default_factory=list)
    round: int = Field(default=1, ge=1)
    track: int = Field(default=0, ge=0)
    lap: int = Field(default=1, ge=1)
    segment: Literal["initiative", "choosing", "heroes", "undead", "end", "interim", "retry",
                     "new character", "over"] = "heroes"
    phase: Literal["start", "action", "final"] = "action"
    order: list[Literal["heroes", "undead"]] = Field(default_factory=list)
    turn: int = Field(default=0, ge=0, le=1)
    active: str | None = None
    heroes: dict[str, HeroPosition] = Field(default_factory=dict)
    hero_order: list[str] = Field(default_factory=list)
    undead: list[UndeadPosition] = Field(default_factory=list)
    pool: dict[str, Any] = Field(default_factory=dict)
    discard: list[str] = Field(default_factory=list)
    items: dict[str, list[str]] = Field(default_factory=dict)
    ground_runes: dict[str, dict[str, str]] = Field(default_factory=dict)
    done: list[str] = Field(default_factory=list)
    undead_activation: UndeadActivation | None = None
    choice: Choice | None = None
    spawn_queue: list[str] | None = None
    spawn: dict[str, list[str]] | None = None
    """A hand-drawn map's spawn locations (label -> squares); default: the scenario's."""
    coin_used: bool = False
    result: list[str] | None = None
    coin_script: list[int] = Field(default_factory=list)
    coin_pos: int = Field(default=0, ge=0)
    forced: list[str] = Field(default_factory=list)
    next_active: str | None = None
    next_uid: int | None = None
    """Written by saves before undead numbers were reused; ignored."""
    campaign: CampaignRecord | None = None
    control: dict[str, str] = Field(default_factory=dict)
    tally: Tally = Field(default_factory=Tally)


class CoinChoice(_Model):
    """The keys of a Coin of Fate question: the action interrupted and the rolls kept."""

    action: str
    script: list[int]
    what: str
    prior: Choice | None = None
    shown: int = 0
    modifier: int = 0
    """The die roll modifier of the roll asked about (shown with a re-roll)."""


class UndeadChoice(_Model):
    uid: int
    why: str = ""


class CoverChoice(_Model):
    seat: str | None = None
    uid: int | None = None
    later: list[str] = Field(default_factory=list)


class HeroChoice(_Model):
    hero: str
    item: str | None = None


CHOICE_DATA: dict[str, type[_Model]] = {
    "coin": CoinChoice, "undead move": UndeadChoice, "undead target": UndeadChoice,
    "bow target": UndeadChoice, "cover": CoverChoice, "ready passed": HeroChoice,
    "control": HeroChoice}
"""The keys each kind of choice carries besides kind, prompt, section, options and default."""


def _parse_choice(raw: dict[str, Any], field: str) -> dict[str, Any]:
    """A choice with its kind's own keys checked (a coin question's earlier choice too)."""
    try:
        base = Choice.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        raise ContentError("", ".".join([field, *(str(x) for x in err["loc"])]),
                           err["msg"]) from None
    common = {"kind", "prompt", "section", "options", "default"}
    extra = {k: v for k, v in raw.items() if k not in common}
    model = CHOICE_DATA.get(base.kind)
    if model is None:
        if extra:
            raise ContentError("", f"{field}.{next(iter(extra))}", f"a {base.kind!r} choice "
                               "carries no such key")
        data: dict[str, Any] = {}
    else:
        try:
            data = model.model_validate(extra).model_dump(exclude_unset=True)
        except ValidationError as e:
            err = e.errors()[0]
            raise ContentError("", ".".join([field, *(str(x) for x in err["loc"])]),
                               err["msg"]) from None
        if base.kind == "coin" and extra.get("prior") is not None:
            data["prior"] = _parse_choice(extra["prior"], f"{field}.prior")
    out = base.model_dump(include=common)
    out["default"] = out["default"] or out["options"][0]
    if out["default"] not in out["options"]:
        raise ContentError("", f"{field}.default", "must be one of the options")
    return {**out, **data}


def parse(position: Any) -> dict[str, Any]:
    """The position checked against the schema: the keys it gives, with their types made
    right; a wrong type raises :class:`ContentError` naming the field."""
    if not isinstance(position, dict):
        raise ContentError("", "", "a position must be an object (docs/formats/niflheim.md)")
    try:
        model = NiflheimPosition.model_validate(position)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise ContentError("", where, err["msg"]) from None
    out = model.model_dump(exclude_unset=True)
    if "choice" in position and position["choice"] is not None:
        out["choice"] = _parse_choice(position["choice"], "choice")
    return out


# ----------------------------------------------------------------------------- invariants
def _bad(field: str, reason: str) -> ContentError:
    return ContentError("", field, reason)


def _square(s: NiflheimState, field: str, name: Any, passable: bool = True) -> grid.Sq:
    """A square of the map (and, with ``passable``, one a figure can stand on)."""
    try:
        q = grid.sq(str(name))
    except ValueError:
        raise _bad(field, f"{name!r} is not a square name like E5") from None
    if not s.board.inside(q):
        raise _bad(field, f"{name} is off the {s.board.width}x{s.board.height} map")
    if passable and s.board.blocks_move(q):
        raise _bad(field, f"{name} is obstructive terrain or a closed door: no figure can "
                   "stand there (Terrain)")
    return q


def check(s: NiflheimState) -> None:
    """Refuse a loaded position the rules cannot produce, naming the field and the rule."""
    from meadhall.games.niflheim.vocabulary import max_undead

    c = s.content
    sc = s.scenario
    if not 0 <= s.track < len(sc.round_track):
        raise _bad("track", f"the round track has {len(sc.round_track)} spaces (0 to "
                   f"{len(sc.round_track) - 1})")
    if sorted(s.order) != ["heroes", "undead"]:
        raise _bad("order", "the two turn segments are the heroes' and the undead's, once each "
                   "(Playing a Scenario)")
    for e in s.board.walls:
        a, b = sorted(e)
        if not (s.board.inside(a) and s.board.inside(b)):
            raise _bad("walls", f"the red line {grid.name(a)}|{grid.name(b)} is off the map")
    occupied: dict[grid.Sq, str] = {}
    for label, sp in sc.specials.items():
        if sp.figure and label not in s.done:
            occupied[grid.sq(sp.square)] = label
    # The scenario's forces, or this game's own when it was set up with more (a save made
    # before the scenario's pool was tuned down keeps the undead it drew).
    pool = s.pool
    own = len(s.undead) + len(sc.orange) + sum(
        len(getattr(pool, k, ())) for k in ("pile", "top", "bottom", "discard"))
    bound = max(max_undead(sc), own)
    for u in s.undead.values():
        f = f"undead.{u.id}"
        if not 1 <= u.id <= bound:
            raise _bad(f + ".id", f"undead numbers run from 1 to {bound}, the most undead "
                       "the forces of this game can put on the map")
        if u.kind is not None and u.kind not in c.undead:
            raise _bad(f + ".kind", f"unknown undead {u.kind!r}")
        _square(s, f + ".at", grid.name(u.at))
        if u.at in occupied:
            raise _bad(f + ".at", f"{grid.name(u.at)} already holds {occupied[u.at]} (one figure "
                       "per square)")
        occupied[u.at] = f"undead {u.id}"
        hv = c.undead[u.kind or "draugr"].hv
        if not 0 <= u.wounds < hv:
            raise _bad(f + ".wounds", f"between 0 and {hv - 1}: a {u.kind or 'draugr'} with "
                       f"{hv} wounds is eliminated (Attack Effects)")
    for h in s.heroes.values():
        _check_hero(s, h, occupied)
    if s.active is not None:
        h = s.heroes.get(s.active)
        if h is None or not h.on_map:
            raise _bad("active", f"{s.active!r} is not a hero on the map")
    if s.next_active is not None and s.next_active not in s.heroes:
        raise _bad("next_active", f"unknown hero {s.next_active!r}")
    for lab in s.done:
        if lab not in sc.specials:
            raise _bad("done", f"scenario {sc.number} has no special square {lab!r}")
    for q, items in s.items.items():
        _square(s, f"items.{grid.name(q)}", grid.name(q), passable=False)
        for it in items:
            if it not in c.armoury:
                raise _bad(f"items.{grid.name(q)}", f"unknown item {it!r}")
    for q, runes in s.ground_runes.items():
        for it, colour in runes.items():
            if it not in s.items.get(q, []) or colour not in c.runestones:
                raise _bad(f"ground_runes.{grid.name(q)}", f"a {colour!r} runestone on {it!r}: "
                           "the weapon must lie there and the colour be black, white, blue or "
                           "red (Runestones)")
    for k in s.discard:
        if k not in c.undead:
            raise _bad("discard", f"unknown undead {k!r}")
    for name in s.forced:
        _square(s, "forced", name, passable=False)
    for name in s.spawn_queue or []:
        _square(s, "spawn_queue", name, passable=False)
    # Spawning places each undead "on each matching spawn location on the map": a map without
    # its spawn squares cannot play the scenario (a spawn would be moved in silence).
    spawns = s.spawns()
    field = "spawn" if s.spawn_at is not None else "map"
    for label in dict.fromkeys(lab for labs in sc.round_track for lab in labs):
        if label not in spawns:
            raise _bad("spawn", f"no square for the spawn location {label!r} that the round "
                       "track shows (Spawning)")
        for name in spawns[label]:
            try:
                _square(s, field, name)
            except ContentError as e:
                raise _bad(field, f"the spawn location {label} ({name}) must be a square of "
                           f"the map a figure can stand on: {e.reason}. A hand-drawn map "
                           "names its own spawn squares in 'spawn' (Spawning)") from None
    ch = s.choice
    while ch is not None:
        if "uid" in ch and ch["uid"] is not None and ch["uid"] not in s.undead:
            raise _bad("choice.uid", f"no undead {ch['uid']} on the map")
        if "hero" in ch and ch["hero"] not in s.heroes:
            raise _bad("choice.hero", f"no hero {ch['hero']!r} in the position")
        if ch.get("item") is not None and ch["item"] not in c.armoury:
            raise _bad("choice.item", f"unknown item {ch['item']!r}")
        if ch["kind"] == "coin" and any(not 1 <= r <= 12 for r in ch["script"]):
            raise _bad("choice.script", "d12 results from 1 to 12")
        ch = ch.get("prior")
    if s.uact is not None and s.uact["uid"] not in s.undead:
        raise _bad("undead_activation.uid", f"no undead {s.uact['uid']} on the map")
    if any(not 1 <= r <= 12 for r in s.coin_script) or s.coin_pos > len(s.coin_script):
        raise _bad("coin_script", "d12 results from 1 to 12, and coin_pos within them")
    if s.result is not None and (len(s.result) != 2 or s.result[0] not in ("win", "loss")):
        raise _bad("result", '["win" or "loss", the reason]')
    for hid, player in s.control.items():
        if hid not in s.heroes or player not in s.players:
            raise _bad(f"control.{hid}", "a hero of the position and a player of the setup")
    if s.camp is None and s.setup.get("campaign"):
        raise _bad("campaign", "the setup plays a campaign: the position needs its record")
    if s.camp is not None:
        for sid in s.camp["played"]:
            if sid not in c.scenarios:
                raise _bad("campaign.played", f"unknown scenario {sid!r}")
        for colour in s.camp["runestones"]:
            if colour not in c.runestones:
                raise _bad("campaign.runestones", f"unknown runestone {colour!r}")
        res = s.camp.get("result")
        if res is not None and (len(res) != 2 or res[0] not in ("win", "loss")):
            raise _bad("campaign.result", '["win" or "loss", the reason]')
        start = s.camp.get("start") or {}
        for hid, d in start.get("heroes", {}).items():
            h = s._load_hero(hid, d)
            top = c.huskarls[hid].health if h.huskarl else c.characters[hid].health
            if not 1 <= h.max_health <= top or not 0 <= h.health <= h.max_health:
                raise _bad(f"campaign.start.heroes.{hid}", f"health between 0 and {top}")
    _check_playable(s)


def _check_hero(s: NiflheimState, h: Any, occupied: dict[grid.Sq, str]) -> None:
    c = s.content
    f = f"heroes.{h.id}"
    top = (c.huskarls[h.id].health if h.huskarl else c.characters[h.id].health)
    if not 1 <= h.max_health <= top:
        raise _bad(f + ".max_health", f"between 1 and {top}, {h.name}'s health track "
                   "(Huskarl: maximum health 2)" if h.huskarl else f"between 1 and {top}, "
                   f"{h.name}'s health track")
    low = 1 if h.status in ("active", "exited", "reserve") else 0
    if not low <= h.health <= h.max_health:
        raise _bad(f + ".health", f"between {low} and {h.max_health}: a hero at 0 health is "
                   "killed (Losing a Scenario)")
    if h.status == "active":
        if h.at is None:
            raise _bad(f + ".at", "an active hero stands on a square of the map")
        _square(s, f + ".at", grid.name(h.at))
        if h.at in occupied:
            raise _bad(f + ".at", f"{grid.name(h.at)} already holds {occupied[h.at]} (one "
                       "figure per square)")
        occupied[h.at] = h.name
    elif h.at is not None:
        raise _bad(f + ".at", f"a hero who is {h.status} is not on the map (null)")
    if not 0 <= h.mp <= MAX_MP:
        raise _bad(f + ".mp", f"between 0 and {MAX_MP} (running gives 6 MP, Action Phase)")
    if h.xp < 0:
        raise _bad(f + ".xp", "XP cannot be negative")
    if h.glory < -MAX_CORRUPTION:
        raise _bad(f + ".glory", f"at most {MAX_CORRUPTION} Corruption (Glory Cost of Skills "
                   "Example)")
    for it in h.items():
        if it not in c.armoury:
            raise _bad(f, f"unknown item {it!r}")
    for slot in (h.ready, h.off_hand):
        if slot is not None and c.armoury[slot].kind != "weapon":
            raise _bad(f + ".ready", f"{slot!r} is not a weapon (Ready Weapon)")
    if h.off_hand is not None and not (h.ready and c.armoury[h.ready].one_handed
                                       and c.armoury[h.off_hand].one_handed):
        raise _bad(f + ".off_hand", "an off-hand weapon needs two one-handed weapons readied "
                   "(One-Handed Weapons)")
    for kind, n in h.supplies.items():
        if kind not in ("projectiles", "healing_salves", "holy_water"):
            raise _bad(f + ".supplies", f"unknown supply {kind!r}")
        limit = 3 if h.huskarl and kind != "projectiles" else None
        if n < 0 or (limit is not None and n > limit):
            raise _bad(f + f".supplies.{kind}", "cannot be negative" if n < 0 else
                       "a huskarl carries up to 3 Healing Salves and 3 Holy Water Phials "
                       "(Huskarl)")
    for item, colour in h.runes.items():
        if colour not in c.runestones or not h.carries(item):
            raise _bad(f + ".runes", f"a {colour!r} runestone on {item!r}: a carried weapon "
                       "and a colour black, white, blue or red (Runestones)")
    for skill in h.skills:
        if skill not in c.skills:
            raise _bad(f + ".skills", f"unknown skill {skill!r}")
    if h.locked_by is not None:
        u = s.undead.get(h.locked_by)
        if u is None or h.at is None or not s.board.adjacent(u.at, h.at):
            raise _bad(f + ".locked_by", "a hero is locked by an undead adjacent to them "
                       "(Locks and Wounds)")
    if h.rearranging is not None:
        _square(s, f + ".rearranging", h.rearranging, passable=False)


def _check_playable(s: NiflheimState) -> None:
    """A decision with at least one legal action, unless the game is over; anything the rules
    cannot compute from the position refuses it. A position whose next step waits for a
    result from the table (``pending``) is checked when that step runs."""
    if s.pending is not None:
        return
    from meadhall.core.chance import NeedChance

    try:
        if s.outcome().over:
            return
        d = s._decision()
        acts = s._legal()
        if d is not None and acts:
            for a in acts:
                s._describe(a)
                trial = s.clone()
                trial.chance.queue.clear()
                # A result the table would be asked for stops the trial: nothing more to try.
                with contextlib.suppress(NeedChance):
                    trial._apply(a, [])
            return
    except ContentError:
        raise
    except Exception as e:  # noqa: BLE001 - any failure means an inconsistent position
        raise _bad("", f"the rules cannot go on from this position ({type(e).__name__}: "
                   f"{e})") from None
    raise _bad("", "the position waits for no decision: name the active hero, or a choice")


@position_migration("niflheim", 1)
def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 (2026-11-29) to 2: the pending decision's options are written with today's
    action texts (weapons and heroes by their names)."""
    return retire_choice_texts(data, "niflheim", "choice")
