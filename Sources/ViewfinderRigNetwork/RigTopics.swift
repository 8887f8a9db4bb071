/// The topics of one rig on the broker, all under `vf/RIG/`.
///
/// | topic | who publishes | what |
/// | --- | --- | --- |
/// | `vf/RIG/host/HOST/state` | the agent (retained; its last will too) | the host's presence |
/// | `vf/RIG/cmd` | coordinators | commands to the hosts |
/// | `vf/RIG/coord/ID/reply` | the agents | answers to one coordinator's commands |
struct RigTopics: Sendable {
    /// The rig's name, the second level of its topics.
    let rig: String

    /// The prefix of every topic of the rig.
    var root: String { "vf/\(rig)" }
    /// Where coordinators publish commands.
    var commands: String { "\(root)/cmd" }
    /// The filter that matches every host's state.
    var allStates: String { "\(root)/host/+/state" }
    /// The prefix under which coordinators take their replies.
    var replyPrefix: String { "\(root)/coord/" }

    /// Where `host` publishes its state.
    func state(of host: String) -> String { "\(root)/host/\(host)/state" }

    /// Where the coordinator `coordinator` takes its replies.
    func replies(to coordinator: String) -> String { "\(replyPrefix)\(coordinator)/reply" }

    /// The host a state topic belongs to; `nil` for any other topic.
    func host(ofState topic: String) -> String? {
        let prefix = "\(root)/host/"
        guard topic.hasPrefix(prefix), topic.hasSuffix("/state") else { return nil }
        let name = topic.dropFirst(prefix.count).dropLast("/state".count)
        return name.isEmpty || name.contains("/") ? nil : String(name)
    }

    /// Whether `topic` is a reply topic of this rig: an agent answers only there, so that a command cannot make it
    /// publish anywhere else.
    func isReplyTopic(_ topic: String) -> Bool {
        guard topic.hasPrefix(replyPrefix), topic.hasSuffix("/reply") else { return false }
        let coordinator = topic.dropFirst(replyPrefix.count).dropLast("/reply".count)
        return RigWire.isValidName(String(coordinator))
    }
}
