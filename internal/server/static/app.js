// ticoder's page: plain JavaScript, no libraries. It talks to the JSON API
// under /api/ and keeps the session id in the URL's fragment, so a reload
// (or a restarted server) resumes the session.
"use strict";

const $ = (id) => document.getElementById(id);
let info = null;    // api.Info
let state = null;   // api.Session
let projectFunctions = []; // the project's functions, as the server lists them
let chosen = -1;    // candidate index chosen for export (-1: the best)
let busy = false;

// --- API -------------------------------------------------------------------

// call sends a request to the API. A request other than GET is always JSON
// (the server refuses others); the access token, if the server needs one,
// travels in the cookie the server set when the page was opened with
// ?token=.
async function call(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (method !== "GET") {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body === undefined ? {} : body);
  }
  let resp;
  try {
    resp = await fetch(path, opts);
  } catch (e) {
    throw new Error("The ticoder server does not answer (" + e.message + "). Is it still running?");
  }
  const text = await resp.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { /* not JSON */ }
  if (!resp.ok) {
    throw new Error((data && data.error) || text || resp.statusText);
  }
  return data;
}

async function run(fn) {
  if (busy) return;
  busy = true;
  setDisabled(true);
  const timer = setTimeout(() => { $("busy").hidden = false; }, 300);
  // A new try hides the last error: if it fails the same way, the banner
  // shows (and is announced) again rather than staying unchanged.
  clearError();
  try {
    await fn();
  } catch (e) {
    showError(e.message);
  } finally {
    clearTimeout(timer);
    $("busy").hidden = true;
    busy = false;
    setDisabled(false);
  }
}

// While a request runs, clicks are ignored (see busy) and the page says so.
function setDisabled(on) {
  document.body.classList.toggle("is-busy", on);
}

// showError shows msg in the banner at the bottom of the window, announced
// (role=alert). The page is padded by the banner's height so that it can
// scroll past it, and scrolled so that the control just used (the focused
// one) is not hidden under it.
function showError(msg) {
  const box = $("error");
  $("error-text").textContent = msg;
  box.hidden = false;
  document.body.style.paddingBottom = box.offsetHeight + "px";
  const used = document.activeElement;
  if (used && used !== document.body && !box.contains(used) && used.getClientRects().length) {
    const under = used.getBoundingClientRect().bottom + 8 - box.getBoundingClientRect().top;
    if (under > 0) window.scrollBy(0, under);
  }
}

function clearError() {
  $("error").hidden = true;
  $("error-text").textContent = "";
  document.body.style.paddingBottom = "";
}

// --- Python highlighting ---------------------------------------------------

const KEYWORDS = new Set(("False None True and as assert async await break class continue def del elif else except " +
  "finally for from global if import in is lambda nonlocal not or pass raise return try while with yield").split(" "));
const TOKEN = /(#[^\n]*)|([rbfuRBFU]{0,2}(?:"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'))|(\b\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?\b)|([A-Za-z_]\w*)/g;

function highlight(el, code) {
  el.textContent = "";
  let last = 0;
  let prev = "";
  for (const m of code.matchAll(TOKEN)) {
    if (m.index > last) el.append(code.slice(last, m.index));
    let cls = null;
    if (m[1]) cls = "tok-com";
    else if (m[2]) cls = "tok-str";
    else if (m[3]) cls = "tok-num";
    else if (KEYWORDS.has(m[4])) cls = "tok-kw";
    else if (prev === "def" || prev === "class") cls = "tok-fn";
    if (cls) {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = m[0];
      el.append(span);
    } else {
      el.append(m[0]);
    }
    if (m[4]) prev = m[4];
    last = m.index + m[0].length;
  }
  el.append(code.slice(last));
}

// --- line diff -------------------------------------------------------------

function diffLines(a, b) {
  const x = a.replace(/\n$/, "").split("\n"), y = b.replace(/\n$/, "").split("\n");
  const n = x.length, m = y.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) { out.push([" ", x[i]]); i++; j++; }
    else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) { out.push(["-", x[i]]); i++; }
    else { out.push(["+", y[j]]); j++; }
  }
  return out;
}

function renderDiff(el, a, b) {
  el.textContent = "";
  for (const [op, line] of diffLines(a, b)) {
    const span = document.createElement("span");
    if (op === "+") span.className = "add";
    if (op === "-") span.className = "del";
    span.textContent = op + " " + line + (op === " " ? "\n" : "");
    el.append(span);
  }
}

// --- views -----------------------------------------------------------------

