"""`mechasheet web`: the static site is built whole from the pinned assets and the installed
package, its own wheel is a proper, reproducible wheel, and the local server sends each file with
the type a browser needs, on 127.0.0.1 only.

The pinned assets come from npm and PyPI into the cache once (~8 MB); a test that needs them and
cannot reach the network skips, except under CI=true, where it fails."""
from __future__ import annotations

import base64
import csv
import fnmatch
import hashlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import tomllib
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

import pytest

from ..needs import missing

from converter.cli import main
from converter.core.errors import MechasheetError
from converter.web.assets import Asset, AssetError, cache_dir, fetch, pinned
from converter.web.build import PAGE, build_site
from converter.web.serve import ServeError, serve
from converter.web.wheel import project_wheel

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "converter"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")


def _offline(exc: MechasheetError) -> None:
    """Skip a test the network is needed for, unless CI=true (where the network is part of the run)."""
    missing("the network (the pinned assets)", exc.message("en"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One site built for the file's tests (the cache filled from npm and PyPI if it is empty)."""
    try:
        return build_site(tmp_path_factory.mktemp("web") / "site")
    except AssetError as exc:
        _offline(exc)
        raise


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers["Content-Type"], response.read()


def test_site_json_lists_the_wheels_in_load_order(site: Path) -> None:
    """site.json names the mechasheet and Pyodide versions and every wheel (each there), ours last."""
    data = json.loads((site / "site.json").read_text("utf-8"))
    from converter.core.version import __version__

    assert data["mechasheet"] == __version__
    assert data["pyodide"] == pinned().pyodide.version == "314.0.8"
    assert data["wheels"] == [f"wheels/{w.file}" for w in pinned().wheels] + [
        f"wheels/mechasheet-{__version__}-py3-none-any.whl"]
    assert all((site / w).is_file() for w in data["wheels"])
    assert sorted(p.name for p in (site / "wheels").iterdir()) == sorted(Path(w).name for w in data["wheels"])


def test_every_file_the_contract_names_is_there(site: Path) -> None:
    """The page's files (as in the package, byte for byte), Pyodide's five core files (their ABI
    the wasm wheels'), the wheels with their pinned digests; nothing left of the temporary folder."""
    page = [p.relative_to(PAGE) for p in PAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert Path("index.html") in page
    for rel in page:
        assert (site / rel).read_bytes() == (PAGE / rel).read_bytes(), rel
    assert sorted(p.name for p in (site / "pyodide").iterdir()) == sorted(PYODIDE_FILES)
    assert (site / "pyodide" / "pyodide.asm.wasm").read_bytes()[:4] == b"\0asm"
    abi = json.loads((site / "pyodide" / "pyodide-lock.json").read_text("utf-8"))["info"]["abi_version"]
    wasm = [w.file for w in pinned().wheels if "wasm32" in w.file]
    assert wasm and [f for f in wasm if f"pyemscripten_{abi}_" not in f] == []
    for wheel in pinned().wheels:
        assert hashlib.sha256((site / "wheels" / wheel.file).read_bytes()).hexdigest() == wheel.digest
    assert [p.name for p in site.parent.iterdir()] == ["site"]


def test_the_project_wheel_holds_the_package_and_a_true_record(site: Path) -> None:
    """Our wheel holds every module and data file of converter/ (no compiled file), a
    dist-info with METADATA, a purelib py3-none-any WHEEL, and a RECORD whose digests match."""
    from converter.core.version import __version__

    wheel = site / "wheels" / f"mechasheet-{__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        files = {n: zf.read(n) for n in names}
    expected = {f"converter/{p.relative_to(PACKAGE).as_posix()}" for p in PACKAGE.rglob("*")
                if p.is_file() and p.suffix in (".py", ".toml", ".j2", ".json", ".html", ".js", ".css")
                and "__pycache__" not in p.parts}
    assert expected <= names
    assert {"converter/cli.py", "converter/core/catalog.toml", "converter/web/site/index.html"} <= names
    assert not [n for n in names if n.endswith(".pyc") or "__pycache__" in n]
    info = f"mechasheet-{__version__}.dist-info"
    assert f"Version: {__version__}" in files[f"{info}/METADATA"].decode()
    wheel_file = files[f"{info}/WHEEL"].decode()
    assert "Root-Is-Purelib: true" in wheel_file and "Tag: py3-none-any" in wheel_file
    rows = list(csv.reader(io.StringIO(files[f"{info}/RECORD"].decode())))
    assert {r[0] for r in rows} == names
    for name, digest, size in rows:
        if name == f"{info}/RECORD":
            assert digest == size == ""
            continue
        raw = hashlib.sha256(files[name]).digest()
        assert digest == "sha256=" + base64.urlsafe_b64encode(raw).rstrip(b"=").decode(), name
        assert int(size) == len(files[name]), name


def test_the_project_wheel_installs_with_pip(site: Path, tmp_path: Path) -> None:
    """pip installs our wheel (--target); the installed package imports with its version, and
    the wheel built from that installed copy is the same bytes."""
    wheel = next((site / "wheels").glob("mechasheet-*.whl"))
    target = tmp_path / "lib"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--disable-pip-version-check", "--target", str(target), str(wheel)], check=True)
    probe = (f"import sys; sys.path.insert(0, {str(target)!r}); "
             "import converter.core.version as v, converter; "
             "print(converter.__file__); print(v.__version__)")
    out = subprocess.run([sys.executable, "-I", "-c", probe], check=True, capture_output=True,
                         text=True).stdout
    where, version = out.split()
    assert Path(where) == target / "converter" / "__init__.py"
    assert (target / "converter" / "core" / "catalog.toml").is_file()
    assert version == json.loads((site / "site.json").read_text("utf-8"))["mechasheet"]
    assert project_wheel(target / "converter") == (wheel.name, wheel.read_bytes())


def test_a_rebuild_gives_the_same_project_wheel(site: Path) -> None:
    """Building again (into the previous build, no --force needed) gives our wheel the same bytes."""
    name = json.loads((site / "site.json").read_text("utf-8"))["wheels"][-1]
    before = (site / name).read_bytes()
    assert project_wheel()[1] == before
    assert build_site(site) == site
    assert (site / name).read_bytes() == before
    assert [p.name for p in site.parent.iterdir()] == ["site"]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_folder_holding_other_files_is_refused_naming_it(tmp_path: Path, lang: str) -> None:
    """A non-empty folder that is no site built here (or a file) is refused with
    WEB_OUTPUT_NOT_SITE naming it, before anything is fetched, and left as it was."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine", encoding="utf-8")
    a_file = tmp_path / "a-file"
    a_file.write_text("mine", encoding="utf-8")
    for target in (folder, a_file):
        with pytest.raises(MechasheetError) as caught:
            build_site(target)
        assert caught.value.code == "WEB_OUTPUT_NOT_SITE"
        assert str(target) in caught.value.message(lang)
    assert (folder / "keep.txt").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "notes"]


def test_force_replaces_a_folder_holding_other_files(site: Path, tmp_path: Path) -> None:
    """With force, a folder of other files is replaced by the site, whole."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine", encoding="utf-8")
    build_site(folder, force=True)
    assert not (folder / "keep.txt").exists()
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in site.iterdir())


def test_a_failed_build_leaves_the_previous_site(site: Path, monkeypatch) -> None:
    """A build that fails half way leaves the previous site as it was, and no temporary folder."""
    before = {p.relative_to(site): p.stat().st_size for p in site.rglob("*")}

    def half_then_fail(folder: Path, *args: object) -> None:
        (folder / "index.html").write_text("half", encoding="utf-8")
        raise OSError("disk full")

    monkeypatch.setattr("converter.web.build._fill", half_then_fail)
    with pytest.raises(OSError, match="disk full"):
        build_site(site)
    assert {p.relative_to(site): p.stat().st_size for p in site.rglob("*")} == before
    assert [p.name for p in site.parent.iterdir()] == ["site"]


def _wrong_bytes_server(tmp_path: Path):
    """A local server whose ``wrong.whl`` is not the bytes an Asset pins."""
    (tmp_path / "served").mkdir()
    (tmp_path / "served" / "wrong.whl").write_bytes(b"not the pinned wheel")
    return serve(tmp_path / "served")


def test_a_download_that_is_not_the_pinned_file_is_refused(tmp_path: Path) -> None:
    """Bytes that differ from the pinned digest (the download announced) are WEB_ASSET_MISMATCH
    naming the URL; the cache keeps neither them nor a partial file."""
    server, url = _wrong_bytes_server(tmp_path)
    try:
        asset = Asset("wrong", "1", "wrong.whl", url + "wrong.whl", "sha256", "0" * 64)
        told: list[Asset] = []
        with pytest.raises(AssetError) as caught:
            fetch(asset, tmp_path / "cache", told.append)
    finally:
        server.shutdown()
        server.server_close()
    assert caught.value.code == "WEB_ASSET_MISMATCH" and told == [asset]
    assert asset.url in caught.value.message("ja") and asset.url in caught.value.message("en")
    assert list((tmp_path / "cache").iterdir()) == []


def test_an_unreachable_asset_is_named(tmp_path: Path) -> None:
    """A URL nothing answers at is WEB_ASSET_UNREACHABLE naming it, in Japanese and English."""
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    asset = Asset("gone", "1", "gone.whl", f"http://127.0.0.1:{port}/gone.whl", "sha256", "0" * 64)
    with pytest.raises(AssetError) as caught:
        fetch(asset, tmp_path / "cache")
    assert caught.value.code == "WEB_ASSET_UNREACHABLE"
    assert asset.url in caught.value.message("ja") and asset.url in caught.value.message("en")
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_damaged_cached_asset_is_fetched_again(tmp_path: Path) -> None:
    """A cached wheel whose bytes are not the pinned ones is downloaded again and replaced."""
    wheel = next(w for w in pinned().wheels if w.name == "et_xmlfile")  # the smallest
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / wheel.file).write_bytes(b"damaged")
    try:
        path = fetch(wheel, cache)
    except AssetError as exc:
        _offline(exc)
        raise
    assert path == cache / wheel.file
    assert hashlib.sha256(path.read_bytes()).hexdigest() == wheel.digest
    assert [p.name for p in cache.iterdir()] == [wheel.file]


