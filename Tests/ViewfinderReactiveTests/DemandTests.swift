import Testing
import ViewfinderReactive

@Suite struct DemandTests {
    typealias Demand = Subscribers.Demand

    @Test func countsAndUnlimited() {
        #expect(Demand.max(3).max == 3)
        #expect(Demand.none.max == 0)
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.max(-5) == .none)
        #expect(Demand.max(2).description == "max(2)")
        #expect(Demand.unlimited.description == "unlimited")
    }

    @Test func additionSaturates() {
        #expect(Demand.max(2) + .max(3) == .max(5))
        #expect(Demand.max(2) + .unlimited == .unlimited)
        #expect(Demand.unlimited + .max(1) == .unlimited)
        #expect(Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Demand.max(2) + 3 == .max(5))
        #expect(Demand.max(5) + -2 == .max(3))
        #expect(Demand.max(5) + Int.min == .none)
    }

    @Test func subtractionStopsAtNone() {
        #expect(Demand.max(5) - .max(2) == .max(3))
        #expect(Demand.max(2) - .max(5) == .none)
        #expect(Demand.unlimited - .max(5) == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(5) - .unlimited == .none)
        #expect(Demand.max(5) - 1 == .max(4))
        #expect(Demand.max(5) - -1 == .max(6))
        #expect(Demand.max(0) - Int.min == .max(Int.max))
    }

    @Test func multiplicationSaturates() {
        #expect(Demand.max(3) * 4 == .max(12))
        #expect(Demand.max(3) * 0 == .none)
        #expect(Demand.max(3) * -2 == .none)
        #expect(Demand.unlimited * 2 == .unlimited)
        #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
    }

    @Test func compoundAssignment() {
        var demand = Demand.max(1)
        demand += .max(2)
        #expect(demand == .max(3))
        demand -= .max(1)
        #expect(demand == .max(2))
        demand += 3
        #expect(demand == .max(5))
        demand -= 4
        #expect(demand == .max(1))
        demand *= 6
        #expect(demand == .max(6))
    }

    @Test func comparisons() {
        #expect(Demand.max(1) < .max(2))
        #expect(Demand.max(Int.max) < .unlimited)
        #expect(!(Demand.unlimited < .max(Int.max)))
        #expect(Demand.max(1) > 0)
        #expect(!(Demand.none > 0))
        #expect(Demand.unlimited > Int.max)
        #expect(Demand.unlimited != Int.max)
        #expect(Demand.max(4) == 4)
        #expect(4 == Demand.max(4))
        #expect(Demand.max(4) >= 4)
        #expect(Demand.max(4) <= 4)
        #expect(Demand.max(4) < 5)
        #expect(!(Demand.unlimited <= Int.max))
        #expect(3 < Demand.max(4))
        #expect(5 > Demand.max(4))
        #expect(4 <= Demand.unlimited)
        #expect(!(4 >= Demand.unlimited))
        #expect(Demand.none < 1)
        #expect(!(Demand.none < 0))
        #expect(Demand.none != -1)
    }
}
