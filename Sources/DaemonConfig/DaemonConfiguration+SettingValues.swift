import Foundation

extension DaemonConfiguration {
    /// Every setting as text by key path (`voice.rate` → `175`), for telling what a reload changed.
    var settingValues: [String: String] {
        var values: [String: String] = [
            "socket": socketPath,
            "dataDir": dataDirectory,
            "taskDirectory": taskDirectory,
            "iioURI": iioURI,
            "captureDevice": captureDevice,
            "playbackDevice": playbackDevice,
            "voice.name": voice.name,
            "voice.rate": "\(voice.wordsPerMinute)",
            "voice.clipDirectory": voice.clipDirectory ?? "",
            "voice.holdStream": "\(voice.holdStream)",
            "retention.maxRuns": "\(retention.maxRuns)",
            "retention.maxAgeDays": "\(retention.maxAgeDays)",
            "retention.keepUncollectedArchives": "\(retention.keepUncollectedArchives)",
            "motion.gyroDelay": "\(motion.gyroDelay)",
            "syncInterval": "\(syncInterval)",
            "realTimePriority": "\(realTimePriority)",
            "metricsDirectory": metricsDirectory,
            "quality": qualityThresholds.map { String(decoding: $0, as: UTF8.self) } ?? "",
        ]
        for (name, policy) in permissions { values["permissions.\(name)"] = policy.rawValue }
        for (alias, target) in typeAliases.typeAliases { values["typeAliases.\(alias)"] = target }
        return values
    }
}
