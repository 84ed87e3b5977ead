import Gzip
import Testing

@Suite struct GzipMemberTests {
    @Test func aZlibFailureSaysZlibsReason() throws {
        let error = try #require(throws: GzipError.self) {
            try GzipMember.compress(Array("line\n".utf8), level: 42)
        }
        #expect(error.description == "zlib could not start compressing: stream error (status -2)")
    }
}
