import Testing
import ViewfinderSystem

@testable import ViewfinderCore

/// Collects the results the machine's completions receive, by request name.
private final class Outcomes: Sendable {
    private let results = Locked<[String: String]>([:])

    func completion(_ name: String) -> FrameSourceStateMachine.Completion {
        { result in self.results.withLock { $0[name] = result.description } }
    }

    subscript(name: String) -> String? { results.withLock { $0[name] } }
}

private func run(_ effects: FrameSourceStateMachine.Effects) {
    for (completion, result) in effects.completions { completion(result) }
}

@Suite struct FrameSourceStateMachineTests {
    @Test func everyPairOfRequestableStatesIsOneTransition() {
        let requestable: [FrameSourceState] = [.off, .on, .standby]
        for source in requestable {
            for target in requestable where source != target {
                let transition = FrameSourceTransition(from: source, to: target)
                #expect(transition?.source == source)
                #expect(transition?.target == target)
                #expect(transition?.transitionalState.isTransitional == true)
            }
            #expect(FrameSourceTransition(from: source, to: source) == nil)
        }
        #expect(FrameSourceTransition(from: .starting, to: .on) == nil)
        #expect(Set(FrameSourceTransition.allCases.map(\.transitionalState)).count == 6)
        #expect(FrameSourceState.allCases.filter { !$0.isTransitional } == [.off, .on, .standby])
    }

    @Test func requestingTheCurrentStateSucceedsAtOnce() {
        var machine = FrameSourceStateMachine()
        let outcomes = Outcomes()
        let effects = machine.request(.off, completion: outcomes.completion("off"))
        #expect(effects.transition == nil)
        #expect(effects.changes.isEmpty)
        run(effects)
        #expect(outcomes["off"] == "reached")
    }

    @Test func aTransitionShowsItsTransitionalStateUntilItFinishes() {
        var machine = FrameSourceStateMachine()
        let outcomes = Outcomes()
        let started = machine.request(.on, completion: outcomes.completion("on"))
        #expect(started.transition == .start)
        #expect(started.changes.map(\.description) == ["off → starting"])
        #expect(machine.currentState == .starting)
        #expect(machine.desiredState == .on)
        run(started)
        #expect(outcomes["on"] == nil)

        let finished = machine.finish(.start, error: nil)
        #expect(finished.changes.map(\.description) == ["starting → on"])
        #expect(finished.transition == nil)
        run(finished)
        #expect(outcomes["on"] == "reached")
        #expect(machine.currentState == .on)
    }

    @Test func onlyTheLatestWaitingRequestIsCarriedOut() {
        var machine = FrameSourceStateMachine()
        let outcomes = Outcomes()
        run(machine.request(.on, completion: outcomes.completion("first")))
        run(machine.request(.off, completion: outcomes.completion("second")))
        #expect(outcomes["second"] == nil)
        run(machine.request(.standby, completion: outcomes.completion("third")))
        #expect(outcomes["second"] == "superseded")
        #expect(machine.desiredState == .standby)
        #expect(machine.currentState == .starting)

        let finished = machine.finish(.start, error: nil)
        run(finished)
        #expect(outcomes["first"] == "reached")
        #expect(finished.transition == .goToSleep)
        #expect(machine.currentState == .goingToSleep)
        run(machine.finish(.goToSleep, error: nil))
        #expect(outcomes["third"] == "reached")
        #expect(machine.currentState == .standby)
    }

    @Test func aWaitingRequestForTheReachedStateNeedsNoTransition() {
        var machine = FrameSourceStateMachine()
        let outcomes = Outcomes()
        run(machine.request(.on, completion: outcomes.completion("first")))
        run(machine.request(.on, completion: outcomes.completion("again")))
        let finished = machine.finish(.start, error: nil)
        #expect(finished.transition == nil)
        run(finished)
        #expect(outcomes["first"] == "reached")
        #expect(outcomes["again"] == "reached")
    }

    @Test func aFailedTransitionFallsBackAndReportsTheError() {
        var machine = FrameSourceStateMachine()
        let outcomes = Outcomes()
        run(machine.request(.on, completion: outcomes.completion("on")))
        let error = ViewfinderError(.deviceBusy, "in use")
        let finished = machine.finish(.start, error: error)
        run(finished)
        #expect(machine.currentState == .off)
        #expect(machine.desiredState == .off)
        #expect(outcomes["on"] == "failed: deviceBusy: in use")
        #expect(finished.changes.count == 1)
        #expect((finished.changes.first?.error as? ViewfinderError)?.code == .deviceBusy)
    }

    @Test func aRequestWaitingBehindAFailureIsStillCarriedOut() {
        var machine = FrameSourceStateMachine()
        let outcomes = Outcomes()
        run(machine.request(.standby, completion: outcomes.completion("standby")))
        run(machine.request(.on, completion: outcomes.completion("on")))
        let finished = machine.finish(.bootUp, error: ViewfinderError(.timeout, "slow"))
        #expect(machine.desiredState == .on)
        #expect(finished.transition == .start)
        run(finished)
        #expect(outcomes["standby"]?.hasPrefix("failed") == true)
        run(machine.finish(.start, error: nil))
        #expect(outcomes["on"] == "reached")
    }

    @Test func transitionalStatesCannotBeRequested() {
        var machine = FrameSourceStateMachine()
        let outcomes = Outcomes()
        let effects = machine.request(.starting, completion: outcomes.completion("starting"))
        run(effects)
        #expect(effects.transition == nil)
        #expect(machine.desiredState == .off)
        #expect(outcomes["starting"]?.contains("invalidArgument") == true)
    }

    @Test func aFailureOfARunningSourceTurnsItOff() {
        var machine = FrameSourceStateMachine()
        run(machine.request(.on, completion: nil))
        run(machine.finish(.start, error: nil))
        let effects = machine.reportFailure(ViewfinderError(.deviceRemoved, "unplugged"))
        #expect(machine.currentState == .off)
        #expect(machine.desiredState == .off)
        #expect(effects.changes.map(\.description) == ["on → off (deviceRemoved: unplugged)"])
        #expect(machine.reportFailure(ViewfinderError(.deviceRemoved, "again")).changes.isEmpty)
    }

    @Test func aFailureDuringATransitionTakesEffectWhenItEnds() {
        var machine = FrameSourceStateMachine()
        run(machine.request(.on, completion: nil))
        #expect(machine.reportFailure(ViewfinderError(.disconnected, "gone")).changes.isEmpty)
        #expect(machine.currentState == .starting)
        let finished = machine.finish(.start, error: nil)
        #expect(finished.changes.map(\.state) == [.on, .off])
        #expect(machine.currentState == .off)
    }
}
