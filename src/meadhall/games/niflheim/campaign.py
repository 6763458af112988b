"""The campaign between scenarios: losing and retrying, the interim stage (record, XP and Glory,
rearranging gear, healing salves, runestones, skills), the Party Control Sheet, the party limits,
the new character of scenario 5 and lost memory motes (chapter Additional Rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meadhall.core.errors import IllegalAction
from meadhall.core.protocol import Event
from meadhall.games.niflheim import sections as S
from meadhall.games.niflheim.figures import Hero
from meadhall.games.niflheim.names import SUPPLY, SUPPLY_ID

if TYPE_CHECKING:
    from meadhall.games.niflheim.state import NiflheimState

CHARACTER_LIMIT = 4
HUSKARL_LIMIT = 4
MAX_CORRUPTION = 10
HUSKARL_MAX_SKILLS = 2
END_INTERIM = "end the interim stage"
END_CAMPAIGN = "end the campaign"
RETRY = "retry the scenario"
GIVE_UP = "give up the campaign"
CHOICES = ("interim", "retry", "next scenario", "new character")
INTERIM_SCENARIO = "33"
AUTO_RETRIES = 3


def new_record() -> dict[str, Any]:
    """The Party Control Sheet: scenarios played, interim scenario counts, party notes, lost
    memory motes found, runestones not yet inscribed, the state at the scenario's start."""
    return {"played": [], "interim_counts": {}, "notes": [], "motes": [], "runestones": [],
            "healed": [], "start": None, "result": None, "resume": None, "retries": {}}


def remember_start(s: NiflheimState) -> None:
    """What Losing a Scenario restores: heroes (XP, Glory, health, supplies), motes, runestones."""
    assert s.camp is not None
    s.camp["start"] = {"heroes": {h.id: s._hero_json(h) for h in s.heroes.values()},
                       "motes": list(s.camp["motes"]), "runestones": list(s.camp["runestones"])}


def scenario_over(s: NiflheimState, events: list[Event]) -> None:
    """A scenario ended inside a campaign: on to the interim stage, or retry after a loss."""
    assert s.camp is not None
    out = s.scenario_outcome()
    sc = s.scenario
    if out.result == "loss":
        s.segment = "retry"
        tries = s.camp.setdefault("retries", {}).get(s.scenario_id, 0)
        # The automatic default retries a few times, then gives up, so that automated play
        # (auto_choices) always ends; the players may retry as often as they like.
        default = RETRY if tries < AUTO_RETRIES else GIVE_UP
        s._ask("retry", f"Scenario {sc.number} is lost ({out.reason}): retry it from its "
               f"beginning (retried {tries} times so far), or give up the campaign?",
               S.LOSING, [RETRY, GIVE_UP], default)
        return
    s.camp["played"].append(s.scenario_id)
    if sc.number >= 33:
        counts = s.camp["interim_counts"]
        counts[s.scenario_id] = counts.get(s.scenario_id, 0) + 1
    if sc.number >= 6:
        draw_mote(s, next(h for h in s.heroes.values() if not h.huskarl
                          and h.status != "dead"), events)
    for h in list(s.heroes.values()):
        if h.status == "dead":
            s.camp["notes"].append(f"{h.name} fell in scenario {sc.number}: {sc.name}")
            del s.heroes[h.id]
    leave = _over_limit(s)
    for hid in leave:
        events.append(Event("party", f"{s.heroes[hid].name} leaves to find their own way: the "
                            "party is full", S.YOUR_PARTY))
        del s.heroes[hid]
    for h in s.heroes.values():
        h.at, h.status, h.intent, h.mp, h.marker = None, "reserve", None, 0, None
        h.locked_by, h.zoc_stop, h.activated, h.acted, h.free_step = None, False, False, False, False
    s.moved()
    s.camp["healed"] = []
    events.append(Event("interim", f"Interim stage: scenario {sc.number} is recorded on the "
                        "Party Control Sheet; XP and Glory are adjusted", S.INTERIM))
    s.segment = "interim"
    s.phase = "start"
    ask_interim(s)


def _over_limit(s: NiflheimState) -> list[str]:
    chars = [h.id for h in s.heroes.values() if not h.huskarl]
    husk = [h.id for h in s.heroes.values() if h.huskarl]
    return chars[CHARACTER_LIMIT:] + husk[HUSKARL_LIMIT:]


