// The lobby: pick a game and its setup, start a table, keep its seat links on this device.
"use strict";
(function () {
  const GAMES = JSON.parse(document.getElementById("games-json").textContent);
  const form = document.getElementById("new-game");
  const gameSel = document.getElementById("game");
  const scenSel = document.getElementById("scenario");
  const heroesBox = document.getElementById("heroes");
  const extra = document.getElementById("extra");
  const msg = document.getElementById("new-msg");

  function known() {
    try { return JSON.parse(localStorage.getItem("meadhall.tables") || "{}"); } catch (e) { return {}; }
  }

  function current() { return GAMES.find((g) => g.id === gameSel.value); }

  // The heroes in the order they were ticked (the default party's order to begin with).
  let order = [];
  function numberHeroes() {
    for (const n of heroesBox.querySelectorAll(".hero-n")) {
      const i = order.indexOf(n.dataset.hero);
      n.textContent = i < 0 ? "" : String(i + 1);
      n.hidden = i < 0;
    }
  }

  function fill() {
    const g = current();
    scenSel.innerHTML = "";
    for (const s of g.scenarios) {
      const o = document.createElement("option");
      o.value = s.id;
      o.textContent = s.name + (s.note ? ` (${s.note})` : "");
      if (s.id === g.setup.scenario) o.selected = true;
      scenSel.appendChild(o);
    }
    heroesBox.innerHTML = "<legend>Heroes <small>(in the order you tick them: the turn order)</small></legend>";
    order = (g.setup.heroes || []).slice();
    for (const h of g.heroes) {
      const l = document.createElement("label");
      const c = document.createElement("input");
      c.type = "checkbox"; c.name = "hero"; c.value = h.id; c.checked = order.includes(h.id);
      c.addEventListener("change", () => {
        order = order.filter((x) => x !== h.id);
        if (c.checked) order.push(h.id);
        numberHeroes();
      });
      const n = document.createElement("span");
      n.className = "hero-n"; n.dataset.hero = h.id;
      l.appendChild(c);
      l.appendChild(n);
      l.appendChild(document.createTextNode(" " + h.name));
      heroesBox.appendChild(l);
    }
    numberHeroes();
    heroesBox.hidden = !g.heroes.length;
    extra.innerHTML = "";
    for (const [k, v] of Object.entries(g.setup)) {
      if (k === "scenario" || k === "heroes") continue;
      const l = document.createElement("label");
      const i = document.createElement("input");
      i.name = k; i.dataset.key = k;
      if (typeof v === "boolean") { i.type = "checkbox"; i.checked = v; }
      else if (typeof v === "number") { i.type = "number"; i.value = v; i.dataset.kind = "number"; }
      else if (v === null) { i.type = "number"; i.min = "1"; i.placeholder = "usual"; i.dataset.kind = "optional"; }
      else if (Array.isArray(v) || (v && typeof v === "object")) { i.type = "text"; i.value = JSON.stringify(v); i.dataset.kind = "json"; }
      else { i.type = "text"; i.value = v == null ? "" : v; }
      const text = (g.help && g.help[k]) || k;
      i.id = "setup-" + k;
      if (i.type === "checkbox") { l.appendChild(i); l.appendChild(document.createTextNode(" " + text)); }
      else { l.appendChild(document.createTextNode(text + " ")); l.appendChild(i); }
      extra.appendChild(l);
    }
  }

  gameSel.addEventListener("change", fill);
  fill();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    msg.textContent = "";
    const g = current();
    const setup = { scenario: scenSel.value };
    if (g.heroes.length) setup.heroes = order.slice();
    for (const i of extra.querySelectorAll("input")) {
      if (i.type === "checkbox") setup[i.dataset.key] = i.checked;
      else if (i.dataset.kind === "number") setup[i.dataset.key] = Number(i.value);
      else if (i.dataset.kind === "optional") { if (i.value !== "") setup[i.dataset.key] = Number(i.value); }
      else if (i.dataset.kind === "json") { try { setup[i.dataset.key] = JSON.parse(i.value); } catch (e) { msg.textContent = `${i.dataset.key}: not valid JSON`; return; } }
      else setup[i.dataset.key] = i.value;
    }
    const seed = document.getElementById("seed").value;
    const payload = {
      game: g.id, setup: setup,
      practice: document.getElementById("practice").checked,
      table_mode: document.getElementById("table_mode").checked,
      auto_choices: !document.getElementById("ask_us").checked,
      one_page: document.getElementById("one_page").checked,
    };
    if (seed !== "") payload.seed = Number(seed);
    const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
                                           body: JSON.stringify(payload) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { msg.textContent = data.detail || `Refused (${r.status})`; return; }
    const all = known();
    const first = Object.keys(data.seats)[0];
    const names = data.names || {};
    all[data.id] = { game: g.id, title: g.title, seats: data.seats, mine: data.seats[first], seat: first,
                     seatName: names[first] || first };
    localStorage.setItem("meadhall.tables", JSON.stringify(all));
    const box = document.getElementById("invite-links");
    box.innerHTML = "";
    for (const [s, url] of Object.entries(data.links)) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = url; a.textContent = `Seat of ${names[s] || s}`; a.className = "seat-link";
      li.appendChild(a);
      li.appendChild(document.createTextNode(` — ${url}`));
      box.appendChild(li);
    }
    const li = document.createElement("li");
    li.textContent = `Spectators: ${data.spectator}`;
    box.appendChild(li);
    document.getElementById("invite").hidden = false;
    location.href = data.links[first];
  });

  // Tables this device holds seats at open at the seat. The page lists the public tables;
  // the server lists this device's own only to whoever shows one of their seat tokens.
  const mine = known();
  function markMine() {
    for (const li of document.querySelectorAll("#recent li[data-table]")) {
      const t = mine[li.dataset.table];
      if (t && t.mine) {
        const a = li.querySelector("a");
        a.href = `/t/${li.dataset.table}?token=${encodeURIComponent(t.mine)}`;
        a.classList.remove("spectate");
        li.querySelector(".mine").textContent = ` · your seat: ${t.seatName || t.seat}`;
      }
    }
  }
  markMine();
  const tokens = Object.values(mine).flatMap((t) => Object.values((t && t.seats) || {}));
  if (tokens.length) {
    fetch("/api/tables", { headers: { "X-Meadhall-Seats": tokens.join(",") } })
      .then((r) => (r.ok ? r.json() : []))
      .then((rows) => {
        const list = document.getElementById("recent");
        for (const r of rows) {
          if (list.querySelector(`li[data-table="${CSS.escape(r.id)}"]`)) continue;
          const empty = list.querySelector("li:not([data-table])");
          if (empty) empty.remove();
          const li = document.createElement("li");
          li.dataset.table = r.id;
          const a = document.createElement("a");
          a.className = "spectate";
          a.href = `/t/${r.id}`;
          a.textContent = r.title;
          li.appendChild(a);
          const campaign = r.setup && r.setup.campaign ? " · campaign" : "";
          li.appendChild(document.createTextNode(
            ` — ${(r.setup && r.setup.scenario) || ""}${campaign} · ${r.result} · step ${r.version}`));
          const m = document.createElement("span");
          m.className = "mine";
          li.appendChild(m);
          list.appendChild(li);
        }
        markMine();
      })
      .catch(() => {});
  }

  document.getElementById("join").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const v = document.getElementById("join-link").value.trim();
    if (!v) return;
    try { const u = new URL(v, location.href); location.href = u.pathname + u.search; } catch (e) { /* invalid */ }
  });

  document.getElementById("import").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = document.getElementById("import-msg");
    const f = document.getElementById("import-file").files[0];
    if (!f) { out.textContent = "Choose a save file first."; return; }
    let text = await f.text();
    const r = await fetch("/api/tables/import", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { out.textContent = data.detail || `Refused (${r.status})`; return; }
    const all = known();
    const first = Object.keys(data.seats)[0];
    all[data.id] = { seats: data.seats, mine: data.seats[first], seat: first };
    localStorage.setItem("meadhall.tables", JSON.stringify(all));
    location.href = data.links[first];
  });
})();
