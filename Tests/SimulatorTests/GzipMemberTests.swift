import Simulator
import Testing

@Suite struct GzipMemberTests {
    @Test func aZlibFailureNamesTheFileAndZlibsReason() throws {
        let error = try #require(throws: SimulationError.self) {
            try GzipMember.compress(Array("line\n".utf8), level: 42, for: "data/export.jsonl.gz")
        }
        #expect(
            error.description
                == "cannot write data/export.jsonl.gz: zlib could not start compressing: stream error (status -2)"
        )
    }
}