def test_a_cached_asset_is_used_without_the_network(site: Path, tmp_path: Path) -> None:
    """A verified cached file is used as it is: its URL is never asked for, no download announced."""
    wheel = pinned().wheels[0]
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / wheel.file).write_bytes((cache_dir() / wheel.file).read_bytes())
    offline = Asset(wheel.name, wheel.version, wheel.file, "http://127.0.0.1:9/unreachable", wheel.algorithm,
                    wheel.digest)
    told: list[Asset] = []
    assert fetch(offline, cache, told.append) == cache / wheel.file and told == []


def test_the_server_sends_each_file_with_its_type(site: Path) -> None:
    """index.html, site.json, the wasm, the modules and a wheel, each with the MIME type a
    browser needs."""
    server, url = serve(site)
    try:
        expected = {"": "text/html", "index.html": "text/html", "site.json": "application/json",
                    "pyodide/pyodide.asm.wasm": "application/wasm", "pyodide/pyodide.mjs": "text/javascript",
                    "pyodide/pyodide.asm.mjs": "text/javascript",
                    "pyodide/python_stdlib.zip": "application/zip",
                    "pyodide/pyodide-lock.json": "application/json",
                    json.loads((site / "site.json").read_text("utf-8"))["wheels"][-1]: "application/zip"}
        for path, mime in expected.items():
            status, content_type, body = _get(url + path)
            assert status == 200 and content_type.split(";")[0] == mime, path
            assert body == (site / (path or "index.html")).read_bytes(), path
    finally:
        server.shutdown()
        server.server_close()


