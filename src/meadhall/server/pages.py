"""The pages: lobby, table and replay, as server-rendered HTML with inline SVG.

The table page's changing part (board, decision, actions, seats, journal) is one fragment that
``static/table.js`` fetches again whenever the live socket reports a new version.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from fractions import Fraction
from html import escape
from typing import Any

from meadhall import games
from meadhall.core.protocol import CHANCE, PLAYERS, Game, GameState
from meadhall.core.words import join, plural
from meadhall.server import registry, svg
from meadhall.server.store import Store
from meadhall.server.tables import (
    BOTS,
    Table,
    TableError,
    Tables,
    bot_label,
    holder_name,
    seat_name,
)


def _e(x: object) -> str:
    return escape(str(x), quote=True)


def _json_script(element_id: str, data: Any) -> str:
    """Data for the page's script, safe inside ``<script>``."""
    text = json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def page(title: str, body: str, script: str = "", cls: str = "") -> str:
    """A whole page: head, styles, the shared SVG patterns, body and script."""
    js = f'<script src="/static/{script}" defer></script>' if script else ""
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(title)}</title>"
            '<link rel="stylesheet" href="/static/style.css">'
            f"{js}</head><body class=\"{_e(cls)}\">{svg.defs()}"
            '<a class="skip" href="#main">Skip to the table</a>'
            f"{body}</body></html>")


# ----------------------------------------------------------------------------- lobby
def lobby(tables: Tables, store: Store) -> str:
    """Choose a game, its scenario, heroes and options, and start; or continue a table."""
    info = registry.all_info()  # what GET /api/games returns
    order = sorted(info, key=lambda g: g["id"] == "toy")
    options = "".join(f'<option value="{_e(g["id"])}">{_e(g["title"])}</option>' for g in order)
    recent = []
    for r, _ in store.listed(set(), 30):  # public tables; lobby.js adds this browser's own
        try:
            title = games.get(r.game).title
        except games.UnknownGame:
            title = r.game
        campaign = " · campaign" if r.setup.get("campaign") else ""
        recent.append(f'<li data-table="{_e(r.id)}"><a class="spectate" href="/t/{_e(r.id)}">'
                      f"{_e(title)}</a> — {_e(r.setup.get('scenario', ''))}{_e(campaign)} · "
                      f"{_e(r.result)} · step {r.version}"
                      f'<span class="mine"></span></li>')
    body = f"""
<header class="top"><h1>meadhall</h1><p>Cooperative Norse board games, every rule enforced,
every enemy automated. Start a game, then send your friends their seat links.</p></header>
<main id="main" class="lobby">
<section class="new" aria-labelledby="new-h"><h2 id="new-h">New game</h2>
<form id="new-game">
<label>Game <select name="game" id="game">{options}</select></label>
<label>Scenario <select name="scenario" id="scenario"></select></label>
<fieldset id="heroes"><legend>Heroes</legend></fieldset>
<div id="extra"></div>
<label>Seed <input name="seed" id="seed" type="number" min="0" placeholder="random"></label>
<label><input type="checkbox" name="practice" id="practice"> Practice table (undo rewinds
everything, dice included)</label>
<label><input type="checkbox" name="table_mode" id="table_mode"> Roll your own dice (the table
asks you for every result)</label>
<label><input type="checkbox" name="one_page" id="one_page" checked> I play every seat from
this page (friends take theirs back with their seat link)</label>
<label><input type="checkbox" name="ask_us" id="ask_us"> Ask us the players' choices (enemy
tie-breaks, spawn squares); otherwise meadhall takes the marked default and logs it</label>
<button type="submit" id="start">Start the game</button>
<p id="new-msg" role="alert" class="msg"></p>
</form>
<div id="invite" hidden><h3>Seat links</h3><p>Open your seat; send the others theirs.
The spectator link only watches.</p><ul id="invite-links"></ul></div>
</section>
<section aria-labelledby="cont-h"><h2 id="cont-h">Continue</h2>
<p>Your tables on this device open at your seat; the others open as a spectator.</p>
<ul id="recent">{"".join(recent) or "<li>No tables yet.</li>"}</ul>
<form id="join"><label>Join by link <input id="join-link" type="url"
placeholder="paste a seat link"></label> <button type="submit">Join</button></form>
<form id="import"><label>Import a save <input id="import-file" type="file"
accept=".json,application/json"></label> <button type="submit">Import</button>
<p id="import-msg" role="alert" class="msg"></p></form>
</section>
</main>{_json_script("games-json", order)}"""
    return page("meadhall — lobby", body, "lobby.js", "lobby-page")


