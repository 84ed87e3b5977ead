/// A failure the command explains itself: the message people read and the exit status that classifies it.
///
/// `Churn.main()` prints `churn: error: <message>` (or one JSON object under `--log-format json`) and exits with
/// `status`. Unlike ArgumentParser's `ValidationError`, it can carry any status, such as 66 for an input file that
/// cannot be read.
struct CommandFailure: Error, CustomStringConvertible {
    var status: ExitStatus
    var message: String

    var description: String { message }

    /// Bad usage (64): a value the command cannot take.
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(status: .usage, message: message)
    }

    /// An input file that cannot be opened or read (66).
    static func unreadableInput(_ message: String) -> CommandFailure {
        CommandFailure(status: .inputUnreadable, message: message)
    }
}
