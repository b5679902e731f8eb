// mechasheet's page: the main thread. It reads what the GM drops or picks, hands the files to the
// worker (Pyodide running converter.web.page), and draws the report. Nothing leaves the machine:
// the only requests are for this site's own files, and nothing is stored unless the GM switches
// "remember my options" on (the page's one use of localStorage).

const SYSTEMS = ["up", "mailgear", "pp"];
const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };
const STORE_KEY = "mechasheet.options";
// The option files, each the command line's option of the same name, put under /in/_options/.
const OPTION_FILES = ["catalog", "skills", "house", "profile", "mapping"];

// The page's own words; the findings' texts come from the library in the chosen language.
const STRINGS = {
  ja: {
    skip: "結果へ移動",
    lead: "シートをこのページに落とすと、このコンピューターの中だけで確認します。ファイルはどこにも送られません。",
    input: "シートを選ぶ",
    drop: "ここにファイルやフォルダーを落とす",
    dropHelp: "または Enter で選ぶ（.json、.xlsx、.xls、.ods など）",
    pickFiles: "ファイルを選ぶ",
    pickFolder: "フォルダーを選ぶ",
    options: "オプション",
    rules: "選択ルールの読み方（--rule）",
    ruleText: "NAME=VALUE（空白で区切って複数）",
    ruleDefault: "既定",
    catalog: "mailgear: 卓のカタログ（--catalog）",
    skills: "pp: 卓の技能リスト（--skills）",
    house: "ハウスルール（監査の --house、TOML）",
    profile: "自作シートのレイアウト・プロファイル（--profile、TOML）",
    mapping: "変換の対応表（convert の --mapping、TOML）",
    formulas: "テンプレートの数式（--formulas）",
    clear: "外す",
    remember: "オプションを覚える（このブラウザーの localStorage。オフにすると消します）",
    rerun: "同じファイルをこのオプションで確認し直す",
    results: "結果",
    dlReport: "JSON の報告",
    dlAudit: "監査（注記付きの写し、zip）",
    party: "パーティ",
    templates: "空のテンプレート",
    privacy: "このページは自分のサイトのファイルだけを読み込みます。解析ツールも外部への送信もありません。オプションは「覚える」をオンにしたときだけ保存します。",
    loading: "準備しています（Python を読み込み中）…",
    ready: "準備ができました。シートを落とすか選んでください。",
    failed: "始められませんでした: ",
    reading: (done, total, path) => `確認中 ${done} / ${total}: ${path}`,
    partyReading: (done, total, path) => `パーティを集計中 ${done} / ${total}: ${path}`,
    auditing: (done, total, path) => `監査中 ${done} / ${total}: ${path}`,
    collecting: (n) => `ファイルを集めています… ${n}`,
    summary: (s, valid) => `${s.files} ファイル・エラー ${s.errors}・警告 ${s.warnings}・有効 ${valid} / ${s.files}`,
    runFailed: "確認できませんでした",
    none: "ファイルがありません",
    valid: "有効",
    labelled: "ラベルで読んだ内容（mechasheet audit・import と同じ読み方）",
    invalid: "エラーあり",
    unreadable: "読めません",
    system: "システム",
    computed: "計算",
    declared: "申告",
    budget: "予算",
    findings: "見つかったこと",
    severity: "重要度",
    cell: "セル",
    code: "コード",
    message: "内容",
    hint: "直し方",
    sev: { error: "エラー", warning: "警告", info: "情報" },
    breakdown: "内訳",
    item: "項目",
    rule: "ルール",
    cost: "点数",
    derived: "派生値",
    value: "値",
    noFindings: "見つかったことはありません",
    filled: "記入済みのシート（xlsx）",
    convert: (to) => `${to} に変換`,
    ccfolia: "ココフォリアの駒をコピー",
    ccfoliaPiece: (i, n) => `ココフォリアの駒 ${i} / ${n} をコピー`,
    copied: "コピーしました",
    copyFailed: "コピーできませんでした",
    udonarium: "ユドナリウム（zip）",
    template: (system) => `${system} のテンプレート（xlsx）`,
    working: "作っています…",
    error: "エラー",
    account: "変換の記録",
    partyBar: "点数",
    lang: "English",
    langName: "en",
  },
  en: {
    skip: "Skip to the results",
    lead: "Drop sheets on this page to check them on this computer only. No file is sent anywhere.",
    input: "Choose sheets",
    drop: "Drop files or a folder here",
    dropHelp: "or press Enter to pick them (.json, .xlsx, .xls, .ods and more)",
    pickFiles: "Pick files",
    pickFolder: "Pick a folder",
    options: "Options",
    rules: "Rule readings (--rule)",
    ruleText: "NAME=VALUE (several, separated by spaces)",
    ruleDefault: "default",
    catalog: "mailgear: the group's catalog (--catalog)",
    skills: "pp: the group's skill list (--skills)",
    house: "House rules (the audit's --house, TOML)",
    profile: "A homemade sheet's layout profile (--profile, TOML)",
    mapping: "A conversion's mapping (convert's --mapping, TOML)",
    formulas: "Template formulas (--formulas)",
    clear: "Remove",
    remember: "Remember my options (this browser's localStorage; switching off clears it)",
    rerun: "Check the same files again with these options",
    results: "Results",
    dlReport: "JSON report",
    dlAudit: "Audit (annotated copies, zip)",
    party: "Party",
    templates: "Empty templates",
    privacy: "This page loads only its own site's files. No analytics, nothing sent anywhere. Options are stored only when you switch \"remember\" on.",
    loading: "Getting ready (loading Python)…",
    ready: "Ready. Drop or pick sheets.",
    failed: "Could not start: ",
    reading: (done, total, path) => `Checking ${done} / ${total}: ${path}`,
    partyReading: (done, total, path) => `Reading the party ${done} / ${total}: ${path}`,
    auditing: (done, total, path) => `Auditing ${done} / ${total}: ${path}`,
    collecting: (n) => `Collecting files… ${n}`,
    summary: (s, valid) => `${s.files} files · ${s.errors} errors · ${s.warnings} warnings · ${valid} / ${s.files} valid`,
    runFailed: "Could not check",
    none: "No files",
    valid: "valid",
    labelled: "Read by its labels (as mechasheet audit and import read it)",
    invalid: "has errors",
    unreadable: "unreadable",
    system: "System",
    computed: "computed",
    declared: "declared",
    budget: "budget",
    findings: "Findings",
    severity: "Severity",
    cell: "Cell",
    code: "Code",
    message: "Message",
    hint: "How to fix",
    sev: { error: "error", warning: "warning", info: "info" },
    breakdown: "Breakdown",
    item: "Item",
    rule: "Rule",
    cost: "Cost",
    derived: "Derived values",
    value: "Value",
    noFindings: "Nothing found",
    filled: "Filled sheet (xlsx)",
    convert: (to) => `Convert to ${to}`,
    ccfolia: "Copy the CCFOLIA piece",
    ccfoliaPiece: (i, n) => `Copy CCFOLIA piece ${i} of ${n}`,
    copied: "Copied",
    copyFailed: "Could not copy",
    udonarium: "Udonarium (zip)",
    template: (system) => `${system} template (xlsx)`,
    working: "Making it…",
    error: "Error",
    account: "Conversion account",
    partyBar: "points",
    lang: "日本語",
    langName: "ja",
  },
};

