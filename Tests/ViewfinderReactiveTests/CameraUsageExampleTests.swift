import Dispatch
import Testing
import ViewfinderReactive
import ViewfinderSystem

/// A camera-shaped API written the way camera SDKs use Combine, backed by subjects: property publishers, a
/// recording state and a paced live view.
private final class Camera: Sendable {
    enum Property {
        case shutterSpeed, aperture, iso
    }

    enum VideoRecordingState {
        case notRecording
        case recording(Int?)
    }

    let shutterSpeed = CurrentValueSubject<String?, Never>("1/125")
    let aperture = CurrentValueSubject<String?, Never>("f/4")
    let iso = CurrentValueSubject<String?, Never>("100")
    let settableShutterSpeeds = CurrentValueSubject<[String], Never>(["1/125", "1/250"])
    let recording = CurrentValueSubject<VideoRecordingState, Never>(.notRecording)
    let liveView = LiveViewPublisher(limit: 20)

    func valuePublisher(for property: Property) -> AnyPublisher<String?, Never> {
        switch property {
        case .shutterSpeed: shutterSpeed.eraseToAnyPublisher()
        case .aperture: aperture.eraseToAnyPublisher()
        case .iso: iso.eraseToAnyPublisher()
        }
    }

    func settableValuesPublisher(for property: Property) -> AnyPublisher<[String], Never> {
        settableShutterSpeeds.eraseToAnyPublisher()
    }

    func videoRecordingStatePublisher() -> AnyPublisher<VideoRecordingState, Never> {
        recording.eraseToAnyPublisher()
    }

    func liveViewPublisher(options: [String: Bool]) -> LiveViewPublisher {
        liveView
    }
}

private func processFrameSynchronously(_ frame: Frame) -> Int {
    frame.number * 10
}

/// Usage examples of such an API, as its users would write them.
@Suite(.timeLimit(.minutes(1))) struct CameraUsageExampleTests {
    @Test func valueAndSettableValuesPublishers() {
        let camera = Camera()
        let lines = Locked<[String]>([])
        let values = camera.valuePublisher(for: .shutterSpeed).sink { shutterSpeed in
            lines.withLock { $0.append("The current shutter speed is: \(shutterSpeed ?? "nil")") }
        }
        let settable = camera.settableValuesPublisher(for: .shutterSpeed).sink { shutterSpeeds in
            lines.withLock { $0.append("Valid shutter speeds are: \(shutterSpeeds.compactMap { $0 })") }
        }
        camera.shutterSpeed.send(nil)
        #expect(
            lines.withLock { $0 } == [
                "The current shutter speed is: 1/125",
                #"Valid shutter speeds are: ["1/125", "1/250"]"#,
                "The current shutter speed is: nil",
            ]
        )
        values.cancel()
        settable.cancel()
    }

    @Test func videoRecordingStateSwitch() {
        let camera = Camera()
        let labels = Locked<[String]>([])
        let cancellable = camera.videoRecordingStatePublisher().sink { recordingState in
            let text =
                switch recordingState {
                case .notRecording: "Not Recording"
                case .recording(let timer?): "Recording: \(timer)"
                case .recording(_): "Recording"
                }
            labels.withLock { $0.append(text) }
        }
        camera.recording.send(.recording(nil))
        camera.recording.send(.recording(12))
        #expect(labels.withLock { $0 } == ["Not Recording", "Recording", "Recording: 12"])
        cancellable.cancel()
    }

    @Test func exposureTriangleWithCombineLatestAndFlatten() {
        let camera = Camera()
        let lines = Locked<[String]>([])
        let cancellable = camera.valuePublisher(for: .shutterSpeed)
            .combineLatest(camera.valuePublisher(for: .aperture))
            .combineLatest(camera.valuePublisher(for: .iso))
            .flatten()
            .sink { shutter, aperture, iso in
                lines.withLock { $0.append("Exposure triangle values: \(shutter!), \(aperture!), \(iso!)") }
            }
        camera.iso.send("400")
        camera.aperture.send("f/2.8")
        #expect(
            lines.withLock { $0 } == [
                "Exposure triangle values: 1/125, f/4, 100",
                "Exposure triangle values: 1/125, f/4, 400",
                "Exposure triangle values: 1/125, f/2.8, 400",
            ]
        )
        cancellable.cancel()
    }

    @Test func liveViewProcessedSynchronouslyAfterReceiveOn() async {
        let camera = Camera()
        let ended = Signal()
        let results = Locked<[Int]>([])
        let cancellable = camera.liveViewPublisher(options: ["skipImageDecoding": true])
            .receive(on: DispatchQueue.global(qos: .default))
            .sinkWithReadyHandler { completion in
                print("Live view ended with completion reason: \(completion)")
                ended.raise()
            } receiveValue: { frame, readyForNextFrame in
                let result = processFrameSynchronously(frame)
                results.withLock { $0.append(result) }
                readyForNextFrame()
            }
        await ended.wait()
        #expect(results.withLock { $0 } == Array(stride(from: 10, through: 200, by: 10)))
        #expect(camera.liveView.requests.allSatisfy { $0 == .max(1) })
        #expect(camera.liveView.warnings.isEmpty)
        cancellable.cancel()
    }

    @Test func liveViewRenderedAsynchronouslyFetchesOnlyWhenReady() async {
        let camera = Camera()
        let ended = Signal()
        let rendered = Recorder<Int>()
        let overfetched = Recorder<Int>()
        let liveView = camera.liveView
        let cancellable = camera.liveViewPublisher(options: ["skipImageDecoding": true])
            .receive(on: DispatchQueue.global(qos: .default))
            .sinkWithReadyHandler { completion in
                print("Live view ended with completion reason: \(completion)")
                ended.raise()
            } receiveValue: { frame, readyForNextFrame in
                let result = processFrameSynchronously(frame)
                DispatchQueue.main.async {
                    // Rendering an image to screen still takes some time.
                    rendered.append(result)
                    // No frame beyond this one was fetched before it was rendered.
                    if liveView.fetched > result / 10 { overfetched.append(result) }
                    readyForNextFrame()
                }
            }
        await ended.wait()
        #expect(rendered.values == Array(stride(from: 10, through: 200, by: 10)))
        #expect(overfetched.values.isEmpty)
        cancellable.cancel()
    }
}
