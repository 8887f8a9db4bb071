import Foundation
import Testing
import Viewfinder
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// `discover`, `camera info`, `props`, `get` and `set` against a simulated Nikon.
    @Suite struct CameraPropertyCommandTests {
        struct CameraJSON: Decodable {
            var manufacturer: String
            var model: String
            var serialNumber: String
            var host: String
            var port: Int
            var functionality: [String]
        }

        struct PropertyJSON: Decodable {
            var name: String
            var displayName: String
            var value: String?
            var settableValues: [String]
            var valueSetType: String
            var category: String
        }

        @Test func discoverSaysWhatAndWhereTheCameraIs() async throws {
            try await CameraUnderTest.with { camera in
                let result = try camera.run("discover", "--family", "nikon")
                #expect(result.status == 0, "\(result)")
                let lines = result.standardOutput.split(separator: "\n").map(String.init)
                #expect(lines.first == "Nikon Corporation Simulated DSLR", "\(result)")
                #expect(lines.contains("  serial number  NK0000001"), "\(result)")
                #expect(lines.contains("  address        127.0.0.1:\(camera.simulator.port)"), "\(result)")

                let json = try camera.run("discover", "--json")
                #expect(json.status == 0, "\(json)")
                let record = try decodeJSON(CameraJSON.self, from: json)
                #expect(record.manufacturer == "Nikon Corporation" && record.model == "Simulated DSLR", "\(json)")
                #expect(record.serialNumber == "NK0000001" && record.host == "127.0.0.1", "\(json)")
                #expect(record.port == Int(camera.simulator.port), "\(json)")
                #expect(record.functionality.contains("liveView"), "\(json)")
                for name in [
                    "directFocusDrive", "heldShutter", "shutterHalfPress", "clockUpdate", "focusInfo", "touchAutoFocus",
                ] {
                    #expect(record.functionality.contains(name), "\(json)")
                }

                // Discovery kept no session: the camera, which serves one client at a time, takes the next one.
                let again = try camera.run("camera", "info")
                #expect(again.status == 0, "\(again)")
            }
        }

        @Test func controlCharactersFromTheCameraAreShownAsEscapes() async throws {
            try await CameraUnderTest.with(model: "Trick\u{1B}[2J\u{7}") { camera in
                let result = try camera.run("discover")
                #expect(result.status == 0, "\(result)")
                #expect(!result.standardOutput.unicodeScalars.contains("\u{1B}"), "\(result)")
                #expect(result.standardOutput.hasPrefix("Nikon Corporation Trick\\u{1B}[2J\\u{07}\n"), "\(result)")
                let json = try camera.run("discover", "--json")
                #expect(try decodeJSON(CameraJSON.self, from: json).model == "Trick\u{1B}[2J\u{7}", "\(json)")
            }
        }

        @Test func infoListsAbilitiesBatteryAndStorageAndPropsOnlyWhatTheCameraHas() async throws {
            try await CameraUnderTest.with(identity: .generic) { camera in
                let result = try camera.run("camera", "info")
                #expect(result.status == 0, "\(result)")
                let output = result.standardOutput
                #expect(output.hasPrefix("Viewfinder Simulated Camera\n"), "\(result)")
                #expect(output.contains("  abilities      stillCapture, fileAccess"), "\(result)")
                #expect(!output.contains("liveView"), "\(result)")
                #expect(output.contains("  battery        100%"), "\(result)")
                #expect(output.contains("  storage        VIEWFINDER: "), "\(result)")

                struct InfoJSON: Decodable {
                    struct Storage: Decodable {
                        var volumeLabel: String
                        var capacityBytes: UInt64?
                        var freeBytes: UInt64?
                    }

                    var camera: CameraJSON
                    var battery: String?
                    var storages: [Storage]
                }
                let json = try camera.run("camera", "info", "--json")
                #expect(json.status == 0, "\(json)")
                let info = try decodeJSON(InfoJSON.self, from: json)
                #expect(info.camera.model == "Simulated Camera" && info.battery == "100%", "\(json)")
                #expect(info.storages.map(\.volumeLabel) == ["VIEWFINDER"], "\(json)")
                let storage = try #require(info.storages.first)
                #expect((storage.freeBytes ?? 0) > 0 && storage.freeBytes ?? 0 <= storage.capacityBytes ?? 0, "\(json)")

                // The generic camera has no drive mode: it is no property of this camera.
                for command in [["get", "drive"], ["get", "drive", "--json"], ["set", "drive", "single"]] {
                    let missing = try Tool.run(["camera"] + command + camera.target)
                    #expect(missing.status == 66, "\(command): \(missing)")
                    #expect(missing.standardError.contains("this camera does not report Drive Mode"), "\(missing)")
                }
                let props = try camera.run("camera", "props")
                #expect(!props.standardOutput.contains("Drive Mode"), "\(props)")
                let all = try camera.run("camera", "props", "--all")
                let rows = all.standardOutput.split(separator: "\n").map {
                    $0.split(separator: " ").joined(separator: " ")
                }
                #expect(rows.contains("drive Drive Mode - - read-only capture-setting"), "\(all)")
            }
        }

        @Test func propsShowValuesAndSettableValuesAsTableAndJSON() async throws {
            try await CameraUnderTest.with { camera in
                let table = try camera.run("camera", "props")
                #expect(table.status == 0, "\(table)")
                let rows = table.standardOutput.split(separator: "\n").map {
                    $0.split(separator: " ").joined(separator: " ")
                }
                #expect(rows.first == "NAME PROPERTY VALUE SET BY SETTABLE VALUES CATEGORY", "\(table)")
                #expect(rows.contains { $0.hasPrefix("iso ISO ISO 100 list ISO 100, ISO 125,") }, "\(table)")
                #expect(rows.contains { $0.hasPrefix("mode Exposure Mode M list M, P, A, S") }, "\(table)")
                #expect(rows.contains("battery Battery 100% - read-only information"), "\(table)")

                let json = try camera.run("camera", "props", "--json")
                #expect(json.status == 0, "\(json)")
                let properties = try decodeJSON([PropertyJSON].self, from: json)
                let byName = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0) })
                #expect(byName["iso"]?.value == "ISO 100", "\(json)")
                #expect(byName["iso"]?.settableValues.contains("ISO 800") == true, "\(json)")
                #expect(byName["aperture"]?.value == "f/5.6", "\(json)")
                #expect(byName["shutter"]?.settableValues.contains("1/250") == true, "\(json)")
                #expect(byName["battery"]?.settableValues == [], "\(json)")
                #expect(byName["iso"]?.valueSetType == "enumeration", "\(json)")
                #expect(byName["battery"]?.valueSetType == "none", "\(json)")
                #expect(byName["ev"]?.displayName == "Exposure Compensation", "\(json)")
                #expect(byName["iso"]?.category == "exposureSetting", "\(json)")
                #expect(byName["battery"]?.category == "information", "\(json)")
            }
        }

        @Test func propsGroupsByCategoryAndListsOneCategory() async throws {
            try await CameraUnderTest.with { camera in
                let table = try camera.run("camera", "props")
                let categories = table.standardOutput.split(separator: "\n").dropFirst().compactMap {
                    $0.split(separator: " ").last.map(String.init)
                }
                // Grouped: each category's rows together, exposure settings first and information after settings.
                var seen: [String] = []
                for category in categories where seen.last != category {
                    #expect(!seen.contains(category), "\(category) in two places: \(table)")
                    seen.append(category)
                }
                #expect(seen.first == "exposure-setting", "\(table)")
                let information = try #require(seen.firstIndex(of: "information"), "\(table)")
                let capture = try #require(seen.firstIndex(of: "capture-setting"), "\(table)")
                #expect(information > capture, "\(table)")

                let exposure = try camera.run("camera", "props", "--category", "exposure-setting", "--json")
                #expect(exposure.status == 0, "\(exposure)")
                let properties = try decodeJSON([PropertyJSON].self, from: exposure)
                #expect(properties.map(\.name) == ["iso", "shutter", "aperture", "ev"], "\(exposure)")
                #expect(properties.allSatisfy { $0.category == "exposureSetting" }, "\(exposure)")

                let readings = try camera.run("camera", "props", "--category", "information")
                let names = readings.standardOutput.split(separator: "\n").dropFirst().map {
                    $0.split(separator: " ").first.map(String.init) ?? ""
                }
                #expect(names == ["focal-length", "lens", "light-meter", "battery", "shots"], "\(readings)")

                let metering = try camera.run("camera", "set", "metering", "spot")
                #expect(metering.status == 0 && metering.standardOutput == "Metering Mode is Spot\n", "\(metering)")
                let focalLength = try camera.run("camera", "get", "focal-length")
                #expect(focalLength.standardOutput == "35 mm\n", "\(focalLength)")
                let meter = try camera.run("camera", "get", "light-meter")
                #expect(meter.standardOutput == "-0.3 EV\n", "\(meter)")
                let lens = try camera.run("camera", "get", "lens")
                #expect(lens.standardOutput == "AF-S Nikkor 35mm 1:1.8G DX\n", "\(lens)")
                let video = try camera.run("camera", "set", "video-format", "640x424")
                #expect(video.standardOutput == "Video Recording Format is 640x424\n", "\(video)")
                #expect(camera.simulator.dialValue(.nikonMovieScreenSize) == 1)
                let badVideo = try camera.run("camera", "set", "video-format", "640x")
                #expect(badVideo.status != 0, "\(badVideo)")
                let quality = try camera.run("camera", "set", "quality", "raw+jpeg-fine")
                #expect(quality.standardOutput == "Image Quality is RAW + JPEG Fine\n", "\(quality)")
                #expect(camera.simulator.dialValue(.compressionSetting) == 7)

                let wrong = try camera.run("camera", "props", "--category", "lens")
                #expect(wrong.status == 64, "\(wrong)")
                #expect(wrong.standardError.contains("there is no property category 'lens'"), "\(wrong)")
                #expect(wrong.standardError.contains("exposure-setting, capture-setting"), "\(wrong)")
            }
        }

        @Test func canonPictureStyleMirrorLockupAndDepthOfFieldPreviewByName() async throws {
            try await CameraUnderTest.with(identity: .canon) { camera in
                let style = try camera.run("camera", "set", "picture-style", "landscape")
                #expect(style.status == 0 && style.standardOutput == "Color Tone is Landscape\n", "\(style)")
                let mirror = try camera.run("camera", "get", "mirror-lockup")
                #expect(mirror.standardOutput == "Off\n", "\(mirror)")
                let preview = try camera.run("camera", "set", "dof-preview", "on")
                #expect(preview.standardOutput == "Depth of Field Preview is On\n", "\(preview)")
                let capture = try camera.run("camera", "props", "--category", "capture-setting")
                #expect(capture.standardOutput.contains("mirror-lockup"), "\(capture)")
                #expect(capture.standardOutput.contains("dof-preview"), "\(capture)")
            }
        }

        @Test func canonLensAndImageQualityByName() async throws {
            try await CameraUnderTest.with(identity: .canon) { camera in
                let lens = try camera.run("camera", "get", "lens")
                #expect(lens.status == 0 && lens.standardOutput == "EF35mm f/2 IS USM\n", "\(lens)")
                let information = try camera.run("camera", "props", "--category", "information")
                #expect(information.standardOutput.contains("lens"), "\(information)")
                let set = try camera.run("camera", "set", "lens", "EF50mm")
                #expect(set.status != 0, "\(set)")
                let quality = try camera.run("camera", "set", "quality", "raw+jpeg-fine")
                #expect(quality.standardOutput == "Image Quality is RAW + JPEG Fine\n", "\(quality)")
                #expect(camera.simulator.canonEOSSetting(.canonEOSImageFormat) == 0x0C03)
            }
        }

        @Test func setTakesValuesAsPeopleWriteThem() async throws {
            try await CameraUnderTest.with { camera in
                let settings = [
                    ("iso", "800", "ISO 800"), ("shutter", "1/250", "1/250"), ("aperture", "f/8", "f/8"),
                    ("white-balance", "daylight", "Daylight"), ("drive", "continuous-high", "Continuous High"),
                    // Exposure compensation applies in the automatic modes: aperture priority first.
                    ("mode", "A", "A"), ("ev", "+1/3", "+⅓"), ("ev", "-1 2/3", "−1⅔"),
                ]
                for (name, value, shown) in settings {
                    let set = try camera.run("camera", "set", name, value)
                    #expect(set.status == 0, "set \(name) \(value): \(set)")
                    #expect(set.standardOutput.hasSuffix(" is \(shown)\n"), "set \(name) \(value): \(set)")
                    let get = try camera.run("camera", "get", name)
                    #expect(get.status == 0 && get.standardOutput == shown + "\n", "get \(name): \(get)")
                }
                let json = try camera.run("camera", "get", "iso", "--json")
                let reading = try decodeJSON(PropertyJSON.self, from: json)
                #expect(reading.name == "iso" && reading.value == "ISO 800", "\(json)")
            }
        }

        @Test func upAndDownStepAndAFormlessPropertyIsARange() async throws {
            try await CameraUnderTest.with(formlessProperties: [.exposureBiasCompensation]) { camera in
                let up = try camera.run("camera", "set", "iso", "up")
                #expect(up.status == 0 && up.standardOutput == "ISO is ISO 125\n", "\(up)")
                let down = try camera.run("camera", "set", "aperture", "down")
                #expect(down.status == 0 && down.standardOutput == "Aperture is f/5\n", "\(down)")

                _ = try camera.run("camera", "set", "mode", "P")
                let table = try camera.run("camera", "props")
                let rows = table.standardOutput.split(separator: "\n").map {
                    $0.split(separator: " ").joined(separator: " ")
                }
                #expect(
                    rows.contains {
                        $0.hasPrefix("ev Exposure Compensation 0 range ")
                            && $0.hasSuffix("(65536 values) exposure-setting")
                    },
                    "\(table)")
                let json = try decodeJSON([PropertyJSON].self, from: try camera.run("camera", "props", "--json"))
                #expect(json.first { $0.name == "ev" }?.valueSetType == "numericRange", "\(json)")
                let step = try camera.run("camera", "set", "ev", "up")
                #expect(step.status == 0, "\(step)")
                // One thousandth of a stop up from 0: still shown as 0, and reached, or the set would have timed out.
                #expect(step.standardOutput == "Exposure Compensation is 0\n", "\(step)")
            }
        }

        @Test func aValueTheCameraDoesNotTakeExits65AndListsWhatItTakes() async throws {
            try await CameraUnderTest.with { camera in
                let iso = try camera.run("camera", "set", "iso", "123")
                #expect(iso.status == 65, "\(iso)")
                #expect(iso.standardError.contains("ISO cannot be set to '123'"), "\(iso)")
                #expect(iso.standardError.contains("ISO 100, ISO 125,"), "\(iso)")

                // In manual exposure the camera offers no exposure compensation to set.
                let ev = try camera.run("camera", "set", "ev", "+1")
                #expect(ev.status == 65, "\(ev)")
                #expect(ev.standardError.contains("Exposure Compensation cannot be set now"), "\(ev)")

                let battery = try camera.run("camera", "set", "battery", "50")
                #expect(battery.status == 65, "\(battery)")

                let unchanged = try camera.run("camera", "get", "iso")
                #expect(unchanged.standardOutput == "ISO 100\n", "\(unchanged)")
            }
        }
    }
}
