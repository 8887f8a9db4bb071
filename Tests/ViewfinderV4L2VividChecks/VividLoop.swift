import CV4L2
import ViewfinderCore
import ViewfinderV4L2

/// vivid's HDMI loop: its output node's frames shown on its capture node, for checks that write frames and read
/// them back (the capture node's HDMI input, the output node's HDMI output, the capture device's Loop Video control
/// on and its on-screen text off).
struct VividLoop {
    /// The capture node, on its HDMI input, set to YUYV at the input's size.
    let capture: V4L2Device
    /// The output node, on its HDMI output.
    let output: V4L2Device
    /// The capture node as a capture device, for `CameraSource`.
    let device: CaptureDevice
    /// The HDMI input's frame size, from its timings.
    let size: (width: UInt32, height: UInt32)
    private let loopControl: UInt32

    /// Sets the loop up; ``restore()`` puts the capture node back on its webcam input.
    init(capturePath: String, outputPath: String) throws {
        capture = try V4L2Device(path: capturePath)
        output = try V4L2Device(path: outputPath)
        var input = try Self.index(of: "HDMI", in: capture, request: cv4l2_VIDIOC_ENUMINPUT)
        try capture.control(cv4l2_VIDIOC_S_INPUT, "VIDIOC_S_INPUT", &input)
        var outputIndex = try Self.index(of: "HDMI", in: output, request: cv4l2_VIDIOC_ENUMOUTPUT)
        try output.control(cv4l2_VIDIOC_S_OUTPUT, "VIDIOC_S_OUTPUT", &outputIndex)
        let inputSize = try capture.format().size
        let captureFormat = try capture.setFormat("YUYV", size: inputSize)
        try expect(captureFormat.pixelFormat == "YUYV", "the capture node took \(captureFormat)")
        size = (inputSize.width, inputSize.height)
        device = CaptureDevice(path: capturePath, name: "", bus: "", driver: "", capabilities: 0)
        let controls = try CameraSource.controls(for: device)
        let loop = try require(controls.first { $0.name == "Loop Video" }, "no Loop Video control")
        try CameraSource.setValue(1, ofControl: loop.id, on: device)
        loopControl = loop.id
        if let osd = controls.first(where: { $0.name == "OSD Text Mode" }),
            let none = osd.menu.first(where: { $0.name == "None" })
        {
            try CameraSource.setValue(Int32(none.index), ofControl: osd.id, on: device)
        }
    }

    /// Turns the loop off and puts the capture node back on its webcam input, for the later phases.
    func restore() {
        _ = try? CameraSource.setValue(0, ofControl: loopControl, on: device)
        var webcam: CInt = 0
        _ = try? capture.control(cv4l2_VIDIOC_S_INPUT, "VIDIOC_S_INPUT", &webcam)
    }

    /// The index of the first input or output whose name starts with `prefix` (`VIDIOC_ENUMINPUT` or
    /// `VIDIOC_ENUMOUTPUT`).
    private static func index(of prefix: String, in device: V4L2Device, request: UInt) throws -> CInt {
        for index in 0..<16 {
            // v4l2_input and v4l2_output both start with the index, then the name.
            var entry = v4l2_input()
            entry.index = UInt32(index)
            do {
                try device.control(request, "enumerate inputs or outputs", &entry)
            } catch {
                break
            }
            if V4L2Capability.string(entry.name).hasPrefix(prefix) { return CInt(index) }
        }
        throw CheckFailure(description: "\(device.path) has no \(prefix) input or output")
    }
}