def test_the_server_listens_on_127_0_0_1_only(site: Path) -> None:
    """The URL is http://127.0.0.1:PORT/; the same port on another address answers nothing."""
    server, url = serve(site)
    try:
        port = server.server_address[1]
        assert url == f"http://127.0.0.1:{port}/" and server.server_address[0] == "127.0.0.1"
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.2", port), timeout=2).close()
    finally:
        server.shutdown()
        server.server_close()


def test_a_taken_port_is_a_clear_error(site: Path) -> None:
    """Serving on a port already in use is WEB_SERVE_FAILED naming the address."""
    server, _ = serve(site)
    try:
        with pytest.raises(ServeError) as caught:
            serve(site, server.server_address[1])
        assert caught.value.code == "WEB_SERVE_FAILED"
        assert f"127.0.0.1:{server.server_address[1]}" in caught.value.message("en")
    finally:
        server.shutdown()
        server.server_close()


def test_mechasheet_web_builds_through_the_command_line(site: Path, tmp_path: Path, capsys) -> None:
    """`mechasheet web -o SITE` builds and says where; without -o or --serve it exits 2, saying so."""
    assert main(["web", "-o", str(tmp_path / "out"), "--lang", "en"]) == 0
    assert capsys.readouterr().out == f"site built: {tmp_path / 'out'}\n"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(p.name for p in site.iterdir())
    assert main(["web", "--lang", "en"]) == 2
    assert "give -o SITE or --serve" in capsys.readouterr().err
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "keep.txt").write_text("mine", encoding="utf-8")
    assert main(["web", "-o", str(tmp_path / "mine"), "--lang", "en"]) == 2
    assert str(tmp_path / "mine") in capsys.readouterr().err


