"""Phase 1: Exploration, and the instructions of the campaign book, events and global events.

Instructions (``ops``) are queued in ``state.script`` and run one by one; an instruction that
needs the players (a choice on an event) asks and the rest waits.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from meadhall.core import words
from meadhall.core.errors import RuleNotImplemented
from meadhall.core.protocol import PLAYERS, Event
from meadhall.games.midhalla import memo
from meadhall.games.midhalla import sections as S
from meadhall.games.midhalla.board import GATE
from meadhall.games.midhalla.pieces import EnemyState, TrapState
from meadhall.games.midhalla.preparation import SPAWN_TOKENS

ID = "midhalla"
EVENT_DECKS = {"tier1": "Tier 1", "tier2": "Tier 2", "chapter": "Chapter"}
"""The event decks as players name them (Events)."""


class ExplorationRules:
    """Mixin of :class:`MidhallaState`: exploration and the instruction runner."""

    # ----------------------------------------------------------- 1.1 choose a path
    def _exploration_step(self, events: list[Event]) -> None:
        """Repeat 1.1-1.3 until the campaign book calls for Phase 2 (Phase 1: Exploration)."""
        ch = self.chapter_data
        quota = ch.explorations_per_cycle[min(self.cycle, len(ch.explorations_per_cycle)) - 1]
        paths = [p for p in self.board.unexplored() if p[0] in ch.sections]
        if self.explored_in_cycle >= quota or not paths:
            why = (f"the campaign book calls for Phase 2 after {quota} paths in this cycle"
                   if paths else "no unexplored path with a campaign book section is left")
            events.append(Event("phase", f"Exploration ends: {why}", S.EXPLORATION))
            self._begin_preparation(events)
            return
        opts = [(f"explore {letter}", letter) for letter, _, _ in paths]
        self._ask("explore", PLAYERS, "Choose an unexplored path to explore", S.CHOOSE_PATH,
                  opts, turn=True)

    def _on_explore(self, letter: str, events: list[Event]) -> None:
        """1.1/1.2: read the section of the chosen path and follow its instructions."""
        tile, side = next((t, s) for lt, t, s in self.board.unexplored() if lt == letter)
        self.here = tile
        self.exploring = [tile, side]
        self.explored_in_cycle += 1
        sec = self.chapter_data.sections[letter]
        events.append(Event("explore", f"The party explores path {letter}: {sec.text}",
                            S.READ_BOOK, {"path": letter}))
        self.script[:0] = [*memo.dumps(sec.ops), {"op": "_explored"}]

    # ----------------------------------------------------------- the instruction runner
    def _run_op(self, events: list[Event]) -> None:
        op = self.script.pop(0)
        getattr(self, f"_op_{op['op'].lstrip('_')}")(op, events)

    def _op_explored(self, op: dict[str, Any], events: list[Event]) -> None:
        """1.3: move the timer token (timed exploration only) and read what it reaches."""
        self.exploring = None
        timed = self.chapter_data.timed
        if timed is None:
            return
        self.timer += 1
        events.append(Event("timer", f"The timer token moves to {self.timer}", S.EXPLORATION,
                            {"timer": self.timer}))
        for step in timed:
            if step.at == self.timer:
                events.append(Event("timed", step.text, S.EXPLORATION))
                self.script[:0] = memo.dumps(step.ops)

    def _op_place(self, op: dict[str, Any], events: list[Event]) -> None:
        """Placing Map Tiles: the numbered side of the new tile touches the explored path."""
        name = op["tile"]
        if self.exploring is None:
            raise RuleNotImplemented(ID, S.PLACING, "a tile placed outside exploration")
        at, side = self.exploring
        data = getattr(self.content.cat.tiles[name[:-1]], name[-1])
        try:
            self.board.place(name, at, side, data.attach, dict(data.paths))
        except ValueError as e:
            raise RuleNotImplemented(ID, S.PLACING, str(e)) from None
        self._tiles_changed()
        self.here = name
        where = {"N": "top", "E": "right", "S": "bottom", "W": "left"}
        letters = ", ".join(f"{v} ({where[k]})" for k, v in
                            sorted(self.tiles[name].paths.items()))
        events.append(Event("place", f"Map tile {name} is placed with its numbered side "
                            f"against the path on the {where[side]} side of {at}; new paths: "
                            f"{letters or 'none'}", S.PLACING, {"tile": name}))

    def _op_verse(self, op: dict[str, Any], events: list[Event]) -> None:
        verse = self.chapter_data.verses[op["id"]]
        events.append(Event("verse", f"Verse {op['id']}: {verse.text}", S.VERSES))
        self.script[:0] = memo.dumps(verse.ops)

    def _op_story(self, op: dict[str, Any], events: list[Event]) -> None:
        self.story.append(op["verse"])
        events.append(Event("story", f"A story marker ({op['verse']}) goes on the quest board",
                            S.R_QUESTS))

    def _op_prepare(self, op: dict[str, Any], events: list[Event]) -> None:
        self.script.clear()
        self._begin_preparation(events)

    def _op_draw_event(self, op: dict[str, Any], events: list[Event]) -> None:
        """Draw from the Tier 1, Tier 2 or chapter event deck and resolve the card."""
        deck = self.decks[op["deck"]]
        card = deck.draw(self.chance, S.EVENTS)
        if card is None:
            events.append(Event("event", f"The {EVENT_DECKS.get(op['deck'], op['deck'])} event deck is empty: nothing happens",
                                S.EVENTS))
            return
        ev = self._event_card(op["deck"], card)
        events.append(Event("event", f"{EVENT_DECKS.get(op['deck'], op['deck'])} event: "
                            f"{ev.name}: {ev.text}", S.EVENTS, {"deck": op["deck"], "card": card}))
        if ev.quest is not None:
            self.quests.append([op["deck"], card])
            events.append(Event("quest", f"Quest '{ev.quest.name}' goes on the quest board",
                                S.QUESTS))
        else:
            deck.to_discard(card)
        self.script[:0] = memo.dumps(ev.ops)

    def _event_card(self, deck: str, card: str):
        if deck == "chapter":
            return self.chapter_data.chapter_events[card]
        return getattr(self.content.cat, deck)[card]

    def _op_global(self, op: dict[str, Any], events: list[Event]) -> None:
        """Global Events: read the printed entry and follow it."""
        n = str(op["n"])
        ge = self.content.printed.global_events[n]
        events.append(Event("global", f"Global event {n} - {ge.title}: {ge.text}",
                            S.GLOBAL_EVENTS, {"n": n}))
        if n in ("06",):
            events.append(Event("global", "In this build the chapter does not end here and "
                                "chapter 12 is not printed ('not in Prototypes'): it is only "
                                "marked on the party sheet", S.GLOBAL_EVENTS))
        self.script[:0] = memo.dumps(ge.ops)

    def _op_choice(self, op: dict[str, Any], events: list[Event]) -> None:
        opts = []
        for i, o in enumerate(op["options"]):
            cost = o.get("cost") or {}
            if all(getattr(self, k) >= v for k, v in cost.items()):
                opts.append((o["text"], i))
        if not opts:
            return
        if len(opts) == 1:
            self._take_option(op, opts[0][1], events)
            return
        self._ask("event_choice", PLAYERS, op.get("prompt", "Choose"), S.EVENTS, opts,
                  ctx={"op": op}, turn=True)

    def _on_event_choice(self, i: int, events: list[Event]) -> None:
        self._take_option(self.last_ctx["op"], i, events)

    def _take_option(self, op: dict[str, Any], i: int, events: list[Event]) -> None:
        o = op["options"][i]
        for k, v in (o.get("cost") or {}).items():
            setattr(self, k, getattr(self, k) - v)
        events.append(Event("choice", f"The party chooses: {o['text']}", S.EVENTS))
        self.script[:0] = list(o.get("ops", []))

    def _op_gain(self, op: dict[str, Any], events: list[Event]) -> None:
        for k in ("silver", "runestones"):
            if op.get(k):
                before = getattr(self, k)
                setattr(self, k, max(0, before + op[k]))
                change = getattr(self, k) - before
                events.append(Event("gain", f"The party {'gains' if change >= 0 else 'loses'} "
                                    f"{abs(change)} {k} (now {getattr(self, k)})", S.EVENTS))
        if op.get("components"):
            self._draw_components(op["components"], events, S.EVENTS)
        if op.get("gate"):
            if op["gate"] > 0:
                before = self.gate_hp
                self.gate_hp = min(self.content.printed.gate_hp, self.gate_hp + op["gate"])
                events.append(Event("gate", f"The gate gains {self.gate_hp - before} HP "
                                    f"(now {self.gate_hp}; it never exceeds its maximum)", S.HP))
            else:
                self._damage_gate(-op["gate"], ("event", "event"), events)

    def _op_heal_heroes(self, op: dict[str, Any], events: list[Event]) -> None:
        for h in self._party_heroes():
            if not h.ko:
                h.hp = min(h.max_hp, h.hp + op["value"])
        events.append(Event("heal", f"Every hero who is not KO heals {op['value']} HP (never "
                            "above their maximum)", S.EVENTS))

    def _op_damage_heroes(self, op: dict[str, Any], events: list[Event]) -> None:
        """Global event 19: all but the hero with the lowest HP suffer damage (ties: players).
        A KO hero has 0 HP, the lowest there is: it is the one spared (ruling 45)."""
        party = self._party_heroes()
        alive = [h for h in party if not h.ko]
        if not alive:
            return
        low = min(h.hp for h in party)
        lowest = [h.id for h in party if h.hp == low]
        # several KO heroes tie at 0: sparing one or the other changes nothing (a KO hero
        # suffers no damage), so only a tie among standing heroes is asked
        if op.get("spare_lowest") and len(lowest) > 1 and "spare" not in op and low > 0:
            opts = [(f"spare {self._short(h)}", h) for h in lowest]
            self._ask("spare", PLAYERS, "Several heroes share the lowest HP: choose the one "
                      "spared", S.GLOBAL_EVENTS, opts, default=opts[0][0], ctx={"op": op})
            return
        spared = op.get("spare", lowest[0]) if op.get("spare_lowest") else None
        for h in alive:
            if h.id != spared:
                self._damage_hero(h.id, op["value"], ("event", "event"), events)

    def _on_spare(self, hero: str, events: list[Event]) -> None:
        self.script.insert(0, {**self.last_ctx["op"], "spare": hero})

    def _op_spawn(self, op: dict[str, Any], events: list[Event]) -> None:
        """An event spawns a named enemy. A card of the chapter's enemy (or elite) deck is
        taken from that deck (draw pile first, then discard), so the deck never holds more
        copies than it was built with; with no copy left nothing spawns. A card outside the
        decks (the Mimic) comes from the box, if it is not already on the board (ruling 43)."""
        card = op["enemy"]
        name = self.content.cat.enemies[card].name
        pile = next((n for n, cards in (("enemy", self.chapter_data.enemy_deck),
                                        ("elite", self.chapter_data.elite_deck))
                     if card in cards), None)
        if pile is None:
            if any(e.card == card for e in self.enemies.values()):
                events.append(Event("spawn", f"The {name} is not available (already on the "
                                    "board)", S.GLOBAL_EVENTS))
                return
            self._spawn_enemy(card, self.here or "G", events, S.GLOBAL_EVENTS, from_deck=False)
            return
        deck = self.decks[pile]
        if card in deck.cards():
            deck.remove(card)
            where = f"from the {pile} deck"
        elif card in deck.discard:
            deck.discard.remove(card)
            where = f"from the {pile} discard pile"
        else:
            events.append(Event("spawn", f"No {name} card is left in the {pile} deck or its "
                                "discard pile: nothing spawns", S.SPAWN))
            return
        events.append(Event("spawn", f"The {name} card is taken {where}", S.SPAWN))
        self._spawn_enemy(card, self.here or "G", events, S.SPAWN)

    def _op_follower(self, op: dict[str, Any], events: list[Event]) -> None:
        """A follower joins the party for the rest of the chapter (Followers)."""
        from meadhall.games.midhalla.pieces import HeroState

        fid = op["id"]
        if fid in self.heroes:
            return
        f = self.content.cat.followers[fid]
        self.heroes[fid] = HeroState(fid, f.max_hp, f.max_hp, list(f.top), list(f.bottom),
                                     follower=True)
        events.append(Event("follower", f"{f.name} joins the party as a follower: it takes a "
                            "turn in 3.3 and counts as a hero for enemies", S.FOLLOWERS))

    def _op_follower_leaves(self, op: dict[str, Any], events: list[Event]) -> None:
        """A global event sends a follower away ("walks back into the tunnels, not to be seen
        again", 10; "disappearing into the darkness", 12): it leaves the party now."""
        fid = op["id"]
        h = self.heroes.get(fid)
        if h is None or not h.follower:
            return
        del self.heroes[fid]
        if self.ht is not None and self.ht.get("hero") == fid:
            self.ht = None
        events.append(Event("follower", f"{self.content.cat.followers[fid].name} leaves the "
                            "party and is no longer a follower", S.FOLLOWERS))

    def _op_spawn_token(self, op: dict[str, Any], events: list[Event]) -> None:
        tile = self.tiles[self.here or "G"]
        self.tiles[tile.id] = replace(tile, token=op["token"])
        events.append(Event("token", f"{words.a(SPAWN_TOKENS[op['token']], cap=True)} is placed on map tile "
                            f"{tile.id}", S.SPAWN_TOKENS, {"tile": tile.id}))

    def _op_curse(self, op: dict[str, Any], events: list[Event]) -> None:
        tile = self.tiles[self.here or "G"]
        if tile.fortified:
            events.append(Event("curse", f"Map tile {tile.id} is fortified: the curse has no "
                                "effect", S.FATE))
            return
        self._place_curse(tile.id, events)

    def _op_build_trap(self, op: dict[str, Any], events: list[Event]) -> None:
        """Global event 19: you may build a spike trap here ignoring normal placement rules
        (ruling: its cost and stock still apply)."""
        kind = op["trap"]
        trap = self.content.cat.traps[kind]
        tile = self.here or "G"
        if (kind not in self.party["unlocks"]["traps"] or self.silver < trap.cost
                or self._stock_left(kind) <= 0):
            events.append(Event("build", f"The {trap.name} cannot be built here now (locked, "
                                "out of stock or not enough silver)", S.BUILD))
            return
        # "ignoring normal placement rules" waives the fortification, not what is "never"
        # allowed: "never more than two traps on one map tile", "never ... on the gate map
        # tile" (Building Traps; ruling 45)
        if tile == GATE or self._traps_on(tile) >= self.content.printed.max_traps_per_tile:
            why = ("traps can never be built on the gate map tile" if tile == GATE else
                   "there can never be more than two traps on one map tile")
            events.append(Event("build", f"The {trap.name} cannot be built on {tile}: {why}",
                                S.BUILD))
            return
        opts = [(f"build {trap.name} on {tile} for {trap.cost} silver", tile),
                ("do not build", "")]
        self._ask("event_build", PLAYERS, f"You may build {words.a(trap.name)} on this map tile",
                  S.GLOBAL_EVENTS, opts, ctx={"kind": kind}, turn=True)

    def _on_event_build(self, tile: str, events: list[Event]) -> None:
        if tile:
            kind = self.last_ctx["kind"]
            self.silver -= self.content.cat.traps[kind].cost
            self._new_trap(kind, tile, events)

    def _new_trap(self, kind: str, tile: str, events: list[Event]) -> TrapState:
        t = TrapState(self._free_id("t", self.traps), kind, tile,
                      self.content.cat.traps[kind].levels[0].hp)
        self.traps[t.id] = t
        events.append(Event("build", f"{words.a(self.content.cat.traps[kind].name, cap=True)} {t.id[1:]} is "
                            f"built on map tile {tile} with {t.hp} HP", S.BUILD, {"trap": t.id}))
        return t

    def _op_evolve(self, op: dict[str, Any], events: list[Event]) -> None:
        """Evolving events: mark the change on the party sheet (and in the deck now)."""
        deck, old, new = op["deck"], str(op["from"]), str(op["to"])
        self._party_w()["events"].setdefault(deck, {})[old] = new
        self._mark_new("events", f"{deck}:{old}->{new}")
        text = f"Party sheet: {EVENT_DECKS.get(deck, deck)} event {old} -> {new}"
        if op.get("now"):
            d = self.decks[deck]
            for part in (d.pile, d.top, d.bottom, d.discard):
                while old in part:
                    part.remove(old)
            if new != "-":
                d.add([new])
            text += f"; event {old} leaves the deck" + (f", event {new} is shuffled in"
                                                         if new != "-" else "")
        events.append(Event("evolve", text, S.UNLOCKS))

    def _op_unlock(self, op: dict[str, Any], events: list[Event]) -> None:
        self._unlock(op["kind"], str(op["id"]), events)

    def _op_unlock_first_lore(self, op: dict[str, Any], events: list[Event]) -> None:
        for lore in op["ids"]:
            if lore not in self.party["unlocks"]["lore"]:
                self._unlock("lore", lore, events)
                return
        alt = op["else"]
        self._unlock(alt["kind"], str(alt["id"]), events)

    # ----------------------------------------------------------- spawning helper
    @staticmethod
    def _free_id(prefix: str, taken: dict[str, Any]) -> str:
        """The lowest free id (``e1``, ``e2``...): ids stay few, so the action vocabulary is
        finite, and a defeated enemy's or removed trap's id is used again."""
        n = 1
        while f"{prefix}{n}" in taken:
            n += 1
        return f"{prefix}{n}"

    def _spawn_enemy(self, card: str, tile: str, events: list[Event], section: str,
                     from_deck: bool = True) -> EnemyState:
        """Spawning: HP for the player count (+1 per player after the first for each curse
        marker), and tokens such as evasion."""
        data = self.content.cat.enemies[card]
        n = self._players()
        hp = data.hp[n - 1] + self.tiles[tile].curses * (n - 1)
        e = EnemyState(self._free_id("e", self.enemies), card, tile, hp, hp,
                       evasion=data.evasion)
        self.enemies[e.id] = e
        extra = f" (+{hp - data.hp[n - 1]} for curses)" if hp != data.hp[n - 1] else ""
        events.append(Event("spawn", f"{data.name} {e.id[1:]} spawns on map tile {tile} with "
                            f"{hp} HP{extra}", section, {"enemy": e.id, "tile": tile}))
        return e
