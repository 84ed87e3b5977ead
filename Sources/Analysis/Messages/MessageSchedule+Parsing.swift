extension MessageSchedule {
    /// Reads a schedule: one band per line, `<first_day>-<last_day> <interval_hours>h`, in order.
    ///
    /// `#` starts a comment; blank lines are ignored. The default schedule reads:
    /// ```
    /// # days   interval
    /// 1-3      24h
    /// 4-16     72h
    /// 17-30    96h
    /// 31-60    120h
    /// ```
    /// - Throws: `AnalysisError` naming the line and what is wrong with it.
    package static func parse(_ text: String) throws -> MessageSchedule {
        var bands: [BandSpec] = []
        var lines: [Int] = []
        // `isNewline` also takes "\r\n", which is one Character and so never equal to "\n".
        let rawLines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, rawLine) in rawLines.enumerated() {
            let fields = rawLine.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            bands.append(try parseBand(fields, line: index + 1, text: String(rawLine)))
            lines.append(index + 1)
        }
        try validate(bands, lines: lines)
        return MessageSchedule(validated: bands)
    }

    private static func parseBand(
        _ fields: [Substring],
        line: Int,
        text: String
    ) throws -> BandSpec {
        let malformed = AnalysisError(
            subject: "message schedule", line: line,
            reason: "expected \"<first_day>-<last_day> <interval_hours>h\" such as \"4-16 72h\", found \"\(text)\""
        )
        guard fields.count == 2 else { throw malformed }
        let days = fields[0].split(separator: "-", omittingEmptySubsequences: false)
        guard days.count == 2, let firstDay = Int(days[0]), let lastDay = Int(days[1]),
            fields[1].hasSuffix("h"), let hours = Int(fields[1].dropLast())
        else { throw malformed }
        return (firstDay, lastDay, hours)
    }
}
