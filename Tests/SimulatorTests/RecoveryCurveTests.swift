import Foundation
import Simulator
import Testing

@Suite struct RecoveryCurveTests {
    static let day = 86_400_000.0

    @Test func defaultCurveFollowsItsPoints() {
        let curve = RecoveryCurve.default
        #expect(Double(curve.delay(unit: 0)) == 0)
        #expect(abs(Double(curve.delay(unit: 0.40)) / Self.day - 3) < 1e-6)
        #expect(abs(Double(curve.delay(unit: 0.75)) / Self.day - 16) < 1e-6)
        #expect(abs(Double(curve.delay(unit: 0.90)) / Self.day - 28) < 1e-6)
        #expect(abs(Double(curve.delay(unit: 0.20)) / Self.day - 1.5) < 1e-6)
        #expect(Double(curve.delay(unit: 0.999_999)) / Self.day <= 60)
    }

    @Test func parsesTheFileFormat() throws {
        let curve = try RecoveryCurve(parsing: "# comment\r\n1 0.5\r\n\r\n10   1.0  # all by day 10\n")
        #expect(curve.points == [.init(day: 1, share: 0.5), .init(day: 10, share: 1)])
        #expect(try RecoveryCurve(parsing: RecoveryCurve.default.fileText) == .default)
    }

    @Test(arguments: [
        ("3 0.4\n2 1.0\n", 2),
        ("3 0.4\n16 0.3\n60 1\n", 2),
        ("3 0.4\n60 0.9\n", 2),
        ("3 0.4\n61 1.0\n", 2),
        ("0 0.4\n60 1.0\n", 1),
        ("3\n60 1.0\n", 1),
        ("3 abc\n", 1),
    ])
    func rejectsBadCurves(text: String, line: Int) {
        #expect(throws: SimulationError.self) { try RecoveryCurve(parsing: text) }
        do {
            _ = try RecoveryCurve(parsing: text)
        } catch let error as SimulationError {
            guard case .invalidRecoveryCurve(let reported, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reported == line)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func rejectsAnEmptyCurve() {
        #expect(throws: SimulationError.invalidRecoveryCurve(line: nil, reason: "no points; give at least `60 1.0`")) {
            try RecoveryCurve(parsing: "# nothing\n")
        }
    }
}
