import CV4L2
import ViewfinderCore

@testable import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

extension V4L2Fraction {
    /// The interval of a whole number of frames per second.
    static func fps(_ rate: UInt32) -> V4L2Fraction { V4L2Fraction(numerator: 1, denominator: rate) }
}

extension FakeV4L2System {
    /// Carries out one ioctl on a node's state; returns the request's short name and the result.
    static func handle(
        _ request: UInt, _ argument: UnsafeMutableRawPointer, node: Node, stream: inout Stream, freed: inout [Buffer]
    ) -> (String, CInt) {
        switch request {
        case cv4l2_VIDIOC_QUERYCAP:
            let capability = argument.assumingMemoryBound(to: v4l2_capability.self)
            capability.pointee = v4l2_capability()
            copy(node.driver, to: &capability.pointee.driver)
            copy(node.card, to: &capability.pointee.card)
            copy(node.bus, to: &capability.pointee.bus_info)
            capability.pointee.capabilities = node.capabilities | UInt32(V4L2_CAP_DEVICE_CAPS)
            capability.pointee.device_caps = node.capabilities
            return ("QUERYCAP", 0)
        case cv4l2_VIDIOC_ENUM_FMT:
            let description = argument.assumingMemoryBound(to: v4l2_fmtdesc.self)
            let index = Int(description.pointee.index)
            guard index < node.formats.count else { return ("ENUM_FMT", -EINVAL) }
            description.pointee.pixelformat = node.formats[index].0.rawValue
            return ("ENUM_FMT", 0)
        case cv4l2_VIDIOC_ENUM_FRAMESIZES:
            return ("ENUM_FRAMESIZES", frameSize(argument.assumingMemoryBound(to: v4l2_frmsizeenum.self), node))
        case cv4l2_VIDIOC_ENUM_FRAMEINTERVALS:
            let interval = argument.assumingMemoryBound(to: v4l2_frmivalenum.self)
            guard let entry = node.formats.first(where: { $0.0.rawValue == interval.pointee.pixel_format }),
                Int(interval.pointee.index) < entry.2.count
            else { return ("ENUM_FRAMEINTERVALS", -EINVAL) }
            interval.pointee.type = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
            interval.pointee.discrete = entry.2[Int(interval.pointee.index)].cValue
            return ("ENUM_FRAMEINTERVALS", 0)
        case cv4l2_VIDIOC_G_FMT, cv4l2_VIDIOC_S_FMT:
            let format = argument.assumingMemoryBound(to: v4l2_format.self)
            if request == cv4l2_VIDIOC_S_FMT {
                let wanted = format.pointee.fmt.pix
                let entry = node.formats.first { $0.0.rawValue == wanted.pixelformat } ?? node.formats[0]
                var size = V4L2Size(width: wanted.width, height: wanted.height)
                if case .discrete(let sizes) = entry.1, !sizes.contains(size) { size = sizes[0] }
                let bytesPerLine = entry.0 == .v4l2YUYV ? size.width * 2 : size.width
                let sizeImage = entry.0 == .v4l2YUYV ? bytesPerLine * size.height : size.width * size.height * 3 / 2
                stream.format = V4L2PixelFormat(
                    size: size, pixelFormat: entry.0, bytesPerLine: bytesPerLine, sizeImage: sizeImage)
            }
            format.pointee.fmt.pix.width = stream.format.size.width
            format.pointee.fmt.pix.height = stream.format.size.height
            format.pointee.fmt.pix.pixelformat = stream.format.pixelFormat.rawValue
            format.pointee.fmt.pix.bytesperline = stream.format.bytesPerLine
            format.pointee.fmt.pix.sizeimage = stream.format.sizeImage
            return ("S_FMT", 0)
        case cv4l2_VIDIOC_G_PARM, cv4l2_VIDIOC_S_PARM:
            let parameters = argument.assumingMemoryBound(to: v4l2_streamparm.self)
            if request == cv4l2_VIDIOC_S_PARM {
                stream.interval = V4L2Fraction(parameters.pointee.parm.capture.timeperframe)
            }
            parameters.pointee.parm.capture.capability = UInt32(V4L2_CAP_TIMEPERFRAME)
            parameters.pointee.parm.capture.timeperframe = stream.interval.cValue
            return (request == cv4l2_VIDIOC_S_PARM ? "S_PARM" : "G_PARM", 0)
        case cv4l2_VIDIOC_REQBUFS:
            let request = argument.assumingMemoryBound(to: v4l2_requestbuffers.self)
            guard !stream.streaming else { return ("REQBUFS", -EBUSY) }
            freed += stream.buffers
            stream.buffers = (0..<Int(min(request.pointee.count, 8))).map { _ in
                let length = Int(stream.format.sizeImage)
                return Buffer(memory: .allocate(byteCount: length, alignment: 4096), length: length)
            }
            stream.done = []
            request.pointee.count = UInt32(stream.buffers.count)
            return ("REQBUFS", 0)
        case cv4l2_VIDIOC_QUERYBUF, cv4l2_VIDIOC_QBUF, cv4l2_VIDIOC_DQBUF:
            return buffer(request, argument.assumingMemoryBound(to: v4l2_buffer.self), &stream)
        case cv4l2_VIDIOC_STREAMON:
            if stream.streamOnError {
                stream.streamOnError = false
                return ("STREAMON", -EINVAL)
            }
            stream.streaming = true
            return ("STREAMON", 0)
        case cv4l2_VIDIOC_STREAMOFF:
            stream.streaming = false
            stream.done = []
            for index in stream.buffers.indices { stream.buffers[index].queued = false }
            return ("STREAMOFF", 0)
        default:
            return controlRequest(request, argument, node: node, stream: &stream)
        }
    }

