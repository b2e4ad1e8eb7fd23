#!/usr/bin/env bash
# Writes everything Easel's CLI produces for the committed inputs into one folder, so two
# builds can be compared byte for byte (`diff -r`): the samples and the hostile corpus
# exported to PNG, SVG and PDF, `info --json` and `validate` of every document, the
# docs/cli.md walkthrough's outputs, and every message on stderr.
#
#   Tools/output-fingerprint.sh path/to/easel OUTDIR
#
# PDF files carry a creation date; it is blanked so that only the drawing is compared.
set -uo pipefail
easel=$(readlink -f "$1")
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out" && mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Paths in messages are made relative to the repository, so two checkouts compare equal.
scrub() { sed -e "s#$root/##g" -e "s#$work/##g" -e 's/ in [0-9.]* s, [0-9.]* documents\/s, peak memory [0-9]* MiB//' -e 's/, peak memory [0-9]* MiB//' -e 's/([0-9.]* s)//'; }

cd "$root"
for format in png svg pdf; do
  for input in Assets/Samples Tests/Corpus/hostile; do
    name=$(basename "$input")-$format
    "$easel" export "$input" --out "$work/$name" --format "$format" --jobs 1 --quiet >/dev/null 2>"$work/$name.stderr"
    echo "exit $?" >>"$work/$name.stderr"
    scrub <"$work/$name.stderr" | sort >"$out/$name.stderr"
    mkdir -p "$out/$name"
    (cd "$work/$name" && find . -type f ! -name '.easel-manifest*' | while read -r f; do
      mkdir -p "$out/$name/$(dirname "$f")"
      if [ "$format" = pdf ]; then sed -e 's#/CreationDate ([^)]*)#/CreationDate ()#' "$f" >"$out/$name/$f"; else cp "$f" "$out/$name/$f"; fi
    done)
  done
done
find Assets/Samples Tests/Corpus/hostile \( -name '*.rwcard' -o -name '*.drawing' \) | sort | while read -r document; do
  name=$(echo "$document" | tr '/' '_')
  { "$easel" info "$document" --json; echo "exit $?"; } 2>&1 | scrub >"$out/info-$name.txt"
  { "$easel" validate "$document"; echo "exit $?"; } 2>&1 | scrub >"$out/validate-$name.txt"
  { "$easel" export "$document" --out "$work/single.png" --preset thumbnail; echo "exit $?"; } 2>&1 | scrub >"$out/export-$name.txt"
  [ -f "$work/single.png" ] && mv "$work/single.png" "$out/single-$name.png"
done

# The walkthrough of docs/cli.md, as the test suite runs it.
(cd "$work" && sed -n '/^## Walkthrough/,/^## The interactive session/p' "$root/docs/cli.md" | grep '^easel ' | while read -r line; do
  eval "\"$easel\" ${line#easel }" 2>&1 | scrub
  echo "exit $?"
done) >"$out/walkthrough.txt"
cp "$work"/poster.png "$work"/birthday.png "$work"/poster.drawing "$out/" 2>/dev/null
echo "fingerprint written to $out ($(find "$out" -type f | wc -l) files)"
