// Runs Python code under Pyodide in Node with the source tree mounted (tests/excel/test_pyodide.py).
// Usage: node pyodide_run.mjs PYODIDE_DIR SOURCE_DIR WORK_DIR SCRIPT.py
// Pyodide loads from its own folder: no network. WORK_DIR is mounted at /work (inputs, outputs).
import { loadPyodide } from "PYODIDE_INDEX";
const [pyodideDir, sourceDir, workDir, script] = process.argv.slice(2);
const pyodide = await loadPyodide({ indexURL: pyodideDir });
for (const [path, root] of [["/src", sourceDir], ["/work", workDir]]) {
  pyodide.FS.mkdirTree(path);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, path);
}
pyodide.runPython(`import sys; sys.path.insert(0, "/src")`);
pyodide.runPython(pyodide.FS.readFile(`/work/${script}`, { encoding: "utf8" }));
