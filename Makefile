# Viewfinder: build, demo and test entry points.
SWIFT ?= swift
FORMAT_PATHS := Package.swift Sources Tests Benchmarks Fuzz
## Seconds each fuzz target runs in `make fuzz`; `make test-fuzz` runs each for FUZZ_TEST_SECONDS.
FUZZ_SECONDS ?= 600
FUZZ_TEST_SECONDS ?= 25
## Seconds `make soak` runs.
SOAK_SECONDS ?= 600
## Where `make install` puts the tool, under DESTDIR when set (as packagers stage it).
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man/man1
UDEVRULESDIR := $(PREFIX)/lib/udev/rules.d
BASHCOMPLETIONDIR := $(PREFIX)/share/bash-completion/completions
## Debian's zsh looks in /usr/share/zsh/vendor-completions for packages, and in PREFIX/share/zsh/site-functions.
ZSHCOMPLETIONDIR := $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
FISHCOMPLETIONDIR := $(PREFIX)/share/fish/vendor_completions.d
## Everything `make install` installs, which `make uninstall` removes.
INSTALLED := $(BINDIR)/viewfinder $(MANDIR)/viewfinder.1 $(UDEVRULESDIR)/60-viewfinder.rules \
	$(BASHCOMPLETIONDIR)/viewfinder $(ZSHCOMPLETIONDIR)/_viewfinder $(FISHCOMPLETIONDIR)/viewfinder.fish
## The tool as it is installed (release, Swift runtime linked in), and its manual page and completions.
RELEASE_TOOL := .build-static/release/viewfinder
GENERATED := .build-static/share
RELEASE_FILES := $(RELEASE_TOOL) $(GENERATED)/viewfinder.1 $(GENERATED)/viewfinder.bash $(GENERATED)/_viewfinder \
	$(GENERATED)/viewfinder.fish

.PHONY: all build demo docs test test-products test-browser test-download test-vivid test-gphoto2 test-tsan test-fuzz \
	test-soak soak fuzz fuzz-corpus release install uninstall deb test-install test-rig-faults \
	bench-core bench-imaging bench-ptp bench-replay bench-automation bench-reactive bench-liveview bench-discovery \
	bench-barcode bench-rig bench-rig-network bench-webcam bench-usb bench-fuji bench-sony bench-olympus \
	bench-sony-remote lint deps \
	test-deps

all: build

deps:
	@Scripts/install-dependencies.sh build

test-deps:
	@Scripts/install-dependencies.sh test

build: deps
	$(SWIFT) build

## Runs the main job on the built-in simulated camera.
demo: deps
	$(SWIFT) build -c release --product viewfinder
	.build/release/viewfinder demo

## Builds the tool as `make install` installs it: release, with the Swift runtime linked in (.build-static/release,
## shared with test-vivid), and its manual page and shell completions, made by the tool from its own commands.
release: $(RELEASE_FILES)

## Installs the tool, its manual page, its bash, zsh and fish completions, and the udev rule that lets the user
## logged in at the machine open USB cameras, under PREFIX (/usr/local unless told otherwise); builds first what
## `make release` builds, so `make release && sudo make install` builds as the user.
install: $(RELEASE_FILES)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(BASHCOMPLETIONDIR) \
		$(DESTDIR)$(ZSHCOMPLETIONDIR) $(DESTDIR)$(FISHCOMPLETIONDIR)
	install -m 0755 $(RELEASE_TOOL) $(DESTDIR)$(BINDIR)/viewfinder
	install -m 0644 $(GENERATED)/viewfinder.1 $(DESTDIR)$(MANDIR)/viewfinder.1
	install -m 0644 Packaging/60-viewfinder.rules $(DESTDIR)$(UDEVRULESDIR)/60-viewfinder.rules
	install -m 0644 $(GENERATED)/viewfinder.bash $(DESTDIR)$(BASHCOMPLETIONDIR)/viewfinder
	install -m 0644 $(GENERATED)/_viewfinder $(DESTDIR)$(ZSHCOMPLETIONDIR)/_viewfinder
	install -m 0644 $(GENERATED)/viewfinder.fish $(DESTDIR)$(FISHCOMPLETIONDIR)/viewfinder.fish
	@[ -n "$(DESTDIR)" ] || echo "Run 'sudo udevadm control --reload' so that udev reads the camera rule."

