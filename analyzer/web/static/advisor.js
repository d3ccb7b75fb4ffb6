// The advisor page: a position built by clicks, kept in the URL, sent to POST /api/advise.
"use strict";
const position = { hand: [], pile: [], opp_took: [], opp_threw: [], drawn: null };
const $ = (id) => document.getElementById(id);
const FIELDS = ["stock", "turn", "dealer", "from_pile", "upcard", "use_score", "score_me",
  "score_opp", "rules", "opponent", "policy", "samples", "seed"];
const SETTINGS = ["rules", "opponent", "policy", "samples", "seed"];

function toggle(list, card) {
  const i = list.indexOf(card);
  if (i >= 0) list.splice(i, 1); else list.push(card);
}

function clickCard(card) {
  const mode = document.querySelector("input[name=mode]:checked").value;
  if (mode === "hand") {
    toggle(position.hand, card);
    position.pile = position.pile.filter(c => c !== card);
  } else if (mode === "pile") {
    toggle(position.pile, card);
    position.hand = position.hand.filter(c => c !== card);
  } else if (mode === "drawn") {
    position.drawn = position.drawn === card ? null : card;
    if (position.drawn && !position.hand.includes(card)) position.hand.push(card);
    position.pile = position.pile.filter(c => c !== card);
  } else {
    toggle(position[mode], card);
  }
  if (position.drawn && !position.hand.includes(position.drawn)) position.drawn = null;
  render();
}

function render() {
  for (const button of document.querySelectorAll("#grid .card")) {
    const card = button.dataset.card;
    button.classList.toggle("in-hand", position.hand.includes(card));
    button.classList.toggle("in-pile", position.pile.includes(card));
    button.classList.toggle("took", position.opp_took.includes(card));
    button.classList.toggle("threw", position.opp_threw.includes(card));
    button.classList.toggle("drawn", position.drawn === card);
    const badge = button.querySelector(".badge");
    const at = position.pile.indexOf(card);
    if (badge) badge.remove();
    if (at >= 0) {
      const span = document.createElement("span");
      span.className = "badge";
      span.textContent = at + 1;
      button.appendChild(span);
    }
  }
  $("summary").textContent = `hand ${position.hand.length} cards · pile ${position.pile.length} · ` +
    `opponent took ${position.opp_took.length}, threw ${position.opp_threw.length}`;
  saveToUrl();
}

// The position in the CLI's --position format.
function positionJson() {
  const data = { hand: sortCards(position.hand).join(" "), pile: position.pile.join(" "),
    opp_took: sortCards(position.opp_took).join(" "), opp_threw: position.opp_threw.join(" "),
    dealer: $("dealer").value };
  if (position.drawn) data.drawn = position.drawn;
  if ($("from_pile").checked) data.from_pile = true;
  for (const key of ["stock", "turn"]) if ($(key).value !== "") data[key] = Number($(key).value);
  if ($("upcard").value.trim()) data.upcard = $("upcard").value.trim();
  if ($("use_score").checked) data.score = [Number($("score_me").value), Number($("score_opp").value)];
  return data;
}

function loadPosition(data) {
  const cards = (value) => Array.isArray(value) ? value : String(value || "").split(/[\s,]+/).filter(Boolean);
  position.hand = cards(data.hand); position.pile = cards(data.pile);
  position.opp_took = cards(data.opp_took); position.opp_threw = cards(data.opp_threw);
  position.drawn = data.drawn || null;
  if (position.drawn && !position.hand.includes(position.drawn)) position.hand.push(position.drawn);
  $("stock").value = data.stock ?? ""; $("turn").value = data.turn ?? "";
  $("dealer").value = data.dealer || "opp"; $("from_pile").checked = Boolean(data.from_pile);
  $("upcard").value = data.upcard || "";
  let score = data.score;
  if (typeof score === "string") score = score.split(":").map(Number);
  $("use_score").checked = Array.isArray(score);
  if (Array.isArray(score)) { $("score_me").value = score[0]; $("score_opp").value = score[1]; }
}

