import Testing

@testable import ViewfinderCore

@Test func moduleLoads() {
    #expect(Bool(true))
}
