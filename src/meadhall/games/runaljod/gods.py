"""The altar of the gods: god's runes and powers, buying a rune, the gods are capricious,
trance throws, god's gear (Activate the God's Rune; The Gods Are Capricious; God's Gear;
Keywords - Trance; God's Powers)."""

from __future__ import annotations

from meadhall.core import words
from meadhall.core.grid import Sq
from meadhall.core.protocol import Event

from .dice_rules import rune_data, throw_rune
from .model import (
    GOD_RUNE,
    S_CAPRICIOUS,
    S_DAMAGE,
    S_GEAR,
    S_GOD,
    S_KEYWORDS,
    S_POWERS,
    Enemy,
    Hero,
    Rune,
)

ALTAR_MAX = 4
"""There can never be more than 4 runes on the altar."""
ALL_ON_TILE = "every enemy of the tile"
"""Thor's second choice, as action texts write it."""


class GodsMixin:
    """The altar is ``self.altar``: a list of ``[god, side]``."""

    def box_gods(self) -> list[str]:
        """God's runes in the game box: neither on the altar nor on a hero board."""
        used = {g for g, _ in self.altar}
        for h in self.heroes.values():
            r = h.god_rune()
            if r is not None:
                used.add(r.god)
            used.update(h.returns)  # set aside until the attack of their bonus
        return [g for g in self.content.gods if g not in used]

    def altar_face_up(self) -> list[str]:
        return [g for g, side in self.altar if side in ("up", "side")]

    def throw_altar(self, events: list[Event], why: str) -> None:
        """Throw every rune on the altar; each sideways rune heals every hero 1 life point."""
        for pair in self.altar:
            pair[1] = throw_rune(self.content, self.chance,
                                 f"god's rune of {self.content.gods[pair[0]].name}", S_GOD)
        sideways = sum(1 for _, s in self.altar if s == "side")
        events.append(Event("altar", f"The altar is thrown ({why}): "
                            + ", ".join(f"{self.content.gods[g].name} {s}" for g, s in self.altar),
                            S_GOD, {"altar": [list(p) for p in self.altar],
                                    "dice": rune_data([(f"{g}{GOD_RUNE}", s)
                                                       for g, s in self.altar])}))
        if sideways:
            for h in self.heroes.values():
                self.heal(h, sideways, f"{words.plural(sideways, 'sideways god rune')} on the altar",
                          S_GOD, events)

    def return_to_altar(self, god: str, events: list[Event], section: str) -> None:
        """A returned god's rune goes to the altar, or to the box if the altar holds 4."""
        if len(self.altar) >= ALTAR_MAX:
            events.append(Event("altar", f"The altar already holds {ALTAR_MAX} runes: "
                                f"{self.content.gods[god].name}'s rune goes back to the box",
                                S_CAPRICIOUS))
            return
        self.altar.append([god, "up"])

    def take_god_rune(self, h: Hero, events: list[Event]) -> None:
        r = h.god_rune()
        if r is not None:
            h.runes.remove(r)

    def capricious(self, h: Hero, events: list[Event]) -> None:
        """A hero with a god's rune and at least two sideways runes in the destiny pool
        (the god's rune included) must return the god's rune at once."""
        r = h.god_rune()
        if r is None:
            return
        sideways = sum(1 for x in h.pool() if x.side == "side")
        if sideways >= 2:
            h.runes.remove(r)
            events.append(Event("capricious", f"The gods are capricious: {self.hname(h)} has "
                                f"{sideways} sideways runes and returns "
                                f"{self.content.gods[r.god].name}'s rune", S_CAPRICIOUS))
            self.return_to_altar(r.god, events, S_CAPRICIOUS)

    def buy_god_rune(self, h: Hero, god: str, paid: list[Rune], events: list[Event],
                     gear: str = "") -> None:
        """Flip the paying sideways runes face down and place the god's rune on the interact
        space: it is thrown with the hero's runes from the next destiny throw."""
        for r in paid:
            r.side = "down"
        self.altar = [p for p in self.altar if p[0] != god]
        h.runes.append(Rune(f"god:{god}", "up", "interact"))
        how = f" for {self.content.items[gear].name}" if gear else ""
        events.append(Event("buy-rune", f"{self.hname(h)} flips {words.plural(len(paid), 'sideways rune')} "
                            f"face down and takes {self.content.gods[god].name}'s rune{how}",
                            S_GEAR if gear else S_GOD, {"hero": h.id, "god": god}))

    def trance_throw(self, h: Hero, events: list[Event]) -> None:
        """Trance: throw 4 god's runes on the altar (topping up from the box); 1 trance token
        per face up rune, 2 per sideways rune, and every hero heals 1 per sideways rune."""
        extra: list[str] = []
        box = self.box_gods()
        while len(self.altar) + len(extra) < ALTAR_MAX and box:
            i = self.pick("god's rune taken from the box", box, S_KEYWORDS)
            extra.append(box.pop(i))
        thrown = [list(p) for p in self.altar] + [[g, "up"] for g in extra]
        for pair in thrown:
            pair[1] = throw_rune(self.content, self.chance,
                                 f"trance throw: {self.content.gods[pair[0]].name}", S_KEYWORDS)
        self.altar = [p for p in thrown if p[0] not in extra]
        up = sum(1 for _, s in thrown if s == "up")
        side = sum(1 for _, s in thrown if s == "side")
        h.trance += up + 2 * side
        events.append(Event("trance", f"{self.hname(h)} performs a trance throw: "
                            + ", ".join(f"{self.content.gods[g].name} {s}" for g, s in thrown)
                            + f"; gains {words.plural(up + 2 * side, 'trance token')}", S_KEYWORDS,
                            {"hero": h.id, "altar": [list(p) for p in thrown],
                             "dice": rune_data([(f"{g}{GOD_RUNE}", s) for g, s in thrown])}))
        if side:
            for o in self.heroes.values():
                self.heal(o, side, f"{words.plural(side, 'sideways rune')} in the trance throw", S_KEYWORDS,
                          events)

    # ------------------------------------------------------------ powers
    def power_options(self, h: Hero, power: str) -> list[str]:
        """The ways to invoke ``power`` (a god or a god's gear) as text suffixes: ``" on F3"``
        for a target the power needs, ``""`` when it needs none or has nothing to target."""
        if power == "thor":
            foes = self.foes_on_tile(h)
            if not foes:
                return [""]
            return [f" on {self.sqname(q)}" for _, q in foes] + [f" on {ALL_ON_TILE}"]
        if power == "jarngreipr":
            return [f" on {self.sqname(e.at)}" for e in self.enemies] or [""]
        if power == "draupnir":
            return [f" on {o.id}'s {self.rname(r)}" for o in self.ordered()
                    if o is not h and not o.fallen for r in o.pool() if r.side != "side"] or [""]
        return [""]

    def invoke(self, h: Hero, power: str, detail: str, events: list[Event],
               returning: str = "") -> None:
        """Apply a god's power (or a god's gear power), then return the god's rune used from a
        hero board (``returning``) to the altar and re-throw the altar: "Once the power is
        activated, return the God's rune to the altar of the Gods and then re-throw all runes
        there"; God's Gear: "you must return the rune to the altar afterwards" (ruling 14)."""
        section = S_POWERS
        name = (self.content.gods[power].name if power in self.content.gods
                else self.content.items[power].name)
        events.append(Event("power", f"{self.hname(h)} invokes {name}", section
                            if power in self.content.gods else S_GEAR,
                            {"hero": h.id, "power": power}))
        if power == "tyr":
            h.bonus.append("tyr")
        elif power == "cheru":
            h.bonus.append("cheru")
        elif power in ("vali", "valis_bow"):
            h.bonus.append("vali")
        elif power in ("thor", "jarngreipr"):
            if detail == ALL_ON_TILE:
                for e, _ in self.foes_on_tile(h):
                    self.hurt_enemy(e, 1, h, "Thor's power", section, events)
            elif detail:
                e = self.enemy_at(self.parse_sq(detail))
                if e is not None:
                    self.hurt_enemy(e, 2 if power == "thor" else 3, h,
                                    f"{name}'s power", section, events)
        elif power == "freyja" and self.freyja_decks():
            self.ask = {"kind": "freyja", "seat": h.id, "section": section,
                        "prompt": "Freyja: choose a deck and look at its top card",
                        "options": [f"look at the {self.names.deck[d]} deck"
                                    for d in self.freyja_decks()],
                        "default": None}
        elif power == "odin":
            card = self.peek(self.exploration, section)
            if card:
                ok = self.can_explore(h, need_exit=False)
                self.ask = {"kind": "odin", "seat": h.id, "section": section,
                            "prompt": f"Odin's Crows: the next exploration card is "
                                      f"{self.content.exploration[card[0]].name}",
                            "options": (["put it in play"] if ok else []) + ["leave it"],
                            "default": None}
        elif power == "brisingamen":
            for o in self.heroes.values():
                if o.fallen and o.fell_this_turn:
                    # "A hero cannot recover the same turn they are defeated" (Fallen Heroes)
                    events.append(Event("recover", f"{self.hname(o)} fell in this heroes' "
                                        "turn and cannot recover until the next one",
                                        S_DAMAGE, {"hero": o.id}))
                elif o.fallen:
                    self.raise_hero(o, 1, events, section, down_heals=1)
        elif power == "draupnir" and detail:
            who, _, rune = detail.partition("'s ")
            o = self.heroes[who]
            r = o.rune(self.icon_of(rune))
            if r is not None:
                r.side = "side"
                events.append(Event("draupnir", f"{self.hname(o)} flips {self.rname(r)} "
                                    "sideways", section))
                self.capricious(o, events)
        if self.ask is not None and self.ask["kind"] in ("freyja", "odin"):
            # the power is activated once its choices are made: the rune returns and the altar
            # is re-thrown then (Freyja chooses the deck first; Odin's Crows decide first)
            self.ask["altar_after"] = name
            if returning:
                self.ask["returning"] = returning
            return
        if returning and power in ("cheru", "vali", "valis_bow"):
            # "Return this rune to the altar of the Gods after the attack": it waits, set
            # aside, for the attack its bonus is for (ruling 14)
            h.returns.append(returning)
        elif returning:
            self.return_to_altar(returning, events, S_GOD)
        self.throw_altar(events, f"{name}'s power was activated")

    def return_after_attack(self, h: Hero, bonus: str, events: list[Event], why: str) -> None:
        """The god's rune set aside for a Cheru or Vali bonus goes back to the altar once the
        bonus is used (after the attack) or lost (Cheru at the end of the phase)."""
        god = self.content.items["cheru"].god if bonus == "cheru" else "vali"
        if god not in h.returns:
            return
        h.returns.remove(god)
        events.append(Event("altar", f"{self.hname(h)} returns "
                            f"{self.content.gods[god].name}'s rune to the altar {why}",
                            S_POWERS, {"hero": h.id, "god": god, "bonus": bonus}))
        self.return_to_altar(god, events, S_POWERS)

    def rethrow_after(self, ask: dict, events: list[Event]) -> None:
        """The re-throw a power that asked its hero something (Freyja, Odin) left for the end:
        "whenever you activate the effect of a God's rune ..., throw all runes on the altar
        of the Gods again" (Activate the God's Rune). Saves made before it was deferred carry
        no ``altar_after`` (their altar was thrown already)."""
        name = ask.get("altar_after")
        if ask.get("returning"):
            self.return_to_altar(ask["returning"], events, S_GOD)
        if name:
            self.throw_altar(events, f"{name}'s power was activated")

    def foes_on_tile(self, h: Hero) -> list[tuple[Enemy, Sq]]:
        """Thor: the enemies on the hero's tile, each with its first square on that tile (a
        large enemy standing partly on the tile is on it)."""
        tile = self.tile_of(h.at) if h.at else -1
        out = []
        for e in self.enemies:
            on = [q for q in e.squares if self.tile_of(q) == tile]
            if on:
                out.append((e, min(on, key=lambda s: (s[1], s[0]))))
        return out

    def freyja_decks(self) -> list[str]:
        return [n for n, d in self.decks().items() if len(d)]

    def on_freyja(self, action: str, ask: dict, events: list[Event]) -> None:
        if action.startswith("look at the "):
            deck = self.names.deck_key[action[len("look at the "):-len(" deck")]]
            top = self.peek(self.decks()[deck], S_POWERS)
            opts = ["leave it on top"]
            if deck != "exploration":
                opts.append("put it at the bottom")
            name = f"{self.names.deck[deck]} deck"
            events.append(Event("freyja", f"Freyja shows the top card of the {name}: "
                                f"{self.card_name(deck, top[0])}", S_POWERS))
            self.ask = {"kind": "freyja", "seat": ask["seat"], "section": S_POWERS,
                        "prompt": f"Freyja: the top card of the {name} is "
                                  f"{self.card_name(deck, top[0])}", "options": opts,
                        "default": None, "deck": deck}
            for key in ("altar_after", "returning"):
                if ask.get(key):
                    self.ask[key] = ask[key]
            return
        if action == "put it at the bottom":
            d = self.decks()[ask["deck"]]
            card = d.top.pop(0)
            d.put_bottom(card)
            events.append(Event("freyja", f"The card goes to the bottom of the "
                                f"{self.names.deck[ask['deck']]} deck", S_POWERS))
        self.rethrow_after(ask, events)

    def on_odin(self, action: str, ask: dict, events: list[Event]) -> None:
        if action == "put it in play":
            self.explore(self.heroes[ask["seat"]], events)
        self.rethrow_after(ask, events)
