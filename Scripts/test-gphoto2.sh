#!/usr/bin/env bash
# Checks the simulated camera against Debian's gphoto2, an independent PTP/IP client: `viewfinder simulate` runs as
# its own process and gphoto2 talks to it over loopback with a throwaway HOME. gphoto2 can exit 0 after printing an
# error, so every check reads its output and the files it wrote.
# Usage: Scripts/test-gphoto2.sh   (SWIFT=... to use another toolchain)
set -euo pipefail
cd "$(dirname "$0")/.."

swift=${SWIFT:-swift}
for tool in gphoto2 ffprobe ffmpeg cmp; do
    command -v "$tool" >/dev/null || { echo "test-gphoto2: $tool is missing; run make test-deps" >&2; exit 1; }
done
"$swift" build --product viewfinder >/dev/null
viewfinder="$("$swift" build --show-bin-path)/viewfinder"

work=$(mktemp -d /tmp/viewfinder-gphoto2.XXXXXX)
export HOME="$work/home"
mkdir -p "$HOME" "$work/captures" "$work/files"
simulators=()
namespaces=()
cleanup() {
    for pid in "${simulators[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    for namespace in "${namespaces[@]}"; do ip netns delete "$namespace" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

failures=0
pass() { echo "ok      $1"; }
fail() {
    echo "FAILED  $1: $2"
    [ -n "${3:-}" ] && [ -f "$3" ] && sed 's/^/        | /' "$3"
    failures=$((failures + 1))
}

# start_simulator NAME ARGS...: starts `viewfinder simulate --port 0 ARGS` and sets $port from its first log line; its
# standard input is $simulator_input when set.
start_simulator() {
    local name=$1
    shift
    # The log exists before the simulator starts: the background job opens it only once it runs, which on a busy
    # machine came after the first look for the port below.
    : >"$work/$name.log"
    "$viewfinder" simulate --port 0 "$@" <"${simulator_input:-/dev/null}" >"$work/$name.log" 2>&1 &
    simulators+=($!)
    for _ in $(seq 1 200); do
        port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/$name.log")
        [ -n "$port" ] && return 0
        sleep 0.1
    done
    echo "test-gphoto2: the $name simulator did not start:" >&2
    cat "$work/$name.log" >&2
    exit 1
}

# gphoto NAME MODEL ARGS...: runs gphoto2 against $port (or $gphoto_port, a gphoto2 port such as ip:ADDRESS, when
# set) in $work/files; output goes to $work/NAME.out. PTP/IP's two connections share the port; Fujifilm's event port
# is the next one (gphoto2 takes the one after it for live view).
gphoto() {
    local name=$1 model=$2 events=$port
    shift 2
    [[ "$model" == Fuji* ]] && events=$((port + 1))
    (cd "$work/files" && timeout 60 gphoto2 --port "${gphoto_port:-ptpip:127.0.0.1:$port:$events}" --camera "$model" \
        "$@") \
        >"$work/$name.out" 2>&1
}

# expect_ok NAME MODEL PATTERN ARGS...: gphoto2 succeeds, prints no error, and prints PATTERN (an ERE; empty for
# commands that print nothing).
expect_ok() {
    local name=$1 model=$2 pattern=$3
    shift 3
    if ! gphoto "$name" "$model" "$@"; then
        fail "$name" "gphoto2 $* exited with an error" "$work/$name.out"
    elif grep -q '\*\*\* Error' "$work/$name.out"; then
        fail "$name" "gphoto2 $* printed an error" "$work/$name.out"
    elif [ -n "$pattern" ] && ! grep -Eq "$pattern" "$work/$name.out"; then
        fail "$name" "gphoto2 $* did not print /$pattern/" "$work/$name.out"
    else
        pass "$name"
    fi
}

# focus_check NAME MODEL LOG VALUE: gphoto2's manualfocusdrive=VALUE with live view on, then `viewfinder camera focus
# --size large`, each move the simulated lens 1000 of its motor's steps towards infinity, as the simulator's LOG says.
focus_check() {
    local name=$1 model=$2 log=$3 value=$4 before
    focus_at() { sed -n 's/^focus drive: the lens is at \([0-9]*\) of .*/\1/p' "$log" | tail -n 1; }
    before=$(focus_at)
    before=${before:-5000}
    expect_ok "$name-gphoto2" "$model" '' --set-config viewfinder=1 --set-config manualfocusdrive="$value"
    if [ "$(focus_at)" = $((before + 1000)) ]; then
        pass "$name-gphoto2-moves"
    else
        fail "$name-gphoto2-moves" "gphoto2 left the lens at '$(focus_at)', not $((before + 1000))" "$log"
    fi
    if "$viewfinder" camera focus --host "127.0.0.1:$port" --size large >"$work/$name-viewfinder.out" 2>&1 \
        && [ "$(focus_at)" = $((before + 2000)) ]; then
        pass "$name-viewfinder-moves"
    else
        fail "$name-viewfinder-moves" "viewfinder left the lens at '$(focus_at)', not $((before + 2000))" \
            "$work/$name-viewfinder.out"
    fi
}

# afpoint_check NAME MODEL LOG: gphoto2's changeafarea=1500x1000 with live view on, then `viewfinder camera focus --at
# 4500,3000`, each move the simulated Nikon's autofocus area there (ChangeAfArea), as its LOG says, and the focus
# information viewfinder then prints has the area around that point.
afpoint_check() {
    local name=$1 model=$2 log=$3
    expect_ok "$name-gphoto2" "$model" '' --set-config viewfinder=1 --set-config changeafarea=1500x1000
    if [ "$(sed -n 's/^autofocus area: moved to //p' "$log" | tail -n 1)" = 1500x1000 ]; then
        pass "$name-gphoto2-moves"
    else
        fail "$name-gphoto2-moves" "the simulator logged no move to 1500x1000 after gphoto2's changeafarea" "$log"
    fi
    if "$viewfinder" camera focus --host "127.0.0.1:$port" --at 4500,3000 >"$work/$name-viewfinder.out" 2>&1 \
        && [ "$(sed -n 's/^autofocus area: moved to //p' "$log" | tail -n 1)" = 4500x3000 ] \
        && grep -q '600x400+4200+2800 (active' "$work/$name-viewfinder.out"; then
        pass "$name-viewfinder-moves"
    else
        fail "$name-viewfinder-moves" "viewfinder camera focus --at 4500,3000 did not move the area there" \
            "$work/$name-viewfinder.out"
    fi
}

# clock_check NAME MODEL: a date gphoto2 sets is the one `viewfinder camera clock` reads, and the clock `viewfinder
# camera clock --set` sets is the one gphoto2 reads, within the seconds the commands take.
clock_check() {
    local name=$1 model=$2 read_at
    expect_ok "$name-gphoto2-sets" "$model" '' --set-config datetime=1000000000
    if "$viewfinder" camera clock --host "127.0.0.1:$port" --json >"$work/$name.json" 2>&1 \
        && grep -Eq '"camera" : "2001-09-09T01:4[67]:' "$work/$name.json"; then
        pass "$name-viewfinder-reads"
    else
        fail "$name-viewfinder-reads" "viewfinder did not read gphoto2's 2001-09-09T01:46:40Z" "$work/$name.json"
    fi
    "$viewfinder" camera clock --host "127.0.0.1:$port" --set >"$work/$name-set.out" 2>&1 || true
    expect_ok "$name-gphoto2-reads" "$model" 'Current: [0-9]+' --get-config datetime
    read_at=$(sed -n 's/^Current: \([0-9]*\)$/\1/p' "$work/$name-gphoto2-reads.out")
    if [ -n "$read_at" ] && [ $(($(date +%s) - read_at)) -le 10 ] && [ $(($(date +%s) - read_at)) -ge -10 ]; then
        pass "$name-viewfinder-sets"
    else
        fail "$name-viewfinder-sets" "gphoto2 read '$read_at' after viewfinder set the clock at $(date +%s)" \
            "$work/$name-set.out"
    fi
}

# exposed LOG: the length of each exposure a simulator logged in LOG, in milliseconds, one a line.
exposed() { sed -n 's/^exposure: the shutter stayed open for \([0-9]*\) ms/\1/p' "$1"; }

# bulb_check NAME MODEL LOG PATTERN SCRIPT: gphoto2's shell running SCRIPT (printf escapes) prints PATTERN, then
# `viewfinder camera shoot --hold 2`; each keeps the simulated shutter open at least two seconds, as its LOG says.
bulb_check() {
    local name=$1 model=$2 log=$3 pattern=$4 script=$5 client before
    for client in gphoto2 viewfinder; do
        before=$(exposed "$log" | wc -l)
        if [ "$client" = gphoto2 ]; then
            printf '%b' "$script" | expect_ok "$name-gphoto2" "$model" "$pattern" --shell
        else
            "$viewfinder" camera shoot --host "127.0.0.1:$port" --hold 2 >"$work/$name-viewfinder.out" 2>&1 || true
        fi
        if [ "$(exposed "$log" | wc -l)" = $((before + 1)) ] && [ "$(exposed "$log" | tail -n 1)" -ge 2000 ]; then
            pass "$name-$client-exposes"
        else
            fail "$name-$client-exposes" "no exposure of at least 2000 ms after the $before before" "$log"
        fi
    done
}

# zoom_check NAME MODEL LOG: gphoto2's eoszoom=5, then `viewfinder camera zoom --factor 5`, each send the simulated
# Canon Zoom 5, as its LOG says, and gphoto2's eoszoomposition and `viewfinder camera zoom --center` send
# ZoomPosition as given; eoszoom=1 ends it.
zoom_check() {
    local name=$1 model=$2 log=$3
    zooms() { grep -c '^live view zoom: Zoom 5$' "$log" || true; }
    local before
    before=$(zooms)
    expect_ok "$name-gphoto2" "$model" '' --set-config eoszoom=5
    if [ "$(zooms)" = $((before + 1)) ]; then
        pass "$name-gphoto2-zooms"
    else
        fail "$name-gphoto2-zooms" "the simulator logged no Zoom 5 after gphoto2's eoszoom=5" "$log"
    fi
    if "$viewfinder" camera zoom --host "127.0.0.1:$port" --factor 5 >"$work/$name-viewfinder.out" 2>&1 \
        && [ "$(zooms)" = $((before + 2)) ]; then
        pass "$name-viewfinder-zooms"
    else
        fail "$name-viewfinder-zooms" "the simulator logged no Zoom 5 after viewfinder camera zoom --factor 5" \
            "$work/$name-viewfinder.out"
    fi
    expect_ok "$name-position-gphoto2" "$model" '' --set-config eoszoomposition=100,80
    if grep -q '^live view zoom: ZoomPosition 100,80$' "$log"; then
        pass "$name-position-gphoto2-moves"
    else
        fail "$name-position-gphoto2-moves" "the simulator logged no ZoomPosition 100,80" "$log"
    fi
    if "$viewfinder" camera zoom --host "127.0.0.1:$port" --center 120,90 >"$work/$name-center.out" 2>&1 \
        && grep -q '^live view zoom: ZoomPosition 120,90$' "$log"; then
        pass "$name-position-viewfinder-moves"
    else
        fail "$name-position-viewfinder-moves" "the simulator logged no ZoomPosition 120,90" "$work/$name-center.out"
    fi
    # The checks after this one see the whole picture again.
    expect_ok "$name-reset-gphoto2" "$model" '' --set-config eoszoom=1
}

# expect_jpeg NAME FILE WIDTHxHEIGHT: FILE decodes completely as a JPEG of that size.
expect_jpeg() {
    local name=$1 file=$2 size=$3
    if [ ! -s "$file" ]; then
        fail "$name" "$file is missing or empty"
    elif [ "$(ffprobe -v error -show_entries stream=codec_name,width,height -of csv=p=0 "$file")" != "mjpeg,${size/x/,}" ]; then
        fail "$name" "$file is not a $size JPEG: $(ffprobe -v error -show_entries stream=codec_name,width,height -of csv=p=0 "$file")"
    elif [ -n "$(ffmpeg -v error -i "$file" -f null - 2>&1)" ]; then
        fail "$name" "$file does not decode cleanly: $(ffmpeg -v error -i "$file" -f null - 2>&1 | head -3)"
    else
        pass "$name"
    fi
}

generic="PTP/IP Camera"
nikon="Nikon DSLR (WLAN)"
canon="Canon EOS (WLAN)"

start_simulator generic --save-captures "$work/captures"
expect_ok summary "$generic" 'Model: Simulated Camera' --summary
grep -q 'Exposure Index (film speed ISO)(0x500f):(readwrite)' "$work/summary.out" \
    && grep -q 'store_00010001' "$work/summary.out" \
    || fail summary-properties "the summary lacks the ISO property or the storage" "$work/summary.out"
expect_ok list-config "$generic" '/main/imgsettings/iso' --list-config
for entry in capturesettings/shutterspeed capturesettings/f-number capturesettings/exposurecompensation \
    capturesettings/expprogram imgsettings/whitebalance status/batterylevel settings/datetime; do
    grep -q "/main/$entry" "$work/list-config.out" || fail list-config "no /main/$entry" "$work/list-config.out"
done
expect_ok get-iso "$generic" '^Current: 100$' --get-config iso
grep -q '^Choice: [0-9]* 25600$' "$work/get-iso.out" || fail get-iso "ISO 25600 is not offered" "$work/get-iso.out"
expect_ok set-iso "$generic" '' --set-config iso=800
expect_ok read-back-iso "$generic" '^Current: 800$' --get-config iso
if gphoto set-bad-iso "$generic" --set-config iso=123 && ! grep -q '\*\*\* Error' "$work/set-bad-iso.out"; then
    fail set-bad-iso "gphoto2 accepted ISO 123" "$work/set-bad-iso.out"
elif ! grep -q '0x201c: PTP Invalid Device Prop Value' "$work/set-bad-iso.out"; then
    fail set-bad-iso "the refusal does not say InvalidDevicePropValue" "$work/set-bad-iso.out"
else
    pass set-bad-iso
fi
expect_ok iso-unchanged "$generic" '^Current: 800$' --get-config iso

expect_ok capture "$generic" 'New file is in location /store_00010001/DCIM/100VFNDR/DSC_0003.JPG' \
    --capture-image-and-download --filename capture.jpg
expect_jpeg capture-is-jpeg "$work/files/capture.jpg" 3008x2000
if cmp -s "$work/files/capture.jpg" "$work/captures/DSC_0003.JPG"; then
    pass capture-identical
else
    fail capture-identical "the download differs from the image the simulator stored"
fi
expect_ok list-files "$generic" "There are 2 files in folder '/store_00010001/DCIM/100VFNDR'" --list-files
grep -q 'DSC_0001.JPG .* 3008x2000 image/jpeg' "$work/list-files.out" \
    || fail list-files "DSC_0001.JPG is not listed as a 3008x2000 JPEG" "$work/list-files.out"
expect_ok get-file "$generic" 'Saving file as file1.jpg' --folder /store_00010001/DCIM/100VFNDR --get-file 1 \
    --filename file1.jpg
expect_jpeg get-file-is-jpeg "$work/files/file1.jpg" 3008x2000
expect_ok get-thumbnail "$generic" 'Saving file as thumb_file2.jpg' --folder /store_00010001/DCIM/100VFNDR \
    --get-thumbnail 2 --filename file2.jpg
expect_jpeg thumbnail-is-jpeg "$work/files/thumb_file2.jpg" 160x106

start_simulator nikon --identity nikon
expect_ok capture-preview "$nikon" 'Saving file as capture_preview.jpg' --capture-preview
expect_jpeg preview-is-jpeg "$work/files/capture_preview.jpg" 640x424
expect_ok capture-movie "$nikon" 'Movie capture finished \(31 frames\)' --capture-movie=30
frames=$(ffprobe -v error -f mjpeg -count_frames -select_streams v:0 -show_entries stream=nb_read_frames \
    -of csv=p=0 "$work/files/movie.mjpg" 2>&1 || true)
[ "$frames" = 31 ] && pass movie-frames || fail movie-frames "movie.mjpg holds '$frames' decodable frames, not 31"
expect_ok movie-start "$nikon" '' --set-config movie=1
expect_ok movie-recording "$nikon" 'Current: Movie prohibit conditions: Already in movie recording' \
    --get-config movieprohibit
expect_ok movie-stop "$nikon" '' --set-config movie=0
expect_ok movie-stopped "$nikon" 'Current: No movie prohibit conditions' --get-config movieprohibit
# The movie recorded is on the card, a QuickTime file.
expect_ok movie-on-card "$nikon" '#[0-9]+ +DSC_[0-9]{4}\.MOV .*video/quicktime' --list-files
# Nikon's MfDrive: gphoto2's value is a signed number of the motor's steps.
focus_check nikon-focus "$nikon" "$work/nikon.log" 1000
# Nikon's ChangeAfArea: gphoto2's changeafarea takes the point as XxY of the whole picture.
afpoint_check nikon-afpoint "$nikon" "$work/nikon.log"
clock_check nikon-clock "$nikon"
# CompressionSetting: gphoto2's imagequality, read back by viewfinder, and viewfinder's set, read by gphoto2.
expect_ok nikon-imagequality "$nikon" '' --set-config imagequality=NEF+Fine
quality=$("$viewfinder" camera get quality --host "127.0.0.1:$port")
[ "$quality" = "RAW + JPEG Fine" ] && pass nikon-imagequality-read-back \
    || fail nikon-imagequality-read-back "viewfinder reads back '$quality', not RAW + JPEG Fine"
"$viewfinder" camera set quality jpeg-normal --host "127.0.0.1:$port" >"$work/nikon-quality-set.out" 2>&1 \
    || fail nikon-quality-set "viewfinder camera set quality jpeg-normal failed" "$work/nikon-quality-set.out"
expect_ok nikon-imagequality-get "$nikon" 'Current: JPEG Normal' --get-config imagequality
# Nikon LensID and LightMeter: gphoto2's lensname and lightmeter read what viewfinder's lens and light-meter do.
expect_ok nikon-lensname "$nikon" "Current: $("$viewfinder" camera get lens --host "127.0.0.1:$port")\$" \
    --get-config lensname
meter=$("$viewfinder" camera get light-meter --host "127.0.0.1:$port")
reading=${meter% EV}
expect_ok nikon-lightmeter "$nikon" "Current: ${reading#+}\$" --get-config lightmeter
[ "$meter" = "-0.3 EV" ] && pass nikon-light-meter-get || fail nikon-light-meter-get "viewfinder reads '$meter'"
# LiveViewImageZoomRatio: over PTP/IP gphoto2 names the values with the D5000's table (it enters every model's menu
# off USB, and the D5000's comes first), where the simulated Nikon and Viewfinder use the other bodies' table: the
# value 4 that gphoto2 calls 66% is 50%, and 6 (100%) is a value gphoto2's table lacks.
expect_ok nikon-zoomratio "$nikon" '' --set-config-value liveviewimagezoomratio=66%
shown=$("$viewfinder" camera zoom --show --host "127.0.0.1:$port")
[ "$shown" = "Live view at 50%" ] && pass nikon-zoom-read-back \
    || fail nikon-zoom-read-back "viewfinder shows '$shown', not Live view at 50%"
zoomed=$("$viewfinder" camera zoom --level 100% --host "127.0.0.1:$port" --json | /usr/bin/python3 -c \
    'import json, sys; print(json.load(sys.stdin).get("level"))')
[ "$zoomed" = 100% ] && pass nikon-zoom-viewfinder || fail nikon-zoom-viewfinder "viewfinder left the level at '$zoomed'"
expect_ok nikon-zoomratio-get "$nikon" 'Current: Unknown value 0006' --get-config liveviewimagezoomratio
expect_ok nikon-zoomratio-reset "$nikon" '' --set-config-value "liveviewimagezoomratio=Entire Display"
# Nikon's bulb: gphoto2's bulb=1 (ChangeCameraMode, the program to manual, the exposure time to bulb,
# InitiateCaptureRecInMedia), two seconds, bulb=0 (TerminateCapture), then `viewfinder camera shoot --hold 2` at the
# bulb it left.
bulb_check nikon-bulb "$nikon" "$work/nikon.log" '' 'set-config bulb=1\nwait-event 2s\nset-config bulb=0\nwait-event 1s\n'

# The Canon EOS dialect: gphoto2 takes its EOS code paths (event polling, remote release, viewfinder data).
start_simulator canon --identity canon
expect_ok canon-summary "$canon" 'Model: Canon EOS 5D Mark IV' --summary
# choices NAME: the labels gphoto2 offers for NAME, with its third-stop spellings of 10" and 6" made plain.
choices() {
    gphoto "canon-$1" "$canon" --get-config "$1" && sed -n 's/^Choice: [0-9]* //p' "$work/canon-$1.out" \
        | if [ "$1" = shutterspeed ]; then sed -E 's/^(10|6)\.3$/\1/'; else cat; fi
}
# offered NAME: the values `viewfinder camera get NAME --json` offers, spelled as gphoto2 spells them.
offered() {
    "$viewfinder" camera get "$1" --host "127.0.0.1:$port" --json | /usr/bin/python3 -c '
import json, sys
for value in json.load(sys.stdin)["settableValues"]:
    value = value.removeprefix("ISO ").removeprefix("f/").removesuffix("\"")
    print("Auto" if value == "Auto ISO" else value)'
}
for pair in iso:iso aperture:aperture shutterspeed:shutter; do
    if diff <(choices "${pair%%:*}") <(offered "${pair#*:}") >"$work/canon-values.diff" 2>&1; then
        pass "canon-values-${pair%%:*}"
    else
        fail "canon-values-${pair%%:*}" "gphoto2 and viewfinder offer different values" "$work/canon-values.diff"
    fi
done
expect_ok canon-set "$canon" '' --set-config iso=800 --set-config aperture=8 --set-config shutterspeed=1/250
readback=$(for name in iso aperture shutter; do "$viewfinder" camera get "$name" --host "127.0.0.1:$port"; done)
if [ "$(echo "$readback" | tr '\n' ' ')" = "ISO 800 f/8 1/250 " ]; then
    pass canon-read-back
else
    fail canon-read-back "viewfinder reads back '$readback', not ISO 800, f/8 and 1/250"
fi
# EOS PictureStyle and DepthOfFieldPreview: gphoto2's picturestyle and depthoffield against viewfinder's picture-style
# and dof-preview, each reading what the other set.
expect_ok canon-picturestyle "$canon" '' --set-config picturestyle=Landscape
style=$("$viewfinder" camera get picture-style --host "127.0.0.1:$port")
[ "$style" = Landscape ] && pass canon-picturestyle-read-back \
    || fail canon-picturestyle-read-back "viewfinder reads back '$style', not Landscape"
"$viewfinder" camera set picture-style monochrome --host "127.0.0.1:$port" >"$work/canon-style-set.out" 2>&1 \
    || fail canon-style-set "viewfinder camera set picture-style monochrome failed" "$work/canon-style-set.out"
expect_ok canon-picturestyle-get "$canon" 'Current: Monochrome' --get-config picturestyle
expect_ok canon-depthoffield-off "$canon" 'Current: 0' --get-config depthoffield
"$viewfinder" camera set dof-preview on --host "127.0.0.1:$port" >"$work/canon-dof-set.out" 2>&1 \
    || fail canon-dof-set "viewfinder camera set dof-preview on failed" "$work/canon-dof-set.out"
expect_ok canon-depthoffield-on "$canon" 'Current: 1' --get-config depthoffield
"$viewfinder" camera set dof-preview off --host "127.0.0.1:$port" >/dev/null 2>&1 || true
# EOS ImageFormat, packed: gphoto2's imageformat against viewfinder's quality, each reading what the other set.
expect_ok canon-imageformat "$canon" '' --set-config "imageformat=RAW + Large Fine JPEG"
quality=$("$viewfinder" camera get quality --host "127.0.0.1:$port")
[ "$quality" = "RAW + JPEG Fine" ] && pass canon-imageformat-read-back \
    || fail canon-imageformat-read-back "viewfinder reads back '$quality', not RAW + JPEG Fine"
"$viewfinder" camera set quality jpeg-normal --host "127.0.0.1:$port" >"$work/canon-quality-set.out" 2>&1 \
    || fail canon-quality-set "viewfinder camera set quality jpeg-normal failed" "$work/canon-quality-set.out"
expect_ok canon-imageformat-get "$canon" 'Current: Large Normal JPEG' --get-config imageformat
"$viewfinder" camera set quality jpeg-fine --host "127.0.0.1:$port" >/dev/null 2>&1 || true
# EOS LensName: gphoto2's lensname, read from the same event record, names the lens viewfinder's camera get lens does.
lens=$("$viewfinder" camera get lens --host "127.0.0.1:$port")
expect_ok canon-lensname "$canon" "Current: $lens\$" --get-config lensname
[ "$lens" = "EF35mm f/2 IS USM" ] && pass canon-lens-get || fail canon-lens-get "viewfinder reads the lens as '$lens'"
expect_ok canon-capture "$canon" 'New file is in location /capt0000.jpg' --capture-image-and-download \
    --filename canon-capture.jpg
expect_jpeg canon-capture-is-jpeg "$work/files/canon-capture.jpg" 3008x2000
expect_ok canon-capture-to-card "$canon" 'New file is in location /store_00010001/DCIM/100CANON/IMG_[0-9]{4}\.JPG' \
    --set-config capturetarget=1 --capture-image
# gphoto2 names a preview saved under --filename NAME thumb_NAME.
expect_ok canon-preview "$canon" 'Saving file as thumb_canon-preview.jpg' --capture-preview --filename canon-preview.jpg
expect_jpeg canon-preview-is-jpeg "$work/files/thumb_canon-preview.jpg" 640x424
rm -f "$work/files/movie.mjpg"
expect_ok canon-movie "$canon" 'Movie capture finished \(31 frames\)' --capture-movie=30
frames=$(ffprobe -v error -f mjpeg -count_frames -select_streams v:0 -show_entries stream=nb_read_frames \
    -of csv=p=0 "$work/files/movie.mjpg" 2>&1 || true)
[ "$frames" = 31 ] && pass canon-movie-frames || fail canon-movie-frames "movie.mjpg holds '$frames' frames, not 31"
# An EOS camera's folders are listed with GetObjectInfoEx, a record per file that has no image size.
expect_ok canon-list-files "$canon" 'IMG_0001\.JPG .* image/jpeg' --list-files --debug \
    --debug-logfile "$work/canon-list-debug.txt"
grep -q "0x9109" "$work/canon-list-debug.txt" && pass canon-lists-with-GetObjectInfoEx \
    || fail canon-lists-with-GetObjectInfoEx "gphoto2's debug log never shows 0x9109"
expect_ok canon-get-file "$canon" 'Saving file as canon-file1.jpg' --folder /store_00010001/DCIM/100CANON \
    --get-file 1 --filename canon-file1.jpg
expect_jpeg canon-get-file-is-jpeg "$work/files/canon-file1.jpg" 3008x2000
expect_ok canon-debug "$canon" 'Saving file as thumb_canon-debug.jpg' --debug --debug-logfile "$work/canon-debug.txt" \
    --set-config iso=400 --capture-preview --filename canon-debug.jpg --capture-image
for operation in 0x9116:GetEvent 0x9110:SetDevicePropValueEx 0x9128:RemoteReleaseOn 0x9153:GetViewFinderData; do
    grep -q "${operation%%:*}" "$work/canon-debug.txt" && pass "canon-uses-${operation#*:}" \
        || fail "canon-uses-${operation#*:}" "gphoto2's debug log never shows ${operation%%:*}"
done
# Canon's DriveLens: gphoto2's Far 3 is the large step towards infinity.
focus_check canon-focus "$canon" "$work/canon.log" "Far 3"
# Canon's Zoom and ZoomPosition: gphoto2's eoszoom and eoszoomposition, and viewfinder camera zoom.
zoom_check canon-zoom "$canon" "$work/canon.log"
# EOS CameraTime, set with SetDevicePropValueEx and reported in events.
clock_check canon-clock "$canon"
# A held shutter: gphoto2's eosremoterelease in its shell (Press Full, two seconds of events, Release Full), then
# `viewfinder camera shoot --hold 2`.
bulb_check canon-bulb "$canon" "$work/canon.log" FILEADDED \
    'set-config eosremoterelease=Press Full\nwait-event 2s\nset-config eosremoterelease=Release Full\nwait-event 1s\n'
# A timelapse: gphoto2's --capture-image --interval 2 --frames 3, then `viewfinder camera timelapse --interval 2
# --frames 3`, each take three pictures of the simulated Canon, as its log says.
for client in gphoto2 viewfinder; do
    before=$(exposed "$work/canon.log" | wc -l)
    if [ "$client" = gphoto2 ]; then
        gphoto canon-timelapse-gphoto2 "$canon" --capture-image --interval 2 --frames 3 || true
    else
        "$viewfinder" camera timelapse --host "127.0.0.1:$port" --interval 2 --frames 3 \
            >"$work/canon-timelapse-viewfinder.out" 2>&1 || true
    fi
    taken=$(($(exposed "$work/canon.log" | wc -l) - before))
    [ "$taken" = 3 ] && pass "canon-timelapse-$client" \
        || fail "canon-timelapse-$client" "$taken pictures, not 3" "$work/canon-timelapse-$client.out"
done

# Tethering: gphoto2's --capture-tethered 8s, then `viewfinder camera tether --duration 8`, each save the two pictures
# taken meanwhile with the simulated Canon's own shutter button ('shoot' on its standard input, a FIFO).
mkfifo "$work/canon-button"
exec 3<>"$work/canon-button"
simulator_input="$work/canon-button" start_simulator canon-tether --identity canon
# wait_for TEXT FILE: waits up to 30 s for FILE to hold TEXT.
wait_for() {
    for _ in $(seq 1 300); do grep -q "$1" "$2" 2>/dev/null && return 0; sleep 0.1; done
    return 1
}
for client in gphoto2 viewfinder; do
    mkdir -p "$work/tether-$client"
    : >"$work/canon-tether-$client.out"
    if [ "$client" = gphoto2 ]; then
        # Line by line, so that its wait shows as it begins.
        (cd "$work/tether-$client" && timeout 60 stdbuf -oL gphoto2 --port "ptpip:127.0.0.1:$port:$port" \
            --camera "$canon" --capture-tethered 8s) >"$work/canon-tether-$client.out" 2>&1 &
        ready='Waiting for'
    else
        timeout 60 "$viewfinder" camera tether --host "127.0.0.1:$port" --download "$work/tether-$client" \
            --duration 8 --json >"$work/canon-tether-$client.out" 2>&1 &
        ready='"event":"waiting"'
    fi
    tethered=$!
    shots=$(grep -c '^captured ' "$work/canon-tether.log" || true)
    if wait_for "$ready" "$work/canon-tether-$client.out"; then
        for shot in 1 2; do
            echo shoot >&3
            # The next press waits for this picture, as a photographer's would.
            for _ in $(seq 1 300); do
                [ "$(grep -c '^captured ' "$work/canon-tether.log")" -ge $((shots + shot)) ] && break
                sleep 0.1
            done
        done
    fi
    wait "$tethered" || true
    saved=$(find "$work/tether-$client" -name '*.JPG' -o -name '*.jpg' | wc -l)
    if [ "$saved" = 2 ]; then
        pass "canon-tether-$client"
        for file in "$work/tether-$client"/*; do expect_jpeg "canon-tether-$client-jpeg" "$file" 3008x2000; done
    else
        fail "canon-tether-$client" "$saved pictures saved, not 2" "$work/canon-tether-$client.out"
    fi
done
exec 3>&-

start_simulator canon-no-focus --identity canon --no-focus
gphoto canon-no-focus "$canon" --capture-image || true
if grep -q 'Perhaps no focus' "$work/canon-no-focus.out"; then
    pass canon-no-focus
else
    fail canon-no-focus "a capture without focus did not fail as an EOS release failure" "$work/canon-no-focus.out"
fi

# The Sony dialect: gphoto2 takes its Sony code paths (the SDIO handshake, GetAllDevicePropData, SetControlDeviceA
# and B, S1 and S2, objects 0xFFFFC001 and 0xFFFFC002) with "PTP/IP Camera", from the DeviceInfo alone. sony is
# an α7 IV (protocol 3.00, values set directly), sony-stepping an α7 III (protocol 2.00, exposure settings moved
# by notches, which gphoto2 walks with SetControlDeviceB and reads back).
sony="PTP/IP Camera"
# exposure_values NAME FILE: the values in FILE (gphoto2's choices or viewfinder's, one a line) in one spelling: ISO
# as its number or Auto (a Fujifilm's automatic settings as gphoto2 writes them, -1 to -3), f-numbers as they are,
# shutter speeds as their third stop from one second (gphoto2 writes 1/3, 25/10 or 3s where viewfinder writes 0.3",
# 2.5" or 3.2"), gphoto2's Bulb, which it always adds, left out.
exposure_values() {
    /usr/bin/python3 -c '
import math, sys
name = sys.argv[1]
for line in open(sys.argv[2]):
    value = line.strip().removeprefix("ISO ").removesuffix("\"")
    if value.startswith("Auto ") and value[5:].isdigit():
        value = "-" + value[5:]
    if name == "shutterspeed":
        if value.lower() == "bulb":
            continue
        top, _, bottom = value.removesuffix("s").partition("/")
        value = str(round(3 * math.log2(float(top) / float(bottom or 1))))
    print(value)' "$1" "$2"
}
for identity in sony sony-stepping; do
    start_simulator "$identity" --identity "$identity"
    model=$([ "$identity" = sony ] && echo ILCE-7M4 || echo ILCE-7M3)
    expect_ok "$identity-summary" "$sony" "Model: $model" --summary
    grep -q 'Vendor Extension ID: 0x11' "$work/$identity-summary.out" \
        && grep -q 'ISO(0xd21e):(readwrite) (type=0x6) Enumeration' "$work/$identity-summary.out" \
        || fail "$identity-summary-properties" "the summary lacks Sony's extension or its ISO" "$work/$identity-summary.out"
    for pair in iso:iso f-number:aperture shutterspeed:shutter; do
        name=${pair%%:*}
        gphoto "$identity-$name" "$sony" --get-config "$name"
        sed -n 's/^Choice: [0-9]* //p' "$work/$identity-$name.out" >"$work/$identity-$name.gphoto2"
        "$viewfinder" camera get "${pair#*:}" --host "127.0.0.1:$port" --json | /usr/bin/python3 -c '
import json, sys
print("\n".join(json.load(sys.stdin)["settableValues"]))' >"$work/$identity-$name.viewfinder"
        if [ ! -s "$work/$identity-$name.gphoto2" ]; then
            fail "$identity-values-$name" "gphoto2 offers no $name" "$work/$identity-$name.out"
        elif diff <(exposure_values "$name" "$work/$identity-$name.gphoto2") \
            <(exposure_values "$name" "$work/$identity-$name.viewfinder") >"$work/$identity-values.diff" 2>&1; then
            pass "$identity-values-$name"
        else
            fail "$identity-values-$name" "gphoto2 and viewfinder offer different values" "$work/$identity-values.diff"
        fi
    done
    expect_ok "$identity-set" "$sony" '' --set-config iso=800 --set-config f-number=f/8 --set-config shutterspeed=1/250
    readback=$(for name in iso aperture shutter; do "$viewfinder" camera get "$name" --host "127.0.0.1:$port"; done)
    if [ "$(echo "$readback" | tr '\n' ' ')" = "ISO 800 f/8 1/250 " ]; then
        pass "$identity-read-back"
    else
        fail "$identity-read-back" "viewfinder reads back '$readback', not ISO 800, f/8 and 1/250"
    fi
    expect_ok "$identity-capture" "$sony" 'New file is in location /capt0000.jpg' --capture-image-and-download \
        --filename "$identity-capture.jpg"
    expect_jpeg "$identity-capture-is-jpeg" "$work/files/$identity-capture.jpg" 3008x2000
    expect_ok "$identity-preview" "$sony" "Saving file as thumb_$identity-preview.jpg" --capture-preview \
        --filename "$identity-preview.jpg"
    expect_jpeg "$identity-preview-is-jpeg" "$work/files/thumb_$identity-preview.jpg" 640x424
    rm -f "$work/files/movie.mjpg"
    expect_ok "$identity-movie" "$sony" 'Movie capture finished \(31 frames\)' --capture-movie=30
    frames=$(ffprobe -v error -f mjpeg -count_frames -select_streams v:0 -show_entries stream=nb_read_frames \
        -of csv=p=0 "$work/files/movie.mjpg" 2>&1 || true)
    [ "$frames" = 31 ] && pass "$identity-movie-frames" \
        || fail "$identity-movie-frames" "movie.mjpg holds '$frames' frames, not 31"
    expect_ok "$identity-debug" "$sony" "Saving file as thumb_$identity-debug.jpg" --debug \
        --debug-logfile "$work/$identity-debug.txt" --set-config iso=400 --capture-preview \
        --filename "$identity-debug.jpg" --capture-image
    for operation in 0x9201:SDIOConnect 0x9202:GetSDIOGetExtDeviceInfo 0x9209:GetAllDevicePropData \
        0x9207:SetControlDeviceB; do
        grep -q "PTP_OC ${operation%%:*} (${operation#*:})" "$work/$identity-debug.txt" \
            && pass "$identity-uses-${operation#*:}" \
            || fail "$identity-uses-${operation#*:}" "gphoto2's debug log never shows ${operation%%:*}"
    done
done

# The simulated Lumix speaks HTTP, not PTP: gphoto2's lumix driver sends its commands to port 80 and its content
# directory requests to port 60606 of the address it is given, so the simulator runs in a network namespace of its
# own at 10.254.N.2, and gphoto2 reaches it over a veth pair from 10.254.N.1 (where it also takes live view
# datagrams on UDP 49199). The driver prints nothing for --summary beyond its heading, and cannot delete files, so
# the capture keeps its picture (--keep).
if [ "$(id -u)" != 0 ]; then
    fail lumix "the simulated Lumix needs root for a network namespace with ports 80 and 60606"
else
    subnet=$((RANDOM % 200 + 20))
    lumix_ns="vf-lumix-$$"
    lumix_host="10.254.$subnet.1" lumix_camera="10.254.$subnet.2"
    ip netns add "$lumix_ns"
    namespaces+=("$lumix_ns")
    ip link add "vflh$subnet" type veth peer name "vflc$subnet"
    ip link set "vflc$subnet" netns "$lumix_ns"
    ip addr add "$lumix_host/30" dev "vflh$subnet"
    ip link set "vflh$subnet" up
    ip netns exec "$lumix_ns" ip addr add "$lumix_camera/30" dev "vflc$subnet"
    ip netns exec "$lumix_ns" ip link set "vflc$subnet" up
    : >"$work/lumix.log"
    ip netns exec "$lumix_ns" "$viewfinder" simulate --identity lumix --bind "$lumix_camera" --announce ssdp \
        >"$work/lumix.log" 2>&1 &
    simulators+=($!)
    for _ in $(seq 1 200); do
        grep -q '^listening on' "$work/lumix.log" && break
        sleep 0.1
    done
    gphoto_port="ip:$lumix_camera"
    lumix="Panasonic LumixGSeries"
    expect_ok lumix-summary "$lumix" 'Camera summary' --summary
    expect_ok lumix-list-files "$lumix" "There are 2 files in folder '/'" --list-files
    expect_ok lumix-get-iso "$lumix" 'Current: auto' --get-config iso
    expect_ok lumix-set-config "$lumix" '' --set-config iso=400 --set-config aperture=8 --set-config shutterspeed=250
    expect_ok lumix-read-back "$lumix" 'Current: 400' --get-config iso
    for change in "set iso 400" "set focal 1536/256" "set shtrspeed 2048/256"; do
        grep -q "^$change\$" "$work/lumix.log" && pass "lumix-${change// /-}" \
            || fail "lumix-${change// /-}" "the simulated Lumix never logged '$change'"
    done
    expect_ok lumix-capture "$lumix" 'New file is in location /DO1000003.JPG' --capture-image-and-download --keep \
        --filename lumix-capture.jpg
    expect_jpeg lumix-capture-is-jpeg "$work/files/lumix-capture.jpg" 640x480
    expect_ok lumix-preview "$lumix" 'Saving file as thumb_lumix-preview.jpg' --capture-preview \
        --filename lumix-preview.jpg
    expect_jpeg lumix-preview-is-jpeg "$work/files/thumb_lumix-preview.jpg" 320x240
    expect_ok lumix-list-after-capture "$lumix" "There are 3 files in folder '/'" --list-files
    # Viewfinder's own Lumix driver reads back what gphoto2 set.
    readback=$(for name in iso aperture shutter; do
        "$viewfinder" camera get "$name" --family panasonic --host "$lumix_camera" 2>&1
    done)
    if [ "$(echo "$readback" | tr '\n' ' ')" = "ISO 400 f/8 1/250 " ]; then
        pass lumix-viewfinder-read-back
    else
        fail lumix-viewfinder-read-back "viewfinder reads back '$readback', not ISO 400, f/8 and 1/250"
    fi
    # Viewfinder finds the simulated Lumix by SSDP, as a media server whose description is at /Lumix/Server0/ddd.
    "$viewfinder" discover --timeout 3 >"$work/lumix-discover.out" 2>&1 || true
    grep -q "DC-TZ90.*$lumix_camera" "$work/lumix-discover.out" && pass lumix-viewfinder-discover \
        || fail lumix-viewfinder-discover "viewfinder discover did not find the Lumix at $lumix_camera" \
            "$work/lumix-discover.out"
    # Viewfinder names the simulated Lumix and where it is, and saves its live view frames.
    "$viewfinder" camera info --family panasonic --host "$lumix_camera" >"$work/lumix-info.out" 2>&1 || true
    grep -q '^Panasonic DC-TZ90$' "$work/lumix-info.out" && grep -q "address *$lumix_camera:80\$" "$work/lumix-info.out" \
        && pass lumix-viewfinder-info \
        || fail lumix-viewfinder-info "viewfinder camera info does not name the Lumix and its address" "$work/lumix-info.out"
    mkdir -p "$work/lumix-liveview"
    "$viewfinder" camera liveview --family panasonic --host "$lumix_camera" --frames 5 --out "$work/lumix-liveview" \
        >"$work/lumix-liveview.out" 2>&1 || true
    expect_jpeg lumix-viewfinder-liveview "$work/lumix-liveview/liveview-0005.jpg" 320x240
    # Viewfinder lists the card gphoto2 listed, and downloads the picture gphoto2 took byte for byte.
    if "$viewfinder" camera files --family panasonic --host "$lumix_camera" >"$work/lumix-files.out" 2>&1 \
        && grep -q '/DO1000003.JPG' "$work/lumix-files.out"; then
        pass lumix-viewfinder-files
    else
        fail lumix-viewfinder-files "viewfinder camera files does not list DO1000003.JPG" "$work/lumix-files.out"
    fi
    mkdir -p "$work/lumix-download"
    if (cd "$work/lumix-download" && "$viewfinder" camera download --family panasonic --host "$lumix_camera" 1000003) \
        >"$work/lumix-download.out" 2>&1 && cmp -s "$work/lumix-download/DO1000003.JPG" "$work/files/lumix-capture.jpg"; then
        pass lumix-viewfinder-download
    else
        fail lumix-viewfinder-download "viewfinder's download of DO1000003.JPG differs from gphoto2's" \
            "$work/lumix-download.out"
    fi
    unset gphoto_port
fi

# Fujifilm's WiFi protocol: gphoto2 takes it for a --camera named Fuji ("Fuji X (WLAN)"), sends the 82-byte init
# twice, opens the event and JPEG ports after InitiateOpenCapture, and takes its Fuji paths (CameraAction 0xD208,
# AFStatus 0xD209, the event list 0xD212, preview from the JPEG port) for vendor extension 0x0E.
fuji="Fuji X (WLAN)"
start_simulator fuji --identity fuji
expect_ok fuji-summary "$fuji" 'Model: X-T4' --summary
grep -q 'Vendor Extension ID: 0xe' "$work/fuji-summary.out" \
    && grep -q 'Exposure Index (film speed ISO)(0x500f):(readwrite) (type=0x5) Enumeration \[-1,-2,-3,' \
        "$work/fuji-summary.out" \
    || fail fuji-summary-properties "the summary lacks Fujifilm's extension or its ISO" "$work/fuji-summary.out"
grep -c 'init repeated' "$work/fuji.log" >/dev/null && pass fuji-init-repeated \
    || fail fuji-init-repeated "the simulator never saw gphoto2's second init" "$work/fuji.log"
for pair in iso:iso f-number:aperture shutterspeed:shutter; do
    name=${pair%%:*}
    gphoto "fuji-$name" "$fuji" --get-config "$name"
    sed -n 's/^Choice: [0-9]* //p' "$work/fuji-$name.out" >"$work/fuji-$name.gphoto2"
    "$viewfinder" camera get "${pair#*:}" --host "127.0.0.1:$port" --family fujifilm --json | /usr/bin/python3 -c '
import json, sys
print("\n".join(json.load(sys.stdin)["settableValues"]))' >"$work/fuji-$name.viewfinder"
    if [ ! -s "$work/fuji-$name.gphoto2" ]; then
        fail "fuji-values-$name" "gphoto2 offers no $name" "$work/fuji-$name.out"
    elif diff <(exposure_values "$name" "$work/fuji-$name.gphoto2") \
        <(exposure_values "$name" "$work/fuji-$name.viewfinder") \
        >"$work/fuji-values.diff" 2>&1; then
        pass "fuji-values-$name"
    else
        fail "fuji-values-$name" "gphoto2 and viewfinder offer different values" "$work/fuji-values.diff"
    fi
done
expect_ok fuji-set "$fuji" '' --set-config iso=800 --set-config f-number=f/8 --set-config shutterspeed=1/60
readback=$(for name in iso aperture shutter; do
    "$viewfinder" camera get "$name" --host "127.0.0.1:$port" --family fujifilm
done)
if [ "$(echo "$readback" | tr '\n' ' ')" = "ISO 800 f/8 1/60 " ]; then
    pass fuji-read-back
else
    fail fuji-read-back "viewfinder reads back '$readback', not ISO 800, f/8 and 1/60"
fi
expect_ok fuji-capture "$fuji" 'New file is in location /store_00010001/DCIM/100_FUJI/DSCF0003.JPG' \
    --capture-image-and-download --filename fuji-capture.jpg
expect_jpeg fuji-capture-is-jpeg "$work/files/fuji-capture.jpg" 3008x2000
expect_ok fuji-list "$fuji" '#2 +DSCF0002.JPG' --list-files
expect_ok fuji-get "$fuji" 'Saving file as fuji-file.jpg' --get-file 1 --filename fuji-file.jpg
expect_jpeg fuji-get-is-jpeg "$work/files/fuji-file.jpg" 3008x2000
expect_ok fuji-preview "$fuji" 'Saving file as thumb_fuji-preview.jpg' --capture-preview --filename fuji-preview.jpg
expect_jpeg fuji-preview-is-jpeg "$work/files/thumb_fuji-preview.jpg" 640x424
expect_ok fuji-debug "$fuji" '' --debug --debug-logfile "$work/fuji-debug.txt" --capture-image
for step in 'Set device property value) (0xd208)' 'Get device property value) (0xd209)' \
    'Get device property value) (0xd212)'; do
    code=${step##*(}
    grep -qF "$step" "$work/fuji-debug.txt" && pass "fuji-uses-${code%)}" \
        || fail "fuji-uses-${code%)}" "gphoto2's debug log never shows $step"
done
if "$viewfinder" camera shoot --host "127.0.0.1:$port" --family fujifilm >"$work/fuji-viewfinder-shoot.out" 2>&1 \
    && grep -q 'DSCF0005.JPG' "$work/fuji-viewfinder-shoot.out"; then
    pass fuji-viewfinder-shoot
else
    fail fuji-viewfinder-shoot "viewfinder camera shoot did not report DSCF0005.JPG" "$work/fuji-viewfinder-shoot.out"
fi

# A real X-T4 over WiFi answers GetDeviceInfo with no data (a 12-byte data container): gphoto2 makes up an X-T4's
# DeviceInfo (model "X-T42", Fuji GetDeviceInfo 0x902B among its operations) and takes the properties from 0x902B's
# answer, which lists the exposure time and f-number its made-up DeviceInfo leaves out; viewfinder reads the same.
start_simulator fuji-empty --identity fuji --empty-device-info
expect_ok fuji-empty-summary "$fuji" 'Model: X-T42' --summary
grep -q 'Exposure Index (film speed ISO)(0x500f):(readwrite) (type=0x5) Enumeration \[-1,-2,-3,' \
    "$work/fuji-empty-summary.out" && grep -q '(0x500d):(readwrite) (type=0x6) Enumeration' "$work/fuji-empty-summary.out" \
    && pass fuji-empty-summary-properties \
    || fail fuji-empty-summary-properties "the summary lacks the ISO or exposure time of 0x902B's answer" \
        "$work/fuji-empty-summary.out"
expect_ok fuji-empty-iso "$fuji" '^Choice: [0-9]+ 800$' --get-config iso
expect_ok fuji-empty-capture "$fuji" 'New file is in location /store_00010001/DCIM/100_FUJI/DSCF0003.JPG' \
    --capture-image-and-download --filename fuji-empty-capture.jpg
expect_jpeg fuji-empty-capture-is-jpeg "$work/files/fuji-empty-capture.jpg" 3008x2000
if "$viewfinder" camera get iso --host "127.0.0.1:$port" --family fujifilm >"$work/fuji-empty-viewfinder.out" 2>&1 \
    && [ "$(cat "$work/fuji-empty-viewfinder.out")" = "ISO 100" ]; then
    pass fuji-empty-viewfinder-iso
else
    fail fuji-empty-viewfinder-iso "viewfinder camera get iso did not print ISO 100" "$work/fuji-empty-viewfinder.out"
fi

if [ "$failures" -gt 0 ]; then
    echo "test-gphoto2: $failures check(s) failed; simulator logs follow"
    sed 's/^/        | /' "$work"/*.log
    exit 1
fi
echo "test-gphoto2: every check passed"
