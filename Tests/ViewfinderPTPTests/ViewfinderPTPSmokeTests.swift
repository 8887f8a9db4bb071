import Testing

@testable import ViewfinderPTP

@Test func moduleLoads() {
    #expect(Bool(true))
}
