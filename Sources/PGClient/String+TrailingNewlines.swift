extension String {
    /// The text without the line feeds and carriage returns at its end (libpq ends its messages with one).
    func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