function show(view) {
  for (const v of ["start", "ask", "final"]) $(v).hidden = v !== view;
}

function renderStart() {
  show("start");
  const demos = $("demos");
  demos.textContent = "";
  for (const d of info.demos) {
    const b = document.createElement("button");
    b.className = "card";
    b.id = "demo-" + d.name;
    const t = document.createElement("strong");
    t.textContent = d.title;
    const s = document.createElement("span");
    s.textContent = d.summary;
    b.append(t, s);
    b.addEventListener("click", () => create({ demo: d.name }));
    demos.append(b);
  }
  $("own").hidden = !info.model;
  $("project").hidden = !info.project;
  if (info.project) renderProject();
}

// renderProject fills the picker with the project's functions.
async function renderProject() {
  $("project-root").textContent = info.project;
  const p = await call("GET", "/api/project");
  projectFunctions = p.functions;
  const sel = $("project-function");
  sel.textContent = "";
  p.functions.forEach((f, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = f.file + "::" + f.name;
    sel.append(o);
  });
  $("create-project").disabled = p.functions.length === 0;
  $("project-problems").textContent = (p.problems || []).join("; ");
}

function samples(n) { return n === 1 ? "1 sample" : n + " samples"; }

// tied reports whether another candidate has candidate i's rank (equal
// ranks are ties: the ranking cannot tell them apart).
function tied(cands, i) {
  return cands.some((c, j) => j !== i && c.rank === cands[i].rank);
}

// rankLabel is "#2", or "=2" for a tie, as in the terminal.
function rankLabel(cands, i) {
  return (tied(cands, i) ? "=" : "#") + cands[i].rank;
}

// verdictWord says an answer in the words of the buttons.
function verdictWord(h) {
  switch (h.verdict) {
    case "pass": return "yes";
    case "fail": return "no";
    case "undefined": return "don't know";
  }
  return "= " + h.value;
}

// announce says text to screen readers (the aria-live region).
function announce(text) {
  const el = $("announce");
  if (el.textContent === text) text += "\u00a0"; // a change, so it is read again
  el.textContent = text;
}

// renderCandidates lists behaviour classes; the first few are open, the
// rest folded (a click opens them).
function renderCandidates(el, cands, choosable) {
  el.textContent = "";
  cands.forEach((c, i) => {
    const li = document.createElement("li");
    li.dataset.index = c.index;
    const det = document.createElement("details");
    det.open = i < 3 || (choosable && chosen === c.index);
    const head = document.createElement("summary");
    head.className = "cand-head";
    const left = document.createElement("span");
    const b = document.createElement("b");
    b.textContent = rankLabel(cands, i);
    left.append(b, " " + samples(c.samples) + (c.programs > 1 ? " in " + c.programs + " variants" : "") +
      (tied(cands, i) ? " (tied)" : "") +
      (c.crashes > 0 ? " — fallback, crashes on " + c.crashes + " answered input" + (c.crashes === 1 ? "" : "s") : ""));
    head.append(left);
    const isChosen = choosable && (chosen === c.index || (chosen < 0 && i === 0));
    if (choosable) {
      const pick = document.createElement("button");
      pick.textContent = isChosen ? "Exported" : "Export this";
      pick.disabled = isChosen;
      pick.className = "choose";
      pick.addEventListener("click", (e) => { e.preventDefault(); chosen = c.index; run(renderFinal); });
      head.append(pick);
    }
    if (isChosen) li.className = "chosen";
    const pre = document.createElement("pre");
    pre.className = "code";
    pre.tabIndex = 0; // scrollable by keyboard
    highlight(pre, c.program);
    det.append(head, pre);
    li.append(det);
    el.append(li);
  });
}

function renderHistory(ol, panel) {
  ol.textContent = "";
  for (const h of state.history) {
    const li = document.createElement("li");
    const v = document.createElement("span");
    v.className = "verdict " + h.verdict;
    v.textContent = verdictWord(h);
    const code = document.createElement("code");
    code.textContent = h.code;
    li.append(v, code, " → " + samples(h.remaining) + " left");
    ol.append(li);
  }
  panel.hidden = state.history.length === 0;
}

// renderConflict says, when no candidate agrees with all the answers, that
// the remaining ones are the closest and what the model was asked.
function renderConflict(el) {
  el.textContent = state.conflict_message || "";
  el.hidden = !state.conflict_message;
}

