/// The params of a command on the run under way, which may name the run it means: when they
/// name one and it is not the daemon's current run, the daemon refuses the command (-32001)
/// instead of carrying it out on another run (docs/protocol.md, "The run a command means").
public protocol RunNamingParams: ControlParams {
    /// The run the command is meant for; nil for whichever run is under way.
    var taskRunUUID: String? { get }
}

extension RunNamingParams {
    /// The member as every such method's schema lists it.
    static var runMember: JSONSchema.Property {
        .init("taskRunUUID", .described(
            "The run the command is meant for; when it is not the current run the command is refused with -32001 and data.taskRunUUID naming the current run. Left out: whichever run is under way.",
            .string(format: "uuid")))
    }
}
