#!/bin/sh
# Every MIME type Strata defines must be listed in the desktop entry and in the AppStream
# metainfo, and those must not name types that the MIME package does not define.
#
#   check_type_lists.sh MIME_XML DESKTOP_FILE METAINFO_FILE
set -eu

defined=$(sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' "$1" | sort)
desktop=$(sed -n 's/^MimeType=//p' "$2" | tr ';' '\n' | sed '/^$/d' | sort)
metainfo=$(sed -n 's/.*<mediatype>\([^<]*\)<\/mediatype>.*/\1/p' "$3" | sort)

status=0
if [ -z "$defined" ]; then
    echo "FAIL: no <mime-type> in $1" >&2
    status=1
fi
if [ "$defined" != "$desktop" ]; then
    echo "FAIL: MimeType= in $2 differs from the MIME package:" >&2
    printf 'defined:\n%s\ndesktop:\n%s\n' "$defined" "$desktop" >&2
    status=1
fi
if [ "$defined" != "$metainfo" ]; then
    echo "FAIL: <mediatype> list in $3 differs from the MIME package:" >&2
    printf 'defined:\n%s\nmetainfo:\n%s\n' "$defined" "$metainfo" >&2
    status=1
fi
[ "$status" -eq 0 ] && echo "type lists agree: $(echo "$defined" | tr '\n' ' ')"
exit "$status"
