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
    syncStory();
    showInvites();
    layoutBoard();
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
    if (added) log.scrollTop = log.scrollHeight;
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
      if (back) back.focus({ preventScroll: true });
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

  // After an action, focus goes back to the board: the target nearest to where the pick was
  // (or the first choice of the action bar), never to the page's body.
  let pickedAt = null;
  function remember(el) {
    if (el && el.getBoundingClientRect) pickedAt = centre(el);
  }
  function refocus() {
    if (document.activeElement && document.activeElement !== document.body &&
        body.contains(document.activeElement)) return;
    const targets = Array.from(body.querySelectorAll(".board-area [data-target]"));
    let best = null, bestD = Infinity;
    if (pickedAt) {
      for (const el of targets) {
        const c = centre(el);
        const d = Math.hypot(c.x - pickedAt.x, c.y - pickedAt.y);
        if (d < bestD) { bestD = d; best = el; }
      }
    }
    best = best || targets[0] || body.querySelector(".bar button.act, .bar button:not([disabled])");
    if (best) best.focus({ preventScroll: true });
  }
  async function act(text) {
    closeChooser();
    const r = await post("actions", { action: text });
    refocus();
    return r;
  }

  function actionsFor(ref) {
    return actions.filter((a) => a.targets.some((t) => t.ref === ref));
  }

  function closeChooser() {
    chooser.hidden = true;
    chooser.innerHTML = "";
    if (lastFocus && document.body.contains(lastFocus)) lastFocus.focus();
  }

  function pick(el) {
    remember(el);
    const ref = el.dataset.target;
    const list = el.dataset.acts ? el.dataset.acts.split(" ").map((i) => actions[parseInt(i, 10)]).filter(Boolean)
                                 : actionsFor(ref);
    if (list.length === 1) { act(list[0].text); return; }
    if (!list.length) return;
    lastFocus = el;
    chooser.innerHTML = "";
    const h = document.createElement("p");
    h.textContent = (el.dataset.home || el.getAttribute("aria-label") || ref).split(":")[0] + ": choose one";
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
    if (dragged) { dragged = false; ev.preventDefault(); return; }
    const el = targetAt(ev);
    if (el) { ev.preventDefault(); pick(el); return; }
    const b = ev.target.closest("button");
    if (b && b.classList.contains("act")) { remember(b); act(b.dataset.action); return; }
    if (b && b.classList.contains("act-group")) { pick(b); return; }
    if (b && b.dataset.zoom) { zoomBy(b.dataset.zoom); return; }
    if (b && b.dataset.story) { storyStep(b.dataset.story); return; }
    if (b && b.dataset.copy !== undefined) { copy(b); return; }
    const li = ev.target.closest(".story-steps li");
    if (li) { storyShow(parseInt(li.dataset.n, 10)); return; }
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
    const typing = ev.target && ev.target.closest && ev.target.closest("input, select, textarea");
    if (!typing && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      if (ev.key === "+" || ev.key === "=") { ev.preventDefault(); zoomBy("in"); return; }
      if (ev.key === "-" || ev.key === "_") { ev.preventDefault(); zoomBy("out"); return; }
      if (ev.key === "0") { ev.preventDefault(); zoomBy("fit"); return; }
      if (ev.shiftKey && ev.key.startsWith("Arrow")) {
        ev.preventDefault();
        const d = 60;
        panBy(ev.key === "ArrowLeft" ? d : ev.key === "ArrowRight" ? -d : 0,
              ev.key === "ArrowUp" ? d : ev.key === "ArrowDown" ? -d : 0);
        return;
      }
    }
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
    for (const [s, tok] of Object.entries(mine.seats)) {
      if (s === seat) continue;
      const url = `${location.origin}/t/${tableId}?token=${tok}`;
      if (box.querySelector(`[data-copy="${CSS.escape(url)}"]`)) continue;
      const li = document.createElement("li");
      li.append(`Seat ${s}: `);
      const a = document.createElement("a");
      a.href = url; a.textContent = "link"; a.className = "link";
      const b = document.createElement("button");
      b.type = "button"; b.className = "copy"; b.dataset.copy = url; b.textContent = "Copy";
      b.setAttribute("aria-label", `copy the link for seat ${s}`);
      li.append(a, " ", b);
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


  // ---------------------------------------------------------------- the board: fit, zoom, pan
  // The boards are drawn at their natural size in .stage and scaled into .viewport: fitted by
  // default (the whole board in view), zoomed by the buttons, the wheel, a pinch or + - 0,
  // panned by dragging or Shift+arrows. Text the current scale would draw below 12 CSS px is
  // left out (.lod) until a zoom makes it legible; the same facts are in each target's name.
  const view = { s: null, x: 0, y: 0, fit: 1 };
  const phone = window.matchMedia("(max-width: 900px)");
  let dragged = false;
  function parts3() {
    const vp = body.querySelector(".viewport");
    const st = vp && vp.querySelector(".stage");
    return [vp, st];
  }
  function layoutBoard() {
    const [vp, st] = parts3();
    if (!vp || !st) return;
    const w = st.offsetWidth || 1, h = st.offsetHeight || 1;
    const cw = vp.parentElement.clientWidth;
    let fit;
    if (phone.matches) {
      const room = Math.max(200, window.innerHeight - vp.getBoundingClientRect().top - 8);
      fit = Math.min(cw / w, room / h, 2.2);
      vp.style.height = `${Math.ceil(h * fit)}px`;
    } else {
      vp.style.height = "";
      fit = Math.min(cw / w, (vp.clientHeight || 400) / h, 2.2);
    }
    view.fit = fit;
    if (view.s === null) {
      view.x = (vp.clientWidth - w * fit) / 2;
      view.y = phone.matches ? 0 : Math.max(0, (vp.clientHeight - h * fit) / 2);
    }
    apply();
  }
  function apply() {
    const [vp, st] = parts3();
    if (!vp || !st) return;
    const s = view.s === null ? view.fit : view.s;
    st.style.transform = `translate(${view.x}px, ${view.y}px) scale(${s})`;
    vp.classList.toggle("zoomed", view.s !== null && view.s > view.fit * 1.01);
    lod();
  }
  function zoomAt(factor, px, py) {
    const [vp] = parts3();
    if (!vp) return;
    const s0 = view.s === null ? view.fit : view.s;
    const s1 = Math.max(view.fit * 0.5, Math.min(view.fit * 6, s0 * factor));
    const r = vp.getBoundingClientRect();
    const cx = (px === undefined ? r.width / 2 : px - r.left), cy = (py === undefined ? r.height / 2 : py - r.top);
    view.x = cx - (cx - view.x) * s1 / s0;
    view.y = cy - (cy - view.y) * s1 / s0;
    view.s = s1;
    apply();
  }
  function zoomBy(how) {
    if (how === "fit") { view.s = null; layoutBoard(); return; }
    zoomAt(how === "in" ? 1.25 : 0.8);
  }
  function panBy(dx, dy) {
    if (view.s === null) view.s = view.fit;
    view.x += dx; view.y += dy;
    apply();
  }
  function lod() {
    for (const svgEl of body.querySelectorAll("svg[viewBox]")) {
      const vb = svgEl.viewBox.baseVal;
      const rw = svgEl.getBoundingClientRect().width;
      if (!vb || !vb.width || !rw) continue;
      const k = rw / vb.width;
      for (const t of svgEl.querySelectorAll("text")) {
        const fs = parseFloat(t.getAttribute("font-size") || "16");
        if (t.classList.contains("keep")) {
          // drawn at 12 px at least, whatever the zoom
          t.style.fontSize = fs * k < 12.2 ? `${(12.2 / k).toFixed(2)}px` : "";
          continue;
        }
        const small = fs * k < 11.95;
        t.classList.toggle("lod", small);
        // a label on its own backdrop (a health or cost tag) goes with its text
        if (t.parentNode.classList && t.parentNode.classList.contains("tag")) {
          t.parentNode.classList.toggle("lod", small);
        }
      }
    }
  }
  body.addEventListener("wheel", (ev) => {
    if (!ev.target.closest(".viewport")) return;
    ev.preventDefault();
    zoomAt(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX, ev.clientY);
  }, { passive: false });
  const pointers = new Map();
  let pinch = null, dragFrom = null;
  body.addEventListener("pointerdown", (ev) => {
    if (!ev.target.closest(".viewport")) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    dragged = false;
    if (pointers.size === 2) {
      const [a, b] = Array.from(pointers.values());
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y) || 1 };
      dragFrom = null;
    } else {
      dragFrom = { x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y };
    }
  });
  body.addEventListener("pointermove", (ev) => {
    if (!pointers.has(ev.pointerId)) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pinch && pointers.size === 2) {
      const [a, b] = Array.from(pointers.values());
      const d = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      zoomAt(d / pinch.d, (a.x + b.x) / 2, (a.y + b.y) / 2);
      pinch.d = d;
      dragged = true;
      return;
    }
    if (!dragFrom) return;
    const dx = ev.clientX - dragFrom.x, dy = ev.clientY - dragFrom.y;
    // a tap stays a tap; at the fitted size a touch drag scrolls the page instead
    if (!dragged && Math.hypot(dx, dy) < 8) return;
    if (view.s === null && ev.pointerType === "touch") return;
    dragged = true;
    if (view.s === null) view.s = view.fit;
    view.x = dragFrom.vx + dx; view.y = dragFrom.vy + dy;
    apply();
  });
  function lift(ev) {
    pointers.delete(ev.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!pointers.size) dragFrom = null;
  }
  document.addEventListener("pointerup", lift);
  document.addEventListener("pointercancel", lift);
  window.addEventListener("resize", () => { layoutBoard(); });
  phone.addEventListener("change", () => { view.s = null; layoutBoard(); });

  // ---------------------------------------------------------------- the last turn, step by step
  // The story of the last step that set automated steps off, one step at a time: the board
  // marks the cells and figures it names (from -> to).
  const storyBox = document.getElementById("story");
  let storyAt = -1;
  let storySeq = null;
  function syncStory() {
    if (!storyBox) return;
    const src = body.querySelector(".story-pane");
    const html = src ? src.innerHTML : "";
    if (storyBox.dataset.src === html) { storyMark(); return; }
    storyBox.dataset.src = html;
    storyBox.innerHTML = html;
    const ol = storyBox.querySelector(".story-steps");
    const seq = ol ? ol.dataset.seq : null;
    if (seq !== storySeq) { storySeq = seq; storyAt = -1; }
    storyMark();
  }
  function storyItems() { return storyBox ? Array.from(storyBox.querySelectorAll(".story-steps li")) : []; }
  function storyShow(n) { storyAt = n; storyMark(); }
  function storyStep(how) {
    const n = storyItems().length;
    if (!n) return;
    if (how === "all") storyAt = -1;
    else if (how === "next") storyAt = storyAt < 0 ? 0 : Math.min(n - 1, storyAt + 1);
    else storyAt = storyAt < 0 ? n - 1 : Math.max(0, storyAt - 1);
    storyMark();
  }
  function storyMark() {
    for (const el of body.querySelectorAll(".hl-from, .hl-to")) el.classList.remove("hl-from", "hl-to");
    const items = storyItems();
    const at = storyBox && storyBox.querySelector(".story-at");
    items.forEach((li, i) => li.classList.toggle("on", i === storyAt));
    if (at) at.textContent = storyAt < 0 ? `all ${items.length} steps` : `step ${storyAt + 1} of ${items.length}`;
    const shown = storyAt < 0 ? [] : [items[storyAt]];
    for (const li of shown) {
      if (!li) continue;
      li.scrollIntoView({ block: "nearest" });
      for (const [attr, cls] of [["from", "hl-from"], ["to", "hl-to"]]) {
        for (const name of (li.dataset[attr] || "").split(" ")) {
          if (!name) continue;
          for (const el of body.querySelectorAll(`.board-area [data-cell="${CSS.escape(name)}"], .board-area [data-tok="${CSS.escape(name)}"]`)) {
            el.classList.add(cls);
          }
        }
      }
    }
  }
  if (storyBox) storyBox.addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (b && b.dataset.story) { storyStep(b.dataset.story); return; }
    const li = ev.target.closest(".story-steps li");
    if (li) storyShow(parseInt(li.dataset.n, 10));
  });

  // ---------------------------------------------------------------- tabs (phone) and links
  for (const tab of document.querySelectorAll(".tabs [data-tab]")) {
    tab.addEventListener("click", () => {
      main.dataset.tab = tab.dataset.tab;
      for (const t of document.querySelectorAll(".tabs [data-tab]")) {
        t.setAttribute("aria-selected", t === tab ? "true" : "false");
      }
      if (tab.dataset.tab === "log") log.scrollTop = log.scrollHeight;
      layoutBoard();
    });
  }
  function copy(b) {
    const url = new URL(b.dataset.copy, location.href).href;
    const done = () => { b.textContent = "Copied"; setTimeout(() => { b.textContent = "Copy"; }, 2000); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, () => window.prompt("Copy this link", url));
    else window.prompt("Copy this link", url);
  }

  for (const p of stateEl().querySelectorAll("[data-part]")) parts.set(p.dataset.part, p.outerHTML);
  adopt();
  log.scrollTop = log.scrollHeight;
  settle();
  connect();
})();