## Removes what `make install` installed with the same PREFIX and DESTDIR.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

## Builds a Debian package of what `make install` installs, under /usr (.build-static/viewfinder_VERSION_ARCH.deb),
## with its Depends read from the libraries the tool links.
deb: $(RELEASE_FILES)
	rm -rf .build-static/deb
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/.build-static/deb PREFIX=/usr
	Scripts/build-deb.sh .build-static/deb .build-static

## Checks `make install` into a scratch directory (the tool runs from there, the udev rule, completions that load in
## bash, zsh and fish, a manual page man renders), `make uninstall`, and `make deb` (contents, lintian, and an install
## into a scratch root that runs the tool, then a purge).
test-install: test-deps
	SWIFT=$(SWIFT) Scripts/test-install.sh

$(RELEASE_TOOL): Package.swift $(shell find Sources -type f)
	@Scripts/install-dependencies.sh build
	SWIFT=$(SWIFT) Scripts/build-static.sh viewfinder
	touch $@

## The manual page and the completions, written by the tool (a failed one is deleted, not left half written).
.DELETE_ON_ERROR:
$(GENERATED)/viewfinder.1: $(RELEASE_TOOL)
	@mkdir -p $(@D)
	$< manual >$@
$(GENERATED)/viewfinder.bash: $(RELEASE_TOOL)
	@mkdir -p $(@D)
	$< completions bash >$@
$(GENERATED)/_viewfinder: $(RELEASE_TOOL)
	@mkdir -p $(@D)
	$< completions zsh >$@
$(GENERATED)/viewfinder.fish: $(RELEASE_TOOL)
	@mkdir -p $(@D)
	$< completions fish >$@

## Builds the documentation of every public module (.build/docs/MODULE), failing on any broken link or warning.
docs: deps
	SWIFT=$(SWIFT) Scripts/docs.sh

## Checks that a program depending on the ViewfinderCameras product alone links no libyuv, libpng, zxing-cpp or V4L2
## code (a package of its own in .build-products, built against this checkout); needs the tool built, to check the check.
test-products: deps
	$(SWIFT) build --product viewfinder
	SWIFT=$(SWIFT) Scripts/check-products.sh

## Runs every check: formatting, the documentation, the build, what the cameras product links, all tests, the tests
## again under the thread sanitizer, gphoto2, the preview and the camera remote in a browser, a 5 GB download through
## the remote, vivid, installing and packaging, each fuzz target for a short while, and a one-minute soak.
test: test-deps lint docs
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) Scripts/check-products.sh
	$(SWIFT) test --skip-build
	$(MAKE) test-tsan
	$(MAKE) test-gphoto2
	$(MAKE) test-browser
	$(MAKE) test-download
	$(MAKE) test-vivid
	$(MAKE) test-install
	$(MAKE) test-fuzz
	$(MAKE) test-soak

## Runs the whole test suite, in parallel as usual, under the thread sanitizer (its own build in .build-tsan), in two
## runs: first the suites that compute on large pictures (imaging, barcodes), then every other suite. Ten times slower
## under the sanitizer, the picture arithmetic held the cooperative pool's threads for minutes and starved the suites
## that wait on the network and the clock within deadlines.
TSAN_COMPUTE_SUITES = ViewfinderImagingTests\.|ViewfinderBarcodeTests\.
test-tsan: test-deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_COMPUTE_SUITES)'
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --skip '$(TSAN_COMPUTE_SUITES)'

## Runs each fuzz target (libFuzzer with AddressSanitizer, built in .build-fuzz) for FUZZ_TEST_SECONDS on its corpus.
test-fuzz:
	SWIFT=$(SWIFT) Scripts/fuzz.sh $(FUZZ_TEST_SECONDS)