# ----------------------------------------------------------------------------- table
def table(t: Table, seat: str | None, token: str | None,
          present: Callable[[str], bool]) -> str:
    """The table page for a seat (or a spectator): the action bar across the top, the board
    fitted to the middle, the sheets and the log beside it (tabs on a phone)."""
    r = t.row
    who = f"your seat: {seat_name(t.game, seat)}" if seat else "spectator"
    q = "?token=" + _e(token) if token else ""
    head = (f'<header class="top slim"><h1>{_e(t.game.title)}</h1>'
            f'<p><span class="setup">{_e(_setup_text(t.game, r.setup))}</span> · <span id="who">'
            f'{_e(who)}</span> · <a href="/">lobby</a> · <a id="replay-link" '
            f'href="/t/{_e(r.id)}/replay{q}">replay</a>'
            + (f' · <a href="/api/tables/{_e(r.id)}/save?token={_e(token)}" download>save</a>'
               if token else "")
            + (f' · <a href="/t/{_e(r.id)}/sheet{q}">campaign sheet</a>'
               if r.setup.get("campaign") else "")
            + ' <span id="net" class="net" role="status" aria-live="polite"></span></p>'
            "</header>")
    tabs = ('<nav class="tabs" role="tablist" aria-label="the table\'s panels">'
            + "".join(f'<button type="button" role="tab" data-tab="{k}" id="tab-{k}" '
                      f'aria-selected="{"true" if k == "sheets" else "false"}">{n}</button>'
                      for k, n in (("sheets", "Sheets"), ("log", "Log"), ("seats", "Seats")))
            + "</nav>")
    body = (f'{head}<main id="main" class="table" data-tab="sheets" data-table="{_e(r.id)}" '
            f'data-token="{_e(token or "")}" data-seat="{_e(seat or "")}">'
            f'{tabs}<div id="table-body">{table_body(t, seat, token, present)}</div>'
            '<aside class="log-box" data-pane="log"><div id="story"></div>'
            '<h2 id="log-h">What happened</h2>'
            # Filled here, not by the script, so a screen reader announces only new steps.
            '<ol id="log" aria-live="polite" aria-labelledby="log-h">'
            f'{journal_html(t.snapshot_for(seat)["journal"], _replay_at(t, token), t.game)}</ol></aside>'
            '<div id="chooser" role="dialog" aria-modal="false" aria-label="Choose an action" '
            'hidden></div><div id="info" role="status" hidden></div></main>')
    return page(f"{t.game.title} — meadhall", body, "table.js", "table-page")


def _setup_text(game: Game, setup: dict[str, Any]) -> str:
    """The setup in words: the scenario's and heroes' names, then the options set."""
    parts = []
    if setup.get("scenario"):
        names = {sc.id: sc.name for sc in game.scenarios()}
        parts.append(names.get(str(setup["scenario"]), str(setup["scenario"])))
    if setup.get("heroes"):
        parts.append(", ".join(seat_name(game, str(h)) for h in setup["heroes"]))
    for k, v in setup.items():
        if k not in ("scenario", "heroes") and v not in (None, False, "", [], {}):
            parts.append(k if v is True else f"{k} {v}")
    return " · ".join(parts)


KILLS = ("kill", "defeat", "eliminated")
KNOCKOUTS = ("knockout", "ko")
"""Event kinds the ending's summary counts (every game uses these kinds for them)."""
BLOWS = (*KILLS, *KNOCKOUTS, "damage", "wound", "attack", "enemy-attack", "god_attack", "bleed",
         "health", "gate")
"""Event kinds a final blow may be (the last of them in the game is shown as such)."""


def _is_kill(ev: dict[str, Any]) -> bool:
    """An enemy removed: a ``kill``, or a ``defeat`` / ``eliminated`` naming the enemy (a
    ``defeat`` of the heroes, Runaljod's end of time, is no kill)."""
    kind = ev.get("kind")
    data = ev.get("data") or {}
    return kind == "kill" or (kind in KILLS and any(k in data for k in
                                                      ("enemy", "undead", "minion")))


