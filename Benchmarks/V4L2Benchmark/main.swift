import ViewfinderCore
// CPU time per captured frame: CameraSource against `v4l2-ctl --stream-mmap`, on the same device in the same run.
//
// Usage: v4l2-benchmark DEVICE V4L2CTL [FRAMES]   e.g. v4l2-benchmark /dev/video1 /bin/v4l2-ctl 100
// Both capture FRAMES frames of 1920x1080 YUYV at the device's fastest rate for that size, through mmap buffers,
// without touching the pixels. CPU time is user + system time of the capturing process (getrusage/wait4).
import ViewfinderSystem
import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

struct Measurement {
    var frames: Int
    var cpuSeconds: Double
    var wallSeconds: Double

    var microsecondsPerFrame: Double { cpuSeconds / Double(max(frames, 1)) * 1e6 }
    var framesPerSecond: Double { Double(frames) / wallSeconds }
}

func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }

func cpuSeconds(_ usage: rusage) -> Double { seconds(usage.ru_utime) + seconds(usage.ru_stime) }

func now() -> Double { Double(MonotonicTimestamp.now().nanoseconds) / 1e9 }

/// Runs v4l2-ctl as a child process and reads its CPU time from wait4.
func measureV4L2Ctl(path: String, device: String, format: VideoFormat, frames: Int) -> Measurement? {
    let arguments = [
        path, "-d", device,
        "--set-fmt-video=width=\(format.dimensions.width),height=\(format.dimensions.height),pixelformat=YUYV",
        "--set-parm=\(format.frameRate.framesPerSecond)", "--stream-mmap=4", "--stream-count=\(frames)",
    ]
    var cArguments = arguments.map { strdup($0) } + [nil]
    defer { for argument in cArguments { free(argument) } }
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Its per-frame progress marks go to /dev/null, as the context's processor only counts CameraSource's frames.
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
    let start = now()
    guard posix_spawn(&pid, path, &actions, nil, &cArguments, environ) == 0 else { return nil }
    var status: CInt = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid, status == 0 else { return nil }
    return Measurement(frames: frames, cpuSeconds: cpuSeconds(usage), wallSeconds: now() - start)
}

/// Captures with CameraSource into a DataCaptureContext and reads this process's CPU time around the capture.
///
/// The context's processor counts frames and wakes the waiting task once, at the last one, so the measurement adds
/// no polling; the context's own thread and hand-off are part of what is measured.
func measureCameraSource(device: CaptureDevice, format: VideoFormat, frames: Int) async throws -> Measurement {
    let source = CameraSource()
    let context = DataCaptureContext()
    await context.setFrameSource(source)
    let progress = Locked<(count: Int, waiter: CheckedContinuation<Void, Never>?)>((0, nil))
    context.addProcessor { _ in
        let waiter = progress.withLock { progress -> CheckedContinuation<Void, Never>? in
            progress.count += 1
            guard progress.count >= frames else { return nil }
            defer { progress.waiter = nil }
            return progress.waiter
        }
        waiter?.resume()
    }
    var before = rusage()
    getrusage(RUSAGE_SELF.rawValue, &before)
    let start = now()
    try await source.startCapture(device: device, format: format)
    await withCheckedContinuation { continuation in
        let done = progress.withLock { progress in
            if progress.count >= frames { return true }
            progress.waiter = continuation
            return false
        }
        if done { continuation.resume() }
    }
    await source.stopCapture()
    let wall = now() - start
    var after = rusage()
    getrusage(RUSAGE_SELF.rawValue, &after)
    let count = progress.withLock { $0.count }
    return Measurement(frames: count, cpuSeconds: cpuSeconds(after) - cpuSeconds(before), wallSeconds: wall)
}

func report(_ line: String) {
    print("VIVID BENCH \(line)")
    fflush(nil)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: v4l2-benchmark DEVICE V4L2CTL [FRAMES]")
    exit(64)
}
let frames = arguments.count > 3 ? Int(arguments[3]) ?? 100 : 100
guard let device = CameraSource.captureDevices.first(where: { $0.path == arguments[1] }) else {
    print("VIVID FAIL benchmark: \(arguments[1]) is not a capture device")
    exit(1)
}
let candidates = CameraSource.supportedFormats(for: device).filter {
    $0.pixelFormat == .yuyv && $0.dimensions == Dimensions(width: 1920, height: 1080)
}
guard let format = candidates.max(by: { $0.frameRate < $1.frameRate }) else {
    print("VIVID FAIL benchmark: \(device) offers no 1920x1080 YUYV format")
    exit(1)
}
do {
    // One short warm-up capture so both runs see the driver in the same state.
    _ = try await measureCameraSource(device: device, format: format, frames: 10)
    guard let reference = measureV4L2Ctl(path: arguments[2], device: device.path, format: format, frames: frames) else {
        print("VIVID FAIL benchmark: \(arguments[2]) did not run to the end")
        exit(1)
    }
    let ours = try await measureCameraSource(device: device, format: format, frames: frames)
    for (name, measurement) in [("v4l2-ctl", reference), ("CameraSource", ours)] {
        report(
            "\(name): \(measurement.frames) frames of \(format), "
                + "CPU \(String(format: measurement.microsecondsPerFrame)) us/frame, "
                + "\(String(format: measurement.framesPerSecond)) fps wall")
    }
    report(
        "ratio CameraSource/v4l2-ctl CPU per frame: \(String(format: ours.microsecondsPerFrame / reference.microsecondsPerFrame))"
    )
} catch {
    print("VIVID FAIL benchmark: \(error)")
    exit(1)
}

extension String {
    init(format value: Double) {
        let scaled = Int((value * 100).rounded())
        let fraction = String(abs(scaled) % 100)
        self = "\(scaled / 100).\(String(repeating: "0", count: 2 - fraction.count))\(fraction)"
    }
}
