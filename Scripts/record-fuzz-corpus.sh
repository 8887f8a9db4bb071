#!/usr/bin/env bash
# Records the seed corpora of the fuzz targets (Fuzz/Corpus) from real PTP/IP sessions: fuzz-corpus-recorder runs a
# Nikon, a Canon EOS and a generic simulated camera behind recording proxies and records the client's own session through them;
# this script then runs Debian's gphoto2 through the proxies, command after command, with a throwaway HOME.
# Seeds are named after their content or session, so rerunning adds what is new and keeps what is there.
# Usage: Scripts/record-fuzz-corpus.sh   (SWIFT=... to use another toolchain)
set -euo pipefail
cd "$(dirname "$0")/.."

swift=${SWIFT:-swift}
command -v gphoto2 >/dev/null || { echo "record-fuzz-corpus: gphoto2 is missing; run make test-deps" >&2; exit 1; }
"$swift" build --product fuzz-corpus-recorder >/dev/null
recorder="$("$swift" build --show-bin-path)/fuzz-corpus-recorder"

work=$(mktemp -d /tmp/viewfinder-corpus.XXXXXX)
export HOME="$work/home"
mkdir -p "$HOME" "$work/files"
mkfifo "$work/control"
recorder_pid=
cleanup() {
    [ -n "$recorder_pid" ] && kill "$recorder_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

"$recorder" Fuzz/Corpus <"$work/control" >"$work/recorder.out" 2>&1 &
recorder_pid=$!
exec 3>"$work/control"
for _ in $(seq 1 300); do
    generic=$(sed -n 's/^generic //p' "$work/recorder.out")
    [ -n "$generic" ] && break
    kill -0 "$recorder_pid" 2>/dev/null || { cat "$work/recorder.out" >&2; exit 1; }
    sleep 0.1
done
nikon=$(sed -n 's/^nikon //p' "$work/recorder.out")
canon=$(sed -n 's/^canon //p' "$work/recorder.out")
[ -n "$generic" ] && [ -n "$nikon" ] && [ -n "$canon" ] || { echo "record-fuzz-corpus: the recorder did not start" >&2; exit 1; }

# gphoto LABEL PORT MODEL ARGS...: one gphoto2 command through a proxy, its connections recorded under LABEL.
gphoto() {
    local label=$1 port=$2 model=$3
    shift 3
    echo "label $label" >&3
    sleep 0.2
    (cd "$work/files" && timeout 60 gphoto2 --port "ptpip:127.0.0.1:$port:$port" --camera "$model" "$@") \
        >"$work/$label.out" 2>&1 || echo "record-fuzz-corpus: gphoto2 $* failed (recorded anyway)"
}

generic_model="PTP/IP Camera"
nikon_model="Nikon DSLR (WLAN)"
canon_model="Canon EOS (WLAN)"
gphoto gphoto2-summary "$generic" "$generic_model" --summary
gphoto gphoto2-list-config "$generic" "$generic_model" --list-config
gphoto gphoto2-get-iso "$generic" "$generic_model" --get-config iso
gphoto gphoto2-set-iso "$generic" "$generic_model" --set-config iso=800
gphoto gphoto2-set-bad-iso "$generic" "$generic_model" --set-config iso=123
gphoto gphoto2-set-date "$generic" "$generic_model" --set-config datetime=now
gphoto gphoto2-capture "$generic" "$generic_model" --capture-image-and-download --filename capture.jpg
gphoto gphoto2-list-files "$generic" "$generic_model" --list-files
gphoto gphoto2-get-file "$generic" "$generic_model" --folder /store_00010001/DCIM/100VFNDR --get-file 1 \
    --filename file1.jpg
gphoto gphoto2-get-thumbnail "$generic" "$generic_model" --folder /store_00010001/DCIM/100VFNDR --get-thumbnail 1
gphoto gphoto2-delete "$generic" "$generic_model" --folder /store_00010001/DCIM/100VFNDR --delete-file 1
gphoto gphoto2-preview "$nikon" "$nikon_model" --capture-preview
gphoto gphoto2-movie-start "$nikon" "$nikon_model" --set-config movie=1
gphoto gphoto2-movie-stop "$nikon" "$nikon_model" --set-config movie=0
gphoto gphoto2-canon-summary "$canon" "$canon_model" --summary
gphoto gphoto2-canon-set-iso "$canon" "$canon_model" --set-config iso=800
gphoto gphoto2-canon-capture "$canon" "$canon_model" --capture-image-and-download --filename canon.jpg
gphoto gphoto2-canon-preview "$canon" "$canon_model" --capture-preview --filename canon-preview.jpg
exec 3>&-
wait "$recorder_pid"
recorder_pid=
cat "$work/recorder.out"
for target in Fuzz/Corpus/*/; do
    echo "$(ls "$target" | wc -l) seeds in $target ($(du -sh "$target" | cut -f1))"
done
