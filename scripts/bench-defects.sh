#!/usr/bin/env bash
# Builds the planted-defect corpus (Benchmarks/Defects/NN-name.patch) for the bench: for
# each patch, applies it to this checkout, builds its target product, copies the
# executable (and, for the sync example, its server beside it) into
# .build-bench/defects/NN-name/, and takes the patch back out — always, even when the
# build fails or the script is interrupted (Ctrl-C, a kill). A defect is skipped when its
# binary was built from the same patch and the same sources: its stamp (NN-name/stamp,
# the sha256 of the patch, of every tracked source file and of the build flags) matches.
#
#   scripts/bench-defects.sh                             # every defect
#   scripts/bench-defects.sh 03-todos-no-folder-fsync todos-read-error-as-empty
#   CONFIG=debug scripts/bench-defects.sh 03             # a debug build (.build-bench/defects-debug)
#
# Environment: CONFIG (release | debug), SCRATCH (the build's scratch path, default
# .build-bench, the one `make bench` uses), OUT (where the defects go), SWIFT.
# It prints one line per defect (built, skipped, FAILED) and exits 1 when one failed.
# It refuses to start when a file a selected patch touches has uncommitted changes, or
# while another run is patching the checkout.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${CONFIG:-release}"
scratch="${SCRATCH:-.build-bench}"
swift="${SWIFT:-swift}"
case "$config" in
  release) flags=(-c release --static-swift-stdlib); out="${OUT:-.build-bench/defects}" ;;
  debug) flags=(-c debug); out="${OUT:-.build-bench/defects-debug}" ;;
  *) echo "bench-defects: CONFIG must be release or debug, not '$config'" >&2; exit 64 ;;
esac

# The patches asked for: all of them, or those named (NN-name, name, NN, or a path).
patches=()
if [ "$#" -eq 0 ]; then
  for file in Benchmarks/Defects/*.patch; do [ -e "$file" ] && patches+=("$file"); done
else
  for name in "$@"; do
    name="${name%.patch}"; name="${name##*/}"
    found=()
    [ -e Benchmarks/Defects/"$name".patch ] && found=(Benchmarks/Defects/"$name".patch)
    if [ "${#found[@]}" -eq 0 ]; then
      for file in Benchmarks/Defects/[0-9][0-9]-"$name".patch Benchmarks/Defects/"$name"-*.patch; do
        [ -e "$file" ] && found+=("$file")
      done
    fi
    [ "${#found[@]}" -eq 1 ] || { echo "bench-defects: '$name' names ${#found[@]} defects in Benchmarks/Defects, not one" >&2; exit 64; }
    patches+=("${found[0]}")
  done
fi
[ "${#patches[@]}" -gt 0 ] || { echo "bench-defects: no patch in Benchmarks/Defects" >&2; exit 64; }

# A header line's first word: `# target: chaos-example-todos`.
header() { sed -n "/^diff --git/q; s/^# $1:[[:space:]]*\([^[:space:]]*\).*/\1/p" "$2" | head -n 1; }
touched() { git apply --numstat "$1" | cut -f3; }

# One run at a time in a checkout (whatever its CONFIG or OUT): each applies patches to it.
lock="$(git rev-parse --absolute-git-dir)/bench-defects.lock"
exec 9>"$lock"
flock -n 9 || { echo "bench-defects: another run is patching this checkout ($lock)" >&2; exit 1; }
mkdir -p "$out"

# Refuse before anything changes: every patch names its target and variant, and the files
# it touches are as committed (a patch that does not apply fails alone, below).
for patch in "${patches[@]}"; do
  for key in target variant; do
    [ -n "$(header "$key" "$patch")" ] || { echo "bench-defects: $patch has no '# $key:' line" >&2; exit 64; }
  done
  # shellcheck disable=SC2046 # one path a line, none with spaces
  dirty="$(git status --porcelain -- $(touched "$patch"))"
  if [ -n "$dirty" ]; then
    echo "bench-defects: refusing to start: $patch touches files with uncommitted changes:" >&2
    echo "$dirty" >&2
    exit 1
  fi
