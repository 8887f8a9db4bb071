import Testing

@testable import ViewfinderV4L2

@Test func moduleLoads() {
    #expect(Bool(true))
}
