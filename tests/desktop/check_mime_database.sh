#!/bin/sh
# Builds a private MIME database from Strata's shared-mime-info package and checks that every
# glob, magic rule and sub-class made it into the generated files. When gio is available it also
# asks it to identify the bundled samples, once by name and once by content alone.
#
#   check_mime_database.sh MIME_XML SAMPLES_DIR
set -eu

mime_xml=$1
samples=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

mkdir -p "$work/mime/packages"
cp "$mime_xml" "$work/mime/packages/strata.xml"
XDG_DATA_DIRS="$work" update-mime-database "$work/mime"

for entry in application/x-zs:*.zs application/x-ztensor:*.zt \
        application/x-shardlake-shard:*.sidx application/x-zds:*.zds \
        text/x-ozdf:*.ozdf text/x-ozdf-part:*.ozdp; do
    grep -qxF "50:$entry" "$work/mime/globs2" || fail "glob $entry missing from globs2"
done

# The magic file is binary: look for each type's section header and its bytes.
magic_hex=$(od -An -v -tx1 "$work/mime/magic" | tr -d ' \n')
for section in application/x-zs application/x-zs-partial application/x-ztensor \
        application/x-shardlake-shard; do
    grep -qF "[60:$section]" "$work/mime/magic" || fail "no magic section for $section"
done
for bytes in ab5a536669 4c6501 ab5a5374 6f426501 5a54454e31303030 534c4b494458; do
    case $magic_hex in
        *"$bytes"*) ;;
        *) fail "magic bytes $bytes missing" ;;
    esac
done
# Each rule is "offset=" then a big-endian u16 length then the value.
for rule in 3e303d0008ab5a536669 3e303d0008ab5a5374 3e303d00085a54454e31303030 \
        3e303d0008534c4b4944580000; do
    case $magic_hex in
        *"$rule"*) ;;
        *) fail "magic rule $rule (offset 0, exact length) missing" ;;
    esac
done

for pair in "application/x-zs-partial application/x-zs" "application/x-zds application/zip" \
        "text/x-ozdf text/plain" "text/x-ozdf-part text/plain"; do
    grep -qxF "$pair" "$work/mime/subclasses" || fail "sub-class $pair missing"
done

if command -v gio >/dev/null 2>&1; then
    detect() {
        XDG_DATA_HOME="$work" XDG_DATA_DIRS="$work" gio info -a standard::content-type "$1" |
            sed -n 's/^ *standard::content-type: //p'
    }
    # OZDF has no magic: only its name tells it apart from other text.
    got=$(detect "$samples/sample.ozdf")
    [ "$got" = text/x-ozdf ] || fail "gio calls sample.ozdf '$got', expected text/x-ozdf"
    for pair in sample.zs:application/x-zs sample.zt:application/x-ztensor \
            sample.sidx:application/x-shardlake-shard; do
        name=${pair%%:*}
        want=${pair#*:}
        got=$(detect "$samples/$name")
        [ "$got" = "$want" ] || fail "gio calls $name '$got', expected $want"
        cp "$samples/$name" "$work/no-extension"
        got=$(detect "$work/no-extension")
        [ "$got" = "$want" ] || fail "gio calls $name without extension '$got', expected $want"
    done
    printf '\253ZStoBe\001' >"$work/unfinished"
    got=$(detect "$work/unfinished")
    [ "$got" = application/x-zs-partial ] || fail "gio calls a ZStoBe file '$got'"
fi

[ "$failures" -eq 0 ] || exit 1
echo "MIME database checks passed"
