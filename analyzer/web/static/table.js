// The practice table: the server holds the game (id in the URL and localStorage).
"use strict";
const $ = (id) => document.getElementById(id);
let game = null;
let selected = null;
let busy = false;
let hintToken = 0;  // a hint or verdict is shown only if no move was made meanwhile

function setError(message) { $("error").textContent = message || ""; }

function legal(move) { return game && game.legal.includes(move); }

function render() {
  $("game").hidden = false;
  $("opp-name").textContent = game.opponent;
  $("opp-count").textContent = game.computer_cards;
  $("opp-took").textContent = game.computer_holds.length ?
    "· holds from the pile: " + game.computer_holds.map(cardLabel).join(" ") : "";
  const over = game.phase === "hand over" || game.phase === "game over";
  const shown = over && game.last_result ? game.last_result.computer_hand : null;
  $("opp-hand").replaceChildren(...(shown ? shown.map(c => cardButton(c)) :
    Array.from({ length: game.computer_cards }, () => backCard())));
  $("stock-count").textContent = `${game.stock} cards`;
  $("stock").replaceChildren(backCard());
  $("pile-count").textContent = `(${game.pile.length})`;
  $("pile").replaceChildren(...game.pile.slice(-6).map(c => cardButton(c)));
  $("score").textContent = `you ${game.scores[0]} · computer ${game.scores[1]}` +
    (game.mode === "game" ? ` (to ${game.target})` : "") + ` · hand ${game.hand_number}`;
  if (selected && !game.hand.includes(selected)) selected = null;
  $("hand").replaceChildren(...game.hand.map(c => {
    const button = cardButton(c, clickHand);
    button.id = "hand-" + c;
    if (c === selected) button.classList.add("selected");
    if (c === game.drawn) button.classList.add("drawn");
    return button;
  }));
  $("deadwood").textContent = game.deadwood === null ? "" : game.phase === "discard" ?
    `· least deadwood after a discard: ${game.deadwood}` : `· deadwood ${game.deadwood}`;
  $("status").textContent = statusText();
  const card = selected ? " " + selected : "";
  const buttons = { take: "take", pass: "pass", "draw-stock": "stock", "draw-pile": "pile",
    discard: "play" + card, knock: "knock" + card, gin: "gin" + card, "big-gin": "big gin" };
  for (const [id, move] of Object.entries(buttons)) {
    const relevant = game.legal.some(m => m.split(" ")[0] === move.split(" ")[0]) || move === "big gin" && legal(move);
    $(id).hidden = !relevant;
    $(id).disabled = busy || !legal(move);
  }
  $("hint").hidden = game.phase !== "discard";
  $("hint").disabled = busy;
  $("next-hand").hidden = game.phase !== "hand over";
  showLog($("log"), game.log);
  renderResult();
  // for scripts and tests: the phase, the legal moves and whether a move is in flight
  document.body.dataset.phase = game.phase;
  document.body.dataset.legal = game.legal.join(",");
  document.body.dataset.busy = busy ? "1" : "0";
}

function statusText() {
  switch (game.phase) {
    case "offer": return `Your turn: take the upcard ${cardLabel(game.pile[game.pile.length - 1])} or pass.`;
    case "draw": return "Your turn: draw from the stock" + (legal("pile") ? " or take the discard." : ".");
    case "discard": return selected ? `Discard ${cardLabel(selected)}` +
      (game.legal.some(m => m.startsWith("knock") || m.startsWith("gin")) ? ", or knock / gin with it." : ".") :
      "Your turn: click the card to discard.";
    case "hand over": return "The hand is over.";
    default: return "The game is over.";
  }
}

const OUTCOME_WORDS = { knock: "by knocking", gin: "with gin", big_gin: "with big gin",
  undercut: "by an undercut" };

function renderResult() {
  const result = game.last_result;
  $("result-panel").hidden = !result;
  if (!result) { $("review-panel").hidden = true; return; }
  let text = `Hand ${result.hand}: ` + (result.winner ?
    `${result.winner === "you" ? "you win" : "the computer wins"} ${result.points} points ` +
    `${OUTCOME_WORDS[result.outcome] || result.outcome}.` :
    (result.outcome === "draw" ? "a draw, no score." : `${result.outcome}, no score.`));
  if (game.final) text += ` Game over: ${game.final.winner === "you" ? "you win" : "the computer wins"}, ` +
    `totals with bonuses ${game.final.totals[0]}:${game.final.totals[1]}` +
    (game.final.shutout ? " (shutout)." : ".");
  $("result-text").textContent = text;
  $("showdown").replaceChildren(...(result.showdown ? showdown(result.showdown) : []));
}