const $ = (id) => document.getElementById(id);

const state = {
  lang: "ja",
  inputs: [], // [{path, file}] as dropped or picked, relative paths kept
  roots: [], // the paths handed to the check (a dropped folder by its name, a file by its path)
  report: null,
  party: [],
  labelled: [], // characters the audit read by labels from homemade workbooks
  ready: false,
  running: false,
  rulesKnown: null,
};

// Exposed for tests and a group's own scripts (docs/web.md).
window.mechasheetReport = null;
// ready_ms: from the page's start until it takes files; run_ms: the last run, from the files
// handed over until the report is drawn; party_ms: its party view after that; warm_ms: the
// warm-up the worker does right after ready (a first run waits for what is left of it); start:
// the worker's steps to ready (site_ms, pyodide_ms, wheels_ms, import_ms).
window.mechasheetTimings = { ready_ms: null, run_ms: null, party_ms: null, warm_ms: null };

const t = (key, ...args) => {
  const value = STRINGS[state.lang][key];
  return typeof value === "function" ? value(...args) : value;
};

function setState(name) {
  document.body.dataset.state = name;
}

// --- the worker ----------------------------------------------------------------------------------

const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
const pending = new Map();
const ACTIONS = new Set(["audit", "filled", "convert", "ccfolia", "udonarium"]);
let nextId = 1;

