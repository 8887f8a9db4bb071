import Testing
import ViewfinderReactive

@Suite struct FlattenTests {
    @Test func flattensLeftNestedChainsOfTwoToEightValues() {
        let a = Just(1)
        let two = a.combineLatest(Just("b")).flatten()
        let three = a.combineLatest(Just("b")).combineLatest(Just(3.0)).flatten()
        let four = a.combineLatest(Just("b")).combineLatest(Just(3.0)).combineLatest(Just(true)).flatten()
        let five = a.combineLatest(Just(2)).combineLatest(Just(3)).combineLatest(Just(4)).combineLatest(Just(5))
            .flatten()
        let six = a.combineLatest(Just(2)).combineLatest(Just(3)).combineLatest(Just(4)).combineLatest(Just(5))
            .combineLatest(Just(6)).flatten()
        let seven = a.combineLatest(Just(2)).combineLatest(Just(3)).combineLatest(Just(4)).combineLatest(Just(5))
            .combineLatest(Just(6)).combineLatest(Just(7)).flatten()
        let eight = a.combineLatest(Just(2)).combineLatest(Just(3)).combineLatest(Just(4)).combineLatest(Just(5))
            .combineLatest(Just(6)).combineLatest(Just(7)).combineLatest(Just(8)).flatten()

        var results: [String] = []
        let cancellables = [
            two.sink { a, b in results.append("\(a)\(b)") },
            three.sink { a, b, c in results.append("\(a)\(b)\(c)") },
            four.sink { a, b, c, d in results.append("\(a)\(b)\(c)\(d)") },
            five.sink { a, b, c, d, e in results.append("\(a)\(b)\(c)\(d)\(e)") },
            six.sink { a, b, c, d, e, f in results.append("\(a)\(b)\(c)\(d)\(e)\(f)") },
            seven.sink { a, b, c, d, e, f, g in results.append("\(a)\(b)\(c)\(d)\(e)\(f)\(g)") },
            eight.sink { a, b, c, d, e, f, g, h in results.append("\(a)\(b)\(c)\(d)\(e)\(f)\(g)\(h)") },
        ]
        #expect(results == ["1b", "1b3.0", "1b3.0true", "12345", "123456", "1234567", "12345678"])
        #expect(cancellables.count == 7)
    }

    @Test func flattenKeepsDemandAndCompletion() {
        let subscriber = TrackingSubscriber<(Int, Int, Int), Never>(demand: .max(1))
        let a = PassthroughSubject<Int, Never>()
        a.combineLatest(Just(2)).combineLatest(Just(3)).flatten().subscribe(subscriber)
        a.send(1)
        a.send(5)
        a.send(completion: .finished)
        #expect(subscriber.values.map { "\($0.0)\($0.1)\($0.2)" } == ["123"])
        #expect(subscriber.completions == [.finished])
    }
}