// The hands laid out: the knocker's melds and deadwood, the defender's melds, layoffs and
// deadwood, one row each.
function showdown(laid) {
  const seat = (side, role) => {
    const row = document.createElement("div");
    row.className = "laid-out";
    row.id = "laid-" + role;
    const who = side.who === "you" ? "You" : "The computer";
    const title = document.createElement("div");
    title.className = "laid-title";
    title.textContent = `${who} (${role === "knocker" ? "knocked" : "defended"}): deadwood ${side.deadwood} points`;
    row.appendChild(title);
    const groups = side.melds.map(meld => ["meld", meld]);
    if (side.layoffs && side.layoffs.length) groups.push(["laid off on the knocker's melds", side.layoffs]);
    if (side.deadwood_cards.length) groups.push(["deadwood", side.deadwood_cards]);
    for (const [label, cards] of groups) {
      const group = document.createElement("div");
      group.className = "meld " + label.split(" ")[0];
      const name = document.createElement("span");
      name.className = "meld-label";
      name.textContent = label;
      const holder = document.createElement("div");
      holder.className = "cards";
      holder.replaceChildren(...cards.map(c => cardButton(c)));
      group.append(name, holder);
      row.appendChild(group);
    }
    return row;
  };
  return [seat(laid.knocker, "knocker"), seat(laid.defender, "defender")];
}

