// The seat page: join with the code, then paint every screen the table server sends and
// send what the student does. No framework, nothing from another host; every text from
// the server is set as text (never as HTML). See janus_widgets/table/seat_pages.py.

const STORE = "janus-seat-credential";
const SCREEN_VERSION = 1;
const $ = (id) => document.getElementById(id);

let socket = null;
let screen = null;          // the last screen painted
let credential = sessionStorage.getItem(STORE);
let retry = 300;            // ms before reconnecting; doubles up to 4 s
let autoplay = null;        // the autoplay timer
let closing = false;        // the page gave up its seat (a refused credential)
let live = false;           // a screen came on the socket (the first may come in the page)
let shownPage = null;       // the token of the screen painted from the page itself

// ------------------------------------------------------------------ joining
// A code as a student may type it: any case, spaces or dashes between its letters.
function slipCode(text) {
  return text.replace(/[\s-]+/g, "").toUpperCase();
}

function codeFromAddress() {
  const params = new URLSearchParams(location.search);
  const code = slipCode(params.get("code") || "");
  return /^[A-Z0-9]{4,20}$/.test(code) ? code : "";
}

function randomId() {
  // 32 random hex digits. Not crypto.randomUUID: a browser has it only on HTTPS and on
  // localhost, and a class reaches the teacher's laptop at its plain HTTP address.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
}

function pageId() {
  // This page's own id: its wrong codes count against it, not against the whole school
  // behind one address.
  let id = sessionStorage.getItem("janus-page-id");
  if (!id) {
    id = randomId();
    sessionStorage.setItem("janus-page-id", id);
  }
  return id;
}

let tried = "";               // the last code tried: back in the box if it was refused

function showJoin(message) {
  $("seat").hidden = true;
  $("join").hidden = false;
  $("join-message").textContent = message || "";
  if (!$("code").value) $("code").value = tried;
  $("code").focus();
}

// Join with the slip's code on the page's socket: hello carries the code, the server
// answers `joined` (the credential, kept for reconnecting) and then the first screen,
// a round trip less than joining first and signing in after.
function join(code) {
  tried = code;
  $("join-message").textContent = "Joining…";
  closing = false;           // a page that gave up a seat and joins again reconnects again
  retry = 300;
  connect({code, client: pageId()});
}

// What the page says when the server refuses a code (the server's own words otherwise).
function refusal(msg) {
  const said = typeof msg.error === "string" ? msg.error : "the server refused the code";
  return {
    unknown_code: "No seat has this code here: check the code and the address on your " +
      "slip (letters and digits; another class has another address).",
    ended: "This table has ended: ask your teacher for a new slip.",
  }[msg.code] || said;
}

function joined(msg) {
  if (typeof msg.credential !== "string") throw new Error("joined without a credential");
  credential = msg.credential;
  performance.mark("janus-joined");
  sessionStorage.setItem(STORE, credential);
  history.replaceState(null, "", "/seat");      // the code leaves the address bar
  showSeat();
}

function showSeat() {
  $("join").hidden = true;
  $("seat").hidden = false;
}

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const code = slipCode($("code").value);
  if (!/^[A-Z0-9]{4,20}$/.test(code)) {
    showJoin("A code is the 10 letters and digits on your slip.");
    return;
  }
  join(code);
});

