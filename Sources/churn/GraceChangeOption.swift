import Analysis
import ArgumentParser

/// `--grace-change BUNDLE=YYYY-MM-DD:SETTING`, repeatable: a change of an app's Billing Grace Period setting that the
/// user knows of, for `grace_change.csv` (docs/METRICS.md, "A grace change, evaluated"). It replaces the changes the
/// data show for that app in that month.
struct GraceChangeOption: ParsableArguments {
    @Option(
        name: .customLong("grace-change"),
        help: ArgumentHelp(
            "A change of an app's billing grace setting, to evaluate: <bundle id>=<YYYY-MM-DD>:<off|3|16|28> "
                + "(repeatable; changes the data show are found without it).",
            valueName: "change"
        )
    )
    var arguments: [String] = []

    func validate() throws {
        _ = try changes()
    }

    /// The changes stated.
    /// - Throws: `ValidationError` naming the value that is not a change and the form one takes.
    func changes() throws -> [GraceChange.Stated] {
        try arguments.map { argument in
            guard let change = GraceChange.Stated(argument: argument) else {
                throw ValidationError(
                    "--grace-change \(argument): not a change; write <bundle id>=<YYYY-MM-DD>:<setting>, the setting "
                        + "off, 3, 16 or 28, e.g. --grace-change com.example.app=2026-03-01:28.")
            }
            return change
        }
    }
}
