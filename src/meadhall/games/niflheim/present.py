"""What a player reads and clicks: a sentence for every legal action and the board things it
involves (squares, figures, dashboard cards, track spaces, options), with the cost or the numbers
needed from the rules (Movement Actions (MA) - MP Cost, Die Roll Modifiers (DRM)).

The target ids here are the ones :mod:`meadhall.games.niflheim.drawing` gives the drawn pieces.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from meadhall.core import grid
from meadhall.core.protocol import Target
from meadhall.games.niflheim import campaign, combat, heroes, skills, undead
from meadhall.games.niflheim.figures import MP, Hero
from meadhall.games.niflheim.names import SUPPLY_ID

if TYPE_CHECKING:
    from meadhall.games.niflheim.state import NiflheimState

Described = tuple[str, tuple[Target, ...]]


# ----------------------------------------------------------------------------- target ids
def hero_fig(hid: str) -> Target:
    return Target("figure", hid)


def hero_panel(hid: str, note: str = "") -> Target:
    return Target("hero", hid, note)


def undead_fig(uid: int, note: str = "") -> Target:
    return Target("figure", f"undead{uid}", note)


def square(q: grid.Sq | str, note: str = "") -> Target:
    return Target("square", q if isinstance(q, str) else grid.name(q), note)


def card(hid: str, thing: str, note: str = "") -> Target:
    """A dashboard card: a weapon, gear item or supply column (``frida-sling``)."""
    return Target("card", f"{hid}-{thing}", note)


def skill_card(hid: str, skill: str, note: str = "") -> Target:
    return Target("card", f"{hid}-skill-{slug(skill)}", note)


def intent_space(hid: str, intent: str, note: str = "") -> Target:
    return Target("space", f"{hid}-{intent}", note)


def rune_card(colour: str) -> Target:
    return Target("card", f"rune-{colour}")


def slug(text: str) -> str:
    """An option's id: its text in lower case, runs of other characters as ``-``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def option(text: str, note: str = "") -> Target:
    """A choice with no place on the table (drawn as a card of the pending choice)."""
    return Target("option", slug(text), note)


# ----------------------------------------------------------------------------- numbers
def attack_odds(s: NiflheimState, h: Hero, p: combat.AttackPlan, cover: str | None
                ) -> tuple[str, str]:
    """What each attack die needs against the target, with every DRM applied."""
    u = s.undead[p.undead]
    drm = sum(m for m, _ in combat.modifiers(s, h, u, p, cover))
    kind = u.kind or "draugr"
    stun = combat.needed(p.stun, drm)
    if "armoured" in s.content.undead[kind].powers:
        stun = None
    wound = combat.needed(p.wound, drm)
    if h.runes.get(p.weapon or "") == "red" and stun is not None:
        wound = stun  # the red (Fire) runestone turns a stun into a wound
    return combat.odds(stun, wound)


def weapon_words(s: NiflheimState, p: combat.AttackPlan) -> str:
    if p.weapon is None:
        return "unarmed"
    off = " (off hand)" if p.off_hand else ""
    return f"with the {s.content.armoury[p.weapon].name.lower()}{off}"


# ----------------------------------------------------------------------------- labels
def describe(s: NiflheimState, text: str) -> Described:
    """The label and targets of the legal action ``text``."""
    if s.choice is not None:
        label, targets = _choice(s, text)
    elif text.startswith("cover: "):
        label, targets = _cover(s, text)
    else:
        assert s.active is not None
        label, targets = _hero(s, s.heroes[s.active], text)
    return label[:1].upper() + label[1:], targets


def _attack(s: NiflheimState, h: Hero, text: str, cover: str | None) -> Described:
    prefix = s.cover_prefix(h) if cover is not None else ""
    p = next(p for p in combat.plans(s, h, prefix=prefix) if p.text == text)
    u = s.undead[p.undead]
    chance, note = attack_odds(s, h, p, cover)
    kind = "ranged" if p.ranged else "hand to hand"
    rng = combat.attack_range(h.at, u.at)  # type: ignore[arg-type]
    skill = ""
    if p.skill is not None:
        sk = s.content.skills[p.skill]
        skill = f", using {p.skill} ({sk.glory} Glory: {sk.text})"
    who = f"{h.name}'s covering attack on" if cover is not None else f"{h.name} attacks"
    label = (f"{who} {undead.uname(s, u)} {weapon_words(s, p)} ({kind}, range {rng}{skill}): "
             f"{chance}")
    targets = [undead_fig(u.id, note)]
    if cover is not None:
        targets.append(hero_fig(h.id))
    return label, tuple(targets)