# ----------------------------------------------------------------------------- interim stage
def interim_options(s: NiflheimState) -> list[str]:
    """What may be done in the interim stage."""
    from meadhall.games.niflheim.heroes import can_share, fits, swaps

    assert s.camp is not None
    party = list(s.heroes.values())
    n = s.names
    out = [END_INTERIM, END_CAMPAIGN]
    for h in party:
        if h.health < h.max_health and h.id not in s.camp["healed"] \
                and h.supplies.get("healing_salves", 0) > 0:
            out.append(f"heal {n.hero[h.id]}")
    for a in party:
        for it in dict.fromkeys(a.items()):
            for b in party:
                if b.id != a.id and fits(s, b, it):
                    out.append(f"give {n.item[it]} from {n.hero[a.id]} to {n.hero[b.id]}")
        # "Rearrange weapons, gear, supplies, and other items between heroes": supplies are
        # given one at a time, within a huskarl's limits (see rulings, 25).
        for kind, k in sorted(a.supplies.items()):
            for b in party:
                if b.id != a.id and k > 0 and can_share(a, b, kind):
                    out.append(f"give {SUPPLY[kind]} from {n.hero[a.id]} to {n.hero[b.id]}")
        out += [f"{w} for {n.hero[a.id]}" for w in swaps(s, a)]
    for colour in sorted(set(s.camp["runestones"])):
        for h in party:
            # "A weapon is readied if it is in either the Ready Weapon or Off Hand slot".
            for w in dict.fromkeys(x for x in (h.ready, h.off_hand) if x):
                if w not in h.runes and s.content.armoury[w].kind == "weapon":
                    out.append(f"inscribe {colour} runestone on {n.hero[h.id]}'s {n.item[w]}")
    for h in party:
        out += [f"unlock {n.skill[sk]} for {n.hero[h.id]}" for sk in unlockable(s, h)]
    return out


def ask_interim(s: NiflheimState) -> None:
    s._ask("interim", "Interim stage: rearrange gear, heal with salves, inscribe runestones, "
           "unlock skills, or end the interim stage", S.INTERIM, interim_options(s), END_INTERIM)


def skill_level(s: NiflheimState, h: Hero, skill: str) -> tuple[str, int] | None:
    for cat, names in s.content.characters[h.id].skills.items():
        if skill in names:
            return cat, names.index(skill) + 1
    return None


def skill_cost(s: NiflheimState, h: Hero, skill: str) -> int:
    """The XP a skill costs: by its level for a character, the huskarl cost for a huskarl."""
    if h.huskarl:
        return s.content.skill_costs["huskarl"]
    lv = skill_level(s, h, skill)
    assert lv is not None
    return s.content.skill_costs[str(lv[1])]


def unlockable(s: NiflheimState, h: Hero) -> list[str]:
    """Skills whose XP cost can be paid and whose preceding level is unlocked (characters), or
    huskarl skills (at most 2)."""
    costs = s.content.skill_costs
    if h.huskarl:
        if len(h.skills) >= HUSKARL_MAX_SKILLS or h.xp < costs["huskarl"]:
            return []
        return [k for k in s.content.huskarl_skills if k not in h.skills]
    out = []
    for names in s.content.characters[h.id].skills.values():
        for lvl, name in enumerate(names, start=1):
            if name in h.skills:
                continue
            if (lvl == 1 or names[lvl - 2] in h.skills) and h.xp >= costs[str(lvl)]:
                out.append(name)
            break
    return out


