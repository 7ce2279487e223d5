// The page of `samurai serve`: start a game, play a seat by clicking, replay a game.
// It knows no game's rules: the server sends each seat its picture (SVG), a summary,
// and for each legal action the keys to click in order (see samurai/web/games.py).
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

async function api(path, options = {}) {
  const response = await fetch(path, options);
  let body = null;
  try { body = await response.json(); } catch (_) { body = null; }
  if (!response.ok) {
    const error = new Error((body && body.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return body;
}

function seatName(seat, seats) {
  const info = seats[seat];
  if (!info) return `Seat ${seat}`;
  if (info.you) return `Seat ${seat} (you)`;
  if (info.kind === "bot") return `Seat ${seat} · ${info.bot}`;
  if (info.kind === "record") return `Seat ${seat}`;
  return `Seat ${seat} · person`;
}

// --- the home page ---------------------------------------------------------------------

async function showHome() {
  $("home").hidden = false;
  const catalog = await api("/api/catalog");
  // Every served game's editions in one list; choosing an edition chooses its game (and the bots that play it).
  let game = catalog.games[0];
  const editionSelect = $("edition");
  const byKey = {};
  for (const served of catalog.games) {
    for (const edition of served.editions) {
      const value = `${served.game}/${edition.key}`;
      byKey[value] = { ...edition, game: served };
      editionSelect.append(el("option", { value }, edition.title));
    }
  }
  const playersSelect = $("players");

  function seatRows() {
    const count = Number(playersSelect.value);
    const box = $("seat-choices");
    const previous = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren();
    for (let seat = 0; seat < count; seat++) {
      const thinks = (byKey[editionSelect.value].bot_seconds || {});
      const select = el("select", { name: `seat-${seat}`, id: `seat-${seat}` },
        el("option", { value: "human" }, "a person"),
        ...game.bots.map((bot) => el("option", { value: bot }, `${bot} bot${thinking(thinks[bot], count)}`)));
      select.value = previous[seat] || (seat === 0 ? "human" : game.bots.includes("greedy") ? "greedy" : game.bots[0]);
      box.append(el("label", { class: "seat-choice" }, el("span", { class: `swatch seat-${seat}` }), `Seat ${seat}`, select));
    }
  }
  // How long a bot typically thinks per move with this many players (measured; see docs/strength.md).
  function thinking(byPlayers, count) {
    const seconds = byPlayers && byPlayers[String(count)];
    if (seconds === undefined) return "";
    if (seconds < 0.01) return " · instant";
    if (seconds < 1) return ` · ~${seconds.toFixed(2)} s a move`;
    return ` · ~${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s a move`;
  }
  function editionChanged() {
    const edition = byKey[editionSelect.value];
    game = edition.game;
    offerRules(game.rules);
    $("edition-description").textContent = edition.description;
    optionFields(edition.options || []);
    const current = Number(playersSelect.value) || 2;
    playersSelect.replaceChildren(...edition.players.map((n) => el("option", { value: n }, `${n} players`)));
    playersSelect.value = edition.players.includes(current) ? current : edition.players[0];
    seatRows();
  }
  editionSelect.addEventListener("change", editionChanged);
  playersSelect.addEventListener("change", seatRows);
  editionChanged();

  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const seats = [...$("seat-choices").querySelectorAll("select")].map((s) => s.value);
    const body = { game: game.game, edition: byKey[editionSelect.value].key, seats };
    const options = chosenOptions(byKey[editionSelect.value].options || []);
    if (Object.keys(options).length) body.options = options;
    if ($("allow-hints").checked) body.hints = true;
    const seed = $("seed").value.trim();
    let text = JSON.stringify(body);
    if (seed !== "") {
      if (!/^[0-9]{1,19}$/.test(seed)) { alert("The seed is a whole number from 0 to 2**63-1."); return; }
      // Written as typed: JSON.stringify of a Number would round a seed above 2**53.
      text = `${text.slice(0, -1)},"seed":${seed.replace(/^0+(?=[0-9])/, "")}}`;
    }
    try {
      const created = await api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
        body: text });
      const links = $("links");
      links.replaceChildren();
      for (const seat of created.seats) {
        if (!seat.link) {
          links.append(el("li", {}, el("span", { class: `swatch seat-${seat.seat}` }), `Seat ${seat.seat}: ${seat.bot} bot`));
          continue;
        }
        const url = new URL(seat.link, location.href).href;
        const copy = el("button", { type: "button", class: "small" }, "copy link");
        copy.addEventListener("click", async () => {
          try { await navigator.clipboard.writeText(url); copy.textContent = "copied"; } catch (_) { copy.textContent = "select and copy the link"; }
        });
        links.append(el("li", {}, el("span", { class: `swatch seat-${seat.seat}` }),
          el("a", { href: seat.link, class: "seat-link", "data-seat": seat.seat }, `Play seat ${seat.seat}`), " ", copy));
      }
      $("created").hidden = false;
    } catch (error) {
      alert(error.message);
    }
  });

  $("record-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      const opened = await api("/api/records", { method: "POST", headers: { "Content-Type": "application/json" },
        body: await file.text() });
      location.href = `/replay/${opened.game}`;
    } catch (error) {
      alert(`This record cannot be opened: ${error.message}`);
    }
  });

  const finished = await api("/api/games");
  const body = $("finished").querySelector("tbody");
  for (const entry of finished.games) {
    const result = entry.summary && entry.summary.result;
    const winners = result ? result.winners.map((w) => `seat ${w}`).join(" and ") + " won" : "not finished";
    const seats = entry.seats.map((s, n) => (s.kind === "bot" ? s.bot : s.kind === "human" ? "person" : `seat ${n}`)).join(", ");
    body.append(el("tr", {}, el("td", {}, entry.id + (entry.imported ? " (opened)" : "")),
      el("td", {}, entry.setup.edition), el("td", {}, seats), el("td", {}, entry.moves), el("td", {}, winners),
      el("td", {}, el("a", { href: `/replay/${entry.id}` }, "replay"))));
  }
  $("no-finished").hidden = finished.games.length > 0;
}

