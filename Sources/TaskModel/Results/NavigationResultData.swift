/// A result that can redirect navigation: a non-nil `skipToIdentifier` wins over the step's
/// own `nextStepIdentifier` and cohort rules.
public protocol NavigationResultData: ResultData {
    var skipToIdentifier: String? { get }
}
