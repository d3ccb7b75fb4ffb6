// The plain-rummy practice table: the server holds the game (id in the URL and localStorage).
"use strict";
const $ = (id) => document.getElementById(id);
let game = null;
let selected = new Set();
let busy = false;
let hintToken = 0;  // a hint is shown only if no move was made meanwhile

function setError(message) { $("error").textContent = message || ""; }
function legal(move) { return game && game.legal.includes(move); }
function chosen() { return sortCards([...selected]); }
function meldMove() { return "meld " + chosen().join(" "); }
function oneCard() { return selected.size === 1 ? chosen()[0] : null; }

function render() {
  $("game").hidden = false;
  const over = game.phase === "hand over";
  $("opponents").replaceChildren(...game.seats.slice(1).map(seat => {
    const zone = document.createElement("div");
    const title = document.createElement("div");
    const name = document.createElement("b");
    name.textContent = seat.name;
    title.append(name, ` · ${seat.cards} card${seat.cards === 1 ? "" : "s"}` +
      (seat.took.length ? ` · holds from the pile: ${cardsLabel(seat.took)}` : "") +
      (seat.to_move ? " · to move" : ""));
    const cards = document.createElement("div");
    cards.className = "cards";
    const shown = over && game.result ? game.result.hands[seat.name] : null;
    cards.replaceChildren(...(shown ? shown.map(c => cardButton(c)) :
      Array.from({ length: seat.cards }, () => backCard())));
    zone.append(title, cards);
    return zone;
  }));
  $("stock-count").textContent = `${game.stock} cards`;
  $("stock").replaceChildren(backCard());
  $("pile-count").textContent = `(${game.pile.length})`;
  $("pile").replaceChildren(...game.pile.slice(-6).map(c => cardButton(c)));
  $("score").textContent = game.seats.map(s => `${s.name} ${s.score}`).join(" · ") +
    ` · hand ${game.hand_number}`;
  for (const card of [...selected]) if (!game.hand.includes(card)) selected.delete(card);
  const card = oneCard();
  $("melds").replaceChildren(...game.melds.map(meld => {
    const group = document.createElement("div");
    group.className = "meld";
    group.id = "meld-" + meld.index;
    const label = document.createElement("span");
    label.className = "meld-label";
    label.textContent = `${meld.index + 1} · ${meld.owner === "you" ? "your" : meld.owner + "'s"} meld`;
    const cards = document.createElement("div");
    cards.className = "cards";
    const move = card ? `layoff ${card} ${meld.index}` : null;
    cards.replaceChildren(...meld.cards.map(c => cardButton(c, move && legal(move) ? () => act(move) : null)));
    if (move && legal(move)) group.classList.add("target");
    group.append(label, cards);
    return group;
  }));
  $("melds-note").textContent = game.melds.length ? "" : "· nothing yet";
  $("hand").replaceChildren(...game.hand.map(c => {
    const button = cardButton(c, clickHand);
    button.id = "hand-" + c;
    if (selected.has(c)) button.classList.add("selected");
    if (c === game.taken) button.classList.add("drawn");
    return button;
  }));
  $("hand-note").textContent = game.taken ? `· ${cardLabel(game.taken)} came from the pile: it may not be thrown this turn` : "";
  $("status").textContent = statusText();
  const buttons = { draw: "draw", take: "take", call: "call", pass: "pass",
    meld: selected.size >= 3 ? meldMove() : null, discard: card ? "discard " + card : null };
  for (const [id, move] of Object.entries(buttons)) {
    const kind = id === "meld" || id === "discard" ? id : move;
    $(id).hidden = !game.legal.some(m => m.split(" ")[0] === kind);
    $(id).disabled = busy || !move || !legal(move);
  }
  $("hint").hidden = !game.your_turn;
  $("hint").disabled = busy;
  $("next-hand").hidden = !over;
  showLog($("log"), game.log);
  renderResult();
  // for scripts and tests: the phase, the legal moves and whether a move is in flight
  document.body.dataset.phase = game.phase;
  document.body.dataset.legal = game.legal.join("|");
  document.body.dataset.busy = busy ? "1" : "0";
}

function statusText() {
  if (game.phase === "hand over") return "The hand is over.";
  if (!game.your_turn) return `Waiting for ${game.to_move}.`;
  switch (game.phase) {
    case "draw": return "Your turn: draw from the stock" + (legal("take") ? " or take the discard." : ".");
    case "call": return `Call rummy on the board and take ${cardLabel(game.pile[game.pile.length - 1])}, or let it go.`;
    default: return "Select cards to lay down (3 or more), or one card to lay off (then click a meld) or to discard.";
  }
}