function saveToUrl() {
  const params = new URLSearchParams({ position: JSON.stringify(positionJson()),
    rules: $("rules").value, opponent: $("opponent").value, policy: $("policy").value,
    seed: $("seed").value, samples: $("samples").value });
  history.replaceState(null, "", "#" + params.toString());
}

function loadFromUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("position")) {
    try { loadPosition(JSON.parse(params.get("position"))); }
    catch (error) { $("error").textContent = "The link's position is not valid JSON."; }
  }
  for (const key of SETTINGS) {
    if (params.get(key)) $(key).value = params.get(key);
  }
}

async function getAdvice() {
  $("error").textContent = "";
  $("advise").disabled = true;
  $("advise").textContent = "Thinking…";
  const body = { position: positionJson(), rules: $("rules").value, opponent: $("opponent").value,
    policy: $("policy").value, seed: Number($("seed").value), samples: Number($("samples").value) };
  try {
    const advice = await api("/api/advise", body);
    $("verdict").textContent = advice.verdict + ".";
    $("principle").textContent = [advice.draw_principle, advice.principle].filter(Boolean).join(" ");
    $("run").textContent = adviceSummary(advice);
    $("actions-table").replaceChildren(adviceTable(advice));
    $("result").hidden = false;
  } catch (error) {
    $("error").textContent = error.message;
    $("result").hidden = true;
  } finally {
    $("advise").disabled = false;
    $("advise").textContent = "Get the verdict";
  }
}

// A position (the CLI's --position JSON) or a hand saved at the practice table (its
// decisions offered in a list, the first opened).
let savedHand = null;
function openJson(data) {
  if (data && data.kind === "analyzer practice hand") {
    savedHand = data;
    const usable = data.decisions.filter(d => d.position);
    if (!usable.length) throw new Error("the saved hand has no decision the advisor can open");
    const select = $("history-decision");
    select.replaceChildren(...usable.map(d => {
      const option = document.createElement("option");
      option.value = d.index;
      option.textContent = `${moveWords(d.move)} (stock ${d.position.stock})`;
      return option;
    }));
    $("history-choice").hidden = false;
    if ([...$("rules").options].some(o => o.value === data.rules)) $("rules").value = data.rules;
    if ([...$("opponent").options].some(o => o.value === data.opponent)) $("opponent").value = data.opponent;
    openDecision(usable[0].index);
    return;
  }
  loadPosition(data);
  $("result").hidden = true;
  render();
}

function openDecision(index) {
  const decision = savedHand.decisions.find(d => d.index === index);
  $("history-decision").value = index;
  loadPosition(decision.position);
  $("result").hidden = true;
  render();
}

async function init() {
  const grid = $("grid");
  for (let suit = 0; suit < 4; suit++) {
    for (let rank = 0; rank < 13; rank++) grid.appendChild(cardButton(cardName(rank, suit), clickCard));
  }
  const presets = await api("/api/presets");
  fillSelect($("rules"), presets.rules, "standard");
  fillSelect($("opponent"), presets.policies, presets.default_opponent);
  fillSelect($("policy"), presets.policies, presets.default_policy);
  $("samples").value = presets.advice_samples;  // a link that names its own keeps that one
  loadFromUrl();
  for (const id of FIELDS) $(id).addEventListener("change", saveToUrl);
  $("advise").addEventListener("click", getAdvice);
  $("clear").addEventListener("click", () => {
    loadPosition({}); $("result").hidden = true; render();
  });
  $("export").addEventListener("click", () => { $("json").value = JSON.stringify(positionJson(), null, 1); });
  $("import").addEventListener("click", () => {
    try { openJson(JSON.parse($("json").value)); $("error").textContent = ""; }
    catch (error) { $("error").textContent = "Not a JSON position: " + error.message; }
  });
  $("history-file").addEventListener("change", async () => {
    const file = $("history-file").files[0];
    if (!file) return;
    try { openJson(JSON.parse(await file.text())); $("error").textContent = ""; }
    catch (error) { $("error").textContent = "Not a saved hand: " + error.message; }
  });
  $("history-decision").addEventListener("change", () => openDecision(Number($("history-decision").value)));
  render();
  document.body.dataset.ready = "1";
}

init().catch(error => { $("error").textContent = error.message; });
