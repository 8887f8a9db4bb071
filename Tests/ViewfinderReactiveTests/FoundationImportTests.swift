// This file imports Foundation next to the reactive module and uses its names unqualified: nothing clashes.
import Foundation
import Testing
import ViewfinderReactive

@Suite struct FoundationImportTests {
    @Test func namesResolveNextToFoundation() {
        let subject = PassthroughSubject<Date, Never>()
        let current = CurrentValueSubject<URL?, Never>(nil)
        let publishers: [AnyPublisher<String, Never>] = [
            Just("just").eraseToAnyPublisher(),
            Empty<String, Never>().eraseToAnyPublisher(),
            Future<String, Never> { $0(.success("future")) }.eraseToAnyPublisher(),
            Deferred { Just("deferred") }.eraseToAnyPublisher(),
            ["sequence"].publisher.eraseToAnyPublisher(),
            subject.map { _ in "date" }.eraseToAnyPublisher(),
            current.compactMap { $0?.absoluteString }.eraseToAnyPublisher(),
        ]
        var received: [String] = []
        var cancellables = Set<AnyCancellable>()
        for publisher in publishers {
            publisher.sink { received.append($0) }.store(in: &cancellables)
        }
        subject.send(Date())
        current.send(URL(string: "http://camera.local"))
        let failing: some Publisher<Int, URLError> = Fail(error: URLError(.timedOut))
        var failure: URLError?
        failing.sink { completion in
            if case .failure(let error) = completion { failure = error }
        } receiveValue: { _ in
        }.store(in: &cancellables)
        let subscriber: AnySubscriber<Data, Never> = AnySubscriber()
        let subscription: any Subscription = Subscriptions.empty
        let demand: Subscribers.Demand = .max(1)
        subscription.request(demand)
        #expect(received == ["just", "future", "deferred", "sequence", "date", "http://camera.local"])
        #expect(failure?.code == .timedOut)
        #expect(subscriber.receive(Data()) == .none)
    }
}