// --- the board picture -------------------------------------------------------------------

function placeSvg(container, svg) {
  container.innerHTML = svg;
  const picture = container.querySelector("svg");
  if (picture) {
    // The picture scales to its card; on a narrow screen it keeps its natural width (hexes a finger wide) and the
    // card scrolls (style.css).
    picture.style.setProperty("--natural-width", `${picture.getAttribute("width")}px`);
    picture.removeAttribute("width");
    picture.removeAttribute("height");
  }
  return picture;
}

// The key to the board's symbols (the game's own small picture), beside the board; drawn again only if it changed.
function showKey(card, container, svg) {
  card.hidden = !svg;
  if (svg && container.dataset.svg !== svg) {
    container.dataset.svg = svg;
    container.innerHTML = svg;
  }
}

function hexPolygon(picture, col, row) {
  return picture.querySelector(`[data-col="${col}"][data-row="${row}"]`);
}

// The figure (an element with data-piece) standing in the hex at col,row.
function pieceElement(picture, col, row, name) {
  const hex = hexPolygon(picture, col, row);
  if (!hex) return null;
  const x = Number(hex.dataset.x), y = Number(hex.dataset.y);
  for (const piece of picture.querySelectorAll(`[data-piece="${name}"]`)) {
    const box = piece.getBBox();
    if (Math.abs(box.x + box.width / 2 - x) < 22 && Math.abs(box.y + box.height / 2 - y) < 22) return piece;
  }
  return null;
}

function outline(picture, shape, className) {
  const copy = shape.cloneNode(false);
  copy.removeAttribute("id");
  for (const name of Object.keys(copy.dataset)) delete copy.dataset[name];
  copy.setAttribute("class", className);
  copy.removeAttribute("fill");
  copy.removeAttribute("stroke");
  copy.removeAttribute("stroke-width");
  let layer = picture.querySelector("#page-highlights");
  if (!layer) {
    layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
    layer.id = "page-highlights";
    picture.append(layer);
  }
  layer.append(copy);
  return copy;
}

// --- playing a seat ----------------------------------------------------------------------

const play = { game: null, token: null, payload: null, chosen: [], source: null, posting: false, seenLog: -1,
  focus: null };

function authHeaders() {
  return { Authorization: `Bearer ${play.token}` };
}

async function showPlay(gameId) {
  $("play").hidden = false;
  play.game = gameId;
  play.token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!play.token) {
    $("headline").textContent = "This link has no seat token: open the link you were given for your seat.";
    return;
  }
  $("board").addEventListener("click", boardClicked);
  $("ask-hint").addEventListener("click", askHint);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") choose(null); });
  document.addEventListener("keydown", keyboardPlay);
  try {
    showPayload(await api(`/api/games/${gameId}/page`, { headers: authHeaders() }));
  } catch (error) {
    $("headline").textContent = error.message;
    return;
  }
  listen();
}

function listen() {
  const source = new EventSource(`/api/games/${play.game}/events?token=${encodeURIComponent(play.token)}`);
  play.source = source;
  source.addEventListener("update", (event) => showPayload(JSON.parse(event.data)));
  source.addEventListener("open", () => document.body.classList.remove("offline"));
  source.addEventListener("error", () => document.body.classList.add("offline"));
}

function showPayload(payload) {
  if (play.payload && payload.move_number < play.payload.move_number) return;  // an older update arriving late
  const moved = !play.payload || payload.move_number !== play.payload.move_number;
  play.payload = payload;
  offerRules(payload.rules);
  if (moved) play.chosen = [];
  const status = payload.status;
  $("headline").textContent = status.headline;
  const turn = $("turn-note");
  if (payload.over) {
    turn.textContent = "";
  } else if (payload.bot_error) {
    turn.textContent = payload.bot_error;
    turn.className = "turn-note failed";
  } else if (payload.to_act === payload.seat) {
    turn.textContent = "Your turn";
    turn.className = "turn-note yours";
  } else if (payload.seats[payload.to_act] && payload.seats[payload.to_act].kind === "bot") {
    turn.textContent = `${seatName(payload.to_act, payload.seats)} is thinking…`;
    turn.className = "turn-note thinking";
  } else {
    turn.textContent = `Waiting for ${seatName(payload.to_act, payload.seats)}…`;
    turn.className = "turn-note waiting";
  }
  document.title = `${payload.to_act === payload.seat && !payload.over ? "● " : ""}Samurai · ${status.headline}`;
  placeSvg($("board"), payload.svg);
  showSeats($("seats"), $("facts"), status, payload.seats);
  showKey($("key-card"), $("key"), payload.key);
  showLog(payload.log);
  showResult(payload);
  showHintSetting(payload);
  showControls();
}

// --- hints ------------------------------------------------------------------------------------

// Whether the game allows hints is shown to every seat; the button only to the seat to act.
function showHintSetting(payload) {
  $("hints-note").textContent = payload.hints ? "Hints are allowed in this game, for every seat."
    : "Hints are off in this game.";
  $("hint-box").hidden = !(payload.hints && payload.to_act === payload.seat && !payload.over);
  if (play.hintFor !== payload.move_number) {
    play.hintFor = null;
    $("hint-list").replaceChildren();
  }
}

function percent(chance) {
  return `${Math.round(chance * 100)}%`;
}

