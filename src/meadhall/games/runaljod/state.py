"""Runaljod's game state: setup, the round loop and the position format.

Sections: Adventure Mode (Single Session) setup, Game Overview (rounds of a heroes' turn and an
enemies' turn), Victory or Defeat. Rules live in the mixins named after the rulebook's
chapters (heroes_turn, attack, gods, enemies_turn, board).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Self

from meadhall.core import grid, words
from meadhall.core.chance import Chance, ChanceMode
from meadhall.core.deck import Deck
from meadhall.core.errors import IllegalAction
from meadhall.core.fastcopy import fastcopy
from meadhall.core.grid import Sq
from meadhall.core.protocol import ONGOING, PLAYERS, Decision, Event, GameState, Outcome
from meadhall.core.rng import Rng

from .attack import AttackMixin
from .board import BoardMixin
from .content import RunaljodContent
from .describe import DescribeMixin
from .enemies_turn import EnemiesMixin
from .gods import ALTAR_MAX, GodsMixin
from .heroes_turn import HeroesMixin
from .memo import content_cache
from .model import (
    POOL,
    S_ACTIONS,
    S_ADVENTURE,
    S_ATTACK,
    S_BASIC,
    S_DAMAGE,
    S_GOD,
    S_HOLD,
    S_INTERACT,
    S_MOVE,
    S_SETUP,
    S_SKILL,
    Enemy,
    Hero,
    PlacedTile,
    Rune,
)
from .names import card_title
from .position import load_position

ID = "runaljod"
_SQ_NAMES: dict[Sq, str] = {}
"""Square names by square (names never change; the board has a few hundred squares)."""
_SQ_PARSED: dict[str, Sq] = {}
"""Squares by the names action texts give them."""
SOLO = "player"
"""The seat of a single player, who decides for both heroes (Single-Player Game)."""
FREE_ACTIONS = ("use", "card2")
"""Actions that need no rune (items, the 2-player card): a held hero pays no toll for them."""
LETTERS = {"volva": "V", "berserk": "B", "hunter": "H", "warrior": "W"}
ENEMY_LETTERS = {"clan_warrior": "K", "clan_hunter": "A", "northern_wolf": "U", "jotun": "J"}


PLACE_WORDS = {"attack1": "attack", "attack2": "reduced attack", "move1": "first move",
               "move2": "second move", "interact": "interact", "physical": "physical check",
               "spiritual": "spiritual check"}
"""The hero board's action spaces as the terminal names them (a rune on a skill card is
"on a skill card")."""


def _strings(v: list[Any]) -> list[Any]:
    """A list of strings, numbers or squares (tuples of ints): a shallow copy."""
    return v[:]


def _pairs(v: list[list[Any]]) -> list[list[Any]]:
    """A list of lists of strings and numbers."""
    return [x[:] for x in v]


def _heroes(v: dict[str, Hero]) -> dict[str, Hero]:
    return {k: h.clone() for k, h in v.items()}


def _enemies(v: list[Enemy]) -> list[Enemy]:
    return [Enemy(e.uid, e.kind, e.at, e.damage, e.conditions[:], e.activated, e.holding,
                  e.captor, e.also) for e in v]


def _decks(v: dict[str, Deck]) -> dict[str, Deck]:
    return {k: Deck.__fastcopy__(d) for k, d in v.items()}


_COPIERS: dict[str, Callable[[Any], Any]] = {
    "log": _strings, "tiles": _strings, "search_tokens": _strings, "bonfires": _strings,
    "cards_played": _strings, "active_event": _strings, "prep_done": _strings,
    "ai_pos": _strings, "ai_flags": _strings, "final_defeated": _strings,
    "starts": _strings, "altar": _pairs, "cond_queue": _pairs, "rethrow": _pairs,
    "setup_queue": _pairs, "ai_cards": _pairs, "place_queue": _pairs,
    "heroes": _heroes, "enemies": _enemies, "special_decks": _decks,
    "exploration": Deck.__fastcopy__, "event_deck": Deck.__fastcopy__,
    "search_deck": Deck.__fastcopy__, "equipment_deck": Deck.__fastcopy__,
    "ai_deck": Deck.__fastcopy__, "chance": Chance.clone}
"""How :meth:`RunaljodState.clone` copies each field (by what the rules keep in it: the
position module refuses anything else on load). The kernel's :func:`fastcopy` copies the rest
(the open question ``ask``, whose shape varies)."""
_PLAIN = frozenset({int, float, str, bool, type(None)})
_COPY_ITEMS = tuple(_COPIERS.items())
_ALWAYS_PLAIN = frozenset({
    "seed", "auto_choices", "level", "round", "phase", "estage", "time", "end", "next_uid",
    "active_card", "active", "ai_enemy", "ai_step", "lost", "two_player_used", "_scratch"})
"""Fields that only ever hold a string, a number or a flag (the position module refuses
anything else on load): a clone shares them with the rest of the dict's copy."""


