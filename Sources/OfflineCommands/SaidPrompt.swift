/// What `say --json` prints: when the prompt was asked for, heard and finished (CLOCK_BOOTTIME
/// seconds), and how its onset was measured (docs/audio.md, "Voice prompts").
struct SaidPrompt: Encodable {
    var requestedUptime: Double
    var onsetUptime: Double
    var endUptime: Double
    var heardBy: String
}
