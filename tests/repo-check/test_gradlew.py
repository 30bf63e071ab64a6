"""Our ./gradlew (the README's `./gradlew runIde`): it fetches the Gradle version build.gradle.kts
names, checks the download against the published SHA-256, runs it from the project root with the
arguments given, reuses it on the next run, and refuses a download whose hash differs. A local HTTP
server stands in for services.gradle.org (GRADLEW_DISTRIBUTIONS); the distribution is a fake
`gradle` that prints where it ran and its arguments."""
import functools
import hashlib
import http.server
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    handler = functools.partial(Quiet, directory=str(directory))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def main():
    version = re.search(r'gradleVersion\s*=\s*"([^"]+)"', (ROOT / "build.gradle.kts").read_text()).group(1)
    problems = []
    with tempfile.TemporaryDirectory() as t:
        t = pathlib.Path(t)
        dists, proj, home = t / "dists", t / "proj", t / "gradle-home"
        dists.mkdir()
        proj.mkdir()
        shutil.copy(ROOT / "gradlew", proj / "gradlew")
        (proj / "build.gradle.kts").write_text(f'tasks.wrapper {{\n    gradleVersion = "{version}"\n}}\n')
        zip_path = dists / f"gradle-{version}-bin.zip"
        with zipfile.ZipFile(zip_path, "w") as z:
            info = zipfile.ZipInfo(f"gradle-{version}/bin/gradle")
            info.external_attr = 0o755 << 16
            z.writestr(info, '#!/bin/sh\necho "ran in $(pwd) with: $*"\n')
        sha = hashlib.sha256(zip_path.read_bytes()).hexdigest()
        (dists / f"{zip_path.name}.sha256").write_text(sha)
        srv = serve(dists)
        env = {"PATH": "/usr/bin:/bin", "HOME": str(t), "GRADLE_USER_HOME": str(home),
               "GRADLEW_DISTRIBUTIONS": f"http://127.0.0.1:{srv.server_port}"}

        def run(*args, cwd=t):
            return subprocess.run([str(proj / "gradlew"), *args], cwd=cwd, env=env,
                                  capture_output=True, text=True, timeout=60)

        r = run("runIde", "--info")
        if r.returncode != 0 or f"ran in {proj} with: runIde --info" not in r.stdout:
            problems.append(f"first run: rc={r.returncode} out={r.stdout!r} err={r.stderr!r}")
        srv.shutdown()  # the second run must not need the network
        r = run("buildPlugin")
        if r.returncode != 0 or "with: buildPlugin" not in r.stdout or "downloading" in r.stderr:
            problems.append(f"second run (cached): rc={r.returncode} out={r.stdout!r} err={r.stderr!r}")

        shutil.rmtree(home)
        (dists / f"{zip_path.name}.sha256").write_text("0" * 64)
        srv = serve(dists)
        env["GRADLEW_DISTRIBUTIONS"] = f"http://127.0.0.1:{srv.server_port}"
        r = run("runIde")
        if r.returncode == 0 or "expected " + "0" * 64 not in r.stderr or "ran in" in r.stdout:
            problems.append(f"hash mismatch not refused: rc={r.returncode} out={r.stdout!r} err={r.stderr!r}")
        if list(home.rglob("bin/gradle")):
            problems.append("a download with the wrong hash was unpacked")
        srv.shutdown()

        (proj / "build.gradle.kts").write_text("// no version here\n")
        r = run("runIde")
        if r.returncode == 0 or "no gradleVersion" not in r.stderr:
            problems.append(f"missing version not named: rc={r.returncode} err={r.stderr!r}")
    for p in problems:
        print("gradlew:", p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"gradlew: fetches, verifies, caches and runs Gradle {version}; refuses a wrong hash")


if __name__ == "__main__":
    main()
