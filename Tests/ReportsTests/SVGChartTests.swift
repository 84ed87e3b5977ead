import Analysis
import Foundation
import Reports
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct SVGChartTests {
    /// Parses the document with Foundation's XML parser and collects element names and `<text>` contents.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [String] = []
        var attributes: [[String: String]] = []
        var texts: [String] = []
        private var current: String?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String]
        ) {
            elements.append(elementName)
            self.attributes.append(attributes)
            if elementName == "text" { current = "" }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            current? += string
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            if elementName == "text", let current { texts.append(current) }
            current = nil
        }
    }

    static func parse(_ svg: String) -> (isWellFormed: Bool, collector: Collector) {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        return (parser.parse(), collector)
    }

    static func curve(_ report: Report, environment: String = "Production") -> String {
        RecoveryCurveChart(
            points: report.curve, schedule: report.options.schedule, environment: environment, asOf: report.asOf
        ).svg
    }

    static func hazard(_ report: Report) -> String {
        RecoveryHazardChart(report: report).svg
    }

    @Test func curveIsWellFormedSVG() throws {
        let svg = Self.curve(Sample.report())
        let (isWellFormed, collector) = Self.parse(svg)
        #expect(isWellFormed)
        #expect(collector.elements.first == "svg")
        #expect(collector.attributes.first?["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(collector.attributes.first?["width"] == String(SVGChart.width))
        #expect(
            collector.attributes.first?["viewBox"] == "0 0 \(SVGChart.width) \(RecoveryCurveChart.height)")
        // One polyline: day 0 and days 1…60.
        let polylines = collector.elements.indices.filter { collector.elements[$0] == "polyline" }
        #expect(polylines.count == 1)
        let polyline = try #require(polylines.first)
        let points = try #require(collector.attributes[polyline]["points"])
        #expect(points.split(separator: " ").count == 61)
        // Every coordinate has exactly two decimals.
        for pair in points.split(separator: " ") {
            for number in pair.split(separator: ",") {
                #expect(number.split(separator: ".").last?.count == 2, "\(number)")
            }
        }
        // Day ticks every 10 days; the y-axis fitted to the curve's 44.4 %: 0–50 % by 10 %.
        for label in ["0", "10", "30", "60", "0%", "10%", "50%", "24 h", "120 h", "44.4% by day 60"] {
            #expect(collector.texts.contains(label), "missing text \(label)")
        }
        #expect(!collector.texts.contains("60%"))
        #expect(!collector.texts.contains("100%"))
        #expect(!svg.contains("NaN") && !svg.contains("inf"))
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test func chartsStateNoOutsideBenchmark() throws {
        for svg in [Self.curve(Sample.report()), Self.hazard(Sample.report())] {
            #expect(!svg.contains("Apple"))
            #expect(!svg.contains("pace"))
        }
    }

    @Test func escapesText() {
        let svg = Self.curve(Sample.report(), environment: "<Prod & \"Test\">")
        let (isWellFormed, collector) = Self.parse(svg)
        #expect(isWellFormed)
        #expect(svg.contains("&lt;Prod &amp; &quot;Test&quot;&gt;"))
        #expect(collector.texts.contains { $0.contains("<Prod & \"Test\">") })
        #expect(SVGChart.escape("a'b\u{1}c") == "a&apos;b c")
        let options = Report.Options(environment: "<Sandbox>")
        let hazard = RecoveryHazardChart(report: Report(dataset: Sample.dataset(), options: options)).svg
        #expect(Self.parse(hazard).isWellFormed)
        #expect(hazard.contains("&lt;Sandbox&gt;"))
    }

    @Test func noRecoveriesStillDrawsOnATenPercentAxis() {
        let dataset = EpisodeDataset(
            asOf: T.july1,
            episodes: [
                Episode(
                    subscription: "X", start: T.may1, end: T.may1 + 10 * T.day, outcome: .expired,
                    openingNotificationUUID: "x")
            ])
        let report = Report(dataset: dataset)
        let (isWellFormed, collector) = Self.parse(Self.curve(report))
        #expect(isWellFormed)
        #expect(collector.texts.contains("10%"))
        #expect(collector.texts.contains("0.0% by day 60"))
        #expect(Self.parse(Self.hazard(report)).isWellFormed)
    }

    @Test func emptyDatasetStillDraws() {
        let report = Report(dataset: EpisodeDataset(asOf: T.july1))
        #expect(Self.parse(Self.curve(report)).isWellFormed)
        let (isWellFormed, collector) = Self.parse(Self.hazard(report))
        #expect(isWellFormed)
        // Nobody at risk: no hazard, no band, no dot but the legend's.
        #expect(!collector.elements.contains("polyline"))
        #expect(!collector.elements.contains("polygon"))
        #expect(collector.elements.filter { $0 == "circle" }.count == 1)
    }

    @Test func customScheduleBandsAreCutAtDaySixty() throws {
        let schedule = try MessageSchedule.parse("1-10 24h\n11-90 48h\n")
        let report = Report(dataset: Sample.dataset(), options: .init(schedule: schedule))
        let svg = RecoveryCurveChart(report: report).svg
        let (isWellFormed, collector) = Self.parse(svg)
        #expect(isWellFormed)
        #expect(collector.texts.contains("48 h"))
        // No shading beyond the plot's right edge.
        let rightEdges = collector.elements.indices.filter { collector.elements[$0] == "rect" }.compactMap { index in
            let attributes = collector.attributes[index]
            return Double(attributes["x"] ?? "").flatMap { x in Double(attributes["width"] ?? "").map { x + $0 } }
        }
        #expect(rightEdges.allSatisfy { $0 <= Double(SVGChart.width) })
    }

    @Test func hazardMarksMessageDaysAndGraceEnds() throws {
        let report = Sample.report()
        let svg = Self.hazard(report)
        let (isWellFormed, collector) = Self.parse(svg)
        #expect(isWellFormed)
        #expect(
            collector.attributes.first?["viewBox"] == "0 0 \(SVGChart.width) \(RecoveryHazardChart.height)")
        // Every day has someone at risk: one line, one band, and a dot per day, large on the 18 message days
        // (and in the legend).
        #expect(collector.elements.filter { $0 == "polyline" }.count == 1)
        #expect(collector.elements.filter { $0 == "polygon" }.count == 1)
        let circles = zip(collector.elements, collector.attributes).filter { $0.0 == "circle" }.map { $0.1["r"] }
        #expect(circles.filter { $0 == "3.5" }.count == 18 + 1)
        #expect(circles.filter { $0 == "2" }.count == 42)
        // The sample's grace periods are 16 days long: their end falls on day 17.
        #expect(report.graceLengths.map(\.days) == [16])
        #expect(report.graceLengths.map(\.day) == [17])
        #expect(collector.texts.contains("16-day grace ends on day 17"))
        // The axis covers the highest upper bound (day 60's 65.8 %) with nice ticks: 0–80 % by 20 %.
        let axis = RecoveryHazardChart(report: report).axis
        let highs = report.retryDays.compactMap { day in day.interval.map(\.high) }
        let highest = try #require(highs.max())
        #expect(axis.labels == ["0%", "20%", "40%", "60%", "80%"])
        #expect(axis.top >= highest)
        #expect(axis.top - Double(axis.step) / 10_000 < highest)
        for label in axis.labels { #expect(collector.texts.contains(label), "missing tick \(label)") }
    }

    @Test func hazardBreaksWhereNobodyIsAtRisk() throws {
        // Two episodes: one recovers on day 2, one stays open 10 days; nobody is at risk after day 10.
        let dataset = EpisodeDataset(
            asOf: T.may1 + 10 * T.day,
            episodes: [
                Episode(
                    subscription: "A", start: T.may1, end: T.may1 + T.day + T.hour, outcome: .recovered,
                    openingNotificationUUID: "a"),
                Episode(subscription: "B", start: T.may1, outcome: .open, openingNotificationUUID: "b"),
            ])
        let report = Report(dataset: dataset)
        let (isWellFormed, collector) = Self.parse(Self.hazard(report))
        #expect(isWellFormed)
        let polyline = try #require(
            zip(collector.elements, collector.attributes).first { $0.0 == "polyline" }?.1["points"])
        #expect(polyline.split(separator: " ").count == 10)
        #expect(report.graceLengths.isEmpty)
        #expect(!collector.texts.contains { $0.contains("grace ends") })
    }

    @Test func mostFrequentGraceLengthsAreMarked() {
        // Lengths 3 (×2), 6, 16 (×3), 28, 45 and 70 days: 70 ends past day 60; of the rest the four most frequent,
        // ties to the shorter, by day.
        let lengths = [3, 3, 6, 16, 16, 16, 28, 45, 70]
        let episodes = lengths.enumerated().map { index, days in
            Episode(
                subscription: "S\(index)", start: T.april1, hasGrace: true,
                graceEnd: T.april1 + Int64(days) * T.day, end: T.april1 + T.day, outcome: .recovered,
                openingNotificationUUID: "s\(index)")
        }
        let report = Report(dataset: EpisodeDataset(asOf: T.july1, episodes: episodes))
        #expect(report.graceLengths.map(\.days) == [3, 6, 16, 28])
        #expect(report.graceLengths.map(\.day) == [4, 7, 17, 29])
        let (isWellFormed, collector) = Self.parse(Self.hazard(report))
        #expect(isWellFormed)
        // Labels that would overlap go on different rows.
        let labels = zip(collector.elements, collector.attributes).filter { $0.0 == "text" }.map(\.1)
            .filter { ($0["fill"] ?? "") == "#b35900" }
        #expect(labels.count == 4)
        let rows = labels.compactMap { $0["y"] }
        #expect(rows[0] != rows[1])
    }
}