async function askHint() {
  const payload = play.payload;
  if (!payload || !payload.hints || payload.to_act !== payload.seat || payload.over || play.asking) return;
  const button = $("ask-hint");
  play.asking = true;
  button.disabled = true;
  button.textContent = "Thinking…";
  try {
    const hint = await api(`/api/games/${play.game}/hint`, { method: "POST", headers: authHeaders() });
    if (!play.payload || hint.move_number !== play.payload.move_number) return;  // the game moved on meanwhile
    play.hintFor = hint.move_number;
    $("hint-list").replaceChildren(...hint.moves.map((move) => el("li", {},
      el("button", { type: "button", class: "hint-move", onclick: () => showHintMove(move.action) },
        move.words, move.chance === null ? "" : el("span", { class: "chance" },
          ` · your chance ${percent(move.chance)}`)))));
  } catch (error) {
    const box = $("error");
    box.textContent = error.message;
    box.hidden = false;
  } finally {
    play.asking = false;
    button.disabled = false;
    button.textContent = "Hint";
  }
}

// A hint's move shown as the page shows a move being clicked: every click but the last made, the last one marked.
function showHintMove(action) {
  const path = play.payload.controls.paths.find((p) => p.action.length === action.length
    && p.action.every((value, i) => value === action[i]));
  if (!path) return;
  play.chosen = path.keys.slice(0, -1);
  play.focus = path.keys[path.keys.length - 1];
  showControls();
  for (const button of document.querySelectorAll("#tray [data-key], #buttons [data-key]")) {
    button.classList.toggle("suggested", button.dataset.key === play.focus);
  }
  // On a phone the board scrolls in its card: the hinted place comes into sight, and the card into the window.
  const picture = $("board").querySelector("svg");
  if (picture) keepInView($("board"), picture.querySelectorAll("#page-highlights .focused"), true);
}

function showSeats(table, facts, status, seats) {
  table.replaceChildren(el("thead", {}, el("tr", {}, el("th", {}, ""), ...status.columns.map((c) => el("th", {}, c)))));
  const body = el("tbody");
  status.rows.forEach((cells, seat) => {
    const row = el("tr", { class: seat === status.to_act ? "to-act" : "" },
      el("th", { title: seatName(seat, seats) }, el("span", { class: `swatch seat-${seat}` }), seatName(seat, seats)),
      ...cells.map((c) => (c === "hidden" ? el("td", { class: "muted", title: "hidden behind a screen" }, "?")
        : el("td", {}, c))));
    body.append(row);
  });
  table.append(body);
  facts.replaceChildren(...status.facts.map(([label, text]) => el("li", {}, el("b", {}, `${label}: `), text)));
}

function showLog(entries) {
  const list = $("log");
  list.replaceChildren();
  const fresh = [];
  for (const entry of [...entries].reverse()) {
    const [first, ...rest] = entry.lines;
    const item = el("li", { value: entry.move + 1 }, el("span", {}, first));
    if (rest.length) item.append(el("ul", { class: "effects" }, ...rest.map((line) => el("li", {}, line))));
    list.append(item);
    if (play.seenLog >= 0 && entry.move > play.seenLog) fresh.push(...rest);
  }
  if (entries.length) play.seenLog = Math.max(play.seenLog, entries[entries.length - 1].move);
  // Captures and removals pop up as they happen (the last few only, when a bot's whole turn arrives at once); once
  // the game is over the result says it all, so no note pops up and those still up go.
  if (play.payload && play.payload.over) {
    $("toasts").replaceChildren();
    return;
  }
  for (const line of fresh.filter((l) => /captur|removed|ends/.test(l)).slice(-3)) toast(line);
}

const MAX_TOASTS = 3;

function toast(text) {
  const note = el("div", { class: "toast" }, text);
  const shelf = $("toasts");
  shelf.append(note);
  while (shelf.children.length > MAX_TOASTS) shelf.firstElementChild.remove();  // the newest stay, no pile
  setTimeout(() => note.remove(), 5000);
}

function showResult(payload) {
  const result = payload.status.result;
  $("result").hidden = !result;
  if (!result) return;
  const names = result.winners.map((w) => seatName(w, payload.seats));
  const you = result.winners.includes(payload.seat);
  $("winner").textContent = you ? (result.winners.length > 1 ? "You share the win!" : "You win!")
    : `${names.join(" and ")} ${result.winners.length > 1 ? "share the win" : "wins"}`;
  $("explanation").textContent = result.explanation;
  $("replay-link").href = `/replay/${payload.game}`;
  $("record-link").href = `/api/games/${payload.game}/record`;
}

// The keys that may be clicked next, given the keys clicked so far.
function nextKeys() {
  const controls = play.payload.controls;
  const next = new Set();
  const depth = play.chosen.length;
  for (const path of controls.paths) {
    if (path.keys.length > depth && play.chosen.every((key, i) => path.keys[i] === key)) next.add(path.keys[depth]);
  }
  return next;
}

function completedPath() {
  return play.payload.controls.paths.find((path) => path.keys.length === play.chosen.length
    && path.keys.every((key, i) => play.chosen[i] === key));
}

