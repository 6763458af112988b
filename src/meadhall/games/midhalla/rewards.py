"""Phase 4: Rewards (4.1-4.8), levelling up, the epilogue, and the campaign between chapters
(party sheet, unlocks, the fate scale)."""

from __future__ import annotations

import json
from typing import Any

from meadhall.core import words
from meadhall.core.protocol import PLAYERS, Event
from meadhall.games.midhalla import memo
from meadhall.games.midhalla import sections as S
from meadhall.games.midhalla.describe import unlock_name

END_CAMPAIGN = "end the campaign"
ROWS = {"up": ("top",), "down": ("bottom",), "both": ("top", "bottom")}
"""The skill rows a card's arrow allows (4.5 Level up)."""
UNLOCK_KINDS = {"class": "classes", "trap": "traps", "item": "items", "component": "components",
                "special_upgrade": "special_upgrades", "chapter": "chapters", "lore": "lore",
                "decision": "decisions"}


class RewardRules:
    """Mixin of :class:`MidhallaState`. ``self.rw`` is the rewards step in progress and
    ``self.lv`` a level-up draft in progress."""

    # ----------------------------------------------------------- 4.1 - 4.8
    def _rewards_step(self, events: list[Event]) -> None:
        rw = self.rw
        step = rw["step"]
        if step == "quests":
            events.append(Event("phase", f"Cycle {self.cycle}, Phase 4: Rewards", S.REWARDS))
            self._check_quests(events)
            rw["step"] = "ultimates"
            return
        if step == "ultimates":
            for h in self.heroes.values():
                if h.id in rw.setdefault("refreshed", []):
                    continue
                if len(h.ults_used) > 1:
                    opts = [(f"refresh {self.content.cat.ultimates[u].name}", u)
                            for u in h.ults_used]
                    self._ask("refresh", h.id, f"{self._hname(h.id)}: refresh one ultimate "
                              "ability", S.R_ULTIMATE, opts, ctx={"hero": h.id}, turn=True)
                    return
                rw["refreshed"].append(h.id)
                if h.ults_used:
                    self._refresh(h, h.ults_used[0], events)
            rw["step"] = "tokens"
            return
        if step == "tokens":
            for h in self.heroes.values():
                h.used_items.clear()
                h.top_at = h.bottom_at = None
                h.exhausted.clear()
                h.armor = h.retaliate = h.bleed = 0
            events.append(Event("refresh", "Used items are refreshed", S.R_ITEMS))
            events.append(Event("tokens", "Skill tokens and status tokens are removed from the "
                                "hero boards", S.R_TOKENS))
            self._begin_levelup(self.cycle + 1, events)
            rw["step"] = "level"
            return
        if step == "level":
            if self.lv is not None:
                self._levelup_step(events)
                return
            rw["step"] = "gains"
            return
        # 4.6 - 4.8
        p = self.content.printed
        drawn = self.decks["items"].draw_many(self.chance, p.reward_rare_items, S.R_CART)
        self.cart.extend(drawn)
        events.append(Event("cart", "Rare items added to Dara's cart: "
                            f"{', '.join(self._iname(i) for i in drawn) or 'none left'}",
                            S.R_CART))
        self.silver += p.reward_silver
        self.runestones += p.reward_runestones
        events.append(Event("gain", f"The party gains {p.reward_silver} silver and "
                            f"{p.reward_runestones} runestones", S.R_RESOURCES))
        self._draw_components(p.reward_components, events, S.R_COMPONENTS)
        self.rw = None
        self.cycle += 1
        self.explored_in_cycle = 0
        self.phase = "exploration"
        events.append(Event("phase", f"Cycle {self.cycle}, Phase 1: Exploration", S.EXPLORATION))

    def _on_refresh(self, ult: str, events: list[Event]) -> None:
        h = self.heroes[self.last_ctx["hero"]]
        self.rw["refreshed"].append(h.id)
        self._refresh(h, ult, events)

    def _refresh(self, h: Any, ult: str, events: list[Event]) -> None:
        h.ults_used.remove(ult)
        events.append(Event("refresh", f"{self._hname(h.id)} refreshes the ultimate "
                            f"{self.content.cat.ultimates[ult].name}", S.R_ULTIMATE))

    def _check_quests(self, events: list[Event]) -> None:
        """4.1: resolve quests on the quest board (success or failure) and story markers."""
        for deck, card in self.quests:
            q = self._event_card(deck, card).quest
            assert q is not None
            ok = self._quest_met(q.condition)
            events.append(Event("quest", f"Quest '{q.name}' is "
                                f"{'completed' if ok else 'failed and removed'}", S.R_QUESTS))
            self.script.extend(memo.dumps(q.reward if ok else q.fail))
            self.decks[deck].to_discard(card)
        self.quests = []
        for verse in self.story:
            self.script.append({"op": "verse", "id": verse})
        self.story = []

    def _quest_met(self, cond: dict[str, Any]) -> bool:
        kind = cond["type"]
        if kind == "gate_hp_min":
            return self.gate_hp >= cond["value"]
        if kind == "no_hero_ko":
            return self.kos == 0
        if kind == "kills_min":
            return self.kills >= cond["value"]
        if kind == "no_trap_destroyed":
            return self.traps_lost == 0
        raise ValueError(f"unknown quest condition {kind!r}")

    # ----------------------------------------------------------- level up
    def _begin_levelup(self, level: int, events: list[Event]) -> None:
        """Draw (number of players + 2) skills of the level into a face-up pool."""
        deck = self.decks.get(f"level{level}")
        if deck is None:
            self.lv = None
            return
        heroes = [h.id for h in self._party_heroes()]
        pool = deck.draw_many(self.chance, len(heroes) + 2, S.R_LEVEL)
        self.lv = {"level": level, "pool": pool, "todo": heroes, "card": None}
        events.append(Event("level", f"Level {level} skill pool: "
                            + ", ".join(self.content.cat.skills[s].name for s in pool),
                            S.R_LEVEL if level > 1 else S.PLAYER_AREAS))

    def _levelup_step(self, events: list[Event]) -> None:
        lv = self.lv
        if not lv["todo"] or not lv["pool"]:
            for s in lv["pool"]:
                self.decks[f"level{lv['level']}"].to_discard(s)
            if lv["pool"]:
                events.append(Event("level", "Unchosen skills are discarded",
                                    S.R_LEVEL if lv["level"] > 1 else S.PLAYER_AREAS))
            self.lv = None
            return
        hid = lv["todo"][0]
        h = self.heroes[hid]
        if lv["card"] is None:
            opts = [(f"take {self.content.cat.skills[s].name}", s)
                    for s in dict.fromkeys(lv["pool"])]
            if lv["level"] == 1:
                # Setup: "Collectively assign one to each hero" - the players together
                self._ask("level", PLAYERS, f"Collectively assign a level 1 skill from the "
                          f"pool to {self._hname(hid)}", S.PLAYER_AREAS, opts, turn=True)
                return
            # 4.5: "each player can select exactly one skill from this pool"
            self._ask("level", hid, f"{self._hname(hid)}: choose a level {lv['level']} skill "
                      "from the pool", S.R_LEVEL, opts, turn=True)
            return
        card = lv["card"]
        arrow = self.content.cat.skills[card].arrow
        rows = ROWS[arrow]
        if lv["level"] < 3:
            # a card whose arrow allows both rows: whoever chose the skill chooses the row
            opts = [(f"place in the {row} row", row) for row in rows]
            seat = PLAYERS if lv["level"] == 1 else hid
            self._ask("row", seat, f"{self._hname(hid)}: the level {lv['level']} skill "
                      f"{self.content.cat.skills[card].name} may go in either row (arrow both)",
                      S.R_LEVEL if lv["level"] > 1 else S.PLAYER_AREAS, opts, turn=True)
            return
        opts = [(f"cover {self._slot_text(slot)} {self._skill_name(h, slot)}", slot)
                for slot in self._slots(h) if slot.split(":")[0] in rows]
        self._ask("cover", hid, f"{self._hname(hid)}: place the level 3 skill "
                  f"{self.content.cat.skills[card].name} on an existing skill (arrow: {arrow})",
                  S.R_LEVEL, opts, turn=True)

    def _on_level(self, skill: str, events: list[Event]) -> None:
        lv = self.lv
        h = self.heroes[lv["todo"][0]]
        lv["pool"].remove(skill)
        rows = ROWS[self.content.cat.skills[skill].arrow]
        if lv["level"] == 3 or len(rows) > 1:
            lv["card"] = skill  # where it goes is asked next
            return
        self._gain_skill(h, skill, rows[0], events)

    def _on_row(self, row: str, events: list[Event]) -> None:
        lv = self.lv
        h = self.heroes[lv["todo"][0]]
        card = lv["card"]
        lv["card"] = None
        self._gain_skill(h, card, row, events)

    def _gain_skill(self, h: Any, skill: str, row: str, events: list[Event]) -> None:
        """A level 1 or 2 skill joins the row its arrow shows (ruling 3)."""
        lv = self.lv
        (h.top if row == "top" else h.bottom).append(skill)
        h.level = lv["level"]
        lv["todo"].pop(0)
        events.append(Event("level", f"{self._hname(h.id)} gains the level {lv['level']} skill "
                            f"{self.content.cat.skills[skill].name} in the {row} row",
                            S.R_LEVEL if lv["level"] > 1 else S.PLAYER_AREAS))

    def _on_cover(self, slot: str, events: list[Event]) -> None:
        lv = self.lv
        h = self.heroes[lv["todo"][0]]
        row, i = slot.split(":")
        old = self._skill_name(h, slot)
        (h.top if row == "top" else h.bottom)[int(i)] = lv["card"]
        h.level = 3
        events.append(Event("level", f"{self._hname(h.id)} places the level 3 skill "
                            f"{self.content.cat.skills[lv['card']].name} over {old}", S.R_LEVEL))
        lv["card"] = None
        lv["todo"].pop(0)

    # ----------------------------------------------------------- epilogue and campaign
    def _epilogue_step(self, events: list[Event]) -> None:
        if not self.epilogue_read:
            self.epilogue_read = True
            ep = self.chapter_data.epilogue
            events.append(Event("epilogue", f"Epilogue: {ep.text}", S.REWARDS))
            self.script.extend(memo.dumps(ep.ops))
            return
        self._chapter_won(events)

    def _mark_new(self, kind: str, what: str) -> None:
        self._party_w()["new"].append([kind, what])

    def _unlock(self, kind: str, what: str, events: list[Event]) -> None:
        """Types of Unlocks: mark it (a single stroke until the chapter ends) and apply it."""
        key = UNLOCK_KINDS[kind]
        if what in self.party["unlocks"].get(key, ()):
            return
        self._party_w()["unlocks"].setdefault(key, []).append(what)
        self._mark_new(key, what)
        extra = ""
        if kind == "item":
            item = self.content.cat.items[what]
            if item.kind == "unique":
                self.gifts.append(what)
                extra = " (a unique item: given to a hero now)"
            else:
                self.cart.append(what)
                extra = " (added to Dara's cart now)"
        elif kind == "component":
            self.components.append(what)
            extra = " (added to the available components now)"
        elif kind == "chapter" and what not in self.content.chapters:
            extra = " (not printed in this build: it cannot be played)"
        events.append(Event("unlock", f"Unlocked {kind.replace('_', ' ')}: "
                            f"{unlock_name(self.content, kind, what)}{extra}", S.UNLOCKS,
                            {"kind": kind, "id": what}))

    def _chapter_won(self, events: list[Event]) -> None:
        """The fate scale moves one slot toward the Wrath of Isyl; unlocks are confirmed."""
        party = self._party_w()
        party["new"] = []
        if self.chapter not in party["completed"]:
            party["completed"].append(self.chapter)
        self._move_fate(-1, events)
        events.append(Event("win", f"{self.chapter_data.name} is won: the gate is defended",
                            S.FATE))
        self._after_chapter("win", "the chapter's objectives are fulfilled", events)

    def _chapter_lost(self, reason: str, events: list[Event], trigger: str = "",
                      by: tuple[str, str] | None = None) -> None:
        """Losing: in-chapter unlocks are lost; fate moves two slots toward Athyr's Blessing.
        ``trigger`` (``gate_destroyed``, ``heroes_ko``) and ``by`` (who dealt the final blow,
        id and type) are kept for the statistics (``measures``)."""
        if self.phase in ("over", "interlude", "aftermath"):
            return
        self.ending = {"trigger": trigger, "by": by[0] if by else None,
                       "final_blow": by[1] if by else None}
        events.append(Event("loss", f"The chapter is lost: {reason}", S.GOAL,
                            {"trigger": trigger}))
        fate = self.party["fate"]
        self.party = json.loads(self.party_start)
        self.party["fate"] = fate
        events.append(Event("unlock", "Every unlock gained during this chapter is lost",
                            S.MARKING))
        self._move_fate(2, events)
        self._after_chapter("loss", reason, events)

    def _move_fate(self, step: int, events: list[Event]) -> None:
        track = self.content.cat.fate_track
        old = self.party["fate"]
        new = max(track[0], min(track[-1], old + step))
        self._party_w()["fate"] = new
        side = ("Wrath of Isyl" if new < 0 else "Athyr's Blessing" if new > 0 else "neutral")
        events.append(Event("fate", f"The fate scale moves from {old} to {new} ({side})",
                            S.FATE, {"fate": new}))
        if new == track[0] and old != new:
            n = self.content.cat.fate_leftmost_event
            events.append(Event("fate", "The marker reaches the leftmost position: read the "
                                f"global event marked there ({n})", S.FATE))
            self.script.append({"op": "global", "n": n})

    def _after_chapter(self, result: str, reason: str, events: list[Event]) -> None:
        self.record.append([self.chapter, result])
        self.cb = self.ht = self.lv = self.rw = self.choice = None
        # A global event the fate scale calls for (its leftmost position) is still read,
        # also when the chapter is played on its own.
        self.script = [o for o in self.script if o.get("op") == "global"]
        self.result = [result, reason]
        self.phase = "interlude" if self.setup.get("campaign") else "aftermath"

    def _aftermath_step(self, events: list[Event]) -> None:
        """A chapter played on its own ends once the fate scale's global event is read."""
        self.phase = "over"

    def _playable_chapters(self) -> list[str]:
        p = self.party
        return [c for c in self.content.chapters if c in p["unlocks"]["chapters"]
                and c not in p["completed"]]

    def _interlude_step(self, events: list[Event]) -> None:
        options = self._playable_chapters()
        if not options:
            self._end_campaign("win", "every printed chapter of the campaign is completed",
                               events)
            return
        opts: list[tuple[str, Any]] = [(f"play {self.content.chapters[c].name}", c)
                                       for c in options]
        opts.append((END_CAMPAIGN, ""))
        self._ask("play", PLAYERS, "Choose the next chapter to play, or end the campaign (it "
                  "can be saved here)", S.CAMPAIGN, opts, turn=True)

    def _on_play(self, chapter: str, events: list[Event]) -> None:
        if not chapter:
            self._end_campaign("loss", "the players ended the campaign before completing it",
                               events)
            return
        self.next_chapter = chapter
        self.phase = "roster"

    def _campaign_record(self) -> dict[str, Any]:
        won = [c for c, r in self.record if r == "win"]
        return {"chapters_played": len(self.record), "won": won,
                "lost": sum(1 for _, r in self.record if r == "loss"),
                "completed": list(self.party["completed"]), "fate": self.party["fate"]}

    def _end_campaign(self, result: str, how: str, events: list[Event]) -> None:
        """The campaign is over; the party sheet records how it ended (Campaign Play: the
        players decide when they stop; completing every printed chapter ends it too)."""
        rec = self._campaign_record()
        self._party_w()["ended"] = {"how": how, **rec}
        self.phase = "over"
        won = words.join(unlock_name(self.content, "chapter", c) for c in rec["won"]) or "none"
        self.result = [result, f"{how}: {words.plural(rec['chapters_played'], 'chapter')} "
                               f"played, won: {won}, lost: {rec['lost']}"]
        events.append(Event("campaign", f"The campaign ends: {self.result[1]}", S.CAMPAIGN,
                            {"result": result, **rec}))

    def _roster_step(self, events: list[Event]) -> None:
        """Drop-in / drop-out: choose the heroes among the unlocked classes (Campaign Play)."""
        classes = self.party["unlocks"]["classes"]
        ch = self.next_chapter
        opts = []
        if 1 <= len(self.roster) <= 4:
            opts.append(("start the chapter", ["start"]))
        opts += [(f"add {self._short(c)}", ["add", c]) for c in classes
                 if c not in self.roster and len(self.roster) < 4]
        opts += [(f"remove {self._short(h)}", ["remove", h]) for h in self.roster
                 if len(self.roster) > 1]
        party = ", ".join(self._short(h) for h in self.roster)
        self._ask("roster", PLAYERS, f"Heroes for {self.content.chapters[ch].name} ({party}): "
                  "keep the party or change it (unlocked classes only)", S.CAMPAIGN, opts,
                  turn=True)

    def _on_roster(self, p: list[str], events: list[Event]) -> None:
        if p[0] == "add":
            self.roster.append(p[1])
        elif p[0] == "remove":
            self.roster.remove(p[1])
        else:
            chapter = self.next_chapter
            assert chapter is not None
            self.next_chapter = None
            self._setup_chapter(chapter)
            self._chapter_draws(events)