def ending_summary(journal: list[dict[str, Any]]) -> dict[str, Any]:
    """What the end of a game tells: rounds played, enemies killed, heroes knocked out, and
    the final blow (the last step's last sentence), counted from the table's whole journal."""
    live = [e for e in journal if not e.get("undone") and e["kind"] in ("act", "start")]
    evs = [ev for e in live for ev in e.get("events", [])]
    rounds = sum(1 for ev in evs if ev.get("kind") == "round")
    blow = next((ev for ev in reversed(evs) if ev.get("kind") in BLOWS), None)
    return {"steps": sum(1 for e in live if e["kind"] == "act"), "rounds": rounds,
            "kills": sum(1 for ev in evs if _is_kill(ev)),
            "knockouts": sum(1 for ev in evs if ev.get("kind") in KNOCKOUTS),
            "final": blow["text"] if blow else ""}


def _ending_html(t: Table, token: str | None, o: dict[str, Any]) -> str:
    word = "Victory" if o["result"] == "win" else "Defeat"
    sm = ending_summary(t.journal)
    facts = [f"{sm['steps']} decisions"]
    if sm["rounds"]:
        facts.append(f"{sm['rounds']} round{'s' if sm['rounds'] != 1 else ''}")
    facts.append(f"{sm['kills']} enem{'ies' if sm['kills'] != 1 else 'y'} defeated")
    facts.append(f"{sm['knockouts']} knockout{'s' if sm['knockouts'] != 1 else ''}")
    q = "?token=" + _e(token) if token else ""
    cause = "How it ended" if o["result"] == "win" else "Cause of defeat"
    links = [f'<a href="/t/{_e(t.row.id)}/replay{q}">Watch the replay</a>']
    if t.row.setup.get("campaign"):
        links.append(f'<a href="/t/{_e(t.row.id)}/sheet{q}">The campaign sheet</a>')
    links.append('<a href="/">A new game</a>')
    return (f'<div class="decision over {o["result"]}" role="status"><strong>{word}</strong>'
            f'<dl class="summary"><dt>{cause}</dt><dd>{_e(o["reason"])}'
            f'</dd><dt>The game</dt><dd>{_e(", ".join(facts))}</dd>'
            + (f'<dt>Final blow</dt><dd>{_e(sm["final"])}</dd>' if sm["final"] else "")
            + f'</dl><p class="end-links">{" · ".join(links)}</p></div>')


PLACES = ("square", "area", "tile")
"""Target kinds whose ids are the names players use (``E4``, ``D7``, map tile ``5A``)."""


def _where(action: dict[str, Any]) -> str:
    """What a choice's button adds to its label: the places it names and their notes, never
    a target's id that is not a place (``option:keep-the-roll``), never what the label says."""
    out = []
    for x in action["targets"]:
        text = " ".join(p for p in (x["id"] if x["kind"] in PLACES else "", x["note"]) if p)
        if text and text not in action["label"] and text not in out:
            out.append(text)
    return ", ".join(out)


def _decision_html(t: Table, seat: str | None, snap: dict[str, Any],
                   token: str | None = None) -> str:
    o = snap["outcome"]
    if o["result"] != "ongoing":
        return _ending_html(t, token, o)
    d = snap["decision"]
    if d is None:
        return ""
    owner = d["owner"]
    sec = f' <span class="section">({_e(d["section"])})</span>' if d.get("section") else ""
    q = snap.get("question")
    if owner == CHANCE and q:
        step = (f'<br><small>It decides how this step ends: {_e(q["step"])}'
                f'{" (results so far: " + _e(", ".join(q["entered"])) + ")" if q["entered"] else ""}'
                "</small>")
        ask = ("Roll your own dice (or draw the card) and press the result that shows, or let "
               "meadhall roll it." if snap["can_act"] else "Waiting for a seat to enter it.")
        return (f'<div class="decision {"mine" if snap["can_act"] else "wait"} question" '
                f'role="status"><strong>The table rolls:</strong> {_e(q["what"])}{sec}{step}'
                f'<br><small>{ask}</small></div>')
    if snap["can_act"]:
        who = ("Your decision" if owner == seat else
               "The players decide together" if owner == PLAYERS else
               "Enter the result" if owner == CHANCE else
               f"You decide for {seat_name(t.game, owner)}")
        return (f'<div class="decision mine" role="status"><strong>{_e(who)}:</strong> '
                f'{_e(d["prompt"])}{sec}</div>')
    holder = t.holders.get(owner, "")
    waiting = holder_name(holder, owner, t.game) if holder else seat_name(t.game, owner)
    if seat is None:
        waiting += " (you are watching)"
    return (f'<div class="decision wait" role="status">Waiting for {_e(waiting)}: '
            f'{_e(d["prompt"])}{sec}</div>')


