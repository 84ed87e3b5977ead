/// Why a simulation could not run or finish.
package enum SimulationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// An option is out of range or contradicts another.
    case invalidOptions(String)
    /// A recovery hazard file is malformed: the line (from 1) and what is wrong with it.
    case invalidRecoveryHazard(line: Int?, reason: String)
    /// Making a key, a certificate or a signature failed.
    case signing(String)
    /// Writing an output file failed.
    case output(path: String, reason: String)

    package var description: String {
        switch self {
        case .invalidOptions(let reason):
            return "invalid simulation options: \(reason)"
        case .invalidRecoveryHazard(let line?, let reason):
            return "recovery hazard, line \(line): \(reason)"
        case .invalidRecoveryHazard(nil, let reason):
            return "recovery hazard: \(reason)"
        case .signing(let reason):
            return "signing failed: \(reason)"
        case .output(let path, let reason):
            return "cannot write \(path): \(reason)"
        }
    }
}
