/// Progress of a running load, for a progress bar.
package struct LoadProgress: Sendable {
    package var file: String
    package var fileIndex: Int
    package var fileCount: Int
    package var bytesRead: Int64
    package var fileSize: Int64?
    package var records: Int
    package var rejected: Int
}
