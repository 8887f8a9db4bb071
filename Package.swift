// swift-tools-version:6.2
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode (strict concurrency) and warnings as errors.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "Viewfinder",
    // The products users see: the whole library, or the part for one job, each linking only what it needs; the
    // simulated camera for their own tests and demos; and the tool. Benchmarks, fuzzers and check programs are built
    // by name from this package (`swift build --product NAME`).
    products: [
        .library(name: "Viewfinder", targets: ["Viewfinder"]),
        // Cameras alone: no libyuv, libpng, zxing-cpp or V4L2 (Scripts/check-products.sh checks a program's links).
        .library(name: "ViewfinderCameras", targets: ["ViewfinderCameras"]),
        .library(name: "ViewfinderCaptureDevices", targets: ["ViewfinderV4L2", "ViewfinderImaging"]),
        .library(name: "ViewfinderBarcodeCapture", targets: ["ViewfinderBarcode"]),
        .library(name: "ViewfinderRig", targets: ["ViewfinderRig"]),
        .library(name: "ViewfinderSimulator", targets: ["ViewfinderSimulator"]),
        .library(name: "ViewfinderRigNetwork", targets: ["ViewfinderRigNetwork"]),
        .executable(name: "viewfinder", targets: ["ViewfinderCLI"]),
    ],
    targets: [
        // The POSIX layer the other modules share (package access only): descriptors, errno, sockets, poll,
        // wake-ups, locks and threads, over a C shim for the calls Swift cannot see.
        .target(name: "CViewfinderSystem"),
        .target(name: "ViewfinderSystem", dependencies: ["CViewfinderSystem"], swiftSettings: strict),
        // Combine-shaped publishers, subscribers and operators for Linux.
        .target(name: "ViewfinderReactive", dependencies: ["ViewfinderSystem"], swiftSettings: strict),
        // Frames, pixel buffers, frame sources, the capture context, the camera model and errors.
        .target(
            name: "ViewfinderCore",
            dependencies: ["ViewfinderSystem", "ViewfinderReactive"],
            swiftSettings: strict
        ),
        // The one reader and writer of HTTP/1.1 heads and http:// URLs (package access only), which the tool's
        // servers, SSDP's datagrams, the UPnP description fetch and announcer, and the rig's file fetches share.
        .target(name: "ViewfinderHTTPMessage", dependencies: ["ViewfinderSystem"], swiftSettings: strict),
        // Finding cameras on the network: multicast DNS and SSDP, their wire formats and browsers.
        .target(
            name: "ViewfinderDiscovery",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "ViewfinderHTTPMessage"],
            swiftSettings: strict
        ),
        // System libraries for pixel-format conversion and JPEG.
        .systemLibrary(name: "CLibYUV", providers: [.apt(["libyuv-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        // Pixel kernels of Viewfinder's own: range maps, packing YUYV with a range map and scaling in one pass, and
        // the plane copies, merges and chroma resampling that JPEG decoding needs without libyuv.
        .target(name: "CViewfinderPixels"),
        // JPEG decoding with libjpeg-turbo alone, and the live view decoder cameras use: what a program that drives
        // cameras links of imaging.
        .target(
            name: "ViewfinderJPEG",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "CTurboJPEG", "CViewfinderPixels"],
            swiftSettings: strict
        ),
        // Conversion, scaling, rotation, JPEG encoding and PNG, over libyuv, libjpeg-turbo and libpng; re-exports
        // ViewfinderJPEG.
        .target(
            name: "ViewfinderImaging",
            dependencies: [
                "ViewfinderSystem", "ViewfinderCore", "ViewfinderJPEG", "CLibYUV", "CTurboJPEG", "CLibPNG",
                "CViewfinderPixels",
            ],
            swiftSettings: strict
        ),
        // PTP over any transport: datasets and codes, the session, the camera and the vendor dialects.
        .target(
            name: "ViewfinderPTP",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "ViewfinderJPEG"],
            swiftSettings: strict
        ),
        // The PTP/IP transport: packets, the command and event connections, the network camera's connector.
        .target(
            name: "ViewfinderPTPIP",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "ViewfinderPTP"],
            swiftSettings: strict
        ),
        // The PTP over USB transport: usbdevfs transfers, the USB cameras attached, their endpoints.
        .target(name: "CViewfinderUSB"),
        .target(
            name: "ViewfinderPTPUSB",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "ViewfinderPTP", "CViewfinderUSB"],
            swiftSettings: strict
        ),
        // The HTTP/1.1 client the cameras' HTTP drivers share (package access only): one exchange per connection,
        // bounded in size and time, and downloads streamed in pieces.
        .target(
            name: "ViewfinderHTTPClient",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "ViewfinderHTTPMessage"],
            swiftSettings: strict
        ),
        // Panasonic Lumix cameras over their HTTP API: cam.cgi commands and XML answers, the state polled, on the
        // camera driver core.
        .target(
            name: "ViewfinderLumix",
            dependencies: [
                "ViewfinderSystem", "ViewfinderCore", "ViewfinderJPEG", "ViewfinderHTTPMessage", "ViewfinderHTTPClient",
                "ViewfinderDiscovery",
            ],
            swiftSettings: strict
        ),
        // Olympus and OM System cameras over their HTTP API: CGI commands, XML answers and the properties polled, on
        // the camera driver core.
        .target(
            name: "ViewfinderOlympus",
            dependencies: [
                "ViewfinderSystem", "ViewfinderCore", "ViewfinderJPEG", "ViewfinderHTTPMessage", "ViewfinderHTTPClient",
                "ViewfinderDiscovery",
            ],
            swiftSettings: strict
        ),
        // Older Sony bodies over Sony's Camera Remote API: JSON-RPC calls over HTTP, changes heard through the getEvent
        // long poll, on the camera driver core.
        .target(
            name: "ViewfinderSonyRemote",
            dependencies: [
                "ViewfinderSystem", "ViewfinderCore", "ViewfinderJPEG", "ViewfinderHTTPMessage", "ViewfinderHTTPClient",
                "ViewfinderDiscovery",
            ],
            swiftSettings: strict
        ),
        // A simulated PTP/IP camera (and a Lumix, an Olympus and a Sony Camera Remote API body over HTTP), a product of
        // its own for demos and tests.
        .target(
            name: "ViewfinderSimulator",
            dependencies: [
                "ViewfinderSystem", "ViewfinderPTP", "ViewfinderPTPIP", "ViewfinderImaging", "ViewfinderDiscovery",
                "ViewfinderHTTPMessage",
            ],
            swiftSettings: strict
        ),
        // Barcode capture: a capture mode over zxing-cpp, through a small C interface of its own.
        .target(name: "CZXing", linkerSettings: [.linkedLibrary("ZXing")]),
        .target(
            name: "ViewfinderBarcode",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "ViewfinderImaging", "CZXing"],
            swiftSettings: strict
        ),
        // Many cameras driven as one: connect, set, fire, collect and watch them together.
        .target(
            name: "ViewfinderRig",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "ViewfinderReactive"],
            swiftSettings: strict
        ),
        // Rigs across hosts: an agent per host and a coordinator, through an MQTT 5 broker (Eclipse Mosquitto's
        // client library), the pictures pulled over HTTP. A product of its own, so rigs on one host need no broker.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .target(
            name: "ViewfinderRigNetwork",
            dependencies: [
                "ViewfinderSystem", "CViewfinderSystem", "ViewfinderCore", "ViewfinderRig", "ViewfinderHTTP",
                "ViewfinderHTTPMessage", "CMosquitto",
            ],
            swiftSettings: strict
        ),
        // V4L2 capture devices.
        .target(name: "CV4L2"),
        .target(
            name: "ViewfinderV4L2",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "ViewfinderImaging", "CV4L2"],
            swiftSettings: strict
        ),
        // Timelapses, exposure brackets, focus stacks and tethering, on the public camera API alone.
        .target(
            name: "ViewfinderAutomation",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "ViewfinderReactive"],
            swiftSettings: strict
        ),
        // The cameras' module: PTP over the network and USB, discovery, and CameraDiscovery.shared over them, with
        // the automations.
        .target(
            name: "ViewfinderCameras",
            dependencies: [
                "ViewfinderReactive", "ViewfinderCore", "ViewfinderJPEG", "ViewfinderPTP", "ViewfinderPTPIP",
                "ViewfinderPTPUSB", "ViewfinderDiscovery", "ViewfinderLumix", "ViewfinderOlympus",
                "ViewfinderSonyRemote", "ViewfinderAutomation",
            ],
            swiftSettings: strict
        ),
        // The umbrella module users import.
        .target(
            name: "Viewfinder",
            dependencies: [
                "ViewfinderCameras", "ViewfinderImaging", "ViewfinderV4L2", "ViewfinderBarcode", "ViewfinderRig",
            ],
            swiftSettings: strict
        ),
        // The HTTP/1.1 server the tool's pages share (package access only), with the one policy every page keeps:
        // the request's host, a token, the origin of changes, connections per peer, deadlines.
        .target(
            name: "ViewfinderHTTP",
            dependencies: ["ViewfinderSystem", "ViewfinderCore", "ViewfinderHTTPMessage"],
            swiftSettings: strict
        ),
        // The `viewfinder` command-line tool.
        .executableTarget(
            name: "ViewfinderCLI",
            dependencies: [
                "Viewfinder", "ViewfinderSimulator", "ViewfinderSystem", "CViewfinderSystem", "ViewfinderHTTP",
                "ViewfinderRigNetwork",
            ],
            swiftSettings: strict),

        .testTarget(
            name: "ViewfinderReactiveTests",
            dependencies: ["ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderReactive"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderCoreTests",
            dependencies: ["ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderCore"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderDiscoveryTests",
            dependencies: ["ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderCore", "ViewfinderDiscovery"],
            exclude: ["Peers"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderSystemTests", dependencies: ["ViewfinderTestSupport", "ViewfinderSystem"],
            swiftSettings: strict),
        .testTarget(name: "ViewfinderHTTPMessageTests", dependencies: ["ViewfinderHTTPMessage"], swiftSettings: strict),
        // The HTTP cameras' client against loopback servers that keep, drop and refuse connections as cameras do.
        .testTarget(
            name: "ViewfinderHTTPClientTests",
            dependencies: [
                "ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderCore", "ViewfinderHTTPMessage",
                "ViewfinderHTTPClient", "ViewfinderSimulator",
            ],
            swiftSettings: strict),
        // The Lumix driver against a TZ90's recorded answers served back over loopback HTTP, the simulated Lumix and
        // hostile peers.
        .testTarget(
            name: "ViewfinderLumixTests",
            dependencies: [
                "ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderCore", "ViewfinderHTTPMessage",
                "ViewfinderDiscovery", "ViewfinderLumix", "ViewfinderSimulator",
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        // The simulated Olympus against olympuswifi, an independent client, over loopback HTTP, and the Olympus
        // readers against its answers.
        .testTarget(
            name: "ViewfinderOlympusTests",
            dependencies: [
                "ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderCore", "ViewfinderHTTPMessage",
                "ViewfinderSimulator", "ViewfinderOlympus",
            ],
            exclude: ["Peers"],
            swiftSettings: strict
        ),
        // The simulated Sony Camera Remote API camera against libsonyapi, an independent client, over loopback HTTP, and
        // the Sony Camera Remote API driver against the simulator and hostile peers.
        .testTarget(
            name: "ViewfinderSonyRemoteTests",
            dependencies: [
                "ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderCore", "ViewfinderHTTPMessage",
                "ViewfinderHTTPClient", "ViewfinderSimulator", "ViewfinderSonyRemote",
            ],
            exclude: ["Peers"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderImagingTests", dependencies: ["ViewfinderImaging", "CTurboJPEG", "CLibYUV"],
            swiftSettings: strict),
        .testTarget(
            name: "ViewfinderBarcodeTests",
            dependencies: [
                "ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderCore", "ViewfinderImaging", "ViewfinderBarcode",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderPTPTests",
            dependencies: [
                "ViewfinderTestSupport",
                "ViewfinderSystem", "ViewfinderPTP", "ViewfinderPTPIP", "ViewfinderSimulator", "ViewfinderImaging",
            ],
            exclude: ["Traces"],
            swiftSettings: strict
        ),
        // The automations against the simulated cameras over loopback TCP.
        .testTarget(
            name: "ViewfinderAutomationTests",
            dependencies: ["ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderCameras", "ViewfinderSimulator"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderRigTests",
            dependencies: [
                "ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderCore", "ViewfinderRig", "ViewfinderPTP",
                "ViewfinderPTPIP", "ViewfinderSimulator",
            ],
            swiftSettings: strict
        ),
        // The agent and the coordinator against a mosquitto of their own: on loopback, and as processes in network
        // namespaces on a bridge with an independent MQTT client (paho-mqtt, in Peers).
        .testTarget(
            name: "ViewfinderRigNetworkTests",
            dependencies: [
                "ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderCore", "ViewfinderRig", "ViewfinderRigNetwork",
                "ViewfinderPTP", "ViewfinderPTPIP", "ViewfinderSimulator",
            ],
            exclude: ["Peers"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderPTPUSBTests",
            dependencies: [
                "ViewfinderCore", "ViewfinderPTP", "ViewfinderPTPUSB", "ViewfinderSystem", "ViewfinderTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderV4L2Tests",
            dependencies: ["ViewfinderTestSupport", "ViewfinderSystem", "ViewfinderImaging", "ViewfinderV4L2"],
            swiftSettings: strict
        ),
        // Runs the built `viewfinder` tool and checks its output, files and exit codes.
        .testTarget(
            name: "ViewfinderCLITests",
            dependencies: [
                "ViewfinderCLI", "ViewfinderTestSupport", "Viewfinder", "ViewfinderSimulator", "ViewfinderSystem",
                "ViewfinderHTTP",
            ],
            swiftSettings: strict
        ),
        // What the tests, the vivid checks and the benchmarks share: child processes, waiting for a condition, a
        // raw-socket HTTP client, a scripted HTTP responder, JPEG checks.
        .target(
            name: "ViewfinderTestSupport",
            dependencies: ["ViewfinderSystem", "ViewfinderHTTPMessage", "ViewfinderSimulator"],
            path: "Tests/ViewfinderTestSupport", swiftSettings: strict),
        // Checks of the V4L2 backend and of the `viewfinder` tool against the kernel's vivid driver, run in a VM by
        // Scripts/vivid-vm.sh.
        .executableTarget(
            name: "vivid-checks",
            dependencies: [
                "ViewfinderSystem", "ViewfinderImaging", "ViewfinderV4L2", "ViewfinderBarcode", "ViewfinderTestSupport",
                "CV4L2", "ViewfinderPTP", "ViewfinderPTPUSB", "ViewfinderReactive", "ViewfinderDiscovery",
            ],
            path: "Tests/ViewfinderV4L2VividChecks",
            swiftSettings: strict
        ),
        // Faults of a rig across hosts in network namespaces (a killed agent, a cut link, a broker restart, packet
        // loss), each against its limits; `make test-rig-faults`.
        .executableTarget(
            name: "rig-network-faults",
            dependencies: ["ViewfinderTestSupport"],
            path: "Tests/ViewfinderRigNetworkFaults",
            swiftSettings: strict
        ),
        // CPU per frame of CameraSource against v4l2-ctl, run in the same VM.
        .executableTarget(
            name: "v4l2-benchmark",
            dependencies: ["ViewfinderSystem", "ViewfinderV4L2"],
            path: "Benchmarks/V4L2Benchmark",
            swiftSettings: strict
        ),
        // ViewfinderImaging against direct libyuv and libjpeg-turbo calls, ffmpeg and memcpy; `make bench-imaging`.
        .executableTarget(
            name: "imaging-benchmark",
            dependencies: [
                "ViewfinderImaging", "CLibYUV", "CTurboJPEG", "CViewfinderPixels", "AllocationCounter",
                "ViewfinderTestSupport",
            ],
            path: "Benchmarks/ImagingBenchmark",
            swiftSettings: strict
        ),
        // What the benchmark programs share: printing, number formatting, CPU time, their own path.
        .target(name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport", swiftSettings: strict),
        // Counting replacements for the allocation functions, linked into the imaging benchmark.
        .target(name: "AllocationCounter", path: "Benchmarks/AllocationCounter"),
        // The barcode benchmark's peers: zxing-cpp called directly and zbar's C API.
        .target(
            name: "BarcodePeer", path: "Benchmarks/BarcodePeer",
            linkerSettings: [.linkedLibrary("ZXing"), .linkedLibrary("zbar")]),
        // BarcodeReader against zxing-cpp called directly and zbar on the same frames; `make bench-barcode`.
        .executableTarget(
            name: "barcode-benchmark",
            dependencies: [
                "ViewfinderBarcode", "ViewfinderCore", "ViewfinderImaging", "ViewfinderSystem", "BarcodePeer", "CZXing",
                "AllocationCounter", "BenchmarkSupport",
            ],
            path: "Benchmarks/BarcodeBenchmark",
            swiftSettings: strict
        ),
        // Download and live view of the PTP/IP client against gphoto2 on the simulated camera.
        .executableTarget(
            name: "ptp-benchmark",
            dependencies: [
                "ViewfinderPTP", "ViewfinderPTPIP", "ViewfinderSimulator", "BenchmarkSupport", "ViewfinderTestSupport",
            ],
            path: "Benchmarks/PTPBenchmark",
            swiftSettings: strict
        ),
        // Bulb exposure length, timelapse jitter and tethering latency of the automations on the simulated Canon and
        // Nikon, against gphoto2 on the same cameras; `make bench-automation`.
        .executableTarget(
            name: "automation-benchmark",
            dependencies: [
                "ViewfinderCameras", "ViewfinderSimulator", "ViewfinderSystem", "BenchmarkSupport",
                "ViewfinderTestSupport",
            ],
            path: "Benchmarks/AutomationBenchmark",
            swiftSettings: strict
        ),
        // Connecting to real cameras played back from their logs, against gphoto2 --summary; `make bench-replay`.
        .executableTarget(
            name: "replay-benchmark",
            dependencies: [
                "ViewfinderPTP", "ViewfinderPTPIP", "ViewfinderSimulator", "BenchmarkSupport", "ViewfinderTestSupport",
            ],
            path: "Benchmarks/ReplayBenchmark",
            swiftSettings: strict
        ),
        // How a CameraRig's cost grows with its cameras, against the gphoto2 recipe; `make bench-rig`.
        .executableTarget(
            name: "rig-benchmark",
            dependencies: [
                "ViewfinderCore", "ViewfinderPTP", "ViewfinderPTPIP", "ViewfinderRig", "ViewfinderReactive",
                "ViewfinderSimulator", "ViewfinderSystem", "BenchmarkSupport", "ViewfinderTestSupport",
            ],
            path: "Benchmarks/RigBenchmark",
            swiftSettings: strict
        ),
        // A rig across hosts on MQTT: the fan-out of a fire, the shutter skew across hosts against one host and the
        // gphoto2 recipe, and 200 agents on one broker; `make bench-rig-network`.
        .executableTarget(
            name: "rig-network-benchmark",
            dependencies: [
                "ViewfinderRig", "ViewfinderRigNetwork", "ViewfinderSimulator", "ViewfinderSystem", "BenchmarkSupport",
                "ViewfinderTestSupport",
            ],
            path: "Benchmarks/RigNetworkBenchmark",
            swiftSettings: strict
        ),
        // Time to the first camera found, against avahi-browse in the same run; `make bench-discovery`.
        .executableTarget(
            name: "discovery-benchmark",
            dependencies: [
                "ViewfinderCore", "ViewfinderDiscovery", "ViewfinderSystem", "BenchmarkSupport",
                "ViewfinderTestSupport",
            ],
            path: "Benchmarks/DiscoveryBenchmark",
            swiftSettings: strict
        ),
        // SequenceFrameSource into DataCaptureContext against Dispatch, AsyncStream and a condition variable;
        // `make bench-core`.
        .executableTarget(
            name: "frame-pipeline-benchmark",
            dependencies: ["ViewfinderCore", "BenchmarkSupport"],
            path: "Benchmarks/FramePipelineBenchmark",
            swiftSettings: strict
        ),
        // The reactive layer next to AsyncStream and DispatchQueue.async in the same run; `make bench-reactive`.
        .executableTarget(
            name: "reactive-benchmark",
            dependencies: ["ViewfinderReactive"],
            path: "Benchmarks/ReactiveBenchmark",
            swiftSettings: strict
        ),
        // Olympus live view against olympuswifi on the simulated E-M10 Mark II, Lumix live view on the simulated
        // DC-TZ90, and Sony Camera Remote API live view against libsonyapi on the simulated α6000;
        // `make bench-olympus`, `make bench-sony-remote`.
        .executableTarget(
            name: "http-camera-benchmark",
            dependencies: [
                "ViewfinderCore", "ViewfinderReactive", "ViewfinderOlympus", "ViewfinderLumix", "ViewfinderSonyRemote",
                "ViewfinderSimulator", "ViewfinderHTTPClient", "ViewfinderHTTPMessage", "ViewfinderSystem",
                "BenchmarkSupport", "ViewfinderTestSupport",
            ],
            path: "Benchmarks/HTTPCameraBenchmark",
            swiftSettings: strict
        ),
        // Live view pacing, memory and frame rate of PTPIPCamera on the simulated camera; `make bench-liveview`.
        .executableTarget(
            name: "live-view-benchmark",
            dependencies: [
                "ViewfinderSystem", "ViewfinderPTP", "ViewfinderPTPIP", "ViewfinderSimulator", "ViewfinderImaging",
                "BenchmarkSupport",
            ],
            path: "Benchmarks/LiveViewBenchmark",
            swiftSettings: strict
        ),
        // Live view and property changes against the simulated camera for a set time, with limits on memory and
        // descriptors; `make test-soak` (60 s), `make soak` (10 minutes).
        .executableTarget(
            name: "soak",
            dependencies: [
                "ViewfinderSystem", "ViewfinderCore", "ViewfinderReactive", "ViewfinderPTP", "ViewfinderPTPIP",
                "ViewfinderSimulator",
                "BenchmarkSupport",
            ],
            path: "Benchmarks/Soak",
            swiftSettings: strict
        ),
        .testTarget(
            name: "ViewfinderTests", dependencies: ["Viewfinder", "ViewfinderSimulator", "ViewfinderTestSupport"],
            swiftSettings: strict),

        // Fuzz targets for libFuzzer (`make fuzz`, `make test-fuzz`; see Fuzz/README.md). Built without the fuzzer,
        // each replays the inputs named on its command line.
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer", "ViewfinderSystem", "ViewfinderPTP", "ViewfinderPTPIP"],
            path: "Fuzz/FuzzSupport",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-ptp-codec",
            dependencies: ["FuzzSupport", "ViewfinderPTP", "ViewfinderPTPIP"],
            path: "Fuzz/PTPCodecFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-ptp-client",
            dependencies: ["FuzzSupport", "ViewfinderSystem", "ViewfinderPTP", "ViewfinderPTPIP"],
            path: "Fuzz/PTPClientFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-simulator",
            dependencies: [
                "FuzzSupport", "ViewfinderSystem", "ViewfinderPTP", "ViewfinderPTPIP", "ViewfinderSimulator",
            ],
            path: "Fuzz/SimulatorFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-canon-eos",
            dependencies: ["FuzzSupport", "ViewfinderSystem", "ViewfinderPTP", "ViewfinderPTPIP"],
            path: "Fuzz/CanonEOSFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-sony",
            dependencies: ["FuzzSupport", "ViewfinderCore", "ViewfinderSystem", "ViewfinderPTP"],
            path: "Fuzz/SonyFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-fuji",
            dependencies: ["FuzzSupport", "ViewfinderCore", "ViewfinderSystem", "ViewfinderPTP", "ViewfinderPTPIP"],
            path: "Fuzz/FujiFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-discovery",
            dependencies: ["FuzzSupport", "ViewfinderCore", "ViewfinderDiscovery"],
            path: "Fuzz/DiscoveryFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-lumix",
            dependencies: [
                "FuzzSupport", "ViewfinderCore", "ViewfinderDiscovery", "ViewfinderHTTPMessage", "ViewfinderLumix",
            ],
            path: "Fuzz/LumixFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-olympus",
            dependencies: ["FuzzSupport", "ViewfinderCore", "ViewfinderOlympus"],
            path: "Fuzz/OlympusFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-sony-remote",
            dependencies: ["FuzzSupport", "ViewfinderCore", "ViewfinderSonyRemote"],
            path: "Fuzz/SonyRemoteFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-barcode",
            dependencies: ["FuzzSupport", "ViewfinderCore", "ViewfinderImaging", "ViewfinderBarcode"],
            path: "Fuzz/BarcodeFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-http",
            dependencies: ["FuzzSupport", "ViewfinderSystem", "ViewfinderHTTP"],
            path: "Fuzz/HTTPFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-debug-log",
            dependencies: ["FuzzSupport", "ViewfinderCore", "ViewfinderPTP", "ViewfinderSimulator"],
            path: "Fuzz/DebugLogFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-usb-events",
            dependencies: ["FuzzSupport", "ViewfinderPTP", "ViewfinderPTPUSB"],
            path: "Fuzz/USBEventsFuzzer",
            swiftSettings: strict
        ),
        // Records sessions of the client and of gphoto2 with the simulator as seed corpora; `make fuzz-corpus`.
        .executableTarget(
            name: "fuzz-corpus-recorder",
            dependencies: [
                "FuzzSupport", "ViewfinderSystem", "ViewfinderPTP", "ViewfinderPTPIP", "ViewfinderSimulator",
            ],
            path: "Fuzz/CorpusRecorder",
            swiftSettings: strict
        ),
    ],
    cxxLanguageStandard: .cxx17
)
