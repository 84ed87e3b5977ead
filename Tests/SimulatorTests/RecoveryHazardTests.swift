import Foundation
import Simulator
import Testing

@Suite struct RecoveryHazardTests {
    @Test func defaultShapeDeclinesSmoothly() {
        let weights = RecoveryHazard.default.weights
        #expect(weights.count == 60)
        #expect(weights[0] == 1)
        #expect(zip(weights, weights.dropFirst()).allSatisfy { $0 > $1 })
        #expect(abs(weights[59] - 0.1) < 0.001)
    }

    @Test func parsesTheFileFormat() throws {
        let hazard = try RecoveryHazard(parsing: "# comment\r\n3 1.0\r\n\r\n13   0.5  # halved by day 13\n")
        #expect(hazard.weight(day: 1) == 1)
        #expect(hazard.weight(day: 3) == 1)
        #expect(abs(hazard.weight(day: 8) - 0.75) < 1e-12)
        #expect(hazard.weight(day: 13) == 0.5)
        #expect(hazard.weight(day: 60) == 0.5)
        #expect(hazard.weight(day: 61) == 0)
        let again = try RecoveryHazard(parsing: RecoveryHazard.default.fileText)
        #expect(zip(again.weights, RecoveryHazard.default.weights).allSatisfy { abs($0 - $1) < 1e-5 })
    }

    @Test(arguments: [
        ("3 0.4\n2 1.0\n", 2),
        ("3 0.4\n3 0.3\n", 2),
        ("3 0.4\n61 1.0\n", 2),
        ("0 0.4\n60 1.0\n", 1),
        ("1 0.4\n2 -1\n", 2),
        ("1 0\n60 0\n", 2),
        ("1.5 0.4\n", 1),
        ("3\n60 1.0\n", 1),
        ("3 abc\n", 1),
        ("# fine\n1 1\n\n4 nan\n", 4),
    ])
    func rejectsBadFiles(text: String, line: Int) {
        do {
            _ = try RecoveryHazard(parsing: text)
            Issue.record("accepted \(text)")
        } catch let error as SimulationError {
            guard case .invalidRecoveryHazard(let reported, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reported == line)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func rejectsAnEmptyFile() {
        #expect(throws: SimulationError.invalidRecoveryHazard(line: nil, reason: "no points; give at least `1 1.0`")) {
            try RecoveryHazard(parsing: "# nothing\n")
        }
    }

    @Test(arguments: [0.0, 0.2, 0.5, 0.9, 1.0])
    func levelsMatchTheirRates(rate: Double) {
        var options = SimulationOptions()
        options.recoveryRate = rate
        options.cancelRate = rate / 2
        options.otherRate = rate / 4
        let model = RetryModel(options: options)
        func combined(_ chances: [Double]) -> Double { 1 - chances.reduce(1) { $0 * (1 - $1) } }
        #expect(model.recovery.count == 60)
        #expect(abs(combined(model.recovery) - rate) < 1e-9)
        #expect(abs(combined(model.cancel) - rate / 2) < 1e-9)
        #expect(abs(combined(model.other) - rate / 4) < 1e-9)
        #expect(model.recovery.allSatisfy { (0...1).contains($0) })
        // The recovery chances keep the hazard's shape.
        if rate > 0, rate < 1 {
            let ratio = model.recovery[29] / model.recovery[0]
            #expect(abs(ratio - RecoveryHazard.default.weights[29]) < 1e-9)
        }
    }
}
