import Testing

@testable import Viewfinder

@Test func moduleLoads() {
    #expect(Bool(true))
}
