/// What a custom task type decodes beyond the keys every task has, as SageResearch's
/// `AssessmentTaskObject` subclasses do (docs/custom-tasks.md): `MyCustomTask` decodes `value`.
///
/// The type decodes itself from the task's own JSON object (the decoder is positioned at the
/// task, so a keyed container sees `identifier`, `steps` and every extra key); the assessment's
/// keys are decoded as usual beside it. Register it with `TypeRegistry.registerTaskType(_:_:)`;
/// the decoded value is the task's `TaskDefinition.custom`. Throw a `DecodingError` for a bad
/// value (`DecodingError.dataCorruptedError(forKey:in:debugDescription:)` with a sentence that
/// says what to write): the loader reports it with the file and the key's coding path.
///
/// To drive navigation as well, conform to `StepNavigatorProviding` (TaskNavigation).
public protocol CustomTask: Decodable, Sendable {}
