// The page's Web Worker: Pyodide and the project's own Python (converter.web.page), loaded from
// this site only, so the page's thread stays free while sheets are read and checked.
//
// Messages in:  {id, method, request, files?, options?}: files, a new run's inputs (/in/ cleared
//               first); options, option files to (re)write under /in/_options/ for an action.
// Messages out: {ready: {version}} | {failed: text} once at start;
//               {id, progress: [done, total, path]} during a check, a party or an audit;
//               {id, result: <page.py's JSON answer, parsed>, downloads: [{name, mime, bytes}]}.
// "ready" is sent once the Python can take files; page.warm() (imports and one run of each
// engine, so the first drop does not compile modules) then runs as the first request.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const IN = "/in";
// The Session methods that take page.py's on_progress(done, total, path).
const PROGRESS = new Set(["check", "party", "audit"]);
let pyodide = null;
let session = null;
let page = null;

// How long each step of the start took (ms, from the worker's own start): where ready_ms goes.
const phases = {};
let mark = performance.now();
function lap(name) {
  const now = performance.now();
  phases[name] = Math.round(now - mark);
  mark = now;
}

async function start() {
  const site = await (await fetch(new URL("site.json", self.location))).json();
  lap("site_ms");
  pyodide = await loadPyodide({
    indexURL: new URL("pyodide/", self.location).href,
    stdout: () => {},
    stderr: () => {},
  });
  lap("pyodide_ms");
  // Pyodide prints what it loads on the console; the page keeps the console for real problems.
  await pyodide.loadPackage(site.wheels.map((w) => new URL(w, self.location).href), {
    messageCallback: () => {},
    errorCallback: (text) => console.warn(text),
  });
  lap("wheels_ms");
  page = pyodide.pyimport("converter.web.page");
  session = page.Session();
  const version = JSON.parse(page.version());
  lap("import_ms");
  return { version: version.ok ?? site.mechasheet, site };
}

// --- Pyodide's file system -----------------------------------------------------------------------

function removeTree(path) {
  const FS = pyodide.FS;
  if (!FS.analyzePath(path).exists) return;
  for (const name of FS.readdir(path)) {
    if (name === "." || name === "..") continue;
    const child = `${path}/${name}`;
    if (FS.isDir(FS.stat(child).mode)) removeTree(child);
    else FS.unlink(child);
  }
  FS.rmdir(path);
}

function makeParents(path) {
  pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")) || "/");
}

/** Each dropped file under /in/ at its relative path; /in/ cleared first (a new run). */
async function writeInputs(files) {
  pyodide.FS.chdir("/"); // the last run worked in /in: a directory in use cannot be removed
  removeTree(IN);
  pyodide.FS.mkdir(IN);
  for (const { path, file } of files) {
    const target = `${IN}/${path}`;
    makeParents(target);
    pyodide.FS.writeFile(target, new Uint8Array(await file.arrayBuffer()));
  }
}

/** Option files chosen after the run (a catalog, a mapping...) written beside its files. */
async function writeOptions(files) {
  if (!pyodide.FS.analyzePath(IN).exists) pyodide.FS.mkdir(IN);
  for (const { path, file } of files) {
    const target = `${IN}/${path}`;
    makeParents(target);
    pyodide.FS.writeFile(target, new Uint8Array(await file.arrayBuffer()));
  }
}

// --- requests ------------------------------------------------------------------------------------

async function handle(message) {
  const { id, method, request } = message;
  if (message.files) await writeInputs(message.files);
  if (message.options) await writeOptions(message.options);
  let answer;
  const onProgress = (done, total, path) => self.postMessage({ id, progress: [done, total, String(path)] });
  if (PROGRESS.has(method)) {
    answer = session[method](JSON.stringify(request), onProgress);
  } else if (method === "version") {
    answer = page.version();
  } else if (method === "warm") {
    answer = page.warm();
  } else if (method === "rules") {
    // page.rules is optional (WEB-CONTRACT.md, Changes): without it the page offers free text.
    answer = typeof page.rules === "function" ? page.rules(JSON.stringify(request))
      : JSON.stringify({ ok: null });
  } else {
    if (!/^[a-z][a-z_]*$/.test(method) || typeof session[method] !== "function") {
      answer = JSON.stringify({ error: { code: "INTERNAL", message: `no method ${method}`, hint: "" } });
    } else {
      answer = session[method](JSON.stringify(request)); // a PyProxy's method, called as one
    }
  }
  const result = JSON.parse(answer);
  const reply = { id, result, downloads: [] };
  const transfer = [];
  const ok = result.ok && typeof result.ok === "object" ? result.ok : {};
  // A download is a file page.py wrote under /out/ (ok.file); an Udonarium export may write
  // several (ok.files beside ok.file). A report's "files" are its entries, not downloads.
  const files = typeof ok.file !== "string" ? [] : Array.isArray(ok.files) ? ok.files : [ok];
  for (const { file, name, mime } of files) {
    const bytes = pyodide.FS.readFile(file);
    pyodide.FS.unlink(file);
    reply.downloads.push({ name, mime, bytes });
    transfer.push(bytes.buffer);
  }
  self.postMessage(reply, transfer);
}

/** An error as text: a Python traceback, a JS error's message, or Pyodide's file system's errno. */
function describe(err) {
  if (err && typeof err.message === "string" && err.message) return err.message;
  if (err && err.errno !== undefined) return `file system error ${err.errno}${err.code ? ` (${err.code})` : ""}`;
  return String(err);
}

// One request at a time, in the order they came: Python runs on this one thread anyway.
let queue = Promise.resolve();
const ready = start();

self.onmessage = (event) => {
  const message = event.data;
  queue = queue.then(async () => {
    try {
      await ready;
      await handle(message);
    } catch (err) {
      self.postMessage({
        id: message.id,
        result: { error: { code: "INTERNAL", message: describe(err), hint: "" } },
      });
    }
  });
};

ready.then(
  ({ version }) => self.postMessage({ ready: { version, phases } }),
  (err) => self.postMessage({ failed: describe(err) }),
);
