"""A simple heuristic party for measuring authored-content balance (not a rules module).

It plays the way a sensible group would: heal and fortify toward the enemies, build and
upgrade traps, buy attack items, stand where the enemies come, attack the weakest enemy in
reach, let enemies hit the sturdiest target, and never replays step 3.3.
``python -m meadhall.games.midhalla.heuristic 200`` prints win rates per chapter.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from meadhall.games.midhalla.board import GATE, Board

INF = float("inf")


def _enemy_dist(st: Any, tile: str) -> float:
    d = Board(st.tiles).distances_from(tile)
    return min((d.get(e.tile, INF) for e in st.enemies.values()), default=INF)


def _effects(st: Any, text: str) -> list[dict[str, Any]]:
    """The effect lines behind a skill, item or ultimate option."""
    cat = st.content.cat
    ch = st.choice
    payload = next(p for t, p in ch["options"] if t == text)
    h = st.heroes[st.ht["hero"]]
    if payload[0] == "skill":
        sid = (h.top if payload[1] == "top" else h.bottom)[payload[2]]
        return [e.model_dump() for e in cat.skills[sid].effects]
    if payload[0] == "item":
        return [e.model_dump() for e in cat.items[payload[1]].effects]
    if payload[0] == "ultimate":
        return [e.model_dump() for e in cat.ultimates[payload[1]].effects]
    return []


def _payload(st: Any, text: str) -> Any:
    return next(p for t, p in st.choice["options"] if t == text)


def _score(st: Any, effects: list[dict[str, Any]]) -> float:
    """What a skill is worth now: reachable attacks, healing a wounded hero, armor near foes."""
    h = st.heroes[st.ht["hero"]]
    board = Board(st.tiles)
    moved = sum(e.get("value", 0) for e in effects if e["do"] == "move")
    near = _enemy_dist(st, h.tile)
    score = 0.0
    for e in effects:
        do, v, n = e["do"], e.get("value", 0), e.get("times", 1)
        if do == "attack":
            rng = e.get("range", 0)
            reach = INF if rng == "anywhere" else int(rng) + moved
            if near <= reach:
                score += 2.0 * v * n
        elif do == "heal":
            hurt = [o for o in st._party_heroes() if not o.ko and o.hp < o.max_hp]
            score += min(v, max((o.max_hp - o.hp for o in hurt), default=0)) * n
        elif do == "repair":
            score += 0.5 * v if any(t.hp < st._trap_max_hp(t) for t in st.traps.values()
                                    if not t.destroyed) else 0
        elif do == "armor":
            score += 1.2 * v if near <= 1 else 0.1
        elif do == "retaliate":
            score += 1.0 * v if near <= 1 else 0.1
        elif do == "move":
            score += 0.3 if near > 0 else 0
        elif do == "damage_self":
            score -= 1.5 * v
    del board
    return score


def _hero_choice(st: Any, texts: list[str]) -> str:
    ht = st.ht
    h = st.heroes[ht["hero"]]
    if ht["queue"]:
        eff = ht["queue"][0]
        if eff["do"] == "move":
            board = Board(st.tiles)
            nxt = ht["queue"][1:2]
            rng = nxt[0].get("range", 0) if nxt and nxt[0]["do"] == "attack" else 0

            def value(t: str) -> float:
                d = _enemy_dist(st, t)
                return abs(d - (0 if rng == "anywhere" else int(rng))) + 0.01 * board.distance(t, GATE)

            cands = [(value(t.split()[-1]), t) for t in texts if t.startswith("move to")]
            stay = (value(h.tile), "stay")
            return min([stay, *cands])[1]
        if eff["do"] == "attack":
            best, pick = INF, texts[-1]
            for t in texts:
                if not t.startswith("attack "):
                    continue
                e = st.enemies[t.split()[1]]
                d = Board(st.tiles).distance(e.tile, GATE)
                key = e.hp + (5 if e.evasion else 0) + 0.1 * d
                if key < best:
                    best, pick = key, t
            return pick
        return texts[0]  # heal/repair: the first (the wounded ones only are offered)
    # free actions first if they are worth it, then the best skill of the row
    frees = [t for t in texts if t.startswith("use ")]
    for t in frees:
        if _score(st, _effects(st, t)) >= 2.0:
            return t
    skills = [t for t in texts if t.startswith("skill ")]
    if skills:
        return max(skills, key=lambda t: _score(st, _effects(st, t)))
    if "end turn" in texts:
        return "end turn"
    return texts[0]


def _prep_choice(st: Any, texts: list[str]) -> str:
    heals = [t for t in texts if t.startswith("heal ")]
    if heals:
        return heals[0]
    ups = [t for t in texts if t.startswith("upgrade ")]
    if ups:
        return ups[0]
    board = Board(st.tiles)
    order = board.tao()
    builds = [t for t in texts if t.startswith("build ")]
    if builds:
        # the most exposed fortified tile: the farthest from the gate
        return max(builds, key=lambda t: (board.distance(t.split()[-1], GATE),
                                          "Spike" in t))
    forts = [t for t in texts if t.startswith("fortify ")]
    if forts and st.runestones >= 2 * (1 + st._players()):
        return min(forts, key=lambda t: order.index(t.split()[-1]))
    buys = [t for t in texts if t.startswith("buy ")]
    if buys and st.silver >= 6:
        cat = st.content.cat
        return max(buys, key=lambda t: sum(e.value * e.times for e in
                                           cat.items[_payload(st, t)[1]].effects
                                           if e.do == "attack"))
    return "done preparing"


def choose(st: Any) -> str:
    """The heuristic party's action for any decision of a Midhalla state."""
    texts = [a.text for a in st.legal_actions()]
    kind = st.choice["kind"] if st.choice else ""
    if kind == "prep":
        return _prep_choice(st, texts)
    if kind == "position":
        board = Board(st.tiles)
        return min(texts, key=lambda t: (_enemy_dist(st, t.split()[-1]) or 0.5,
                                         board.distance(t.split()[-1], GATE)))
    if kind == "hero":
        return _hero_choice(st, [t for t in texts if not t.startswith("replay")])
    if kind == "effect":
        return _hero_choice(st, texts)
    if kind == "enemy_target":
        def sturdy(t: str) -> float:
            kind, _, who = _payload(st, t).partition(":")
            if kind == "gate":
                return st.gate_hp / 4
            if kind == "hero":
                return st.heroes[who].hp
            return st.traps[who].hp + 2 if who in st.traps else 0
        return max(texts, key=sturdy)
    if kind == "trap_target":
        return min(texts, key=lambda t: st.enemies[_payload(st, t)].hp)
    return texts[0]


def play(setup: dict[str, Any], seed: int, max_steps: int = 5000) -> Any:
    from meadhall import games

    st = games.get("midhalla").new_game(setup, seed)
    for _ in range(max_steps):
        if st.decision() is None:
            break
        st.apply(choose(st))
    return st


SETUPS = {
    "chapter1": {"scenario": "chapter1", "heroes": ["harkon", "enyk"]},
    "chapter2": {"scenario": "chapter2", "heroes": ["harkon", "enyk", "tora"]},
    "side_loot_den": {"scenario": "side_loot_den", "heroes": ["harkon", "enyk"]},
}


def measure(n: int) -> dict[str, tuple[int, int, float]]:
    out = {}
    for name, setup in SETUPS.items():
        t = time.time()
        wins = sum(play(setup, s).outcome().result == "win" for s in range(n))
        out[name] = (wins, n, (time.time() - t) / n)
        print(f"{name}: {wins}/{n} wins ({100 * wins / n:.1f}%), "
              f"{out[name][2]:.2f} s/game", flush=True)
    return out


if __name__ == "__main__":
    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
