/// Progress of a running load, for a progress bar.
package struct LoadProgress: Sendable {
    /// The file being read, as given (`-` for standard input).
    package var file: String
    /// Its place among the files of the run, from 0.
    package var fileIndex: Int
    package var fileCount: Int
    /// Bytes of this file read so far, as stored (compressed or not).
    package var bytesRead: Int64
    /// The size of this file; nil for standard input or a file whose size cannot be read.
    package var fileSize: Int64?
    /// Records of this file read so far, and how many of them were rejected.
    package var records: Int
    package var rejected: Int
    /// Bytes of the whole run read so far: the earlier files in full and this one up to ``bytesRead``.
    package var totalBytesRead: Int64
    /// The size of all files of the run together; nil when one of them has no size.
    package var totalSize: Int64?

    package init(
        file: String, fileIndex: Int = 0, fileCount: Int = 1, bytesRead: Int64, fileSize: Int64?, records: Int,
        rejected: Int = 0, totalBytesRead: Int64? = nil, totalSize: Int64? = nil
    ) {
        self.file = file
        self.fileIndex = fileIndex
        self.fileCount = fileCount
        self.bytesRead = bytesRead
        self.fileSize = fileSize
        self.records = records
        self.rejected = rejected
        self.totalBytesRead = totalBytesRead ?? bytesRead
        self.totalSize = totalSize ?? (fileCount == 1 ? fileSize : nil)
    }
}