/** One call of a Session method in the worker; resolves to {ok} or {error} (never rejects). */
function call(method, request, extra = {}, onProgress = null) {
  const id = nextId++;
  // An action on the last run's files takes the option files as they are chosen now.
  if (ACTIONS.has(method) && !extra.files) extra = { ...extra, options: optionInputs() };
  return new Promise((resolve) => {
    pending.set(id, { resolve, onProgress });
    worker.postMessage({ id, method, request, ...extra });
  });
}

worker.onmessage = (event) => {
  const data = event.data;
  if (data.ready) {
    onReady(data.ready);
    return;
  }
  if (data.failed) {
    onFailed(data.failed);
    return;
  }
  const waiting = pending.get(data.id);
  if (!waiting) return;
  if (data.progress) {
    if (waiting.onProgress) waiting.onProgress(...data.progress);
    return;
  }
  pending.delete(data.id);
  waiting.resolve({ ...data.result, downloads: data.downloads || [] });
};

worker.onerror = (event) => {
  event.preventDefault();
  onFailed(event.message || "worker");
};

function onFailed(text) {
  setState("error");
  $("progress").textContent = t("failed") + text;
}

async function onReady(info) {
  window.mechasheetTimings.ready_ms = Math.round(performance.now());
  window.mechasheetTimings.start = info.phases || {};
  $("version").textContent = `mechasheet ${info.version}`;
  // First in the worker's queue: imports and one run of each engine, so the first drop is quick.
  const warming = performance.now();
  call("warm", {}).then(() => {
    window.mechasheetTimings.warm_ms = Math.round(performance.now() - warming);
  });
  const rules = await call("rules", { lang: state.lang });
  state.rulesKnown = rules.ok || null;
  drawRuleSelects();
  for (const id of ["drop", "files", "folder"]) $(id).disabled = false;
  state.ready = true;
  $("progress").textContent = t("ready");
  restoreOptions();
  setState("ready");
}

// --- collecting the files ------------------------------------------------------------------------

/** Entries of a dropped folder, recursively (readEntries hands them out in batches). */
async function walk(entry, into) {
  if (entry.isFile) {
    const file = await new Promise((ok, fail) => entry.file(ok, fail));
    into.push({ path: entry.fullPath.replace(/^\/+/, ""), file });
    $("progress").textContent = t("collecting", into.length);
    return;
  }
  if (!entry.isDirectory) return;
  const reader = entry.createReader();
  for (;;) {
    const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, into);
  }
}

/** What was dropped: folders walked, files as they are, each with its path relative to the drop. */
async function fromDrop(dataTransfer) {
  const entries = [];
  for (const item of dataTransfer.items || []) {
    if (item.kind !== "file") continue;
    const entry = item.webkitGetAsEntry ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else entries.push({ plain: item.getAsFile() });
  }
  const inputs = [];
  if (entries.length === 0) {
    for (const file of dataTransfer.files || []) inputs.push({ path: file.name, file });
  }
  for (const entry of entries) {
    if (entry.plain) inputs.push({ path: entry.plain.name, file: entry.plain });
    else await walk(entry, inputs);
  }
  return inputs;
}