    private static func frameSize(_ size: UnsafeMutablePointer<v4l2_frmsizeenum>, _ node: Node) -> CInt {
        guard let entry = node.formats.first(where: { $0.0.rawValue == size.pointee.pixel_format }) else {
            return -EINVAL
        }
        let index = Int(size.pointee.index)
        switch entry.1 {
        case .discrete(let sizes):
            guard index < sizes.count else { return -EINVAL }
            size.pointee.type = V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
            size.pointee.discrete = v4l2_frmsize_discrete(width: sizes[index].width, height: sizes[index].height)
        case .stepwise(let minimum, let maximum, let step):
            guard index == 0 else { return -EINVAL }
            size.pointee.type = V4L2_FRMSIZE_TYPE_STEPWISE.rawValue
            size.pointee.stepwise = v4l2_frmsize_stepwise(
                min_width: minimum.width, max_width: maximum.width, step_width: step.width,
                min_height: minimum.height, max_height: maximum.height, step_height: step.height)
        case .continuous(let minimum, let maximum):
            guard index == 0 else { return -EINVAL }
            size.pointee.type = V4L2_FRMSIZE_TYPE_CONTINUOUS.rawValue
            size.pointee.stepwise = v4l2_frmsize_stepwise(
                min_width: minimum.width, max_width: maximum.width, step_width: 1,
                min_height: minimum.height, max_height: maximum.height, step_height: 1)
        }
        return 0
    }

    private static func buffer(
        _ request: UInt, _ buffer: UnsafeMutablePointer<v4l2_buffer>, _ stream: inout Stream
    ) -> (String, CInt) {
        switch request {
        case cv4l2_VIDIOC_QUERYBUF:
            let index = Int(buffer.pointee.index)
            guard index < stream.buffers.count else { return ("QUERYBUF", -EINVAL) }
            buffer.pointee.length = UInt32(stream.buffers[index].length)
            buffer.pointee.m.offset = UInt32(index * 4096)
            return ("QUERYBUF", 0)
        case cv4l2_VIDIOC_QBUF:
            let index = Int(buffer.pointee.index)
            guard index < stream.buffers.count, !stream.buffers[index].queued else { return ("QBUF", -EINVAL) }
            stream.buffers[index].queued = true
            return ("QBUF", 0)
        default:
            if stream.fatalError { return ("DQBUF", -EIO) }
            guard !stream.done.isEmpty else { return ("DQBUF", -EAGAIN) }
            let (index, sequence, bytesUsed) = stream.done.removeFirst()
            buffer.pointee.index = UInt32(index)
            buffer.pointee.sequence = sequence
            buffer.pointee.bytesused = bytesUsed ?? stream.format.sizeImage
            buffer.pointee.timestamp = timeval(tv_sec: Int(sequence) / 30, tv_usec: Int(sequence) % 30 * 33_333)
            return ("DQBUF", 0)
        }
    }

