/// The voice's notices about one step's prompts, held while those prompts are handed to the
/// voice ahead of the step's `stepShown`, so that no front end hears of a step's prompt before
/// the step; taken in order once it shows (docs/session.md, "Voice and quality").
struct HeldNotices: Sendable {
    /// The step whose prompts' notices wait.
    var stepPath: String
    var notices: [VoiceNotice] = []
}