/** Picked files: a folder picker's keep their relative path (folder name first). */
function fromPicker(fileList) {
  return Array.from(fileList, (file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/** The paths to check: each top-level folder once (searched as `mechasheet check FOLDER` does), each loose file. */
function rootsOf(inputs) {
  const roots = [];
  for (const { path } of inputs) {
    const slash = path.indexOf("/");
    const root = slash < 0 ? path : path.slice(0, slash);
    if (!roots.includes(root)) roots.push(root);
  }
  return roots;
}

// --- options -------------------------------------------------------------------------------------

function optionFile(id) {
  const input = $(id);
  return input.files && input.files.length ? input.files[0] : null;
}

function ruleReadings() {
  const readings = [];
  for (const select of document.querySelectorAll("#rule-selects select")) {
    if (select.value) readings.push(`${select.name}=${select.value}`);
  }
  for (const word of $("rule-text").value.split(/[\s,、]+/)) {
    if (word) readings.push(word);
  }
  return readings;
}

function drawRuleSelects() {
  const box = $("rule-selects");
  const chosen = Object.fromEntries(Array.from(box.querySelectorAll("select"), (s) => [s.name, s.value]));
  box.replaceChildren();
  if (!Array.isArray(state.rulesKnown)) return;
  const seen = new Set();
  for (const rule of state.rulesKnown) {
    if (seen.has(rule.name)) continue; // one name serves every system declaring it
    seen.add(rule.name);
    const id = `rule-${rule.name}`;
    const row = el("p", { class: "rule" });
    row.append(el("label", { for: id }, `${rule.system}: ${rule.label} (${rule.name})`));
    const select = el("select", { id, name: rule.name });
    select.append(el("option", { value: "" }, `${t("ruleDefault")}: ${rule.default}`));
    for (const [value, label] of Object.entries(rule.values || {})) {
      select.append(el("option", { value }, `${value}: ${label}`));
    }
    select.value = chosen[rule.name] || "";
    select.addEventListener("change", saveOptions);
    row.append(select);
    box.append(row);
  }
}

// "Remember my options": the only use of localStorage. Nothing is written until the switch is on;
// switching it off removes what was written. Option files are kept by name and content (small
// text or workbook files the GM chose); the sheets themselves are never stored.
async function saveOptions() {
  if (!$("remember").checked) return;
  const files = {};
  for (const id of OPTION_FILES) {
    const file = optionFile(id);
    if (file) files[id] = { name: file.name, type: file.type, data: await toBase64(file) };
  }
  const rules = Object.fromEntries(Array.from(document.querySelectorAll("#rule-selects select"), (s) => [s.name, s.value]));
  const stored = { lang: state.lang, rules, ruleText: $("rule-text").value, formulas: $("formulas").value, files };
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(stored));
  } catch (err) {
    $("option-error").textContent = String(err.message || err);
  }
}

function restoreOptions() {
  let stored = null;
  try {
    stored = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
  } catch {
    stored = null;
  }
  if (!stored) return;
  $("remember").checked = true;
  $("rule-text").value = stored.ruleText || "";
  if (stored.formulas) $("formulas").value = stored.formulas;
  for (const [name, value] of Object.entries(stored.rules || {})) {
    const select = document.querySelector(`#rule-selects select[name="${CSS.escape(name)}"]`);
    if (select) select.value = value;
  }
  for (const [id, saved] of Object.entries(stored.files || {})) {
    const transfer = new DataTransfer();
    transfer.items.add(new File([fromBase64(saved.data)], saved.name, { type: saved.type }));
    $(id).files = transfer.files;
  }
  if (stored.lang && stored.lang !== state.lang) switchLang(stored.lang);
}

async function toBase64(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(text) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

// --- running a check -----------------------------------------------------------------------------

/** The request every Session method gets: the files' root, the roots to check and the options. */
function baseRequest() {
  const request = { root: "/in", paths: state.roots, lang: state.lang, rules: ruleReadings(),
    formulas: $("formulas").value };
  for (const id of OPTION_FILES) {
    const file = optionFile(id);
    if (file) request[id] = `_options/${file.name}`;
  }
  return request;
}

function optionInputs() {
  const out = [];
  for (const id of OPTION_FILES) {
    const file = optionFile(id);
    if (file) out.push({ path: `_options/${file.name}`, file });
  }
  return out;
}

async function run(inputs) {
  if (!state.ready || state.running) return;
  if (inputs) {
    state.inputs = inputs;
    state.roots = rootsOf(inputs);
  }
  if (state.inputs.length === 0) {
    $("summary").textContent = t("none");
    return;
  }
  state.running = true;
  setState("running");
  window.mechasheetReport = null;
  $("option-error").textContent = "";
  const bar = $("bar");
  bar.hidden = false;
  bar.value = 0;
  const started = performance.now();
  const files = [...state.inputs, ...optionInputs()];
  // The cards first; the party view (the files read again the audit's way) after them.
  const request = { ...baseRequest(), party: false };
  const answer = await call("check", request, { files }, showProgress("reading"));
  if (answer.error) {
    state.report = null;
    state.party = [];
    showError(answer.error);
  } else {
    state.report = answer.ok.report;
    if (request.lang !== state.lang) {
      // The language was switched during the run: the report again in the one now chosen.
      const again = await call("report", { lang: state.lang });
      if (again.ok) state.report = again.ok;
    }
    state.party = [];
    state.labelled = [];
    window.mechasheetReport = state.report;
    render();
    window.mechasheetTimings.run_ms = Math.round(performance.now() - started);
    const partyStarted = performance.now();
    const party = await call("party", { lang: state.lang }, {}, showProgress("partyReading"));
    state.party = party.ok || [];
    drawParty();
    await fetchLabelled();
    drawLabelled();
    if (party.error) $("option-error").textContent = `${t("party")}: ${party.error.message}`;
    window.mechasheetTimings.party_ms = Math.round(performance.now() - partyStarted);
    $("progress").textContent = "";
  }
  bar.hidden = true;
  state.running = false;
  $("rerun").disabled = false;
  setState("done");
}

/** A progress callback drawing the bar and the line under it (announced politely). */
function showProgress(key) {
  const bar = $("bar");
  return (done, total, path) => {
    bar.hidden = false;
    bar.max = Math.max(total, 1);
    bar.value = done;
    $("progress").textContent = t(key, done, total, path);
  };
}

function showError(error) {
  $("summary").textContent = `${t("runFailed")}: ${error.message}`;
  $("option-error").textContent = [error.code, error.message, error.hint].filter(Boolean).join(" — ");
  $("cards").replaceChildren();
  $("party").hidden = true;
  $("run-downloads").hidden = true;
}

// --- drawing -------------------------------------------------------------------------------------

/** An element with attributes and children (text children are text, never markup). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function svgEl(tag, attrs = {}, text = null) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function table(caption, columns, rows, className) {
  const head = el("tr", {}, ...columns.map((c) => el("th", { scope: "col" }, c)));
  const body = rows.map((cells) => el("tr", {}, ...cells.map((c) => (c instanceof Node && c.tagName === "TD" ? c : el("td", {}, c ?? "")))));
  return el("table", { class: className }, el("caption", {}, caption), el("thead", {}, head), el("tbody", {}, ...body));
}

function render() {
  const report = state.report;
  if (!report) return;
  const s = report.summary;
  $("summary").textContent = t("summary", s, s.files - s.invalid);
  $("run-downloads").hidden = false;
  drawParty();
  const cards = $("cards");
  cards.replaceChildren(...report.files.map((file, i) => card(file, `card-${i}`)));
  drawLabelled();
}

/** A file's card; ``nested``: a character read by labels from a homemade workbook, shown in
 * that workbook's card (a smaller heading, no downloads: it is not a file of its own). */
function card(file, key, nested = false) {
  const status = file.kind === "unreadable" ? "unreadable" : file.valid ? "valid" : "invalid";
  const heading = `${key}-h`;
  const article = el("article", { class: `card ${status}`, "aria-labelledby": heading, "data-path": file.path });
  article.append(el(nested ? "h4" : "h3", { id: heading }, file.path));
  article.append(el("p", { class: "meta" },
    el("span", { class: `badge ${status}` }, t(status)), " ",
    file.system ? `${t("system")}: ${file.system}` : "",
    file.source && file.source.kind ? ` · ${file.source.kind}` : ""));
  const totals = file.totals || {};
  if (totals.computed !== null || totals.declared !== null || totals.budget !== null) {
    article.append(el("dl", { class: "totals" },
      el("dt", {}, t("computed")), el("dd", {}, totals.computed ?? "—"),
      el("dt", {}, t("declared")), el("dd", {}, totals.declared ?? "—"),
      el("dt", {}, t("budget")), el("dd", {}, totals.budget ?? "—")));
  }
  const findings = [...file.findings].sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3));
  if (findings.length) {
    const rows = findings.map((f) => [
      el("td", { class: `sev ${f.severity}` }, t("sev")[f.severity] || f.severity),
      el("td", { class: "cell" }, f.cell || f.pointer || ""),
      el("td", { class: "msg" }, f.message),
      el("td", { class: "hint" }, f.hint || ""),
      el("td", { class: "code" }, el("code", {}, f.code)),
    ]);
    const tbl = table(t("findings"), [t("severity"), t("cell"), t("message"), t("hint"), t("code")], rows, "findings");
    tbl.setAttribute("tabindex", "0"); // reachable by keyboard: a long table scrolls
    article.append(tbl);
  } else {
    article.append(el("p", { class: "none" }, t("noFindings")));
  }
  if (file.breakdown && file.breakdown.length) {
    const rows = file.breakdown.map((line) => [line.item, line.rule, el("td", { class: "num" }, line.cost), el("td", {}, el("code", {}, line.pointer))]);
    article.append(el("details", {}, el("summary", {}, `${t("breakdown")} (${file.breakdown.length})`),
      table(t("breakdown"), [t("item"), t("rule"), t("cost"), "pointer"], rows, "breakdown")));
  }
  const derived = Object.entries(file.derived || {});
  if (derived.length) {
    const rows = derived.map(([pointer, d]) => [d.label, el("td", { class: "num" }, formatValue(d.value)), el("td", {}, el("code", {}, pointer))]);
    article.append(el("details", {}, el("summary", {}, `${t("derived")} (${derived.length})`),
      table(t("derived"), [t("item"), t("value"), "pointer"], rows, "derived")));
  }
  if (file.system && file.kind !== "unreadable" && !nested) article.append(cardActions(file));
  return article;
}

