import Testing

@testable import ViewfinderImaging

@Test func moduleLoads() {
    #expect(Bool(true))
}
