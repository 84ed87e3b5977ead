import Foundation

extension LoadProgress {
    /// The narrowest bar drawn, brackets included; a narrower line goes without one.
    static let minimumBarWidth = 12
    /// The widest bar drawn, brackets included.
    static let maximumBarWidth = 32
    /// A path is cut to no fewer columns than this (or its own width) before figures are left out.
    static let minimumPathWidth = 20

    /// The progress bar's line for a terminal `width` columns wide: never wider (counting one column per
    /// character), so it never wraps.
    ///
    /// In full: `2/5 data/demo/export.jsonl [#######.....] 45% 12.3 MB/27.4 MB 8.1 MB/s ETA 0:42 41,200 records 3
    /// rejected`: the file's place (with several files), its path, the bar, the share of all bytes read, the
    /// bytes, the rate and the estimated time left over the whole run, and the records and rejections of the
    /// file. When that does not fit, the bar goes first, then the rate, then the counts, and the middle of the
    /// path gives way to `…` so that its end, the file's name, stays. Without a total size (standard input)
    /// there is no bar, share or ETA; before any byte is read the ETA is `--:--`.
    ///
    /// - Parameters:
    ///   - elapsedSeconds: time since the load started, for the rate and the ETA.
    ///   - width: the columns available.
    package func line(elapsedSeconds: Double, width: Int) -> String {
        let width = max(width, 1)
        let counter = fileCount > 1 ? "\(fileIndex + 1)/\(fileCount) " : ""
        let path = file == "-" ? "<stdin>" : file
        let rate = elapsedSeconds > 0 ? Double(totalBytesRead) / elapsedSeconds : 0
        var amounts: [String] = []
        var fraction: Double?
        if let totalSize, totalSize > 0 {
            let share = min(max(Double(totalBytesRead) / Double(totalSize), 0), 1)
            fraction = share
            amounts.append("\(Int(share * 100))%")
            amounts.append(Self.bytes(totalBytesRead) + "/" + Self.bytes(totalSize))
        } else {
            amounts.append(Self.bytes(totalBytesRead))
        }
        let rateText = Self.bytes(Int64(rate)) + "/s"
        var eta: String?
        if let totalSize, totalSize > 0 {
            let remaining = Double(max(totalSize - totalBytesRead, 0))
            eta = "ETA " + (rate > 0 ? Self.duration(remaining / rate) : "--:--")
        }
        let counts = Self.grouped(records) + " records " + Self.grouped(rejected) + " rejected"

        // From the fullest to the barest: the bar, then the rate, then the counts give way.
        let choices: [(bar: Bool, parts: [String])] = [
            (true, amounts + [rateText] + (eta.map { [$0] } ?? []) + [counts]),
            (false, amounts + [rateText] + (eta.map { [$0] } ?? []) + [counts]),
            (false, amounts + (eta.map { [$0] } ?? []) + [counts]),
            (false, amounts + (eta.map { [$0] } ?? [])),
        ]
        for choice in choices {
            let tail = choice.parts.joined(separator: " ")
            let room = width - counter.count - 1 - tail.count
            if choice.bar {
                guard let fraction, room - path.count - 1 >= Self.minimumBarWidth else { continue }
                let bar = Self.bar(fraction, width: min(Self.maximumBarWidth, room - path.count - 1))
                return counter + path + " " + bar + " " + tail
            }
            if room >= min(path.count, Self.minimumPathWidth) {
                return counter + Self.elide(path, toWidth: room) + " " + tail
            }
        }
        let last = choices[choices.count - 1].parts.joined(separator: " ")
        let room = width - counter.count - 1 - last.count
        return String((counter + Self.elide(path, toWidth: max(room, 1)) + " " + last).prefix(width))
    }

    /// `text` cut to `width` columns by replacing its middle with `…`, keeping its file name (from the last `/`)
    /// whole when it fits and otherwise more of its end than of its start; as it is when it fits.
    package static func elide(_ text: String, toWidth width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String("…".prefix(max(width, 0))) }
        let kept = width - 1
        let name = text.lastIndex(of: "/").map { text.distance(from: $0, to: text.endIndex) } ?? 0
        let tail = min(kept, max(kept - kept / 3, name))
        return String(text.prefix(kept - tail)) + "…" + String(text.suffix(tail))
    }

    /// `[#####.......]`, `width` columns in all.
    static func bar(_ fraction: Double, width: Int) -> String {
        let inner = max(width - 2, 0)
        let filled = min(Int(fraction * Double(inner)), inner)
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: inner - filled) + "]"
    }

    /// `512 B`, `12.3 kB`, `12.3 MB`, `1.23 GB` (decimal units, as file sizes are usually given).
    package static func bytes(_ count: Int64) -> String {
        let value = Double(max(count, 0))
        switch value {
        case ..<1_000: return "\(Int(value)) B"
        case ..<1_000_000: return String(format: "%.1f kB", value / 1_000)
        case ..<1_000_000_000: return String(format: "%.1f MB", value / 1_000_000)
        default: return String(format: "%.2f GB", value / 1_000_000_000)
        }
    }

    /// `0:42`, `12:05`, `1:02:03`: whole seconds, rounded up, so a load never shows 0:00 while it still runs.
    package static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "--:--" }
        let total = Int(min(max(seconds.rounded(.up), 0), 359_999))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }

    /// `41,200`.
    static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (count < 0 ? "-" : "") + text
    }
}