/** Homemade workbooks: the check reports them as the CLI does (INPUT_WRONG_FORMAT: import
 * it); the audit reads them by their labels. Each character it read is shown in the
 * workbook's card, as `mechasheet audit` reads it. */
function homemade(report) {
  return report.files.filter((f) => f.findings.some((x) => x.code === "INPUT_WRONG_FORMAT"));
}

async function fetchLabelled() {
  state.labelled = [];
  if (!state.report || homemade(state.report).length === 0) return;
  const answer = await call("audit_report", { lang: state.lang });
  state.labelled = answer.ok ? answer.ok.files.filter((f) => f.source && f.source.kind === "legacy") : [];
  if (answer.error) $("option-error").textContent = [answer.error.code, answer.error.message].join(" — ");
}

function drawLabelled() {
  const cards = document.querySelectorAll("#cards > article.card");
  state.report.files.forEach((file, i) => {
    const read = (state.labelled || []).filter((f) => f.audit && f.audit.file === file.path);
    if (read.length === 0 || !cards[i]) return;
    const box = el("section", { class: "labelled", "aria-label": t("labelled") }, el("p", { class: "meta" }, t("labelled")));
    read.forEach((entry, j) => box.append(card(entry, `card-${i}-${j}`, true)));
    cards[i].append(box);
  });
}

