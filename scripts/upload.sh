#!/usr/bin/env bash
# Writes the folder to upload to a ladder: the binary a ladder runs (static, no debug information,
# no symbols: cargo's `upload` profile) and a bot profile beside it as ladderbot.toml, which the
# binary plays when started with no arguments.
#
#   scripts/upload.sh PROFILE [DIR]
#
#   PROFILE  a shipped profile's name (golad-best, bots/NAME.toml) or a profile file
#   DIR      the folder to write (default: upload); made if missing, its ladderbot and
#            ladderbot.toml replaced
#
# Exit 2 on a profile that does not exist or does not load (the binary's own check), 1 when the
# build fails or the binary links a shared library.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
    sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'
    [ $# -ge 1 ] && [ "$1" != "-h" ] && [ "$1" != "--help" ] && exit 2
    [ $# -eq 0 ] && exit 2
    exit 0
fi
profile=$1
dir=${2:-upload}
root=$(cd "$(dirname "$0")/.." && pwd)

if [ -f "$profile" ]; then
    source_profile=$profile
elif [ -f "$root/bots/$profile.toml" ]; then
    source_profile=$root/bots/$profile.toml
else
    echo "upload: no profile '$profile' (a file, or a name of $root/bots/)" >&2
    exit 2
fi

target=x86_64-unknown-linux-gnu
# A static binary (glibc's static libraries, from libc6-dev): it runs on any x86-64 Linux.
(cd "$root" && RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static" \
    cargo build --profile upload --locked --target "$target" -p ladderbot --bin ladderbot)
bin=$root/target/$target/upload/ladderbot
if ldd "$bin" 2>&1 | grep -q "=>"; then
    echo "upload: $bin links shared libraries:" >&2
    ldd "$bin" >&2
    exit 1
fi

mkdir -p "$dir"
cp "$bin" "$dir/ladderbot"
cp "$source_profile" "$dir/ladderbot.toml"
# The binary checks the profile as the ladder will load it: a bad key or value is refused here.
if ! "$dir/ladderbot" --profile "$dir/ladderbot.toml" agents >/dev/null; then
    echo "upload: $source_profile does not load (above)" >&2
    exit 2
fi
size=$(wc -c <"$dir/ladderbot")
echo "upload: $dir/ladderbot ($((size / 1000000)) MB, $size bytes, static) and $dir/ladderbot.toml ($source_profile)"
