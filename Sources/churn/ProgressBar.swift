import Foundation
import Ingest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on stderr (bytes, rate, ETA; see `LoadProgress.line(elapsedSeconds:width:)`), shown
/// only when stderr is a terminal, and cut to the terminal's width so that it never wraps.
final class ProgressBar {
    /// The shortest time between two redraws.
    private static let redrawInterval: TimeInterval = 0.2

    private let enabled: Bool
    private var lastDraw = Date.distantPast
    private let started = Date()
    private var drawn = false

    init(enabled: Bool) {
        self.enabled = enabled && Console.isInteractive
    }

    func update(_ progress: LoadProgress) {
        let now = Date()
        guard enabled, now.timeIntervalSince(lastDraw) >= Self.redrawInterval else { return }
        lastDraw = now
        // One column less than the terminal: a line that fills the last column leaves some terminals about to wrap.
        let line = progress.line(elapsedSeconds: now.timeIntervalSince(started), width: Self.terminalColumns() - 1)
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// The width of the terminal on stderr (`TIOCGWINSZ`), else `$COLUMNS`, else 80. Asked at every redraw, so a
    /// resized window is followed.
    static func terminalColumns() -> Int {
        var size = winsize()
        #if canImport(Glibc)
            let status = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size)
        #else
            let status = ioctl(STDERR_FILENO, TIOCGWINSZ, &size)
        #endif
        if status == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        return 80
    }
}