function formatValue(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function cardActions(file) {
  const box = el("div", { class: "downloads" });
  const out = el("div", { class: "action-out", "aria-live": "polite" });
  const request = () => ({ ...baseRequest(), path: file.path });
  if (file.source && file.source.kind === "json") {
    box.append(button(t("filled"), "filled", () => download("filled", request(), out)));
  }
  for (const to of SYSTEMS) {
    if (to === file.system) continue;
    box.append(button(t("convert", to), `convert-${to}`, () => convert({ ...request(), to }, out)));
  }
  box.append(button(t("ccfolia"), "ccfolia", () => ccfolia(request(), out)));
  box.append(button(t("udonarium"), "udonarium", () => download("udonarium", request(), out)));
  return el("div", { class: "actions" }, box, out);
}

function button(text, action, onClick) {
  const b = el("button", { type: "button", "data-action": action }, text);
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      await onClick();
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

function drawParty() {
  const box = $("party-body");
  box.replaceChildren();
  $("party").hidden = state.party.length === 0;
  for (const view of state.party) {
    const section = el("section", { class: "party-system", "data-system": view.system, "aria-label": view.system });
    section.append(el("h4", {}, view.system));
    const chart = partyChart(view);
    if (chart) section.append(chart);
    section.append(table(`${t("party")}: ${view.system}`, view.columns, view.rows.map((r) => r.map(formatValue)), "party-table"));
    box.append(section);
  }
}

/** A bar per counted member and a line at the median (plain SVG, every text as text). The
 * table's columns are the audit's party columns: file, name, player, value, budget, median,
 * note; a member not counted (a second copy of a character) has no median and no bar. */
function partyChart(view) {
  const isNumber = (v) => typeof v === "number";
  const valueCol = view.rows.some((r) => isNumber(r[3])) ? 3 : view.columns.findIndex((_, i) => view.rows.some((r) => isNumber(r[i])));
  if (valueCol < 0) return null;
  const counted = view.rows.filter((r) => isNumber(r[valueCol]) && (r.length < 6 || isNumber(r[5])));
  if (counted.length === 0) return null;
  const median = isNumber(counted[0][5]) ? counted[0][5] : null;
  const values = counted.map((r) => r[valueCol]);
  const max = Math.max(1, ...values.map((v) => Math.abs(v)), median ?? 0);
  const rowH = 22, left = 190, width = 560, span = width - left - 60;
  const height = rowH * counted.length + 8;
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "bars",
    "aria-label": `${view.system}: ${view.columns[valueCol] ?? ""}` });
  counted.forEach((r, i) => {
    const y = 4 + i * rowH;
    const name = String(r[1] ?? r[0] ?? "");
    svg.append(svgEl("text", { x: left - 6, y: y + 15, "text-anchor": "end" }, name.length > 16 ? `${name.slice(0, 15)}…` : name));
    const w = Math.max(1, (Math.abs(values[i]) / max) * span);
    svg.append(svgEl("rect", { x: left, y: y + 3, width: w, height: rowH - 8, class: "bar" }));
    svg.append(svgEl("text", { x: left + w + 4, y: y + 15 }, String(values[i])));
  });
  if (median !== null) {
    const x = left + (Math.abs(median) / max) * span;
    svg.append(svgEl("line", { x1: x, x2: x, y1: 0, y2: height, class: "median" }));
  }
  return el("figure", { class: "chart" }, svg, el("figcaption", {}, view.title || view.system));
}

