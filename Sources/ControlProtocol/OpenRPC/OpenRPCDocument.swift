import TaskNavigation
public import TaskModel
import Foundation
import TaskNavigation

/// The OpenRPC 1.x document of the control socket, generated from the method declarations
/// (`ControlMethods`), the event kinds (`ControlEventKind`) and the schemas written beside each
/// wire type. `rpc.discover` returns it; docs/openrpc.json is a copy
/// that a test keeps equal to it.
public enum OpenRPCDocument {
    /// The OpenRPC specification version the document follows.
    public static let openRPCVersion = "1.3.2"

    /// The name of the notification pseudo-method documenting events.
    public static let eventMethod = ControlEvent.notificationMethod

    /// The document.
    public static var document: JSONValue {
        [
            "openrpc": .string(openRPCVersion),
            "info": [
                "title": "activetaskd control socket",
                "version": .string(ControlProtocolVersion.current),
                "description": .string(description),
            ],
            "methods": .array(ControlMethods.all.map(method) + [eventNotification]),
            "components": [
                "schemas": .object(Dictionary(uniqueKeysWithValues: schemaComponents)),
                "errors": .object(Dictionary(uniqueKeysWithValues: ControlErrorCode.allCases.map {
                    ($0.name, ["code": .integer(Int64($0.rawValue)), "message": .string($0.meaning)])
                })),
            ],
        ]
    }

    private static let description = """
        JSON-RPC 2.0 over a Unix stream socket (default /run/activetask/control.sock), one JSON \
        object per line (UTF-8, \\n), params by name. The daemon runs one task at a time; any \
        connection may observe or control it. After events.subscribe the connection receives \
        `event` notifications (documented here as the method `event`, which has no result; its \
        params are components/schemas/ControlEvent). See docs/protocol.md for a whole session.
        """

    private static func method(_ method: any ControlMethodDescribing) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(method.name),
            "summary": .string(method.summary),
            "paramStructure": "by-name",
            "params": .array(params(of: method.paramsType)),
            "result": method.resultType.contentDescriptor,
        ]
        if !method.errors.isEmpty {
            members["errors"] = .array(method.errors.map { ["$ref": .string("#/components/errors/\($0.name)")] })
        }
        return .object(members)
    }

    /// One content descriptor per member of the params object.
    private static func params(of type: any ControlParams.Type) -> [JSONValue] {
        guard case .object(let properties, let required) = type.schema else { return [] }
        return properties.map { property in
            [
                "name": .string(property.name),
                "required": .bool(required.contains(property.name)),
                "schema": property.schema.jsonValue,
            ]
        }
    }

    private static var eventNotification: JSONValue {
        [
            "name": .string(eventMethod),
            "summary": "Notification from the daemon (no id, no result): one session event.",
            "description": "Sent to connections that called events.subscribe. The params object is components/schemas/ControlEvent: sequence, uptime, kind and the run's taskRunUUID, with the kind's members beside them.",
            "paramStructure": "by-name",
            "params": [
                ["name": "sequence", "required": true, "schema": JSONSchema.integer(minimum: 1).jsonValue],
                ["name": "uptime", "required": true, "schema": JSONSchema.number.jsonValue],
                ["name": "kind", "required": true, "schema": JSONSchema.reference(to: ControlEventKind.self).jsonValue],
                ["name": "taskRunUUID", "required": false, "schema": runOfEvent.jsonValue],
            ],
            "x-notification": true,
            "x-params-schema": JSONSchema.reference("ControlEvent").jsonValue,
        ]
    }

    /// Every type the document names.
    public static let schemaTypes: [any ControlSchemaDescribing.Type] = [
        DaemonInfo.self, DeviceList.self, TaskLoadParams.self, LoadedTask.self, TaskList.self, TaskListEntry.self, TaskImageParams.self, TaskImage.self, TaskResourceParams.self, TaskResource.self, StepAnswer.self,
        ForwardParams.self, PermissionAnswerParams.self, CancelParams.self, RunReference.self,
        SubscribeParams.self, Subscription.self, SessionStatus.self, TimerStatus.self, RunList.self,
        RunListEntry.self, RunUploadStatus.self, RunUploadState.self, RunResult.self, ArchiveLocation.self, QualitySummary.self, RunQualityResult.self,
        ReportLocation.self, ControlSessionState.self, RunState.self,
        StepAction.self, ControlEventKind.self, StepShownEvent.self, StepProgress.self, StepTimerEvent.self,
        ActionStatusEvent.self, ActionFailedEvent.self, WarningEvent.self, PermissionRequestEvent.self,
        PermissionAnsweredEvent.self, PromptSpokenEvent.self, StepCommandEvent.self, AudioLevelEvent.self,
        MotionProgressEvent.self, TaskFinishedEvent.self, EventsLostEvent.self, ControlErrorData.self,
    ]

    private static var schemaComponents: [(String, JSONValue)] {
        schemaTypes.map { ($0.schemaName, $0.schema.jsonValue) } + [("ControlEvent", eventSchema)]
    }

    /// The envelope's `taskRunUUID`: every event of a run names it. Computed, not a stored
    /// global: LeakSanitizer reported the once-initialised global's boxed schema as leaked at
    /// every daemon's exit (its pointer sits where it does not look).
    private static var runOfEvent: JSONSchema {
        .described("The run the event is of (every event of a session names it; an event of no run has none).", .string(format: "uuid"))
    }

    /// One object schema per event kind: `sequence`, `uptime`, `kind`, the run's `taskRunUUID`
    /// (a payload that names its run declares it itself) and the payload's members.
    private static var eventSchema: JSONValue {
        .object(["oneOf": .array(ControlEventKind.allCases.map { kind in
            guard case .object(let properties, let required) = kind.payloadType.schema else {
                return JSONValue.null
            }
            var envelope: [JSONSchema.Property] = [
                .init("sequence", .integer(minimum: 1)), .init("uptime", .number),
                .init("kind", .string(enumeration: [kind.rawValue])),
            ]
            if !properties.contains(where: { $0.name == "taskRunUUID" }) { envelope.append(.init("taskRunUUID", runOfEvent)) }
            return JSONSchema.object(envelope + properties, required: ["sequence", "uptime", "kind"] + required).jsonValue
        })])
    }
}

extension OpenRPCDocument {
    /// The document as docs/openrpc.json holds it: pretty-printed, sorted keys, trailing newline.
    public static func prettyPrinted() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }
}
