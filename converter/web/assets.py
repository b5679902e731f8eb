"""The site's pinned assets (``assets.toml``: the Pyodide tarball and the wheels) and the cache
they are fetched into: a missing or damaged file is downloaded once (standard library only),
checked against its pinned digest and written atomically; a cached, verified file needs no network."""
from __future__ import annotations

import base64
import hashlib
import http.client
import os
import tempfile
import tomllib
import urllib.error
import urllib.request
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

from ..core.errors import MechasheetError, OutputError
from ..core.version import __version__

#: where the build keeps what it fetched, unless $MECHASHEET_WEB_CACHE names another folder
CACHE_ENV = "MECHASHEET_WEB_CACHE"
#: no pinned asset is near this size (the Pyodide tarball is ~7 MB): a larger answer is not it
MAX_BYTES = 256 * 1024 * 1024
TIMEOUT = 60


class AssetError(MechasheetError, OSError):
    """A pinned asset cannot be had: the network cannot reach it, or it is not the pinned bytes."""


@dataclass(frozen=True)
class Asset:
    """One pinned download: the file name it is cached under, its URL and its digest."""

    name: str
    version: str
    file: str
    url: str
    algorithm: str  # a hashlib name: "sha256", "sha512"
    digest: str  # hexadecimal

    def matches(self, path: Path) -> bool:
        """Whether ``path`` holds exactly the pinned bytes."""
        h = hashlib.new(self.algorithm)
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest() == self.digest


@dataclass(frozen=True)
class Assets:
    """Everything ``assets.toml`` pins: Pyodide's tarball and the core files taken from it, the
    wheels in load order."""

    pyodide: Asset
    pyodide_files: tuple[str, ...]
    wheels: tuple[Asset, ...]


def _integrity(text: str) -> tuple[str, str]:
    """npm's ``integrity`` (``sha512-<base64>``) as (algorithm, hexadecimal digest)."""
    algorithm, _, b64 = text.partition("-")
    return algorithm, base64.b64decode(b64).hex()


@lru_cache(maxsize=1)
def pinned() -> Assets:
    """The pinned assets, read from ``assets.toml`` beside this module."""
    data = tomllib.loads((Path(__file__).with_name("assets.toml")).read_text("utf-8"))
    p = data["pyodide"]
    algorithm, digest = _integrity(p["integrity"])
    pyodide = Asset("pyodide", p["version"], f"pyodide-{p['version']}.tgz", p["url"], algorithm, digest)
    wheels = tuple(Asset(w["name"], w["version"], w["file"], w["url"], "sha256", w["sha256"].lower())
                   for w in data["wheels"])
    return Assets(pyodide, tuple(p["files"]), wheels)


def cache_dir() -> Path:
    """The cache folder: $MECHASHEET_WEB_CACHE, else ~/.cache/mechasheet/web."""
    named = os.environ.get(CACHE_ENV)
    return Path(named) if named else Path.home() / ".cache" / "mechasheet" / "web"


def fetch(asset: Asset, cache: Path | None = None,
          on_download: Callable[[Asset], None] | None = None) -> Path:
    """The cached file of ``asset``, downloaded first when it is missing or not the pinned bytes.

    The download goes to a temporary file beside the target, is hashed as it arrives and renamed
    into place only when it matches, so the cache never holds a partial or wrong file."""
    cache = cache_dir() if cache is None else cache
    target = cache / asset.file
    if target.is_file() and asset.matches(target):
        return target
    if on_download is not None:
        on_download(asset)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{asset.file}.", suffix=".part", dir=cache)
    except OSError as exc:
        raise OutputError(f"{cache}: cannot write the cache ({exc})", "OUTPUT_CANNOT_WRITE",
                          file=str(cache), detail=exc.strerror or str(exc)) from exc
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            got = _download(asset, out)
            out.flush()
            os.fsync(out.fileno())
        if got != asset.digest:
            raise AssetError(f"{asset.url}: {asset.algorithm} {got}, pinned {asset.digest}",
                             "WEB_ASSET_MISMATCH", url=asset.url, algorithm=asset.algorithm,
                             expected=asset.digest, got=got)
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide a shared cache from its other users
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _download(asset: Asset, out) -> str:
    """Stream ``asset.url`` into ``out``; its digest. Any network failure is an AssetError naming the URL."""
    request = urllib.request.Request(asset.url, headers={"User-Agent": f"mechasheet/{__version__}"})
    h = hashlib.new(asset.algorithm)
    size = 0
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            for block in iter(lambda: response.read(1 << 20), b""):
                size += len(block)
                if size > MAX_BYTES:
                    raise AssetError(f"{asset.url}: more than {MAX_BYTES} bytes", "WEB_ASSET_UNREACHABLE",
                                     url=asset.url, detail=f"more than {MAX_BYTES} bytes")
                h.update(block)
                out.write(block)
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as exc:
        if isinstance(exc, AssetError):
            raise
        # "HTTP Error 404: Not Found"; a refused connection or a name that does not resolve: its reason
        http_error = isinstance(exc, urllib.error.HTTPError)
        detail = str(exc) if http_error else str(getattr(exc, "reason", None) or exc)
        raise AssetError(f"{asset.url}: cannot download ({detail})", "WEB_ASSET_UNREACHABLE",
                         url=asset.url, detail=detail) from exc
    return h.hexdigest()


def fetch_all(cache: Path | None = None,
              on_download: Callable[[Asset], None] | None = None) -> tuple[Path, list[Path]]:
    """Every pinned asset in the cache: (the Pyodide tarball, the wheels in load order);
    ``on_download`` is told of each one that must be downloaded first."""
    assets = pinned()
    return fetch(assets.pyodide, cache, on_download), [fetch(w, cache, on_download) for w in assets.wheels]
