"""Building the static site (`mechasheet web`): the page's files, Pyodide's core from its pinned
npm tarball, the pinned wheels and the project's own wheel, and ``site.json`` naming them.
Written whole or not at all: built in a temporary sibling folder, then renamed into place."""
from __future__ import annotations

import json
import os
import shutil
import tarfile
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Callable, TextIO

from ..core.errors import OutputError
from ..core.texts import texts
from ..core.version import __version__
from .assets import Asset, fetch_all, pinned
from .serve import serve
from .wheel import package_files, project_wheel

#: the page's own files (index.html, app.js, worker.js, style.css), copied as they are
PAGE = Path(__file__).with_name("site")
MARK = "mechasheet"  # the key of site.json that says a folder is a site this command built


def is_site(folder: Path) -> bool:
    """Whether ``folder`` holds a site built here (its site.json names the mechasheet version)."""
    try:
        data = json.loads((folder / "site.json").read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and MARK in data


def _refuse_foreign(out: Path, force: bool) -> None:
    """A file, or a non-empty folder that is not a previous build, is replaced only with --force."""
    if force or not (out.exists() or out.is_symlink()):
        return
    if out.is_dir() and not out.is_symlink() and (not any(out.iterdir()) or is_site(out)):
        return
    raise OutputError(f"{out}: not empty and not a site built by mechasheet web (use --force)",
                      "WEB_OUTPUT_NOT_SITE", folder=str(out))


def _write_pyodide(tarball: Path, names: tuple[str, ...], folder: Path) -> None:
    """Pyodide's core files, taken from the npm tarball's ``package/`` folder."""
    folder.mkdir()
    with tarfile.open(tarball, "r:gz") as tar:
        for name in names:
            member = tar.getmember(f"package/{name}")
            source = tar.extractfile(member) if member.isfile() else None
            if source is None:
                raise OutputError(f"{tarball}: package/{name} is not a file", "OUTPUT_CANNOT_WRITE",
                                  file=str(folder / name), detail=f"{tarball.name}: package/{name}")
            with source, (folder / name).open("wb") as out:
                shutil.copyfileobj(source, out, 1 << 20)


def _fill(folder: Path, tarball: Path, wheels: list[Path]) -> None:
    """Everything the site holds, written into the empty ``folder`` (the cached assets given)."""
    for path in package_files(PAGE) if PAGE.is_dir() else []:
        target = folder / path.relative_to(PAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    _write_pyodide(tarball, pinned().pyodide_files, folder / "pyodide")
    (folder / "wheels").mkdir()
    for wheel in wheels:
        shutil.copyfile(wheel, folder / "wheels" / wheel.name)
    name, data = project_wheel()
    (folder / "wheels" / name).write_bytes(data)
    site = {MARK: __version__, "pyodide": pinned().pyodide.version,
            "wheels": [f"wheels/{w.name}" for w in wheels] + [f"wheels/{name}"]}
    (folder / "site.json").write_text(json.dumps(site, indent=2) + "\n", encoding="utf-8")


def build_site(out: Path, *, force: bool = False,
               on_download: Callable[[Asset], None] | None = None) -> Path:
    """Build the site into ``out`` (a new or empty folder, a previous build, or with ``force``
    anything) and return it; the pinned assets are fetched into the cache first if missing
    (``on_download`` told of each)."""
    out = Path(out)
    _refuse_foreign(out, force)
    tarball, wheels = fetch_all(on_download=on_download)  # before any folder is made (offline: none)
    target = Path(os.path.abspath(out))  # "." and "site/.." named by their own folder's name
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".building", dir=target.parent))
    except OSError as exc:
        raise OutputError(f"{out}: cannot write ({exc})", "OUTPUT_CANNOT_WRITE", file=str(out),
                          detail=exc.strerror or str(exc)) from exc
    old = tmp.with_name(f".{target.name}.{time.time_ns()}.old")
    try:
        tmp.chmod(0o755)  # mkdtemp's 0700 would keep a static host's server out
        _fill(tmp, tarball, wheels)
        if target.exists() or target.is_symlink():
            os.rename(target, old)
        os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if (old.exists() or old.is_symlink()) and not (target.exists() or target.is_symlink()):
            os.rename(old, target)  # the previous site back as it was
        raise
    if old.is_dir() and not old.is_symlink():
        shutil.rmtree(old)
    elif old.is_symlink() or old.exists():
        old.unlink()
    return out


def run_web(output: str | None, *, serve_it: bool = False, port: int = 0, force: bool = False,
            lang: str = "ja", stdout: TextIO, stderr: TextIO) -> int:
    """`mechasheet web`: build the site into ``output`` (with ``serve_it``, by default into a
    temporary folder removed at the end) and serve it until Ctrl-C; the exit code."""
    t = texts(lang)
    if output is None and not serve_it:
        stderr.write(f"mechasheet: {t['web_needs_output']}\n")
        return 2

    def downloading(asset: Asset) -> None:
        stderr.write(t["web_downloading"].format(url=asset.url) + "\n")
        stderr.flush()

    with tempfile.TemporaryDirectory(prefix="mechasheet-web-") if output is None else nullcontext() as tmp:
        site = build_site(Path(output) if output is not None else Path(str(tmp)) / "site", force=force,
                          on_download=downloading)
        stdout.write(t["web_built"].format(site=site) + "\n")
        if not serve_it:
            return 0
        server, url = serve(site, port)
        try:
            stdout.write(t["web_serving"].format(url=url) + "\n")
            stdout.flush()
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:  # the way to stop it: quietly
            return 0
        finally:
            server.shutdown()
            server.server_close()
