"""The Ironborn Phase: advancing in time, the scenario event, the God card (minions type by
type, then Thor top to bottom), and passing the First Champion marker."""

from __future__ import annotations

from typing import Any

from meadhall.core.protocol import Event

from .basics import (
    S_ADVANCE,
    S_DEFEAT,
    S_EVENT,
    S_GOD_ACT,
    S_GODCARD,
    S_IRONBORN,
    S_PHASES,
    S_VICTORY,
    copy_deck,
)

Task = dict[str, Any]


class IronbornPhase:
    """Mixin of :class:`BattleForgeState`: the automated enemies' phase."""

    def t_ironborn(self, t: Task, events: list[Event]) -> None:
        events.append(Event("phase", f"Round {self.round}: the Ironborn Phase begins",
                            S_IRONBORN))
        self.tasks[:0] = [{"t": "advance"}, {"t": "event"}, {"t": "god"}, {"t": "end_round"}]

    def t_advance(self, t: Task, events: list[Event]) -> None:
        self.advance_twilight(events, S_ADVANCE)

    def advance_twilight(self, events: list[Event], section: str,
                         cause: str | None = None) -> None:
        """Advance the Twilight marker; reaching the last space of the Rounds track loses
        (``cause``: what knocked out the champion whose knockout advanced it)."""
        self.twilight += 1
        last = len(self.content.round_track) - 1
        sym = self.content.round_track[min(self.twilight, last)]
        events.append(Event("twilight", f"The Twilight marker advances to space "
                            f"{self.twilight + 1} ({sym})", section, {"space": self.twilight + 1}))
        if self.twilight >= last:
            # the Rounds track is the final blow; a Knockout that advanced the marker the last
            # space is kept beside it (``advanced_by``)
            self.finish("loss", "the Twilight marker reached the last space of the Rounds track",
                        S_DEFEAT, events, "time_out", "round_track")
            if self.end is not None and cause:
                self.end["advanced_by"] = cause

    def spawn_symbol(self) -> str:
        """The Spawning Area symbol of the Twilight marker's space (the last space shows none;
        the previous symbol is used - ruling)."""
        track = self.content.round_track
        i = min(self.twilight, len(track) - 1)
        while track[i] not in ("triangle", "square", "circle"):
            i -= 1
        return track[i]

    def t_event(self, t: Task, events: list[Event]) -> None:
        """Draw the top Event card and resolve it; then it is discarded."""
        self.event_deck = copy_deck(self.event_deck)  # decks are shared by clones until changed
        card_id = self.event_deck.draw(self.chance, S_EVENT)
        if card_id is None:
            return
        self.event_deck.to_discard(card_id)
        card = self.event_card(card_id)
        self.cur_card = card.name
        events.append(Event("event", f"Event: {card.name} - {card.text}", S_EVENT,
                            {"card": card_id}))
        self.tasks[:0] = [*({"t": "activate", "type": k} for k in card.activate),
                          {"t": "steps", "steps": [dict(s) for s in card.steps], "sec": S_EVENT}]

    def t_god(self, t: Task, events: list[Event]) -> None:
        """Draw the top God card: activate its Minion types in order, then Thor's steps."""
        self.god_deck = copy_deck(self.god_deck)
        card_id = self.god_deck.draw(self.chance, S_GODCARD)
        if card_id is None:
            return
        card = self.content.thor_cards[card_id]
        self.cur_card = card.name
        self.thor_target = None
        self.god_card = card_id
        events.append(Event("god_card", f"God card: {card.name} - activates Minions "
                            f"{', '.join(str(k) for k in card.activate)}; {card.text}",
                            S_GODCARD, {"card": card_id}))
        self.tasks[:0] = [{"t": "anytime", "why": f"Before {card.name} is resolved"},
                          *({"t": "activate", "type": k} for k in card.activate),
                          {"t": "god_begin"},
                          {"t": "steps", "steps": [dict(s) for s in card.steps], "sec": S_GOD_ACT}]

    def t_god_begin(self, t: Task, events: list[Event]) -> None:
        if not self.thor["activated"]:
            events.append(Event("god", "Thor Activates for the first time", S_GOD_ACT))
        self.thor["activated"] = True

    def t_end_round(self, t: Task, events: list[Event]) -> None:
        """Discard the God card, pass the First Champion marker to the left, new round."""
        if self.god_card:
            self.god_deck = copy_deck(self.god_deck)
            self.god_deck.to_discard(self.god_card)
            self.god_card = None
        self.cur_card = None
        self.thor_target = None
        self.first = (self.first + 1) % len(self.order)
        self.round += 1
        self.phase = "champions"
        self.turn_pos = 0
        self.last_hit = []
        self.new_turn()
        events.append(Event("round", f"Round {self.round} begins; {self.cname(self.current())} "
                            "has the First Champion marker", S_PHASES, {"round": self.round}))

    # ------------------------------------------------------------------ scenario conditions
    def check_scenario_defeat(self, events: list[Event]) -> None:
        """The Last Flame: all Heat and Sacred Flame tokens removed. Forge of Doom: all
        Furnaces lit."""
        if self.result:
            return
        if self.scenario_poi == "flame" and not any(self.is_heat(a) for a in self.tokens):
            self.finish("loss", "every Heat and Sacred Flame token has been removed", S_DEFEAT,
                        events, "flames_gone", self.last_poi_by)
        if self.scenario_poi == "furnace" and all(n for n in self.furnaces.values()):
            self.finish("loss", "every Furnace is Lit", S_DEFEAT, events, "furnaces_lit",
                        self.last_poi_by)

    def thor_defeated(self, events: list[Event]) -> None:
        """Thor's six Faces are Destroyed: the scenario's Victory Conditions decide (The Last
        Flame: at least 1 Heat token; Forge of Doom: at least 1 Unlit Furnace). The win stands
        even if the same attack's Counterattack would knock a champion out (Dramatic Victory)."""
        if self.scenario_poi == "flame":
            ok = any(self.is_heat(a) for a in self.tokens)
            need = "at least 1 Heat token is in the Scenario"
        else:
            ok = any(n == 0 for n in self.furnaces.values())
            need = "at least 1 Furnace is Unlit"
        if ok:
            self.finish("win", f"Thor is Defeated and {need}", S_VICTORY, events)
        else:
            self.finish("loss", f"Thor is Defeated but not {need}", S_DEFEAT, events,
                        "no_point_of_interest", self.last_poi_by)
