import ArgumentParser
import Foundation

/// Where the commands that write Apple's history as export files (`churn fetch`, `churn repair`) write, for which
/// app and environment, and how long they wait for the fetch lock.
struct ExportDestinationOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("The exports directory the history files go to (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("Apple's environment: Production or Sandbox.", valueName: "name"))
    var environment: String = "Production"

    @Option(help: ArgumentHelp("The app's bundle id (default: CHURN_BUNDLE_ID).", valueName: "id"))
    var bundleID: String?

    @Option(help: ArgumentHelp("Seconds to wait for another fetch or repair to finish.", valueName: "seconds"))
    var lockTimeout: Double = 60

    func validate() throws {
        try Churn.FetchCommand.validate(environment: environment)
        if lockTimeout < 0 { throw ValidationError("--lock-timeout must be 0 or more.") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ValidationError("--out \(out) is a file, not a directory.")
        }
    }
}
