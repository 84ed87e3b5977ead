import Analysis
import Foundation
import Reports
import Testing
import TestSupport

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

    static func chart(_ report: Report, environment: String = "Production") -> String {
        SVGChart.recoveryCurve(
            report.curve, schedule: report.options.schedule, environment: environment, asOf: report.asOf)
    }

    @Test func isWellFormedSVG() throws {
        let svg = Self.chart(Sample.report())
        let (isWellFormed, collector) = Self.parse(svg)
        #expect(isWellFormed)
        #expect(collector.elements.first == "svg")
        #expect(collector.attributes.first?["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(collector.attributes.first?["width"] == String(SVGChart.width))
        #expect(collector.attributes.first?["viewBox"] == "0 0 \(SVGChart.width) \(SVGChart.height)")
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
        // Ticks at days 0/3/16/28/60 and 0–100 %, three Apple markers, four band labels.
        for label in ["0", "3", "16", "28", "60", "0%", "20%", "100%", "40%", "75%", "90%", "24 h", "120 h"] {
            #expect(collector.texts.contains(label), "missing text \(label)")
        }
        #expect(collector.elements.filter { $0 == "polygon" }.count == 4)  // 3 markers + the legend's
        #expect(!svg.contains("NaN") && !svg.contains("inf"))
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test func escapesText() {
        let svg = Self.chart(Sample.report(), environment: "<Prod & \"Test\">")
        let (isWellFormed, collector) = Self.parse(svg)
        #expect(isWellFormed)
        #expect(svg.contains("&lt;Prod &amp; &quot;Test&quot;&gt;"))
        #expect(collector.texts.contains { $0.contains("<Prod & \"Test\">") })
        #expect(SVGChart.escape("a'b\u{1}c") == "a&apos;b c")
    }

    @Test func noRecoveriesNoReferenceMarkers() {
        let dataset = EpisodeDataset(
            asOf: T.july1,
            episodes: [
                Episode(
                    subscription: "X", start: T.may1, end: T.may1 + 10 * T.day, outcome: .expired,
                    openingNotificationUUID: "x")
            ])
        let svg = Self.chart(Report(dataset: dataset))
        let (isWellFormed, collector) = Self.parse(svg)
        #expect(isWellFormed)
        #expect(collector.elements.filter { $0 == "polygon" }.count == 1)  // the legend's only
        #expect(collector.texts.contains { $0.contains("not shown, no recoveries by day 60") })
    }

    @Test func emptyDatasetStillDraws() {
        let report = Report(dataset: EpisodeDataset(asOf: T.july1))
        let (isWellFormed, _) = Self.parse(Self.chart(report))
        #expect(isWellFormed)
        #expect(report.pace.marks.allSatisfy { $0.shareOfDay60 == nil && $0.cifRecovery == 0 })
    }

    @Test func customScheduleBandsAreCutAtDaySixty() throws {
        let schedule = try MessageSchedule.parse("1-10 24h\n11-90 48h\n")
        let report = Report(dataset: Sample.dataset(), options: .init(schedule: schedule))
        let svg = SVGChart.recoveryCurve(report.curve, schedule: schedule, environment: "Production", asOf: T.july1)
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
}
