import Testing

@testable import ViewfinderReactive

@Test func moduleLoads() {
    #expect(Bool(true))
}