function renderMeter() {
  $("remaining-samples").textContent = state.remaining.samples;
  $("total-samples").textContent = state.total.samples;
  $("remaining-classes").textContent = state.remaining.classes;
  const pct = state.total.samples ? (100 * state.remaining.samples) / state.total.samples : 0;
  $("bar-fill").style.width = pct + "%";
}

function renderAsk() {
  show("ask");
  $("task-title").textContent = state.task.title || state.task.name;
  highlight($("task-stub"), state.task.stub);
  const q = state.question;
  $("qnum").textContent = q.number;
  // Only the code is highlighted: the note in words a synthesized question
  // ends with (interact.SplitPrompt) is plain text.
  const cut = q.prompt.lastIndexOf("\n(what should ");
  highlight($("question"), cut < 0 ? q.prompt : q.prompt.slice(0, cut));
  if (cut >= 0) {
    const note = document.createElement("span");
    note.className = "prose";
    note.textContent = q.prompt.slice(cut);
    $("question").append(note);
  }
  $("output-form").hidden = !q.can_output;
  renderChoices(q);
  $("output-call").textContent = q.input || "";
  $("output-value").value = "";
  $("btn-undo").disabled = state.history.length === 0;
  renderMeter();
  renderConflict($("conflict"));
  renderHistory($("history"), $("history-panel"));
  renderCandidates($("candidates"), state.candidates, false);
  let said = "";
  const last = state.history[state.history.length - 1];
  if (last) said = "Answer " + last.number + ": " + verdictWord(last) + ". ";
  if (state.conflict_message) said += state.conflict_message + " ";
  announce(said + samples(state.remaining.samples) + " of " + state.total.samples + " left. Question " + q.number +
    ": is this what your function should do? " + q.prompt);
}

// renderChoices offers, for a synthesized question in output mode, each
// value the remaining candidates return as a button: the shown value
// answers yes, another one answers with that value. The free value (the
// output form) and "invalid input" (btn-undefined) stay. Values come from
// candidate code: they are only ever set as text.
function renderChoices(q) {
  const box = $("choice-buttons");
  box.replaceChildren();
  const choices = q.synthesized && q.can_output && Array.isArray(q.choices) ? q.choices : [];
  $("choices").hidden = choices.length === 0;
  choices.forEach((v, i) => {
    const b = document.createElement("button");
    b.id = "choice-" + i;
    b.type = "button";
    b.className = "choice";
    b.textContent = v;
    b.title = q.input + " == " + v;
    b.setAttribute("aria-label", "it should return " + v);
    b.addEventListener("click", () => (v === q.expected ? answer("pass") : answer("output", v)));
    box.append(b);
  });
}

async function renderFinal() {
  show("final");
  $("final-title").textContent = state.task.title || state.task.name;
  $("stop-message").textContent = state.stop_message || "";
  renderConflict($("final-conflict"));
  const n = state.history.length;
  $("final-summary").textContent = "You answered " + n + (n === 1 ? " question" : " questions") + "; " +
    samples(state.remaining.samples) + " of " + state.total.samples + " remain, in " +
    state.remaining.classes + (state.remaining.classes === 1 ? " behaviour." : " distinct behaviours.");
  renderCandidates($("final-candidates"), state.candidates, true);
  renderHistory($("final-history"), $("final-history-panel"));
  const top = state.candidates;
  $("diff-panel").hidden = top.length < 2;
  if (top.length >= 2) renderDiff($("diff"), top[0].program, top[1].program);
  $("diff-tied").textContent = top.length >= 2 && top[0].rank === top[1].rank ? " (tied: ranked equal)" : "";
  announce("Done: " + (state.stop_message || "") + " " + (state.conflict_message ? state.conflict_message + " " : "") +
    $("final-summary").textContent);
  if (top.length === 0) {
    for (const id of ["code-file", "test-file", "check"]) $(id).textContent = "";
    $("export-code").textContent = "";
    $("export-tests").textContent = "";
    $("dl-code").hidden = $("dl-tests").hidden = true;
    return;
  }
  const q = chosen >= 0 ? "?candidate=" + chosen : "";
  const ex = await call("GET", "/api/sessions/" + state.id + "/export" + q);
  const sep = q ? "&" : "?";
  $("code-file").textContent = ex.code_file;
  $("test-file").textContent = ex.test_file;
  highlight($("export-code"), ex.code);
  highlight($("export-tests"), ex.tests);
  const base = "/api/sessions/" + state.id + "/export" + q + sep + "download=";
  $("dl-code").href = base + "code";
  $("dl-tests").href = base + "tests";
  $("dl-code").hidden = $("dl-tests").hidden = false;
  renderPatch(ex, base);
  const check = $("check");
  if (ex.test_count === 0) {
    check.className = "check";
    check.textContent = "You approved no test, so the file has none.";
  } else if (!ex.checked) {
    check.className = "check";
    check.textContent = "Not run in the sandbox: " + (ex.unchecked || "no test runner") + ". Run them with: " + (ex.command || "");
  } else if (ex.passed) {
    check.className = "check ok";
    check.textContent = (ex.test_count === 1 ? "✓ The approved test passes" : "✓ All " + ex.test_count + " approved tests pass") + " against this code (run in the sandbox).";
  } else {
    check.className = "check bad";
    check.textContent = "✗ Some tests fail against this code: " + (ex.failures || []).join("; ");
  }
}

