import CLibPQ

extension PGConnection {
    /// What libpq takes from the environment when given no conninfo (``init(url:applicationName:)`` with nil): the
    /// `PG*` variables and the service file entry `PGSERVICE` names, as a conninfo string (`host=/run/pg
    /// dbname=churn user=app`), which psql and `DATABASE_URL` take.
    ///
    /// Only settings that differ from libpq's compiled-in defaults are listed. The password is left out
    /// (`PGPASSWORD` and `~/.pgpass` stay where they are, and a program started with the same environment reads
    /// them itself), and so are libpq's debug options. Values are quoted by libpq's conninfo rules where needed.
    /// - Returns: an empty string when nothing is set (libpq's defaults all the way), or when libpq cannot say.
    package static func environmentConninfo() -> String {
        guard let options = PQconndefaults() else { return "" }
        defer { PQconninfoFree(options) }
        var settings: [String] = []
        var option = options
        while let keyword = option.pointee.keyword {
            defer { option += 1 }
            guard let value = option.pointee.val.map({ String(cString: $0) }), !value.isEmpty else { continue }
            let display = option.pointee.dispchar.map { String(cString: $0) } ?? ""
            guard !display.contains("*"), !display.contains("D") else { continue }
            if let compiled = option.pointee.compiled.map({ String(cString: $0) }), compiled == value { continue }
            settings.append(String(cString: keyword) + "=" + conninfoValue(value))
        }
        return settings.joined(separator: " ")
    }

    /// A conninfo value: as it is when it has no space, quote or backslash, else in single quotes with `'` and `\`
    /// escaped by a backslash.
    static func conninfoValue(_ value: String) -> String {
        let special: Set<Character> = [" ", "\t", "\n", "\r", "'", "\\"]
        guard value.contains(where: special.contains) else { return value }
        var quoted = "'"
        for character in value {
            if character == "'" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "'"
    }
}