def _cover(s: NiflheimState, text: str) -> Described:
    rest = text[len("cover: "):]
    throw = " throw " in rest and " attack undead " not in rest
    h = s.hero_named(rest.split(" throw " if throw else " attack undead ")[0])
    assert h.marker is not None
    if throw:
        return _throw(s, h, text, h.marker.split()[1])
    return _attack(s, h, text, h.marker.split()[1])


def _hero(s: NiflheimState, h: Hero, text: str) -> Described:
    n = s.names
    words = text.split()
    rate = heroes.rate(h)
    if words[0] == "declare":
        intent = words[1]
        mp = MP[intent] - (1 if h.corruption >= 5 and MP[intent] else 0)
        am = combat.INTENT_AM[intent] - (2 if h.huskarl and h.health < h.max_health else 0)
        extra = " (then roll to break the lock)" if h.locked_by is not None else ""
        return (f"{h.name} declares {intent}: {mp} MP, attacks at {am:+d}{extra}",
                (intent_space(h.id, intent, f"{mp} MP"),))
    if text == "end activation" and h.rearranging is not None:
        return f"{h.name} is done rearranging after the search and ends the activation", ()
    if text == "end activation":
        if h.marker is None and s.scenario.attacks and h.locked_by is None:
            am = combat.COVER_AM[h.intent or "stationary"]
            return f"{h.name} ends the activation and covers ({am:+d} DRM)", ()
        return f"{h.name} ends the activation", ()
    if words[0] == "move":
        st = heroes.steps(s, h)
        step = next(x for x in st if heroes.step_text(st, x) == text)
        how = f" past {grid.name(step.past)}" if " past " in text else ""
        more = ""
        if step.burn:
            more += ", burned by the fire (1 wound)"
        z = undead.zoc(s).get(step.to)
        if z:
            more += ", into a zone of control: must stop"
        return (f"{h.name} moves to {grid.name(step.to)}{how} ({step.cost} MP{more})",
                (square(step.to, f"{step.cost} MP"),))
    if words[0] == "exit":
        e = next(e for e in s.scenario.exits if e.direction == words[1]
                 and grid.sq(e.square) == h.at)
        obj = s.scenario.objective
        ok = (all(a in s.done for a in obj.after) and (obj.carry is None or h.carries(obj.carry))
              and not any(u.kind in obj.kill for u in s.undead.values()))
        why = "completing the objective" if ok else "out of the scenario, objective not met"
        return (f"{h.name} leaves the map at the exit ({e.direction}, 1 MP): {why}",
                (square(e.square, "1 MP"),))
    if words[0] in ("open", "close"):
        cost = heroes.DOOR_COST[rate]
        return (f"{h.name} {words[0]}s the door on {words[2]} ({cost} MP)",
                (square(words[2], f"{cost} MP"),))
    if words[0] == "pick":
        q = grid.sq(words[2])
        cost = heroes.PICKUP_COST[rate] if h.rearranging is None else 0
        got = [s.content.armoury[i].name for i in s.items.get(q, ()) if heroes.fits(s, h, i)]
        return (f"{h.name} picks up {', '.join(got)} from {words[2]} ({cost} MP)",
                (square(q, f"{cost} MP"),))
    if words[0] == "pass":
        what, who = text[5:].rsplit(" to ", 1)
        to = s.hero_named(who)
        if what in SUPPLY_ID:
            return (f"{h.name} passes {what} to {to.name} (2 MP)",
                    (card(h.id, SUPPLY_ID[what]), hero_fig(to.id) if to.on_map
                     else hero_panel(to.id)))
        item = n.item_id[what]
        return (f"{h.name} passes the {s.content.armoury[item].name} to {to.name} (2 MP)",
                (card(h.id, item, "2 MP"), hero_fig(to.id)))
    if words[0] == "ready":
        cost = "no MP" if h.rearranging is not None else "1 MP"
        off = text.endswith(" off hand")
        what = text[6:-9] if off else text[6:]
        if off and what not in n.item_id:
            x, y = (n.item_id[w] for w in what.split(" and ", 1))
            arm = s.content.armoury
            return (f"{h.name} readies the {arm[x].name} and the {arm[y].name} in the off hand "
                    f"({cost})", (card(h.id, x, cost), card(h.id, y)))
        item = n.item_id[what]
        slot = "Off-Hand slot" if off else "Ready Weapon slot"
        return (f"{h.name} puts the {s.content.armoury[item].name} in the {slot} ({cost})",
                (card(h.id, item, cost),))
    if words[0] == "rune":
        return (f"{h.name} moves 1 square to {words[2]} (white runestone, no MP)",
                (square(words[2], "0 MP"),))
    if words[0] == "force":
        return (f"{h.name} forces the locked door on {words[3]} open (a special action: the "
                "whole activation)", (square(words[3]),))
    if words[0] in ("rescue", "search"):
        sp = s.scenario.specials[words[1]]
        verb = "rescues" if sp.action == "rescue" else "searches"
        target = Target("figure", words[1]) if sp.figure else square(sp.square)
        return (f"{h.name} {verb} {sp.name} ({words[1]}): a special action, the whole "
                "activation", (target,))
    if words[0] == "throw":
        return _throw(s, h, text)
    if words[0] == "attack":
        return _attack(s, h, text, None)
    return text, ()