def _odds_text(chance: float) -> str:
    """A result's chance as people say it: ``1 in 12 (8%)``, ``3 in 8 (38%)``."""
    f = Fraction(chance).limit_denominator(100)
    pct = f"{chance:.0%}" if chance >= 0.01 else "<1%"
    if abs(float(f) - chance) < 1e-9 and f.denominator > 1:
        return f"{f.numerator} in {f.denominator} ({pct})"
    return pct


def _question_html(snap: dict[str, Any]) -> str:
    """Table mode's question: one button per possible result, drawn as the die's face (or
    the card's name), with its chance; and a button that rolls it with those odds."""
    q = snap["question"]
    by_text = {a["text"]: (i, a) for i, a in enumerate(snap["actions"])}
    m = re.search(r"\(([^()]*)\)\s*$", q["what"])
    die_kind = m.group(1).removesuffix(" die").strip() if m else ""
    fill = svg.colour(die_kind, "white") if die_kind.lower() in svg.PALETTE else "#ffffff"
    fg = svg.ink(die_kind) if die_kind.lower() in svg.PALETTE else "#111111"
    chances = {round(o["chance"], 9) for o in q["odds"]}
    uniform = len(chances) == 1
    items = []
    for o in q["odds"]:
        text = "result " + o["result"]
        if text not in by_text:
            continue
        i, a = by_text[text]
        face = o["result"].replace("_", " ")
        items.append(f'<li><button type="button" class="act face" data-action="{_e(text)}" '
                     f'data-i="{i}" aria-label="{_e(a["label"])}, chance {_odds_text(o["chance"])}">'
                     f'<span class="die-face" style="background:{fill};color:{fg}">{_e(face)}'
                     f'</span>{"" if uniform else "<small>" + _e(_odds_text(o["chance"])) + "</small>"}'
                     "</button></li>")
    odds = json.dumps([[o["result"], o["chance"]] for o in q["odds"]])
    return ('<section class="actions roll" aria-labelledby="acts-h"><h2 id="acts-h">'
            f'Enter the result <small>({_e(q["what"])})</small></h2>'
            + (f'<p class="odds">Each result: {_e(_odds_text(q["odds"][0]["chance"]))}</p>'
               if uniform else "")
            + f'<ol class="faces">{"".join(items)}</ol>'
            f'<button type="button" id="roll-for-me" data-odds="{_e(odds)}">Roll it for me'
            "</button></section>")


BAR_PLAIN = 6
"""Up to this many choices off the board, the action bar shows each as its own button; beyond
it, the choices drawn on one sheet or track share one button that opens their menu."""


def _actions_html(snap: dict[str, Any], on_board: set[str] | None = None,
                  homes: dict[str, str] | None = None) -> str:
    """The action bar's choices: every action with no target drawn on the board, as a big
    button (the others are picked on the board); many of them are grouped by the sheet they
    are drawn on (one button, a menu). In table mode, the question's faces."""
    acts = snap["actions"]
    if not acts:
        return ""
    if snap.get("question") and all(a["text"].startswith("result ") for a in acts):
        return _question_html(snap)
    on_board = on_board or set()
    homes = homes or {}
    default = (snap["decision"] or {}).get("default")
    off = [(i, a) for i, a in enumerate(acts)
           if not any(x["ref"] in on_board for x in a["targets"])]
    n_board = len(acts) - len(off)
    groups: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    order: list[tuple[str, Any]] = []
    for i, a in off:
        home = next((homes[x["ref"]] for x in a["targets"] if x["ref"] in homes), "")
        if len(off) > BAR_PLAIN and home and a["text"] != default:
            if home not in groups:
                groups[home] = []
                order.append(("group", home))
            groups[home].append((i, a))
        else:
            order.append(("one", (i, a)))
    items = []
    for kind, what in order:
        if kind == "group" and len(groups[what]) == 1:
            kind, what = "one", groups[what][0]
        if kind == "one":
            i, a = what
            mark = ' <span class="default">(default)</span>' if a["text"] == default else ""
            where = _where(a)
            items.append(f'<li><button type="button" class="act" data-action="{_e(a["text"])}" '
                         f'data-i="{i}">{_e(a["label"])}{mark}'
                         f'{" <small>" + _e(where) + "</small>" if where else ""}</button></li>')
        else:
            g = groups[what]
            items.append(f'<li><button type="button" class="act-group" data-acts='
                         f'"{" ".join(str(i) for i, _ in g)}" data-home="{_e(what)}">'
                         f'{_e(what)} <small>{len(g)} choices ▸</small></button></li>')
    hint = (f'<p class="hint">{"Or pick" if items else "Pick"} one of the {n_board} marked '
            f'place{"s" if n_board != 1 else ""} on the board.</p>' if n_board else "")
    return ('<section class="actions" aria-label="your choices">'
            f'{hint}<ol>{"".join(items)}</ol></section>')