function showControls() {
  const payload = play.payload;
  const controls = payload.controls;
  const mine = payload.to_act === payload.seat && !payload.over;
  const next = mine ? nextKeys() : new Set();
  $("move-box").classList.toggle("active", mine);
  $("move-box").hidden = payload.over;
  $("tray-title").textContent = controls.tray_title;
  const hint = controls.hints[play.chosen.join(" ")] || controls.hints[""] || "";
  $("hint").textContent = mine ? hint : payload.over ? "" : "You will be able to move when it is your turn.";
  const tray = $("tray");
  tray.replaceChildren();
  for (const item of controls.tray) {
    const button = el("button", { type: "button", class: "tile", "data-key": item.key },
      el("span", { class: "label" }, item.label));
    for (const mark of item.marks) button.append(el("span", { class: `mark mark-${mark}` }, mark));
    if (item.count > 1) button.append(el("span", { class: "count" }, `×${item.count}`));
    button.disabled = !next.has(item.key) && !play.chosen.includes(item.key);
    if (play.chosen.includes(item.key)) button.classList.add("chosen");
    button.addEventListener("click", () => choose(item.key));
    tray.append(button);
  }
  if (!controls.tray.length) tray.append(el("p", { class: "muted" }, "nothing"));
  const buttons = $("buttons");
  buttons.replaceChildren();
  for (const [key, label] of Object.entries(controls.buttons)) {
    if (!next.has(key)) continue;
    buttons.append(el("button", { type: "button", class: key === "end" ? "primary" : "", "data-key": key,
      onclick: () => choose(key) }, label));
  }
  if (play.chosen.length) {
    buttons.append(el("button", { type: "button", class: "quiet", onclick: () => choose(null) }, "Cancel (Esc)"));
  }
  const picture = $("board").querySelector("svg");
  if (!picture) return;
  picture.querySelector("#page-highlights")?.remove();
  for (const key of play.chosen) {
    const shape = boardShape(picture, key);
    if (shape) outline(picture, shape, "chosen");
  }
  for (const key of next) {
    const shape = boardShape(picture, key);
    if (shape) outline(picture, shape, key.startsWith("piece:") ? "target piece" : "target");
  }
  picture.classList.toggle("choosing", next.size > 0);
  if (play.focus && next.has(play.focus)) {
    const shape = boardShape(picture, play.focus);
    if (shape) outline(picture, shape, "focused");
  }
  keepInView($("board"), picture.querySelectorAll("#page-highlights .target"), play.chosen.length > 0);
}

// On a phone the board is larger than its card, which scrolls: show its middle at first, and later, when none of the
// places to click is in sight, bring the first of them into the card (never moving what the person scrolled to
// while one is in sight). Once a tile is chosen (``follow``) the card itself comes into the window: the tray is
// below the board on a phone, and the next tap is on the board.
function keepInView(card, targets, follow) {
  if (card.scrollWidth <= card.clientWidth + 1 && card.scrollHeight <= card.clientHeight + 1) return;
  if (!card.dataset.placed) {
    card.dataset.placed = "yes";
    card.scrollLeft = (card.scrollWidth - card.clientWidth) / 2;
    card.scrollTop = (card.scrollHeight - card.clientHeight) / 2;
  }
  const seen = card.getBoundingClientRect();
  const inSight = (target) => {
    const box = target.getBoundingClientRect();
    return box.right > seen.left && box.left < seen.right && box.bottom > seen.top && box.top < seen.bottom;
  };
  if (targets.length && ![...targets].some(inSight)) {
    const box = targets[0].getBoundingClientRect();
    card.scrollLeft += box.left + box.width / 2 - (seen.left + seen.width / 2);
    card.scrollTop += box.top + box.height / 2 - (seen.top + seen.height / 2);
  }
  if (follow && targets.length && (seen.top < 0 || seen.bottom > window.innerHeight)) {
    card.scrollIntoView({ block: "nearest" });
  }
}

// --- playing from the keyboard: 1-9 a tile of the tray, arrows and Enter a marked place, E the end of the turn ---

function boardTargets() {
  // The marked places in reading order: by row, then by column (a piece before its hex).
  const where = (key) => key.slice(key.indexOf(":") + 1).split(",");
  return [...nextKeys()].filter((key) => key.startsWith("hex:") || key.startsWith("piece:")).sort((a, b) => {
    const [ca, ra] = where(a).map(Number);
    const [cb, rb] = where(b).map(Number);
    return ra - rb || ca - cb || (a < b ? -1 : a > b ? 1 : 0);
  });
}

function keyboardPlay(event) {
  if (event.target.closest("input, select, textarea") || $("rules-panel").open || event.ctrlKey || event.metaKey) return;
  const payload = play.payload;
  if (!payload || payload.to_act !== payload.seat || payload.over) return;
  if (/^[1-9]$/.test(event.key)) {
    const tile = [...$("tray").querySelectorAll("button.tile:not(:disabled)")][Number(event.key) - 1];
    if (tile) { event.preventDefault(); tile.click(); }
    return;
  }
  if (event.key === "h" || event.key === "H") {
    if (payload.hints) { event.preventDefault(); askHint(); }
    return;
  }
  if (event.key === "e" || event.key === "E") {
    const end = $("buttons").querySelector("[data-key='end']");
    if (end) { event.preventDefault(); end.click(); }
    return;
  }
  const targets = boardTargets();
  if (!targets.length) return;
  const forward = event.key === "ArrowRight" || event.key === "ArrowDown";
  if (forward || event.key === "ArrowLeft" || event.key === "ArrowUp") {
    event.preventDefault();
    const at = targets.indexOf(play.focus);
    play.focus = at < 0 ? targets[forward ? 0 : targets.length - 1]
      : targets[(at + (forward ? 1 : -1) + targets.length) % targets.length];
    showControls();
  } else if ((event.key === "Enter" || event.key === " ") && targets.includes(play.focus)) {
    event.preventDefault();
    choose(play.focus);
  }
}

function boardShape(picture, key) {
  const [kind, where] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
  const parts = where.split(",");
  if (kind === "hex") return hexPolygon(picture, parts[0], parts[1]);
  if (kind === "piece") return pieceElement(picture, parts[0], parts[1], parts[2]);
  return null;
}

