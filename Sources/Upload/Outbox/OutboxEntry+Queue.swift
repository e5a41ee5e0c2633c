public import UploadFormats

extension OutboxEntry {
    /// The run's end day, `yyyy-MM-dd`, for the `{date}` of the key template.
    public var endDay: String { String(endDate.prefix(10)) }

    /// The queue's order: the run that ended first goes first (the UUID breaks ties), as the
    /// uploader uploads and `activetaskctl uploads` lists them.
    public static func queuedBefore(_ first: OutboxEntry, _ second: OutboxEntry) -> Bool {
        (first.endDate, first.taskRunUUID.uuidString) < (second.endDate, second.taskRunUUID.uuidString)
    }
}
