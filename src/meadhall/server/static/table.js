// The table page: clicks and keys pick actions, the live socket keeps every device in step.
"use strict";
(function () {
  const main = document.getElementById("main");
  const tableId = main.dataset.table;
  const token = main.dataset.token || "";
  const seat = main.dataset.seat || "";
  const body = document.getElementById("table-body");
  const log = document.getElementById("log");
  const chooser = document.getElementById("chooser");
  const info = document.getElementById("info");
  const net = document.getElementById("net");
  let version = -1;
  let actions = [];
  let busy = false;
  let socket = null;
  let retry = 0;
  let lastFocus = null;

  function stateEl() { return document.getElementById("state"); }

  function message(text) {
    const m = document.getElementById("msg");
    if (m) m.textContent = text || "";
  }

  function adopt() {
    const st = stateEl();
    version = parseInt(st.dataset.version, 10);
    main.dataset.version = String(version);
    const js = document.getElementById("actions-json");
    actions = js ? JSON.parse(js.textContent) : [];
    syncLog();
    showInvites();
  }

  function syncLog() {
    const src = document.getElementById("log-src");
    if (!src) return;
    const have = new Map();
    for (const li of log.children) have.set(li.dataset.seq, li);
    let added = false;
    for (const li of Array.from(src.children)) {
      const old = have.get(li.dataset.seq);
      if (old) {
        if (old.className !== li.className) old.replaceWith(li.cloneNode(true));
      } else {
        log.appendChild(li.cloneNode(true));
        added = true;
      }
    }
    // the log shows what the server sends (its last steps), so a reload shows the same log:
    // entries of a rebuilt history (another device's undo) and steps older than the window go
    const keep = new Set(Array.from(src.children).map((li) => li.dataset.seq));
    for (const li of Array.from(log.children)) {
      if (!keep.has(li.dataset.seq)) li.remove();
    }
    if (added) log.parentElement.scrollTop = log.parentElement.scrollHeight;
  }

  // One fetch at a time; a request made meanwhile runs once after it. A fragment whose digest
  // is the one shown is not put back, and only its changed parts are swapped, so nothing under
  // the pointer or the keyboard moves for nothing. While a pointer is pressed on the table the
  // swap waits for the release, so a click never lands on a board that was replaced under it.
  let inflight = null;
  let again = false;
  let deferred = null;
  let pressing = false;
  let pressTimer = null;
  const parts = new Map();  // data-part name -> the HTML it was last drawn from

  function settle() {
    main.dataset.idle = inflight || busy || deferred !== null ? "0" : "1";
  }

  function refresh() {
    if (inflight) { again = true; return inflight; }
    inflight = doRefresh().finally(() => {
      inflight = null;
      if (again) { again = false; refresh(); } else settle();
    });
    settle();
    return inflight;
  }

  async function doRefresh() {
    const r = await fetch(`/t/${tableId}/fragment${token ? "?token=" + encodeURIComponent(token) : ""}`,
                          { cache: "no-store" });
    if (!r.ok) { message(`Could not load the table (${r.status})`); return; }
    show(await r.text());
  }

  function show(html) {
    if (pressing) { deferred = html; settle(); return; }
    deferred = null;
    const tpl = document.createElement("template");
    tpl.innerHTML = html;
    const fresh = tpl.content.getElementById("state");
    const old = stateEl();
    if (!fresh) return;
    if (old && fresh.dataset.digest === old.dataset.digest) return;
    const focused = document.activeElement && document.activeElement.dataset
      ? (document.activeElement.dataset.target || document.activeElement.dataset.action || document.activeElement.id)
      : null;
    const newVersion = fresh.dataset.version !== (old && old.dataset.version);
    const freshParts = Array.from(fresh.querySelectorAll("[data-part]"));
    const same = old && freshParts.length === old.querySelectorAll("[data-part]").length &&
      freshParts.every((p) => old.querySelector(`[data-part="${p.dataset.part}"]`));
    if (!same) {
      body.replaceChildren(fresh);
      parts.clear();
      for (const p of freshParts) parts.set(p.dataset.part, p.outerHTML);
    } else {
      for (const a of Array.from(old.attributes)) if (!fresh.hasAttribute(a.name)) old.removeAttribute(a.name);
      for (const a of Array.from(fresh.attributes)) old.setAttribute(a.name, a.value);
      for (const p of freshParts) {
        const src = p.outerHTML;
        if (parts.get(p.dataset.part) === src) continue;
        old.querySelector(`[data-part="${p.dataset.part}"]`).replaceWith(p);
        parts.set(p.dataset.part, src);
      }
      if (newVersion) message("");
    }
    // a menu of choices made on an older version would only be refused
    if (newVersion && !chooser.hidden) closeChooser();
    adopt();
    if (focused && !body.contains(document.activeElement)) {
      const back = body.querySelector(`[data-target="${CSS.escape(focused)}"], [data-action="${CSS.escape(focused)}"], #${CSS.escape(focused)}`);
      if (back) back.focus();
    }
  }

  function press() {
    pressing = true;
    clearTimeout(pressTimer);
    // a press that never ends (a pointer dragged out of the window) must not freeze the table
    pressTimer = setTimeout(release, 4000);
  }
  function release() {
    if (!pressing) return;
    // after the click that this release makes has been handled
    setTimeout(() => {
      pressing = false;
      clearTimeout(pressTimer);
      if (deferred !== null) show(deferred);
      settle();
    }, 0);
  }
  body.addEventListener("pointerdown", press);
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", release);

  async function post(path, payload) {
    if (busy) return null;
    busy = true;
    settle();
    try {
      const r = await fetch(`/api/tables/${tableId}/${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Authorization": `Bearer ${token}` },
        body: JSON.stringify(Object.assign({ version: version }, payload)),
      });
      const data = await r.json().catch(() => ({}));
      if (r.status === 409) {
        await refresh();
        message("The table moved on before your choice arrived: here is what it looks like now. " +
                "Choose again.");
        return null;
      }
      if (!r.ok) { message(data.detail || `Refused (${r.status})`); return null; }
      await refresh();
      return data;
    } catch (e) {
      message("No connection to the table: your choice was not sent. It will resync when the " +
              "connection is back.");
      return null;
    } finally {
      busy = false;
      settle();
    }
  }

  // A result drawn with the question's odds, from the browser's cryptographic generator.
  function rollWithOdds(odds) {
    const u = crypto.getRandomValues(new Uint32Array(1))[0] / 4294967296;
    let acc = 0;
    for (const [result, chance] of odds) {
      acc += chance;
      if (u < acc) return result;
    }
    return odds[odds.length - 1][0];
  }

  function act(text) { closeChooser(); return post("actions", { action: text }); }

  function actionsFor(ref) {
    return actions.filter((a) => a.targets.some((t) => t.ref === ref));
  }

  function closeChooser() {
    chooser.hidden = true;
    chooser.innerHTML = "";
    if (lastFocus && document.body.contains(lastFocus)) lastFocus.focus();
  }

  function pick(el) {
    const ref = el.dataset.target;
    const list = actionsFor(ref);
    if (list.length === 1) { act(list[0].text); return; }
    if (!list.length) return;
    lastFocus = el;
    chooser.innerHTML = "";
    const h = document.createElement("p");
    h.textContent = (el.getAttribute("aria-label") || ref).split(":")[0] + ": choose one";
    chooser.appendChild(h);
    for (const a of list) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = a.label;
      b.dataset.action = a.text;
      b.addEventListener("click", () => act(a.text));
      chooser.appendChild(b);
    }
    const c = document.createElement("button");
    c.type = "button";
    c.textContent = "Cancel";
    c.addEventListener("click", closeChooser);
    chooser.appendChild(c);
    chooser.hidden = false;
    chooser.querySelector("button").focus();
  }

  function showInfo(el) {
    const text = el.dataset.info || el.getAttribute("aria-label");
    if (!text) return;
    info.textContent = text;
    info.hidden = false;
    clearTimeout(showInfo.t);
    showInfo.t = setTimeout(() => { info.hidden = true; }, 6000);
  }

  // A figure drawn over a square must not hide the square's action: look underneath it.
  function targetAt(ev) {
    const el = ev.target.closest("[data-target]");
    if (el) return el;
    if (!ev.target.closest("svg")) return null;
    for (const under of document.elementsFromPoint(ev.clientX, ev.clientY)) {
      const t = under.closest && under.closest("[data-target]");
      if (t && body.contains(t)) return t;
    }
    return null;
  }

  body.addEventListener("click", (ev) => {
    const el = targetAt(ev);
    if (el) { ev.preventDefault(); pick(el); return; }
    const b = ev.target.closest("button");
    if (b && b.classList.contains("act")) { act(b.dataset.action); return; }
    if (b && b.classList.contains("seat-btn")) {
      const holder = b.dataset.fromSelect ? b.parentElement.querySelector("select").value : b.dataset.holder;
      post(`seats/${encodeURIComponent(b.dataset.seat)}`, { holder: holder });
      return;
    }
    if (b && b.id === "roll-for-me") { act("result " + rollWithOdds(JSON.parse(b.dataset.odds))); return; }
    if (b && b.id === "undo") { post("undo", {}); return; }
    if (b && b.id === "agree") { post("undo/answer", { agree: true }); return; }
    if (b && b.id === "decline") { post("undo/answer", { agree: false }); return; }
    if (b && b.id === "concede") {
      if (window.confirm("Concede this game? It ends as a loss.")) post("concede", { reason: "" });
      return;
    }
    const info_el = ev.target.closest("[data-info], [data-ref]");
    if (info_el) showInfo(info_el);
  });

  // Arrow keys move to the nearest clickable target in that direction; Enter or Space picks.
  function centre(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }
  function nearest(from, dir) {
    const c = centre(from);
    let best = null, bestScore = Infinity;
    for (const el of body.querySelectorAll("[data-target]")) {
      if (el === from) continue;
      const p = centre(el);
      const dx = p.x - c.x, dy = p.y - c.y;
      const along = dir === "ArrowRight" ? dx : dir === "ArrowLeft" ? -dx : dir === "ArrowDown" ? dy : -dy;
      const across = dir === "ArrowRight" || dir === "ArrowLeft" ? Math.abs(dy) : Math.abs(dx);
      if (along <= 1) continue;
      const score = along + across * 2;
      if (score < bestScore) { bestScore = score; best = el; }
    }
    return best;
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !chooser.hidden) { closeChooser(); return; }
    const el = document.activeElement;
    if (!el || !el.dataset || !el.dataset.target) {
      if (ev.key.startsWith("Arrow") && ev.target === document.body) {
        const first = body.querySelector("[data-target]");
        if (first) { ev.preventDefault(); first.focus(); }
      }
      return;
    }
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(el); return; }
    if (ev.key.startsWith("Arrow")) {
      const next = nearest(el, ev.key);
      if (next) { ev.preventDefault(); next.focus(); showInfo(next); }
    }
  });
  // Keyboard focus names the target; a mouse click or a tap on it acts instead.
  body.addEventListener("focusin", (ev) => {
    const el = ev.target.closest && ev.target.closest("[data-target]");
    if (el && el.matches(":focus-visible")) showInfo(el);
  });

  // Seat links this device knows (the lobby stored them when it created the table).
  function showInvites() {
    const box = document.getElementById("invite-here");
    if (!box) return;
    let known = {};
    try { known = JSON.parse(localStorage.getItem("meadhall.tables") || "{}"); } catch (e) { known = {}; }
    const mine = known[tableId];
    if (token) {
      known[tableId] = Object.assign(mine || { seats: {} }, { mine: token, seat: seat });
      known[tableId].seats = Object.assign(known[tableId].seats || {}, { [seat]: token });
      localStorage.setItem("meadhall.tables", JSON.stringify(known));
    }
    if (!mine || !mine.seats) return;
    box.innerHTML = "";
    for (const [s, tok] of Object.entries(mine.seats)) {
      if (s === seat) continue;
      const li = document.createElement("li");
      li.textContent = `Link for seat ${s}: ${location.origin}/t/${tableId}?token=${tok}`;
      box.appendChild(li);
    }
  }

  // Live updates: the socket reports versions; a dropped socket reconnects and resyncs.
  function connect() {
    if (socket && (socket.readyState === 0 || socket.readyState === 1)) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${proto}://${location.host}/api/tables/${tableId}/live${token ? "?token=" + encodeURIComponent(token) : ""}`);
    socket.onopen = () => { retry = 0; net.textContent = ""; main.dataset.live = "1"; };
    socket.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (typeof m.version === "number" && (m.version !== version || m.presence)) refresh();
    };
    socket.onclose = () => {
      main.dataset.live = "0";
      net.textContent = navigator.onLine ? "Reconnecting to the table…" : "Offline: waiting for the connection…";
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 300 * retry);
    };
  }
  window.addEventListener("online", () => { net.textContent = "Back online: resyncing…"; connect(); refresh().then(() => { net.textContent = ""; }); });
  window.addEventListener("offline", () => { net.textContent = "Offline: waiting for the connection…"; if (socket) socket.close(); });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });

  for (const p of stateEl().querySelectorAll("[data-part]")) parts.set(p.dataset.part, p.outerHTML);
  adopt();
  settle();
  connect();
})();