def test_mechasheet_web_serve_prints_the_url_and_stops_quietly(site: Path) -> None:
    """`mechasheet web --serve` builds into a temporary folder, prints the URL that serves the
    site, and Ctrl-C stops it with exit 0, nothing on standard error, the folder removed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen([sys.executable, "-m", "converter", "web", "--serve", "--lang", "en"], cwd=ROOT,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        try:
            built = proc.stdout.readline() if proc.stdout else ""
            serving = proc.stdout.readline() if proc.stdout else ""
            assert built.startswith("site built: ") and serving.startswith("serving: http://127.0.0.1:"), (
                built, serving)
            folder = Path(built.removeprefix("site built: ").strip())
            url = serving.split()[1]
            status, _, body = _get(url + "site.json")
            assert status == 200 and json.loads(body) == json.loads((site / "site.json").read_bytes())
        finally:
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and err == "", (proc.returncode, err)
    assert not folder.exists()


def _package_data_globs() -> list[tuple[str, str]]:
    """(package folder relative to the root, pattern) for each package-data entry of pyproject.toml."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-data"]
    folders = sorted({p.parent.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*")
                      if p.is_file() and "__pycache__" not in p.parts})
    pairs = [(folder, pattern) for folder in folders for pattern in data.get("*", [])]
    pairs += [(package.replace(".", "/"), pattern) for package, patterns in data.items() if package != "*"
              for pattern in patterns]
    return pairs


def test_every_data_file_is_package_data() -> None:
    """Each file of converter/ that is not Python matches pyproject's package data, so an
    installed wheel (the one the site's wheel is built from) carries it."""
    globs = _package_data_globs()

    def matched(rel: str) -> bool:
        for folder, pattern in globs:
            if rel.startswith(folder + "/"):
                inner, parts = rel[len(folder) + 1:].split("/"), pattern.split("/")
                if len(inner) == len(parts) and all(map(fnmatch.fnmatch, inner, parts)):
                    return True
        return False

    data = [p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert "converter/web/site/index.html" in data
    assert [rel for rel in data if not matched(rel)] == []


def test_docs_name_every_pinned_download() -> None:
    """docs/web.md's table of downloads names each file assets.toml pins, with its host."""
    doc = (ROOT / "docs" / "web.md").read_text("utf-8")
    assets = pinned()
    assert [a.file for a in (assets.pyodide, *assets.wheels) if f"`{a.file}`" not in doc] == []
    hosts = {a.url: urllib.parse.urlsplit(a.url).hostname or "" for a in (assets.pyodide, *assets.wheels)}
    assert [url for url, host in hosts.items() if host not in doc] == []