    private static func controlRequest(
        _ request: UInt, _ argument: UnsafeMutableRawPointer, node: Node, stream: inout Stream
    ) -> (String, CInt) {
        switch request {
        case cv4l2_VIDIOC_QUERY_EXT_CTRL:
            let query = argument.assumingMemoryBound(to: v4l2_query_ext_ctrl.self)
            let flags = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) | UInt32(V4L2_CTRL_FLAG_NEXT_COMPOUND)
            let wanted = query.pointee.id & ~flags
            let next = query.pointee.id & flags != 0
            // Drivers enumerate controls in identifier order.
            let sorted = node.controls.sorted { $0.id < $1.id }
            guard let info = sorted.first(where: { next ? $0.id > wanted : $0.id == wanted }) else {
                return ("QUERY_EXT_CTRL", -EINVAL)
            }
            query.pointee = v4l2_query_ext_ctrl()
            query.pointee.id = info.id
            query.pointee.type = info.typeNumber
            copy(info.name, to: &query.pointee.name)
            query.pointee.minimum = info.minimum
            query.pointee.maximum = info.maximum
            query.pointee.step = info.step
            query.pointee.default_value = info.defaultValue
            query.pointee.flags = info.flags | (isInactive(info.id, node: node, stream: stream) ? inactiveFlag : 0)
            return ("QUERY_EXT_CTRL", 0)
        case cv4l2_VIDIOC_QUERYMENU:
            let menu = argument.assumingMemoryBound(to: v4l2_querymenu.self)
            guard let info = node.controls.first(where: { $0.id == menu.pointee.id }),
                let entry = info.menu.first(where: { $0.index == Int64(menu.pointee.index) })
            else { return ("QUERYMENU", -EINVAL) }
            withUnsafeMutableBytes(of: &menu.pointee) { bytes in
                let name = Array(entry.name.utf8.prefix(31)) + [0]
                bytes.baseAddress!.advanced(by: 8).copyMemory(from: name, byteCount: name.count)
            }
            return ("QUERYMENU", 0)
        case cv4l2_VIDIOC_G_CTRL, cv4l2_VIDIOC_S_CTRL:
            let control = argument.assumingMemoryBound(to: v4l2_control.self)
            guard let info = node.controls.first(where: { $0.id == control.pointee.id }) else {
                return ("G_CTRL", -EINVAL)
            }
            if request == cv4l2_VIDIOC_S_CTRL {
                guard (info.minimum...info.maximum).contains(Int64(control.pointee.value)) else {
                    return ("S_CTRL", -ERANGE)
                }
                stream.values[info.id] = control.pointee.value
            }
            control.pointee.value = stream.values[info.id] ?? Int32(info.defaultValue)
            return (request == cv4l2_VIDIOC_S_CTRL ? "S_CTRL" : "G_CTRL", 0)
        default:
            return ("unknown", -ENOTTY)
        }
    }

    private static let inactiveFlag = UInt32(V4L2_CTRL_FLAG_INACTIVE)

    /// Whether an automatic switch that is on governs the control.
    private static func isInactive(_ id: UInt32, node: Node, stream: Stream) -> Bool {
        node.automaticSwitches.contains { automatic, governed in
            let value =
                stream.values[automatic]
                ?? node.controls.first { $0.id == automatic }.map {
                    Int32($0.defaultValue)
                }
            return governed.contains(id) && value != 0
        }
    }

    private static func copy<Tuple>(_ string: String, to tuple: inout Tuple) {
        withUnsafeMutableBytes(of: &tuple) { bytes in
            let utf8 = Array(string.utf8.prefix(bytes.count - 1))
            bytes.copyBytes(from: utf8)
            bytes[utf8.count] = 0
        }
    }
}

extension V4L2ControlInfo {
    /// The kernel's type number, for the fake to report.
    var typeNumber: UInt32 {
        switch type {
        case .integer: V4L2_CTRL_TYPE_INTEGER.rawValue
        case .boolean: V4L2_CTRL_TYPE_BOOLEAN.rawValue
        case .menu: V4L2_CTRL_TYPE_MENU.rawValue
        case .button: V4L2_CTRL_TYPE_BUTTON.rawValue
        case .integer64: V4L2_CTRL_TYPE_INTEGER64.rawValue
        case .string: V4L2_CTRL_TYPE_STRING.rawValue
        case .bitmask: V4L2_CTRL_TYPE_BITMASK.rawValue
        case .integerMenu: V4L2_CTRL_TYPE_INTEGER_MENU.rawValue
        case .other(let number): number
        }
    }
}
