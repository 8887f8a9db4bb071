import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// Vendor codes mean something only with the camera's vendor: the dialect is chosen from the vendor extension
    /// and the manufacturer, never from the operation list.
    @Suite(.timeLimit(.minutes(3))) struct DialectChoiceTests {
        /// The codes Nikon uses for live view and movies, which Sony uses for its SDIO operations.
        static let nikonLiveViewCodes: [PTPOperationCode] = [
            .nikonStartLiveView, .nikonEndLiveView, .nikonGetLiveViewImage, .nikonStartMovieRecording,
            .nikonEndMovieRecording,
        ]

        static func deviceInfo(vendor: UInt32, manufacturer: String, listingNikonCodes: Bool = true) -> PTPDeviceInfo {
            PTPDeviceInfo(
                standardVersion: 100, vendorExtensionID: vendor, vendorExtensionVersion: 100,
                vendorExtensionDescription: "", operationsSupported: listingNikonCodes ? nikonLiveViewCodes : [],
                eventsSupported: [], devicePropertiesSupported: [], captureFormats: [], imageFormats: [],
                manufacturer: manufacturer, model: "Model", deviceVersion: "1.0", serialNumber: "1")
        }

        @Test func theVendorChoosesTheDialect() {
            let cases: [(UInt32, String, String)] = [
                (0x0A, "Nikon Corporation", "Nikon"),
                (0x06, "Nikon Corporation", "Nikon"),  // a Nikon that reports Microsoft's MTP extension
                (0xFFFF_FFFF, "NIKON", "Nikon"),
                (0xFFFF_FFFF, "Sony Corporation", "Sony"),  // a Sony over PTP/IP reports MTP's extension
                (0x11, "Sony Corporation", "Sony"),
                (0x06, "Some Phone Maker", "standard PTP"),
                (0x0B, "Canon Inc.", "standard PTP"),
            ]
            for (vendor, manufacturer, expected) in cases {
                let dialect = PTPDialects.dialect(for: Self.deviceInfo(vendor: vendor, manufacturer: manufacturer))
                #expect(dialect.name == expected, "\(vendor) \(manufacturer)")
            }
            // A Sony without the SDIO operations (older compacts in PTP mode) is standard PTP.
            let compact = Self.deviceInfo(vendor: 0x11, manufacturer: "Sony Corporation", listingNikonCodes: false)
            #expect(PTPDialects.dialect(for: compact).name == "standard PTP")
        }

        /// A Sony listing 0x9201, 0x9203, 0x920A and 0x920B is sent no Nikon live view or movie operation.
        ///
        /// Those are SDIO connect and its friends on a Sony. Without GetExtDeviceInfo (0x9202) it is not a body the Sony
        /// dialect speaks to, so it is standard PTP, with neither live view nor recording.
        @Test func aSonyListingNikonCodesGetsNoNikonLiveViewOrRecording() async throws {
            var configuration = CameraSimulator.Configuration(identity: .nikon)
            configuration.deviceInfoChanges = { info in
                info.vendorExtensionID = 0xFFFF_FFFF
                info.vendorExtensionDescription = ""
                info.manufacturer = "Sony Corporation"
                info.model = "ILCE-7M3"
                info.operationsSupported.removeAll { $0 == .nikonEndLiveView }
            }
            try await CameraHarness.run(configuration) { harness in
                let camera = harness.camera
                let listed = try #require(camera.ptpDeviceInfo?.operationsSupported)
                #expect(Self.nikonLiveViewCodes.filter { $0 != .nikonEndLiveView }.allSatisfy(listed.contains))
                #expect(camera.dialectName == "standard PTP")
                #expect(!camera.supportedFunctionality.contains(.liveView))
                #expect(!camera.supportedFunctionality.contains(.videoRecording))
                #expect(camera.supportedFunctionality.contains(.stillCapture))
                let recording = await #expect(throws: ViewfinderError.self) { try await camera.startVideoRecording() }
                #expect(recording?.code == .notAvailable)
                // The simulator is a Nikon underneath: had the client sent StartLiveView, live view would be on.
                let status = try await harness.session.propertyValue(.nikonLiveViewStatus, of: .uint8)
                #expect(status == .uint8(0))
            }
        }

        @Test func theSameCameraAsANikonHasBoth() async throws {
            try await CameraHarness.run(CameraSimulator.Configuration(identity: .nikon)) { harness in
                #expect(harness.camera.dialectName == "Nikon")
                #expect(harness.camera.supportedFunctionality.isSuperset(of: [.liveView, .videoRecording]))
            }
        }
    }
}
