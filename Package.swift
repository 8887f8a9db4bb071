// swift-tools-version:6.2
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode (strict concurrency) and warnings as errors.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "Viewfinder",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Viewfinder", targets: ["Viewfinder"]),
        .executable(name: "viewfinder", targets: ["ViewfinderCLI"]),
        .executable(name: "vivid-checks", targets: ["ViewfinderV4L2VividChecks"]),
        .executable(name: "v4l2-benchmark", targets: ["V4L2Benchmark"]),
        .executable(name: "imaging-benchmark", targets: ["ImagingBenchmark"]),
        .executable(name: "ptp-benchmark", targets: ["PTPBenchmark"]),
        .executable(name: "frame-pipeline-benchmark", targets: ["FramePipelineBenchmark"]),
        .executable(name: "fuzz-ptp-codec", targets: ["PTPCodecFuzzer"]),
        .executable(name: "fuzz-ptp-client", targets: ["PTPClientFuzzer"]),
        .executable(name: "fuzz-simulator", targets: ["SimulatorFuzzer"]),
        .executable(name: "fuzz-corpus-recorder", targets: ["FuzzCorpusRecorder"]),
    ],
    targets: [
        // Locks and threads the other modules share (package access only).
        .target(name: "CViewfinderShims"),
        .target(name: "ViewfinderConcurrency", dependencies: ["CViewfinderShims"], swiftSettings: strict),
        // Combine-shaped publishers, subscribers and operators for Linux.
        .target(name: "ViewfinderReactive", dependencies: ["ViewfinderConcurrency"], swiftSettings: strict),
        // Frames, pixel buffers, frame sources, the capture context, the camera model and errors.
        .target(
            name: "ViewfinderCore",
            dependencies: ["ViewfinderConcurrency", "ViewfinderReactive"],
            swiftSettings: strict
        ),
        // System libraries for pixel-format conversion and JPEG.
        .systemLibrary(name: "CLibYUV", providers: [.apt(["libyuv-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(
            name: "ViewfinderImaging",
            dependencies: ["ViewfinderConcurrency", "ViewfinderCore", "CLibYUV", "CTurboJPEG"],
            swiftSettings: strict
        ),
        // PTP/IP protocol, transport, session and the network camera.
        .target(
            name: "ViewfinderPTP",
            dependencies: ["ViewfinderConcurrency", "ViewfinderCore", "ViewfinderImaging"],
            swiftSettings: strict
        ),
        // A simulated PTP/IP camera.
        .target(
            name: "ViewfinderSimulator",
            dependencies: ["ViewfinderConcurrency", "ViewfinderPTP", "ViewfinderImaging"],
            swiftSettings: strict
        ),
        // V4L2 capture devices.
        .target(name: "CV4L2"),
        .target(
            name: "ViewfinderV4L2",
            dependencies: ["ViewfinderConcurrency", "ViewfinderCore", "ViewfinderImaging", "CV4L2"],
            swiftSettings: strict
        ),
        // The umbrella module users import.
        .target(
            name: "Viewfinder",
            dependencies: [
                "ViewfinderReactive", "ViewfinderCore", "ViewfinderImaging", "ViewfinderPTP", "ViewfinderSimulator",
                "ViewfinderV4L2",
            ],
            swiftSettings: strict
        ),
        // The `viewfinder` command-line tool.
        .executableTarget(
            name: "ViewfinderCLI", dependencies: ["Viewfinder", "ViewfinderConcurrency", "CViewfinderShims"],
            swiftSettings: strict),

        .testTarget(
            name: "ViewfinderReactiveTests",
            dependencies: ["ViewfinderConcurrency", "ViewfinderReactive"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderCoreTests",
            dependencies: ["ViewfinderConcurrency", "ViewfinderCore"],
            swiftSettings: strict
        ),
        .testTarget(name: "ViewfinderImagingTests", dependencies: ["ViewfinderImaging"], swiftSettings: strict),
        .testTarget(
            name: "ViewfinderPTPTests",
            dependencies: ["ViewfinderConcurrency", "ViewfinderPTP", "ViewfinderSimulator", "ViewfinderImaging"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderV4L2Tests",
            dependencies: ["ViewfinderConcurrency", "ViewfinderV4L2"],
            swiftSettings: strict
        ),
        // Runs the built `viewfinder` tool and checks its output, files and exit codes.
        .testTarget(
            name: "ViewfinderCLITests",
            dependencies: ["ViewfinderCLI", "ViewfinderCLITestSupport", "Viewfinder"],
            swiftSettings: strict
        ),
        // What the tool's tests and the vivid checks share: child processes, a raw-socket HTTP client, JPEG checks.
        .target(name: "ViewfinderCLITestSupport", path: "Tests/ViewfinderCLITestSupport", swiftSettings: strict),
        // Checks of the V4L2 backend and of the `viewfinder` tool against the kernel's vivid driver, run in a VM by
        // Scripts/vivid-vm.sh.
        .executableTarget(
            name: "ViewfinderV4L2VividChecks",
            dependencies: ["ViewfinderConcurrency", "ViewfinderV4L2", "ViewfinderCLITestSupport"],
            path: "Tests/ViewfinderV4L2VividChecks",
            swiftSettings: strict
        ),
        // CPU per frame of CameraSource against v4l2-ctl, run in the same VM.
        .executableTarget(
            name: "V4L2Benchmark",
            dependencies: ["ViewfinderConcurrency", "ViewfinderV4L2"],
            path: "Benchmarks/V4L2Benchmark",
            swiftSettings: strict
        ),
        // ViewfinderImaging against direct libyuv and libjpeg-turbo calls, ffmpeg and memcpy; `make bench-imaging`.
        .executableTarget(
            name: "ImagingBenchmark",
            dependencies: ["ViewfinderImaging", "CLibYUV", "CTurboJPEG", "AllocationCounter"],
            path: "Benchmarks/ImagingBenchmark",
            swiftSettings: strict
        ),
        // What the benchmark programs share: printing, number formatting, CPU time, their own path.
        .target(name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport", swiftSettings: strict),
        // Counting replacements for the allocation functions, linked into the imaging benchmark.
        .target(name: "AllocationCounter", path: "Benchmarks/AllocationCounter"),
        // Download and live view of the PTP/IP client against gphoto2 on the simulated camera.
        .executableTarget(
            name: "PTPBenchmark",
            dependencies: ["ViewfinderPTP", "ViewfinderSimulator", "BenchmarkSupport"],
            path: "Benchmarks/PTPBenchmark",
            swiftSettings: strict
        ),
        // SequenceFrameSource into DataCaptureContext against Dispatch, AsyncStream and a condition variable;
        // `make bench-core`.
        .executableTarget(
            name: "FramePipelineBenchmark",
            dependencies: ["ViewfinderCore", "BenchmarkSupport"],
            path: "Benchmarks/FramePipelineBenchmark",
            swiftSettings: strict
        ),
        // The reactive layer next to AsyncStream and DispatchQueue.async in the same run; `make bench-reactive`.
        .executableTarget(
            name: "ReactiveBenchmark",
            dependencies: ["ViewfinderReactive"],
            path: "Benchmarks/ReactiveBenchmark",
            swiftSettings: strict
        ),
        // Live view pacing, memory and frame rate of PTPIPCamera on the simulated camera; `make bench-liveview`.
        .executableTarget(
            name: "LiveViewBenchmark",
            dependencies: ["ViewfinderPTP", "ViewfinderSimulator", "ViewfinderImaging", "BenchmarkSupport"],
            path: "Benchmarks/LiveViewBenchmark",
            swiftSettings: strict
        ),
        // Live view and property changes against the simulated camera for a set time, with limits on memory and
        // descriptors; `make test-soak` (60 s), `make soak` (10 minutes).
        .executableTarget(
            name: "Soak",
            dependencies: [
                "ViewfinderConcurrency", "ViewfinderCore", "ViewfinderReactive", "ViewfinderPTP", "ViewfinderSimulator",
                "BenchmarkSupport",
            ],
            path: "Benchmarks/Soak",
            swiftSettings: strict
        ),
        .testTarget(name: "ViewfinderTests", dependencies: ["Viewfinder"], swiftSettings: strict),

        // Fuzz targets for libFuzzer (`make fuzz`, `make test-fuzz`; see Fuzz/README.md). Built without the fuzzer,
        // each replays the inputs named on its command line.
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer", "ViewfinderConcurrency", "ViewfinderPTP"],
            path: "Fuzz/FuzzSupport",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "PTPCodecFuzzer",
            dependencies: ["FuzzSupport", "ViewfinderPTP"],
            path: "Fuzz/PTPCodecFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "PTPClientFuzzer",
            dependencies: ["FuzzSupport", "ViewfinderConcurrency", "ViewfinderPTP"],
            path: "Fuzz/PTPClientFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "SimulatorFuzzer",
            dependencies: ["FuzzSupport", "ViewfinderConcurrency", "ViewfinderPTP", "ViewfinderSimulator"],
            path: "Fuzz/SimulatorFuzzer",
            swiftSettings: strict
        ),
        // Records sessions of the client and of gphoto2 with the simulator as seed corpora; `make fuzz-corpus`.
        .executableTarget(
            name: "FuzzCorpusRecorder",
            dependencies: ["FuzzSupport", "ViewfinderConcurrency", "ViewfinderPTP", "ViewfinderSimulator"],
            path: "Fuzz/CorpusRecorder",
            swiftSettings: strict
        ),
    ]
)