// --- downloads -----------------------------------------------------------------------------------

function save(download) {
  const blob = new Blob([download.bytes], { type: download.mime || "application/octet-stream" });
  saveBlob(blob, download.name);
}

function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** An action's error shown where its result would be (class "failed": scripts look for it). */
function fail(out, error) {
  out.classList.add("failed");
  out.textContent = `${t("error")}: ${[error.message, error.hint].filter(Boolean).join(" — ")}`;
}

function working(out) {
  out.classList.remove("failed");
  out.textContent = t("working");
}

/** An action's answer, its progress and failure shown in `out`; null when it failed. */
async function act(method, request, out, onProgress = null) {
  working(out);
  const answer = await call(method, request, {}, onProgress);
  if (!answer.error) return answer;
  fail(out, answer.error);
  return null;
}

async function download(method, request, out, onProgress = null) {
  const answer = await act(method, request, out, onProgress);
  if (!answer) return null;
  out.textContent = answer.downloads.map((d) => d.name).join(", ");
  for (const d of answer.downloads) save(d);
  return answer;
}

async function convert(request, out) {
  const answer = await act("convert", request, out);
  if (!answer) return;
  for (const d of answer.downloads) save(d);
  out.replaceChildren(el("p", {}, answer.ok.name || ""), el("details", { open: true },
    el("summary", {}, t("account")), el("pre", { class: "account" }, answer.ok.text || "")));
}

async function ccfolia(request, out) {
  const answer = await act("ccfolia", request, out);
  if (!answer) return;
  const pieces = answer.ok.pieces || [];
  window.mechasheetLastCopy = null;
  if (pieces.length === 1) {
    await copy(pieces[0], out);
    return;
  }
  // Several pieces (a pilot and a machine): one button per piece, one JSON value on the clipboard each.
  out.replaceChildren(...pieces.map((piece, i) => {
    const name = (answer.ok.names || [])[i];
    const label = t("ccfoliaPiece", i + 1, pieces.length) + (name ? ` (${name})` : "");
    const b = el("button", { type: "button", "data-action": "ccfolia-piece" }, label);
    b.addEventListener("click", () => copy(piece, out.lastChild || out));
    return b;
  }), el("span", { class: "copied", "aria-live": "polite" }));
}