function boardClicked(event) {
  if (!play.payload || play.payload.to_act !== play.payload.seat) return;
  const next = nextKeys();
  const stack = document.elementsFromPoint(event.clientX, event.clientY);
  const hex = stack.find((node) => node.dataset && node.dataset.col !== undefined && node.closest("#hexes"));
  if (!hex) return;
  const piece = stack.find((node) => node.dataset && node.dataset.piece);
  const keys = [];
  if (piece) keys.push(`piece:${hex.dataset.col},${hex.dataset.row},${piece.dataset.piece}`);
  keys.push(`hex:${hex.dataset.col},${hex.dataset.row}`);
  const key = keys.find((k) => next.has(k));
  if (key) choose(key);
}

function choose(key) {
  if (play.posting) return;  // the last action is on its way: the page redraws when it is in
  const error = $("error");
  error.hidden = true;
  if (key === null) {
    play.chosen = [];
  } else if (play.chosen.includes(key)) {
    play.chosen = play.chosen.slice(0, play.chosen.indexOf(key));  // clicking a choice again takes it back
  } else if (nextKeys().has(key)) {
    play.chosen = [...play.chosen, key];
  } else {
    return;
  }
  const path = completedPath();
  if (path) {
    send(path.action);
    return;
  }
  showControls();
}

async function send(action) {
  play.posting = true;
  try {
    await api(`/api/games/${play.game}/actions`, { method: "POST",
      headers: { ...authHeaders(), "Content-Type": "application/json" },
      body: JSON.stringify({ move_number: play.payload.move_number, action }) });
    showPayload(await api(`/api/games/${play.game}/page`, { headers: authHeaders() }));
  } catch (error) {
    const box = $("error");
    box.textContent = error.message;
    box.hidden = false;
    play.chosen = [];
    if (error.status === 409) showPayload(await api(`/api/games/${play.game}/page`, { headers: authHeaders() }));
    else showControls();
  } finally {
    play.posting = false;
  }
}

// --- replaying ------------------------------------------------------------------------------

const replay = { game: null, token: null, steps: 0, step: 0, seat: null, timer: null, pending: null, loaded: null };

async function showReplay(gameId) {
  $("replay").hidden = false;
  replay.game = gameId;
  replay.token = new URLSearchParams(location.hash.slice(1)).get("token");
  $("replay-record").href = `/api/games/${gameId}/record`;
  const slider = $("slider");
  slider.addEventListener("input", () => go(Number(slider.value)));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(replay.step - 1));
  $("next").addEventListener("click", () => go(replay.step + 1));
  $("last").addEventListener("click", () => go(replay.steps));
  $("autoplay").addEventListener("click", toggleAutoplay);
  $("perspective").addEventListener("change", () => {
    replay.seat = $("perspective").value;
    load(replay.step);
    loadMoves();
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (event.key === "ArrowLeft") go(replay.step - 1);
    if (event.key === "ArrowRight") go(replay.step + 1);
    if (event.key === "Home") go(0);
    if (event.key === "End") go(replay.steps);
  });
  try {
    const frame = await fetchFrame(null);
    replay.steps = frame.steps;
    slider.max = frame.steps;
    const perspective = $("perspective");
    if (frame.public) {
      frame.seats.forEach((_, seat) => perspective.append(el("option", { value: seat }, `Seat ${seat}`)));
      // A finished game hides nothing: every hand, capture and face-down tile at once.
      perspective.append(el("option", { value: "all" }, "all hands open"));
      replay.seat = String(frame.seat);
    } else {
      perspective.append(el("option", { value: frame.seat }, `Seat ${frame.seat} (you)`));
      replay.seat = String(frame.seat);
      $("replay-record").hidden = true;
    }
    showFrame(frame);
    await loadMoves();
    if (frame.over) await offerAnalysis();
  } catch (error) {
    $("replay-headline").textContent = error.message;
  }
}

// --- a finished game's analysis ------------------------------------------------------------------

const analysis = { data: null, timer: null };
const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

async function offerAnalysis() {
  $("analysis-box").hidden = false;
  $("analyse").addEventListener("click", startAnalysis);
  try {
    analysisProgress(await api(`/api/games/${replay.game}/analysis`));
  } catch (error) {
    if (error.status !== 404) $("analysis-note").textContent = error.message;  // 404: not analysed yet
  }
}

async function startAnalysis() {
  $("analyse").disabled = true;
  try {
    analysisProgress(await api(`/api/games/${replay.game}/analysis`, { method: "POST",
      headers: { "Content-Type": "application/json" }, body: "{}" }));
  } catch (error) {
    $("analysis-note").textContent = error.message;
    $("analyse").disabled = false;
  }
}

// The analysis runs on the server, one move at a time: the page asks how far it got until it is done.
function analysisProgress(found) {
  const bar = $("analysis-progress");
  clearTimeout(analysis.timer);
  if (found.state === "running") {
    $("analyse").hidden = true;
    bar.hidden = false;
    bar.max = found.moves || 1;
    bar.value = found.done;
    $("analysis-note").textContent = `The ${found.bot} search is judging move ${found.done + 1} of ${found.moves}…`;
    analysis.timer = setTimeout(async () => {
      try { analysisProgress(await api(`/api/games/${replay.game}/analysis`)); }
      catch (error) { $("analysis-note").textContent = error.message; }
    }, 500);
    return;
  }
  bar.hidden = true;
  if (found.state === "failed") {
    $("analyse").hidden = false;
    $("analyse").disabled = false;
    $("analysis-note").textContent = `The analysis stopped: ${found.error}`;
    return;
  }
  $("analyse").hidden = true;
  analysis.data = found.analysis;
  $("analysis-note").textContent = `Each seat's chance to win after each move, as the ${found.bot} search judged it `
    + "from what the mover knew then. Circles: mistakes (filled: blunders). Click to see the position.";
  drawAnalysis();
  markGrades();
  load(replay.step);  // the position again, with its move judged and the preferred one drawn
}

