#!/usr/bin/env bash
# `make install-check` (run by `make test`): installs a build as `make install` does, into a
# temporary DESTDIR, checks every file it installed, uninstalls, and checks that exactly
# those files went (a file that was there before stays). Uses the build it is given (the
# tests' debug build), so the test suite never builds a release.
#
#   Tests/Scripts/install-check.sh FROM MANUAL_TOOL
set -euo pipefail
cd "$(dirname "$0")/../.."
from="$1"
tool="$2"
destdir="$(mktemp -d)"
scratch="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$destdir" "$scratch"
}
trap cleanup EXIT
prefix=/usr/local
root="$destdir$prefix"
failures=0
check() {
    local what="$1"
    shift
    if "$@"; then
        echo "ok      $what"
    else
        echo "FAILED  $what" >&2
        failures=$((failures + 1))
    fi
}
contains() { grep -q -- "$2" "$1"; }

# Someone else's file in the same tree: uninstall must leave it.
mkdir -p "$root/bin" "$root/share/man/man1"
echo "another program" >"$root/bin/other-tool"
echo ".Dd other" >"$root/share/man/man1/other.1"

DESTDIR="$destdir" PREFIX="$prefix" deploy/install.sh install "$from" "$tool"

check "bin/easel --version" test -n "$("$root/bin/easel" --version)"
check "bin/easel-serve --version is easel's" test "$("$root/bin/easel-serve" --version)" = "$("$root/bin/easel" --version)"
"$root/bin/easel" serve --help >"$scratch/serve-help.txt"
check "easel serve --help runs the easel-serve beside it" contains "$scratch/serve-help.txt" "USAGE: easel-serve "
check "easel serve --help names docs/service-api.md" contains "$scratch/serve-help.txt" "docs/service-api.md"
for program in easel easel-serve; do
    check "$program bash completion" contains "$root/share/bash-completion/completions/$program" "^complete .* $program\$"
    check "$program zsh completion" contains "$root/share/zsh/site-functions/_$program" "#compdef $program"
    check "$program fish completion" contains "$root/share/fish/vendor_completions.d/$program.fish" "^complete -c '$program'"
done
check "man page easel.1 (mdoc)" contains "$root/share/man/man1/easel.1" "^\.Dt EASEL 1"
check "man page easel.1 has a date" contains "$root/share/man/man1/easel.1" "^\.Dd "
check "man page of a subcommand: easel.export.1" contains "$root/share/man/man1/easel.export.1" "^\.Dt EASEL.EXPORT 1"
check "man page easel-serve.1 with its options" contains "$root/share/man/man1/easel-serve.1" "token-file"
check "the editor's files beside easel-serve" test -s "$root/bin/Easel_EaselServer.resources/Editor/index.html"
"$root/bin/easel" export Assets/Samples/Showcase.drawing --out "$scratch/showcase.png"
check "the installed easel exports a PNG" test "$(head -c 8 "$scratch/showcase.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a

# The installed easel serve, as a user runs it: the editor answers at /.
mkdir "$scratch/docs"
cp -R Assets/Samples/Showcase.drawing "$scratch/docs/"
"$root/bin/easel" serve "$scratch/docs" --port 0 2>"$scratch/serve.log" &
server=$!
port=""
for _ in $(seq 200); do
    port="$(grep -o '127\.0\.0\.1:[0-9]*' "$scratch/serve.log" | head -1 | cut -d: -f2 || true)"
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.05
done
check "easel serve started ($(head -c 300 "$scratch/serve.log"))" test -n "$port"
if [ -n "$port" ]; then
    check "the installed server serves the editor at /" \
        test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")" = 200
fi
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
server=""

manifest="$root/share/easel/install-manifest"
missing=0
while read -r kind relative; do
    if [ "$kind" = file ] && [ ! -f "$root/$relative" ]; then missing=$((missing + 1)); fi
done <"$manifest"
check "every file the manifest lists exists ($(grep -c '^file ' "$manifest") files)" test "$missing" -eq 0
check "the manifest lists every file installed" test \
    "$(find "$root" -type f ! -name install-manifest ! -name other-tool ! -name other.1 | wc -l)" -eq "$(grep -c '^file ' "$manifest")"

DESTDIR="$destdir" PREFIX="$prefix" deploy/install.sh uninstall
left="$(cd "$destdir" && find . \( -type f -o -type l \) | sort | tr '\n' ' ')"
check "uninstall removed exactly what install wrote (left: $left)" \
    test "$left" = "./usr/local/bin/other-tool ./usr/local/share/man/man1/other.1 "
check "uninstall removed the folders install made" test ! -e "$root/share/easel" -a ! -e "$root/bin/Easel_EaselServer.resources"

if [ "$failures" -ne 0 ]; then
    echo "install-check: $failures failed" >&2
    exit 1
fi
echo "install-check: all passed"