def _throw(s: NiflheimState, h: Hero, text: str, cover: str | None = None) -> Described:
    kind = "greek_fire" if "throw greek fire at" in text else "holy_water"
    q = grid.sq(text.rsplit(" ", 1)[1])
    assert h.at is not None and h.intent is not None
    rng = combat.attack_range(h.at, q)
    los, _ = combat.los_am(s, h.at, q)
    own = sum(m for m, _ in combat.attacker_ams(h, cover))
    hit = combat.needed(rng, own + los)
    wd = s.content.armoury[kind]
    assert wd.aoe is not None
    throw = f"{hit}+ lands on target, else it deviates" if hit else "it always deviates"
    drm = own + sum(m for m, _ in skills.passive(s, h, {"phial"}))
    burst, _ = combat.odds(combat.needed(wd.aoe[0], drm), combat.needed(wd.aoe[1], drm))
    who = f"{h.name}'s covering throw:" if cover is not None else f"{h.name} throws"
    targets = [square(q, f"{hit}+" if hit else "deviates")]
    if cover is not None:
        targets.append(hero_fig(h.id))
    return (f"{who} the {wd.name.lower()} at {grid.name(q)} (range {rng}): {throw}; "
            f"the burst attacks every figure around it: {burst}", tuple(targets))


def _choice(s: NiflheimState, text: str) -> Described:
    c = s.choice
    assert c is not None
    kind = c["kind"]
    if kind == "coin":
        roll = c["script"][-1]
        if text == "keep the roll":
            return f"Keep the {roll} of {c['what']}", (option(text, str(roll)),)
        return (f"Flip the Coin of Fate (once per scenario): heads re-rolls the {roll} of "
                f"{c['what']}, tails keeps it", (option(text),))
    if kind == "initiative":
        return f"The {text.split()[0]} take the first turn", (option(text),)
    if kind == "activate hero":
        h = s.hero_named(text[len("activate "):])
        return f"{h.name} activates next", (hero_fig(h.id),)
    if kind == "activate undead":
        u = s.undead[int(text.split()[-1])]
        return f"{undead.uname(s, u)} activates next", (undead_fig(u.id),)
    if kind == "undead target":
        u = s.undead[c["uid"]]
        h = s.hero_named(text.split(" attacks ", 1)[1])
        what = "1 wound" if h.locked_by is not None else "it locks them"
        return f"{undead.uname(s, u)} attacks {h.name}: {what}", (hero_fig(h.id),)
    if kind == "bow target":
        u = s.undead[c["uid"]]
        h = s.hero_named(text.split(" shoots ", 1)[1])
        note = "11+" if skills.carries_shield(s, h, readied=False) else "10+"
        return (f"{undead.uname(s, u)} shoots {h.name} with its spectral bow: {note} wounds",
                (Target("figure", h.id, note),))
    if kind == "undead move":
        u = s.undead[c["uid"]]
        q = text.rsplit(" ", 1)[1]
        return f"{undead.uname(s, u)} moves to {q}", (square(q),)
    if kind == "blue rune":
        u = s.undead[int(text.split()[-1])]
        return f"The blue (Water) runestone stuns {undead.uname(s, u)}", (undead_fig(u.id),)
    if kind == "spawn":
        q = text.rsplit(" ", 1)[1]
        return f"The undead marker is placed on {q}", (square(q),)
    if kind == "cover":
        if text == "no cover attack":
            return "No covering attack now", (option(text),)
        return _cover(s, text)
    if kind == "ready passed":
        h = s.heroes[c["hero"]]
        item = s.content.armoury[c["item"]].name
        if " keeps " in text:
            return f"{h.name} keeps the {item} in a gear slot", (option(text),)
        slot = "Off-Hand slot" if text.endswith(" off hand") else "Ready Weapon slot"
        return (f"{h.name} puts the {item} in the {slot} at once, for free",
                (option(text),))
    if kind == "control":
        player = text.rsplit(" controls ", 1)[0]
        h = s.heroes[c["hero"]]
        return f"{player} controls {h.name}", (option(text),)
    if kind in campaign.CHOICES:
        return _campaign(s, kind, text)
    return text, (option(text),)