async function copy(text, out) {
  try {
    await navigator.clipboard.writeText(text);
    window.mechasheetLastCopy = text; // what the button copied, for tests and scripts
    out.textContent = t("copied");
  } catch (err) {
    fail(out, { message: `${t("copyFailed")}: ${err.message || err}` });
  }
}

function reportDownload() {
  if (!state.report) return;
  const text = JSON.stringify(state.report, null, 2) + "\n";
  saveBlob(new Blob([text], { type: "application/json" }), "report.json");
}

function drawTemplateButtons() {
  const box = $("template-buttons");
  const out = el("span", { class: "action-out", "aria-live": "polite" });
  box.replaceChildren(...SYSTEMS.map((system) => button(t("template", system), `template-${system}`,
    () => download("template", { system, lang: state.lang, formulas: $("formulas").value }, out))), out);
}

// --- language ------------------------------------------------------------------------------------

async function switchLang(lang) {
  // The state says "running" from the click on, so a script waiting for "done" waits for this.
  const rerender = state.report !== null && !state.running;
  if (rerender) setState("running");
  state.lang = lang;
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  const toggle = $("lang");
  toggle.textContent = t("lang");
  toggle.lang = t("langName");
  drawTemplateButtons();
  if (state.ready) {
    const rules = await call("rules", { lang });
    state.rulesKnown = rules.ok || state.rulesKnown;
    drawRuleSelects();
  }
  if (!state.ready) $("progress").textContent = t("loading");
  if (rerender) {
    // The same run's report in the other language: no file is read again.
    const answer = await call("report", { lang });
    const party = await call("party", { lang });
    if (answer.ok) {
      state.report = answer.ok;
      state.party = party.ok || [];
      await fetchLabelled();
      window.mechasheetReport = state.report;
      render();
    }
    const failed = answer.error || party.error;
    if (failed) $("option-error").textContent = [failed.code, failed.message].join(" — ");
    setState("done");
  }
  saveOptions();
}

// --- wiring --------------------------------------------------------------------------------------

function wire() {
  const drop = $("drop");
  drop.addEventListener("click", () => $("files").click());
  for (const name of ["dragenter", "dragover"]) {
    drop.addEventListener(name, (e) => {
      e.preventDefault();
      drop.classList.add("over");
    });
  }
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (!state.ready || state.running) return;
    const before = document.body.dataset.state;
    setState("running"); // from the drop on: a dropped folder is walked before the run starts
    const inputs = await fromDrop(e.dataTransfer);
    if (inputs.length) run(inputs);
    else setState(before);
  });
  // A file dropped beside the zone must not make the browser open it instead of the page.
  window.addEventListener("dragover", (e) => e.preventDefault());
  window.addEventListener("drop", (e) => e.preventDefault());

  for (const id of ["files", "folder"]) {
    $(id).addEventListener("change", (e) => {
      const inputs = fromPicker(e.target.files);
      if (inputs.length) run(inputs);
    });
  }
  $("rerun").addEventListener("click", () => run(null));
  $("rule-text").addEventListener("change", saveOptions);
  for (const id of [...OPTION_FILES, "formulas"]) $(id).addEventListener("change", saveOptions);
  for (const b of document.querySelectorAll("button.clear")) {
    b.addEventListener("click", () => {
      $(b.dataset.clear).value = "";
      saveOptions();
    });
  }
  $("remember").addEventListener("change", (e) => {
    if (e.target.checked) saveOptions();
    else localStorage.removeItem(STORE_KEY);
  });
  $("lang").addEventListener("click", () => switchLang(state.lang === "ja" ? "en" : "ja"));
  $("dl-report").addEventListener("click", reportDownload);
  $("dl-audit").addEventListener("click", async () => {
    const b = $("dl-audit");
    b.disabled = true;
    await download("audit", baseRequest(), $("audit-out"), showProgress("auditing"));
    $("bar").hidden = true;
    $("progress").textContent = "";
    b.disabled = false;
  });
  drawTemplateButtons();
  $("progress").textContent = t("loading");
}

wire();
