// Shared by the three pages: card notation, card buttons and the JSON API client.
"use strict";
const RANKS = "A23456789TJQK";
const SUITS = "cdhs";
const SYMBOLS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };

function cardName(rank, suit) { return RANKS[rank] + SUITS[suit]; }
function cardLabel(name) { return name[0] + SYMBOLS[name[1]]; }
// Cards in notation ("3c 4c" or a list) in symbols ("3♣ 4♣").
function cardsLabel(cards) {
  const list = Array.isArray(cards) ? cards : String(cards || "").split(/\s+/).filter(Boolean);
  return list.map(cardLabel).join(" ");
}
// A move or advisor action ("play 6c", "knock 6c", "gin 6c", "big gin") in words.
function moveWords(move) {
  const [verb, card] = move.split(" ");
  if (!card || verb === "big") return move;
  const label = cardLabel(card);
  return verb === "play" ? "discard " + label : `${verb}, discarding ${label}`;
}
function isRed(name) { return name[1] === "d" || name[1] === "h"; }
function cardIndex(name) { return SUITS.indexOf(name[1]) * 13 + RANKS.indexOf(name[0]); }
function sortCards(cards) { return [...cards].sort((a, b) => cardIndex(a) - cardIndex(b)); }

// A button showing one card (notation in data-card, e.g. "Kd").
function cardButton(name, onClick) {
  const button = document.createElement("button");
  button.className = "card" + (isRed(name) ? " red" : "");
  button.dataset.card = name;
  button.id = "card-" + name;
  button.type = "button";
  button.textContent = cardLabel(name);
  button.title = name;
  if (onClick) button.addEventListener("click", () => onClick(name, button));
  return button;
}

function backCard(text) {
  const div = document.createElement("div");
  div.className = "card back";
  div.textContent = text || "";
  return div;
}

// POST (with a body) or GET; throws Error(one-line reason) on an HTTP error.
// POST ``body`` (an object, or JSON text already written) to ``path``, or GET without one.
async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || ("HTTP " + response.status));
  return data;
}

function fillSelect(select, values, chosen) {
  select.innerHTML = "";
  for (const value of values) {
    const option = document.createElement("option");
    option.value = option.textContent = value;
    if (value === chosen) option.selected = true;
    select.appendChild(option);
  }
}

// A practice table's game ``id``, kept for a reload: in localStorage under ``key`` and in the URL.
function rememberGame(key, id) {
  localStorage.setItem(key, id);
  const url = new URL(location.href);
  url.searchParams.set("game", id);
  history.replaceState(null, "", url);
}

// A new game's request ``body`` as JSON text, with the page's ?seed=N (the deals reproducible;
// the server checks N and says what is wrong). The server takes integers only as JSON
// numbers, and a JS number holds only 2**53 exactly, so a seed of digits is written into the
// JSON text whole; anything else goes as a string, which the server refuses naming the seed.
function withPageSeed(body) {
  const text = JSON.stringify(body);
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed === null) return text;
  const token = /^(0|[1-9][0-9]{0,29})$/.test(seed) ? seed : JSON.stringify(seed);
  return text.slice(0, -1) + `,"seed":${token}}`;
}

// The lines of a table's log as the items of the list ``element``.
function showLog(element, lines) {
  element.replaceChildren(...lines.map(line => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
}

function pct(x) { return (100 * x).toFixed(1) + "%"; }

// A table row of ``cells`` (``th`` or ``td``); the columns listed in ``extra`` get the
// class "extra", which a phone leaves out.
function tableRow(tag, cells, extra = []) {
  const tr = document.createElement("tr");
  cells.forEach((cell, column) => {
    const node = document.createElement(tag);
    if (extra.includes(column)) node.className = "extra";
    node.textContent = cell;
    tr.appendChild(node);
  });
  return tr;
}

// The advice table's columns a phone leaves out: deadwood, P(undercut), P(opp gin), samples.
const EXTRA_COLUMNS = [1, 6, 7, 8];

// The ranked actions of an advice as a table element.
function adviceTable(advice) {
  const game = advice.objective === "game";
  const scale = game ? 100 : 1;
  const unit = game ? " pp" : "";
  const table = document.createElement("table");
  table.className = "data";
  const head = document.createElement("thead");
  head.appendChild(tableRow("th", ["action", "deadwood", `value (${game ? "game-win %" : "points"})`,
    "95% CI ±", "vs best", "P(win hand)", "P(undercut)", "P(opp gin)", "samples"], EXTRA_COLUMNS));
  const body = document.createElement("tbody");
  advice.actions.forEach((row, i) => {
    const behind = i === 0 ? "best" :
      (-row.behind * scale).toFixed(1) + " ± " + (row.behind_half_width * scale).toFixed(1) + unit;
    const tr = tableRow("td", [moveWords(row.action) + (row.dropped ? " *" : ""), row.deadwood,
      (row.mean * scale).toFixed(2), (row.half_width * scale).toFixed(2), behind, pct(row.p_win),
      row.kind === "gin" || row.kind === "big gin" ? "-" : pct(row.p_undercut),
      row.kind === "play" ? pct(row.p_opp_gin) : "-", row.samples], EXTRA_COLUMNS);
    if (i === 0) tr.className = "best";
    body.appendChild(tr);
  });
  table.append(head, body);
  return table;
}

// An element in a box that scrolls sideways when it is wider than the screen.
function scrolling(element) {
  const box = document.createElement("div");
  box.className = "scroll";
  box.appendChild(element);
  return box;
}

function adviceSummary(advice) {
  const s = advice.settings || {};
  return `Opponent model: ${s.opponent}; you play on as ${s.policy}; rules ${advice.rules_preset}. ` +
    `${advice.samples.toLocaleString()} samples (effective ${Math.round(advice.ess).toLocaleString()}, ` +
    `${advice.weights} weights), ${advice.elapsed_s.toFixed(2)} s, ` +
    (advice.stopped === "converged" ? "converged" : "sample budget spent") + ". " +
    (advice.objective === "game" ? "Values are game-win probabilities." : "Values are points per hand.") +
    (advice.actions.some(a => a.dropped) ? " * dropped early as significantly worse." : "");
}
