// Runs converter.web.page under Pyodide in Node as the page's worker does (tests/web/test_page_pyodide.py).
// Usage: node page_run.mjs SITE WORK_DIR
// Pyodide loads from SITE/pyodide/ and every wheel SITE/site.json names, from local files, in its
// order: no network. WORK_DIR is mounted at /work; /work/run.py is run.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [site, workDir] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(site, "pyodide", "pyodide.mjs")).href);
const manifest = JSON.parse(readFileSync(join(site, "site.json"), "utf8"));
const pyodide = await loadPyodide({ indexURL: join(site, "pyodide") + "/" });
await pyodide.loadPackage(manifest.wheels.map((w) => join(site, w)), { messageCallback: () => {} });
pyodide.FS.mkdirTree("/work");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: workDir }, "/work");
await pyodide.runPythonAsync(pyodide.FS.readFile("/work/run.py", { encoding: "utf8" }));
