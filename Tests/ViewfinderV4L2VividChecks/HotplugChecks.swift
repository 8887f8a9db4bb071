import ViewfinderCore
import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

/// Creates an empty file, the signal the VM's init script waits for.
func touch(_ path: String) {
    let descriptor = open(path, O_CREAT | O_WRONLY, 0o644)
    if descriptor >= 0 { close(descriptor) }
}

/// Watches for vivid being loaded and unloaded by the init script.
func runHotplugChecks(_ runner: CheckRunner, readyFile: String, addedFile: String) async {
    let log = DelegateLog()
    let source = CameraSource(options: .init(announcesDeviceChanges: true), delegate: log)
    touch(readyFile)
    await runner.run("hotplug-added") {
        try expect(
            await wait(upTo: .seconds(60)) { log.all.contains { if case .added = $0.1 { true } else { false } } },
            "no device-added announcement within 60 s of loading vivid")
        let added = log.all.compactMap { if case .added(let device) = $0.1 { device } else { nil } }
        try expect(added.allSatisfy { $0.driver == "vivid" }, "announced devices \(added) are not all vivid's")
        return "announced \(added.map(\.description))"
    }
    touch(addedFile)
    await runner.run("hotplug-removed") {
        try expect(
            await wait(upTo: .seconds(60)) { log.all.contains { if case .removed = $0.1 { true } else { false } } },
            "no device-removed announcement within 60 s of unloading vivid")
        let removed = log.all.compactMap { if case .removed(let device) = $0.1 { device } else { nil } }
        return "announced removal of \(removed.map(\.description))"
    }
    withExtendedLifetime(source) {}
}