function drawAnalysis() {
  const data = analysis.data;
  const width = 600, height = 300, pad = 10;
  const x = (step) => pad + ((width - 2 * pad) * step) / Math.max(1, replay.steps);
  const y = (chance) => pad + (height - 2 * pad) * (1 - chance);
  const graph = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, class: "graph", role: "img",
    "aria-label": "each seat's chance to win over the game" });
  for (const level of [0, 0.25, 0.5, 0.75, 1]) {
    graph.append(svgEl("line", { x1: pad, x2: width - pad, y1: y(level), y2: y(level), class: "grid" }));
  }
  const judged = data.decisions.filter((d) => d.chances_after);
  for (let seat = 0; seat < data.players; seat++) {
    const points = judged.map((d) => `${x(d.number + 1).toFixed(1)},${y(d.chances_after[seat]).toFixed(1)}`);
    graph.append(svgEl("polyline", { points: points.join(" "), class: `line seat-${seat}` }));
  }
  for (const d of judged.filter((d) => d.grade === "mistake" || d.grade === "blunder")) {
    const mark = svgEl("circle", { cx: x(d.number + 1), cy: y(d.chances_after[d.seat]), r: 5,
      class: `mark ${d.grade} seat-${d.seat}`, "data-step": d.number + 1 });
    mark.append(svgEl("title"));
    mark.firstChild.textContent = `move ${d.number + 1}: a ${d.grade} by seat ${d.seat}`;
    graph.append(mark);
  }
  graph.append(svgEl("line", { id: "analysis-cursor", x1: x(replay.step), x2: x(replay.step), y1: 0, y2: height,
    class: "cursor" }));
  graph.addEventListener("click", (event) => {
    const box = graph.getBoundingClientRect();
    const at = ((event.clientX - box.left) * width) / box.width;
    go(Math.round(((at - pad) / (width - 2 * pad)) * replay.steps));
  });
  const legend = el("p", { class: "legend" }, ...[...Array(data.players).keys()].map((seat) =>
    el("span", {}, el("span", { class: `swatch seat-${seat}` }), `Seat ${seat} `)));
  $("analysis-graph").replaceChildren(graph, legend);
  $("analysis-graph").hidden = false;
  analysis.x = x;
  showMistakes(data);
}

function showMistakes(data) {
  const byNumber = Object.fromEntries(data.decisions.map((d) => [d.number, d]));
  const turning = Object.fromEntries(data.turning_points.map((t) => [t.number, t.change]));
  const numbers = [...new Set([...data.mistakes, ...Object.keys(turning).map(Number)])].sort((a, b) => a - b);
  const items = numbers.map((number) => {
    const d = byNumber[number];
    const what = [];
    if (d.grade === "mistake" || d.grade === "blunder") {
      what.push(`${d.grade}: ${percent(d.chances_after[d.seat])} instead of ${percent(d.chances_before[d.seat])}`
        + `; better: ${d.preferred.words}`);
    }
    if (number in turning) {
      const change = turning[number];
      what.push(`turning point: the winner's chance ${change >= 0 ? "rose" : "fell"} ${percent(Math.abs(change))}`);
    }
    return el("li", { value: number + 1 }, el("button", { class: `move ${d.grade}`, "data-step": number + 1,
      onclick: () => go(number + 1) }, `${d.played_words} (${what.join("; ")})`));
  });
  $("mistake-list").replaceChildren(...items);
  $("mistakes-card").hidden = !items.length;
}

// The moves list marks the mistakes once the game is analysed.
function markGrades() {
  if (!analysis.data) return;
  for (const d of analysis.data.decisions) {
    const button = $("move-list").querySelector(`button[data-step="${d.number + 1}"]`);
    if (button && (d.grade === "mistake" || d.grade === "blunder")) button.classList.add(d.grade);
  }
}

function showJudged(frame) {
  const judged = frame.judged;
  const box = $("judged");
  box.hidden = !judged;
  if (analysis.x) {
    const cursor = $("analysis-cursor");
    if (cursor) for (const end of ["x1", "x2"]) cursor.setAttribute(end, analysis.x(frame.step));
  }
  if (!judged) return;
  const who = `Seat ${judged.seat}`;
  if (judged.grade === "forced") box.textContent = `${who} had only this move.`;
  else if (judged.grade === "untried") box.textContent = `${who}'s move was one the search never tried.`;
  else if (judged.preferred === judged.played || judged.chance_before === null) {
    box.textContent = `${who} played the search's choice: chance ${percent(judged.chance_after)}.`;
  } else {
    box.textContent = `${judged.grade === "good" ? "Good" : judged.grade === "mistake" ? "A mistake"
      : "A blunder"}: ${who}'s chance ${percent(judged.chance_after)}; the search preferred (dashed green) `
      + `${judged.preferred}: ${percent(judged.chance_before)}.`;
  }
  box.className = `judged ${judged.grade}`;
}

// The list of every move, as the chosen seat saw it: a click shows the position after that move.
async function loadMoves() {
  const params = new URLSearchParams();
  if (replay.seat !== null) params.set("seat", replay.seat);
  const headers = replay.token ? { Authorization: `Bearer ${replay.token}` } : {};
  const { moves } = await api(`/api/games/${replay.game}/moves?${params}`, { headers });
  $("move-list").replaceChildren(
    el("li", { value: 0 }, el("button", { class: "move", "data-step": 0, onclick: () => go(0) }, "the start")),
    ...moves.map((move) => el("li", { value: move.step },
      el("button", { class: "move", "data-step": move.step, onclick: () => go(move.step) }, move.line))));
  markMove(replay.step);
  markGrades();
}