function renderResult() {
  const result = game.result;
  $("result-panel").hidden = !result;
  if (!result) { $("review-panel").hidden = true; return; }
  $("result-text").textContent = result.winner === null ?
    `Hand ${game.hand_number}: void (${result.end === "stock" ? "the stock ran out" : "too long"}), nobody scores.` :
    `Hand ${game.hand_number}: ${result.winner === "you" ? "you go" : result.winner + " goes"} out` +
    (result.rummy ? " Rummy (double points)" : "") + ` and score${result.winner === "you" ? "" : "s"} ${result.points} points.`;
}

function clickHand(card) {
  if (!game || !game.your_turn || game.phase !== "play") return;
  if (selected.has(card)) selected.delete(card); else selected.add(card);
  render();
}

async function act(move) {
  if (busy || !move) return;
  busy = true;
  hintToken++;
  document.body.dataset.busy = "1";
  setError("");
  try {
    game = await api(`/api/rummy/games/${game.id}/move`, { move });
    selected.clear();
    $("hint-panel").hidden = true;
    render();
    if (game.phase === "hand over") showReview(); else maybeHint();
  } catch (error) {
    setError(error.message);
  } finally {
    busy = false;
    render();
  }
}

function maybeHint() { if (game.hints === "before" && game.your_turn) showHint(); }

// rummy-expert's moves for the phase, in words, and its reason.
function hintWords(move) {
  const [verb, ...rest] = move.split(" ");
  switch (verb) {
    case "draw": return "draw from the stock";
    case "take": return "take the discard";
    case "meld": return "lay down " + cardsLabel(rest);
    case "layoff": return `lay off ${cardLabel(rest[0])} on meld ${Number(rest[1]) + 1}`;
    case "discard": return "discard " + cardLabel(rest[0]);
    case "call": return "call rummy";
    default: return "let it go";
  }
}

async function showHint() {
  const panel = $("hint-panel");
  const token = hintToken;
  panel.hidden = false;
  panel.textContent = "rummy-expert is thinking…";
  try {
    const hint = await api(`/api/rummy/games/${game.id}/hint`);
    if (token !== hintToken) return;
    const line = document.createElement("p");
    line.className = "verdict";
    line.id = "hint-moves";
    line.textContent = "rummy-expert would " + hint.moves.map(hintWords).join(", then ") + ".";
    const why = document.createElement("p");
    why.textContent = hint.reason;
    panel.replaceChildren(line, why);
  } catch (error) { if (token === hintToken) panel.textContent = "No hint: " + error.message; }
}

async function showReview() {
  const panel = $("review-panel");
  panel.hidden = false;
  panel.textContent = "Reviewing the hand…";
  try {
    const review = await api(`/api/rummy/games/${game.id}/review`);
    const heading = document.createElement("h2");
    heading.textContent = `Review of hand ${review.hand}`;
    const list = document.createElement("ul");
    list.id = "review";
    list.replaceChildren(...review.lines.map(text => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
    panel.replaceChildren(heading, list);
  } catch (error) { panel.textContent = "No review: " + error.message; }
}

function remember(id) { rememberGame("rummy-game", id); }

async function newGame() {
  setError("");
  hintToken++;
  try {
    const body = { players: Number($("players").value), rules: $("rules").value, hints: $("hints").value };
    const text = withPageSeed(body);  // /rummy?seed=N deals reproducibly
    game = await api("/api/rummy/games", text);
    remember(game.id);
    freshHand();
  } catch (error) { setError(error.message); }
}

async function nextHand() {
  setError("");
  hintToken++;
  try {
    game = await api(`/api/rummy/games/${game.id}/next`, {});
    freshHand();
  } catch (error) { setError(error.message); }
}

// A hand just dealt: nothing selected, no hint or review of the last one, the hint now.
function freshHand() {
  selected.clear();
  $("hint-panel").hidden = true;
  $("review-panel").hidden = true;
  render();
  maybeHint();
}

async function init() {
  const presets = await api("/api/rummy/presets");
  fillSelect($("players"), presets.players.map(String), "2");
  fillSelect($("rules"), presets.rules, "standard");
  for (const id of ["draw", "take", "call", "pass"]) $(id).addEventListener("click", () => act(id));
  $("meld").addEventListener("click", () => act(meldMove()));
  $("discard").addEventListener("click", () => act(oneCard() && "discard " + oneCard()));
  $("hint").addEventListener("click", showHint);
  $("new-game").addEventListener("click", newGame);
  $("next-hand").addEventListener("click", nextHand);
  const id = new URL(location.href).searchParams.get("game") || localStorage.getItem("rummy-game");
  if (id) {
    try {
      game = await fetch(`/api/rummy/games/${encodeURIComponent(id)}`).then(r => r.ok ? r.json() : null);
    } catch (error) { game = null; }
    if (game) {
      remember(game.id);
      $("players").value = String(game.players); $("rules").value = game.rules; $("hints").value = game.hints;
      render();
      if (game.phase === "hand over") showReview(); else maybeHint();
    } else {
      localStorage.removeItem("rummy-game");
    }
  }
  document.body.dataset.ready = "1";
}

init().catch(error => setError(error.message));
