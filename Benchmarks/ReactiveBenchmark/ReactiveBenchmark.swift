/// Measures the reactive layer against AsyncStream and DispatchQueue.async, measured in the same run.
///
/// Run it in a release build. It prints nanoseconds per value, ratios, and whether each target is met.
///
/// `reactive-benchmark subject` (or `sequence`, `stream`, `fanout`, `hop`, `dispatch`, `hop-one`, `dispatch-one`)
/// runs one part alone, for profiling.
@main
enum ReactiveBenchmark {
    static func main() async {
        if CommandLine.arguments.count > 1 {
            return await profile(CommandLine.arguments[1])
        }
        let chainCount = 5_000_000
        let streamCount = 500_000
        let fanOutCount = 50_000
        let subscribers = 100
        let hopCount = 1_000_000
        let oneByOneCount = 20_000

        print("Reactive layer benchmark (median of \(runs) runs, release build)")
        print("")
        print("map → filter → sink, per value:")
        let subject = measure(count: chainCount) { ChainBenchmark.subject(count: chainCount) }
        report("PassthroughSubject.send → map → filter → sink", subject)
        let sequence = measure(count: chainCount) { ChainBenchmark.sequence(count: chainCount) }
        report("(0..<n).publisher → map → filter → sink", sequence)
        let stream = await measure(count: streamCount) { await ChainBenchmark.asyncStream(count: streamCount) }
        report("AsyncStream → map → filter → for await (peer)", stream)

        print("")
        print("one subject, \(subscribers) subscribers, per value sent:")
        let fanOut = measure(count: fanOutCount) {
            FanOutBenchmark.subject(count: fanOutCount, subscribers: subscribers)
        }
        report("PassthroughSubject.send to \(subscribers) sinks", fanOut)
        report("  per delivery", fanOut / Double(subscribers))
        let fanOutStreams = await measure(count: fanOutCount / 10) {
            await FanOutBenchmark.asyncStream(count: fanOutCount / 10, subscribers: subscribers)
        }
        report("\(subscribers) AsyncStreams, one consumer task each (peer)", fanOutStreams)
        report("  per delivery", fanOutStreams / Double(subscribers))

        print("")
        print("hand-off to a serial queue, per value:")
        let burst = measurePair(count: hopCount) {
            HopBenchmark.receiveOn(count: hopCount, oneAtATime: false)
        } _: {
            HopBenchmark.dispatch(count: hopCount, oneAtATime: false)
        }
        report("subject → receive(on:) → sink, burst", burst.first)
        report("DispatchQueue.async per value, burst (peer)", burst.second)
        let oneByOne = measurePair(count: oneByOneCount) {
            HopBenchmark.receiveOn(count: oneByOneCount, oneAtATime: true)
        } _: {
            HopBenchmark.dispatch(count: oneByOneCount, oneAtATime: true)
        }
        report("subject → receive(on:) → sink, one at a time", oneByOne.first)
        report("DispatchQueue.async, one at a time (peer)", oneByOne.second)

        print("")
        print("targets:")
        let slowestChain = max(subject, sequence)
        verdict(
            "synchronous chain, slower source",
            "\(fixed(slowestChain, width: 0)) ns/value",
            target: "≤ 100 ns/value",
            met: slowestChain <= 100
        )
        let speedup = stream / slowestChain
        verdict("AsyncStream ÷ synchronous chain", "\(fixed(speedup, width: 0))×", target: "≥ 10×", met: speedup >= 10)
        verdict(
            "receive(on:) ÷ DispatchQueue.async, burst",
            "\(fixed(burst.ratio, decimals: 2, width: 0))×",
            target: "≤ 1.00×",
            met: burst.ratio <= 1
        )
        // One at a time, thread wake-ups dominate both sides: a median above 1 counts as slower only when most
        // back-to-back runs agree.
        let first = fixed(oneByOne.ratios[0], decimals: 2, width: 0)
        let last = fixed(oneByOne.ratios[runs - 1], decimals: 2, width: 0)
        let outcome =
            oneByOne.ratio <= 1 ? "met" : oneByOne.firstFaster >= runs / 3 ? "met within noise" : "NOT MET"
        verdict(
            "receive(on:) ÷ DispatchQueue.async, one at a time",
            "\(fixed(oneByOne.ratio, decimals: 2, width: 0))×",
            target: "≤ 1.00×",
            outcome: outcome
        )
        print(
            "    (one at a time: run ratios \(first)–\(last), receive(on:) faster in \(oneByOne.firstFaster) of \(runs))"
        )
    }

    /// Runs one part for a few seconds, without measuring, so a profiler sees only it.
    static func profile(_ part: String) async {
        switch part {
        case "subject": _ = ChainBenchmark.subject(count: 30_000_000)
        case "sequence": _ = ChainBenchmark.sequence(count: 30_000_000)
        case "stream": _ = await ChainBenchmark.asyncStream(count: 2_000_000)
        case "fanout": _ = FanOutBenchmark.subject(count: 300_000, subscribers: 100)
        case "hop": _ = HopBenchmark.receiveOn(count: 5_000_000, oneAtATime: false)
        case "hop-one": _ = HopBenchmark.receiveOn(count: 300_000, oneAtATime: true)
        case "dispatch-one": _ = HopBenchmark.dispatch(count: 300_000, oneAtATime: true)
        case "dispatch": _ = HopBenchmark.dispatch(count: 5_000_000, oneAtATime: false)
        default:
            print(
                "Unknown part \(part): use subject, sequence, stream, fanout, hop, dispatch, hop-one or dispatch-one.")
        }
    }
}