## Fuzzes for longer: each target for FUZZ_SECONDS (10 minutes unless told otherwise), e.g. `make fuzz FUZZ_SECONDS=3600`.
fuzz:
	SWIFT=$(SWIFT) Scripts/fuzz.sh $(FUZZ_SECONDS)

## Soaks the PTP/IP camera for a minute (release build): live view plus property changes on the simulated camera,
## failing when resident memory grows 5 MiB or more after the warm-up or the descriptor count moves.
test-soak: deps
	$(SWIFT) build -c release --product soak
	$$($(SWIFT) build -c release --show-bin-path)/soak --duration 60 --interval 5 --warm-up 15

## The same soak for ten minutes, reading every 30 s, e.g. `make soak SOAK_SECONDS=3600` for an hour.
soak: deps
	$(SWIFT) build -c release --product soak
	$$($(SWIFT) build -c release --show-bin-path)/soak --duration $(SOAK_SECONDS) --interval 30 --warm-up 30

## Records the fuzz targets' seed corpora again from sessions of the client and of gphoto2 with the simulator.
fuzz-corpus: test-deps
	SWIFT=$(SWIFT) Scripts/record-fuzz-corpus.sh

## Runs the faults of a rig across hosts (release build; needs root): on a bridge of network namespaces with a
## mosquitto of its own and eight agents, an agent killed mid-take, a host's link cut and restored, the broker
## restarted mid-take and 5 % of the packets to the broker dropped with nftables, each against its limits (a minute).
test-rig-faults: test-deps
	$(SWIFT) build -c release --product viewfinder
	$(SWIFT) build -c release --product rig-network-faults
	$$($(SWIFT) build -c release --show-bin-path)/rig-network-faults

## Checks the simulated camera against Debian's gphoto2 as an independent PTP/IP client (under a minute).
test-gphoto2: test-deps
	SWIFT=$(SWIFT) Scripts/test-gphoto2.sh

## Opens the preview page in headless Chromium and checks that it shows live frames, then uses the camera remote's
## page against a simulated camera (screenshots in .build/preview-check/ and .build/remote-check/; a few minutes).
test-browser: test-deps
	SWIFT=$(SWIFT) Scripts/preview-browser-check.sh
	SWIFT=$(SWIFT) Scripts/remote-browser-check.sh

## Downloads a 5 GB movie from a simulated camera through the camera remote, failing when the remote's resident
## memory passes 128 MiB (it streams the file); prints the time, rate and memory (seconds on loopback).
test-download: test-deps
	SWIFT=$(SWIFT) Scripts/remote-download-check.sh

## Runs the V4L2 checks and benchmark against the kernel's vivid driver in a qemu VM (a few minutes).
test-vivid: test-deps
	SWIFT=$(SWIFT) Scripts/vivid-vm.sh

## Measures `viewfinder webcam` against gphoto2 | ffmpeg writing the same simulated camera to a v4l2loopback device,
## in a qemu VM (a few minutes).
bench-webcam: test-deps
	SWIFT=$(SWIFT) Scripts/vivid-vm.sh bench-webcam

## Measures Olympus live view (frames/s, CPU per frame) against olympuswifi's live view on the same simulated E-M10
## Mark II, and Lumix live view on the simulated DC-TZ90 against gphoto2 --capture-movie (as root, which gives the
## simulator ports 80 and 60606 on 127.0.0.2), each beside a bare floor: a blocking socket that only receives the
## datagrams and finds each frame (release build).
bench-olympus: test-deps
	$(SWIFT) build -c release --product http-camera-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/http-camera-benchmark

## Measures Sony Camera Remote API live view (frames/s, CPU per frame) against libsonyapi's live view on the same
## simulated α6000 (release build).
bench-sony-remote: test-deps
	$(SWIFT) build -c release --product http-camera-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/http-camera-benchmark sony