def _seats_html(t: Table, seat: str | None, present: Callable[[str], bool],
                token: str | None = None) -> str:
    rows = []
    for s in t.seats:
        holder = t.holders[s]
        here = present(s)
        status = "you" if s == seat else ("at the table" if here else "absent")
        name = holder_name(holder, s, t.game) if holder else ""
        ctl = ""
        if seat is not None:
            if holder and (s == seat or holder == f"seat:{seat}" or holder.startswith("bot:")):
                ctl = (f'<button type="button" class="seat-btn" data-seat="{_e(s)}" '
                       f'data-holder="">{"Take back my seat" if s == seat else "Give back"}'
                       "</button>")
            elif not holder and (s == seat or not here):
                options = "".join(f'<option value="bot:{_e(b)}" title="{_e(why)}">'
                                  f"{_e(bot_label(b))}</option>" for b, why in BOTS.items())
                bots = (f'<span class="hand"><select class="seat-bot" aria-label="the bot to '
                        f'play the seat of {_e(seat_name(t.game, s))}">{options}</select> <button type="button" '
                        f'class="seat-btn" data-seat="{_e(s)}" data-from-select="1">Hand to '
                        "this bot</button></span>")
                mine = ("" if s == seat else
                        f'<button type="button" class="seat-btn" data-seat="{_e(s)}" '
                        f'data-holder="seat:{_e(seat)}">Play it myself</button>')
                ctl = bots + mine
        rows.append(f'<li><strong>{_e(seat_name(t.game, s))}</strong> — {_e(status)}'
                    f'{" · played by " + _e(name) if holder else ""} {ctl}</li>')
    spectator = f"/t/{t.row.id}"
    return ('<section class="seats" aria-labelledby="seats-h"><h2 id="seats-h">Seats</h2>'
            f'<ul>{"".join(rows)}</ul><h3>Links for friends</h3><ul id="invite-here">'
            f'<li>Spectators (watch only): <a class="link" href="{_e(spectator)}">'
            f'{_e(spectator)}</a> <button type="button" class="copy" '
            f'data-copy="{_e(spectator)}">Copy</button></li></ul>'
            f'<p class="opts">Players\' choices (enemy tie-breaks, spawn squares): '
            f'{"meadhall takes the marked default and logs it" if t.row.auto_choices else "the table asks you"}'
            f'.</p>{_concede_html(seat, t.state.outcome().result)}</section>')


def _concede_html(seat: str | None, result: str) -> str:
    if seat is None or result != "ongoing":
        return ""
    return '<p><button type="button" id="concede" class="danger">Concede the game</button></p>'


def _undo_html(t: Table, seat: str | None, snap: dict[str, Any]) -> str:
    """Undo in the action bar (with a proposal waiting for answers); after the end only a
    practice table offers it (practice rewinds anything, the end included)."""
    if seat is None:
        return ""
    u = snap["undo"]
    out = ['<div class="undo">']
    p = u["proposal"]
    if p:
        out.append(f'<p class="proposal" role="alert">{_e(seat_name(t.game, p["by"]))} asks to '
                   f'undo {plural(p["steps"], "step")}. Waiting for: '
                   f'{_e(join(seat_name(t.game, w) for w in p["waiting"]))}.</p>')
        if seat in p["waiting"]:
            out.append('<button type="button" id="agree">Agree to undo</button> '
                       '<button type="button" id="decline">Decline</button>')
    if snap["outcome"]["result"] != "ongoing" and not u["practice"]:
        out.append("</div>")
        return "".join(out)
    n = u["available"]
    why = ("practice table: everything can be taken back" if u["practice"] else
           "dice, cards and reveals stay as they fell")
    dis = "" if n and not p else " disabled"
    out.append(f'<button type="button" id="undo"{dis} title="{plural(n, "step")} can be '
               f'taken back ({_e(why)})">Undo</button></div>')
    return "".join(out)