def apply_interim(s: NiflheimState, action: str, events: list[Event]) -> None:
    """Carry out one interim-stage action, then ask again (or move on)."""
    assert s.camp is not None
    if action == END_INTERIM:
        next_scenario(s, events)
        return
    if action == END_CAMPAIGN:
        sc = s.scenario
        s.camp["result"] = ["loss", f"the players ended the campaign after scenario "
                            f"{sc.number}: {sc.name}, before completing it"]
        s.segment = "over"
        events.append(Event("campaign", "The players end the campaign here; the Party Control "
                            "Sheet records it as ended unfinished", S.PCS))
        return
    words = action.split()
    n = s.names
    if words[0] == "heal":
        h = s.hero_named(action[len("heal "):])
        h.supplies["healing_salves"] -= 1
        h.health += 1
        s.camp["healed"].append(h.id)
        events.append(Event("heal", f"{h.name} uses a healing salve: health {h.health}",
                            S.INTERIM, {"hero": h.id}))
    elif words[0] == "give":
        from meadhall.games.niflheim.heroes import add_supplies, move_rune, receive, take_item

        rest, receiver = action[len("give "):].rsplit(" to ", 1)
        what, giver = rest.split(" from ", 1)
        if what in SUPPLY_ID:
            kind, a, b = SUPPLY_ID[what], s.hero_named(giver), s.hero_named(receiver)
            a.supplies[kind] -= 1
            add_supplies(b, kind, 1)
            events.append(Event("give", f"{a.name} gives {what} to {b.name}", S.INTERIM,
                                {"hero": a.id, "supply": kind}))
            ask_interim(s)
            return
        item, a, b = n.item_id[what], s.hero_named(giver), s.hero_named(receiver)
        take_item(a, item)
        receive(s, b, item)
        move_rune(a, b, item)
        events.append(Event("give", f"{a.name} gives the {s.content.armoury[item].name} to "
                            f"{b.name}", S.INTERIM))
    elif words[0] == "ready":
        from meadhall.games.niflheim.heroes import ready, ready_both

        what, who = action[len("ready "):].rsplit(" for ", 1)
        h = s.hero_named(who)
        off = what.endswith(" off hand")
        what = what[:-len(" off hand")] if off else what
        if off and " and " in what and what not in n.item_id:
            x, y = what.split(" and ", 1)
            ready_both(s, h, n.item_id[x], n.item_id[y], events, cost=0, section=S.INTERIM)
        else:
            ready(s, h, n.item_id[what], off, events, cost=0, section=S.INTERIM)
    elif words[0] == "inscribe":
        colour = words[1]
        who, what = action.split(" runestone on ", 1)[1].rsplit("'s ", 1)
        h, weapon = s.hero_named(who), n.item_id[what]
        h.runes[weapon] = colour
        s.camp["runestones"].remove(colour)
        events.append(Event("rune", f"The {colour} runestone is inscribed on {h.name}'s "
                            f"{s.content.armoury[weapon].name}", S.NEW_RULES_5))
    elif words[0] == "unlock":
        word, who = action[len("unlock "):].rsplit(" for ", 1)
        skill = n.skill_id[word]
        h = s.hero_named(who)
        hid = h.id
        cost = skill_cost(s, h, skill)
        h.xp -= cost
        h.skills.append(skill)
        events.append(Event("skill", f"{h.name} unlocks {skill} for {cost} XP", S.INTERIM,
                            {"hero": hid, "skill": skill}))
    ask_interim(s)


def next_scenario(s: NiflheimState, events: list[Event]) -> None:
    """Exit text: the next scenario, a choice between several, or the end of the campaign."""
    assert s.camp is not None
    nxt = [n for n in s.scenario.next if n in s.content.scenarios]
    if s.scenario.number >= 33 and s.camp.get("resume"):
        nxt = list(s.camp["resume"])  # back to the campaign after an optional interim scenario
        s.camp["resume"] = None
    elif nxt and INTERIM_SCENARIO not in nxt and s.scenario.number >= 3:
        # Interim scenarios are optional between campaign scenarios (from scenarios 3 and 4 on).
        s.camp["resume"] = list(nxt)
        nxt = [*nxt, INTERIM_SCENARIO]
    if not nxt:
        s.camp["result"] = ["win", f"the campaign is complete after scenario "
                            f"{s.scenario.number}: {s.scenario.name}"]
        s.segment = "over"
        events.append(Event("campaign", "The campaign is complete", S.INTERIM))
        return
    if len(nxt) > 1:
        s._ask("next scenario", "Choose the next scenario", S.INTERIM,
               [f"play scenario {n}" for n in nxt])
        return
    start(s, nxt[0], events)


def start(s: NiflheimState, sid: str, events: list[Event]) -> None:
    """Set up the next scenario with the party: characters (and huskarls when its party is
    Heroes); in scenario 5 a new character joins first."""
    s.reset_scenario(sid)
    sc = s.scenario
    chars = [h for h in s.heroes.values() if not h.huskarl]
    if "scenario5" in sc.rules and len(chars) < 2:
        free = [c for c in s.content.characters if c not in s.heroes]
        if free:
            s.segment = "new character"
            s._ask("new character", "Scenario 5: a new character joins the party. Who?",
                   S.NEW_RULES_5, [f"recruit {s.names.hero[c]}" for c in free])
            return
    _begin(s, events)


