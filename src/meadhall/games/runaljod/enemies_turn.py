"""The enemies' turn: time, events and the activation of enemies with the AI decks
(Enemies Turn; Enemy Actions: Attack, Movement, Sight, Clarifications; Special Enemies).

"The enemies always perform the best possible action for them" is implemented as this
documented evaluation (docs/rulings/runaljod.md, "Best possible action"):

* movement toward a hero ends on a space adjacent to the target if one is reachable, preferring
  the space adjacent to the most heroes, then the cheapest route; otherwise on the reachable
  space closest (by walking cost) to a space adjacent to the target, then the one adjacent to
  the most heroes, then closest to every hero (sum of walking costs), then the cheapest route;
* sight moves to the reachable space from which the target is seen that costs least, otherwise
  toward the nearest such space;
* the players may override the evaluation: a PLAYERS decision offers every space meeting the
  rulebook's own criteria (next to the target if possible, else as close as possible, then next
  to the most heroes) with the engine's best space (first in reading order) as its default.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from meadhall.core import grid, words
from meadhall.core.grid import Sq
from meadhall.core.protocol import PLAYERS, Event

from .content import AiAction, Effect
from .memo import content_cache
from .model import (
    S_CLARIFY,
    S_ENEMIES,
    S_ENEMY_ACTIONS,
    S_KEYWORDS,
    S_MOVE,
    S_SIGHT,
    S_SPECIAL,
    S_VICTORY,
    Enemy,
    Hero,
)
from .names import card_title

INF = float("inf")


def reading(s: Sq) -> tuple[int, int]:
    return (s[1], s[0])


class EnemiesMixin:
    """Resumable enemies' turn: ``self.estage`` is time → event → activation → done."""

    # ------------------------------------------------------------ the turn
    def run_enemies(self, events: list[Event]) -> bool:
        """Advance the enemies' turn; False when it waits for a players' decision."""
        while True:
            if self.ask is not None or self.ended() or self.placement_ask():
                return False
            if self.estage == "time":
                self.time_phase(events)
                self.estage = "event"
            elif self.estage == "event":
                self.estage = "activation"
                self.event_phase(events)
            elif self.estage == "activation":
                if not self.activation_phase(events):
                    return False
                self.estage = "done"
            else:
                return True

    def time_phase(self, events: list[Event]) -> None:
        """Advance the time token; on a snake the active exploration card may be discarded;
        overlapping the end marker loses the game."""
        alt = self.content.altar
        self.time = (self.time + 1) % alt.track
        events.append(Event("time", f"The time token advances to space {self.time} "
                            f"(end marker on {self.end})", S_ENEMIES, {"time": self.time}))
        if self.time == self.end:
            self.lost = "the time token reached the end marker"
            events.append(Event("defeat", "The time token overlaps the end marker: the heroes "
                                "lose", S_VICTORY))
            return
        if self.time in alt.snakes and self.active_card:
            card = self.content.exploration[self.active_card]
            if card.snake == "discard":
                events.append(Event("snake", f"The time token is on a snake: the exploration "
                                    f"card {card.name} is discarded", S_ENEMIES))
                self.active_card = ""

    def event_phase(self, events: list[Event]) -> None:
        """Only without an active exploration card: reveal an event (or keep resolving one that
        stays for several circles); "or" cards apply their top only with enemies in play."""
        if self.active_card:
            events.append(Event("event", "An exploration card is active: no event this turn",
                                S_ENEMIES))
            return
        if self.active_event:
            card_id, marked = self.active_event[0], self.active_event[1]
        else:
            drawn = self.draw(self.event_deck, S_ENEMIES)
            if drawn is None:
                return
            card_id, marked = drawn, 0
        card = self.content.events[card_id]
        top = card.bottom is None or bool(self.enemies)
        effects = card.top if top else (card.bottom or [])
        half = "" if card.bottom is None else (" (top half: enemies are in play)" if top
                                               else " (bottom half: no enemy in play)")
        events.append(Event("event", f"Event: {card.name}{half} - {card.text}", S_ENEMIES,
                            {"card": card_id}))
        marked += 1
        if card.circles and marked < card.circles:
            self.active_event = [card_id, marked]
        else:
            self.active_event = []
            self.event_deck.to_discard(card_id)
        for eff in effects:
            self.apply_event_effect(eff, events, card_id)

    def apply_event_effect(self, eff: Effect, events: list[Event], card: str = "") -> None:
        heroes = [h for h in self.heroes.values() if not h.fallen]
        if eff.kind == "lose_life_heroes":
            for h in heroes:
                self.lose_life(h, eff.value, "event", S_ENEMIES, events, (card, "event"))
        elif eff.kind == "heal_heroes":
            for h in heroes:
                self.heal(h, eff.value, "event", S_ENEMIES, events)
        elif eff.kind == "glory_heroes":
            for h in heroes:
                self.gain_glory(h, eff.value, events, "event")
        elif eff.kind == "frozen_heroes":
            for h in heroes:
                self.give_condition(h, "frozen", events, S_ENEMIES)
        elif eff.kind == "heal_enemies":
            for e in self.enemies:
                n = min(eff.value, e.damage)
                if n:
                    e.damage -= n
                    events.append(Event("heal", f"{self.ename(e)} recovers {words.plural(n, 'life point')}",
                                        S_ENEMIES))
        elif eff.kind == "time":
            for _ in range(eff.value):
                if not self.lost:
                    self.time_phase(events)
        elif eff.kind == "spawn":
            self.spawn(eff.type, events, S_ENEMIES)
        else:
            raise ValueError(f"unknown event effect {eff.kind}")

    def spawn_squares(self) -> list[Sq]:
        """Free squares of the last tile's exit (its east edge when it has no exit)."""
        last = self.tiles[-1]
        rows = self.content.tiles[last.tile].rows
        exits = list(self.board.exits)
        if not exits:
            w = len(rows[0]) - 1
            exits = [(last.x + w, y) for y in range(len(rows))]
        return sorted((s for s in exits if not self.is_obstacle(s) and s not in self.bonfires
                       and self.hero_at(s) is None and self.enemy_at(s) is None), key=reading)

    def spawn(self, kind: str, events: list[Event], section: str) -> None:
        free = self.spawn_squares()
        if not free:
            events.append(Event("spawn", f"No free exit space: the "
                                f"{self.content.enemies[kind].name} does not appear", section))
            return
        if len(free) > 1:
            self.ask = {"kind": "spawn", "seat": PLAYERS, "section": section,
                        "prompt": f"{words.a(self.content.enemies[kind].name, cap=True)} appears at the exit: "
                                  "choose its space",
                        "options": [f"place {self.kname(kind)} on {self.sqname(s)}"
                                    for s in free],
                        "default": f"place {self.kname(kind)} on {self.sqname(free[0])}",
                        "enemy": kind}
            return
        self.place_enemy(kind, free[0], events, section)

    def on_spawn(self, action: str, ask: dict, events: list[Event]) -> None:
        self.place_enemy(ask["enemy"], self.parse_sq(action.rpartition(" on ")[2]), events,
                         ask["section"])

    def place_enemy(self, kind: str, at: Sq, events: list[Event], section: str,
                    also: Sq | None = None) -> None:
        if self.content.enemies[kind].size == 2 and also is None:
            free = [n for n in grid.neighbours(at) if n in self.terrain
                    and not self.is_obstacle(n) and self.enemy_at(n) is None
                    and self.hero_at(n) is None]
            if not free:
                events.append(Event("spawn", f"No room for the large "
                                    f"{self.content.enemies[kind].name}", section))
                return
            also = sorted(free, key=reading)[0]
        self.next_uid += 1
        e = Enemy(self.next_uid, kind, at, also=also)
        self.enemies.append(e)
        events.append(Event("spawn", f"{self.ename(e)} enters the board", section,
                            {"enemy": e.uid}))

    # ------------------------------------------------------------ activation
    def activation_phase(self, events: list[Event]) -> bool:
        """Draw the Enemy AI card, activate each group top to bottom, each enemy once, then
        any special enemy's own AI card. False while waiting for a decision."""
        if not self.ai_cards:
            if not self.enemies:
                return True
            card = self.draw(self.ai_deck, S_ENEMIES)
            assert card is not None
            self.ai_deck.to_discard(card)
            # Special enemies' cards are revealed (drawn) only once the common card is
            # resolved (Special Enemies): their slots wait with an empty card id.
            self.ai_cards = [["common", card]]
            self.ai_pos = [0, 0]
            for e in self.enemies:
                e.activated = False
            events.append(Event("ai", f"Enemy AI {card_title(self.content, 'enemy AI', card)}: "
                                f"{self.describe_ai('common', card)}",
                                S_ENEMIES, {"card": card}))
        while self.ai_pos[0] < len(self.ai_cards) or self.ai_pos[0] == 1:
            if self.ask is not None or self.ended() or self.placement_ask():
                return False  # a decision arose (e.g. where a released hero is placed)
            if self.ai_pos[0] == 1 and len(self.ai_cards) == 1:
                # the common card is resolved: reveal each special enemy's own card
                for deck in sorted({self.enemy_data(e).ai_deck for e in self.enemies
                                    if self.enemy_data(e).ai_deck}):
                    d = self.special_decks[deck]
                    sc = self.draw(d, S_SPECIAL)
                    assert sc is not None
                    d.to_discard(sc)
                    self.ai_cards.append([deck, sc])
                    events.append(Event("ai", f"Special enemy AI {card_title(self.content, deck, sc)} "
                                        f"({self.names.deck.get(deck + ' AI', deck)}): "
                                        f"{self.describe_ai(deck, sc)}", S_SPECIAL,
                                        {"card": sc, "deck": deck}))
                if len(self.ai_cards) == 1:
                    break
            deck, card_id = self.ai_cards[self.ai_pos[0]]
            card = self.content.ai_decks[deck][card_id]
            if self.ai_pos[1] >= len(card.groups):
                self.ai_pos = [self.ai_pos[0] + 1, 0]
                continue
            group = card.groups[self.ai_pos[1]]
            if self.ai_enemy:
                if not self.activate_enemy(group.actions, events):
                    return False
                continue
            waiting = [e for e in self.enemies
                       if self.enemy_data(e).group == group.group and not e.activated]
            if not waiting:
                self.ai_pos[1] += 1
                continue
            if len(waiting) > 1:
                best = self.activation_default(waiting, group.actions)
                self.ask = {"kind": "order", "seat": PLAYERS, "section": S_ENEMIES,
                            "prompt": f"Choose which {self.enemy_data(waiting[0]).name} "
                                      "activates next",
                            "options": [f"activate {self.kname(e.kind)} at {self.sqname(e.at)}"
                                        for e in waiting],
                            "default": f"activate {self.kname(best.kind)} at "
                                       f"{self.sqname(best.at)}"}
                return False
            self.begin_activation(waiting[0], events)
        self.ai_cards = []
        return True

    def describe_ai(self, deck: str, card_id: str) -> str:
        """An AI card in words: each group in activation order with its actions and the
        hero-icon target order (built once per card: the words come from the content)."""
        cache = content_cache(self.content, "AI card words")
        text = cache.get((deck, card_id))
        if text is None:
            text = cache[(deck, card_id)] = self._describe_ai(deck, card_id)
        return text

    def _describe_ai(self, deck: str, card_id: str) -> str:
        names = {d.group: d.name for d in self.content.enemies.values()}
        parts = []
        for g in self.content.ai_decks[deck][card_id].groups:
            acts = []
            for a in g.actions:
                who = "/".join(self.content.heroes[t].name for t in a.targets
                               if t in self.content.heroes)
                acts.append(a.do + (f" ({who})" if who else ""))
            parts.append(f"{names.get(g.group, g.group)}: {', then '.join(acts)}")
        return "; ".join(parts)

    def activation_default(self, waiting: list[Enemy], actions: list[AiAction]) -> Enemy:
        """Evaluation for the activation order: the enemy closest to a hero acts first."""
        def key(e: Enemy) -> tuple[float, int]:
            hs = [h.at for h in self.standing_heroes() if h.at]
            return (min((grid.chebyshev(q, s) for s in hs for q in e.squares), default=99),
                    e.uid)
        return min(waiting, key=key)

    def on_order(self, action: str, ask: dict, events: list[Event]) -> None:
        at = self.parse_sq(action.rpartition(" at ")[2])
        e = next(e for e in self.enemies if e.at == at)
        self.begin_activation(e, events)

    def begin_activation(self, e: Enemy, events: list[Event]) -> None:
        """Choose the enemy, then apply its condition tokens (ruling: wound -2 life, stunned
        skips the activation, frozen -1 life and no movement; each token is then discarded)."""
        e.activated = True
        self.ai_enemy = e.uid
        self.ai_step = 0
        self.ai_flags = []
        for t in list(e.conditions):
            e.conditions.remove(t)
            if t == "stun":
                self.ai_flags.append("stunned")
                events.append(Event("condition", f"{self.ename(e)} is stunned and skips its "
                                    "actions (the token is discarded)", S_ENEMIES))
            elif t == "wound":
                self.hurt_enemy(e, 2, None, "wound token", S_ENEMIES, events)
            elif t == "frozen":
                self.ai_flags.append("frozen")
                self.hurt_enemy(e, 1, None, "frozen token (it cannot move this activation)",
                                S_ENEMIES, events)
        if e not in self.enemies:
            self.ai_enemy = 0

    def activate_enemy(self, actions: list[AiAction], events: list[Event]) -> bool:
        e = next((x for x in self.enemies if x.uid == self.ai_enemy), None)
        while e is not None and self.ai_step < len(actions) and "stunned" not in self.ai_flags:
            act = actions[self.ai_step]
            if self.ask is not None or self.placement_ask():
                return False
            done = self.enemy_action(e, act, events)
            if not done:
                return False
            self.ai_step += 1
            if e not in self.enemies or self.ended():
                break
        self.ai_enemy = 0
        return True

    def enemy_action(self, e: Enemy, act: AiAction, events: list[Event]) -> bool:
        """One AI line; actions that cannot be performed or have no effect are skipped."""
        if act.do == "howl":
            self.howl(e, events)
            return True
        if act.do == "attack":
            h = self.attack_target(e, act.targets)
            if h is None:
                events.append(Event("skip", f"{self.ename(e)} has no hero to attack: the "
                                    "attack is skipped", S_ENEMY_ACTIONS))
                return True
            self.enemy_attack(e, h, events, "Attack")
            return True
        if "frozen" in self.ai_flags:
            events.append(Event("skip", f"{self.ename(e)} is frozen and does not move",
                                S_ENEMIES))
            return True
        if e.captor:
            events.append(Event("skip", f"{self.ename(e)} is held by "
                                f"{self.hname(self.heroes[e.captor])} and cannot move",
                                "Hold"))
            return True
        allowed: list[tuple[Sq, ...]] = []
        if act.do == "move":
            opts, allowed, why = self.move_choices(e, act.targets)
        elif act.do == "sight":
            opts, why = self.sight_options(e, act.targets)
        else:
            opts, why = self.retreat_options(e)
        if not opts or opts == [self.stand(e)]:
            events.append(Event("skip", f"{self.ename(e)} does not move: {why}",
                                S_SIGHT if act.do == "sight" else S_MOVE))
            return True
        # The players choose among the spaces the rulebook allows; the engine's evaluation
        # (its best spaces, in reading order) is the default they may override.
        here = self.stand(e)
        default = next((fp for fp in opts if fp != here), opts[0])
        choices = [fp for fp in allowed if fp != here] or [fp for fp in opts if fp != here]
        if default not in choices:
            choices.insert(0, default)
        if len(choices) > 1:
            texts = [f"move {self.kname(e.kind)} to {self.fpname(fp)}" for fp in choices]
            self.ask = {"kind": "emove", "seat": PLAYERS,
                        "section": S_SIGHT if act.do == "sight" else S_CLARIFY,
                        "prompt": f"{self.ename(e)} {why}; choose its space (default: the "
                                  f"best for the enemies by the engine's evaluation"
                                  + (f", equally good: {', '.join(self.fpname(f) for f in opts)}"
                                     if len(opts) > 1 else "") + ")",
                        "options": texts,
                        "default": f"move {self.kname(e.kind)} to {self.fpname(default)}",
                        "why": why, "enemy": e.uid}
            return False
        self.move_enemy(e, default, why, events)
        return True

    def fpname(self, fp: tuple[Sq, ...]) -> str:
        return "+".join(self.sqname(q) for q in fp)

    def stand(self, e: Enemy) -> tuple[Sq, ...]:
        """The spaces an enemy's base covers, in reading order."""
        return tuple(sorted(e.squares, key=reading))

    def on_emove(self, action: str, ask: dict, events: list[Event]) -> None:
        e = next(x for x in self.enemies if x.uid == ask["enemy"])
        fp = tuple(self.parse_sq(q) for q in action.rpartition(" to ")[2].split("+"))
        self.move_enemy(e, fp, ask["why"], events)
        self.ai_step += 1

    def move_enemy(self, e: Enemy, fp: tuple[Sq, ...], why: str, events: list[Event]) -> None:
        """Move an enemy (a held hero travels with its captor; a bonfire next to the enemy
        removes its frozen token)."""
        # a search copy's events are never read (no rule reads events): not worded there
        frm = "" if self._scratch else self.fpname(self.stand(e))
        e.at = fp[0]
        if e.also is not None:
            e.also = fp[1]
        for h in self.heroes.values():
            if h.held_by == e.uid:
                h.at = e.at
        if "frozen" in e.conditions and any(grid.chebyshev(q, b) <= 1 for q in fp
                                            for b in self.bonfires):
            e.conditions.remove("frozen")
        if not self._scratch:
            events.append(Event("move", f"{self.enemy_data(e).name} {e.uid} moves from "
                                f"{frm} to {self.fpname(fp)}: {why}", S_MOVE,
                                {"enemy": e.uid, "to": self.fpname(fp)}))

    # ------------------------------------------------------------ targets
    def icon_heroes(self, targets: list[str], e: Enemy | None = None) -> list[Hero]:
        """The standing heroes the icons name, in icon order; for enemy ``e``, without a hero
        another enemy holds (Keywords - Hold: "only considered adjacent to the enemy captor",
        it "loses LoS to any other space")."""
        return [self.heroes[t] for t in targets if t in self.heroes
                and not self.heroes[t].fallen and self.heroes[t].at is not None
                and (e is None or self.reachable_hero(e, self.heroes[t]))]

    def reachable_hero(self, e: Enemy, h: Hero) -> bool:
        """Whether enemy ``e`` can ever be next to (or see) hero ``h``: not when another enemy
        holds ``h`` (Keywords - Hold)."""
        return not h.held_by or h.held_by == e.uid

    def heroes_for(self, e: Enemy) -> list[Hero]:
        """The standing heroes enemy ``e`` can engage (a hero held by another is not one)."""
        return [h for h in self.standing_heroes() if self.reachable_hero(e, h)]

    def closest_heroes(self, e: Enemy, pool: list[Hero]) -> list[Hero]:
        """The heroes of ``pool`` closest to the enemy by its walking cost to a space next to
        them (then by counted squares when none can be reached), ties in ``pool`` order."""
        if len(pool) <= 1:
            return list(pool)
        groups = [set(grid.neighbours(h.at, diagonal=True)) for h in pool]
        dist = self.enemy_field(e, e.squares, until=groups)

        def d(h: Hero) -> float:
            best = INF
            for n in grid.neighbours(h.at, diagonal=True):
                best = min(best, dist.get(n, INF))
            return best if best < INF else 100 + min(grid.chebyshev(q, h.at)
                                                     for q in e.squares)
        ds = [d(h) for h in pool]
        m = min(ds)
        return [h for h, x in zip(pool, ds, strict=True) if x == m]

    def can_attack(self, e: Enemy, h: Hero) -> bool:
        """Melee: an adjacent hero in sight (Large keyword: up to 2 spaces); range: any hero in
        sight; from any space of the enemy's base."""
        if h.fallen or h.at is None:
            return False
        if h.held_by:
            return h.held_by == e.uid  # Hold: only adjacent to its captor
        if e.captor:
            return h.id == e.captor  # a held enemy only attacks its captor
        return self.attacks_from(e, tuple(e.squares), h, self.occupied())

    def attacks_from(self, e: Enemy, fp: tuple[Sq, ...], h: Hero, occ: set[Sq]) -> bool:
        """Whether enemy ``e`` standing on ``fp`` could attack hero ``h`` (as
        :meth:`can_attack`), ``occ`` the blocking squares once it has moved there."""
        ed = self.enemy_data(e)
        at = h.at
        assert at is not None
        for q in fp:
            if ed.attack == "range" or self.adjacent(q, at):
                if self.sees(q, at, occ):
                    return True
            elif "large" in ed.keywords and self.spaces_within(q, at, 2) and \
                    self.sees(q, at, occ):
                return True
        return False

    def attack_target(self, e: Enemy, targets: list[str]) -> Hero | None:
        """The first hero icon that is a valid target; otherwise the closest hero it can
        attack (ruling: closest by walking cost, ties in icon order)."""
        for h in self.icon_heroes(targets, e):
            if self.can_attack(e, h):
                return h
        valid = [h for h in self.standing_heroes() if self.can_attack(e, h)]
        close = self.closest_heroes(e, valid)
        return close[0] if close else None

    def move_target(self, e: Enemy, targets: list[str]) -> Hero | None:
        heroes = self.icon_heroes(targets, e)
        if heroes:
            return heroes[0]
        close = self.closest_heroes(e, self.heroes_for(e))
        return close[0] if close else None

    # ------------------------------------------------------------ movement evaluation
    def lead(self, e: Enemy, toward: Sq | None) -> Sq:
        """A large enemy counts its movement from the space of its base closer to the target."""
        if e.also is None or toward is None:
            return e.at
        return min(e.squares, key=lambda q: (grid.chebyshev(q, toward), reading(q)))

    def reach(self, e: Enemy, toward: Sq | None = None) -> dict[Sq, float]:
        mp = self.enemy_data(e).move + sum(r.value for r in self.active_rules()
                                           if r.kind == "enemy_move")
        return self.enemy_field(e, [self.lead(e, toward)], limit=mp)

    def stands_within(self, e: Enemy, toward: Sq | None) -> dict[tuple[Sq, ...], float]:
        """Every base position the enemy can end its movement on, with its cheapest cost."""
        out: dict[tuple[Sq, ...], float] = {}
        can_end = self.enemy_end_test(e)
        for s, c in self.reach(e, toward).items():
            for fp in self.footprints(e, s, can_end):
                if c < out.get(fp, INF):
                    out[fp] = c
        here = self.stand(e)
        if all(can_end(q) for q in here):
            out[here] = 0
        return out

    def heroes_adjacent(self, fp: tuple[Sq, ...] | Sq, e: Enemy | None = None) -> int:
        """Standing heroes next to a base position; for enemy ``e`` a hero another enemy
        holds is adjacent to its captor only (Keywords - Hold)."""
        squares = fp if isinstance(fp[0], tuple) else (fp,)
        n = 0
        for h in self.heroes.values():
            at = h.at
            if h.fallen or at is None or e is not None and not self.reachable_hero(e, h):
                continue
            for q in squares:  # type: ignore[union-attr]
                if max(abs(q[0] - at[0]), abs(q[1] - at[1])) == 1:
                    n += 1
                    break
        return n

    def move_options(self, e: Enemy, targets: list[str]) -> tuple[list[tuple[Sq, ...]], str]:
        """The engine's best spaces for a move line (see :meth:`move_choices`)."""
        best, _, why = self.move_choices(e, targets)
        return best, why

    def _ai_key(self, e: Enemy, targets: list[str]) -> tuple[Any, ...] | None:
        """Everything an enemy's movement choice reads (the board, the bonfires, the heroes'
        squares, falls, holds and skills, every enemy's base and captor, the active card's
        rules, the enemy and its targets), or None without tiles."""
        if not self.tiles:
            return None
        coloured = self.content.heroes
        return (self.board, self.active_card, e.uid, tuple(targets), tuple(self.bonfires),
                tuple((h.id, h.at, h.fallen, h.held_by, h.captive,
                       h.damage < coloured[h.id].coloured, *h.skills)
                      for h in self.heroes.values()),
                tuple((o.uid, o.kind, o.at, o.also, o.captor) for o in self.enemies))

    def _ai_memo(self, kind: str, e: Enemy, targets: list[str], compute: Callable[[], Any]
                 ) -> Any:
        """A movement choice of the enemies' AI, computed once per position of the figures
        (a search plays the same enemies' turn from many copies of one position; shared by
        every state of the content)."""
        key = self._ai_key(e, targets)
        if key is None:
            return compute()
        cache = content_cache(self.content, "enemy AI")
        full = (kind, *key)
        hit = cache.get(full)
        if hit is None:
            hit = compute()
            if len(cache) > 20_000:
                cache.clear()
            cache[full] = hit
        return hit

    def move_choices(self, e: Enemy, targets: list[str]
                     ) -> tuple[list[tuple[Sq, ...]], list[tuple[Sq, ...]], str]:
        """(best, allowed, why) for a move line toward its target (:meth:`_move_choices`,
        remembered per position of the figures)."""
        best, allowed, why = self._ai_memo("move", e, targets,
                                           lambda: self._move_choices(e, targets))
        return list(best), list(allowed), why

    def _move_choices(self, e: Enemy, targets: list[str]
                      ) -> tuple[list[tuple[Sq, ...]], list[tuple[Sq, ...]], str]:
        """(best, allowed, why) for a move line toward its target. ``allowed`` are the spaces
        meeting the rulebook's own criteria (next to the target if it can get there, else as
        close as possible; then next to the most heroes); ``best`` narrows them with the
        engine's evaluation (closest to every hero, then the cheapest route)."""
        h = self.move_target(e, targets)
        if h is None:
            return [], [], "no hero to move toward"
        assert h.at is not None
        # "If the enemy is already adjacent to the heroes ... it doesn't perform the action":
        # next to any standing hero, not only its target
        near = next((o for o in self.heroes_for(e)
                     if o.held_by == e.uid or any(self.adjacent(q, o.at) for q in e.squares)),
                    None)
        if near is not None:
            return [], [], f"already adjacent to {self.hname(near)}"
        stands = self.stands_within(e, h.at)
        why = f"toward {self.hname(h)}"
        # ``best`` orders by the rulebook's keys then the engine's: the spaces best by the
        # rulebook's keys alone (``allowed``) are narrowed by the engine's further keys.
        ht = h.at
        at_goal = [fp for fp in stands
                   if any(max(abs(q[0] - ht[0]), abs(q[1] - ht[1])) == 1 for q in fp)]
        if at_goal:
            # the rulebook's keys (next to the most heroes), then the best action for the
            # enemies: a space from which it can attack its target (ruling 6)
            occ = self.occupied() - set(e.squares)
            allowed = self.best(at_goal, lambda fp: (-self.heroes_adjacent(fp, e),
                                                     not self.attacks_from(e, fp, h, occ)))
            return (self.best(allowed, stands.__getitem__), allowed,
                    why + f", ending adjacent to {self.hname(h)}")
        # the stands from which a space next to the target is cheapest to reach (the least
        # cost left, found by one search outward from every stand at once)
        can_end = self.enemy_end_test(e)
        goals = {n for n in grid.neighbours(ht, diagonal=True) if can_end(n)}
        _, closest = self.enemy_nearest(e, {q for fp in stands for q in fp},
                                        goals.__contains__)
        moving = [fp for fp in stands if any(q in closest for q in fp)]
        if not moving:
            # the target cannot be reached: end in the nearest possible space
            def near(fp: tuple[Sq, ...]) -> int:
                return min(grid.chebyshev(q, h.at) for q in fp)
            allowed = self.best(list(stands), near)
            return (self.best(allowed, stands.__getitem__), allowed,
                    why + " (no route: nearest possible space)")
        allh = [x.at for x in self.heroes_for(e)]
        allowed = self.best(moving, lambda fp: -self.heroes_adjacent(fp, e))
        return (self.best(allowed, lambda fp: (
            sum(min(grid.chebyshev(q, a) for q in fp) for a in allh), stands[fp])),
            allowed, why)

    def best(self, options: list[Any], key: Callable[[Any], Any]) -> list[Any]:
        """The options with the least ``key`` (computed once each), in reading order."""
        if not options:
            return []
        keyed = [(key(o), o) for o in options]
        m = min(k for k, _ in keyed)
        return sorted((o for k, o in keyed if k == m),
                      key=lambda o: [reading(q) for q in o] if isinstance(o[0], tuple)
                      else reading(o))

    def sight_options(self, e: Enemy, targets: list[str]) -> tuple[list[tuple[Sq, ...]], str]:
        """Sight (:meth:`_sight_options`, remembered per position of the figures)."""
        best, why = self._ai_memo("sight", e, targets, lambda: self._sight_options(e, targets))
        return list(best), why

    def _sight_options(self, e: Enemy, targets: list[str]) -> tuple[list[tuple[Sq, ...]], str]:
        """Sight: the nearest space from which the enemy sees its target (or, failing that,
        the closest hero); skip if it already sees the target or nobody can be seen."""
        order = self.icon_heroes(targets, e)

        def candidates() -> Iterator[Hero]:
            yield from order
            # only if no hero of the icons will do: the closest ones (computed then)
            yield from (h for h in self.closest_heroes(e, self.heroes_for(e))
                        if h not in order)
        # nothing else moves while the enemy looks for its space; the enemy leaves its own
        # squares, so they block no line drawn from its new space (Sight)
        occ = self.occupied() - set(e.squares)
        for h in candidates():
            at = h.at
            assert at is not None
            if any(self.sees(q, at, occ) for q in e.squares):
                return [], f"it already sees {self.hname(h)}"
            stands = self.stands_within(e, at)
            why = f"to sight {self.hname(h)}"
            ok = [fp for fp in stands if any(self.sees(q, at, occ) for q in fp)]
            if ok:  # (then some space of the board sees the target: no need to look further)
                return self.best(ok, stands.__getitem__), why
            # toward the nearest space from which it would see the target: the stands from
            # which such a space is cheapest to reach, then the cheapest stands
            _, near = self.enemy_nearest(e, {q for fp in stands for q in fp},
                                         self.sight_goal(e, h.at))
            cand = [fp for fp in stands if any(q in near for q in fp)]
            if cand:
                return self.best(cand, stands.__getitem__), why
        return [], "no space from which it can see a hero"

    def sight_goal(self, e: Enemy, target: Sq) -> Callable[[Sq], bool]:
        """Whether enemy ``e`` could end its movement on a square and see ``target`` from it
        (Sight), with the position's figures gathered once."""
        can_end = self.enemy_end_test(e)
        occ = self.occupied() - set(e.squares)  # the enemy has left its own squares

        def goal(s: Sq) -> bool:
            return can_end(s) and self.sees(s, target, occ)
        return goal

    def retreat_options(self, e: Enemy) -> tuple[list[tuple[Sq, ...]], str]:
        """Retreat (authored AI line): as far as possible from the closest hero."""
        hs = [h.at for h in self.standing_heroes()]
        if not hs:
            return [], "no hero in play"
        stands = self.stands_within(e, None)
        return self.best(list(stands), lambda fp: (
            -min(grid.chebyshev(q, a) for q in fp for a in hs), stands[fp])), \
            "retreating from the heroes"

    def howl(self, e: Enemy, events: list[Event]) -> None:
        """Howl: every hero at 3 spaces or less loses 1 life point."""
        events.append(Event("howl", f"{self.ename(e)} howls", S_KEYWORDS))
        for h in self.standing_heroes():
            if any(self.spaces_within(q, h.at, 3) for q in e.squares):
                self.lose_life(h, 1, "howl", S_KEYWORDS, events, (f"enemy{e.uid}", e.kind))