STORY_KEYS = ("from", "to", "at", "area", "tile", "square", "space", "target", "hero",
              "enemy", "champion", "minion", "figure")
"""Event data keys whose values name a drawn cell, tile or figure (highlighted on the board
while the step is shown)."""


def _story_refs(data: dict[str, Any]) -> tuple[str, str]:
    """The board names an event involves: where it came from, and where it went or hit."""
    frm, to = [], []
    for k in STORY_KEYS:
        v = data.get(k)
        vals = v if isinstance(v, list) else [v]
        for x in vals:
            if isinstance(x, str) and x and len(x) <= 40:
                (frm if k == "from" else to).append(x)
    return " ".join(frm), " ".join(to)


def story_html(journal: list[dict[str, Any]], game: Game | None = None) -> str:
    """The last step that set automated steps off (the enemies' turn, a draw), one step at a
    time: each sentence with its section and dice; the board highlights what it moved or hit
    (``data-from``, ``data-to``: the names of drawn cells and figures)."""
    last = next((e for e in reversed(journal)
                 if e["kind"] in ("act", "start") and not e.get("undone")
                 and len(e.get("events", [])) > 1), None)
    if last is None:
        return ""
    evs = last["events"]
    items = []
    for i, ev in enumerate(evs):
        frm, to = _story_refs(ev.get("data") or {})
        dice = "".join(svg.mini_die(d["kind"], d["face"], d["modifier"])
                       for d in event_dice(ev.get("data") or {}))
        sec = f'<span class="section">{_e(ev["section"])}</span>' if ev.get("section") else ""
        items.append(f'<li data-from="{_e(frm)}" data-to="{_e(to)}" data-n="{i}">'
                     f'<span class="n">{i + 1}</span> {_e(ev["text"])} {sec}'
                     f'{"<span class=dice-row>" + dice + "</span>" if dice else ""}</li>')
    who = "the table's setup" if last["kind"] == "start" else (
        f"{seat_name(game, last['seat'])}: {last.get('label', '')}")
    return ('<section class="story" aria-labelledby="story-h"><h2 id="story-h">'
            f'Last turn, step by step <small title="{_e(who)}">{len(evs)} steps after '
            f'{_e(who)}</small></h2>'
            '<p class="story-nav"><button type="button" data-story="prev" '
            'aria-label="previous step">‹</button> <span class="story-at" aria-live="off">'
            f'</span> <button type="button" data-story="next" aria-label="next step">›</button> '
            '<button type="button" data-story="all">All</button></p>'
            f'<ol class="story-steps" data-seq="{last["seq"]}">{"".join(items)}</ol></section>')


