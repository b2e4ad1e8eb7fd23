#!/usr/bin/env bash
# Installs and uninstalls Easel; `make install` and `make uninstall` run it.
#
#   deploy/install.sh install FROM MANUAL_TOOL
#   deploy/install.sh uninstall
#
# FROM is a build folder holding easel, easel-serve and the editor's files
# (Easel_EaselServer.resources); MANUAL_TOOL is swift-argument-parser's generate-manual.
# PREFIX (required) and DESTDIR (optional, for packagers) come from the environment.
#
# Installs, under DESTDIR/PREFIX:
#   bin/easel, bin/easel-serve, bin/Easel_EaselServer.resources/  (easel-serve finds the
#                                       editor's files beside it; easel finds easel-serve there)
#   share/bash-completion/completions/{easel,easel-serve}
#   share/zsh/site-functions/{_easel,_easel-serve}
#   share/fish/vendor_completions.d/{easel,easel-serve}.fish
#   share/man/man1/easel.1, easel.SUBCOMMAND….1 (one page a subcommand), easel-serve.1
#   share/easel/install-manifest        every file written and every folder made, one a line
#
# `uninstall` removes exactly what the manifest lists (files, then the folders install made
# when they are empty again) and nothing else. `install` first uninstalls what an earlier
# install's manifest lists, so pages of a subcommand that is gone do not stay behind.
set -euo pipefail

root="${DESTDIR:-}${PREFIX:?PREFIX must be set (make install sets it; default /usr/local)}"
manifest_name="share/easel/install-manifest"
manifest="$root/$manifest_name"

fail() {
    echo "install.sh: error: $*" >&2
    exit 1
}

# A manifest line's path must stay inside PREFIX: relative, no `..`, under bin/ or share/.
checked() {
    local relative="$1"
    case "$relative" in
        /* | *..* | "") fail "$manifest: refusing the path '$relative' (outside PREFIX)" ;;
        bin | share | bin/* | share/*) printf '%s\n' "$relative" ;;
        *) fail "$manifest: refusing the path '$relative' (not under bin/ or share/)" ;;
    esac
}

uninstall() {
    if [ ! -f "$manifest" ]; then
        echo "uninstall: nothing to remove: no $manifest"
        return 0
    fi
    local kind relative folders=() count=0
    while read -r kind relative; do
        relative="$(checked "$relative")"
        case "$kind" in
            file)
                rm -f "$root/$relative"
                count=$((count + 1))
                ;;
            folder) folders+=("$relative") ;;
            *) fail "$manifest: unknown line kind '$kind'" ;;
        esac
    done <"$manifest"
    rm -f "$manifest"
    # Deepest first (the reverse of the order install made them); a folder that holds
    # anything else stays.
    local index
    for ((index = ${#folders[@]} - 1; index >= 0; index--)); do
        rmdir "$root/${folders[index]}" 2>/dev/null || true
    done
    echo "uninstall: removed $count files from $root"
}

# Makes the folders of `relative`'s path that are missing, recording each in the manifest.
make_folders() {
    local relative="$1" path="" part parts
    # Split on / without the shell expanding a name's * or ? against the current folder.
    IFS=/ read -r -a parts <<<"$relative"
    for part in "${parts[@]}"; do
        [ -n "$part" ] || continue
        path="${path:+$path/}$part"
        if [ ! -d "$root/$path" ]; then
            mkdir "$root/$path"
            echo "folder $path" >>"$manifest"
        fi
    done
}

# Installs `source` as `relative` with `mode`, recording it in the manifest.
put() {
    local source="$1" relative="$2" mode="$3"
    make_folders "$(dirname "$relative")"
    install -m "$mode" "$source" "$root/$relative"
    echo "file $relative" >>"$manifest"
}

install_all() {
    local from="$1" tool="$2" program
    for program in easel easel-serve; do
        [ -x "$from/$program" ] || fail "$from/$program is not built (make release builds it)"
    done
    [ -d "$from/Easel_EaselServer.resources" ] || fail "$from/Easel_EaselServer.resources (the editor's files) is missing"
    [ -x "$tool" ] || fail "$tool (swift-argument-parser's generate-manual) is not built"
    uninstall >/dev/null

    # Generated first, so a failure leaves nothing half-installed.
    stage="$(mktemp -d)"
    trap 'rm -rf "$stage"' EXIT
    mkdir "$stage/man"
    for program in easel easel-serve; do
        for shell in bash zsh fish; do
            "$from/$program" --generate-completion-script "$shell" >"$stage/$program.$shell"
            [ -s "$stage/$program.$shell" ] || fail "$from/$program made an empty $shell completion script"
        done
    done
    "$tool" "$from/easel" --multi-page --output-directory "$stage/man"
    "$tool" "$from/easel-serve" --output-directory "$stage/man"

    # The manifest first, in a folder of its own, which it lists before anything else (so
    # uninstall removes that folder last).
    mkdir -p "$root"
    local made=() path="" part
    for part in share easel; do
        path="${path:+$path/}$part"
        if [ ! -d "$root/$path" ]; then
            mkdir "$root/$path"
            made+=("$path")
        fi
    done
    : >"$manifest"
    for path in "${made[@]}"; do echo "folder $path" >>"$manifest"; done

    for program in easel easel-serve; do
        put "$from/$program" "bin/$program" 755
        put "$stage/$program.bash" "share/bash-completion/completions/$program" 644
        put "$stage/$program.zsh" "share/zsh/site-functions/_$program" 644
        put "$stage/$program.fish" "share/fish/vendor_completions.d/$program.fish" 644
    done
    local file
    while IFS= read -r -d '' file; do
        put "$file" "bin/${file#"$from/"}" 644
    done < <(find "$from/Easel_EaselServer.resources/" -type f -print0 | sort -z)
    for file in "$stage"/man/*.1; do
        put "$file" "share/man/man1/$(basename "$file")" 644
    done
    echo "install: $(grep -c '^file ' "$manifest") files in $root (listed in $manifest)"
}

case "${1:-}" in
    install)
        [ $# -eq 3 ] || fail "usage: deploy/install.sh install FROM MANUAL_TOOL"
        install_all "$2" "$3"
        ;;
    uninstall) uninstall ;;
    *) fail "usage: deploy/install.sh install FROM MANUAL_TOOL | uninstall" ;;
esac
