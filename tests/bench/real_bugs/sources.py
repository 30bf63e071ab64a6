"""The libraries of the real-bugs benchmark, fetched from registries at their buggy release.

The repository keeps only what we wrote (the repro programs and each bug's description, in
<lib>/BUGS.md); the libraries themselves come from a registry, pinned by the sha256 of the
archive the registry serves, into a gitignored cache (tests/bench/real_bugs/.cache):

- more-itertools 9.0.0: the PyPI source distribution (`pip download --no-binary :all:`).
- cJSON 1.7.15 and tinyxml2 9.0.0: the upstream ("orig") tarballs of Debian bookworm's source
  packages `cjson` and `tinyxml2` (`apt-get source --download-only`, with a private copy of the
  machine's own apt sources switched to deb-src, so the system's apt configuration is untouched).
  Debian's own patches (its CVE backports) are downloaded beside them and never applied: the
  benchmark needs the upstream release as its users built it.

`python3 sources.py fetch` downloads what is missing (scripts/setup.d/real_bugs.sh runs it);
`unpack(lib, dest)` checks the archive's hash and copies the library's files into a scratch
project (bench.py). A hash that differs fails with what was expected, never silently.
"""

from __future__ import annotations

import glob
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
CACHE = pathlib.Path(os.environ.get("DEBUGGER_MCP_REAL_BUGS_CACHE", HERE / ".cache"))

# name -> how to get it, the archive the registry serves, its sha256, the files a project needs
# (archive path -> project path).
LIBS = {
    "more-itertools": {
        "via": ["pip", "more-itertools==9.0.0"],
        "archive": "more-itertools-9.0.0.tar.gz",
        "sha256": "5a6257e40878ef0520b1803990e3e22303a41b5714006c32a3fd8304b26ea1ab",
        "files": {f"more-itertools-9.0.0/more_itertools/{f}": f"more_itertools/{f}"
                  for f in ("__init__.py", "more.py", "recipes.py")},
    },
    "cjson": {
        "via": ["apt-source", "cjson"],
        "archive": "cjson_1.7.15.orig.tar.gz",
        "sha256": "5308fd4bd90cef7aa060558514de6a1a4a0819974a26e6ed13973c5f624c24b2",
        "files": {f"cJSON-1.7.15/{f}": f for f in ("cJSON.c", "cJSON.h", "cJSON_Utils.c", "cJSON_Utils.h")},
    },
    "tinyxml2": {
        "via": ["apt-source", "tinyxml2"],
        "archive": "tinyxml2_9.0.0+dfsg.orig.tar.xz",
        "sha256": "96510f47a5db537f70dff3e83dd71fd2180cbba4aa76c589a549467e7f34bc9b",
        "files": {f"tinyxml2-9.0.0/{f}": f for f in ("tinyxml2.cpp", "tinyxml2.h")},
    },
}


class Missing(RuntimeError):
    pass


def sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def archive(lib: str) -> pathlib.Path:
    """The cached archive of `lib`, its hash checked."""
    spec = LIBS[lib]
    path = CACHE / spec["archive"]
    if not path.exists():
        raise Missing(f"{spec['archive']} is not in {CACHE}: run scripts/setup.d/real_bugs.sh "
                      f"(python3 tests/bench/real_bugs/sources.py fetch)")
    got = sha256(path)
    if got != spec["sha256"]:
        raise Missing(f"{path}: sha256 {got}, pinned {spec['sha256']}; the registry served another "
                      f"file: delete it and re-run scripts/setup.d/real_bugs.sh, or re-pin in sources.py "
                      f"after checking that the bugs still reproduce")
    return path


def unpack(lib: str, dest: pathlib.Path) -> None:
    """Copies the library's files (LIBS[lib]['files']) from its checked archive into dest."""
    spec = LIBS[lib]
    with tarfile.open(archive(lib)) as tar:
        for member, target in spec["files"].items():
            src = tar.extractfile(member)
            if src is None:
                raise Missing(f"{spec['archive']} has no file {member}")
            out = dest / target
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(src.read())


def _deb_src_sources(into: pathlib.Path) -> None:
    """This machine's own apt sources, as deb-src entries, in a private sources.list.d."""
    parts = into / "parts"
    parts.mkdir(parents=True)
    n = 0
    for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        text = pathlib.Path(f).read_text()
        lines = [("Types: deb-src" if l.strip().startswith("Types:") and "deb" in l.split() else l)
                 for l in text.splitlines()]
        (parts / pathlib.Path(f).name).write_text("\n".join(lines) + "\n")
        n += 1
    for f in ["/etc/apt/sources.list", *sorted(glob.glob("/etc/apt/sources.list.d/*.list"))]:
        if os.path.exists(f):
            lines = [l.replace("deb ", "deb-src ", 1) for l in open(f) if l.startswith("deb ")]
            if lines:
                (parts / (pathlib.Path(f).name.replace(".list", "") + ".list")).write_text("".join(lines))
                n += 1
    if not n:
        raise Missing("no apt sources found under /etc/apt: cannot fetch Debian source packages")


def _apt_source(packages: list[str]) -> None:
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="real-bugs-apt-"))
    try:
        _deb_src_sources(tmp)
        (tmp / "lists" / "partial").mkdir(parents=True)
        (tmp / "cache" / "archives" / "partial").mkdir(parents=True)
        # Private lists and caches: works without root and leaves the system's apt state alone.
        opts = ["-o", f"Dir::Etc::SourceParts={tmp / 'parts'}", "-o", "Dir::Etc::SourceList=/dev/null",
                "-o", f"Dir::State::Lists={tmp / 'lists'}", "-o", f"Dir::Cache={tmp / 'cache'}",
                "-o", "Debug::NoLocking=1", "-o", f"APT::Sandbox::User={'root' if os.geteuid() == 0 else os.environ.get('USER', 'nobody')}", "-q"]
        subprocess.run(["apt-get", *opts, "update"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", *opts, "source", "--download-only", *packages], check=True, cwd=CACHE,
                       stdout=subprocess.DEVNULL)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def fetch() -> int:
    CACHE.mkdir(parents=True, exist_ok=True)
    apt = []
    for lib, spec in LIBS.items():
        path = CACHE / spec["archive"]
        if path.exists() and sha256(path) == spec["sha256"]:
            continue
        path.unlink(missing_ok=True)
        kind, name = spec["via"]
        if kind == "pip":
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                            "-d", str(CACHE), name], check=True)
        else:
            apt.append(name)
    if apt:
        _apt_source(apt)
    problems = []
    for lib in LIBS:
        try:
            archive(lib)
        except Missing as e:
            problems.append(str(e))
    for p in problems:
        print(f"real-bugs sources: {p}", file=sys.stderr)
    if not problems:
        print(f"real-bugs sources: ok ({', '.join(s['archive'] for s in LIBS.values())} in {CACHE})")
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:] != ["fetch"]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(fetch())
