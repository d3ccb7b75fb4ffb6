// The guide page: the strategy guide saved for a rules preset (GET /api/guide), laid out to
// print on one page, with links to its card as PDF and PNG.
"use strict";
function node(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

async function showGuide() {
  const rules = document.getElementById("guide-rules").value;
  const data = await api("/api/guide?" + new URLSearchParams({ rules }));
  const body = document.getElementById("guide-body");
  const missing = document.getElementById("guide-missing");
  body.hidden = !data.answer;
  missing.hidden = Boolean(data.answer);
  for (const kind of ["pdf", "png"]) {
    const link = document.getElementById(`guide-${kind}`);
    link.href = `/guide/card.${kind}?` + new URLSearchParams({ rules });
    link.hidden = !data.answer;
  }
  if (!data.answer) {
    missing.textContent = data.missing;
    return;
  }
  document.getElementById("guide-title").textContent = data.answer.title;
  document.getElementById("guide-blocks").replaceChildren(...data.answer.blocks.map(([heading, paragraphs]) => {
    const block = node("section", "guide-block");
    block.append(node("h2", "", heading), ...paragraphs.map(text => node("p", "", text)));
    return block;
  }));
  document.getElementById("guide-footer").textContent = data.answer.footer;
  document.getElementById("guide-source").textContent = "Source: " + data.answer.source + ".";
}

async function init() {
  const presets = await api("/api/presets");
  const select = document.getElementById("guide-rules");
  fillSelect(select, presets.rules, new URLSearchParams(location.search).get("rules") || "standard");
  select.addEventListener("change", () => showGuide().catch(error => {
    document.getElementById("error").textContent = error.message;
  }));
  await showGuide();
  document.body.dataset.ready = "1";
}
init().catch(error => { document.getElementById("error").textContent = error.message; });
