#!/bin/sh
# Runs the Gradle version this build names, fetching it on first use: our own small stand-in for
# Gradle's generated wrapper (whose scripts and jar are Gradle's code and are not kept here).
# It takes the version from build.gradle.kts (`tasks.wrapper { gradleVersion = "…" }`, the one place
# it is written), downloads that distribution once into $GRADLE_USER_HOME/wrapper/dists (default
# ~/.gradle), checks it against the SHA-256 Gradle publishes beside it (URL + ".sha256"), unpacks it
# and runs its `gradle` with the arguments given: `./gradlew runIde`. GRADLEW_DISTRIBUTIONS points
# it at another server (a mirror; the tests use a local one).
set -eu
root=$(cd "$(dirname "$0")" && pwd)
version=$(sed -n 's/^[[:space:]]*gradleVersion[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$root/build.gradle.kts" | head -n 1)
[ -n "$version" ] || { echo "gradlew: no gradleVersion in $root/build.gradle.kts (tasks.wrapper)" >&2; exit 1; }
dist="gradle-$version-bin"
zip_name="$dist.zip"
url="${GRADLEW_DISTRIBUTIONS:-https://services.gradle.org/distributions}/$zip_name"
home="${GRADLE_USER_HOME:-$HOME/.gradle}/wrapper/dists/$dist/ours"
gradle_bin="$home/gradle-$version/bin/gradle"

if [ ! -x "$gradle_bin" ]; then
  mkdir -p "$home"
  fetch() { # url, file
    if command -v curl >/dev/null 2>&1; then curl -fsSL --retry 3 -o "$2" "$1"
    elif command -v wget >/dev/null 2>&1; then wget -q -O "$2" "$1"
    else echo "gradlew: needs curl or wget to download $1" >&2; exit 1; fi
  }
  echo "gradlew: downloading $url" >&2
  fetch "$url" "$home/$zip_name.part" || { echo "gradlew: could not download $url (is the network reachable?)" >&2; exit 1; }
  fetch "$url.sha256" "$home/$zip_name.sha256" || { echo "gradlew: could not download $url.sha256" >&2; exit 1; }
  want=$(tr -d ' \n' < "$home/$zip_name.sha256")
  got=$(sha256sum "$home/$zip_name.part" 2>/dev/null || shasum -a 256 "$home/$zip_name.part")
  got=${got%% *}
  if [ "$got" != "$want" ]; then
    rm -f "$home/$zip_name.part"
    echo "gradlew: $zip_name has SHA-256 $got, expected $want; not using it" >&2
    exit 1
  fi
  command -v unzip >/dev/null 2>&1 || { echo "gradlew: needs unzip (apt-get install unzip)" >&2; exit 1; }
  unzip -q -o "$home/$zip_name.part" -d "$home"
  rm -f "$home/$zip_name.part"
  [ -x "$gradle_bin" ] || { echo "gradlew: $zip_name holds no gradle-$version/bin/gradle" >&2; exit 1; }
fi
cd "$root"
exec "$gradle_bin" "$@"