function markMove(step) {
  for (const button of $("move-list").querySelectorAll("button.current")) button.classList.remove("current");
  const current = $("move-list").querySelector(`button[data-step="${step}"]`);
  if (current) {
    current.classList.add("current");
    // Scrolled within the list only: the window stays where the person is looking (the slider, the graph).
    const list = $("move-list"), box = list.getBoundingClientRect(), item = current.getBoundingClientRect();
    if (item.top < box.top) list.scrollTop -= box.top - item.top;
    else if (item.bottom > box.bottom) list.scrollTop += item.bottom - box.bottom;
  }
}

async function fetchFrame(step) {
  const params = new URLSearchParams();
  if (step !== null) params.set("step", step);
  if (replay.seat !== null) params.set("seat", replay.seat);
  const headers = replay.token ? { Authorization: `Bearer ${replay.token}` } : {};
  return api(`/api/games/${replay.game}/replay?${params}`, { headers });
}

function go(step) {
  const clamped = Math.max(0, Math.min(replay.steps, step));
  if (clamped === replay.step && replay.loaded === clamped) return;
  replay.step = clamped;
  $("slider").value = clamped;
  $("step-label").textContent = `position after ${clamped} of ${replay.steps} actions (loading…)`;
  load(clamped);
}

async function load(step) {
  replay.pending = step;
  const frame = await fetchFrame(step);
  if (replay.pending !== step) return;  // the slider has moved on
  showFrame(frame);
}

function showFrame(frame) {
  offerRules(frame.rules);
  replay.step = frame.step;
  replay.loaded = frame.step;
  $("slider").value = frame.step;
  placeSvg($("replay-board"), frame.svg);
  $("replay-headline").textContent = frame.status.headline;
  $("step-label").textContent = `position after ${frame.step} of ${frame.steps} actions`;
  $("step-lines").replaceChildren(...(frame.step ? frame.lines : ["the game starts"]).map((line) => el("li", {}, line)));
  showSeats($("replay-seats"), $("replay-facts"), frame.status, frame.seats);
  showKey($("replay-key-card"), $("replay-key"), frame.key);
  markMove(frame.step);
  showJudged(frame);
  // On a phone the board scrolls in its card: the move the search preferred, else the move played, comes into sight.
  const picture = $("replay-board").querySelector("svg");
  if (picture) {
    const preferred = picture.querySelectorAll("#preferred polygon");
    keepInView($("replay-board"), preferred.length ? preferred : picture.querySelectorAll("#marks polygon"), false);
  }
  $("prev").disabled = $("first").disabled = frame.step === 0;
  $("next").disabled = $("last").disabled = frame.step === frame.steps;
}

function toggleAutoplay() {
  const button = $("autoplay");
  if (replay.timer) {
    clearInterval(replay.timer);
    replay.timer = null;
    button.textContent = "▶ play";
    return;
  }
  if (replay.step >= replay.steps) go(0);
  button.textContent = "❚❚ pause";
  replay.timer = setInterval(() => {
    if (replay.step >= replay.steps) { toggleAutoplay(); return; }
    go(replay.step + 1);
  }, 700);
}

// --- the edition's options in the new-game form --------------------------------------------------