def _begin(s: NiflheimState, events: list[Event]) -> None:
    sc = s.scenario
    ids = [h.id for h in s.heroes.values() if not h.huskarl]
    if sc.party == "heroes":
        ids += [h.id for h in s.heroes.values() if h.huskarl]
    for h in s.heroes.values():
        h.status, h.at = "reserve", None
    s.place_party(ids[: sc.max_characters + HUSKARL_LIMIT])
    remember_start(s)
    events.append(Event("setup", f"Scenario {sc.number}: {sc.name} begins "
                        f"({', '.join(s.heroes[i].name for i in ids)})", S.SETUP))
    from meadhall.games.niflheim.undead import reveal

    reveal(s, events)
    s.segment = "initiative"


def recruit(s: NiflheimState, cid: str, events: list[Event]) -> None:
    """New Character: starts with the XP of the highest surviving character."""
    best = max((h.xp for h in s.heroes.values() if not h.huskarl), default=0)
    h = s.new_hero(cid, None)
    h.xp = best
    h.status = "reserve"
    s.heroes[cid] = h
    s.moved()
    events.append(Event("recruit", f"{h.name} joins the party with {best} XP", S.NEW_RULES_5,
                        {"hero": cid}))


def retry(s: NiflheimState, events: list[Event]) -> None:
    """Losing a Scenario: restore the game state to the beginning of the scenario."""
    assert s.camp is not None and s.camp["start"] is not None
    start_rec = s.camp["start"]
    s.heroes = {hid: s._load_hero(hid, d) for hid, d in start_rec["heroes"].items()}
    s.moved()
    s.camp["motes"] = list(start_rec["motes"])
    s.camp["runestones"] = list(start_rec["runestones"])
    retries = s.camp.setdefault("retries", {})
    retries[s.scenario_id] = retries.get(s.scenario_id, 0) + 1
    events.append(Event("retry", f"Scenario {s.scenario.number} restarts: XP, Glory, health and "
                        "supplies are reset to their values at its beginning", S.LOSING))
    s.reset_scenario(s.scenario_id)
    _begin(s, events)


def apply_choice(s: NiflheimState, kind: str, action: str, c: dict[str, Any],
                 events: list[Event]) -> None:
    assert s.camp is not None
    if kind == "interim":
        apply_interim(s, action, events)
    elif kind == "retry":
        if action == GIVE_UP:
            s.camp["result"] = ["loss", f"the party gave up after losing scenario "
                                f"{s.scenario.number}"]
            s.segment = "over"
        else:
            retry(s, events)
    elif kind == "next scenario":
        sid = action.split()[-1]
        if sid != INTERIM_SCENARIO:
            s.camp["resume"] = None
        start(s, sid, events)
    elif kind == "new character":
        recruit(s, s.names.hero_id[action[len("recruit "):]], events)
        _begin(s, events)


# ----------------------------------------------------------------------------- glory, motes
def xp_pegs(xp: int) -> dict[str, int | bool | None]:
    """Recording Experience: the black peg on the tens (none below 10), the white peg on the
    ones; with matching digits ("say 55") the white peg goes into the red hole."""
    tens, ones = divmod(max(0, xp), 10)
    black = tens if tens else None
    return {"black": black, "white": ones, "red": black is not None and black == ones}


def spend_glory(h: Hero, n: int) -> None:
    """Pay a Glory cost outside an activation (no MP to adjust): checked, then moved."""
    check_glory(h, n)
    h.glory -= n


def check_glory(h: Hero, n: int) -> None:
    """A skill's Glory cost can be paid only without passing 10 Corruption (Glory Cost of
    Skills Example)."""
    if -(h.glory - n) > MAX_CORRUPTION:
        raise IllegalAction(S.ID, "Glory Cost of Skills Example", f"{h.name} would exceed "
                            f"{MAX_CORRUPTION} Corruption")


def draw_mote(s: NiflheimState, h: Hero, events: list[Event]) -> int:
    """Lost Memory Motes: draw a random numbered mote not found yet (all found: they return);
    record it on the PCS and read its entry."""
    assert s.camp is not None
    size = s.content.mote_pool_size
    found = s.camp["motes"]
    left = [n for n in range(1, size + 1) if n not in found]
    if not left:
        found.clear()
        left = list(range(1, size + 1))
    n = left[s.chance.pick("lost memory mote", left, section=S.MOTES)]
    found.append(n)
    text = s.content.motes.get(str(n), "(entry not authored)")
    events.append(Event("mote", f"{h.name} draws lost memory mote {n}: {text}", S.MOTES,
                        {"mote": n}))
    return n
