"""The club's one page: HTML, CSS and JavaScript, no outside files (the LAN may have no
internet). It reads ``/api/…`` and re-reads it whenever ``/events`` says results changed."""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rummy club</title>
<style>
:root { --ink:#1d2327; --soft:#5b6770; --line:#d8dee3; --bg:#f5f7f8; --card:#fff; --win:#1e7b3c; --bad:#a3302a; }
* { box-sizing:border-box; }
body { margin:0; font:16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--ink); background:var(--bg); }
header { background:#17453a; color:#fff; padding:.6rem 1rem; display:flex; flex-wrap:wrap; gap:.4rem 1rem; align-items:center; }
header a { color:#fff; text-decoration:none; font-weight:600; }
header .live { margin-left:auto; font-size:.8rem; opacity:.85; }
main { max-width:1100px; margin:0 auto; padding:.8rem; }
h1 { font-size:1.3rem; margin:.2rem 0 .8rem; }
.grid { display:grid; grid-template-columns:repeat(auto-fill, minmax(260px, 1fr)); gap:.8rem; }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:.7rem .8rem; }
.card h2 { font-size:1.05rem; margin:0 0 .3rem; display:flex; justify-content:space-between; gap:.5rem; }
.meta { color:var(--soft); font-size:.85rem; }
.turn { font-weight:600; }
.ruling { margin-top:.4rem; font-size:.9rem; border-left:3px solid var(--line); padding-left:.5rem; }
table { border-collapse:collapse; width:100%; background:var(--card); }
th, td { padding:.35rem .45rem; border-bottom:1px solid var(--line); text-align:right; white-space:nowrap; }
th:first-child, td:first-child { text-align:left; }
.scroll { overflow-x:auto; border:1px solid var(--line); border-radius:8px; margin-bottom:1rem; }
.won { color:var(--win); font-weight:700; }
.msg { background:#fff4e5; border:1px solid #f0c36d; padding:.6rem .8rem; border-radius:8px; margin-bottom:.8rem; }
.pills a { display:inline-block; margin:0 .3rem .4rem 0; padding:.2rem .6rem; border:1px solid var(--line); border-radius:999px; background:#fff; color:var(--ink); text-decoration:none; font-size:.9rem; }
.pills a.on { background:#17453a; color:#fff; }
a { color:#17453a; }
@media (max-width:480px) { body { font-size:15px; } main { padding:.5rem; } th, td { padding:.3rem; } }
</style></head>
<body data-version="0">
<header><a href="/">Room</a><a href="/evening">Evening</a><a href="/league">League</a>
<span class="live" id="live">connecting…</span></header>
<main><div id="msg" class="msg" hidden></div><div id="view"></div></main>
<script>
"use strict";
const view = document.getElementById("view"), msg = document.getElementById("msg");
const esc = s => String(s == null ? "" : s).replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"}[c]));
const enc = encodeURIComponent;
// a part that is no valid %-escape (typed by hand) is kept as typed, not a blank page
const decoded = s => { try { return decodeURIComponent(s); } catch (e) { return s; } };
const parts = location.pathname.split("/").filter(Boolean).map(decoded);
const q = new URLSearchParams(location.search);
// a player named "." or ".." goes in the query: a browser takes such a path part for a folder step
const playerHref = p => p === "." || p === ".." ? "/player?name=" + enc(p) : "/player/" + enc(p);
function say(text) { msg.textContent = text; msg.hidden = !text; }
async function get(path) {
  let r;
  try { r = await fetch(path, {cache: "no-store"}); }
  catch (e) { throw new Error("The club's server cannot be reached; retrying when it is back."); }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || "The club's server could not answer.");
  return data;
}
function phaseText(g) {
  if (g.status === "over") return "game over";
  if (g.phase === "play") return g.turn ? g.turn + " to play" : "playing";
  if (g.phase === "show") return "show by " + g.turn;
  if (g.phase === "deal-over") return "deal over";
  if (g.phase === "turn-check") return "checking a turn";
  return "about to deal";
}
function playersTable(g) {
  return "<table><tr><th>Player</th><th>Total</th></tr>" + g.players.map((p, i) =>
    `<tr><td class="${g.winners.includes(p) ? "won" : ""}"><a href="${playerHref(p)}">${esc(p)}</a>${g.winners.includes(p) ? " ✓" : ""}</td><td>${esc(g.totals[i])}</td></tr>`).join("") + "</table>";
}
function tableCard(g) {
  return `<div class="card" data-table="${esc(g.table)}"><h2><a href="/table/${enc(g.table)}">Table ${esc(g.table)}</a><span class="meta">${esc(g.variant)}</span></h2>
  <div class="turn" data-role="turn">${esc(phaseText(g))}</div>
  <div class="meta">game ${esc(g.game)} · ${esc(g.deals)} deal${g.deals === 1 ? "" : "s"} · event ${esc(g.seq)}</div>
  ${playersTable(g)}
  ${g.ruling ? `<div class="ruling" data-role="ruling">${esc(g.ruling)}</div>` : ""}
  <div class="meta"><a href="/game/${enc(g.table)}/${enc(g.game)}">score sheet</a></div></div>`;
}
function standings(rows, rated) {
  if (!rows.length) return "<p class='meta'>No games yet.</p>";
  return `<div class="scroll"><table><tr><th>Player</th>${rated ? "<th>Rating</th>" : ""}<th>Games</th><th>Won</th><th>Win %</th><th>Deals won</th><th>Avg / deal</th></tr>` +
    rows.map(e => `<tr><td><a href="${playerHref(e.player)}">${esc(e.player)}</a></td>${rated ? `<td>${esc(e.rating)}</td>` : ""}<td>${e.games}</td><td>${e.wins}</td><td>${Math.round(e.win_rate * 100)}</td><td>${e.deals_won}</td><td>${e.average}</td></tr>`).join("") + "</table></div>";
}
async function room() {
  const d = await get("/api/room");
  const idle = d.idle.length ? `<p class="meta">Waiting for: ${d.idle.map(esc).join(", ")}</p>` : "";
  return `<h1>The room</h1><div class="grid">${d.tables.map(tableCard).join("") || "<p class='meta'>No table has reported yet.</p>"}</div>${idle}`;
}
async function game(t, g) {
  const d = await get(`/api/game/${enc(t)}/${enc(g)}`);
  const rows = d.score_rows.map(r => `<tr><td>Deal ${r.deal}</td>${r.scores.map((s, i) => `<td class="${r.winner === i ? "won" : ""}">${esc(s)}</td>`).join("")}</tr>`).join("");
  return `<h1>Table ${esc(d.table)} · game ${esc(d.game)}</h1><div class="grid">${tableCard(d)}</div><h1>Score sheet</h1>
  <div class="scroll"><table><tr><th></th>${d.players.map(p => `<th>${esc(p)}</th>`).join("")}</tr>${rows}
  <tr><th>Total</th>${d.totals.map(x => `<th>${esc(x)}</th>`).join("")}</tr></table></div>`;
}
async function table(t) {
  const d = await get("/api/room");
  const g = d.tables.find(x => x.table === t);
  if (!g) return `<h1>Table ${esc(t)}</h1><p class="meta">This table has not reported a game yet.</p>`;
  return game(t, g.game);
}
async function evening(day) {
  const d = await get("/api/evening" + (day ? "/" + enc(day) : ""));
  const pills = d.evenings.map(e => `<a class="${e === d.evening ? "on" : ""}" href="/evening/${enc(e)}">${esc(e)}</a>`).join("");
  return `<h1>Evening of ${esc(d.evening)}</h1><div class="pills">${pills}</div>${standings(d.standings, false)}
  <h1>Games</h1><div class="grid">${d.games.map(tableCard).join("")}</div>`;
}
async function league() {
  const v = q.get("variant"), s = q.get("season");
  const d = await get("/api/league" + (v && s ? `?variant=${enc(v)}&season=${enc(s)}` : ""));
  const pills = d.choices.map(c => `<a class="${c.variant === d.variant && c.season === d.season ? "on" : ""}" href="/league?variant=${enc(c.variant)}&season=${enc(c.season)}">${esc(c.variant)} ${esc(c.season)}</a>`).join("");
  return `<h1>League: ${esc(d.variant)} ${esc(d.season)}</h1><div class="pills">${pills}</div><p class="meta">${d.games} games · rated with openskill (winners ahead of the rest)</p>${standings(d.table, true)}`;
}
async function player(name) {
  const d = await get(name === "." || name === ".." ? "/api/player?name=" + enc(name)
                                                  : "/api/player/" + enc(name));
  const s = d.summary;
  const rated = Object.entries(d.ratings).map(([v, r]) => `${esc(v)}: ${esc(r)}`).join(" · ");
  const rows = d.games.map(g => `<tr><td><a href="/game/${enc(g.table)}/${enc(g.game)}">${esc(g.evening)} · table ${esc(g.table)}</a></td><td>${esc(g.variant)}</td><td>${esc(g.total)}</td><td class="${g.won ? "won" : ""}">${g.won ? "won" : g.status === "over" ? "" : "playing"}</td></tr>`).join("");
  return `<h1>${esc(d.player)}</h1><p>${s.games} games, ${s.wins} won, ${s.deals_won} of ${s.deals} deals won${rated ? " · rating " + rated : ""}</p>
  <div class="scroll"><table><tr><th>Game</th><th>Variant</th><th>Total</th><th></th></tr>${rows}</table></div>`;
}
function route() {
  const [p0, p1, p2] = parts;
  if (p0 === "table" && p1) return table(p1);
  if (p0 === "game" && p1 && p2) return game(p1, p2);
  if (p0 === "evening") return evening(p1);
  if (p0 === "league") return league();
  if (p0 === "player" && (p1 || q.has("name"))) return player(p1 || q.get("name"));
  return room();
}
let busy = false, again = false;
async function render() {
  if (busy) { again = true; return; }
  busy = true;
  try { view.innerHTML = await route(); say(""); }
  catch (e) { say(e && e.message ? e.message : "The page could not be shown."); }
  busy = false;
  if (again) { again = false; render(); }
}
window.addEventListener("error", () => say("The page could not be shown; reload it."));
render();
const live = document.getElementById("live");
if (window.EventSource) {
  const es = new EventSource("/events");
  // "live" while the page hears the club; and whether the club hears the tables (its broker)
  const status = ev => {
    let d = {};
    try { d = JSON.parse(ev.data); } catch (e) {}
    live.textContent = d.broker === false ? "live · tables not reaching the club" : "live";
    return d;
  };
  es.addEventListener("hello", status);
  es.addEventListener("change", ev => {
    document.body.dataset.version = status(ev).v;
    render();
  });
  es.onerror = () => { live.textContent = "reconnecting…"; };
  es.onopen = () => { render(); };
}
</script></body></html>
"""