const RULES_SECTION = /\s*\(docs\/rules\/[\w.-]+\.md#([\w-]+)\)/;

function optionFields(options) {
  const box = $("option-fields");
  box.replaceChildren();
  $("edition-options").hidden = !options.length;
  for (const option of options) {
    const id = `option-${option.name}`;
    let input;
    if (option.choices.length) {
      input = el("select", { id }, ...option.choices.map((c) => el("option", { value: JSON.stringify(c) }, String(c))));
      input.value = JSON.stringify(option.default);
    } else if (typeof option.default === "boolean") {
      input = el("input", { id, type: "checkbox" });
      input.checked = option.default;
    } else if (typeof option.default === "number") {
      input = el("input", { id, type: "number", value: option.default, step: Number.isInteger(option.default) ? 1 : "any" });
    } else {
      input = el("input", { id, type: "text", value: option.default });
    }
    // The description names the rules' section it changes: a link opening the rules there.
    const section = RULES_SECTION.exec(option.description);
    const text = option.description.replace(RULES_SECTION, "");
    const help = el("span", { class: "muted option-help" }, text);
    if (section) {
      help.append(" ", el("a", { href: "#", class: "option-rules", onclick: (event) => {
        event.preventDefault();
        openRules(`rules-${section[1]}`);
      } }, "rules"));
    }
    box.append(el("div", { class: "option" }, el("label", { for: id }, option.name.replace(/_/g, " ")), input, help));
  }
}

function chosenOptions(options) {
  // Only the options changed from their defaults: the server fills in the rest.
  const chosen = {};
  for (const option of options) {
    const input = $(`option-${option.name}`);
    if (!input) continue;
    let value;
    if (option.choices.length) value = JSON.parse(input.value);
    else if (typeof option.default === "boolean") value = input.checked;
    else if (typeof option.default === "number") value = Number(input.value);
    else value = input.value;
    if (value !== option.default) chosen[option.name] = value;
  }
  return chosen;
}

// --- how to play: the game's rules page (docs/rules), drawn from its Markdown ---------------------

let rulesUrl = null;

function offerRules(url) {
  rulesUrl = url || null;
  $("how-to-play").hidden = !rulesUrl;
}

async function openRules(section) {
  if (!rulesUrl) return;
  const response = await fetch(rulesUrl);
  if (!response.ok) return;
  const folder = rulesUrl.slice(0, rulesUrl.lastIndexOf("/") + 1);
  $("rules-text").replaceChildren(...markdown(await response.text(), folder));
  const panel = $("rules-panel");
  if (!panel.open) panel.showModal();
  $("rules-text").scrollTop = 0;
  const target = typeof section === "string" ? document.getElementById(section) : null;
  if (target) target.scrollIntoView({ block: "start" });
}

const anchorOf = (text) => text.toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-");

// The Markdown the rules pages use, as DOM nodes (never as HTML text): headings, paragraphs, lists, tables,
// quotes, pictures, emphasis, code, links and section anchors. A link to another file of the repository stays
// plain text. A quote that starts "**Designers:**" speaks to people writing variants, not to players: not shown.
const DESIGNERS_NOTE = /^\s*>\s*\*\*Designers:\*\*/;

function markdown(text, folder) {
  const nodes = [];
  const lines = text.split("\n");
  let paragraph = [];
  let list = null;
  const flush = () => {
    const content = inline(paragraph.join(" "), folder);
    // Anchors alone (before a list, a table or a heading) mark a place; they are no paragraph.
    const anchorsOnly = content.every((node) => node instanceof Element && node.classList.contains("rules-anchor"));
    nodes.push(...(anchorsOnly ? content : [el("p", {}, ...content)]));
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    const item = /^\s*(?:[-*]|(\d+)\.) (.*)$/.exec(line);
    if (!line.trim()) { flush(); continue; }
    if (/^\s*>/.test(line)) {
      flush(); list = null;
      const quoted = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*>\s?/, ""));
      i--;
      if (!DESIGNERS_NOTE.test(line)) nodes.push(el("blockquote", {}, ...inline(quoted.join(" "), folder)));
    } else if (heading) {
      flush(); list = null;
      const level = Math.min(6, heading[1].length + 1);
      nodes.push(el(`h${level}`, { id: `rules-${anchorOf(heading[2])}` }, ...inline(heading[2], folder)));
    } else if (/^\s*\|/.test(line)) {
      flush();
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++].trim());
      i--;
      const cells = (row) => row.replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim());
      const table = el("table", { class: "rules-table" },
        el("thead", {}, el("tr", {}, ...cells(rows[0]).map((c) => el("th", {}, ...inline(c, folder))))));
      const body = el("tbody");
      for (const row of rows.slice(2)) body.append(el("tr", {}, ...cells(row).map((c) => el("td", {}, ...inline(c, folder)))));
      table.append(body);
      if (list && /^\s/.test(line)) list.lastChild.append(table);  // a table inside a list item
      else { list = null; nodes.push(table); }
    } else if (item) {
      flush();
      const kind = item[1] ? "ol" : "ul";
      if (!list || list.tagName.toLowerCase() !== kind) {
        list = el(kind);
        nodes.push(list);
      }
      list.append(el("li", {}, ...inline(item[2], folder)));
    } else if (list && /^\s+\S/.test(line)) {
      list.lastChild.append(" ", ...inline(line.trim(), folder));  // a list item going on
    } else {
      list = null;
      paragraph.push(line.trim());
    }
  }
  flush();
  return nodes;
}

// Inline Markdown: a picture, a link, bold, emphasis, code, a section's explicit anchor (<a id="...">).
const INLINE_MARKUP = new RegExp(`(${[
  /!\[([^\]]*)\]\(([^)]+)\)/, /\[([^\]]+)\]\(([^)]+)\)/, /\*\*([^*]+)\*\*/, /\*([^*]+)\*/, /`([^`]+)`/, /<a id="([\w-]+)"><\/a>/,
].map((part) => part.source).join("|")})`, "g");

function inline(text, folder) {
  const out = [];
  let at = 0;
  for (const match of text.matchAll(INLINE_MARKUP)) {
    if (match.index > at) out.push(text.slice(at, match.index));
    at = match.index + match[0].length;
    if (match[3] !== undefined) {
      // Only the rules' own pictures, from where the server keeps them.
      if (/^pictures\/[\w.-]+\.svg$/.test(match[3])) {
        out.push(el("img", { src: folder + match[3], alt: match[2], class: "rules-picture" }));
      }
    } else if (match[5] !== undefined) {
      const target = match[5];
      if (target.startsWith("#")) out.push(el("a", { href: `#rules-${target.slice(1)}`, class: "rules-link" }, match[4]));
      else if (/^https?:\/\//.test(target)) out.push(el("a", { href: target, target: "_blank", rel: "noopener" }, match[4]));
      else out.push(match[4]);
    } else if (match[6] !== undefined) out.push(el("b", {}, match[6]));
    else if (match[7] !== undefined) out.push(el("em", {}, match[7]));
    else if (match[8] !== undefined) out.push(el("code", {}, match[8]));
    else out.push(el("span", { id: `rules-${match[9]}`, class: "rules-anchor" }));  // a section's explicit anchor
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

// --- which page ------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  $("how-to-play").addEventListener("click", () => openRules());
  $("close-rules").addEventListener("click", () => $("rules-panel").close());
  $("rules-text").addEventListener("click", (event) => {
    const link = event.target.closest("a.rules-link");
    if (!link) return;
    event.preventDefault();  // a section of the rules: scroll the panel to it, the page's own address unchanged
    const target = document.getElementById(link.getAttribute("href").slice(1));
    if (target) target.scrollIntoView({ block: "start" });
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "?" && !event.target.closest("input, select, textarea")) openRules();
  });
  const [, section, gameId] = location.pathname.split("/");
  if (section === "play" && gameId) showPlay(gameId);
  else if (section === "replay" && gameId) showReplay(gameId);
  else showHome();
});