def _campaign(s: NiflheimState, kind: str, text: str) -> Described:
    n = s.names
    words = text.split()
    if kind == "interim":
        if text == campaign.END_INTERIM:
            return "End the interim stage and go on", (option(text),)
        if text == campaign.END_CAMPAIGN:
            return ("End the campaign here, unfinished (it is recorded as ended, not won)",
                    (option(text),))
        if words[0] == "heal":
            h = s.hero_named(text[len("heal "):])
            return (f"{h.name} uses a healing salve: health {h.health} → {h.health + 1}",
                    (hero_panel(h.id, "+1"), card(h.id, "healing_salves")))
        if words[0] == "give":
            rest, receiver = text[len("give "):].rsplit(" to ", 1)
            what, giver = rest.split(" from ", 1)
            a, b = s.hero_named(giver), s.hero_named(receiver)
            if what in SUPPLY_ID:
                kind = SUPPLY_ID[what]
                return (f"{a.name} gives {what} to {b.name} ({a.supplies.get(kind, 0) - 1} "
                        f"left; {b.name} then has {b.supplies.get(kind, 0) + 1})",
                        (card(a.id, kind), hero_panel(b.id)))
            item = n.item_id[what]
            return (f"{a.name} gives the {s.content.armoury[item].name} to {b.name}",
                    (card(a.id, item), hero_panel(b.id)))
        if words[0] == "ready":
            what, who = text[len("ready "):].rsplit(" for ", 1)
            h = s.hero_named(who)
            off = what.endswith(" off hand")
            what = what[:-len(" off hand")] if off else what
            if off and " and " in what and what not in n.item_id:
                x, y = (n.item_id[w] for w in what.split(" and ", 1))
                arm = s.content.armoury
                return (f"{h.name} readies the {arm[x].name} and the {arm[y].name} in the "
                        "off hand", (card(h.id, x), card(h.id, y)))
            item = n.item_id[what]
            slot = " in the off hand" if off else ""
            return (f"{h.name} readies the {s.content.armoury[item].name}{slot}",
                    (card(h.id, item),))
        if words[0] == "inscribe":
            who, what = text.split(" runestone on ", 1)[1].rsplit("'s ", 1)
            h, item = s.hero_named(who), n.item_id[what]
            colour = words[1]
            return (f"Inscribe the {colour} runestone ({s.content.runestones[colour]}) on "
                    f"{h.name}'s {s.content.armoury[item].name}",
                    (rune_card(colour), card(h.id, item)))
        if words[0] == "unlock":
            word, who = text[len("unlock "):].rsplit(" for ", 1)
            h, skill = s.hero_named(who), n.skill_id[word]
            cost = campaign.skill_cost(s, h, skill)
            return (f"{h.name} unlocks {skill} for {cost} XP: {s.content.skills[skill].text}",
                    (skill_card(h.id, skill, f"{cost} XP"),))
    if kind == "retry":
        if text == campaign.RETRY:
            return "Retry the scenario from its beginning", (option(text),)
        return "Give up the campaign (it ends as a loss)", (option(text),)
    if kind == "next scenario":
        sc = s.content.scenarios[words[-1]]
        return f"Play scenario {sc.number}: {sc.name}", (option(text),)
    if kind == "new character":
        cid = n.hero_id[text[len("recruit "):]]
        return (f"{s.content.characters[cid].name} joins the party (scenario 5)",
                (option(text),))
    return text, (option(text),)

