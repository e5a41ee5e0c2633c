// A recording that is meant to be killed: creates a run through RunStore, then writes a motion
// JSON file and a WAV through the real SampleFiles writers until SIGKILL ends it. Used by
// SessionTests' recovery test. Usage: run-crash-writer DATA_DIR TASK_RUN_UUID
import Foundation
import Logging
import SampleFiles
import Session
import SystemPackage
import TaskModel

let arguments = CommandLine.arguments
guard arguments.count == 3, let uuid = UUID(uuidString: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: run-crash-writer DATA_DIR TASK_RUN_UUID\n".utf8))
    exit(2)
}
let store = RunStore(dataDirectory: URL(fileURLWithPath: arguments[1]), logger: Logger(label: "run-crash-writer"))
let start = Date()

var history = ResultHistory(taskIdentifier: "Walk", taskRunUUID: uuid, startDate: start, schemaIdentifier: "Walk", versionString: "2")
try history.showStep(path: ["Walk", "intro"], result: BaseResult(identifier: "intro", startDate: start, endDate: start), direction: .forward)
try history.showStep(path: ["Walk", "walk", "walking"], result: BaseResult(identifier: "walking", startDate: start, endDate: start), direction: .forward)
let run = try store.createRun(taskRunUUID: uuid, taskIdentifier: "Walk",
                              taskSource: Data(#"{"identifier": "Walk", "steps": []}"#.utf8), results: history.taskResult(), startDate: start)
var manifest = try run.readManifest()
manifest.currentStepPath = "Walk/walk/walking"
manifest.history = ["Walk/intro", "Walk/walk/walking"]
manifest.results = history.taskResult(includingOpenSections: true)  // as TaskSession's manifest keeps it
manifest.controllers = [
    .init(identifier: "motion", owner: "Walk/walk", status: "running", files: [
        .init(identifier: "motion", relativePath: "walk_motion.json", contentType: "application/json", startDate: start, startUptime: 100),
    ]),
    .init(identifier: "roomSound", owner: "Walk", status: "running", files: [
        .init(identifier: "roomSound", relativePath: "roomSound.wav", contentType: "audio/wav", startDate: start, startUptime: 100),
    ]),
]
try run.writeManifest(manifest)

let policy = SyncPolicy(flushInterval: 0.02, syncInterval: 0.05)
let motion = try JSONArrayFile(path: FilePath(run.url.appendingPathComponent("walk_motion.json").path), policy: policy, bufferCapacity: 4096)
let wav = try WAVFileWriter(path: FilePath(run.url.appendingPathComponent("roomSound.wav").path), encoding: .integer,
                            channels: 1, sampleRate: 8000, bitsPerSample: 16, policy: policy, bufferCapacity: 4096)
var samples = [Int16](repeating: 0, count: 80)
var count = 0
while true {
    let time = Double(count) / 100
    try motion.appendElement(json: Array(#"{"uptime":\#(100 + time),"timestamp":\#(time),"stepPath":"Walk/walk/walking","sensorType":"accelerometer","x":0.01,"y":-0.02,"z":-0.99}"#.utf8))
    for index in samples.indices { samples[index] = Int16(truncatingIfNeeded: (count * 80 + index) * 97) }
    try samples.withUnsafeBytes { try wav.append($0) }
    if count % 10 == 0 {
        try wav.updateHeader()
        try motion.writer.maybeFlushByTime()
        try wav.writer.maybeFlushByTime()
    }
    count += 1
    // Announce once a few hundred records are surely on disk; the test kills us some time later.
    if count == 300 {
        try motion.writer.sync()
        try wav.writer.sync()
        FileHandle.standardOutput.write(Data("recording \(count)\n".utf8))
    }
    usleep(1000)
}