def event_dice(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The dice an event rolled, as ``{"kind", "face", "modifier"}``: the protocol's
    convention (``data["dice"]``, docs/architecture.md "Dice in events"), or what games emitted
    before it: ``roll``/``rolls`` (numbers, with an optional ``modifier``), ``dice`` as
    ``[colour, face]`` pairs, ``faces`` (words), and rune throws (``runes``, ``altar``: ``[rune,
    orientation]`` pairs)."""
    def die(kind: Any, face: Any, modifier: Any = 0) -> dict[str, Any] | None:
        if isinstance(face, bool) or not isinstance(face, int | str) or face == "":
            return None
        mod = modifier if isinstance(modifier, int) and not isinstance(modifier, bool) else 0
        return {"kind": str(kind or ""), "face": str(face), "modifier": mod}

    out: list[dict[str, Any] | None] = []
    dice = data.get("dice")
    if isinstance(dice, list) and dice:
        for d in dice:
            if isinstance(d, dict):
                out.append(die(d.get("kind"), d.get("face"), d.get("modifier", 0)))
            elif isinstance(d, list | tuple) and len(d) >= 2:
                out.append(die(d[0], d[1]))
            else:
                out.append(die("", d))
    else:
        for key in ("roll", "rolls", "faces", "runes", "altar"):
            v = data.get(key)
            if v is None:
                continue
            vals = v if isinstance(v, list) else [v]
            for x in vals:
                if isinstance(x, list | tuple) and len(x) >= 2:
                    out.append(die(x[0], x[1]))  # a rune and how it fell
                else:
                    out.append(die("", x, data.get("modifier", 0) if key == "roll" else 0))
            break
    return [d for d in out if d is not None] if all(d is not None for d in out) else []


def _event_html(ev: dict[str, Any]) -> str:
    sec = f' <span class="section">— {_e(ev["section"])}</span>' if ev.get("section") else ""
    dice = "".join(svg.mini_die(d["kind"], d["face"], d["modifier"])
                   for d in event_dice(ev.get("data") or {}))
    if dice:
        dice = f'<span class="dice-row">{dice}</span>'
    return f'<li class="ev ev-{_e(ev.get("kind", ""))}">{_e(ev["text"])}{sec}{dice}</li>'


def journal_html(journal: list[dict[str, Any]], replay_at: str = "",
                 game: Game | None = None) -> str:
    """The step log: each step's label and its events with their rulebook sections;
    ``replay_at`` (a replay address ending in ``seq=``) links each step to its replay;
    ``game`` names the seats by their heroes."""
    out = []
    for e in journal:
        cls = "entry undone" if e.get("undone") else "entry"
        if e["kind"] in ("act", "concede", "start"):
            evs = "".join(_event_html(ev) for ev in e.get("events", []))
            # "by": a seat's id (a seat played from another's page) or a bot's name
            b = e.get("by") or ""
            by = f" (by {b if b.startswith('the ') else seat_name(game, b)})" if b else ""
            head = (f'<span class="who">Setup:</span> {_e(e.get("label", ""))}'
                    if e["kind"] == "start" else
                    f'<span class="who">{_e(seat_name(game, e["seat"]))}{_e(by)}:</span> {_e(e.get("label", ""))}')
            if e.get("undone"):
                head += ' <span class="tag">(undone)</span>'
            elif replay_at:
                head += (f' <a class="replay-at" href="{_e(replay_at)}{e["seq"]}" '
                         f'aria-label="replay step {e["seq"]} on the board">replay</a>')
            out.append(f'<li class="{cls}" data-seq="{e["seq"]}">{head}'
                       f'{"<ol>" + evs + "</ol>" if evs else ""}</li>')
        else:
            out.append(f'<li class="{cls} table-note" data-seq="{e["seq"]}">{_e(e["text"])}</li>')
    return "".join(out)


def table_body(t: Table, seat: str | None, token: str | None,
               present: Callable[[str], bool]) -> str:
    """The part of the table page that changes with each version.

    Its pieces carry ``data-part``: the page swaps only the pieces whose HTML changed (so a
    seat arriving does not redraw the board under a pointer), and ``data-digest`` on
    ``#state`` lets it skip an unchanged fragment without comparing it.
    """
    snap = t.snapshot_for(seat)
    hl = svg.Highlights.from_actions(snap["actions"])
    on_board: set[str] = set()
    homes: dict[str, str] = {}
    subtitle = ""
    try:
        scene = t.game.draw(snap["view"])
        d = snap["decision"]
        subtitle = scene.subtitle
        if d and subtitle.strip() == d["prompt"].strip():
            subtitle = ""  # the decision says it already
        on_board = svg.board_targets(scene)
        homes = svg.target_homes(scene)
        boards = svg.boards_html(scene, hl)
        sheets = svg.sheets_html(scene, hl, seat)
    except Exception as e:  # noqa: BLE001 - a drawing bug must not hide the table
        boards = (f'<p class="msg" role="alert">This game\'s drawing failed '
                  f"({_e(type(e).__name__)}: {_e(e)}); the choices above still work.</p>")
        sheets = ""
    zoom = ('<div class="zoom" role="toolbar" aria-label="zoom the board">'
            '<button type="button" data-zoom="in" aria-label="zoom in">+</button>'
            '<button type="button" data-zoom="out" aria-label="zoom out">−</button>'
            '<button type="button" data-zoom="fit" aria-label="fit the board">Fit</button></div>')
    bar = (f'<div class="bar-top">{"<p class=subtitle>" + _e(subtitle) + "</p>" if subtitle else ""}'
           f'{_decision_html(t, seat, snap, token)}{_undo_html(t, seat, snap)}</div>'
           f'{_actions_html(snap, on_board, homes)}')
    inner = (f'<div class="bar" data-part="bar">{bar}</div>'
             '<p id="msg" class="msg" role="alert"></p>'
             f'<div class="play"><div class="board-area" data-part="board">{zoom}'
             f'<div class="viewport"><div class="stage">{boards}</div></div></div>'
             f'<div class="sheets" data-part="sheets" data-pane="sheets">{sheets}</div>'
             f'<div class="seats-pane" data-part="seats" data-pane="seats">'
             f'{_seats_html(t, seat, present, token)}</div>'
             f'<div class="story-pane" data-part="story" hidden>'
             f'{story_html(snap["journal"], t.game)}</div></div>'
             f'<ol id="log-src" data-part="log-src" hidden>'
             f'{journal_html(snap["journal"], _replay_at(t, token), t.game)}</ol>'
             f'<div data-part="actions-json">{_json_script("actions-json", snap["actions"])}'
             "</div>")
    attrs = (f'data-version="{snap["version"]}" data-can-act="{int(snap["can_act"])}" '
             f'data-result="{_e(snap["outcome"]["result"])}"')
    digest = hashlib.blake2b((attrs + inner).encode(), digest_size=8).hexdigest()
    return f'<div id="state" {attrs} data-digest="{digest}">{inner}</div>'


def _replay_at(t: Table, token: str | None) -> str:
    return f"/t/{t.row.id}/replay?{'token=' + token + '&' if token else ''}seq="


def sheet(t: Table, seat: str | None, token: str | None) -> str:
    """The campaign sheet: the game's panels and tracks without the board (a party sheet,
    the fate scale, rewards), large and printable."""
    view = t.at_question().view(seat)
    scene = t.game.draw(view)
    scene.boards = []
    # The party's own sheets (no seat) first: the Party Control Sheet, the fate scale.
    scene.panels.sort(key=lambda p: p.seat is not None)
    q = f"?token={_e(token)}" if token else ""
    body = (f'<header class="top"><h1>{_e(t.game.title)} — campaign sheet</h1>'
            f'<p>{_e(_setup_text(t.game, t.row.setup))} · <a href="/t/{_e(t.row.id)}{q}">back to the '
            f'table</a></p></header><main id="main" class="sheet">'
            f"{svg.scene_html(scene, None, seat)}</main>")
    return page(f"Campaign sheet — {t.game.title}", body, "", "sheet-page")


# ----------------------------------------------------------------------------- replay
def replay_state(t: Table, step: int) -> tuple[dict[str, Any] | None, GameState, int]:
    """The table's game after ``step`` of its steps in effect, replayed from the start."""
    line = t.replay_line()
    n = len(line)
    k = max(0, min(step, n))
    r = t.row
    if r.base is not None:
        # An imported table replays from the position it was imported at.
        state = GameState.from_json(r.base, "replay")
    else:
        state = t.game.new_game(r.setup, r.seed, r.chance, r.auto_choices)  # type: ignore[arg-type]
    for e in line[:k]:
        if e["kind"] == "concede":
            state.concede("")
        else:
            try:
                state.apply(e["action"])
            except Exception as ex:  # noqa: BLE001
                raise TableError(f"replay failed at step {e['seq']}: {ex}") from None
    first = t.journal[0] if t.journal and t.journal[0]["kind"] == "start" else None
    return (line[k - 1] if k else first), state, n


