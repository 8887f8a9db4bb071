import Testing
import ViewfinderCore

/// Moments on a camera's clock: their ISO 8601 form and their order.
@Suite struct CameraClockTimeTests {
    @Test func showsTheMomentInUTC() {
        #expect(CameraClockTime(secondsSince1970: 0).description == "1970-01-01T00:00:00Z")
        #expect(CameraClockTime(secondsSince1970: 1_000_000_000).description == "2001-09-09T01:46:40Z")
        #expect(CameraClockTime(secondsSince1970: 1_796_563_800).description == "2026-12-06T13:30:00Z")
    }

    @Test func ordersByTime() {
        #expect(CameraClockTime(secondsSince1970: 5) < CameraClockTime(secondsSince1970: 6))
        #expect(CameraClockTime.now() > CameraClockTime(secondsSince1970: 1_796_563_800))
    }
}
