# Viewfinder: build, demo and test entry points.
SWIFT ?= swift
FORMAT_PATHS := Package.swift Sources Tests Benchmarks

.PHONY: all build demo test test-vivid test-gphoto2 bench-core bench-imaging bench-ptp bench-reactive bench-liveview lint deps \
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

## Runs every check: formatting, the build, and all tests.
test: test-deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) test-gphoto2
	$(MAKE) test-vivid

## Checks the simulated camera against Debian's gphoto2 as an independent PTP/IP client (under a minute).
test-gphoto2: test-deps
	SWIFT=$(SWIFT) Scripts/test-gphoto2.sh

## Runs the V4L2 checks and benchmark against the kernel's vivid driver in a qemu VM (a few minutes).
test-vivid: test-deps
	SWIFT=$(SWIFT) Scripts/vivid-vm.sh

## Measures the frame pipeline (release build) against Dispatch, AsyncStream and a condition-variable wake-up.
bench-core: deps
	$(SWIFT) build -c release --product frame-pipeline-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/frame-pipeline-benchmark

## Runs the imaging benchmark (release build) against direct libyuv and libjpeg-turbo calls, ffmpeg and memcpy.
bench-imaging: deps
	$(SWIFT) build -c release --product imaging-benchmark
	.build/release/imaging-benchmark

## Measures the PTP/IP client against gphoto2 on the simulated camera, with iperf3's loopback figure (under a minute).
bench-ptp: test-deps
	$(SWIFT) build -c release --product ptp-benchmark
	$$($(SWIFT) build -c release --show-bin-path)/ptp-benchmark

## Measures the reactive layer against AsyncStream and DispatchQueue.async in the same run (release build).
bench-reactive: deps
	$(SWIFT) build -c release --product ReactiveBenchmark
	$$($(SWIFT) build -c release --show-bin-path)/ReactiveBenchmark

## Measures live view pacing (release build): frames fetched against consumed and RSS at 5, 15 and 30 fps, and the
## unthrottled frame rate against a plain session loop in the same run (under a minute).
bench-liveview: deps
	$(SWIFT) build -c release --product LiveViewBenchmark
	$$($(SWIFT) build -c release --show-bin-path)/LiveViewBenchmark

lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)