def replay(t: Table, seat: str | None, token: str | None, step: int) -> str:
    """Step through a table from its start, each step with its events, on the board."""
    entry, state, n = replay_state(t, step)
    k = min(step, n)
    q = f"&token={_e(token)}" if token else ""
    nav = (f'<nav class="replay-nav" aria-label="replay steps">'
           f'<a href="?step=0{q}" aria-label="to the start">« start</a> '
           f'<a href="?step={max(0, k - 1)}{q}" rel="prev" aria-label="previous step">‹ back</a> '
           f"<span>step {k} of {n}</span> "
           f'<a href="?step={min(n, k + 1)}{q}" rel="next" aria-label="next step">next ›</a> '
           f'<a href="?step={n}{q}" aria-label="to the end">end »</a> '
           '<small>(or the ← → keys)</small></nav>')
    log = journal_html([entry], game=t.game) if entry else "<li>The table is set.</li>"
    scene = svg.scene_html(t.game.draw(state.view(seat)), None, seat)
    back = f'<a href="/t/{_e(t.row.id)}{"?token=" + _e(token) if token else ""}">back to the table</a>'
    body = (f'<header class="top"><h1>Replay — {_e(t.game.title)}</h1><p>{back}</p>{nav}'
            f'</header><main id="main" class="replay"><div class="play"><div class="board-area">'
            f'{scene}</div><aside class="log-box"><h2>Step {k}</h2>'
            f'<ol id="log" aria-live="polite">{log}</ol></aside></div></main>')
    return page(f"Replay — {t.game.title}", body, "replay.js", "replay-page")