// renderPatch shows the patch of a session on a project's function, and
// the way to write it in place.
function renderPatch(ex, base) {
  $("patch-panel").hidden = !ex.patch_file;
  if (!ex.patch_file) return;
  $("patch-file").textContent = ex.patch_file;
  $("dl-patch").href = base + "patch";
  $("export-patch").textContent = ex.patch;
  $("write-ok").checked = false;
  $("btn-write").disabled = true;
  $("write-report").textContent = "";
}

function writeProject() {
  if (!state || !$("write-ok").checked) return;
  run(async () => {
    const res = await call("POST", "/api/sessions/" + state.id + "/write", { candidate: chosen });
    $("write-report").textContent = res.report;
    $("btn-write").disabled = true;
    $("write-ok").checked = false;
  });
}

async function render() {
  if (!state) { renderStart(); return; }
  if (location.hash !== "#" + state.id) history.replaceState(null, "", "#" + state.id);
  if (state.done) await renderFinal(); else renderAsk();
}

// --- actions ---------------------------------------------------------------

function create(req) {
  run(async () => {
    req.mode = $("mode").value;
    state = await call("POST", "/api/sessions", req);
    chosen = -1;
    await render();
  });
}

function answer(verdict, value) {
  if (!state || state.done || !state.question) return;
  run(async () => {
    state = await call("POST", "/api/sessions/" + state.id + "/answer",
      { test: state.question.test, verdict, value: value || "" });
    await render();
  });
}

function act(what) {
  if (!state) return;
  run(async () => {
    state = await call("POST", "/api/sessions/" + state.id + "/" + what);
    chosen = -1;
    await render();
  });
}

function newTask() {
  state = null;
  chosen = -1;
  history.replaceState(null, "", location.pathname);
  clearError();
  renderStart();
}

function bind() {
  $("btn-pass").addEventListener("click", () => answer("pass"));
  $("btn-fail").addEventListener("click", () => answer("fail"));
  $("btn-undefined").addEventListener("click", () => answer("undefined"));
  $("output-form").addEventListener("submit", (e) => { e.preventDefault(); answer("output", $("output-value").value); });
  $("btn-undo").addEventListener("click", () => act("undo"));
  $("btn-undo-final").addEventListener("click", () => act("undo"));
  $("btn-stop").addEventListener("click", () => act("stop"));
  $("btn-new").addEventListener("click", newTask);
  $("home").addEventListener("click", (e) => { e.preventDefault(); newTask(); });
  $("error-close").addEventListener("click", clearError);
  $("create-spec").addEventListener("click", () => create({ spec: $("spec").value }));
  $("create-project").addEventListener("click", () => {
    const f = projectFunctions[Number($("project-function").value)];
    if (f) create({ file: f.file, function: f.name });
  });
  $("write-ok").addEventListener("change", () => { $("btn-write").disabled = !$("write-ok").checked; });
  $("btn-write").addEventListener("click", writeProject);
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || $("ask").hidden) return;
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    const keys = { y: () => answer("pass"), n: () => answer("fail"), d: () => answer("undefined"),
      u: () => act("undo"), q: () => act("stop"),
      o: () => { if (!$("output-form").hidden) $("output-value").focus(); } };
    const f = keys[e.key];
    if (f) { e.preventDefault(); f(); }
  });
}

async function init() {
  bind();
  await run(async () => {
    info = await call("GET", "/api/info");
    if (info.model) $("model").textContent = "model: " + info.model;
    if (info.mode) $("mode").value = info.mode;
    const id = location.hash.slice(1);
    if (id) {
      try {
        state = await call("GET", "/api/sessions/" + encodeURIComponent(id));
      } catch (e) {
        state = null;
        renderStart();
        throw e;
      }
    }
    await render();
  });
}

init();