// The hand's history (log, your decisions with their positions, result) as a JSON file,
// to keep or to open in the advisor.
async function saveHand() {
  try {
    const history = await api(`/api/games/${game.id}/history`);
    const blob = new Blob([JSON.stringify(history, null, 1)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `practice-hand-${history.hand}.json`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (error) { setError(error.message); }
}

// The advisor page with a position open (its URL carries the position).
function advisorLink(position) {
  const link = document.createElement("a");
  link.textContent = "open in the advisor";
  link.href = "/#" + new URLSearchParams({ position: JSON.stringify(position), rules: game.rules,
    opponent: game.opponent }).toString();
  return link;
}

function clickHand(card) {
  if (!game || game.phase !== "discard") return;
  selected = selected === card ? null : card;
  render();
}

async function act(move) {
  if (busy) return;
  busy = true;
  hintToken++;
  document.body.dataset.busy = "1";
  setError("");
  try {
    const wasDiscard = game.phase === "discard";
    game = await api(`/api/games/${game.id}/move`, { move });
    selected = null;
    $("hint-panel").hidden = true;
    render();
    if (wasDiscard && game.hints === "after" && game.decision_made !== null) showAfter(game.decision_made);
    if (game.phase === "hand over" || game.phase === "game over") showReview();
    else maybeHint();
  } catch (error) {
    setError(error.message);
  } finally {
    busy = false;
    render();
  }
}

async function maybeHint() {
  if (game.hints === "before" && game.phase === "discard") showHint();
}

async function showHint() {
  const panel = $("hint-panel");
  const token = hintToken;
  panel.hidden = false;
  panel.textContent = "The advisor is thinking…";
  try {
    const advice = await api(`/api/games/${game.id}/hint?decision=${game.decisions}`);
    if (token !== hintToken || advice.stale) return;
    panel.replaceChildren(verdictLine(advice.verdict), scrolling(adviceTable(advice)), note(adviceSummary(advice)));
  } catch (error) { if (token === hintToken) panel.textContent = "No hint: " + error.message; }
}

async function showAfter(index) {
  const panel = $("hint-panel");
  const token = hintToken;
  panel.hidden = false;
  panel.textContent = "The advisor is reviewing your move…";
  try {
    const row = await api(`/api/games/${game.id}/decisions/${index}`);
    if (token !== hintToken) return;
    if (!row.advice) { panel.textContent = "No verdict for this move: " + row.error; return; }
    panel.replaceChildren(verdictLine(`You chose to ${moveWords(row.move)}; the advisor: ${row.verdict}` +
      (row.cost === null ? "" : ` Your move cost ${row.cost.toFixed(1)} ± ${row.cost_half_width.toFixed(1)} points.`)),
    scrolling(adviceTable(row.advice)));
  } catch (error) { if (token === hintToken) panel.textContent = "No verdict: " + error.message; }
}

async function showReview() {
  const panel = $("review-panel");
  panel.hidden = false;
  panel.textContent = "Reviewing your decisions of this hand…";
  try {
    const review = await api(`/api/games/${game.id}/review`);
    const table = document.createElement("table");
    table.className = "data";
    table.id = "review";
    // the cost next to the move, and a phone leaves out the stock and the hand held (the
    // link opens the whole position), so that the table fits its screen
    const extra = [3, 4];
    const head = document.createElement("thead");
    head.appendChild(tableRow("th", ["your move", "cost (points)", "advisor's best", "stock",
      "hand held", ""], extra));
    const body = document.createElement("tbody");
    for (const row of review.decisions) {
      const tr = tableRow("td", [moveWords(row.move),
        row.cost === null ? "?" : `${row.cost.toFixed(1)} ± ${row.cost_half_width.toFixed(1)}`,
        row.best ? moveWords(row.best) : "no advice: " + row.error, row.position ? row.position.stock : "?",
        row.position ? cardsLabel(sortCards(row.position.hand.split(" "))) : "?", ""], extra);
      if (row.position) tr.cells[5].appendChild(advisorLink(row.position));
      body.appendChild(tr);
      if (row.principle) {
        // the discard principle under the move, across the row (it wraps on a phone)
        const line = document.createElement("tr");
        line.className = "principle";
        const cell = document.createElement("td");
        cell.colSpan = 6;
        cell.textContent = row.principle;
        line.appendChild(cell);
        body.appendChild(line);
      }
    }
    table.appendChild(head);
    table.appendChild(body);
    const heading = document.createElement("h2");
    heading.textContent = `Review of hand ${review.hand}: your costliest decisions first ` +
      `(total ${review.total_cost.toFixed(1)} points against the advisor's best play)`;
    panel.replaceChildren(heading, review.decisions.length ? scrolling(table) : note("No discard decisions this hand."));
  } catch (error) { panel.textContent = "No review: " + error.message; }
}

function verdictLine(text) {
  const p = document.createElement("p");
  p.className = "verdict";
  p.textContent = text;
  return p;
}

function note(text) {
  const p = document.createElement("p");
  p.className = "muted";
  p.textContent = text;
  return p;
}

// On a phone the table is brought to the top of the screen as a hand starts: the hand and
// the move buttons (kept at the bottom of the screen) then both fit, so no move needs a scroll.
function bringTableIntoView() {
  if (matchMedia("(max-width: 560px)").matches) $("game").scrollIntoView({ block: "start" });
}

function remember(id) { rememberGame("practice-game", id); }

async function newGame() {
  setError("");
  hintToken++;
  try {
    const body = { rules: $("rules").value, opponent: $("opponent").value,
      mode: $("mode").value, hints: $("hints").value };
    const text = withPageSeed(body);  // /table?seed=N deals reproducibly
    game = await api("/api/games", text);
    remember(game.id);
    selected = null;
    $("hint-panel").hidden = true;
    render();
    bringTableIntoView();
    maybeHint();
  } catch (error) { setError(error.message); }
}

async function nextHand() {
  setError("");
  hintToken++;
  try {
    game = await api(`/api/games/${game.id}/next`, {});
    $("hint-panel").hidden = true;
    $("review-panel").hidden = true;
    render();
    bringTableIntoView();
    maybeHint();
  } catch (error) { setError(error.message); }
}

async function init() {
  const presets = await api("/api/presets");
  fillSelect($("rules"), presets.rules, "standard");
  fillSelect($("opponent"), presets.policies, presets.default_opponent);
  const buttons = { take: "take", pass: "pass", "draw-stock": "stock", "draw-pile": "pile",
    "big-gin": "big gin" };
  for (const [id, move] of Object.entries(buttons)) $(id).addEventListener("click", () => act(move));
  for (const verb of ["discard", "knock", "gin"]) {
    $(verb).addEventListener("click", () => selected && act((verb === "discard" ? "play" : verb) + " " + selected));
  }
  $("hint").addEventListener("click", showHint);
  $("new-game").addEventListener("click", newGame);
  $("next-hand").addEventListener("click", nextHand);
  $("save-hand").addEventListener("click", saveHand);
  const id = new URL(location.href).searchParams.get("game") || localStorage.getItem("practice-game");
  if (id) {
    try {
      game = await fetch(`/api/games/${encodeURIComponent(id)}`).then(r => r.ok ? r.json() : null);
    } catch (error) { game = null; }
    if (game) {
      remember(game.id);
      $("rules").value = game.rules; $("mode").value = game.mode; $("hints").value = game.hints;
      if ([...$("opponent").options].some(o => o.value === game.opponent)) $("opponent").value = game.opponent;
      render();
      bringTableIntoView();
      if (game.phase === "hand over") showReview(); else maybeHint();
    } else {
      localStorage.removeItem("practice-game");
    }
  }
  document.body.dataset.ready = "1";
}

init().catch(error => setError(error.message));