done

# What every binary is built from, less its patch: the tracked sources as they are now
# (committed or not), the manifest and its pins (Package.resolved, not tracked), and the
# build flags.
sources="$( { git ls-files -z -- Package.swift Sources Examples | xargs -0 sha256sum
              if [ -f Package.resolved ]; then sha256sum Package.resolved; fi
              echo "${flags[*]}"; } | sha256sum | cut -d' ' -f1)"

# SwiftPM leaves folders and lock files in TMPDIR at every build: its TMPDIR is one of the
# scratch path's, removed on the way out.
build_tmp="$scratch/bench-defects.tmp"
mkdir -p "$build_tmp"

# The patch applied now, if any: taken back out on every way out.
applied=""
restore() {
  [ -n "$applied" ] || return 0
  local patch="$applied"
  applied=""
  if ! git apply -R "$patch"; then
    # The files were clean before the patch went in: put back what is committed.
    echo "bench-defects: 'git apply -R $patch' failed; restoring its files from HEAD" >&2
    # shellcheck disable=SC2046
    git checkout HEAD -- $(touched "$patch")
  fi
}
# The defect being built, for the line an interruption prints, and its build: run in the
# background and waited for, so that a signal stops the script at once (bash runs no trap
# while a foreground child that handles SIGINT itself is running, and swift build does).
current=""
build=""
interrupted() {
  if [ -n "$build" ]; then
    kill -INT "$build" 2>/dev/null || true
    wait "$build" 2>/dev/null || true
    build=""
  fi
  [ -z "$current" ] || printf '%-44s stopped  interrupted; its patch taken out\n' "$current"
  restore
  exit "$1"
}
trap 'restore; rm -rf "$build_tmp"' EXIT
trap 'interrupted 130' INT
trap 'interrupted 143' TERM
trap 'interrupted 129' HUP

failed=0
for patch in "${patches[@]}"; do
  name="$(basename "$patch" .patch)"
  target="$(header target "$patch")"
  dest="$out/$name"
  stamp="$( { sha256sum < "$patch"; echo "$sources"; } | sha256sum | cut -d' ' -f1)"
  if [ -f "$dest/stamp" ] && [ "$(cat "$dest/stamp")" = "$stamp" ] && [ -x "$dest/$target" ]; then
    printf '%-44s skipped  %s is up to date (%s)\n' "$name" "$target" "$dest"
    continue
  fi
  rm -rf "$dest"
  mkdir -p "$dest"
  log="$dest/build.log"
  products=("$target")
  [ "$target" = chaos-example-sync ] && products+=(chaos-example-sync-server)
  start=$SECONDS
  if ! git apply --check "$patch" 2>"$log"; then
    printf '%-44s FAILED   the patch does not apply (%s)\n' "$name" "$log"
    failed=1
    continue
  fi
  current="$name"
  applied="$patch"
  git apply "$patch"
  ok=1
  for product in "${products[@]}"; do
    TMPDIR="$build_tmp" "$swift" build "${flags[@]}" --scratch-path "$scratch" --product "$product" >>"$log" 2>&1 </dev/null &
    build=$!
    if ! wait "$build"; then ok=0; fi
    build=""
    [ "$ok" = 1 ] || break
  done
  if [ "$ok" = 1 ]; then
    bin="$(TMPDIR="$build_tmp" "$swift" build "${flags[@]}" --scratch-path "$scratch" --show-bin-path 2>>"$log")"
    for product in "${products[@]}"; do cp "$bin/$product" "$dest/" || ok=0; done
  fi
  restore
  current=""
  if [ "$ok" = 1 ]; then
    echo "$stamp" > "$dest/stamp"
    printf '%-44s built    %s in %ss (%s)\n' "$name" "$target" "$((SECONDS - start))" "$dest"
  else
    printf '%-44s FAILED   the build of %s (%s)\n' "$name" "$target" "$log"
    failed=1
  fi
done
exit "$failed"