class RunaljodState(HeroesMixin, AttackMixin, GodsMixin, EnemiesMixin, BoardMixin, DescribeMixin,
                    GameState):
    """A Runaljod adventure in progress."""

    game = ID
    STATE_VERSION = 3  # migrations from 1 and 2 in the position module (core.migrate)
    _shared = frozenset({"content", "setup", "_tcache", "_names", "_skcache", "_2p"})

    def __init__(self, content: RunaljodContent, setup: dict[str, Any], seed: int,
                 chance: ChanceMode = "seeded", auto_choices: bool = False) -> None:
        self._init_base(content, setup, seed, chance, auto_choices)
        self.level = int(setup.get("level", 1))
        self.round = 1
        self.phase = "setup"
        self.estage = "time"
        self.time = 0
        self.end = content.altar.snakes[content.altar.end_snake - 1]
        self.altar: list[list[str]] = []
        self.tiles: list[PlacedTile] = []
        self.heroes: dict[str, Hero] = {}
        for hid in setup["heroes"]:
            hd = content.heroes[hid]
            self.heroes[hid] = Hero(hid, runes=[Rune(r) for r in hd.runes],
                                    equipment=list(hd.equipment),
                                    skill_points=3 if self.level == 2 else 2)
        self.enemies: list[Enemy] = []
        self.next_uid = 0
        self.search_tokens: list[Sq] = []
        self.bonfires: list[Sq] = []
        self.active_card = ""
        self.active_event: list[Any] = []
        self.cards_played: list[str] = []
        self.exploration = Deck("exploration", reshuffle=False)
        self.event_deck = Deck("event", sorted(content.events))
        self.search_deck = Deck("search", sorted(content.search), reshuffle=False)
        eq = content.equipment_l2 if self.level == 2 else content.equipment_l1
        self.equipment_deck = Deck("equipment", list(eq), reshuffle=False)
        self.ai_deck = Deck("enemy AI", sorted(content.ai_decks["common"]))
        self.special_decks: dict[str, Deck] = {
            k: Deck(f"{k} AI", sorted(v)) for k, v in content.ai_decks.items() if k != "common"}
        self.ask: dict[str, Any] | None = None
        self.active = ""
        self.prep_done: list[str] = []
        self.cond_queue: list[list[str]] = []
        self.rethrow: list[list[str]] = []
        self.setup_queue: list[list[str]] = []
        self.ai_cards: list[list[str]] = []
        self.ai_pos = [0, 0]
        self.ai_enemy = 0
        self.ai_step = 0
        self.ai_flags: list[str] = []
        self.lost = ""
        self.final_defeated: list[str] = []
        self.two_player_used = False
        self.place_queue: list[list[str]] = []
        """Released miniatures the players may place elsewhere (Hold): [kind, who, near]."""

    # ------------------------------------------------------------ copies
    def clone(self) -> Self:
        """:meth:`GameState.clone`, with the fields this state is made of copied by what they
        hold (searching bots copy a position once per candidate action): strings, numbers
        and squares shared, lists and decks copied, heroes and enemies by their own copy;
        any other attribute as the kernel copies it.

        The instance dict is copied whole (in C) and only the fields holding lists, decks,
        heroes or enemies are replaced: looking at each of the ~50 fields in Python was most
        of a clone's cost."""
        new = object.__new__(type(self))
        src = self.__dict__
        d = src.copy()
        new.__dict__ = d
        if not self._scratch and src.get("_legal_memo") is not None:
            # a look-ahead copy of an unchanged position has the same legal actions: only the
            # search's own copies keep the list (nobody edits them by hand)
            del d["_legal_memo"]
        get = src.get
        for k, f in _COPY_ITEMS:
            v = get(k)
            if v is not None:
                d[k] = f(v)
        # anything else (the open question ``ask``, a pending request, an attribute this
        # class does not know) as :meth:`GameState.clone` copies it
        for k in src.keys() - _CLONE_KNOWN:
            v = src[k]
            if v.__class__ not in _PLAIN:
                d[k] = fastcopy(v)
        return new

    # ------------------------------------------------------------ helpers
    def sqname(self, s: Sq) -> str:
        name = _SQ_NAMES.get(s)
        if name is None:
            name = _SQ_NAMES[s] = grid.name(s)
        return name

    def parse_sq(self, text: str) -> Sq:
        """The square named ``text`` (``E5``); names are remembered, as for :meth:`sqname`."""
        s = _SQ_PARSED.get(text)
        if s is None:
            s = grid.sq(text)
            if len(_SQ_PARSED) < 4096:  # texts typed by people may be anything
                _SQ_PARSED[text] = s
        return s

    def ordered(self) -> list[Hero]:
        return [self.heroes[h] for h in self.setup["heroes"]]

    def pick(self, what: str, options: list[str], section: str) -> int:
        """A random choice among ``options`` (the table is asked in table mode)."""
        return self.chance.pick(what, options, section=section)

    def draw(self, deck: Deck, section: str) -> str | None:
        """Draw a card (the discard is reshuffled in when the deck is empty)."""
        return deck.draw(self.chance, section)

    def peek(self, deck: Deck, section: str) -> list[str]:
        return deck.peek(self.chance, 1, section)

    def decks(self) -> dict[str, Deck]:
        d = {"exploration": self.exploration, "event": self.event_deck,
             "search": self.search_deck, "equipment": self.equipment_deck,
             "enemy AI": self.ai_deck}
        for k, v in self.special_decks.items():
            d[f"{k} AI"] = v
        return d

    def card_name(self, deck: str, card: str) -> str:
        return card_title(self.content, deck, card)

    def active_rules(self) -> list:
        if not self.active_card:
            return []
        return list(self.content.exploration[self.active_card].rules)

    # ------------------------------------------------------------ setup
    def _start(self, events: list[Event]) -> None:
        """Adventure Mode (Single Session) steps 1-5."""
        c = self.content
        gods = sorted(c.gods)
        for _ in range(min(ALTAR_MAX, len(gods))):
            g = gods.pop(self.pick("god's rune for the altar", gods, S_SETUP))
            self.altar.append([g, "up"])
        events.append(Event("setup", "The altar shows " + ", ".join(
            c.gods[g].name for g, _ in self.altar) + f"; time token on the start, end marker on "
            f"space {self.end} (the third snake)", S_SETUP))
        by_stage = {s: sorted(k for k, v in c.exploration.items() if v.stage == s)
                    for s in "ISC"}
        first = by_stage["I"][self.pick("initial exploration card", by_stage["I"], S_SETUP)]
        ss = list(by_stage["S"])
        chosen = []
        for _ in range(min(2, len(ss))):
            chosen.append(ss.pop(self.pick("basic exploration card", ss, S_SETUP)))
        stage = by_stage["C"][self.pick("stage card", by_stage["C"], S_SETUP)]
        self.exploration = Deck("exploration", sorted(chosen), bottom=[stage], reshuffle=False)
        self.active_card = first
        self.cards_played.append(first)
        self.tiles = [PlacedTile(c.exploration[first].tile, first, 0)]
        events.append(Event("setup", f"Initial card: {c.exploration[first].name}; the "
                            "exploration deck holds 2 basic cards over a stage card", S_SETUP))
        self.place_elements(first, 0, events)
        n = len(self.heroes)
        self.starts = [grid.sq(el.at) for el in c.exploration[first].elements
                       if el.kind == "start" and n in el.heroes]
        if self.level == 2:
            for item in [c for c in (self.draw(self.equipment_deck, S_ADVENTURE) for _ in range(2)) if c]:
                self.setup_queue.append(["gift", item])
        for h in self.ordered():
            self.setup_queue.append(["place", h.id])
        self._advance(events)

    def setup_ask(self, events: list[Event]) -> bool:
        while self.setup_queue:
            kind, what = self.setup_queue[0]
            if kind == "gift":
                opts = []
                keeps = []  # the options that displace no earlier gift
                name = self.iname(what)
                for hid in self.setup["heroes"]:
                    if self.content.items[what].slot == "misc":
                        opts.append(f"give {name} to {hid}")
                        keeps.append(opts[-1])
                    else:  # the replaced starting card may be the players' choice
                        h = self.heroes[hid]
                        for c in self.equip_choices(h, what):
                            opts.append(f"give {name} to {hid}{c}")
                            if not any(o not in self.content.heroes[hid].equipment
                                       for o in self.gift_replaces(h, what, c)):
                                keeps.append(opts[-1])
                self.ask = {"kind": "setup", "seat": PLAYERS, "section": S_ADVENTURE,
                            "prompt": f"Level 2 adventure: decide who equips "
                                      f"{self.content.items[what].name}",
                            "options": opts, "default": (keeps or opts)[0]}
                return True
            free = [s for s in self.starts if self.hero_at(s) is None]
            h = self.heroes[what]
            if len(free) == 1:
                h.at = free[0]
                self.setup_queue.pop(0)
                continue
            opts = [f"place {what} on {self.sqname(s)}" for s in free]
            self.ask = {"kind": "setup", "seat": PLAYERS, "section": S_SETUP,
                        "prompt": f"Choose the starting space of {self.hname(h)}",
                        "options": opts, "default": opts[0]}
            return True
        return False

    def gift_replaces(self, h: Hero, item: str, choice: str) -> list[str]:
        """The equipped cards a level 2 gift replaces: the ones its option text names
        (``" replacing X and Y"``), else the only ones it can replace."""
        names = choice.removeprefix(" replacing ")
        if choice:
            return [self.item_id(n) for n in names.split(" and ")]
        return self.slot_conflicts(h, item)

    def on_setup(self, action: str, ask: dict, events: list[Event]) -> None:
        kind, what = self.setup_queue.pop(0)
        if kind == "gift":
            rest = action[len(f"give {self.iname(what)} to "):]
            hid, sep, names = rest.partition(" replacing ")
            h = self.heroes[hid]
            if self.content.items[what].slot == "misc":
                h.misc.append(what)  # miscellaneous cards are kept, not equipped
            else:
                for old in self.gift_replaces(h, what, sep + names):
                    h.equipment.remove(old)
                    if old in self.content.heroes[hid].equipment:
                        continue  # "return the starting ones to the box"
                    # an earlier gift is no starting card: it is kept like any card a new one
                    # replaces (Equipment), in a miscellaneous space if one is free
                    if len(h.misc) < 3:
                        h.misc.append(old)
                    events.append(Event("setup", f"{self.hname(h)} unequips "
                                        f"{self.content.items[old].name}" + (
                                            " and keeps it in a miscellaneous space"
                                            if old in h.misc else
                                            ": no miscellaneous space is free, it goes back "
                                            "to the box"), S_ADVENTURE))
                h.equipment.append(what)
            events.append(Event("setup", f"{self.hname(h)} equips "
                                f"{self.content.items[what].name}", S_ADVENTURE))
        else:
            self.heroes[what].at = self.parse_sq(action.rpartition(" on ")[2])

    # ------------------------------------------------------------ the round loop
    def _advance(self, events: list[Event]) -> None:
        """Run automated steps up to the next decision (Game Overview)."""
        for _ in range(10_000):
            if self.ask is not None or self.ended() or self.placement_ask():
                return
            ph = self.phase
            if ph == "setup":
                if self.setup_ask(events):
                    return
                self.phase = "prep"
                self.start_preparation(events)
            elif ph == "prep":
                if self.prep_ask():
                    return
                for h in self.heroes.values():
                    self.convert_glory(h)
                self.phase = "destiny"
            elif ph == "destiny":
                if self.destiny_ask():
                    return
                self.destiny_phase(events)
                self.phase = "rethrow"
            elif ph == "rethrow":
                if self.rethrow_ask():
                    return
                self.start_conditions(events)
                self.phase = "condition"
            elif ph == "condition":
                if self.condition_ask(events):
                    return
                self.phase = "actions"
            elif ph == "actions":
                if self.pick_active():
                    return
                self.final_phase(events)
                self.phase = "enemies"
                self.estage = "time"
            elif ph == "enemies":
                if not self.run_enemies(events):
                    return
                self.round += 1
                self.phase = "prep"
                self.start_preparation(events)
        raise RuntimeError("runaljod: the round loop did not reach a decision")

    def pick_active(self) -> bool:
        """The heroes act in any order: the active hero keeps acting until they pass or hand
        over; heroes with nothing left to do pass automatically."""
        for h in self.ordered():
            if self.can_act(h) and not self.has_action(h):
                h.passed = True
        if self.active and self.can_act(self.heroes[self.active]):
            return True
        for h in self.ordered():
            if self.can_act(h):
                self.active = h.id
                return True
        self.active = ""
        return False

    def ended(self) -> bool:
        """Whether the rules have ended the game (:meth:`_outcome` is a win or a loss): a
        cheap test for the loops of the automated steps (a conceded game never runs them)."""
        if self.lost:
            return True
        return bool(self.final_defeated) and self._outcome().over

    def _outcome(self) -> Outcome:
        if self.lost:
            return Outcome("loss", self.lost)
        if not self.final_defeated:
            return ONGOING
        for cid in self.cards_played:
            for r in self.content.exploration[cid].rules:
                if r.kind == "victory" and r.type in self.final_defeated:
                    return Outcome("win", f"the {self.content.enemies[r.type].name} is defeated")
        return ONGOING

    def _decision(self) -> Decision | None:
        # Decisions are immutable: one object for each question, shared by every state of the
        # content (a step asks for the decision several times)
        cache = content_cache(self.content, "decisions")
        if self.ask is not None:
            a = self.ask
            key = (a["seat"], a["prompt"], a["section"], a.get("default"))
            d = cache.get(key)
            if d is None:
                if len(cache) > 4096:
                    cache.clear()
                d = cache[key] = Decision(a["seat"], a["prompt"], a["section"],
                                          "choice" if a["seat"] == PLAYERS else "turn",
                                          a.get("default"))
            return d
        h = self.heroes[self.active]
        free = 0
        for r in h.runes:
            if r.place == POOL:
                free += 1
        key = (h.id, free)
        d = cache.get(key)
        if d is None:
            d = cache[key] = Decision(
                h.id, f"{self.hname(h)}'s action ({words.plural(free, 'rune')} in the destiny "
                "pool)", S_ACTIONS)
        return d

    def _legal(self) -> list[str]:
        if self.ask is not None:
            return list(self.ask["options"])
        h = self.heroes[self.active]
        out = self.hero_actions(h)
        out += [f"hand over to {o.id}" for o in self.ordered()
                if o is not h and self.can_act(o)]
        out.append("pass")
        return out

    def _apply(self, action: str, events: list[Event]) -> None:
        if self.ask is not None:
            ask = self.ask
            self.ask = None
            getattr(self, "on_" + ask["kind"])(action, ask, events)
        else:
            h = self.heroes[self.active]
            if action == "pass":
                h.passed = True
                events.append(Event("pass", f"{self.hname(h)} passes", S_ACTIONS))
                self.active = ""
            elif action.startswith("hand over to "):
                self.active = action[len("hand over to "):]
            elif h.held_by and self.parse_action(h, action).kind not in FREE_ACTIONS:
                self.ask = {"kind": "hold", "seat": h.id, "section": S_HOLD,
                            "prompt": f"{self.hname(h)} is held: before acting, lose 2 life "
                                      "points and 1 destiny, or perform a physical check",
                            "options": self.hold_options(h, action), "default": None,
                            "pending": action}
            else:
                self.do_action(h, action, events)
        self._advance(events)

    def _why_illegal(self, action: str) -> IllegalAction | None:
        if self.ask is not None and self.ask["kind"] == "target" and action.startswith("attack "):
            return IllegalAction(ID, S_ATTACK, "the target must be an enemy space within reach "
                                 "of the weapon and in line of sight")
        if self.ask is not None or not self.active:
            return None
        h = self.heroes[self.active]
        if action.startswith("move ") and " using " in action:
            mp = action[len("move "):].partition(" using ")[0]
            if h.held_by:
                return IllegalAction(ID, S_HOLD, "a held hero cannot move on its own")
            free = " or ".join(str(v) for _, v in self.move_spaces(h))
            bonus = self.move_bonus(h)
            printed = [str(v + bonus) for v in self.content.heroes[h.id].move]
            if mp in printed and all(str(v) != mp for _, v in self.move_spaces(h)):
                return IllegalAction(ID, S_BASIC, f"the movement space giving {mp} already "
                                     "holds a rune this turn")
            if all(str(v) != mp for _, v in self.move_spaces(h)):
                return IllegalAction(ID, S_MOVE, f"no free movement space gives {mp} movement "
                                     "points: a basic movement gives the value of the space "
                                     "where the rune is placed"
                                     + (f" (the free spaces give {free})" if free else
                                        " and both movement spaces hold a rune"))
        if action.startswith("step ") or action == "end move":
            return IllegalAction(ID, S_MOVE, "no movement action is in progress")
        act = self.parse_action(h, action)
        if act is None:
            return None
        if act.rune and act.kind != "use_god":
            r = h.rune(act.rune)
            if r is None or r.place != POOL:
                return IllegalAction(ID, S_ACTIONS, f"{self.rname(r) if r else act.rune} is "
                                     f"not in {self.hname(h)}'s destiny pool")
        if act.space in ("attack1", "attack2") and h.space_used(act.space):
            return IllegalAction(ID, S_BASIC, "that attack space already holds a rune")
        if act.kind == "attack":
            return IllegalAction(ID, S_ATTACK, "no enemy space is within reach of an equipped "
                                 "weapon and in line of sight"
                                 + (" (the reduced attack needs a weapon with two dice or "
                                    "more)" if act.space == "attack2" else ""))
        if act.kind in ("invoke", "rethrow"):
            return IllegalAction(ID, S_GOD, "activating a god's rune needs a sideways rune "
                                 "and a face up rune on the altar")
        if act.kind == "buy":
            if h.god_rune() is not None:
                return IllegalAction(ID, S_GOD, "a hero may hold only one god's rune")
            return IllegalAction(ID, S_GOD, "buying a god's rune takes two sideways runes "
                                 "(one with the god's gear) and a face up rune on the altar")
        if act.kind == "use_god":
            return IllegalAction(ID, S_GOD, "the god's rune must be face up in the destiny pool")
        if act.kind == "skill":
            return IllegalAction(ID, S_SKILL, "the skill needs face up runes showing its icons, "
                                 "its destiny and trance tokens")
        if act.kind == "explore":
            return IllegalAction(ID, S_INTERACT, "exploring needs the last tile's exit, an "
                                 "empty previous tile and no active exploration card")
        if act.kind == "search":
            return IllegalAction(ID, S_INTERACT, "the search token must be on or next to the "
                                 "hero's space")
        if act.kind == "assist":
            return IllegalAction(ID, S_DAMAGE, "only an adjacent fallen hero who did not fall "
                                 "this turn can be helped")
        return None

    # ------------------------------------------------------------ hidden information
    def _determinize(self, rng: Rng) -> None:
        """The basic cards and the stage card under them were never looked at: resample them."""
        seen = set(self.cards_played) | set(self.exploration.top)
        k = len(self.exploration.pile)
        if k:
            pool = sorted(c for c, v in self.content.exploration.items()
                          if v.stage == "S" and c not in seen)
            picked = []
            for _ in range(min(k, len(pool))):
                picked.append(pool.pop(rng.below(len(pool))))
            self.exploration.pile = sorted(picked)
        if self.exploration.bottom:
            cs = sorted(c for c, v in self.content.exploration.items()
                        if v.stage == "C" and c not in seen)
            if cs:
                self.exploration.bottom = [cs[rng.below(len(cs))]]

    # ------------------------------------------------------------ views
    def board_rows(self) -> list[str]:
        board = self.board
        x0, x1, base = board.rows()
        if not base:
            return []
        marks: dict[Sq, str] = {}
        for s in self.search_tokens:
            marks[s] = "?"
        for s in self.bonfires:
            marks[s] = "^"
        for e in self.enemies:
            for q in e.squares:
                marks[q] = ENEMY_LETTERS.get(e.kind, "E")
        for hero in self.heroes.values():
            if hero.at is not None:
                letter = LETTERS.get(hero.id, "?")
                marks[hero.at] = letter.lower() if hero.fallen else letter
        # the terrain rows are the board's own (built once); only rows with a mark are redrawn,
        # once for each arrangement of marks on this board (kept with the board)
        key = tuple(marks.items())
        kept = board._marked.get(key)
        if kept is not None:
            return list(kept)
        rows = list(base)
        by_row: dict[int, list[tuple[int, str]]] = {}
        for (x, y), ch in marks.items():
            if x0 <= x <= x1 and 0 <= y < len(rows):
                by_row.setdefault(y, []).append((x - x0, ch))
        for y, put in by_row.items():
            row = list(rows[y])
            for i, ch in put:
                row[i] = ch
            rows[y] = "".join(row)
        if len(board._marked) > 1024:
            board._marked.clear()
        board._marked[key] = tuple(rows)
        return rows

    def _hero_json(self, h: Hero) -> dict[str, Any]:
        return {"at": grid.name(h.at) if h.at else None, "damage": h.damage,
                "runes": [[r.icon, r.side, r.place] for r in h.runes],
                "conditions": list(h.conditions), "fallen": h.fallen,
                "fell_this_turn": h.fell_this_turn, "recover_choice": h.recover_choice,
                "glory": h.glory, "skill_points": h.skill_points,
                "bought_this_phase": h.bought_this_phase, "skills": list(h.skills),
                "turned": list(h.turned), "equipment": list(h.equipment),
                "misc": list(h.misc), "trance": h.trance, "captive": h.captive, "mark": h.mark,
                "bonus": list(h.bonus), "passed": h.passed, "held_by": h.held_by,
                "glory_won": h.glory_won, "returns": list(h.returns)}

    def _hero_view(self, h: Hero, cache: dict[Any, Any] | None = None) -> dict[str, Any]:
        """A hero as the table shows it: the board's tokens and cards, and the values the
        rules derive from them (life with items, defence icons, movement spaces)."""
        out = self._hero_json(h)
        # the derived values depend only on the hero, its equipment, skills and whether its
        # coloured life spaces are covered: computed once for each of those (shared by every
        # state of the content)
        if cache is None:
            cache = content_cache(self.content, "hero view")
        coloured = self.coloured_available(h)
        key = (h.id, coloured, tuple(h.equipment), *h.skills)
        hit = cache.get(key)
        if hit is None:
            hd = self.content.heroes[h.id]
            bonus = self.move_bonus(h)
            hit = (self.hero_life(h), self.hero_defence(h), hd.move[0] + bonus,
                   hd.move[1] + bonus, tuple(self.check_dice(h, "physical")),
                   tuple(self.check_dice(h, "spiritual")))
            if len(cache) > 4096:
                cache.clear()
            cache[key] = hit
        out["life"], out["defence"] = hit[0], hit[1]
        out["move"] = {"move1": hit[2], "move2": hit[3]}
        out["checks"] = {"physical": list(hit[4]), "spiritual": list(hit[5])}
        out["coloured_available"] = coloured
        return out

    def view(self, seat: str | None = None) -> dict[str, Any]:
        hero_cache = content_cache(self.content, "hero view")
        enemies = self.enemies
        if enemies:
            # the active card's extra defence, once for every enemy (enemy_defence)
            extra = sum(r.value for r in self.active_rules() if r.kind == "enemy_defence")
            kinds = self.content.enemies
        return {
            "game": ID, "round": self.round, "phase": self.phase,
            "time": self.time, "end": self.end, "snakes": list(self.content.altar.snakes),
            "track": self.content.altar.track,
            "altar": [list(p) for p in self.altar],
            "board": self.board_rows(),
            "tiles": [[t.tile, t.card, t.x] for t in self.tiles],
            "terrain": {t.tile: list(self.content.tiles[t.tile].rows) for t in self.tiles},
            "heroes": {k: self._hero_view(h, hero_cache) for k, h in self.heroes.items()},
            "active": self.active,
            "seats": {h: self.seat_of(h) for h in self.heroes},
            "enemies": [{"uid": e.uid, "kind": e.kind, "at": grid.name(e.at),
                         "also": grid.name(e.also) if e.also else None,
                         "damage": e.damage, "conditions": list(e.conditions),
                         "life": kinds[e.kind].life, "defence": kinds[e.kind].defence + extra,
                         "holding": e.holding, "captor": e.captor}
                        for e in enemies],
            "search_tokens": [grid.name(s) for s in self.search_tokens],
            "bonfires": [grid.name(s) for s in self.bonfires],
            "starts": [grid.name(s) for s in getattr(self, "starts", [])]
            if self.phase == "setup" else [],
            "active_card": self.active_card, "active_event": list(self.active_event),
            "ai_cards": [list(x) for x in self.ai_cards],
            "two_player_card": self.two_player_card(),
            "two_player_used": self.two_player_used,
            # Deck.public with the known top cards, built at once
            "decks": {k: {"name": d.name, "size": len(d.top) + len(d.pile) + len(d.bottom),
                          "discard": list(d.discard), "known_top": list(d.top)}
                      for k, d in self.decks().items()},
            "outcome": self.outcome().to_json(),
        }

    def measures(self) -> dict[str, Any]:
        """Rounds; the exploration cards played, time left, enemies left and glory won; on a
        loss its trigger (``time_out``: the time token reached the end marker; ``end_marker``:
        a recovery moved the end marker onto the time token; ``conceded``) and margins: stages
        (exploration cards) still to play and the final enemy's life left."""
        track = self.content.altar.track
        out: dict[str, Any] = {
            "rounds": self.round, "stage": len(self.cards_played),
            "time_left": (self.end - self.time) % track, "enemies_left": len(self.enemies),
            "glory": sum(h.glory_won for h in self.heroes.values()),
            "heroes_fallen": sum(h.fallen for h in self.heroes.values())}
        o = self.outcome()
        if o.result == "loss":
            if self.conceded is not None:
                out["trigger"], out["final_blow"] = "conceded", None
            elif self.lost.startswith("the end marker"):
                out["trigger"], out["final_blow"] = "end_marker", "recovery"
            else:
                out["trigger"], out["final_blow"] = "time_out", "time"
            finals = [e for e in self.enemies if self.enemy_data(e).final]
            full = max((e.life for e in self.content.enemies.values() if e.final), default=0)
            out["margin_stages_left"] = max(0, 4 - len(self.cards_played))
            out["margin_final_life"] = (sum(self.enemy_data(e).life - e.damage for e in finals)
                                        if finals else full)
        return out

    def seats(self) -> list[str]:
        """One seat per hero; a single player (``players`` 1) has one seat for both heroes
        (Single-Player Game)."""
        if self.setup.get("players") == 1:
            return [SOLO]
        return list(self.setup["heroes"])

    def seat_of(self, decision_seat: str) -> str:
        if self.setup.get("players") == 1 and decision_seat in self.heroes:
            return SOLO
        return decision_seat

    def render(self) -> str:
        rows = self.board_rows()
        x0 = min((x for x, _ in self.terrain), default=0)
        w = len(rows[0]) if rows else 0
        head = "    " + " ".join(f"{grid.col_name(x):<2}" for x in range(x0, x0 + w))
        lines = [head]
        for y, r in enumerate(rows):
            lines.append(f"{y + 1:>2}  " + " ".join(f"{ch:<2}" for ch in r))
        track = []
        for i in range(self.content.altar.track):
            ch = "S" if i in self.content.altar.snakes else "."
            if i == self.end:
                ch = "E"
            if i == self.time:
                ch = "T"
            track.append(ch)
        lines.append(f"Round {self.round} ({self.phase}) · time track {''.join(track)} "
                     f"(time {self.time}, end {self.end})")
        lines.append("Altar: " + (", ".join(f"{self.content.gods[g].name} {s}"
                                            for g, s in self.altar) or "empty"))
        card = self.content.exploration[self.active_card].name if self.active_card else "none"
        lines.append(f"Active exploration card: {card} · exploration deck "
                     f"{words.plural(len(self.exploration), 'card')}")
        extra = []
        if self.active_event:
            ev = self.content.events[self.active_event[0]]
            extra.append(f"event in play: {ev.name} ({self.active_event[1]}/{ev.circles} "
                         "circles)")
        if self.two_player_card():
            extra.append("2-player card " + ("used this turn" if self.two_player_used
                                             else "ready"))
        extra.append(f"event deck {len(self.event_deck)}, search deck {len(self.search_deck)}, "
                     f"equipment deck {len(self.equipment_deck)}")
        lines.append(" · ".join(extra))
        for h in self.ordered():
            pool = ", ".join(f"{self.rname(r)} {r.side}" for r in h.pool()) or "-"
            used = ", ".join(f"{self.rname(r)} on {PLACE_WORDS.get(r.place, 'a skill card')}"
                             for r in h.runes
                             if r.place not in (POOL, "out")) or "-"
            out = [self.rname(r) for r in h.runes if r.place == "out"]
            if out:
                used += f" | to throw at the destiny phase: {', '.join(out)}"
            status = "FALLEN" if h.fallen else (f"at {grid.name(h.at)}" if h.at else "off")
            lines.append(f"{self.hname(h)} [{LETTERS.get(h.id, '?')}] {status} life "
                         f"{self.life_left(h)}/{self.hero_life(h)} glory {h.glory} skill pts "
                         f"{h.skill_points} conditions {','.join(h.conditions) or '-'}"
                         f" | pool: {pool} | used: {used}")
        for e in self.enemies:
            d = self.enemy_data(e)
            lines.append(f"  {ENEMY_LETTERS.get(e.kind, 'E')} {d.name} {e.uid} at "
                         f"{self.fpname(self.stand(e))} life {d.life - e.damage}/{d.life}"
                         + (f" [{','.join(e.conditions)}]" if e.conditions else ""))
        return "\n".join(lines)

    def render_help(self) -> str:
        """The legend of the board and the time track, and the 2-player card's effects."""
        lines = ["Board: . normal  # obstacle (blocks movement and sight)  g difficult terrain "
                 "(leaving costs 2 MP)  i ice  x exit  n entrance  ^ bonfire  ? search token",
                 "Figures: V Volva  B Berserk  H Hunter  W Warrior (lowercase: fallen)  "
                 "K Clan Warrior  A Clan Hunter  U Northern Wolf  J Frost Jotun (two spaces)",
                 "Time track: T the time token, E the end marker (the heroes lose when the time "
                 "token reaches it), S snakes (the active exploration card may be discarded)",
                 "Runes: up = face up, side = sideways (also face up), down = face down; "
                 "rune@space = placed (used) this turn"]
        if self.two_player_card():
            lines.append("2-player card (once per turn, any hero): " + "; ".join(
                f"{self.two_player_phrase(k)}: {e.text.rstrip('.')}"
                for k, e in enumerate(self.content.two_player.effects)))
        return "\n".join(lines)

    # ------------------------------------------------------------ position format
    def _dump(self) -> dict[str, Any]:
        return {
            "round": self.round, "phase": self.phase, "estage": self.estage,
            "time": self.time, "end": self.end,
            "altar": [list(p) for p in self.altar],
            "tiles": [{"tile": t.tile, "card": t.card, "x": t.x} for t in self.tiles],
            "board": self.board_rows(),
            "heroes": {k: self._hero_json(h) for k, h in self.heroes.items()},
            "enemies": [{"uid": e.uid, "kind": e.kind, "at": grid.name(e.at),
                         "damage": e.damage, "conditions": list(e.conditions),
                         "activated": e.activated, "holding": e.holding,
                         "captor": e.captor,
                         "also": grid.name(e.also) if e.also else None}
                        for e in self.enemies],
            "next_uid": self.next_uid,
            "search_tokens": [grid.name(s) for s in self.search_tokens],
            "bonfires": [grid.name(s) for s in self.bonfires],
            "starts": [grid.name(s) for s in getattr(self, "starts", [])],
            "active_card": self.active_card, "active_event": list(self.active_event),
            "cards_played": list(self.cards_played),
            "decks": {"exploration": self.exploration.to_json(),
                      "event": self.event_deck.to_json(), "search": self.search_deck.to_json(),
                      "equipment": self.equipment_deck.to_json(),
                      "ai": self.ai_deck.to_json(),
                      "special": {k: d.to_json() for k, d in self.special_decks.items()}},
            "ask": json.loads(json.dumps(self.ask)) if self.ask is not None else None,
            "active": self.active, "prep_done": list(self.prep_done),
            "cond_queue": [list(x) for x in self.cond_queue],
            "rethrow": [list(x) for x in self.rethrow],
            "setup_queue": [list(x) for x in self.setup_queue],
            "ai_cards": [list(x) for x in self.ai_cards], "ai_pos": list(self.ai_pos),
            "ai_enemy": self.ai_enemy, "ai_step": self.ai_step, "ai_flags": list(self.ai_flags),
            "lost": self.lost, "final_defeated": list(self.final_defeated),
            "two_player_used": self.two_player_used,
            "place_queue": [list(x) for x in self.place_queue],
        }

    def _load(self, p: dict[str, Any]) -> None:
        """Read a position and refuse what the rules cannot produce (position.py)."""
        load_position(self, p)


_CLONE_KNOWN = (frozenset(_COPIERS) | _ALWAYS_PLAIN | RunaljodState._shared
                | {"_checkpoint", "_legal_memo"})
"""The fields :meth:`RunaljodState.clone` handles by name (the rest as the kernel would)."""