// ------------------------------------------------------------------ the connection
function openSocket() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/ws`);
  if (!screen) {
    performance.mark("janus-socket-asked");
    ws.addEventListener("open", () => performance.mark("janus-socket-handshake"), {once: true});
  }
  return ws;
}

// Sign in on a new socket: with the credential the page keeps, or, `joining` (a code
// and the page's id), with the code.
function connect(joining) {
  if (!joining) showSeat();
  let waiting = Boolean(joining);      // for `joined`: until then the code may be refused
  const ws = openSocket();
  socket = ws;
  ws.addEventListener("open", () => {
    performance.mark("janus-socket-open");
    const hello = joining ? {type: "hello", code: joining.code, client: joining.client}
                          : {type: "hello", credential};
    // The screen that came in the page is painted: the server goes on from it.
    if (joining && shownPage && !live) hello.page = shownPage;
    ws.send(JSON.stringify({...hello, screen: true}));
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch (err) {
      console.error("dropped a frame that is not JSON", err);
      return;
    }
    try {
      if (waiting && msg.type === "joined") {
        waiting = false;
        joined(msg);
      } else if (waiting && msg.type === "error") {
        waiting = false;
        socket = null;
        ws.close();
        showJoin(refusal(msg));
      } else {
        if (msg.type === "screen" || msg.type === "live") live = true;
        receive(msg);
      }
    } catch (err) {
      console.error("dropped a frame the page cannot read", err, msg);
    }
  });
  ws.addEventListener("close", () => {
    if (socket !== ws || closing) return;
    socket = null;
    if (waiting) {                     // gone before the code was answered
      showJoin("The table server does not answer: check the network, then try again.");
      return;
    }
    setConnection("Reconnecting…");
    if (screen) paintSeats(screen.seats, true);   // who is connected is not known now
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 4000);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN && live) {
    socket.send(JSON.stringify(message));
    return true;
  }
  say(live ? "Not connected: the page reconnects by itself; try again in a moment."
           : "Joining your table: try again in a moment.", "error");
  return false;
}

// What the page's link to the server is now: a problem (red), or "joining" while the
// screen that came in the page waits for its socket (no problem: grey).
function setConnection(text, kind = "problem") {
  $("connection").textContent = text;
  $("connection").className = kind;
}

function receive(msg) {
  if (msg.type === "welcome") {
    retry = 300;
    setConnection("");
    $("hint").hidden = msg.solver !== true;      // the teacher allows the solver here
  } else if (msg.type === "screen") {
    if (msg.version !== SCREEN_VERSION) throw new Error(`screen version ${msg.version}`);
    const layers = msg.drawing.layers;
    for (const name of Object.keys(layers)) {
      // "same": the layer the page has; {runs}: made from it ([start, count] of its
      // shapes, or a new shape), as janus_widgets.table.seat_pages.held_layers reads it
      const sent = layers[name];
      if (sent === "same" || (sent && !Array.isArray(sent))) {
        const held = screen && screen.drawing.layers[name];
        if (!held) throw new Error(`layer ${name} refers to a layer the page lacks`);
        if (sent === "same") {
          layers[name] = held;
          continue;
        }
        if (!Array.isArray(sent.runs)) throw new Error(`layer ${name} is not a layer`);
        const made = [];
        for (const item of sent.runs) {
          if (typeof item[0] === "number") {
            const [start, count] = item;
            if (!(start >= 0 && count > 0 && start + count <= held.length)) {
              throw new Error(`layer ${name}: run ${start}+${count} outside ${held.length}`);
            }
            for (let k = start; k < start + count; k++) made.push(held[k]);
          } else {
            made.push(item);
          }
        }
        layers[name] = made;
      }
    }
    checkScreen(msg);
    if (!screen) performance.mark("janus-first-screen");
    paint(msg);
    if (performance.getEntriesByName("janus-painted").length === 0) {
      performance.mark("janus-painted");     // the first screen is on the page
    }
    if (live && performance.getEntriesByName("janus-live").length === 0) {
      performance.mark("janus-live");        // the first screen of the socket: playable
    }
  } else if (msg.type === "live") {          // the screen in the page is live now
    if (!screen || screen.serial !== msg.serial) throw new Error("live: not this screen");
    screen.seats = msg.seats;
    paintSeats(msg.seats);
    document.body.dataset.serial = String(screen.serial);
    performance.mark("janus-live");
  } else if (msg.type === "presence") {      // who is connected: the seats list only
    if (screen) {
      screen.seats = msg.seats;
      paintSeats(msg.seats);
    }
  } else if (msg.type === "record") {
    download(JSON.stringify(msg.record, null, 1), "application/json",
             `${screen.game}-${screen.table}-seat-${screen.seat}.json`);
  } else if (msg.type === "picture") {
    download(msg.svg, "image/svg+xml",
             `${screen.game}-${screen.table}-seat-${screen.seat}-position.svg`);
  } else if (msg.type === "error") {
    if (["bad_credential", "no_credential"].includes(msg.code)) {
      closing = true;
      sessionStorage.removeItem(STORE);
      credential = null;
      if (socket) socket.close();
      const code = codeFromAddress();
      showJoin(code ? "" : "Your seat needs its code again: type the code on your slip.");
      if (code) join(code);
    } else if (["ended", "withdrawn", "retired"].includes(msg.code)) {
      closing = true;                      // the seat is over: the last screen stays
      sessionStorage.removeItem(STORE);
      setConnection(msg.error);
      say(msg.error, "refused");
    } else if (msg.code === "limit") {
      closing = true;
      setConnection(msg.error);
    } else {
      say(msg.error, "error");
    }
  }
}

// ------------------------------------------------------------------ painting
const canvas = $("board");
const ctx = canvas.getContext("2d", {alpha: false});   // opaque: each paint fills it
let scale = 1;              // CSS pixels per drawing unit

// Big: the smallest text on the board is at least this many CSS pixels.
const BIG_TEXT_PX = 14;
// Big on a wide screen: the column beside the board (its least width and the gap).
const BESIDE_PX = 240 + 12;

function smallestText(drawing) {
  let smallest = Infinity;
  for (const layer of Object.values(drawing.layers)) {
    for (const shape of layer) {
      if (shape[0] === "text" && shape[4] > 0) smallest = Math.min(smallest, shape[4]);
    }
  }
  return smallest;
}

function fitBoard(drawing) {
  // The whole board, the step bar and the status line on screen at once: the board gets
  // the width it has, as far as its height leaves room for the rest. Big keeps the
  // board's type at least BIG_TEXT_PX: on a phone the board is then wider than the
  // screen, and its box scrolls sideways.
  const big = document.body.classList.contains("big");
  const stage = $("stage");
  // Big on a wide screen: the step bar and the status line are beside the board (see
  // seat.css), in a column of at least BESIDE_PX.
  const beside = big && getComputedStyle(stage).display === "grid";
  const width = (stage.clientWidth || drawing.width) - (beside ? BESIDE_PX : 0);
  const reserve = beside ? $("top").offsetHeight + 40
    : big ? 50 : ($("top").offsetHeight + $("stepbar").offsetHeight + 90);
  const room = Math.max(200, window.innerHeight - reserve);
  scale = Math.min(width / drawing.width, room / drawing.height);
  if (big) scale = Math.max(scale, BIG_TEXT_PX / smallestText(drawing));
  const cssW = Math.floor(drawing.width * scale);
  const cssH = Math.floor(drawing.height * scale);
  const ratio = window.devicePixelRatio || 1;
  const pixelsW = Math.round(cssW * ratio), pixelsH = Math.round(cssH * ratio);
  if (canvas.width !== pixelsW || canvas.height !== pixelsH) {   // else keep its pixels
    canvas.style.width = `${cssW}px`;
    canvas.style.height = `${cssH}px`;
    canvas.width = pixelsW;
    canvas.height = pixelsH;
  }
  return scale * ratio;
}

function draw(target, drawing, factor, highlight) {
  target.setTransform(factor, 0, 0, factor, 0, 0);
  target.fillStyle = drawing.background || "#fff";
  target.fillRect(0, 0, drawing.width, drawing.height);
  for (const layer of ["board", "pieces", "highlight"]) {
    for (const shape of drawing.layers[layer] || []) drawShape(target, shape);
  }
  for (const index of highlight || []) outline(target, drawing.regions[index]);
}

function stroke(c, colour, width, dash) {
  if (!colour) return;
  c.setLineDash(dash || []);
  c.strokeStyle = colour;
  c.lineWidth = width;
  c.stroke();
  c.setLineDash([]);
}

function path(c, points) {
  c.beginPath();
  points.forEach(([x, y], i) => (i ? c.lineTo(x, y) : c.moveTo(x, y)));
}

function drawShape(c, s) {
  const kind = s[0];
  if (kind === "rect") {
    const [, x, y, w, h, fill, line, width, radius, dash] = s;
    c.beginPath();
    if (radius && c.roundRect) c.roundRect(x, y, w, h, radius); else c.rect(x, y, w, h);
    if (fill) { c.fillStyle = fill; c.fill(); }
    stroke(c, line, width, dash);
  } else if (kind === "circle") {
    const [, x, y, r, fill, line, width, dash] = s;
    c.beginPath();
    c.arc(x, y, r, 0, 2 * Math.PI);
    if (fill) { c.fillStyle = fill; c.fill(); }
    stroke(c, line, width, dash);
  } else if (kind === "arc") {
    const [, x, y, r, start, end, line, width, fill] = s;
    c.beginPath();
    c.arc(x, y, r, start, end);
    if (fill) { c.fillStyle = fill; c.fill(); }
    stroke(c, line, width);
  } else if (kind === "line") {
    const [, points, line, width, dash] = s;
    path(c, points);
    stroke(c, line, width, dash);
  } else if (kind === "polygon") {
    const [, points, fill, line, width] = s;
    path(c, points);
    c.closePath();
    if (fill) { c.fillStyle = fill; c.fill(); }
    stroke(c, line, width);
  } else if (kind === "text") {
    const [, x, y, text, size, fill, align, baseline, bold, font] = s;
    c.font = `${bold ? "bold " : ""}${size}px ${font}`;
    c.fillStyle = fill;
    c.textAlign = align === "center" ? "center" : align;
    c.textBaseline = baseline;
    c.fillText(text, x, y);
  }
}

function outline(c, region) {
  if (!region) return;
  const g = region.geometry;
  c.beginPath();
  if (region.kind === "rect") c.rect(g[0] - 3, g[1] - 3, g[2] + 6, g[3] + 6);
  else if (region.kind === "circle") c.arc(g[0], g[1], g[2] + 3, 0, 2 * Math.PI);
  else { path(c, g); c.closePath(); }
  stroke(c, "#ff9f1c", 4, [8, 4]);            // dashed: not colour alone
}

function contains(region, x, y) {
  const g = region.geometry;
  if (region.kind === "rect") return x >= g[0] && x <= g[0] + g[2] && y >= g[1] && y <= g[1] + g[3];
  if (region.kind === "circle") return (x - g[0]) ** 2 + (y - g[1]) ** 2 <= g[2] ** 2;
  let inside = false;
  for (let i = 0, j = g.length - 1; i < g.length; j = i++) {
    const [xi, yi] = g[i], [xj, yj] = g[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

// A screen has every part the page paints, of the kind it reads; else it is dropped
// before anything on the page changes (the screen shown stays whole).
function checkScreen(data) {
  const d = data.drawing, steps = data.steps, status = data.status;
  const whole = d && typeof d.width === "number" && typeof d.height === "number" &&
    d.layers && Object.values(d.layers).every(Array.isArray) && Array.isArray(d.regions) &&
    steps && Number.isInteger(steps.index) && Number.isInteger(steps.length) &&
    status && typeof status.turn === "string" && typeof status.mark === "string" &&
    data.moves && Array.isArray(data.moves.options) && Array.isArray(data.log) &&
    Array.isArray(data.seats) && Array.isArray(data.panels);
  if (!whole) throw new Error("a screen without every part the page paints");
}

function paint(data) {
  const before = screen;
  screen = data;
  // Which screen is shown (tests): its serial once it came on the socket.
  if (live) document.body.dataset.serial = String(data.serial);
  else document.body.dataset.preview = "shown";
  document.title = `${data.title} · seat ${data.seat}`;
  $("heading").textContent = `${data.title} — ${data.heading}`;
  canvas.setAttribute("aria-label", data.drawing.title || data.title);
  paintSteps(data.steps);
  paintStatus(data.status);
  const samePosition = Boolean(before) && before.steps.index === data.steps.index &&
    before.steps.length === data.steps.length;
  paintMoves(data.moves, samePosition);
  paintLog(data.log, data.log_at);
  paintSeats(data.seats);
  paintPanels(data.panels);
  // The board last: sizing it reads the page's layout, laid out then once with every
  // text above in place (not once for the board and again for the texts).
  draw(ctx, data.drawing, fitBoard(data.drawing), []);
  if (autoplay && data.steps.at_end) stopAutoplay();
}

function paintSteps(steps) {
  const slider = $("slider");
  slider.max = String(steps.length);
  slider.value = String(steps.index);
  $("where").textContent = `move ${steps.index}/${steps.length}`;
  $("first").disabled = $("back").disabled = steps.index === 0;
  $("forward").disabled = $("last").disabled = steps.at_end;
}

function paintStatus(status) {
  const turn = $("status-turn");
  turn.replaceChildren();
  const where = document.createTextNode(`${status.where} · `);
  const bold = document.createElement("b");
  bold.textContent = status.mark;
  const rest = document.createTextNode(status.turn.slice(status.mark.length)
                                       + (status.scores ? ` · scores ${status.scores}` : ""));
  turn.append(where, bold, rest);
  $("status-last").textContent = status.last;
  const message = $("status-message");
  message.textContent = status.message;
  message.className = status.message ? status.kind : "";
  $("status-note").textContent = status.note;
  // One sentence after another, each ending once ("threw 2 4. A to move", not "4..").
  $("live-last").textContent = [status.message || status.last, status.turn, status.note]
    .filter(Boolean).map((text) => text.replace(/[.\s]+$/, "")).join(". ") + ".";
  $("live-position").textContent = status.position;
}

function say(text, kind) {
  const message = $("status-message");
  message.textContent = text;
  message.className = kind;
}

// The list of legal moves. A selection is kept while the position stays (the server
// keeps it too, and highlights it), by its notation: a list's index names another
// move after a move, and Play would have played it. A list of one move has it
// selected: Play plays it.
function paintMoves(moves, samePosition) {
  const list = $("options");
  const chosen = list.selectedOptions.length ? list.selectedOptions[0].dataset.notation : null;
  list.replaceChildren();
  if (!moves.options.length) {
    const note = document.createElement("option");
    note.disabled = true;
    note.textContent = moves.note || "(no move here)";
    list.append(note);
  }
  moves.options.forEach((option, i) => {
    const item = document.createElement("option");
    item.value = String(i);
    item.dataset.notation = option.notation;
    item.textContent = `${option.notation} — ${option.description}`;
    item.title = item.textContent;          // the whole of a long move, under the pointer
    list.append(item);
  });
  const again = samePosition ? moves.options.findIndex((o) => o.notation === chosen) : -1;
  if (again >= 0) list.value = String(again);
  else if (moves.options.length === 1) list.value = "0";
  $("play").disabled = !moves.can_play || !moves.options.length;
}

function paintLog(entries, at) {
  const log = $("log");
  log.replaceChildren();
  for (const [text, ply] of entries) {
    const item = document.createElement("li");
    item.textContent = text;
    item.dataset.ply = String(ply);
    if (ply === at) item.className = "current";
    log.append(item);
  }
  const current = log.querySelector(".current");
  // Scrolled to when the page is laid out for its next frame (reading where the item
  // is now would lay the page out once more).
  if (current) requestAnimationFrame(() => { if (current.isConnected) showInBox(log, current); });
}

// Scroll `box` (and nothing else) so that `item` is in it: scrollIntoView would scroll
// the page too, and on a phone every new move would carry the board off the screen.
function showInBox(box, item) {
  const outer = box.getBoundingClientRect();
  const inner = item.getBoundingClientRect();
  if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top;
  else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom;
}

// The seats and who plays them; `away`: this page has lost the server, so nobody's
// connection is known (the last news would be stale): its own seat says reconnecting.
function paintSeats(seats, away = false) {
  const list = $("seats");
  list.replaceChildren();
  for (const seat of seats) {
    const item = document.createElement("li");
    const who = document.createElement("bdi");
    who.textContent = seat.who;
    const online = away ? (seat.you ? ", reconnecting…" : "")
      : seat.connected === null ? "" : seat.connected ? ", connected" : "";
    item.append(`${seat.seat}${seat.you ? " (you)" : ""}: `, who, online);
    list.append(item);
  }
}

function paintPanels(panels) {
  const box = $("panels");
  box.replaceChildren();
  for (const panel of panels) {
    const div = document.createElement("div");
    div.className = "panel";
    div.dataset.panel = panel.id;
    const title = document.createElement("b");
    title.textContent = panel.title;
    div.append(title);
    for (const line of panel.lines) {
      const p = document.createElement("div");
      p.textContent = line;
      div.append(p);
    }
    if (panel.rows.length) {
      const table = document.createElement("table");
      for (const row of [panel.head, ...panel.rows]) {
        const tr = document.createElement("tr");
        for (const cell of row) {
          const td = document.createElement("td");
          td.textContent = cell;
          tr.append(td);
        }
        table.append(tr);
      }
      div.append(table);
    }
    box.append(div);
  }
}

// ------------------------------------------------------------------ what the student does
function hovered() {
  const list = $("options");
  const option = screen && screen.moves.options[Number(list.value)];
  return list.value !== "" && option ? option.highlights : [];
}

canvas.addEventListener("click", (event) => {
  if (!screen) return;
  const box = canvas.getBoundingClientRect();
  const x = (event.clientX - box.left) / scale;
  const y = (event.clientY - box.top) / scale;
  const regions = screen.drawing.regions;
  for (let i = regions.length - 1; i >= 0; i--) {       // the topmost region first
    if (contains(regions[i], x, y)) {
      send({type: "click", serial: screen.serial, region: i});
      return;
    }
  }
});

function goto(index) {
  if (!screen) return;
  const target = Math.max(0, Math.min(screen.steps.length, index));
  send({type: "goto", index: target});
}

function stopAutoplay() {
  clearInterval(autoplay);
  autoplay = null;
  $("autoplay").setAttribute("aria-pressed", "false");
}

function toggleAutoplay() {
  if (autoplay) { stopAutoplay(); return; }
  if (!screen || screen.steps.at_end) return;
  $("autoplay").setAttribute("aria-pressed", "true");
  autoplay = setInterval(() => {
    if (!screen || screen.steps.at_end) { stopAutoplay(); return; }
    goto(screen.steps.index + 1);
  }, 700);
}

function playSelected() {
  const list = $("options");
  const option = screen && screen.moves.options[Number(list.value)];
  if (list.value === "" || !option) {
    say("Select a move in the list first (or with ↑ ↓).", "refused");
    return;
  }
  send({type: "play", move: option.notation, id: randomId()});
}

function walk(step) {
  if (!screen || !screen.moves.options.length) {
    say(screen && screen.moves.note ? screen.moves.note : "There is no move to choose here.",
        "info");
    return;
  }
  const list = $("options");
  const count = screen.moves.options.length;
  const now = list.value === "" ? (step > 0 ? -1 : count) : Number(list.value);
  const next = (now + step + count) % count;
  list.value = String(next);
  send({type: "select", move: next});
}

$("first").addEventListener("click", () => goto(0));
$("back").addEventListener("click", () => goto(screen.steps.index - 1));
$("forward").addEventListener("click", () => goto(screen.steps.index + 1));
$("last").addEventListener("click", () => goto(screen.steps.length));
$("slider").addEventListener("change", (e) => goto(Number(e.target.value)));
$("autoplay").addEventListener("click", toggleAutoplay);
$("options").addEventListener("change", (e) => {
  if (e.target.value !== "") send({type: "select", move: Number(e.target.value)});
});
$("options").addEventListener("dblclick", playSelected);
$("play").addEventListener("click", playSelected);
$("log").addEventListener("click", (e) => {
  const item = e.target.closest("li");
  if (item) goto(Number(item.dataset.ply));
});
$("big").addEventListener("click", () => {
  const on = document.body.classList.toggle("big");
  $("big").setAttribute("aria-pressed", String(on));
  if (screen) paint(screen);
});
$("save-record").addEventListener("click", () => send({type: "record"}));
$("hint").addEventListener("click", () => send({type: "hint"}));   // answered as a panel
$("save-svg").addEventListener("click", () => send({type: "picture"}));
$("save-png").addEventListener("click", () => {
  if (!screen) return;
  const d = screen.drawing;
  const off = document.createElement("canvas");
  off.width = d.width * 2;
  off.height = d.height * 2;
  draw(off.getContext("2d"), d, 2, []);
  off.toBlob((blob) => saveBlob(blob, `${screen.game}-${screen.table}-seat-${screen.seat}-position.png`));
});

document.addEventListener("keydown", (event) => {
  if ($("seat").hidden || event.altKey || event.ctrlKey || event.metaKey) return;
  const tag = event.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA") return;
  const inList = event.target === $("options");
  const keys = {
    ArrowLeft: () => goto(screen.steps.index - 1),
    ArrowRight: () => goto(screen.steps.index + 1),
    Home: () => goto(0),
    End: () => goto(screen.steps.length),
    " ": toggleAutoplay,
    Enter: playSelected,
    ArrowUp: () => walk(-1),
    ArrowDown: () => walk(1),
  };
  if (inList && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
    event.preventDefault();
  }
  const act = keys[event.key];
  if (act && screen && !(tag === "BUTTON" && (event.key === " " || event.key === "Enter"))) {
    event.preventDefault();
    act();
  }
});

window.addEventListener("resize", () => { if (screen) paint(screen); });

function download(text, type, name) {
  saveBlob(new Blob([text], {type}), name);
}

function saveBlob(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// ------------------------------------------------------------------ start
// A slip's address brings its seat's welcome and screen in the page (a JSON data block,
// see janus_widgets.table.seat_pages.first_screen_html), or why the code opens no seat:
// the screen is painted at once, while the page joins on its socket; it is playable
// from the socket's first screen on.
function firstScreen() {
  const block = $("first-screen");
  if (!block) return null;
  try {
    const first = JSON.parse(block.textContent);
    if (first && typeof first === "object") return first;
  } catch (err) {
    console.error("dropped the screen in the page", err);
  }
  return null;
}

function preview(first) {
  try {
    showSeat();
    $("hint").hidden = first.welcome.solver !== true;
    receive(first.screen);
    setConnection("Joining your table…", "joining");
    if (typeof first.page === "string") shownPage = first.page;
  } catch (err) {
    console.error("dropped the screen in the page", err);
  }
}

const code = codeFromAddress();
const first = code ? firstScreen() : null;
if (first && first.refused) {
  tried = code;
  showJoin(refusal(first.refused));
} else if (code) {
  join(code);
  if (first && first.screen && first.welcome) preview(first);
} else if (credential) connect();
else showJoin("");