## Measures a 200 MB download over USB (dummy_hcd, the simulated camera's gadget) against gphoto2 --get-file, in a
## qemu VM.
bench-usb: test-deps
	SWIFT=$(SWIFT) Scripts/vivid-vm.sh bench-usb

## Measures the frame pipeline (release build) against Dispatch, AsyncStream and a condition-variable wake-up.
bench-core: deps
	$(SWIFT) build -c release --product frame-pipeline-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/frame-pipeline-benchmark

## Runs the imaging benchmark (release build) against direct libyuv and libjpeg-turbo calls, ffmpeg and memcpy.
bench-imaging: deps
	$(SWIFT) build -c release --product imaging-benchmark
	.build/release/imaging-benchmark

## Measures the PTP/IP client against gphoto2 on the simulated Nikon and Canon EOS cameras, with iperf3's loopback
## figure and a minimal raw-socket client as the floor for a live view frame and a small request (under a minute).
bench-ptp: test-deps
	$(SWIFT) build -c release --product ptp-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/ptp-benchmark

## Measures Fujifilm live view over Fujifilm's WiFi protocol against gphoto2 --capture-movie on the same simulated
## X-T4 (release build; the Fujifilm row of bench-ptp alone).
bench-fuji: test-deps
	$(SWIFT) build -c release --product ptp-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/ptp-benchmark fuji

## Measures Sony live view and an ISO set by notches against gphoto2's Sony code paths on the same simulated α7 IV
## and α7 III (release build; the Sony rows of bench-ptp alone).
bench-sony: test-deps
	$(SWIFT) build -c release --product ptp-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/ptp-benchmark sony

## Measures connecting to real cameras played back from their logs (the test traces) against gphoto2 --summary on the
## same replay: time until ready, and requests (release build; under a minute).
bench-replay: test-deps
	$(SWIFT) build -c release --product replay-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/replay-benchmark

## Measures the automations against gphoto2 on the simulated Canon and Nikon (release build; two or three minutes):
## bulb exposure length asked against the length the camera saw, timelapse interval jitter, and tethering latency from
## the camera's own button to the whole file on disk (`--json` for the figures as JSON).
bench-automation: test-deps
	$(SWIFT) build -c release --product automation-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/automation-benchmark

## Measures the time from beginSearching() to the first camera against avahi-browse, across network namespaces
## (release build; needs root).
bench-discovery: test-deps
	$(SWIFT) build -c release --product discovery-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/discovery-benchmark

## Measures barcode decoding per 1920x1080 frame (release build) against zxing-cpp called directly and zbar in the same
## run, with allocations per frame, and frames per second through a context.
bench-barcode: test-deps
	$(SWIFT) build -c release --product barcode-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/barcode-benchmark

## Measures rigs of 1, 4, 16 and 64 simulated cameras (release build): connect time, threads and memory per camera,
## shutter skew and live view CPU per camera-frame, against one gphoto2 process per camera (a few minutes).
bench-rig: test-deps
	$(SWIFT) build -c release --product rig-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/rig-benchmark

## Measures a rig across hosts on MQTT (release build; needs root): the fan-out of a fire to 50 hosts, the shutter
## skew across 16 hosts × 4 cameras against one host and against one gphoto2 process per camera, and 200 agents on
## one broker (BENCH_RIG_HOSTS), each host a network namespace on a bridge (a few minutes).
BENCH_RIG_HOSTS ?= 200
bench-rig-network: test-deps
	$(SWIFT) build -c release --product viewfinder
	$(SWIFT) build -c release --product rig-network-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/rig-network-benchmark --scale $(BENCH_RIG_HOSTS)

## Measures the reactive layer against AsyncStream and DispatchQueue.async in the same run (release build).
bench-reactive: deps
	$(SWIFT) build -c release --product reactive-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/reactive-benchmark

## Measures live view pacing (release build): frames fetched against consumed and RSS at 5, 15 and 30 fps, and the
## unthrottled frame rate against a plain session loop in the same run (under a minute).
bench-liveview: deps
	$(SWIFT) build -c release --product live-view-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/live-view-benchmark

lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)
