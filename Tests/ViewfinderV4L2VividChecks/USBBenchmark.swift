import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPUSB
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Measures a large download over USB: the PTP over USB transport against `gphoto2 --get-file`, the same file from
/// the same gadget (`viewfinder simulate --usb` with a generated file of `megabytes` MB as the card's only file), in
/// the same run, gphoto2 first.
///
/// The figures are throughput (MB/s of wall time) and CPU per MB: this process's whole CPU during its download, and
/// gphoto2's (its shell waits for it, so the shell's resource usage holds it), writing to `/dev/null`. The target is
/// at least gphoto2's throughput at no more than half its CPU per MB. Prints the figures and returns whether the
/// target was met.
func runUSBBenchmark(tool: String, gphoto2: String, megabytes: Int) async -> Bool {
    func say(_ line: String) { print("VIVID BENCH usb: \(line)") }
    let name = "BIG.BIN"
    let size = Double(megabytes) * 1_000_000
    do {
        let simulator = try ChildProcess(
            tool, ["simulate", "--usb", "--sample-images", "0", "--generated-file", "\(name):\(megabytes)000000"])
        defer {
            simulator.interrupt()
            _ = simulator.wait(timeout: .seconds(10))
        }
        var found: USBCameraDevice?
        _ = await wait(upTo: .seconds(60)) {
            found = (try? USBCameraDevice.all())?.first
            return found != nil
        }
        let device = try require(found, "no USB camera: \(simulator.standardOutput)")

        // gphoto2 first: the card's only file, to /dev/null.
        let port = "usb:\(String(format: "%03d", device.bus)),\(String(format: "%03d", device.address))"
        let listing = try ChildProcess.run(
            gphoto2, ["--port", port, "--list-files"], environment: ["HOME": "/tmp"], mergingErrors: true)
        // "There is 1 file in folder '/store_00010001/DCIM/100VFNDR'."; other folders say "no file".
        let folder = try require(
            listing.standardOutput.split(separator: "\n").compactMap { line -> String? in
                guard line.contains("folder '"), !line.contains("no file") else { return nil }
                return line.split(separator: "'").dropFirst().first.map(String.init)
            }.first, "gphoto2 lists no folder with the file: \(listing)")
        let recipe = try ChildProcess.run(
            "/bin/sh",
            [
                "-c",
                "\(gphoto2) --port \(port) --folder '\(folder)' --get-file 1 --stdout > /dev/null 2>/tmp/gphoto2-get.log",
            ], environment: ["HOME": "/tmp"], timeout: .seconds(600))
        if recipe.status != 0 {
            let log = (try? FileDescriptor.open("/tmp/gphoto2-get.log", O_RDONLY).readAll(limit: 1 << 20)) ?? []
            throw CheckFailure(
                description: "gphoto2 --get-file in \(folder) failed with \(recipe.status): "
                    + String(decoding: log.suffix(1500), as: UTF8.self))
        }
        let theirs = recipe.cpuSeconds
        let theirRate = Double(megabytes) / recipe.wallSeconds
        say(
            "gphoto2 --get-file: \(megabytes) MB in \(String(format: "%.1f", recipe.wallSeconds)) s, "
                + "\(String(format: "%.1f", theirRate)) MB/s, \(String(format: "%.2f", theirs * 1000 / Double(megabytes))) "
                + "ms CPU/MB")

        // Then Viewfinder: the object received straight into memory.
        let session = try await PTPSession.open(over: try PTPUSBTransport(device: device))
        let storage = try require(try await session.storageIDs().first, "no storage")
        var handle: UInt32?
        for candidate in try await session.objectHandles(storageID: storage)
        where try await session.objectInfo(candidate).filename == name {
            handle = candidate
        }
        let object = try require(handle, "no \(name) on the camera")
        let (cpuBefore, start) = (processCPUSeconds(), ContinuousClock.now)
        let bytes = try await session.object(object)
        let (ours, ourWall) = (processCPUSeconds() - cpuBefore, start.duration(to: .now))
        await session.close()
        try expect(Double(bytes.count) == size, "downloaded \(bytes.count) of \(Int(size)) bytes")
        let ourRate = Double(megabytes) / ourWall.inSeconds
        say(
            "viewfinder: \(megabytes) MB in \(String(format: "%.1f", ourWall.inSeconds)) s, "
                + "\(String(format: "%.1f", ourRate)) MB/s, \(String(format: "%.2f", ours * 1000 / Double(megabytes))) ms CPU/MB"
        )

        let met = ourRate >= theirRate && ours <= theirs / 2
        say(
            "throughput \(String(format: "%.2f", ourRate / theirRate))× gphoto2's, CPU per MB "
                + "\(String(format: "%.2f", ours / theirs))× gphoto2's; target ≥ 1× and ≤ 0.5×: "
                + (met ? "met" : "NOT MET"))
        return met
    } catch {
        say("FAIL \(error)")
        return false
    }
}

/// This process's CPU time so far, user and system, all threads.
private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
