"""Labels and board targets of Runaljod's legal actions, for people and the browser table.

Each legal action text gets a sentence ("Berserk attacks Clan Warrior 3 at K3 with the Bearded
Axe using uruz: 2.1 damage expected against 1 defence, kills 35%") and the targets the drawing
(``RunaljodGame.draw``) shows with the same ``kind:id``: squares, figures (heroes ``figure:<hero>``,
enemies ``figure:enemy<uid>``, runes ``figure:<hero>:<icon>``, god's runes on the altar
``figure:altar:<god>``), hero board spaces (``space:<hero>:<space>``) and cards (skills and
items ``card:<hero>:<id>``, decks ``card:deck:<deck>``, the 2-player card ``card:two-player``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from meadhall.core import grid
from meadhall.core.protocol import Target
from meadhall.core.words import plural

from .model import FACE_DAMAGE, GOD_RUNE, Enemy, Hero, HeroAct

if TYPE_CHECKING:
    from .content import RunaljodContent

SPACE_NAMES = {"move1": "movement space", "move2": "movement space", "attack1": "attack space",
               "attack2": "reduced attack space", "interact": "interact space",
               "physical": "physical check space", "spiritual": "spiritual check space"}
SIDE_WORDS = {"up": "face up", "down": "face down", "side": "sideways"}


def deck_target(deck: str) -> str:
    """Target id of a deck (``enemy AI`` → ``deck:enemy-ai``)."""
    return "deck:" + "-".join(deck.lower().split())


def rune_target(hero: str, icon: str) -> Target:
    return Target("figure", f"{hero}:{icon}")


def check_odds(content: RunaljodContent, dice: Iterable[str]) -> float:
    """Chance of at least one upgrade on ``dice`` (Perform Checks)."""
    miss = 1.0
    for d in dice:
        faces = content.dice[d]
        miss *= 1 - faces.count("upgrade") / len(faces)
    return 1 - miss


def attack_odds(content: RunaljodContent, dice: list[str], cancels: set[str], defence: int,
                damage_upgrades: list[tuple[int, int]], life_left: int,
                blanks_to_double_axe: bool = False) -> tuple[float, float]:
    """(expected life points lost, chance to defeat) of an attack: the dice's damage, minus
    cancelled faces, plus the best damage upgrades the rolled upgrades pay for
    (``damage_upgrades``: (cost, value) pairs), minus defence (Attack steps 2-4)."""
    dist: dict[tuple[int, int], float] = {(0, 0): 1.0}
    for d in dice:
        faces = content.dice[d]
        nxt: dict[tuple[int, int], float] = defaultdict(float)
        for (dmg, ups), p in dist.items():
            for f in faces:
                if blanks_to_double_axe and f == "blank":
                    f = "double_axe"
                add = 0 if f in cancels else FACE_DAMAGE[f]
                nxt[(dmg + add, ups + (f == "upgrade"))] += p / len(faces)
        dist = nxt
    best_bonus: dict[int, int] = {}
    for ups in {u for _, u in dist}:
        best = 0
        n = len(damage_upgrades)
        for mask in range(1 << n):
            chosen = [damage_upgrades[i] for i in range(n) if mask >> i & 1]
            if sum(c for c, _ in chosen) <= ups:
                best = max(best, sum(v for _, v in chosen))
        best_bonus[ups] = best
    expect = kill = 0.0
    for (dmg, ups), p in dist.items():
        lost = min(max(0, dmg + best_bonus[ups] - defence), life_left)
        expect += p * lost
        kill += p * (lost >= life_left)
    return expect, kill


class DescribeMixin:
    """``_describe`` for the state: parses the text with the state's own grammar."""

    # ------------------------------------------------------------ helpers
    def _rune_words(self, h: Hero, icon: str) -> str:
        r = h.rune(icon)
        if r is None:
            return icon
        return f"{self.rname(r)} ({SIDE_WORDS[r.side]})"

    def _foe_words(self, e: Enemy) -> str:
        return f"{self.enemy_data(e).name} {e.uid} at {self.sqname(e.at)}"

    def _foe_targets(self, e: Enemy, note: str = "") -> list[Target]:
        return [Target("figure", f"enemy{e.uid}", note)]

    def _attack_words(self, h: Hero, square: grid.Sq, weapon: str, reduced: bool,
                      extra: list[str], keywords: list[str]
                      ) -> tuple[str, str, list[Target]]:
        """(what, details, targets) of an attack: whom it attacks, then the dice it rolls and
        its odds against the enemy on ``square``."""
        e = self.enemy_at(square)
        it = self.content.items[weapon]
        dice = self.attack_pool(h, weapon, reduced, extra, keywords)
        verb = "makes a reduced attack on" if reduced else "attacks"
        if e is None:
            return f"{verb} {self.sqname(square)} with the {it.name}", "", [
                Target("square", self.sqname(square))]
        ed = self.enemy_data(e)
        ranged = "range" in (set(it.keywords) | set(keywords))
        ups = [(u.cost, u.value) for i in h.equipment for u in self.content.items[i].upgrades
               if u.effect == "damage"]
        cheru = "cheru" in h.bonus and not ranged
        exp, kill = attack_odds(self.content, dice, set(ed.cancels), self.enemy_defence(e),
                                ups, ed.life - e.damage, cheru)
        note = f"{exp:.1f} dmg"
        detail = (f"{', '.join(dice)} against {self.enemy_defence(e)} defence: {exp:.1f} "
                  f"damage expected, defeats it {kill:.0%} of the time")
        if "area" in (set(it.keywords) | set(keywords)):
            detail += " (Area: every enemy next to the target space is hit too)"
        return (f"{verb} {self._foe_words(e)} with the {it.name}", detail,
                [Target("square", self.sqname(square), note), *self._foe_targets(e, note)])

    def _power_words(self, h: Hero, power: str, detail: str) -> tuple[str, str, list[Target]]:
        """(what, effect, targets) of invoking ``power`` with ``detail`` (God's Powers, God's
        Gear)."""
        c = self.content
        if power in c.gods:
            name, text = c.gods[power].name, c.gods[power].text
        else:
            name, text = c.items[power].name, c.items[power].text
        targets: list[Target] = []
        if power in ("thor", "jarngreipr") and detail:
            if detail == "every enemy of the tile":
                foes = [e for e, _ in self.foes_on_tile(h)]
                for e in foes:
                    targets += self._foe_targets(e, "1 dmg")
                return f"invokes {name}", f"every enemy on the tile ({len(foes)}) loses 1 " \
                       "life point", targets
            e = self.enemy_at(grid.sq(detail))
            n = 2 if power == "thor" else 3
            if e is not None:
                targets += [Target("square", detail, f"{n} dmg"),
                            *self._foe_targets(e, f"{n} dmg")]
                return f"invokes {name}", f"{self._foe_words(e)} loses {n} life points", \
                    targets
        if power in ("thor", "jarngreipr"):
            return f"invokes {name}", "no enemy to target", targets
        if power == "draupnir" and detail:
            who, _, rune = detail.partition("'s ")
            o = self.heroes[who]
            targets += [Target("figure", who), rune_target(who, self.icon_of(rune))]
            return f"invokes {name}", f"{self.hname(o)} flips {rune} sideways", targets
        return f"invokes {name}", text.rstrip("."), targets

    # ------------------------------------------------------------ the hook
    def _describe(self, text: str) -> tuple[str, tuple[Target, ...]]:
        ask = self.ask
        if ask is not None:
            label, targets = getattr(self, "_describe_" + ask["kind"])(text, ask)
        else:
            label, targets = self._describe_turn(self.heroes[self.active], text)
        return label, tuple(targets)

    def _describe_turn(self, h: Hero, text: str) -> tuple[str, list[Target]]:
        name = self.hname(h)
        act = self.parse_action(h, text)
        if act is None:
            return text, []
        k = act.kind
        targets: list[Target] = []
        using = ""
        if act.rune and act.space:
            using = f" using {self._rune_words(h, act.rune)}"
            targets += [Target("space", f"{h.id}:{act.space}"), rune_target(h.id, act.rune)]
        if k == "pass":
            return f"{name} passes: unused runes stay in the destiny pool", []
        if k == "hand_over":
            o = self.heroes[act.hero]
            return f"{self.hname(o)} acts next ({name} may act again later)", [
                Target("figure", o.id)]
        if k == "move":
            targets[0] = Target("space", f"{h.id}:{act.space}", f"{act.value} MP")
            return f"{name} moves with {act.value} movement points{using}", targets
        if k == "attack":
            reduced = act.space == "attack2"
            what = "a reduced attack (one die fewer)" if reduced else "an attack"
            return (f"{name} makes {what}{using}, then chooses the weapon and the target",
                    targets + self._target_squares(self.attack_choices(h, reduced, [])))
        if k == "search":
            assert act.square is not None
            return f"{name} searches the token on {self.sqname(act.square)}: draws a search " \
                   f"card{using}", [Target("square", self.sqname(act.square)),
                                    Target("card", deck_target("search")), *targets]
        if k == "explore":
            return (f"{name} explores{using}: the next exploration card is placed, the time "
                    "token goes back to a snake and a new tile is attached",
                    [Target("card", deck_target("exploration")), *targets])
        if k == "equip":
            it = self.content.items[act.item]
            rep = f" (replacing {' and '.join(self.content.items[i].name for i in act.replace)})" \
                if act.replace else ""
            return f"{name} equips the {it.name}{rep}{using}", [
                Target("card", f"{h.id}:{act.item}"), *targets]
        if k == "give":
            it = self.content.items[act.item]
            o = self.heroes[act.hero]
            return f"{name} gives the {it.name} to {self.hname(o)}{using}", [
                Target("card", f"{h.id}:{act.item}"), Target("figure", o.id), *targets]
        if k == "invoke":
            words, effect, t = self._power_words(h, act.power, act.detail)
            return (f"{name} {words}{using}: {effect}; the altar is re-thrown",
                    [Target("figure", f"altar:{act.power}"), *t, *targets])
        if k == "rethrow":
            return f"{name} re-throws the altar{using} (each sideways god's rune heals every " \
                   "hero 1 life point)", targets
        if k == "buy":
            god = act.power.capitalize()
            paid = " and ".join(act.paid)
            gear = f" for the {self.content.items[act.item].name}" if act.item else ""
            return (f"{name} takes {god}'s rune from the altar{gear}, flipping {paid} "
                    "(sideways) face down", [Target("figure", f"altar:{act.power}"),
                                             *(rune_target(h.id, i) for i in act.paid)])
        if k == "use_god":
            words, effect, t = self._power_words(h, act.power, act.detail)
            god = act.rune[4:].capitalize()
            return (f"{name} {words} with {god}{GOD_RUNE}: {effect}; the rune returns to the "
                    "altar, which is re-thrown", [rune_target(h.id, act.rune), *t])
        if k == "skill":
            return self._describe_skill(h, act)
        if k == "assist":
            o = self.heroes[act.hero]
            r = h.rune(act.rune)
            t = [Target("figure", o.id), Target("space", f"{h.id}:physical"),
                 rune_target(h.id, act.rune)]
            if r is not None and r.face_up:
                dice = self.check_dice(h, "physical")
                return (f"{name} helps {self.hname(o)} up using {self._rune_words(h, act.rune)}"
                        f": a physical check ({', '.join(dice)}) adds 1 life point per "
                        "upgrade to the recovery throw", t)
            return (f"{name} helps {self.hname(o)} up using {self._rune_words(h, act.rune)}: "
                    "face down, the check cannot be made (no extra life point); the recovery "
                    "throw heals as usual", t)
        if k == "use":
            it = self.content.items[act.item]
            return f"{name} uses the {it.name}: {it.text.rstrip('.')}", [
                Target("card", f"{h.id}:{act.item}")]
        if k == "card2":
            eff = self.content.two_player.effects[act.value]
            o = self.heroes[act.hero]
            return f"The 2-player card is flipped for {self.hname(o)}: {eff.text.rstrip('.')}", [
                Target("card", "two-player"), Target("figure", o.id)]
        return text, targets

    def _describe_skill(self, h: Hero, act: HeroAct) -> tuple[str, list[Target]]:
        sk = dict(self.all_skills(h))[act.skill]
        cost = [", ".join(sk.runes)] if sk.runes else []
        if sk.destiny:
            cost.append(f"{sk.destiny} destiny")
        if sk.trance:
            cost.append(f"{sk.trance} trance")
        paid = f" ({'; '.join(cost)})" if cost else ""
        targets = [Target("card", f"{h.id}:{act.skill}", "; ".join(cost))]
        targets += [rune_target(h.id, i) for i in sk.runes]
        head = f"{self.hname(h)} activates {sk.name}{paid}"
        if sk.effect is not None and sk.effect.kind == "attack":
            targets += self._target_squares(
                self.attack_choices(h, False, list(sk.effect.keywords)))
            return f"{head}: {sk.text.rstrip('.')}; then chooses the weapon and the target", \
                targets
        return f"{head}: {sk.text.rstrip('.')}", targets

    def _target_squares(self, choices: list[str]) -> list[Target]:
        """The squares an attack may target, from its ``attack <sq> with <weapon>`` texts."""
        return [Target("square", sq) for sq in dict.fromkeys(
            t[len("attack "):].partition(" with ")[0] for t in choices)]

    def _describe_target(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        square, weapon = self.attack_what(text)
        words, detail, t = self._attack_words(h, square, weapon, ask["reduced"],
                                              list(ask["extra"]), list(ask["keywords"]))
        return f"{self.hname(h)} {words}: {detail}", t + [Target("card", f"{h.id}:{weapon}")]

    # ------------------------------------------------------------ sub-decisions
    def _ask_hero(self, ask: dict[str, Any]) -> Hero | None:
        return self.heroes.get(ask["seat"])

    def _describe_setup(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        if text.startswith("give "):
            item, _, rest = text[5:].partition(" to ")
            hid, _, rep = rest.partition(" replacing ")
            it = self.content.items[self.item_id(item)]
            more = f", replacing the {rep}" if rep else ""
            return (f"{self.hname(self.heroes[hid])} starts with the {it.name}{more}",
                    [Target("figure", hid)])
        hid, _, at = text[6:].partition(" on ")
        return f"{self.hname(self.heroes[hid])} starts on {at}", [Target("square", at)]

    def _describe_prep(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        if text == "done buying":
            return f"{self.hname(h)} buys no more skill cards this phase", []
        sid = self.skill_id(text[4:])
        sk = self.content.skills[sid]
        pts = f"{sk.cost} skill point{'s' if sk.cost != 1 else ''}"
        return (f"{self.hname(h)} buys {sk.name} for {pts}: {sk.text.rstrip('.')}",
                [Target("card", f"{h.id}:{sid}", f"{sk.cost} pts")])

    def _describe_recover(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        if text.startswith("recover"):
            return (f"{self.hname(h)} recovers alone: throws every rune (2 life per face up, 3 "
                    "per sideways), then flips them all face down; the end marker moves one "
                    "space", [Target("figure", h.id)])
        return f"{self.hname(h)} stays down, waiting for help", [Target("figure", h.id)]

    def _describe_rethrow(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        if text == "keep the throw":
            return f"{self.hname(h)} keeps the destiny throw", []
        return f"{self.hname(h)} throws the same runes again (the second throw stands)", []

    def _describe_cond(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        name = self.hname(h)
        if text.startswith("remove the wound using "):
            rune, _, where = text[len("remove the wound using "):].partition(" on ")
            space = self.wound_spaces(h)[where]
            icon = self.icon_of(rune)
            return (f"{name} places {rune} on the {where} space (unusable this turn) and "
                    "removes the wound token", [Target("space", f"{h.id}:{space}"),
                                                rune_target(h.id, icon)])
        if text == "keep the wound":
            return f"{name} keeps the wound token (2 life points again next turn)", []
        if text.startswith("place "):
            rune = text[6:-len(" on interact")]
            return (f"{name} is stunned: {rune} goes to the interact space",
                    [Target("space", f"{h.id}:interact"), rune_target(h.id, self.icon_of(rune))])
        if text.startswith("physical check using "):
            return self._check_words(h, text, "removes the frozen token")
        return f"{name} keeps the frozen token (1 life point again next turn)", []

    def _check_words(self, h: Hero, text: str, success: str) -> tuple[str, list[Target]]:
        rune = text[len("physical check using "):]
        dice = self.check_dice(h, "physical")
        odds = check_odds(self.content, dice)
        return (f"{self.hname(h)} makes a physical check using {rune} ({', '.join(dice)}): "
                f"an upgrade ({odds:.0%}) {success}",
                [Target("space", f"{h.id}:physical", f"{odds:.0%}"),
                 rune_target(h.id, self.icon_of(rune))])

    def _describe_move(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        if text == "end move":
            left = ask["points"]
            return (f"{self.hname(h)} ends the movement" + (f" ({plural(left, 'movement point')} "
                                                            "lost)" if left else ""), [])
        to = grid.sq(text[5:])
        assert h.at is not None
        cost = self.hero_step_cost(h, h.at, to, tuple(ask["keywords"])) or 0
        left = ask["points"] - cost
        extra = ""
        if to in self.bonfires:
            extra = " (a bonfire: 1 life point)"
        elif self.terrain.get(to) == "i" and "jump" not in ask["keywords"] and ask["ice"] >= 1:
            extra = " (a second ice space: physical check)"
        return (f"{self.hname(h)} steps to {text[5:]} ({cost} MP, {left} left){extra}",
                [Target("square", text[5:], f"{cost} MP")])

    def _describe_ice(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        if text.startswith("physical check using "):
            return self._check_words(h, text, "lets the movement go on")
        return (f"{self.hname(h)} does not make the check: back to the previous space, the "
                "movement ends and a frozen token", [])

    def _describe_mark(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        if text == "keep the roll":
            return f"{self.hname(h)} keeps the roll (the mark token stays)", []
        return f"{self.hname(h)} returns the mark token and re-rolls every die", []

    def _describe_upgrades(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        return f"{self.hname(h)} spends the upgrades on {text[len('spend upgrades on '):]}", []

    def _describe_found(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        name = self.hname(h)
        if text.startswith("equip "):
            item, rep = self.equip_what(text[6:])
            more = f" (replacing {' and '.join(self.content.items[i].name for i in rep)})" \
                if rep else ""
            return f"{name} equips the {self.content.items[item].name}{more}", []
        if text.startswith("keep "):
            return f"{name} keeps it in a miscellaneous space (not equipped)", []
        return "The card goes back to the box", []

    def _describe_hold(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        if text == "suffer the hold":
            return f"{self.hname(h)} loses 2 life points and 1 destiny, then acts", []
        if text.startswith("physical check using "):
            return self._check_words(h, text, "avoids losing 2 life points and 1 destiny")
        return (f"{self.hname(h)} cannot make the check: loses 2 life points and 1 destiny, "
                "then acts", [])

    def _describe_hold_destiny(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        name = text[len("flip "):-len(" face down")]
        return (f"{self.hname(h)} flips {name} face down: the destiny lost to the Hold",
                [rune_target(h.id, self.icon_of(name))])

    def _describe_destiny_up(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        names = text[len("flip "):-len(" face up")].split(" and ")
        return (f"{self.hname(h)} flips {' and '.join(names)} face up (recovering destiny)",
                [rune_target(h.id, self.icon_of(n)) for n in names])

    def _describe_destiny(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        h = self.heroes[ask["seat"]]
        names = text[len("flip "):-len(" face down")].split(" and ")
        return (f"{self.hname(h)} flips {' and '.join(names)} face down to pay the destiny",
                [rune_target(h.id, self.icon_of(n)) for n in names])

    def _describe_freyja(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        if text.startswith("look at the "):
            deck = self.names.deck_key[text[len("look at the "):-len(" deck")]]
            return (f"Freyja: look at the top card of the {self.names.deck[deck]} deck",
                    [Target("card", deck_target(deck))])
        if text == "leave it on top":
            return "Leave the card on top of its deck", []
        return "Put the card at the bottom of its deck", []

    def _describe_odin(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        if text == "put it in play":
            return "Odin's Crows: put the exploration card in play (explore now)", [
                Target("card", deck_target("exploration"))]
        return "Odin's Crows: leave the exploration card on the deck", []

    def _describe_spawn(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        at = text.rpartition(" on ")[2]
        return (f"The {self.content.enemies[ask['enemy']].name} appears on {at}",
                [Target("square", at)])

    def _describe_order(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        at = grid.sq(text.rpartition(" at ")[2])
        e = next(x for x in self.enemies if x.at == at)
        return f"{self._foe_words(e)} activates next", [Target("square", self.sqname(at)),
                                                        *self._foe_targets(e)]

    def _describe_emove(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        e = next(x for x in self.enemies if x.uid == ask["enemy"])
        fp = text.rpartition(" to ")[2]
        label = f"{self.enemy_data(e).name} {e.uid} moves to {fp}"
        if text == ask.get("default"):
            label += " (the engine's best space for the enemies)"
        return label, [Target("square", q) for q in fp.split("+")]

    def _describe_place(self, text: str, ask: dict) -> tuple[str, list[Target]]:
        kind, who = ask["who"]
        at = text.rpartition(" on ")[2]
        if kind == "enemy":
            e = next(x for x in self.enemies if x.uid == int(who))
            name = f"{self.enemy_data(e).name} {e.uid}"
        else:
            name = self.hname(self.heroes[who])
        return f"{name} is placed on {at}", [Target("square", at)]
