import Simulator
import Testing

@Suite struct OptionsTests {
    @Test func readsStartDates() {
        #expect(UTCCalendar.startOfDay("2025-01-01") == 1_735_689_600_000)
        #expect(UTCCalendar.startOfDay("2024-02-29") == 1_709_164_800_000)
        #expect(UTCCalendar.startOfDay("2023-02-29") == nil)
        #expect(UTCCalendar.startOfDay("2025-1-01") == nil)
        #expect(UTCCalendar.startOfDay("2025-13-01") == nil)
        #expect(UTCCalendar.startOfDay("tomorrow") == nil)
    }

    @Test func addsCalendarMonths() {
        let january31 = 1_738_281_600_000 as Int64  // 2025-01-31
        #expect(UTCCalendar.adding(months: 1, to: january31) == 1_740_700_800_000)  // 2025-02-28
        #expect(UTCCalendar.adding(months: 12, to: january31) == 1_769_817_600_000)  // 2026-01-31
        var options = SimulationOptions()
        options.months = 12
        #expect(options.end == 1_767_225_600_000)  // 2026-01-01
    }

    @Test func readsGraceSettings() {
        #expect(GraceSetting(argument: "none") == GraceSetting.none)
        #expect(GraceSetting(argument: "16") == .days(16))
        #expect(GraceSetting(argument: "mixed") == .mixed)
        #expect(GraceSetting(argument: "7") == nil)
    }

    @Test func rejectsImpossibleOptions() {
        var options = SimulationOptions()
        options.recoveryRate = 1.2
        #expect(throws: SimulationError.self) { try options.validate() }
        options = SimulationOptions()
        // Rates of competing ways out of retry need not add up to at most 1.
        options.recoveryRate = 0.7
        options.cancelRate = 0.4
        #expect(throws: Never.self) { try options.validate() }
        options = SimulationOptions()
        options.duplicateRate = 1.5
        #expect(throws: SimulationError.self) { try options.validate() }
        options = SimulationOptions()
        options.subscribers = 0
        #expect(throws: SimulationError.self) { try options.validate() }
        #expect(throws: Never.self) { try SimulationOptions().validate() }
    }
}
