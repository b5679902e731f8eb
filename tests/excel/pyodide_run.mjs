// Runs Python code under Pyodide in Node as xlwings Lite would (tests/excel/test_pyodide.py).
// Usage: node pyodide_run.mjs PYODIDE_DIR MICROPIP_WHEEL WORK_DIR SCRIPT.py
// Pyodide loads from its own folder and micropip from a local wheel: no network. WORK_DIR is
// mounted at /work (the wheels to install, inputs, outputs); the source tree is not mounted.
import { loadPyodide } from "PYODIDE_INDEX";
const [pyodideDir, micropipWheel, workDir, script] = process.argv.slice(2);
const pyodide = await loadPyodide({ indexURL: pyodideDir });
await pyodide.loadPackage(micropipWheel);
pyodide.FS.mkdirTree("/work");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: workDir }, "/work");
await pyodide.runPythonAsync(pyodide.FS.readFile(`/work/${script}`, { encoding: "utf8" }));
